/* SigV4 against data written by others: the aws-c-auth v4 suite (header and
 * presigned forms), the classic aws4_testsuite, the S3 API Reference examples
 * (including aws-chunked signatures) and four vectors generated with botocore
 * (botocore/auth.py). Every case must pass. */
#include "check.h"

#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "aws/sigv4.h"
#include "core/buf.h"

static const char *SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

/* ---- a raw request file, parsed line by line (duplicate headers kept) ---- */

typedef struct {
    char *method;
    char *target;
    byoc_headers headers;
    char *body;
    size_t body_len;
} raw_request;

static void raw_free(raw_request *r)
{
    free(r->method);
    free(r->target);
    byoc_headers_clear(&r->headers);
    free(r->body);
    memset(r, 0, sizeof *r);
}

/* "METHOD target HTTP/1.1" (the target may hold spaces), "Name:value" lines,
 * continuation lines starting with whitespace, a blank line, the body. */
static int raw_parse(const char *text, raw_request *r)
{
    memset(r, 0, sizeof *r);
    const char *eol = strchr(text, '\n');
    size_t linelen = eol ? (size_t)(eol - text) : strlen(text);
    char *line = strndup(text, linelen);
    char *sp = strchr(line, ' ');
    char *ver = NULL;
    for (char *p = line; (p = strstr(p, " HTTP/")) != NULL; p++)
        ver = p;
    if (!sp || !ver || ver < sp) {
        free(line);
        return -1;
    }
    r->method = strndup(line, (size_t)(sp - line));
    r->target = strndup(sp + 1, (size_t)(ver - sp - 1));
    free(line);

    const char *s = eol ? eol + 1 : text + linelen;
    byoc_buf cur_name = BYOC_BUF_INIT, cur_value = BYOC_BUF_INIT;
    bool have = false;
    while (*s) {
        eol = strchr(s, '\n');
        linelen = eol ? (size_t)(eol - s) : strlen(s);
        const char *next = eol ? eol + 1 : s + linelen;
        if (linelen == 0) { /* blank line: the body follows */
            s = next;
            break;
        }
        if (s[0] == ' ' || s[0] == '\t') {
            byoc_buf_putc(&cur_value, '\n');
            byoc_buf_append(&cur_value, s, linelen);
        } else {
            if (have)
                byoc_headers_add(&r->headers, cur_name.data, byoc_buf_str(&cur_value));
            const char *colon = memchr(s, ':', linelen);
            if (!colon)
                return -1;
            byoc_buf_reset(&cur_name);
            byoc_buf_reset(&cur_value);
            byoc_buf_append(&cur_name, s, (size_t)(colon - s));
            byoc_buf_append(&cur_value, colon + 1, linelen - (size_t)(colon - s) - 1);
            have = true;
        }
        s = next;
    }
    if (have)
        byoc_headers_add(&r->headers, cur_name.data, byoc_buf_str(&cur_value));
    byoc_buf_clear(&cur_name);
    byoc_buf_clear(&cur_value);
    r->body_len = strlen(s);
    r->body = strdup(s);
    return 0;
}

static char *read_case_file(const char *dir, const char *name)
{
    char path[16384];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return check_read_file(path, NULL);
}

/* The line of a multi-line text that starts with prefix (without the prefix), or NULL. */
static char *line_after(const char *text, const char *prefix)
{
    size_t pl = strlen(prefix);
    for (const char *s = text; s && *s;) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        if (n >= pl && strncmp(s, prefix, pl) == 0)
            return strndup(s + pl, n - pl);
        s = eol ? eol + 1 : NULL;
    }
    return NULL;
}

static time_t utc(int y, int mo, int d, int h, int mi, int sec)
{
    struct tm tm = {0};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    return timegm(&tm);
}

