#include "aws/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/str.h"
#include "core/utf8.h"
#include "net/deadline.h"

#ifndef BYOC_VERSION
#define BYOC_VERSION "0"
#endif

/* ---- credentials value ------------------------------------------------------- */

void byoc_aws_creds_clear(byoc_aws_creds *c)
{
    if (!c)
        return;
    byoc_free_secret(c->access_key_id);
    byoc_free_secret(c->secret_access_key);
    byoc_free_secret(c->session_token);
    memset(c, 0, sizeof *c);
}

void byoc_aws_creds_copy(byoc_aws_creds *dst, const byoc_aws_creds *src)
{
    memset(dst, 0, sizeof *dst);
    dst->access_key_id = byoc_xstrdup_opt(src->access_key_id);
    dst->secret_access_key = byoc_xstrdup_opt(src->secret_access_key);
    dst->session_token = byoc_xstrdup_opt(src->session_token);
    dst->expiration = src->expiration;
}

void byoc_aws_response_clear(byoc_aws_response *r)
{
    if (!r)
        return;
    byoc_headers_clear(&r->headers);
    byoc_buf_clear(&r->body);
    memset(r, 0, sizeof *r);
}

/* ---- building the request ---------------------------------------------------- */

typedef struct {
    char *url;
    char *host;    /* Host header value */
    char *target;  /* path?query as sent and signed */
} prepared_url;

static void prepared_clear(prepared_url *p)
{
    free(p->url);
    free(p->host);
    free(p->target);
}

static int prepare_url(const byoc_aws_ctx *ctx, const byoc_aws_call *call, prepared_url *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_buf u = BYOC_BUF_INIT;
    if (call->url) {
        byoc_buf_puts(&u, call->url);
    } else {
        byoc_buf_puts(&u, ctx->endpoint->url);
        const char *path = call->path && *call->path ? call->path : "/";
        if (path[0] != '/')
            byoc_buf_putc(&u, '/');
        byoc_buf_puts(&u, path);
        if (call->query && *call->query)
            byoc_buf_printf(&u, "?%s", call->query);
    }
    const char *scheme_end = strstr(u.data, "://");
    if (!scheme_end) {
        byoc_buf_clear(&u);
        return byoc_err_set(err, BYOC_E_USAGE, "aws", "invalid endpoint URL");
    }
    const char *auth = scheme_end + 3;
    size_t alen = strcspn(auth, "/?");
    bool https = strncmp(u.data, "https", 5) == 0;
    char *host = byoc_xstrndup(auth, alen);
    size_t hl = strlen(host);
    const char *default_port = https ? ":443" : ":80";
    size_t dl = strlen(default_port);
    if (hl > dl && strcmp(host + hl - dl, default_port) == 0)
        host[hl - dl] = '\0';
    const char *rest = auth + alen;
    out->target = *rest == '/' ? byoc_xstrdup(rest) : byoc_xasprintf("/%s", rest);
    out->host = host;
    out->url = byoc_buf_steal(&u);
    return 0;
}

static const char *default_content_type(const byoc_aws_call *call, bool has_body)
{
    switch (call->protocol) {
    case BYOC_AWS_JSON: return "application/x-amz-json-1.1";
    case BYOC_AWS_QUERY: return "application/x-www-form-urlencoded; charset=utf-8";
    case BYOC_AWS_REST_JSON: return has_body ? "application/json" : NULL;
    case BYOC_AWS_REST_XML: return NULL;
    }
    return NULL;
}

static const char *call_method(const byoc_aws_call *call)
{
    if (call->method)
        return call->method;
    return call->protocol == BYOC_AWS_JSON || call->protocol == BYOC_AWS_QUERY ? "POST" : "GET";
}

static void build_headers(const byoc_aws_call *call, const prepared_url *pu, byoc_headers *h)
{
    memset(h, 0, sizeof *h);
    byoc_headers_add(h, "Host", pu->host);
    bool has_body = call->body_reader || (call->body && call->body_len);
    const char *ct = call->content_type ? call->content_type : default_content_type(call, has_body);
    if (ct)
        byoc_headers_add(h, "Content-Type", ct);
    if (call->protocol == BYOC_AWS_JSON && call->target)
        byoc_headers_add(h, "X-Amz-Target", call->target);
    if (call->headers)
        for (size_t i = 0; i < call->headers->len; i++)
            byoc_headers_set(h, call->headers->items[i].name, call->headers->items[i].value);
    byoc_headers_set(h, "User-Agent", "byoc/" BYOC_VERSION);
}

