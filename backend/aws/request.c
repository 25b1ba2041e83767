#include "aws/request.h"

#include <ctype.h>
#include <libxml/parser.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/log.h"

#ifndef BYOC_VERSION
#define BYOC_VERSION "0"
#endif

/* ---- credentials value ------------------------------------------------------- */

void byoc_aws_creds_free(byoc_aws_creds *c)
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
    dst->access_key_id = src->access_key_id ? byoc_xstrdup(src->access_key_id) : NULL;
    dst->secret_access_key = src->secret_access_key ? byoc_xstrdup(src->secret_access_key) : NULL;
    dst->session_token = src->session_token ? byoc_xstrdup(src->session_token) : NULL;
    dst->expiration = src->expiration;
}

void byoc_aws_response_free(byoc_aws_response *r)
{
    if (!r)
        return;
    byoc_headers_free(&r->headers);
    byoc_buf_free(&r->body);
    memset(r, 0, sizeof *r);
}

/* ---- XML helpers ---------------------------------------------------------------- */

static pthread_once_t xml_once = PTHREAD_ONCE_INIT;
static void xml_init(void) { xmlInitParser(); }

xmlDoc *byoc_aws_xml_parse(const char *body, size_t len)
{
    if (!body || !len || len > (size_t)0x7fffffff)
        return NULL;
    pthread_once(&xml_once, xml_init);
    return xmlReadMemory(body, (int)len, NULL, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
}

xmlNode *byoc_aws_xml_child(const xmlNode *n, const char *name)
{
    if (!n)
        return NULL;
    for (xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

char *byoc_aws_xml_text(const xmlNode *n, const char *path)
{
    const xmlNode *cur = n;
    char *copy = byoc_xstrdup(path);
    char *save = NULL;
    for (char *part = strtok_r(copy, "/", &save); part && cur; part = strtok_r(NULL, "/", &save))
        cur = byoc_aws_xml_child(cur, part);
    free(copy);
    if (!cur)
        return NULL;
    xmlChar *t = xmlNodeGetContent(cur);
    char *out = byoc_xstrdup(t ? (const char *)t : "");
    xmlFree(t);
    return out;
}

/* Depth-first search for an element by name. */
static xmlNode *xml_find(xmlNode *n, const char *name)
{
    for (xmlNode *c = n; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (strcmp((const char *)c->name, name) == 0)
            return c;
        xmlNode *d = xml_find(c->children, name);
        if (d)
            return d;
    }
    return NULL;
}

void byoc_aws_form_add(byoc_buf *b, const char *key, const char *value)
{
    if (b->len)
        byoc_buf_putc(b, '&');
    byoc_sigv4_encode(b, key, strlen(key), false);
    byoc_buf_putc(b, '=');
    byoc_sigv4_encode(b, value, strlen(value), false);
}

int byoc_aws_parse_time(const char *s, time_t *out)
{
    struct tm tm = {0};
    int n = 0;
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                     &tm.tm_min, &tm.tm_sec, &n) != 6)
        return -1;
    const char *p = s + n;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            ;
    long offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int hh, mm, k = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &k) != 2 || k != 5)
            return -1;
        offset = (hh * 3600L + mm * 60L) * (*p == '+' ? 1 : -1);
        p += 6;
    }
    if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *out = timegm(&tm) - offset;
    return 0;
}

/* ---- error parsing -------------------------------------------------------------- */

void byoc_aws_clean_error_code(char *code)
{
    char *colon = strchr(code, ':');
    if (colon)
        *colon = '\0';
    char *hash = strrchr(code, '#');
    if (hash)
        memmove(code, hash + 1, strlen(hash + 1) + 1);
}

typedef struct {
    char code[96];
    char message[512];
    char request_id[96];
} parsed_error;

static void copy_str(char *dst, size_t n, const char *src)
{
    snprintf(dst, n, "%s", src ? src : "");
}