static int case_failed_before;
static void case_begin(void) { case_failed_before = check_failed; }
static bool case_ok(const char *suite, const char *name)
{
    if (check_failed != case_failed_before) {
        fprintf(stderr, "  ^ in %s/%s\n", suite, name);
        return false;
    }
    return true;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted subdirectory names of dir. */
static size_t list_dirs(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
        v[n++] = strdup(e->d_name);
    }
    if (d)
        closedir(d);
    qsort(v, n, sizeof *v, name_cmp);
    *out = v;
    return n;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* ---- aws-c-auth v4 ------------------------------------------------------ */

static bool aws_c_auth_header(const char *dir, const char *name, json_t *ctx, const raw_request *req)
{
    case_begin();
    json_t *cr = json_object_get(ctx, "credentials");
    byoc_sigv4_params p = {0};
    p.access_key_id = json_string_value(json_object_get(cr, "access_key_id"));
    p.secret_access_key = json_string_value(json_object_get(cr, "secret_access_key"));
    p.session_token = json_string_value(json_object_get(cr, "token"));
    p.region = json_string_value(json_object_get(ctx, "region"));
    p.service = json_string_value(json_object_get(ctx, "service"));
    p.time = utc(2015, 8, 30, 12, 36, 0);
    p.keep_path = !json_is_true(json_object_get(ctx, "normalize"));
    p.omit_session_token = json_is_true(json_object_get(ctx, "omit_session_token"));
    p.add_content_sha256 = json_is_true(json_object_get(ctx, "sign_body"));
    char hash[65];
    byoc_sha256_hex(req->body, req->body_len, hash);

    byoc_headers h = {0};
    for (size_t i = 0; i < req->headers.len; i++)
        byoc_headers_add(&h, req->headers.items[i].name, req->headers.items[i].value);
    byoc_sigv4_result r;
    byoc_err err;
    int rc = byoc_sigv4_sign_headers(&p, req->method, req->target, &h, hash, &r, &err);
    CHECK_INT(rc, 0);
    char *creq = read_case_file(dir, "header-canonical-request.txt");
    char *sts = read_case_file(dir, "header-string-to-sign.txt");
    char *sig = read_case_file(dir, "header-signature.txt");
    char *sreq = read_case_file(dir, "header-signed-request.txt");
    char *auth = line_after(sreq, "Authorization:");
    CHECK_STR(r.canonical_request, creq);
    CHECK_STR(r.string_to_sign, sts);
    CHECK_STR(r.signature, sig);
    CHECK_STR(r.authorization, auth);
    CHECK_STR(byoc_headers_get(&h, "Authorization"), auth);
    /* Every header the signer added appears in the signed request as written. */
    raw_request signed_req;
    CHECK_INT(raw_parse(sreq, &signed_req), 0);
    CHECK_INT(signed_req.headers.len, h.len);
    for (size_t i = 0; i < signed_req.headers.len; i++) {
        const char *want = signed_req.headers.items[i].value;
        bool found = false;
        for (size_t j = 0; j < h.len; j++)
            if (strcasecmp(h.items[j].name, signed_req.headers.items[i].name) == 0 &&
                strcmp(h.items[j].value, want) == 0)
                found = true;
        if (!found)
            check_fail(__FILE__, __LINE__, "signed header %s:%s missing", signed_req.headers.items[i].name, want);
    }
    raw_free(&signed_req);
    free(creq);
    free(sts);
    free(sig);
    free(sreq);
    free(auth);
    byoc_sigv4_result_clear(&r);
    byoc_headers_clear(&h);
    return case_ok("aws-c-auth-v4 header", name);
}

static bool aws_c_auth_query(const char *dir, const char *name, json_t *ctx, const raw_request *req)
{
    case_begin();
    json_t *cr = json_object_get(ctx, "credentials");
    byoc_sigv4_params p = {0};
    p.access_key_id = json_string_value(json_object_get(cr, "access_key_id"));
    p.secret_access_key = json_string_value(json_object_get(cr, "secret_access_key"));
    p.session_token = json_string_value(json_object_get(cr, "token"));
    p.region = json_string_value(json_object_get(ctx, "region"));
    p.service = json_string_value(json_object_get(ctx, "service"));
    p.time = utc(2015, 8, 30, 12, 36, 0);
    p.keep_path = !json_is_true(json_object_get(ctx, "normalize"));
    p.omit_session_token = json_is_true(json_object_get(ctx, "omit_session_token"));
    p.expires = (long)json_integer_value(json_object_get(ctx, "expiration_in_seconds"));
    char hash[65];
    byoc_sha256_hex(req->body, req->body_len, hash);

    byoc_sigv4_result r;
    byoc_err err;
    int rc = byoc_sigv4_presign(&p, req->method, req->target, &req->headers, hash, &r, &err);
    CHECK_INT(rc, 0);
    char *creq = read_case_file(dir, "query-canonical-request.txt");
    char *sts = read_case_file(dir, "query-string-to-sign.txt");
    char *sig = read_case_file(dir, "query-signature.txt");
    char *sreq = read_case_file(dir, "query-signed-request.txt");
    CHECK_STR(r.canonical_request, creq);
    CHECK_STR(r.string_to_sign, sts);
    CHECK_STR(r.signature, sig);
    char line[8192];
    snprintf(line, sizeof line, "%s %s%c%s HTTP/1.1", req->method, req->target,
             strchr(req->target, '?') ? '&' : '?', r.query);
    char *first = strndup(sreq, strcspn(sreq, "\n"));
    CHECK_STR(line, first);
    free(first);
    free(creq);
    free(sts);
    free(sig);
    free(sreq);
    byoc_sigv4_result_clear(&r);
    return case_ok("aws-c-auth-v4 query", name);
}

static void suite_aws_c_auth(void)
{
    char root[4096];
    snprintf(root, sizeof root, "%s/sigv4/aws-c-auth-v4", check_fixture_dir());
    char **names;
    size_t n = list_dirs(root, &names);
    int header_ok = 0, query_ok = 0;
    for (size_t i = 0; i < n; i++) {
        char dir[8192];
        snprintf(dir, sizeof dir, "%s/%s", root, names[i]);
        char *ctxtext = read_case_file(dir, "context.json");
        char *reqtext = read_case_file(dir, "request.txt");
        json_t *ctx = ctxtext ? json_loads(ctxtext, 0, NULL) : NULL;
        raw_request req;
        CHECK(ctx != NULL);
        CHECK(reqtext && raw_parse(reqtext, &req) == 0);
        if (ctx && reqtext) {
            header_ok += aws_c_auth_header(dir, names[i], ctx, &req);
            query_ok += aws_c_auth_query(dir, names[i], ctx, &req);
            raw_free(&req);
        }
        json_decref(ctx);
        free(ctxtext);
        free(reqtext);
    }
    printf("aws-c-auth-v4: header %d/%zu, query %d/%zu\n", header_ok, n, query_ok, n);
    CHECK_INT(n, 38);
    CHECK_INT(header_ok, 38);
    CHECK_INT(query_ok, 38);
    free_list(names, n);
}

/* ---- classic aws4_testsuite ----------------------------------------------- */

static bool classic_case(const char *dir, const char *name)
{
    case_begin();
    char file[512];
    snprintf(file, sizeof file, "%s.req", name);
    char *reqtext = read_case_file(dir, file);
    snprintf(file, sizeof file, "%s.creq", name);
    char *creq = read_case_file(dir, file);
    snprintf(file, sizeof file, "%s.sts", name);
    char *sts = read_case_file(dir, file);
    snprintf(file, sizeof file, "%s.authz", name);
    char *authz = read_case_file(dir, file);
    snprintf(file, sizeof file, "%s.sreq", name);
    char *sreq = read_case_file(dir, file);
    raw_request req;
    CHECK(reqtext && creq && sts && authz && sreq);
    if (!reqtext || raw_parse(reqtext, &req) != 0) {
        CHECK(!"request parses");
        return false;
    }
    /* A token signed in .creq but absent from .req is passed to the signer;
     * one that only appears in .sreq is added after signing. */
    char *creq_token = line_after(creq, "x-amz-security-token:");
    char *sreq_token = line_after(sreq, "X-Amz-Security-Token:");
    bool in_req = byoc_headers_get(&req.headers, "x-amz-security-token") != NULL;
    byoc_sigv4_params p = {0};
    p.access_key_id = "AKIDEXAMPLE";
    p.secret_access_key = SECRET;
    p.region = "us-east-1";
    p.service = "service";
    p.time = utc(2015, 8, 30, 12, 36, 0);
    if (creq_token && !in_req)
        p.session_token = creq_token;
    else if (sreq_token && !creq_token) {
        p.session_token = sreq_token;
        p.omit_session_token = true;
    }
    char hash[65];
    byoc_sha256_hex(req.body, req.body_len, hash);
    byoc_sigv4_result r;
    byoc_err err;
    CHECK_INT(byoc_sigv4_sign_headers(&p, req.method, req.target, &req.headers, hash, &r, &err), 0);
    CHECK_STR(r.canonical_request, creq);
    CHECK_STR(r.string_to_sign, sts);
    CHECK_STR(r.authorization, authz);
    if (p.omit_session_token)
        CHECK_STR(byoc_headers_get(&req.headers, "X-Amz-Security-Token"), sreq_token);
    byoc_sigv4_result_clear(&r);
    raw_free(&req);
    free(creq_token);
    free(sreq_token);
    free(reqtext);
    free(creq);
    free(sts);
    free(authz);
    free(sreq);
    return case_ok("aws4_testsuite", name);
}

static void classic_walk(const char *dir, int *total, int *ok)
{
    char **names;
    size_t n = list_dirs(dir, &names);
    for (size_t i = 0; i < n; i++) {
        char sub[8192], req[16384];
        snprintf(sub, sizeof sub, "%s/%s", dir, names[i]);
        snprintf(req, sizeof req, "%s/%s.req", sub, names[i]);
        struct stat st;
        if (stat(req, &st) == 0) {
            (*total)++;
            *ok += classic_case(sub, names[i]);
        } else {
            classic_walk(sub, total, ok);
        }
    }
    free_list(names, n);
}

static void suite_classic(void)
{
    char root[4096];
    snprintf(root, sizeof root, "%s/sigv4/aws4_testsuite", check_fixture_dir());
    int total = 0, ok = 0;
    classic_walk(root, &total, &ok);
    printf("aws4_testsuite: %d/%d\n", ok, total);
    CHECK_INT(total, 34);
    CHECK_INT(ok, 34);
}

/* ---- S3 API Reference examples ------------------------------------------- */

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The URL with its query parameters sorted. */
static char *sorted_url(const char *url)
{
    const char *q = strchr(url, '?');
    if (!q)
        return strdup(url);
    char *copy = strdup(q + 1);
    char *parts[64];
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(copy, "&", &save); t && n < 64; t = strtok_r(NULL, "&", &save))
        parts[n++] = t;
    qsort(parts, n, sizeof *parts, str_cmp);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_append(&b, url, (size_t)(q - url) + 1);
    for (size_t i = 0; i < n; i++)
        byoc_buf_printf(&b, "%s%s", i ? "&" : "", parts[i]);
    free(copy);
    return byoc_buf_steal(&b);
}

