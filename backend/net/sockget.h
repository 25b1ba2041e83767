/* sockget: one small HTTP GET over a plain socket (a unix socket or TCP; no TLS, no proxy),
 * without libcurl, bounded in time and in size.
 *
 * For a quick check where loading libcurl (about 30 libraries, 15-20 ms: libcurl_api.h) costs
 * far more than the exchange: the TUI's status line asks the Docker engine for its version this
 * way right after the first frame. The request is HTTP/1.0 (Connection: close), so the reply
 * is never chunked and ends when the server closes; a Content-Length ends it sooner. */
#ifndef BYOC_NET_SOCKGET_H
#define BYOC_NET_SOCKGET_H

#include <stddef.h>

#include "core/err.h"
#include "core/task.h"
#include "net/http.h"

typedef struct byoc_sockget_req {
    const char *unix_path;   /* HTTP over this unix socket; NULL: TCP to host:port */
    const char *host;        /* TCP: a name or an address (an IPv6 one without brackets) */
    const char *port;        /* TCP: "2375" */
    const char *host_header; /* the Host header's value (NULL: host, or "localhost" on a unix socket) */
    const char *path;        /* "/version" */
    int timeout_ms;          /* the whole exchange, connecting included */
    size_t max_reply;        /* head and body together */
    byoc_task *task;         /* cancels the exchange (checked every 50 ms); may be NULL */
} byoc_sockget_req;

/* 0 when a whole HTTP reply came (any status): resp's status, headers and body filled (zero
 * resp first; byoc_http_resp_clear). -1 otherwise, err BYOC_E_NET ("network": cannot connect,
 * no whole reply within timeout_ms, a reply over max_reply bytes or not HTTP/1) or
 * BYOC_E_CANCELLED. Names are resolved with getaddrinfo, which the deadline does not bound. */
int byoc_sockget(const byoc_sockget_req *req, byoc_http_resp *resp, byoc_err *err);

/* The reply's parts from its bytes (pure, for the tests too): 0 with resp filled, -1 when
 * `reply` is not a whole HTTP/1 reply (err says why). */
int byoc_sockget_parse(const char *reply, size_t len, byoc_http_resp *resp, byoc_err *err);

#endif
