/* request: one AWS API call over HTTP: build it for a protocol, sign it
 * afresh on every attempt, send it with net/http, retry as net/retry decides,
 * and turn a failure into a byoc_err that says what went wrong.
 *
 * Protocols:
 *   JSON      POST / with X-Amz-Target and application/x-amz-json-1.1 (ECR, Logs)
 *   REST_JSON method + path + query, JSON body (Braket)
 *   QUERY     POST / form body Action=...&Version=..., XML reply (STS, IAM)
 *   REST_XML  method + path + query, raw or streamed body, XML reply (S3;
 *             S3 signing rules, x-amz-content-sha256, UNSIGNED-PAYLOAD allowed)
 * Errors: aws/errors.h reads a failed reply into a byoc_err; transport
 * failures are BYOC_E_NET.
 *
 * Service modules normally use aws/client.h; this layer is for code that has
 * its own credentials and endpoint (the credential chain's STS calls). */
#ifndef BYOC_AWS_REQUEST_H
#define BYOC_AWS_REQUEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "aws/endpoints.h"
#include "aws/errors.h"
#include "aws/sigv4.h"
#include "aws/xml.h"
#include "core/err.h"
#include "core/task.h"
#include "net/http.h"
#include "net/retry.h"

/* A set of credentials. Strings are owned; free with byoc_aws_creds_clear (wipes). */
typedef struct byoc_aws_creds {
    char *access_key_id;
    char *secret_access_key;
    char *session_token;  /* NULL for long-term keys */
    time_t expiration;    /* 0: does not expire */
} byoc_aws_creds;

void byoc_aws_creds_clear(byoc_aws_creds *c);
void byoc_aws_creds_copy(byoc_aws_creds *dst, const byoc_aws_creds *src);

typedef enum {
    BYOC_AWS_JSON,
    BYOC_AWS_REST_JSON,
    BYOC_AWS_QUERY,
    BYOC_AWS_REST_XML,
} byoc_aws_protocol;

/* Where and as whom: everything a call needs besides the call itself. */
typedef struct byoc_aws_ctx {
    const byoc_aws_endpoint *endpoint;
    const byoc_aws_creds *creds;    /* NULL: send unsigned (AssumeRoleWithWebIdentity) */
    const char *creds_origin;       /* for messages: "env", "profile dev (assume-role)"; may be NULL */
    const char *ca_bundle;          /* may be NULL */
    byoc_retry_mode retry_mode;
    int max_attempts;               /* < 1: the mode's default */
    byoc_sigv4_cache *sign_cache;   /* may be NULL */
    byoc_task *task;                /* cancellation and progress; may be NULL */
} byoc_aws_ctx;

typedef struct byoc_aws_call {
    byoc_aws_protocol protocol;
    const char *operation;          /* for messages and logs: "DescribeRepositories" */
    const char *method;             /* REST_*: "GET", "PUT"...; JSON/QUERY: NULL (POST) */
    const char *url;                /* full URL (S3 virtual host); else endpoint URL + path */
    const char *path;               /* REST_*: encoded path ("/job/arn%3Aaws..."); NULL: "/" */
    const char *query;              /* encoded query without '?', or NULL */
    const char *target;             /* JSON: X-Amz-Target */
    const char *content_type;       /* NULL: the protocol's */
    const byoc_headers *headers;    /* extra headers, may be NULL */
    const void *body;               /* in-memory body */
    size_t body_len;
    byoc_body_reader body_reader;   /* or a streamed body of body_size bytes (-1: chunked) */
    void *body_ud;
    int64_t body_size;
    int (*body_rewind)(void *ud);   /* restart the stream for a retry; NULL: no retries once sent */
    const char *payload_hash;       /* hex SHA-256 of the body or BYOC_SIGV4_UNSIGNED_PAYLOAD;
                                       required with body_reader; NULL: computed */
    /* Called after each attempt is signed and before it is sent (aws-chunked
     * bodies seed their chunk signatures here: byoc_sigv4_chunker_init(&ck, p, r)
     * and restart framing). Not called for unsigned calls. */
    void (*on_signed)(void *body_ud, const byoc_sigv4_params *p, const byoc_sigv4_result *r);
    byoc_body_sink sink;            /* stream a 2xx body here instead of buffering */
    void *sink_ud;
    int (*sink_rewind)(void *ud);   /* discard what the sink got, for a retry after a partial body;
                                       NULL: no retry once the sink has received bytes */
    long timeout_ms;                /* one attempt's deadline: 0: the API deadline for a small call,
                                       none for a transfer (see byoc_aws_deadline_ms); < 0: none */
    size_t max_body;                /* with a sink: a body larger than this is refused (by its
                                       Content-Length before the sink sees a byte, else once passed;
                                       resp.too_large); 0: no bound */
} byoc_aws_call;