static bool s3_example(json_t *top, json_t *ex, const char *name)
{
    case_begin();
    json_t *cr = json_object_get(top, "credentials");
    byoc_sigv4_params p = {0};
    p.access_key_id = json_string_value(json_object_get(cr, "access_key_id"));
    p.secret_access_key = json_string_value(json_object_get(cr, "secret_access_key"));
    p.region = json_string_value(json_object_get(top, "region"));
    p.service = json_string_value(json_object_get(top, "service"));
    p.time = utc(2013, 5, 24, 0, 0, 0);
    byoc_sigv4_params_s3(&p);
    const char *signing = json_string_value(json_object_get(ex, "signing"));
    const char *path = json_string_value(json_object_get(ex, "path"));
    const char *query = json_string_value(json_object_get(ex, "query"));
    const char *payload_hash = json_string_value(json_object_get(ex, "payload_hash"));

    /* S3 sends keys encoded once (with '/' kept); that wire path is signed as is. */
    byoc_buf target = BYOC_BUF_INIT;
    byoc_sigv4_encode(&target, path, strlen(path), true);
    CHECK_STR(target.data, json_string_value(json_object_get(ex, "canonical_uri")));
    if (query && *query)
        byoc_buf_printf(&target, "?%s", query);

    byoc_headers h = {0};
    json_t *hv;
    size_t i;
    json_array_foreach(json_object_get(ex, "headers"), i, hv)
        byoc_headers_add(&h, json_string_value(json_array_get(hv, 0)), json_string_value(json_array_get(hv, 1)));

    const char *payload = json_string_value(json_object_get(ex, "payload"));
    if (payload) {
        char hash[65];
        byoc_sha256_hex(payload, strlen(payload), hash);
        CHECK_STR(hash, payload_hash);
    }

    byoc_sigv4_result r;
    byoc_err err;
    const char *method = json_string_value(json_object_get(ex, "method"));
    if (strcmp(signing, "query") == 0) {
        p.expires = (long)json_integer_value(json_object_get(ex, "expires"));
        CHECK_INT(byoc_sigv4_presign(&p, method, target.data, &h, payload_hash, &r, &err), 0);
        char url[4096];
        snprintf(url, sizeof url, "https://%s%s?%s", byoc_headers_get(&h, "Host"), target.data, r.query);
        /* Parameter order on the wire is free; the doc prints them sorted. */
        char *got_sorted = sorted_url(url), *want_sorted = sorted_url(json_string_value(json_object_get(ex, "expected_url")));
        CHECK_STR(got_sorted, want_sorted);
        free(got_sorted);
        free(want_sorted);
    } else {
        CHECK_INT(byoc_sigv4_sign_headers(&p, method, target.data, &h, payload_hash, &r, &err), 0);
        CHECK_STR(r.authorization, json_string_value(json_object_get(ex, "expected_authorization")));
        CHECK_STR(r.signed_headers, json_string_value(json_object_get(ex, "signed_headers")));
    }
    CHECK_STR(r.canonical_request, json_string_value(json_object_get(ex, "expected_canonical_request")));
    if (json_object_get(ex, "expected_string_to_sign"))
        CHECK_STR(r.string_to_sign, json_string_value(json_object_get(ex, "expected_string_to_sign")));
    CHECK_STR(r.signature, json_string_value(json_object_get(ex, "expected_signature")));

    json_t *chunks = json_object_get(ex, "chunks");
    if (chunks) {
        byoc_sigv4_chunker ck;
        CHECK_INT(byoc_sigv4_chunker_init(&ck, &p, &r, &err), 0);
        unsigned long long decoded = 0;
        size_t first_size = 0;
        byoc_buf framed = BYOC_BUF_INIT;
        json_t *c;
        json_array_foreach(chunks, i, c) {
            size_t size = (size_t)json_integer_value(json_object_get(c, "size"));
            const char *byte = json_string_value(json_object_get(c, "byte"));
            char *data = malloc(size + 1);
            memset(data, byte[0], size);
            if (i == 0)
                first_size = size;
            decoded += size;
            char sig[65];
            byoc_sigv4_chunker copy = ck;
            byoc_sigv4_chunk_sign(&copy, data, size, sig);
            byoc_sigv4_chunker_clear(&copy);
            CHECK_STR(sig, json_string_value(json_object_get(c, "expected_signature")));
            byoc_sigv4_chunk_frame(&ck, data, size, &framed);
            free(data);
        }
        byoc_sigv4_chunker_clear(&ck);
        /* The framed body is exactly as long as the signed Content-Length says. */
        CHECK_INT(framed.len, strtoull(byoc_headers_get(&h, "Content-Length"), NULL, 10));
        CHECK_INT(byoc_sigv4_chunked_length(decoded, first_size), framed.len);
        CHECK_INT(decoded, strtoull(byoc_headers_get(&h, "x-amz-decoded-content-length"), NULL, 10));
        byoc_buf_clear(&framed);
    }
    byoc_sigv4_result_clear(&r);
    byoc_headers_clear(&h);
    byoc_buf_clear(&target);
    return case_ok("s3-examples", name);
}

