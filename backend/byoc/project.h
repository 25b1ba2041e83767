/* project: byoc.json, the project file where the forms remember their answers
 * (recipe, language, arch, GPU, base image, Dockerfile, context, tags, build
 * args) and the job form's fields (the "job" object, owned by the job form).
 *
 * Keys byoc does not know are kept: load, change, save round-trips them.
 * Saving writes a temporary file and renames it over byoc.json, mode 0600. */
#ifndef BYOC_BYOC_PROJECT_H
#define BYOC_BYOC_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/kv.h"

#define BYOC_PROJECT_FILE "byoc.json"

typedef struct json_t json_t;

typedef struct byoc_project {
    char *name;          /* image/repository name stem; NULL if unset */
    char *recipe;        /* "prebuilt" | "extend-prebuilt" | "custom-base", or NULL */
    char *language;      /* "python" | "julia" | "rust" | "cpp", or NULL */
    char *arch;          /* "amd64" | "arm64", or NULL (means amd64) */
    bool gpu;
    char *base_image;    /* the FROM image the scaffold used, or NULL */
    char *dockerfile;    /* relative to the project directory; default "Dockerfile" */
    char *context;       /* build context relative to the project directory; default "." */
    char **tags;         /* image references to tag builds with */
    size_t n_tags;
    byoc_kv *build_args;
    size_t n_build_args;
    json_t *job;         /* the job form's fields: an object, never NULL after init/load */
    json_t *doc;         /* the document as read (unknown keys live here); never NULL */
} byoc_project;

/* Defaults: no recipe/language, dockerfile "Dockerfile", context ".", empty job. */
void byoc_project_init(byoc_project *p);
void byoc_project_clear(byoc_project *p);

/* Parse a byoc.json text. Wrong types or values fail with kind USAGE naming
 * the key ("byoc.json: arch"). p is initialised by the call; on failure it
 * holds nothing to free (byoc_project_clear is still safe). */
int byoc_project_parse(byoc_project *p, const char *text, size_t len, byoc_err *err);

/* Load <dir>/byoc.json. A missing file is not an error: p gets the defaults
 * and *found (may be NULL) is false. On failure p holds nothing to free. */
int byoc_project_load(byoc_project *p, const char *dir, bool *found, byoc_err *err);

/* The document to write: the unknown keys as read, with byoc's fields over them.
 * Caller decrefs. */
json_t *byoc_project_to_json(const byoc_project *p);

/* Write <dir>/byoc.json atomically, mode 0600. */
int byoc_project_save(const byoc_project *p, const char *dir, byoc_err *err);

/* Add or replace a build arg. */
void byoc_project_set_build_arg(byoc_project *p, const char *key, const char *value);
const char *byoc_project_build_arg(const byoc_project *p, const char *key);
/* job.<key> when it is a string, else NULL. */
const char *byoc_project_job_string(const byoc_project *p, const char *key);

/* The project's last push (byoc.json "pushed": {"image_uri", "digest"}): run's default image
 * and the repository Permit starts from. */
const char *byoc_project_pushed_image(const byoc_project *p);  /* its image URI, or NULL */
void byoc_project_set_pushed(byoc_project *p, const char *image_uri, const char *digest);
/* Record a push in <dir>/byoc.json, as `byoc push` and the TUI's Push do: only a project that
 * has a byoc.json remembers (none is made). -1 with err when byoc.json could not be read or
 * written. */
int byoc_project_record_push(const char *dir, const char *image_uri, const char *digest, byoc_err *err);

#endif
