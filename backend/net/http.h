/* http: one HTTP exchange over libcurl, streaming both ways.
 *
 * Transports: http(s) over TCP (with a CA bundle, client cert, proxies from
 * the standard variables), and HTTP over a unix socket (the Docker engine).
 * Bodies stream: a request body can come from a read callback of known or
 * unknown (chunked) length, and a response body can go to a write callback;
 * otherwise they are buffered. Cancellation: when `task` is cancelled the
 * transfer is aborted from curl's progress callback.
 *
 * This layer does no retrying and no signing: aws/ re-signs per attempt and
 * uses net/retry.h for the decisions. */
#ifndef BYOC_NET_HTTP_H
#define BYOC_NET_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_header {
    char *name;
    char *value;
} byoc_header;

typedef struct byoc_headers {
    byoc_header *items;
    size_t len, cap;
} byoc_headers;

void byoc_headers_add(byoc_headers *h, const char *name, const char *value);
/* Replace (case-insensitive name) or add. */
void byoc_headers_set(byoc_headers *h, const char *name, const char *value);
/* Case-insensitive lookup of the first match, or NULL. */
const char *byoc_headers_get(const byoc_headers *h, const char *name);
void byoc_headers_remove(byoc_headers *h, const char *name);
void byoc_headers_clear(byoc_headers *h); /* wipes values: headers may carry secrets */

/* Request-body reader: fill up to n bytes, return count, 0 at end, (size_t)-1 on error. */
typedef size_t (*byoc_body_reader)(char *dst, size_t n, void *ud);
/* Response-body sink: consume n bytes; return 0, or non-zero to abort the transfer. */
typedef int (*byoc_body_sink)(const char *p, size_t n, void *ud);

typedef struct byoc_http_opts {
    const char *unix_socket;     /* HTTP over this unix socket (URL host then is ignored) */
    const char *ca_bundle;       /* PEM file of trusted CAs (AWS_CA_BUNDLE, DOCKER_CERT_PATH/ca.pem) */
    const char *client_cert;     /* PEM client certificate (Docker TLS) */
    const char *client_key;
    bool insecure_skip_verify;   /* never set by default; only for DOCKER_TLS_VERIFY unset on tcp+tls */
    long connect_timeout_ms;     /* 0: 10 s */
    long timeout_ms;             /* whole transfer; 0: none (streams may be long) */
    long low_speed_time_s;       /* abort if below low_speed_limit for this long; 0: 60 s for non-streaming */
    long low_speed_limit;        /* bytes/s; 0: 1 */
    size_t max_body;             /* a response body larger than this is refused (BYOC_E_FAILED,
                                    "larger than", resp.too_large): by its Content-Length before any
                                    byte is taken, else once passed (a sink gets at most this many
                                    bytes of a 2xx body); 0: no bound */
    bool no_proxy;               /* ignore proxy variables (unix sockets ignore them anyway) */
} byoc_http_opts;

typedef struct byoc_http_req {
    const char *method;          /* "GET", "POST", ... */
    const char *url;             /* full URL; for unix sockets "http://localhost/v1.41/..." */
    byoc_headers headers;        /* sent as given (caller owns) */
    const void *body;            /* in-memory body, or NULL */
    size_t body_len;
    byoc_body_reader body_reader;/* streaming body instead of `body` */
    void *body_ud;
    int64_t body_size;           /* with body_reader: length, or -1 for chunked */
    byoc_body_sink sink;         /* stream the response body here instead of buffering */
    void *sink_ud;
    const byoc_http_opts *opts;  /* may be NULL */
    byoc_task *task;             /* for cancellation; may be NULL */
} byoc_http_req;

typedef struct byoc_http_resp {
    long status;                 /* 0 if no response was received */
    byoc_headers headers;        /* of the final response, names as received */
    byoc_buf body;               /* when no sink was given */
    char curl_error[256];        /* transport error text, when any */
    int curl_code;               /* CURLcode, 0 on success */
    bool timed_out;              /* opts' deadline or progress bound ended the transfer */
    bool too_large;              /* opts' max_body ended it */
} byoc_http_resp;

/* Loads and initialises libcurl now (thread-safe); the first exchange does it otherwise, so
 * nothing that never talks HTTP pays for libcurl. byoc_http_global_cleanup at exit. */
int byoc_http_global_init(void);
void byoc_http_global_cleanup(void);

/* Perform one exchange. Returns 0 when an HTTP response was received (any
 * status), -1 on transport failure or cancellation with err filled
 * (BYOC_E_NET or BYOC_E_CANCELLED). resp must be zeroed by the caller. */
int byoc_http_do(const byoc_http_req *req, byoc_http_resp *resp, byoc_err *err);
void byoc_http_resp_clear(byoc_http_resp *resp);

/* Percent-encode per RFC 3986 keeping A-Za-z0-9-_.~ (and '/' when keep_slash). */
char *byoc_url_encode(const char *s, bool keep_slash);

/* A thread that made HTTPS calls ends: free what TLS keeps per thread (OpenSSL's random
 * generators). OpenSSL frees them at thread exit on its own, but not for every thread libcurl was
 * loaded into at run time (a leak under LeakSanitizer: e2e test_tui_journey's preflight). */
void byoc_http_thread_done(void);

#endif