static void suite_s3(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sigv4/s3-examples.json", check_fixture_dir());
    json_t *top = json_load_file(path, 0, NULL);
    CHECK(top != NULL);
    if (!top)
        return;
    json_t *ex;
    size_t i;
    int ok = 0;
    json_array_foreach(json_object_get(top, "examples"), i, ex)
        ok += s3_example(top, ex, json_string_value(json_object_get(ex, "name")));
    size_t n = json_array_size(json_object_get(top, "examples"));
    printf("s3-examples: %d/%zu\n", ok, n);
    CHECK_INT(n, 6);
    CHECK_INT(ok, 6);
    json_decref(top);
}

/* ---- botocore-generated vectors ------------------- */

static bool botocore_vector(const char *name, const char *method, const char *host, const char *target,
                            const char *region, const char *service, bool s3, const char *const *hdrs,
                            const char *body, const char *want_signed, const char *want_sig)
{
    case_begin();
    byoc_sigv4_params p = {0};
    p.access_key_id = "AKIDEXAMPLE";
    p.secret_access_key = SECRET;
    p.region = region;
    p.service = service;
    p.time = utc(2015, 8, 30, 12, 36, 0);
    if (s3)
        byoc_sigv4_params_s3(&p);
    byoc_headers h = {0};
    byoc_headers_add(&h, "Host", host);
    for (; hdrs && hdrs[0]; hdrs += 2)
        byoc_headers_add(&h, hdrs[0], hdrs[1]);
    char hash[65];
    byoc_sha256_hex(body, strlen(body), hash);
    byoc_sigv4_result r;
    byoc_err err;
    CHECK_INT(byoc_sigv4_sign_headers(&p, method, target, &h, hash, &r, &err), 0);
    CHECK_STR(r.signed_headers, want_signed);
    CHECK_STR(r.signature, want_sig);
    byoc_sigv4_result_clear(&r);
    byoc_headers_clear(&h);
    return case_ok("botocore", name);
}

