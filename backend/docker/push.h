/* push: `docker push` of one tag through the engine (POST /images/{name}/push),
 * with per-layer progress.
 *
 * The engine does the registry work; byoc hands it the credentials in
 * X-Registry-Auth (registry_auth.h) and reads its JSON message stream:
 *   {"status":"The push refers to repository [...]"}
 *   per layer (id = 12 hex of the layer's DiffID): Preparing, Waiting, Pushing
 *     + progressDetail{current,total}, Pushed | Layer already exists |
 *     Mounted from <repo> | Skipped foreign layer, Retrying in N seconds
 *   {"status":"<tag>: digest: sha256:... size: N"}, {"aux":{"Tag","Digest","Size"}}
 *   errors: {"errorDetail":{"message"}} (always inside an HTTP 200)
 * Task events: BYOC_EV_PROGRESS with key = layer id, text = its status,
 * current/total = bytes (total -1 until known; current may exceed total: the
 * engine counts uncompressed bytes read against the compressed size), and
 * BYOC_EV_STATUS for overall steps. A stream error is BYOC_E_FAILED whose
 * message names the layers that made it and those that did not; the report
 * keeps every layer's last state either way. */
#ifndef BYOC_DOCKER_PUSH_H
#define BYOC_DOCKER_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

typedef enum {
    BYOC_LAYER_PREPARING,
    BYOC_LAYER_WAITING,
    BYOC_LAYER_PUSHING,
    BYOC_LAYER_RETRYING,
    BYOC_LAYER_PUSHED,      /* uploaded now */
    BYOC_LAYER_EXISTS,      /* the registry had it */
    BYOC_LAYER_MOUNTED,     /* mounted from another repository */
    BYOC_LAYER_SKIPPED,     /* foreign layer */
} byoc_layer_state;

/* "preparing", "waiting", "pushing", "retrying", "pushed", "exists", "mounted", "skipped". */
const char *byoc_layer_state_name(byoc_layer_state s);
/* True for the states that mean the registry has the layer. */
bool byoc_layer_state_done(byoc_layer_state s);

typedef struct byoc_push_layer {
    char id[72];              /* as the engine names it (12 hex) */
    byoc_layer_state state;
    char status[96];          /* the engine's last words on it */
    int64_t current, total;   /* bytes; -1 when unknown */
} byoc_push_layer;

typedef struct byoc_push_report {
    byoc_push_layer *layers;  /* in order of first appearance */
    size_t n_layers;
    char *digest;             /* the manifest digest ("sha256:..."), or NULL */
    int64_t size;             /* manifest size, -1 if unknown */
    char *tag;
    char *error;              /* the stream's error message, or NULL */
} byoc_push_report;

void byoc_push_report_clear(byoc_push_report *r);

/* Push repository:tag (repository includes the registry host; tag required).
 * registry_auth: the X-Registry-Auth value (NULL: anonymous). report is
 * always filled (free it); on a stream error err says which layers failed. */
int byoc_docker_push(byoc_engine *e, byoc_task *t, const char *repository, const char *tag,
                     const char *registry_auth, byoc_push_report *report, byoc_err *err);

/* Does a push error message mean the registry refused the credentials? */
bool byoc_push_error_is_auth(const char *message);

#endif
