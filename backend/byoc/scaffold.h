/* scaffold: `byoc init` — renders a recipe into a project directory:
 * Dockerfile (recipe 1 extend-prebuilt, or recipe 2 custom-base for Python,
 * Julia, Rust or C++, amd64 or arm64, CPU or CUDA), byoc's entry point and
 * helpers (custom base), .dockerignore, .gitignore and byoc.json; then makes
 * the directory a git repository with one commit. When the directory has code
 * in the language (adopt.h), byoc.json's job points at it, the Dockerfile uses
 * its manifests and no sample is added; else a sample algorithm is. A file that
 * exists is kept, overwritten or written beside as its choice says (default keep). */
#ifndef BYOC_BYOC_SCAFFOLD_H
#define BYOC_BYOC_SCAFFOLD_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/project.h"
#include "byoc/recipe.h"
#include "core/err.h"
#include "core/strv.h"

typedef struct json_t json_t;

/* What init does with a file it would write that exists already. */
typedef enum {
    BYOC_EXISTING_KEEP,       /* leave it as it is (the default) */
    BYOC_EXISTING_OVERWRITE,  /* replace it with byoc's */
    BYOC_EXISTING_BESIDE,     /* write byoc's next to it, as <path>.byoc */
} byoc_existing;

int byoc_existing_parse(const char *s, byoc_existing *out);   /* 0 or -1 */

typedef struct byoc_init_options {
    const char *dir;
    byoc_recipe recipe;        /* EXTEND_PREBUILT or CUSTOM_BASE */
    byoc_language language;
    byoc_arch arch;
    bool gpu;
    const char *base_image;    /* NULL: the recipe's default for language/arch/gpu */
    const char *region;        /* for the prebuilt image URI; NULL: us-east-1 */
    const char *python;        /* the Python series of a custom base ("3.13"); NULL: the prebuilt's */
    bool private_deps;         /* the code needs private dependencies (decide) */
    bool force;                /* overwrite files that exist (= existing OVERWRITE) */
    byoc_existing existing;    /* for a file that exists and has no choice of its own */
    const byoc_kv *choices;    /* per file: {path, "keep"|"overwrite"|"beside"} */
    size_t n_choices;
    bool git;                  /* create a repository and commit (when dir is not in one) */
    const char *assets_dir;    /* NULL: byoc_assets_dir() */
} byoc_init_options;

typedef struct byoc_init_file {
    char *path;                /* relative to dir */
    char *content;
    size_t len;
    unsigned mode;
} byoc_init_file;

typedef struct byoc_init_plan {
    byoc_init_file *files;
    size_t n;
    bool adopted;              /* the directory's code is the job's (no sample) */
    char *source_module;       /* what byoc.json's job names */
    char *entry_point;
} byoc_init_plan;

typedef struct byoc_init_result {
    byoc_strv files;           /* written, relative to dir */
    byoc_strv kept;            /* existed and were left as they are */
    byoc_strv beside;          /* byoc's version written beside an existing file (<path>.byoc) */
    bool adopted;
    char *source_module, *entry_point;
    bool git_created;
    char commit[41];           /* "" when nothing was committed */
    char *git_note;            /* why nothing was committed, or NULL */
} byoc_init_result;

/* Where the assets are: $BYOC_ASSETS_DIR, else <exe>/../share/byoc/assets, else the
 * source tree's assets/ (compiled in). */
const char *byoc_assets_dir(void);

/* Check the combination (recipe 1 is Python on amd64 only): kind USAGE naming the flag. */
int byoc_init_validate(const byoc_init_options *o, byoc_err *err);

/* Render every file in memory (reads the assets; writes nothing). */
int byoc_init_render(const byoc_init_options *o, byoc_init_plan *plan, byoc_err *err);
void byoc_init_plan_clear(byoc_init_plan *plan);

/* The files of plan that already exist in dir with content other than what
 * byoc would write: the ones to choose for (relative paths). */
void byoc_init_conflicts(const char *dir, const byoc_init_plan *plan, byoc_strv *out);

/* validate + render + write (each existing file as its choice says) + git. */
int byoc_init_project(const byoc_init_options *o, byoc_init_result *res, byoc_err *err);
void byoc_init_result_clear(byoc_init_result *res);

/* {"files": [...], "kept": [...], "beside": [...], "adopted", "source_module", "entry_point",
 * "git": {"created", "commit", "note"}}. Caller decrefs. */
json_t *byoc_init_result_to_json(const byoc_init_result *res);

#endif