static void suite_botocore(void)
{
    int ok = 0;
    ok += botocore_vector("braket-getjob", "GET", "braket.us-east-1.amazonaws.com",
                          "/job/arn%3Aaws%3Abraket%3Aus-east-1%3A123456789012%3Ajob%2Fmy-job", "us-east-1",
                          "braket", false, NULL, "", "host;x-amz-date",
                          "d899feb1e22099e2dac63e714d2a878135a9a999d81fd442af35158a2b8fd3e7");
    static const char *const ecr_h[] = {"Content-Type", "application/x-amz-json-1.1", "X-Amz-Target",
                                        "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories", NULL};
    ok += botocore_vector("ecr-describe-repositories", "POST", "api.ecr.us-east-1.amazonaws.com", "/",
                          "us-east-1", "ecr", false, ecr_h, "{\"repositoryNames\": [\"proj/app\"]}",
                          "content-type;host;x-amz-date;x-amz-target",
                          "6e78e874f0915cdbd0d309b1830e56d555907e56d75aa5e0fbdcdf7981fa243f");
    ok += botocore_vector("s3-put-object", "PUT", "my-bucket.s3.us-west-2.amazonaws.com", "/jobs/a%20b%2Bc.txt",
                          "us-west-2", "s3", true, NULL, "hello", "host;x-amz-content-sha256;x-amz-date",
                          "e5bf570ea8ebb06b6bd18797825418df97d099c08de168ae282be79674625b39");
    static const char *const sts_h[] = {"Content-Type", "application/x-www-form-urlencoded; charset=utf-8", NULL};
    ok += botocore_vector("sts-get-caller-identity", "POST", "sts.us-east-1.amazonaws.com", "/", "us-east-1",
                          "sts", false, sts_h, "Action=GetCallerIdentity&Version=2011-06-15",
                          "content-type;host;x-amz-date",
                          "52a8540fea00e731072179f763577cbe2a45eac2c5d32fb4d785f3eefac88165");
    printf("botocore vectors: %d/4\n", ok);
    CHECK_INT(ok, 4);
}

