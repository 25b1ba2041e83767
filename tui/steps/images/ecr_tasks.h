/* ecr_tasks: the image browser's ECR work as tasks for tui_app_start_task.
 * Each task takes its AWS clients for the profile and region in its
 * tui_ecr_args from the app's pool (tui_app_aws; NULL: clients of its own),
 * which outlives the app's tasks, and its engine from args->engines (the
 * app's, tui_app_engines; NULL: an engine of its own).
 *
 *   repos    DescribeRepositories over every page. DONE: tui_ecr_repos_result *.
 *   counts   the image count (distinct digests of ListImages, every page) of
 *            each of args->names, at most TUI_ECR_COUNT_MAX of them; -1 for
 *            one that could not be counted. DONE: tui_ecr_counts_result *.
 *   images   DescribeImages of args->repository over every page, and the
 *            local images' RepoDigests from the engine (an engine that cannot
 *            be reached only leaves the "local" marks out: engine_error).
 *            DONE: tui_ecr_images_result *.
 *   platforms the platforms of each index in args->doc (byoc_ecr_images_json
 *            of args->repository's images), read from the registry as
 *            `byoc images --repository` reads them (byoc/imageplatforms.h: one
 *            ECR token, one GET an index, at most 100), after the listing so
 *            that it shows without waiting for them.
 *            DONE: tui_ecr_platforms_result *, a text for each index (what
 *            kept one from being read too, never a guess).
 *   delete   BatchDeleteImage of args->digest in args->repository.
 *            DONE: tui_ecr_delete_result * (per-image failures are in it).
 *   pushed   which of args->refs (local RepoDigests) ECR lists: for each one
 *            on an ECR registry, DescribeImages by digest where it points (its
 *            own region and account's registry; args->region does not matter)
 *            by repository, at most 100 ids a request, one by one when one of
 *            them is missing. At most TUI_ECR_CHECK_MAX refs.
 *            DONE: tui_ecr_refs * of the confirmed refs. */
#ifndef BYOC_TUI_ECR_TASKS_H
#define BYOC_TUI_ECR_TASKS_H

#include <stdbool.h>
#include <stddef.h>

#include "aws/clients.h"
#include "aws/ecr.h"
#include "core/task.h"
#include "docker/engines.h"
#include "ecr_model.h"

#define TUI_ECR_COUNT_MAX 50
#define TUI_ECR_CHECK_MAX 200

typedef struct tui_ecr_args {
    byoc_aws_clients *clients;   /* borrowed, or NULL */
    byoc_engines *engines;       /* borrowed, or NULL (images: the local marks) */
    char *profile, *region;
    char *repository;        /* images, delete */
    char *uri;               /* images: the repository's URI */
    char *digest;            /* delete */
    json_t *doc;             /* platforms: {"images": [...]} */
    tui_ecr_refs refs;       /* pushed */
    char **names;            /* counts: repository names */
    size_t n_names;
} tui_ecr_args;

tui_ecr_args *tui_ecr_args_new(byoc_aws_clients *clients, const char *profile, const char *region);
void tui_ecr_args_free(void *args);

typedef struct tui_ecr_repos_result {
    byoc_ecr_repository *repos;
    size_t n;
    char *region;
} tui_ecr_repos_result;

typedef struct tui_ecr_counts_result {
    char **names;
    long *counts;            /* -1: not counted */
    size_t n;
} tui_ecr_counts_result;

typedef struct tui_ecr_images_result {
    char *repository;
    char *uri;               /* the repository's URI */
    byoc_ecr_image_list images;
    tui_ecr_refs local;      /* every local RepoDigest */
    char *engine_error;      /* why local is empty, or NULL */
} tui_ecr_images_result;

typedef struct tui_ecr_platforms_result {
    char *repository;
    char **digests;
    char **texts;            /* byoc_image_platforms_text of digests[i], as the registry wrote it */
    size_t n;
} tui_ecr_platforms_result;

typedef struct tui_ecr_delete_result {
    char *repository;
    char *digest;
    byoc_ecr_delete_result out;
} tui_ecr_delete_result;

int tui_ecr_repos_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_ecr_counts_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_ecr_images_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_ecr_platforms_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_ecr_delete_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_ecr_pushed_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