/* Bounds on every call, as a hostile or stuck service would otherwise have none:
 * - a small call (no sink, no body reader, a body up to BYOC_AWS_SMALL_BODY)
 *   gets one overall deadline for the whole call, its retries and their
 *   back-off included: BYOC_API_TIMEOUT seconds (1-3600,
 *   default 60; botocore bounds each socket read instead, its Config
 *   read_timeout, 60 s by default, which a reply dripping a byte at a time
 *   never trips), and its reply a size cap (BYOC_AWS_REPLY_MAX);
 * - a transfer (a streamed upload or download, a large body, or timeout_ms < 0)
 *   must make progress: below BYOC_AWS_MIN_RATE bytes/s for
 *   BYOC_TRANSFER_STALL seconds (default 60) ends it. */
#define BYOC_AWS_SMALL_BODY (1024 * 1024)
#define BYOC_AWS_REPLY_MAX (16 * 1024 * 1024)
#define BYOC_AWS_MIN_RATE 1024
/* The deadline of one attempt of call, in ms (0: none, progress-based). */
long byoc_aws_deadline_ms(const byoc_aws_call *call);
/* The deadline of a small call as a whole, its attempts and back-off included: the API deadline
 * (0 for a transfer). An attempt gets the lesser of its own deadline and what is left of this. */
long byoc_aws_call_deadline_ms(const byoc_aws_call *call);

typedef struct byoc_aws_response {
    long status;
    byoc_headers headers;
    byoc_buf body;                  /* empty when a sink took it */
    char request_id[96];
    bool too_large;                 /* the call failed on the body's size bound */
} byoc_aws_response;

void byoc_aws_response_clear(byoc_aws_response *r);

/* Perform the call. 0 on a 2xx (S3's "200 with <Error>" counts as a failure),
 * else -1 with err filled as described above. resp may be NULL; when given it
 * is filled on success (and on a service error, with the error reply). */
int byoc_aws_do(const byoc_aws_ctx *ctx, const byoc_aws_call *call, byoc_aws_response *resp, byoc_err *err);

/* The protocol shapes on a context (client.h wraps these):
 * JSON: POST / X-Amz-Target=target, body (NULL: {}), *out = reply object.
 * REST_JSON: operation name (for messages: "GetJob"), method, encoded path and
 *   query, body (NULL: none), *out reply object (may be NULL), *status (may be NULL).
 * QUERY: Action/Version + params (key, value, ..., NULL), *out = reply XML (may be NULL). */
int byoc_aws_json_do(const byoc_aws_ctx *ctx, const char *target, json_t *body, json_t **out, byoc_err *err);
int byoc_aws_rest_json_do(const byoc_aws_ctx *ctx, const char *operation, const char *method, const char *path,
                          const char *query, json_t *body, json_t **out, long *status, byoc_err *err);
int byoc_aws_query_do(const byoc_aws_ctx *ctx, const char *action, const char *version,
                      const char *const *params, byoc_aws_xml **out, byoc_err *err);

/* ---- helpers for replies ------------------------------------------------------ */

/* XML replies: aws/xml.h (byoc_aws_xml_parse, byoc_aws_xml_text, ...). */

/* Append "key=value" form-encoded (RFC 3986, as the query protocol wants),
 * with '&' before it when b is not empty. */
void byoc_aws_form_add(byoc_buf *b, const char *key, const char *value);

/* Parse an ISO 8601 UTC time ("2024-05-01T12:00:00Z", fractions and
 * +hh:mm offsets accepted). 0, or -1 if malformed. */
int byoc_aws_parse_time(const char *s, time_t *out);

#endif