static int sign(const byoc_aws_ctx *ctx, const byoc_aws_call *call, const prepared_url *pu, const char *method,
                const char *payload_hash, byoc_headers *h, byoc_err *err)
{
    if (!ctx->creds)
        return 0;
    byoc_sigv4_params p = {0};
    p.access_key_id = ctx->creds->access_key_id;
    p.secret_access_key = ctx->creds->secret_access_key;
    p.session_token = ctx->creds->session_token;
    p.region = ctx->endpoint->signing_region;
    p.service = ctx->endpoint->signing_name;
    p.cache = ctx->sign_cache;
    if (strcmp(p.service, "s3") == 0)
        byoc_sigv4_params_s3(&p);
    if (!call->on_signed)
        return byoc_sigv4_sign_headers(&p, method, pu->target, h, payload_hash, NULL, err);
    byoc_sigv4_result r;
    if (byoc_sigv4_sign_headers(&p, method, pu->target, h, payload_hash, &r, err) != 0)
        return -1;
    call->on_signed(call->body_ud, &p, &r);
    byoc_sigv4_result_clear(&r);
    return 0;
}

/* S3 can answer 200 and put an <Error> in the body (CompleteMultipartUpload, CopyObject). */
static bool s3_error_in_200(const byoc_aws_call *call, const char *method, const byoc_buf *body)
{
    if (call->protocol != BYOC_AWS_REST_XML || call->sink || !body->len || strcmp(method, "GET") == 0 ||
        strcmp(method, "HEAD") == 0)
        return false;
    byoc_aws_xml *doc = byoc_aws_xml_parse(body->data, body->len);
    byoc_aws_xml *root = doc ? byoc_aws_xml_root(doc) : NULL;
    bool is_error = root && strcmp(root->name, "Error") == 0;
    if (doc)
        byoc_aws_xml_free(doc);
    return is_error;
}

/* Counts what reached the caller's sink, so a failed attempt knows whether a retry would duplicate it. */
typedef struct counted_sink {
    byoc_body_sink sink;
    void *ud;
    uint64_t delivered;
} counted_sink;

static int counting_sink(const char *p, size_t n, void *ud)
{
    counted_sink *c = ud;
    c->delivered += n;
    return c->sink(p, n, c->ud);
}

static bool is_transfer(const byoc_aws_call *call)
{
    return call->timeout_ms < 0 || call->sink || call->body_reader || call->body_len > BYOC_AWS_SMALL_BODY;
}

long byoc_aws_deadline_ms(const byoc_aws_call *call)
{
    if (call->timeout_ms > 0)
        return call->timeout_ms;
    return is_transfer(call) ? 0 : byoc_net_api_deadline_ms();
}

long byoc_aws_call_deadline_ms(const byoc_aws_call *call)
{
    return is_transfer(call) ? 0 : byoc_net_api_deadline_ms();
}