static void parse_json_error(const char *body, size_t len, parsed_error *pe)
{
    json_t *j = json_loadb(body, len, 0, NULL);
    if (!json_is_object(j)) {
        json_decref(j);
        return;
    }
    static const char *const code_keys[] = {"__type", "code", "Code"};
    static const char *const msg_keys[] = {"message", "Message", "errorMessage"};
    for (size_t i = 0; i < 3 && !pe->code[0]; i++)
        copy_str(pe->code, sizeof pe->code, json_string_value(json_object_get(j, code_keys[i])));
    for (size_t i = 0; i < 3 && !pe->message[0]; i++)
        copy_str(pe->message, sizeof pe->message, json_string_value(json_object_get(j, msg_keys[i])));
    json_decref(j);
}

static void parse_xml_error(const char *body, size_t len, parsed_error *pe)
{
    xmlDoc *doc = byoc_aws_xml_parse(body, len);
    if (!doc)
        return;
    xmlNode *root = xmlDocGetRootElement(doc);
    xmlNode *error = root && strcmp((const char *)root->name, "Error") == 0 ? root : xml_find(root, "Error");
    if (error) {
        char *code = byoc_aws_xml_text(error, "Code");
        char *msg = byoc_aws_xml_text(error, "Message");
        if (!pe->code[0])
            copy_str(pe->code, sizeof pe->code, code);
        copy_str(pe->message, sizeof pe->message, msg);
        free(code);
        free(msg);
    }
    if (!pe->request_id[0]) {
        xmlNode *rid = xml_find(root, "RequestId");
        if (!rid)
            rid = xml_find(root, "RequestID");
        if (rid) {
            xmlChar *t = xmlNodeGetContent(rid);
            copy_str(pe->request_id, sizeof pe->request_id, (const char *)t);
            xmlFree(t);
        }
    }
    xmlFreeDoc(doc);
}

static const char *skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s))
        s++;
    return s;
}

