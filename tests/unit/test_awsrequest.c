/* aws/request: error replies as AWS services really shape them (JSON 1.1,
 * rest-json, query, S3 rest-xml, EC2-style, bodiless), the auth-failure
 * mapping, and the attempt loop against a small scripted HTTP server on
 * loopback: re-signing per attempt, retries on 5xx/throttling, none on client
 * errors, max attempts, streamed bodies restarted, S3's 200-with-<Error>,
 * unsigned calls, and the protocol shapes (JSON target, query form). */
#include "check.h"
#include "chunked_body.h"
#include "loopback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/request.h"
#include "core/log.h"

/* ---- error shapes -------------------------------------------------------------- */

typedef struct {
    const char *name;
    long status;
    const char *hname, *hvalue;  /* one header, may be NULL */
    const char *body;
    const char *code, *request_id, *message_part;
    byoc_err_kind kind;
} error_case;

static void test_error_shapes(void)
{
    static const error_case cases[] = {
        {"ecr json 1.1", 400, "x-amzn-RequestId", "b5e0c1a2-1111",
         "{\"__type\":\"com.amazonaws.ecr#RepositoryNotFoundException\",\"message\":\"The repository with name "
         "'proj/app' does not exist in the registry with id '123456789012'\"}",
         "RepositoryNotFoundException", "b5e0c1a2-1111", "does not exist in the registry", BYOC_E_FAILED},
        {"json 1.1 plain __type, Message", 400, NULL, NULL,
         "{\"__type\":\"ThrottlingException\",\"Message\":\"Rate exceeded\"}", "ThrottlingException", "",
         "Rate exceeded", BYOC_E_FAILED},
        {"braket rest-json header", 400, "x-amzn-ErrorType",
         "ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/",
         "{\"message\":\"1 validation error detected: Value at 'jobName' failed to satisfy constraint\"}",
         "ValidationException", "", "1 validation error detected", BYOC_E_FAILED},
        {"rest-json body code", 404, "x-amzn-requestid", "rid-404",
         "{\"code\":\"ResourceNotFoundException\",\"message\":\"Job not found\"}", "ResourceNotFoundException",
         "rid-404", "Job not found", BYOC_E_FAILED},
        {"header beats body", 403, "x-amzn-ErrorType", "AccessDeniedException",
         "{\"__type\":\"Other\",\"message\":\"User is not authorized\"}", "AccessDeniedException", "",
         "lacks permission for svc:CreateJob: User is not authorized", BYOC_E_FAILED},
        {"sts query", 403, NULL, NULL,
         "<ErrorResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n  <Error>\n    <Type>Sender</Type>\n"
         "    <Code>InvalidClientTokenId</Code>\n    <Message>The security token included in the request is "
         "invalid.</Message>\n  </Error>\n  <RequestId>4c2b0b2e-aaaa</RequestId>\n</ErrorResponse>\n",
         "InvalidClientTokenId", "4c2b0b2e-aaaa", "the access key id is not valid", BYOC_E_ENV},
        {"sts signature", 403, NULL, NULL,
         "<ErrorResponse><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code><Message>The request signature "
         "we calculated does not match the signature you provided.</Message></Error><RequestId>r1</RequestId>"
         "</ErrorResponse>",
         "SignatureDoesNotMatch", "r1", "secret access key does not match the access key id", BYOC_E_ENV},
        {"expired token", 400, NULL, NULL,
         "<ErrorResponse><Error><Code>ExpiredToken</Code><Message>The security token included in the request is "
         "expired</Message></Error><RequestId>r2</RequestId></ErrorResponse>",
         "ExpiredToken", "r2", "session token has expired", BYOC_E_ENV},
        {"json signature expired (clock)", 400, NULL, NULL,
         "{\"__type\":\"InvalidSignatureException\",\"message\":\"Signature expired: 20150830T123600Z is now earlier "
         "than 20150830T124100Z\"}",
         "InvalidSignatureException", "", "check the system clock", BYOC_E_ENV},
        {"json unknown key", 400, NULL, NULL,
         "{\"__type\":\"UnrecognizedClientException\",\"message\":\"The security token included in the request is "
         "invalid.\"}",
         "UnrecognizedClientException", "", "access key id is not valid", BYOC_E_ENV},
        {"s3 rest-xml", 404, "x-amz-request-id", "4442587FB7D0A2F9",
         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does "
         "not exist.</Message><Key>jobs/x.tar.gz</Key><RequestId>4442587FB7D0A2F9</RequestId><HostId>"
         "eftixk72aD6Ap51TnqcoF8eFidJG9Z/2mkiDFu8yU9AS1ed4OpIszj7UDNEHGran</HostId></Error>",
         "NoSuchKey", "4442587FB7D0A2F9", "The specified key does not exist.", BYOC_E_FAILED},
        {"s3 skew", 403, NULL, NULL,
         "<Error><Code>RequestTimeTooSkewed</Code><Message>The difference between the request time and the current "
         "time is too large.</Message><RequestId>r3</RequestId></Error>",
         "RequestTimeTooSkewed", "r3", "system clock", BYOC_E_ENV},
        {"s3 wrong region", 301, "x-amz-bucket-region", "eu-west-1",
         "<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed "
         "using the specified endpoint.</Message><Endpoint>b.s3.eu-west-1.amazonaws.com</Endpoint></Error>",
         "PermanentRedirect", "", "the bucket is in region eu-west-1", BYOC_E_FAILED},
        {"ec2 style", 401, NULL, NULL,
         "<Response><Errors><Error><Code>AuthFailure</Code><Message>AWS was not able to validate the provided access "
         "credentials</Message></Error></Errors><RequestID>e1</RequestID></Response>",
         "AuthFailure", "e1", "access key id is not valid", BYOC_E_ENV},
        {"head 404 no body", 404, "x-amz-request-id", "h404", "", "404", "h404", "Not Found", BYOC_E_FAILED},
        {"proxy html", 502, NULL, NULL, "<html><body>Bad gateway</body></html>", "502", "", "Bad Gateway",
         BYOC_E_FAILED},
        {"garbage json", 500, NULL, NULL, "{not json", "500", "", "Internal Server Error", BYOC_E_FAILED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const error_case *c = &cases[i];
        byoc_headers h = {0};
        if (c->hname)
            byoc_headers_add(&h, c->hname, c->hvalue);
        byoc_err err;
        byoc_aws_error_from_response("svc", strstr(c->name, "header beats") ? "CreateJob" : "Op", c->status, &h,
                                     c->body, strlen(c->body), "env", &err);
        if (strcmp(err.code, c->code) != 0 || strcmp(err.request_id, c->request_id) != 0 ||
            !strstr(err.message, c->message_part) || err.kind != c->kind || err.http_status != c->status)
            check_fail(__FILE__, __LINE__, "%s: got code [%s] rid [%s] kind %d status %d message [%s]", c->name,
                       err.code, err.request_id, err.kind, err.http_status, err.message);
        else
            check_passed++;
        CHECK_STR(err.what, "svc");
        byoc_headers_clear(&h);
    }
    char code[64] = "aws.protocoltests#FooError:http://internal.amazon.com/coral/x/";
    byoc_aws_clean_error_code(code);
    CHECK_STR(code, "FooError");
    CHECK(byoc_aws_is_auth_error("SignatureDoesNotMatch"));
    CHECK(byoc_aws_is_auth_error("ExpiredTokenException"));
    CHECK(!byoc_aws_is_auth_error("AccessDenied"));
    CHECK(!byoc_aws_is_auth_error("ValidationException"));
}

static void test_helpers(void)
{
    time_t t;
    CHECK_INT(byoc_aws_parse_time("2015-08-30T12:36:00Z", &t), 0);
    CHECK_INT(t, 1440938160);
    CHECK_INT(byoc_aws_parse_time("2015-08-30T12:36:00.123456Z", &t), 0);
    CHECK_INT(t, 1440938160);
    CHECK_INT(byoc_aws_parse_time("2015-08-30T14:36:00+02:00", &t), 0);
    CHECK_INT(t, 1440938160);
    CHECK_INT(byoc_aws_parse_time("2015-08-30 12:36:00", &t), -1);
    CHECK_INT(byoc_aws_parse_time("2015-13-30T12:36:00Z", &t), -1);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_aws_form_add(&b, "Action", "AssumeRole");
    byoc_aws_form_add(&b, "RoleSessionName", "a b/c+d=e&f");
    CHECK_STR(b.data, "Action=AssumeRole&RoleSessionName=a%20b%2Fc%2Bd%3De%26f");
    byoc_buf_clear(&b);
    const char *xml = "<R xmlns=\"urn:x\"><A><B>text &amp; more</B></A></R>";
    byoc_aws_xml *doc = byoc_aws_xml_parse(xml, strlen(xml));
    char *s = byoc_aws_xml_text(byoc_aws_xml_root(doc), "A/B");
    CHECK_STR(s, "text & more");
    free(s);
    CHECK(byoc_aws_xml_text(byoc_aws_xml_root(doc), "A/C") == NULL);
    byoc_aws_xml_free(doc);
    /* No entity expansion from a DTD and no network. */
    const char *evil = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>";
    doc = byoc_aws_xml_parse(evil, strlen(evil));
    if (doc) {
        s = byoc_aws_xml_text(doc, "r");
        CHECK(s == NULL || strstr(s, "root:") == NULL);
        free(s);
        byoc_aws_xml_free(doc);
    }
    CHECK(byoc_aws_xml_parse("not xml", 7) == NULL);
}

/* ---- a scripted HTTP server on loopback ------------------------------------------ */

typedef struct {
    int status;
    const char *headers; /* extra header lines, each ending "\r\n" */
    const char *body;
} reply;

typedef struct {
    loopback lb;
    const reply *script;
    size_t nscript;
    size_t served;
    char requests[8][8192]; /* head + body of each request */
} server;

/* Keep the request, answer with the script's next reply (its last one again when it runs out). */
static void serve(int c, void *arg)
{
    server *s = arg;
    char buf[8192];
    size_t n = loopback_read_request(c, buf, sizeof buf);
    size_t idx = s->served < s->nscript ? s->served : s->nscript - 1;
    if (s->served < 8)
        memcpy(s->requests[s->served], buf, n + 1);
    s->served++;
    const reply *rp = &s->script[idx];
    char out[8192];
    int len = snprintf(out, sizeof out, "HTTP/1.1 %d X\r\nContent-Length: %zu\r\nConnection: close\r\n%s\r\n%s",
                       rp->status, strlen(rp->body), rp->headers ? rp->headers : "", rp->body);
    if (write(c, out, (size_t)len) < 0)
        perror("write");
}

static void server_start(server *s, const reply *script, size_t n)
{
    memset(s, 0, sizeof *s);
    s->script = script;
    s->nscript = n;
    loopback_start(&s->lb, serve, s);
}

static void server_stop(server *s) { loopback_stop(&s->lb); }

static byoc_aws_creds CREDS = {"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", NULL, 0};

static void ctx_for(server *s, byoc_aws_endpoint *ep, byoc_aws_ctx *ctx, const char *service)
{
    memset(ep, 0, sizeof *ep);
    ep->service = (byoc_aws_service)byoc_aws_service_from_name(service);
    ep->url = byoc_xasprintf("http://127.0.0.1:%d", s->lb.port);
    ep->signing_region = byoc_xstrdup("us-east-1");
    ep->signing_name = service;
    memset(ctx, 0, sizeof *ctx);
    ctx->endpoint = ep;
    ctx->creds = &CREDS;
    ctx->creds_origin = "test";
    ctx->retry_mode = BYOC_RETRY_STANDARD;
    ctx->max_attempts = 3;
}

static char *header_of(const char *request, const char *name)
{
    char pat[128];
    snprintf(pat, sizeof pat, "\r\n%s:", name);
    const char *p = strcasestr(request, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    return strndup(p, strcspn(p, "\r"));
}

static void test_json_retry_then_success(void)
{
    static const reply script[] = {
        {503, "x-amzn-RequestId: r1\r\n", "{\"__type\":\"ServiceUnavailableException\",\"message\":\"busy\"}"},
        {400, "x-amzn-RequestId: r2\r\n", "{\"__type\":\"ThrottlingException\",\"message\":\"Rate exceeded\"}"},
        {200, "x-amzn-RequestId: r3\r\n", "{\"repositories\":[]}"},
    };
    server s;
    server_start(&s, script, 3);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "ecr");
    json_t *body = json_pack("{s:[s]}", "repositoryNames", "proj/app");
    json_t *out = NULL;
    byoc_err err;
    int rc = byoc_aws_json_do(&ctx, "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories", body, &out, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(s.served, 3);
    CHECK(json_is_array(json_object_get(out, "repositories")));
    /* Every attempt carries its own signature and the JSON 1.1 shape. */
    for (int i = 0; i < 3; i++) {
        char *auth = header_of(s.requests[i], "Authorization");
        char *target = header_of(s.requests[i], "X-Amz-Target");
        char *ct = header_of(s.requests[i], "Content-Type");
        char *host = header_of(s.requests[i], "Host");
        CHECK(auth && strstr(auth, "Credential=AKIDEXAMPLE/") &&
              strstr(auth, "SignedHeaders=content-type;host;x-amz-date;x-amz-target,"));
        CHECK_STR(target, "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories");
        CHECK_STR(ct, "application/x-amz-json-1.1");
        char want_host[64];
        snprintf(want_host, sizeof want_host, "127.0.0.1:%d", s.lb.port);
        CHECK_STR(host, want_host);
        CHECK(strncmp(s.requests[i], "POST / HTTP/1.1\r\n", 17) == 0);
        CHECK(strstr(s.requests[i], "{\"repositoryNames\":[\"proj/app\"]}") != NULL);
        free(auth);
        free(target);
        free(ct);
        free(host);
    }
    json_decref(out);
    json_decref(body);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

static void test_no_retry_on_client_error(void)
{
    static const reply script[] = {
        {400, "x-amzn-RequestId: v1\r\nx-amzn-ErrorType: ValidationException:http://internal/\r\n",
         "{\"message\":\"bad jobName\"}"},
    };
    server s;
    server_start(&s, script, 1);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "braket");
    byoc_err err;
    json_t *out = NULL;
    long status = 0;
    json_t *body = json_pack("{s:s}", "jobName", "x y");
    CHECK_INT(byoc_aws_rest_json_do(&ctx, "CreateJob", "POST", "/job", NULL, body, &out, &status, &err), -1);
    CHECK_INT(s.served, 1);
    CHECK_INT(status, 400);
    CHECK_STR(err.code, "ValidationException");
    CHECK_STR(err.request_id, "v1");
    CHECK_STR(err.what, "braket");
    CHECK(strstr(err.message, "CreateJob failed: bad jobName") != NULL);
    CHECK(out == NULL);
    char *ct = header_of(s.requests[0], "Content-Type");
    CHECK_STR(ct, "application/json");
    free(ct);
    json_decref(body);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

static void test_max_attempts(void)
{
    static const reply script[] = {{500, NULL, "{\"__type\":\"InternalServiceException\",\"message\":\"oops\"}"}};
    server s;
    server_start(&s, script, 1);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "logs");
    ctx.max_attempts = 2;
    byoc_err err;
    CHECK_INT(byoc_aws_json_do(&ctx, "Logs_20140328.GetLogEvents", NULL, NULL, &err), -1);
    CHECK_INT(s.served, 2);
    CHECK_INT(err.http_status, 500);
    CHECK_STR(err.code, "InternalServiceException");
    CHECK(strstr(err.message, "GetLogEvents failed: oops") != NULL);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

typedef struct {
    const char *data;
    size_t len, off;
    int rewinds;
} mem_reader;

static size_t mem_read(char *dst, size_t n, void *ud)
{
    mem_reader *m = ud;
    size_t take = m->len - m->off < n ? m->len - m->off : n;
    memcpy(dst, m->data + m->off, take);
    m->off += take;
    return take;
}

static int mem_rewind(void *ud)
{
    mem_reader *m = ud;
    m->off = 0;
    m->rewinds++;
    return 0;
}

static void test_s3_stream_and_200_error(void)
{
    static const reply script[] = {
        {503, "x-amz-request-id: s1\r\n", "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>"},
        {200, "x-amz-request-id: s2\r\nETag: \"abc\"\r\n", ""},
        /* CompleteMultipartUpload can fail inside a 200. */
        {200, "x-amz-request-id: s3\r\n",
         "<?xml version=\"1.0\"?>\n\n<Error><Code>InvalidPart</Code><Message>One or more of the specified parts could "
         "not be found.</Message><RequestId>s3</RequestId></Error>"},
    };
    server s;
    server_start(&s, script, 3);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "s3");
    const char *data = "hello";
    mem_reader m = {data, 5, 0, 0};
    char hash[65];
    byoc_sha256_hex(data, 5, hash);
    char *url = byoc_xasprintf("http://127.0.0.1:%d/bucket/jobs/a%%20b.txt", s.lb.port);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML, .operation = "PutObject", .method = "PUT", .url = url,
                          .body_reader = mem_read, .body_ud = &m, .body_size = 5, .body_rewind = mem_rewind,
                          .payload_hash = hash};
    byoc_aws_response r;
    byoc_err err;
    CHECK_INT(byoc_aws_do(&ctx, &call, &r, &err), 0);
    CHECK_INT(s.served, 2);
    CHECK_INT(m.rewinds, 1);
    CHECK_STR(byoc_headers_get(&r.headers, "ETag"), "\"abc\"");
    CHECK_STR(r.request_id, "s2");
    for (int i = 0; i < 2; i++) {
        CHECK(strncmp(s.requests[i], "PUT /bucket/jobs/a%20b.txt HTTP/1.1", 35) == 0);
        char *sha = header_of(s.requests[i], "x-amz-content-sha256");
        CHECK_STR(sha, hash);
        free(sha);
        CHECK(strstr(s.requests[i], "\r\n\r\nhello") != NULL);
    }
    byoc_aws_response_clear(&r);

    const char *xml = "<CompleteMultipartUpload/>";
    byoc_aws_call complete = {.protocol = BYOC_AWS_REST_XML, .operation = "CompleteMultipartUpload", .method = "POST",
                              .url = url, .body = xml, .body_len = strlen(xml)};
    ctx.max_attempts = 1;
    CHECK_INT(byoc_aws_do(&ctx, &complete, &r, &err), -1);
    CHECK_STR(err.code, "InvalidPart");
    CHECK_INT(err.http_status, 200);
    CHECK_INT(r.status, 200);
    byoc_aws_response_clear(&r);
    free(url);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

static void test_s3_chunked(void)
{
    static const reply script[] = {{200, "ETag: \"e\"\r\n", ""}};
    server s;
    server_start(&s, script, 1);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "s3");
    char data[100];
    memset(data, 'z', sizeof data);
    chunked_body cb = {.data = data, .len = sizeof data, .chunk = 64};
    unsigned long long total = byoc_sigv4_chunked_length(sizeof data, 64);
    char total_s[32];
    snprintf(total_s, sizeof total_s, "%llu", total);
    byoc_headers extra = {0};
    byoc_headers_add(&extra, "Content-Encoding", "aws-chunked");
    byoc_headers_add(&extra, "x-amz-decoded-content-length", "100");
    char *url = byoc_xasprintf("http://127.0.0.1:%d/bucket/big.bin", s.lb.port);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML, .operation = "PutObject", .method = "PUT", .url = url,
                          .headers = &extra, .body_reader = chunked_body_read, .body_ud = &cb,
                          .body_size = (int64_t)total, .payload_hash = BYOC_SIGV4_STREAMING_PAYLOAD,
                          .on_signed = chunked_body_signed};
    byoc_err err;
    CHECK_INT(byoc_aws_do(&ctx, &call, NULL, &err), 0);
    const char *req = s.requests[0];
    char *cl = header_of(req, "Content-Length");
    CHECK_STR(cl, total_s);
    char *sha = header_of(req, "x-amz-content-sha256");
    CHECK_STR(sha, BYOC_SIGV4_STREAMING_PAYLOAD);
    /* Recompute the chain from the seed that was sent. */
    char *auth = header_of(req, "Authorization");
    char *date = header_of(req, "X-Amz-Date");
    byoc_sigv4_result seed = {0};
    const char *sig = auth ? strstr(auth, "Signature=") : NULL;
    if (sig && date) {
        snprintf(seed.signature, sizeof seed.signature, "%s", sig + 10);
        snprintf(seed.amz_date, sizeof seed.amz_date, "%s", date);
        snprintf(seed.scope, sizeof seed.scope, "%.8s/us-east-1/s3/aws4_request", date);
    }
    byoc_sigv4_params p = {.access_key_id = CREDS.access_key_id, .secret_access_key = CREDS.secret_access_key,
                           .region = "us-east-1", .service = "s3"};
    byoc_sigv4_chunker ck;
    CHECK_INT(byoc_sigv4_chunker_init(&ck, &p, &seed, &err), 0);
    byoc_buf want = BYOC_BUF_INIT;
    byoc_sigv4_chunk_frame(&ck, data, 64, &want);
    byoc_sigv4_chunk_frame(&ck, data + 64, 36, &want);
    byoc_sigv4_chunk_frame(&ck, "", 0, &want);
    const char *body = strstr(req, "\r\n\r\n");
    CHECK(body && strcmp(body + 4, want.data) == 0);
    CHECK(strncmp(want.data, "40;chunk-signature=", 19) == 0);
    CHECK_INT(want.len, total);
    byoc_buf_clear(&want);
    byoc_sigv4_chunker_clear(&ck);
    chunked_body_free(&cb);
    free(cl);
    free(sha);
    free(auth);
    free(date);
    free(url);
    byoc_headers_clear(&extra);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

static void test_query_unsigned(void)
{
    static const reply script[] = {
        {200, NULL,
         "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>"
         "<AccessKeyId>ASIAX</AccessKeyId><SecretAccessKey>tmp-secret-value</SecretAccessKey>"
         "<SessionToken>tmp-token-value</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration></Credentials>"
         "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>"},
    };
    server s;
    server_start(&s, script, 1);
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    ctx_for(&s, &ep, &ctx, "sts");
    ctx.creds = NULL;
    const char *params[] = {"RoleArn", "arn:aws:iam::123456789012:role/r", "WebIdentityToken", "jwt.token.value", NULL};
    byoc_aws_xml *doc = NULL;
    byoc_err err;
    CHECK_INT(byoc_aws_query_do(&ctx, "AssumeRoleWithWebIdentity", "2011-06-15", params, &doc, &err), 0);
    CHECK(strstr(s.requests[0], "\r\nAuthorization:") == NULL);
    CHECK(strstr(s.requests[0], "\r\n\r\nAction=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn="
                                "arn%3Aaws%3Aiam%3A%3A123456789012%3Arole%2Fr&WebIdentityToken=jwt.token.value") != NULL);
    char *ct = header_of(s.requests[0], "Content-Type");
    CHECK_STR(ct, "application/x-www-form-urlencoded; charset=utf-8");
    free(ct);
    char *token = byoc_aws_xml_text(byoc_aws_xml_root(doc),
                                    "AssumeRoleWithWebIdentityResult/Credentials/SessionToken");
    CHECK_STR(token, "tmp-token-value");
    free(token);
    byoc_aws_xml_free(doc);
    server_stop(&s);
    byoc_aws_endpoint_clear(&ep);
}

static void test_transport_failure(void)
{
    /* A port nobody listens on: a transport error, retried, then BYOC_E_NET. */
    server s;
    static const reply script[] = {{200, NULL, ""}};
    server_start(&s, script, 1);
    int port = s.lb.port;
    server_stop(&s);
    byoc_aws_endpoint ep = {.service = BYOC_AWS_STS, .signing_name = "sts"};
    ep.url = byoc_xasprintf("http://127.0.0.1:%d", port);
    ep.signing_region = byoc_xstrdup("us-east-1");
    byoc_aws_ctx ctx = {.endpoint = &ep, .creds = &CREDS, .retry_mode = BYOC_RETRY_STANDARD, .max_attempts = 2};
    byoc_err err;
    CHECK_INT(byoc_aws_query_do(&ctx, "GetCallerIdentity", "2011-06-15", NULL, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "GetCallerIdentity") != NULL);
    byoc_aws_endpoint_clear(&ep);
}

int main(void)
{
    setenv("NO_PROXY", "127.0.0.1", 1);
    byoc_http_global_init();
    test_error_shapes();
    test_helpers();
    test_json_retry_then_success();
    test_no_retry_on_client_error();
    test_max_attempts();
    test_s3_stream_and_200_error();
    test_s3_chunked();
    test_query_unsigned();
    test_transport_failure();
    byoc_http_global_cleanup();
    byoc_secret_clear_all();
    return check_done();
}