/* ---- behaviour beyond the vectors ------------------------------------------ */

static void test_resign_and_cache(void)
{
    byoc_sigv4_cache *cache = byoc_sigv4_cache_new();
    byoc_sigv4_params p = {0};
    p.access_key_id = "AKIDEXAMPLE";
    p.secret_access_key = SECRET;
    p.region = "us-east-1";
    p.service = "service";
    p.time = utc(2015, 8, 30, 12, 36, 0);
    p.cache = cache;
    byoc_headers h = {0};
    byoc_headers_add(&h, "Host", "example.amazonaws.com");
    byoc_headers_add(&h, "User-Agent", "byoc/0.1");
    byoc_err err;
    /* Signing twice (a retry) replaces the date and Authorization, never doubles them;
     * the cached key gives the same signature as a fresh derivation. */
    for (int round = 0; round < 3; round++) {
        byoc_sigv4_result r;
        CHECK_INT(byoc_sigv4_sign_headers(&p, "GET", "/", &h, NULL, &r, &err), 0);
        CHECK_STR(r.signature, "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
        CHECK_STR(r.signed_headers, "host;x-amz-date");
        byoc_sigv4_result_clear(&r);
    }
    size_t dates = 0, auths = 0;
    for (size_t i = 0; i < h.len; i++) {
        dates += strcasecmp(h.items[i].name, "x-amz-date") == 0;
        auths += strcasecmp(h.items[i].name, "authorization") == 0;
    }
    CHECK_INT(dates, 1);
    CHECK_INT(auths, 1);
    /* A different secret never hits the other secret's cached key. */
    p.secret_access_key = "another-secret-key-value";
    byoc_sigv4_result r;
    CHECK_INT(byoc_sigv4_sign_headers(&p, "GET", "/", &h, NULL, &r, &err), 0);
    CHECK(strcmp(r.signature, "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31") != 0);
    byoc_sigv4_result_clear(&r);
    /* Bad input is refused. */
    byoc_headers nohost = {0};
    CHECK_INT(byoc_sigv4_sign_headers(&p, "GET", "/", &nohost, NULL, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    p.secret_access_key = "";
    CHECK_INT(byoc_sigv4_sign_headers(&p, "GET", "/", &h, NULL, NULL, &err), -1);
    byoc_headers_clear(&h);
    byoc_sigv4_cache_free(cache);
}

int main(void)
{
    suite_aws_c_auth();
    suite_classic();
    suite_s3();
    suite_botocore();
    test_resign_and_cache();
    return check_done();
}