static void parse_error(const byoc_headers *h, const char *body, size_t len, parsed_error *pe)
{
    memset(pe, 0, sizeof *pe);
    static const char *const rid_headers[] = {"x-amzn-RequestId", "x-amz-request-id", "x-amzn-request-id"};
    for (size_t i = 0; i < 3 && !pe->request_id[0]; i++)
        copy_str(pe->request_id, sizeof pe->request_id, byoc_headers_get(h, rid_headers[i]));
    copy_str(pe->code, sizeof pe->code, byoc_headers_get(h, "x-amzn-ErrorType"));
    const char *start = body ? skip_ws(body, body + len) : NULL;
    if (start && start < body + len) {
        /* By content, not by protocol: moto answers JSON services' auth
         * failures with an XML body. */
        if (*start == '{')
            parse_json_error(body, len, pe);
        else if (*start == '<')
            parse_xml_error(body, len, pe);
    }
    byoc_aws_clean_error_code(pe->code);
    for (char *p = pe->message; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

static const char *status_text(long status)
{
    switch (status) {
    case 301: return "Moved Permanently";
    case 307: return "Temporary Redirect";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 412: return "Precondition Failed";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

static bool code_in(const char *code, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(code, *list) == 0)
            return true;
    return false;
}

static const char *const KEY_ID_CODES[] = {"InvalidClientTokenId", "UnrecognizedClientException",
                                           "InvalidAccessKeyId", "AuthFailure", NULL};
static const char *const SIGNATURE_CODES[] = {"SignatureDoesNotMatch", "InvalidSignatureException",
                                              "IncompleteSignature", "IncompleteSignatureException",
                                              "AuthorizationHeaderMalformed", NULL};
static const char *const EXPIRED_CODES[] = {"ExpiredToken", "ExpiredTokenException", "RequestExpired",
                                            "TokenRefreshRequired", "InvalidToken", NULL};
static const char *const CLOCK_CODES[] = {"RequestTimeTooSkewed", "RequestInTheFuture", "SignatureExpired", NULL};
static const char *const UNSIGNED_CODES[] = {"MissingAuthenticationToken", "MissingAuthenticationTokenException",
                                             "MissingSecurityHeader", NULL};
static const char *const DENIED_CODES[] = {"AccessDenied", "AccessDeniedException", "UnauthorizedOperation",
                                           "UnauthorizedException", NULL};

bool byoc_aws_is_auth_error(const char *code)
{
    return code && (code_in(code, KEY_ID_CODES) || code_in(code, SIGNATURE_CODES) ||
                    code_in(code, EXPIRED_CODES) || code_in(code, CLOCK_CODES) || code_in(code, UNSIGNED_CODES));
}

static void fill_error(const char *service, const char *operation, long status, const parsed_error *pe,
                       const byoc_headers *h, const char *creds_origin, byoc_err *err)
{
    const char *code = pe->code;
    const char *msg = pe->message[0] ? pe->message : status_text(status);
    char from[160] = "";
    if (creds_origin && *creds_origin)
        snprintf(from, sizeof from, " (credentials from %s)", creds_origin);
    const char *op = operation && *operation ? operation : "request";
    bool clock_hint = strstr(msg, "expired") || strstr(msg, "Signature expired") || strstr(msg, "too skewed");
    byoc_err_kind kind = BYOC_E_FAILED;
    char hint[400] = "";

    if (code_in(code, KEY_ID_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the access key id is not valid%s; check AWS_ACCESS_KEY_ID or the profile", from);
    } else if (code_in(code, SIGNATURE_CODES) && clock_hint) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the request signature has expired: check the system clock");
    } else if (code_in(code, SIGNATURE_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint,
                 "the request signature was rejected: the secret access key does not match the access key id%s",
                 from);
    } else if (code_in(code, EXPIRED_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the session token has expired or is invalid%s; refresh the credentials", from);
    } else if (code_in(code, CLOCK_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the system clock is too far from AWS time; fix the clock");
    } else if (code_in(code, UNSIGNED_CODES)) {
        kind = BYOC_E_ENV;
        snprintf(hint, sizeof hint, "the request carried no valid signature%s", from);
    } else if (code_in(code, DENIED_CODES)) {
        snprintf(hint, sizeof hint, "access denied: the identity%s lacks permission for %s:%s", from,
                 service ? service : "aws", op);
    } else if (status == 301 || status == 307) {
        const char *where = byoc_headers_get(h, "x-amz-bucket-region");
        if (where)
            snprintf(hint, sizeof hint, "the bucket is in region %s", where);
    }
    if (hint[0] && msg[0])
        byoc_err_set(err, kind, service, "%s: %s: %s", op, hint, msg);
    else if (hint[0])
        byoc_err_set(err, kind, service, "%s: %s", op, hint);
    else if (msg[0])
        byoc_err_set(err, kind, service, "%s failed: %s", op, msg);
    else
        byoc_err_set(err, kind, service, "%s failed with HTTP status %ld", op, status);
    err->http_status = (int)status;
    if (code[0])
        copy_str(err->code, sizeof err->code, code);
    else if (status >= 300)
        snprintf(err->code, sizeof err->code, "%ld", status);
    copy_str(err->request_id, sizeof err->request_id, pe->request_id);
}

void byoc_aws_error_from_response(const char *service, const char *operation, long status,
                                  const byoc_headers *headers, const char *body, size_t body_len,
                                  const char *creds_origin, byoc_err *err)
{
    parsed_error pe;
    parse_error(headers, body, body_len, &pe);
    fill_error(service, operation, status, &pe, headers, creds_origin, err);
}

/* ---- building the request ---------------------------------------------------- */

typedef struct {
    char *url;
    char *host;    /* Host header value */
    char *target;  /* path?query as sent and signed */
} prepared_url;

static void prepared_free(prepared_url *p)
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
        byoc_buf_free(&u);
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
    return byoc_sigv4_sign_headers(&p, method, pu->target, h, payload_hash, NULL, err);
}

/* S3 can answer 200 and put an <Error> in the body (CompleteMultipartUpload, CopyObject). */
static bool s3_error_in_200(const byoc_aws_call *call, const char *method, const byoc_buf *body)
{
    if (call->protocol != BYOC_AWS_REST_XML || call->sink || !body->len || strcmp(method, "GET") == 0 ||
        strcmp(method, "HEAD") == 0)
        return false;
    xmlDoc *doc = byoc_aws_xml_parse(body->data, body->len);
    xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
    bool is_error = root && strcmp((const char *)root->name, "Error") == 0;
    if (doc)
        xmlFreeDoc(doc);
    return is_error;
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
    byoc_http_opts opts = {.ca_bundle = ctx->ca_bundle, .timeout_ms = call->timeout_ms};

    byoc_retry_policy pol;
    byoc_retry_policy_init(&pol, ctx->retry_mode, ctx->max_attempts);
    int rc = -1;
    for (int attempt = 1;; attempt++) {
        if (attempt > 1 && call->body_reader && call->body_rewind(call->body_ud) != 0) {
            byoc_err_prefix(err, "%s (the request body could not be restarted for a retry)", op);
            break;
        }
        if (byoc_retry_before_attempt(&pol, ctx->task, err) != 0)
            break;
        byoc_http_req req = {0};
        build_headers(call, &pu, &req.headers);
        if (sign(ctx, call, &pu, method, payload_hash, &req.headers, err) != 0) {
            byoc_headers_free(&req.headers);
            break;
        }
        req.method = method;
        req.url = pu.url;
        req.body = call->body;
        req.body_len = call->body_len;
        req.body_reader = call->body_reader;
        req.body_ud = call->body_ud;
        req.body_size = call->body_size;
        req.sink = call->sink;
        req.sink_ud = call->sink_ud;
        req.opts = &opts;
        req.task = ctx->task;

        byoc_http_resp hr;
        memset(&hr, 0, sizeof hr);
        int hrc = byoc_http_do(&req, &hr, err);
        byoc_headers_free(&req.headers);
        bool can_retry = !call->body_reader || call->body_rewind;
        byoc_retry_class cls;
        if (hrc != 0) {
            byoc_log(BYOC_LOG_DEBUG, "aws %s %s attempt %d: %s", service, op, attempt, err->message);
            cls = err->kind == BYOC_E_NET ? byoc_retry_classify(hr.curl_code, 0, NULL, service) : BYOC_RETRY_NONE;
            byoc_http_resp_free(&hr);
            byoc_err_prefix(err, "%s %s", service, op);
        } else {
            bool ok = hr.status >= 200 && hr.status < 300 && !s3_error_in_200(call, method, &hr.body);
            parsed_error pe;
            parse_error(&hr.headers, ok ? NULL : hr.body.data, ok ? 0 : hr.body.len, &pe);
            byoc_log(BYOC_LOG_DEBUG, "aws %s %s attempt %d: HTTP %ld %s%s%s", service, op, attempt, hr.status,
                     pe.code, pe.request_id[0] ? " request id " : "", pe.request_id);
            resp->status = hr.status;
            resp->headers = hr.headers;
            resp->body = hr.body;
            copy_str(resp->request_id, sizeof resp->request_id, pe.request_id);
            memset(&hr, 0, sizeof hr);
            if (ok) {
                byoc_retry_on_success(&pol);
                rc = 0;
                break;
            }
            fill_error(service, call->operation, resp->status, &pe, &resp->headers, ctx->creds_origin, err);
            cls = byoc_retry_classify(0, resp->status, pe.code[0] ? pe.code : NULL, service);
        }
        long delay_ms = 0;
        if (!byoc_retry_should_retry(&pol, attempt, can_retry ? cls : BYOC_RETRY_NONE, &delay_ms))
            break;
        byoc_log(BYOC_LOG_INFO, "aws %s %s: retrying in %ld ms after: %s", service, op, delay_ms, err->message);
        byoc_err saved = *err;
        if (byoc_retry_sleep(ctx->task, delay_ms) != 0) {
            byoc_err_set(err, BYOC_E_CANCELLED, service, "%s: cancelled", op);
            break;
        }
        *err = saved;
        byoc_aws_response_free(resp);
    }
    prepared_free(&pu);
    if (rc != 0 && resp == &local)
        byoc_aws_response_free(&local);
    if (rc == 0 && resp == &local)
        byoc_aws_response_free(&local);
    return rc;
}
