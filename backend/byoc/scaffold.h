/* scaffold: `byoc init` — renders a recipe into a project directory:
 * Dockerfile (recipe 1 extend-prebuilt, or recipe 2 custom-base for Python,
 * Julia, Rust or C++, amd64 or arm64, CPU or CUDA), byoc's entry point and
 * helpers (custom base), a sample algorithm, .dockerignore, .gitignore and
 * byoc.json; then makes the directory a git repository with one commit.
 * A user's file is never overwritten without `force`. */
#ifndef BYOC_BYOC_SCAFFOLD_H
#define BYOC_BYOC_SCAFFOLD_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/recipe.h"
#include "byoc/strv.h"
#include "core/err.h"

typedef struct json_t json_t;

typedef struct byoc_init_options {
    const char *dir;
    byoc_recipe recipe;        /* EXTEND_PREBUILT or CUSTOM_BASE */
    byoc_language language;
    byoc_arch arch;
    bool gpu;
    const char *base_image;    /* NULL: the recipe's default for language/arch/gpu */
    const char *region;        /* for the prebuilt image URI; NULL: us-east-1 */
    bool force;                /* overwrite files that exist */
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
} byoc_init_plan;

typedef struct byoc_init_result {
    byoc_strv files;           /* written, relative to dir */
    bool git_created;
    char commit[41];           /* "" when nothing was committed */
    char *git_note;            /* why nothing was committed, or NULL */
} byoc_init_result;

/* Where the assets are: $BYOC_ASSETS_DIR, else <exe>/../share/byoc/assets, else the
 * source tree's assets/ (compiled in). */
const char *byoc_assets_dir(void);

/* The default base image of a recipe. Caller frees. */
char *byoc_default_base_image(byoc_recipe r, byoc_language l, bool gpu, const char *region);

/* Check the combination (recipe 1 is Python on amd64 only): kind USAGE naming the flag. */
int byoc_init_validate(const byoc_init_options *o, byoc_err *err);

/* Render every file in memory (reads the assets; writes nothing). */
int byoc_init_render(const byoc_init_options *o, byoc_init_plan *plan, byoc_err *err);
void byoc_init_plan_free(byoc_init_plan *plan);

/* The files of plan that already exist in dir (relative paths). */
void byoc_init_existing(const char *dir, const byoc_init_plan *plan, byoc_strv *out);

/* validate + render + refuse to overwrite (kind USAGE listing the files, unless force)
 * + write + git. */
int byoc_init_project(const byoc_init_options *o, byoc_init_result *res, byoc_err *err);
void byoc_init_result_free(byoc_init_result *res);

/* {"files": [...], "git": {"created", "commit", "note"}}. Caller decrefs. */
json_t *byoc_init_result_to_json(const byoc_init_result *res);

#endif
