/* containers: what the local job runner needs from the engine — create
 * (env, binds, network mode, user, working dir, entrypoint/cmd), start,
 * wait, logs (demultiplexed as they stream), copying files in and out as
 * tar archives, kill, remove, inspect and list.
 *
 * With AutoRemove the container and its logs vanish at exit: open
 * byoc_container_wait(..., "next-exit") and the logs with follow on other
 * tasks before starting it. */
#ifndef BYOC_DOCKER_CONTAINERS_H
#define BYOC_DOCKER_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"
#include "docker/frames.h"

typedef struct byoc_container_spec {
    const char *name;                   /* or NULL for a generated one */
    const char *image;                  /* required */
    const char *const *cmd;             /* NULL: the image's CMD */
    size_t n_cmd;
    const char *const *entrypoint;      /* NULL: the image's; set with n = 0 to clear it */
    size_t n_entrypoint;
    bool entrypoint_set;                /* send entrypoint even when n_entrypoint is 0 */
    const char *const *env;             /* "KEY=VALUE" */
    size_t n_env;
    const char *const *binds;           /* "/host/path:/container/path[:ro]" */
    size_t n_binds;
    const char *const *labels;          /* "KEY=VALUE" */
    size_t n_labels;
    const char *network_mode;           /* "none", "host", "bridge", ...; NULL: engine default */
    const char *user;                   /* "uid[:gid]" or a name; NULL: the image's */
    const char *working_dir;            /* NULL: the image's */
    bool tty;
    bool auto_remove;
    int64_t memory;                     /* bytes, 0 = no limit */
    int64_t nano_cpus;                  /* 1e9 = one CPU, 0 = no limit */
    int64_t shm_size;                   /* bytes, 0 = default */
} byoc_container_spec;

/* POST /containers/create; *id gets the new id (caller frees). */
int byoc_container_create(byoc_engine *e, byoc_task *t, const byoc_container_spec *s, char **id, byoc_err *err);
int byoc_container_start(byoc_engine *e, byoc_task *t, const char *id, byoc_err *err);
/* Blocks until the condition ("not-running", "next-exit", "removed"; NULL =
 * not-running). *exit_code gets StatusCode; the engine's wait error, if any, fails the call. */
int byoc_container_wait(byoc_engine *e, byoc_task *t, const char *id, const char *condition, int64_t *exit_code,
                        byoc_err *err);

typedef struct byoc_logs_opts {
    bool follow;
    bool no_stdout, no_stderr;          /* both streams by default */
    bool timestamps;
    int64_t since;                      /* unix seconds, 0 = from the start */
    const char *tail;                   /* "all" or a number, NULL = all */
    int tty;                            /* 1: raw stream, 0: framed, -1: ask the engine (Config.Tty) */
} byoc_logs_opts;

/* GET /containers/{id}/logs; fn gets each piece of output with its stream
 * (BYOC_STREAM_STDOUT/STDERR) as it arrives. */
int byoc_container_logs(byoc_engine *e, byoc_task *t, const char *id, const byoc_logs_opts *o, byoc_frame_fn fn,
                        void *ud, byoc_err *err);

/* GET /containers/{id}/archive?path=: the tar (entries under the basename of
 * path) streamed to sink. */
int byoc_container_archive_get(byoc_engine *e, byoc_task *t, const char *id, const char *path, byoc_body_sink sink,
                               void *ud, byoc_err *err);
/* PUT /containers/{id}/archive?path=DIR: extract a tar into an existing
 * directory; the tar comes from reader (streamed) or from buf/len. */
int byoc_container_archive_put(byoc_engine *e, byoc_task *t, const char *id, const char *dir,
                               byoc_body_reader reader, void *reader_ud, const void *buf, size_t len,
                               byoc_err *err);

/* signal: "SIGTERM", "KILL", ...; NULL = SIGKILL. */
int byoc_container_kill(byoc_engine *e, byoc_task *t, const char *id, const char *signal, byoc_err *err);
int byoc_container_remove(byoc_engine *e, byoc_task *t, const char *id, bool force, bool volumes, byoc_err *err);
/* GET /containers/{id}/json. Caller decrefs. */
int byoc_container_inspect(byoc_engine *e, byoc_task *t, const char *id, json_t **out, byoc_err *err);
/* GET /containers/json: all (stopped too), filters as the engine takes them
 * ({"label": ["k=v"], "ancestor": ["img"], ...}) or NULL. Caller decrefs the array. */
int byoc_containers_list(byoc_engine *e, byoc_task *t, bool all, json_t *filters, json_t **out, byoc_err *err);

#endif
