/* build: `docker build` of a local context on the engine (classic builder,
 * POST /build with version=1), with live output.
 *
 * The context is validated first (input errors, BYOC_E_USAGE, before
 * anything is sent), then streamed as a tar in a chunked request body while
 * the engine's JSON message stream is parsed into task events:
 *   BYOC_EV_STATUS   "Sending context", "Step 3/9", "Built"
 *   BYOC_EV_PROGRESS key "context" (file bytes sent / total), key "steps"
 *                    (step / steps), or a layer id while a base image is pulled
 *   BYOC_EV_LOG      each line of build output (Step lines, RUN output, ...)
 * A failing step is BYOC_E_FAILED with the engine's message (its container is
 * removed: rm=1, forcerm=1). Cancelling the
 * task closes the connection, which makes the engine stop the build and
 * remove its intermediate container. */
#ifndef BYOC_DOCKER_BUILD_H
#define BYOC_DOCKER_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

typedef struct byoc_build_opts {
    const char *context_dir;          /* required */
    const char *dockerfile;           /* NULL: <context>/Dockerfile; relative to the current directory */
    const char *const *tags;          /* references name[:tag] */
    size_t n_tags;
    const char *const *build_args;    /* "KEY=VALUE", or "KEY" (its value from the environment, else unset) */
    size_t n_build_args;
    const char *const *labels;        /* "KEY=VALUE" */
    size_t n_labels;
    const char *target;               /* stage, or NULL */
    const char *platform;             /* "linux/amd64"..., or NULL */
    const char *network;              /* network for RUN: "none", "host", ...; NULL = the engine's default */
    bool no_cache;
    bool pull;                        /* try to pull newer base images */
} byoc_build_opts;

typedef struct byoc_build_result {
    char *image_id;                   /* "sha256:..." */
    char **tags;                      /* as the engine reported them tagged */
    size_t n_tags;
    uint64_t context_files;
    uint64_t context_bytes;           /* file content bytes */
    uint64_t tar_bytes;               /* bytes sent */
} byoc_build_result;

/* Pure checks of the options (tags, build args, labels, platform, network,
 * target); BYOC_E_USAGE naming the flag. */
int byoc_build_validate(const byoc_build_opts *o, byoc_err *err);

/* Validate, stream, build. res is filled on success (free with byoc_build_result_clear). */
int byoc_build_run(byoc_engine *e, byoc_task *t, const byoc_build_opts *o, byoc_build_result *res, byoc_err *err);
void byoc_build_result_clear(byoc_build_result *r);

/* For byoc_task_start: a deep copy of the options bound to an engine (not owned). */
typedef struct byoc_build_job byoc_build_job;
byoc_build_job *byoc_build_job_new(byoc_engine *e, const byoc_build_opts *o);
void byoc_build_job_free(void *job);
/* The job's copy of the options. */
const byoc_build_opts *byoc_build_job_opts(const byoc_build_job *j);
/* byoc_task_fn: arg is a byoc_build_job; the result is a byoc_build_result*. */
int byoc_build_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

/* Parse a "Step N/M : ..." line of the classic builder. */
bool byoc_build_parse_step(const char *line, int *n, int *m);

#endif
