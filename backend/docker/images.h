/* images: local images on the engine — list, inspect, history, tag, remove —
 * and the rows the image browser and `byoc images` show.
 * String arrays here are NULL-terminated, with their count beside them. */
#ifndef BYOC_DOCKER_IMAGES_H
#define BYOC_DOCKER_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

typedef struct byoc_image_summary {
    char *id;                 /* "sha256:..." */
    char **repo_tags;         /* "repo:tag" ("<none>:<none>" entries dropped) */
    size_t n_repo_tags;
    char **repo_digests;      /* "repo@sha256:..." */
    size_t n_repo_digests;
    int64_t created;          /* unix seconds */
    int64_t size;             /* bytes */
} byoc_image_summary;

typedef struct byoc_image_list {
    byoc_image_summary *items;
    size_t n;
} byoc_image_list;

/* GET /images/json. all: intermediate images too; reference: a filter
 * ("repo", "repo:tag", with wildcards as the engine allows), or NULL. */
int byoc_images_list(byoc_engine *e, byoc_task *t, bool all, const char *reference, byoc_image_list *out,
                     byoc_err *err);
void byoc_image_list_clear(byoc_image_list *l);

/* GET /images/{name}/json: the engine's document (Id, RepoTags, RepoDigests,
 * Created, Config{Cmd,Entrypoint,Env,WorkingDir,User,Labels}, Architecture,
 * Os, Size, RootFS{Layers}). A missing image is BYOC_E_FAILED with
 * http_status 404. Caller decrefs *out. */
int byoc_image_inspect(byoc_engine *e, byoc_task *t, const char *name, json_t **out, byoc_err *err);

typedef struct byoc_image_layer {
    char *id;                 /* "sha256:..." or "<missing>" */
    int64_t created;
    char *created_by;
    char **tags;
    size_t n_tags;
    int64_t size;
    char *comment;
} byoc_image_layer;

typedef struct byoc_image_history {
    byoc_image_layer *items;  /* newest first */
    size_t n;
} byoc_image_history;

int byoc_image_history_get(byoc_engine *e, byoc_task *t, const char *name, byoc_image_history *out,
                           byoc_err *err);
void byoc_image_history_clear(byoc_image_history *h);

/* Tag source (name or id) as target "repo[:tag]" (tag defaults to latest).
 * A bad target reference is BYOC_E_USAGE. */
int byoc_image_tag(byoc_engine *e, byoc_task *t, const char *source, const char *target, byoc_err *err);

typedef struct byoc_image_removal {
    char **untagged;
    size_t n_untagged;
    char **deleted;
    size_t n_deleted;
} byoc_image_removal;

/* DELETE /images/{name}; force: also when containers use it or it has
 * several tags; noprune: keep untagged parents. report may be NULL. */
int byoc_image_remove(byoc_engine *e, byoc_task *t, const char *name, bool force, bool noprune,
                      byoc_image_removal *report, byoc_err *err);
void byoc_image_removal_clear(byoc_image_removal *r);

/* ---- what the browser and `byoc images` show: one row per image and repository ---- */

typedef struct byoc_image_row {
    char *repository;         /* "<none>" for an untagged image */
    char **tags;              /* that repository's tags of the image */
    size_t n_tags;
    char *digest;             /* "sha256:..." from RepoDigests for that repository, or NULL */
    char *id;                 /* the image id */
    int64_t size;
    int64_t created;
} byoc_image_row;

/* Rows sorted by repository, then newest first. */
void byoc_image_rows(const byoc_image_list *l, byoc_image_row **rows, size_t *n);
void byoc_image_rows_free(byoc_image_row *rows, size_t n);
/* {"images": [{"repository", "tags", "digest", "size", "created" (RFC 3339 UTC), "id"}]}. Caller decrefs. */
json_t *byoc_image_rows_json(const byoc_image_row *rows, size_t n);

#endif