int byoc_aws_do(const byoc_aws_ctx *ctx, const byoc_aws_call *call, byoc_aws_response *resp, byoc_err *err)
{
    byoc_aws_response local;
    if (!resp)
        resp = &local;
    memset(resp, 0, sizeof *resp);
    const char *service = byoc_aws_service_name(ctx->endpoint->service);
    const char *op = call->operation ? call->operation : "request";
    if (call->body_reader && !call->payload_hash)
        return byoc_err_set(err, BYOC_E_USAGE, service, "%s: a streamed body needs a payload hash", op);

    prepared_url pu;
    if (prepare_url(ctx, call, &pu, err) != 0)
        return -1;
    const char *method = call_method(call);
    char hash[65];
    const char *payload_hash = call->payload_hash;
    if (!payload_hash) {
        byoc_sha256_hex(call->body, call->body ? call->body_len : 0, hash);
        payload_hash = hash;
    }
    byoc_http_opts opts = {.ca_bundle = ctx->ca_bundle, .timeout_ms = byoc_aws_deadline_ms(call)};
    opts.max_body = call->sink ? call->max_body : BYOC_AWS_REPLY_MAX;
    if (!opts.timeout_ms) {
        opts.low_speed_limit = BYOC_AWS_MIN_RATE;
        opts.low_speed_time_s = byoc_net_transfer_stall_s();
    }
    bool too_large = false;
    /* A small call's API deadline bounds the whole call: each attempt gets at most what is left of
     * it, and a back-off that would reach it ends the call at once. */
    long per_attempt = opts.timeout_ms;
    byoc_net_deadline deadline;
    byoc_net_deadline_start(&deadline, byoc_aws_call_deadline_ms(call));
    bool by_deadline = false; /* the attempt's bound is what is left of the call's deadline */

    counted_sink counted = {call->sink, call->sink_ud, 0};
    byoc_retry_policy pol;
    byoc_retry_policy_init(&pol, ctx->retry_mode, ctx->max_attempts);
    int rc = -1;
    int attempts = 0;
    for (int attempt = 1;; attempt++) {
        if (attempt > 1 && call->body_reader && call->body_rewind(call->body_ud) != 0) {
            byoc_err_prefix(err, "%s (the request body could not be restarted for a retry)", op);
            break;
        }
        if (attempt > 1 && counted.delivered) {
            if (call->sink_rewind(call->sink_ud) != 0) {
                byoc_err_prefix(err, "%s (the partial response could not be discarded for a retry)", op);
                break;
            }
            counted.delivered = 0;
        }
        if (byoc_retry_before_attempt(&pol, ctx->task, err) != 0)
            break;
        if (deadline.total_ms) {
            long left = byoc_net_deadline_left_ms(&deadline);
            if (left <= 0) {
                byoc_net_deadline_passed(&deadline, attempts, err);
                byoc_err_prefix(err, "%s %s", service, op);
                attempts = 0; /* said already */
                break;
            }
            by_deadline = !per_attempt || left <= per_attempt;
            opts.timeout_ms = by_deadline ? left : per_attempt;
        }
        byoc_http_req req = {0};
        build_headers(call, &pu, &req.headers);
        if (sign(ctx, call, &pu, method, payload_hash, &req.headers, err) != 0) {
            byoc_headers_clear(&req.headers);
            break;
        }
        req.method = method;
        req.url = pu.url;
        req.body = call->body;
        req.body_len = call->body_len;
        req.body_reader = call->body_reader;
        req.body_ud = call->body_ud;
        req.body_size = call->body_size;
        req.sink = call->sink ? counting_sink : NULL;
        req.sink_ud = &counted;
        req.opts = &opts;
        req.task = ctx->task;

        byoc_http_resp hr;
        memset(&hr, 0, sizeof hr);
        int hrc = byoc_http_do(&req, &hr, err);
        attempts = attempt;
        byoc_headers_clear(&req.headers);
        /* A retry must neither resend a body it cannot restart nor append a second copy
         * of a response to what the sink already took. */
        bool can_retry = (!call->body_reader || call->body_rewind) && (!counted.delivered || call->sink_rewind);
        byoc_retry_class cls;
        if (hrc != 0) {
            if (hr.timed_out && err->kind == BYOC_E_NET && by_deadline) {
                byoc_net_deadline_passed(&deadline, attempt, err);
                byoc_http_resp_clear(&hr);
                byoc_err_prefix(err, "%s %s", service, op);
                attempts = 0; /* said already; the deadline leaves no time for another attempt */
                break;
            }
            if (hr.timed_out && err->kind == BYOC_E_NET)
                byoc_net_timed_out(&opts, err);
            too_large = hr.too_large;
            byoc_log(BYOC_LOG_DEBUG, "aws %s %s attempt %d: %s", service, op, attempt, err->message);
            cls = err->kind == BYOC_E_NET ? byoc_retry_classify(hr.curl_code, 0, NULL, service) : BYOC_RETRY_NONE;
            byoc_http_resp_clear(&hr);
            byoc_err_prefix(err, "%s %s", service, op);
        } else {
            bool ok = hr.status >= 200 && hr.status < 300 && !s3_error_in_200(call, method, &hr.body);
            resp->status = hr.status;
            resp->headers = hr.headers;
            resp->body = hr.body;
            memset(&hr, 0, sizeof hr);
            if (ok) {
                const char *rid = byoc_aws_header_request_id(&resp->headers);
                byoc_utf8_copy(resp->request_id, sizeof resp->request_id, rid);
                byoc_log(BYOC_LOG_DEBUG, "aws %s %s attempt %d: HTTP %ld%s%s", service, op, attempt, resp->status,
                         rid ? " request id " : "", rid ? rid : "");
                byoc_retry_on_success(&pol);
                rc = 0;
                break;
            }
            byoc_aws_error_from_response(service, call->operation, resp->status, &resp->headers, resp->body.data,
                                         resp->body.len, ctx->creds_origin, err);
            memcpy(resp->request_id, err->request_id, sizeof resp->request_id);
            byoc_log(BYOC_LOG_DEBUG, "aws %s %s attempt %d: HTTP %ld %s%s%s", service, op, attempt, resp->status,
                     err->code, err->request_id[0] ? " request id " : "", err->request_id);
            cls = byoc_retry_classify(0, resp->status, err->code[0] ? err->code : NULL, service);
        }
        long delay_ms = 0;
        if (!byoc_retry_should_retry(&pol, attempt, can_retry ? cls : BYOC_RETRY_NONE, &delay_ms))
            break;
        if (byoc_net_deadline_too_late(&deadline, delay_ms)) {
            byoc_log(BYOC_LOG_DEBUG, "aws %s %s: no retry, the deadline comes first: %s", service, op, err->message);
            byoc_net_deadline_passed(&deadline, attempt, err);
            byoc_err_prefix(err, "%s %s", service, op);
            attempts = 0;
            break;
        }
        byoc_log(BYOC_LOG_INFO, "aws %s %s: retrying in %ld ms after: %s", service, op, delay_ms, err->message);
        byoc_err saved = *err;
        if (byoc_retry_sleep(ctx->task, delay_ms) != 0) {
            byoc_err_set(err, BYOC_E_CANCELLED, service, "%s: cancelled", op);
            break;
        }
        *err = saved;
        byoc_aws_response_clear(resp);
    }
    if (rc != 0 && attempts > 1 && err && err->kind != BYOC_E_CANCELLED) {
        /* Say that retrying already happened, so nobody retries by hand at once. */
        size_t len = strlen(err->message);
        snprintf(err->message + len, sizeof err->message - len, " (gave up after %d attempts)", attempts);
    }
    prepared_clear(&pu);
    resp->too_large = rc != 0 && too_large;
    if (resp == &local)
        byoc_aws_response_clear(&local);
    return rc;
}
