/* engine: a client of the Docker Engine API, speaking v1.41 or the engine's
 * own version when that is older.
 *
 * Where: DOCKER_HOST — unix:///path (default unix:///var/run/docker.sock),
 * tcp://host[:port] or host:port (2375, or 2376 with TLS); TLS when
 * DOCKER_TLS_VERIFY is non-empty (verify with DOCKER_CERT_PATH/ca.pem and
 * present cert.pem/key.pem; DOCKER_CERT_PATH defaults to ~/.docker), or
 * DOCKER_TLS (no verification). DOCKER_API_VERSION pins the version. ssh://,
 * fd:// and npipe:// hosts and docker contexts are not supported.
 *
 * The version is negotiated once (GET /_ping's Api-Version header, else
 * /version's ApiVersion, else 1.24) on the first request; every later path is
 * prefixed with /v<version>. When no engine answers the error is
 * BYOC_E_ENV (exit 3): "no Docker engine at <host>: <why>; start dockerd or
 * set DOCKER_HOST". Engine errors ({"message": ...}) become BYOC_E_FAILED with
 * that message and the HTTP status.
 *
 * A byoc_engine may be shared by tasks on several threads: the negotiation
 * runs once under a lock (later reads see its result), every exchange takes its
 * own curl handle (net/http.h), and the rest is fixed when it is made. Each
 * holder takes a reference (byoc_engine_ref) and drops it with byoc_engine_free;
 * docker/engines.h hands out one shared engine. */
#ifndef BYOC_DOCKER_ENGINE_H
#define BYOC_DOCKER_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/err.h"
#include "core/task.h"
#include "net/http.h"

#define BYOC_ENGINE_API_VERSION "1.41"

typedef struct byoc_engine byoc_engine;

/* From the environment (no I/O). A DOCKER_HOST byoc cannot use is BYOC_E_ENV. */
int byoc_engine_new(byoc_engine **out, byoc_err *err);
/* With an explicit host string in DOCKER_HOST syntax (TLS settings still from the environment). */
int byoc_engine_new_host(const char *host, byoc_engine **out, byoc_err *err);
/* How many engines this process has made so far: the tests compare it with a holder's count
 * (docker/engines.h) to tell that every task took its engine from the holder. */
unsigned long byoc_engine_count_made(void);
/* Another reference to e (returned; NULL stays NULL). */
byoc_engine *byoc_engine_ref(byoc_engine *e);
/* Drops a reference: the last one frees. NULL is a no-op. */
void byoc_engine_free(byoc_engine *e);

const char *byoc_engine_host(const byoc_engine *e);        /* e.g. "unix:///var/run/docker.sock" */
/* Negotiate now (done lazily otherwise). */
int byoc_engine_connect(byoc_engine *e, byoc_task *t, byoc_err *err);
const char *byoc_engine_api_version(const byoc_engine *e); /* "" before connecting */

/* What `byoc doctor` shows. */
typedef struct byoc_engine_info {
    char host[256];
    char api_version[16];         /* negotiated */
    char server_api_version[16];
    char min_api_version[16];
    char server_version[64];
    char os[32];
    char arch[32];
    char kernel[128];
} byoc_engine_info;

/* Connect (negotiating the version) and read GET /version. */
int byoc_engine_ping(byoc_engine *e, byoc_task *t, byoc_engine_info *info, byoc_err *err);
/* The version facts of a GET /version reply (MinAPIVersion, Version, Os, Arch, KernelVersion) into
 * info, each cut to whole UTF-8 characters; members missing or not strings are left as they are. */
typedef struct json_t json_t;
void byoc_engine_info_from_version(byoc_engine_info *info, const json_t *version);
/* The same from the environment in one call (for `byoc doctor`). */
int byoc_docker_ping(byoc_task *t, byoc_engine_info *info, byoc_err *err);

/* The engine's version without libcurl (net/sockget.h: a plain socket, no TLS), for the TUI's
 * status line right after its first frame: GET /version within timeout_ms. Fills info as
 * byoc_engine_ping does, but for api_version ("": nothing is negotiated). 0; -1 with err as
 * byoc_engine_ping's (no engine answered: BYOC_E_ENV; the engine's error: BYOC_E_FAILED with
 * http_status; BYOC_E_CANCELLED); 1 when the host needs TLS, which only byoc_engine_ping speaks. */
int byoc_engine_probe(const byoc_engine *e, byoc_task *t, int timeout_ms, byoc_engine_info *info, byoc_err *err);

/* Where a plain (non-TLS) connection goes: *unix_path, or NULL with host and port filled (an IPv6
 * address without brackets). false for a TLS host. */
bool byoc_engine_plain_address(const byoc_engine *e, const char **unix_path, char *host, size_t host_size,
                               char *port, size_t port_size);
/* The error when no engine answered at e's host: BYOC_E_ENV, "no Docker engine at <host>: <why>;
 * start dockerd or set DOCKER_HOST", `why` made plainer for a unix socket (missing, refused,
 * permission denied). Returns -1. */
int byoc_engine_unreachable(const byoc_engine *e, const char *why, byoc_err *err);

/* ---- requests ---- */

typedef struct byoc_engine_req {
    const char *method;            /* default GET */
    const char *path;              /* "/images/json": the version prefix is added */
    const char *query;             /* encoded "a=1&b=2" (see byoc_query_add) or NULL */
    json_t *json;                  /* JSON body, sent as application/json, or NULL */
    const void *body;              /* or a raw body ... */
    size_t body_len;
    const char *content_type;      /* ... of this type (default application/octet-stream) */
    byoc_body_reader reader;       /* or a streamed (chunked) body */
    void *reader_ud;
    byoc_body_sink sink;           /* stream a 2xx response here instead of buffering */
    void *sink_ud;
    const byoc_headers *headers;   /* extra request headers, may be NULL */
} byoc_engine_req;

/* One exchange. 0 when the engine answered (any status; resp filled, zero it
 * first), -1 on a transport failure or cancellation (err filled). */
int byoc_engine_do(byoc_engine *e, byoc_task *t, const byoc_engine_req *r, byoc_http_resp *resp,
                   byoc_err *err);

/* 0 for 2xx (and 304); else fills err from the engine's message, what = subject. */
int byoc_engine_check(const byoc_http_resp *resp, const char *what, byoc_err *err);

/* method + path (+ query, + JSON body) -> checked -> parsed JSON body in *out
 * (NULL for an empty body; out may be NULL to ignore it). */
int byoc_engine_call(byoc_engine *e, byoc_task *t, const char *method, const char *path, const char *query,
                     json_t *body, json_t **out, const char *what, byoc_err *err);

/* Append "&key=value" (percent-encoded) to an encoded query string. */
void byoc_query_add(byoc_buf *q, const char *key, const char *value);
void byoc_query_add_int(byoc_buf *q, const char *key, long long value);

/* Percent-encode one path segment (an image or container name): '/' and ':' are kept. */
char *byoc_engine_path_escape(const char *name);

#endif
