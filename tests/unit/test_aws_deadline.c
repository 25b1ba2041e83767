/* The API deadline (BYOC_API_TIMEOUT) bounds a small AWS call as a whole, its
 * retries and their back-off included (issue 23 point 5), against a server on
 * loopback that holds its reply or answers 503 slowly; a call's own per-attempt
 * deadline still retries within it. No timing assertions:
 * what ends the call and how many attempts reached the server. */
#include "check.h"
#include "loopback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "aws/request.h"
#include "core/log.h"
#include "net/deadline.h"

typedef enum { HOLD, SLOW_503, HOLD_FIRST } behaviour;

typedef struct {
    loopback lb;
    behaviour how;
    int served; /* requests read */
} server;

/* Answer as s->how says; a connection left before its request's head came is not counted. */
static void serve(int c, void *arg)
{
    server *s = arg;
    char req[8192];
    loopback_read_request(c, req, sizeof req);
    if (strstr(req, "\r\n\r\n")) {
        int nth = __atomic_add_fetch(&s->served, 1, __ATOMIC_SEQ_CST);
        if (s->how == HOLD_FIRST && nth > 1) {
            static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.1\r\n"
                                     "Content-Length: 19\r\nConnection: close\r\n\r\n{\"repositories\":[]}";
            (void)!send(c, ok, sizeof ok - 1, MSG_NOSIGNAL);
        } else if (s->how == HOLD || s->how == HOLD_FIRST) {
            /* a head and one byte of a body that never comes: wait for byoc to hang up */
            static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.1\r\n"
                                       "Content-Length: 100\r\n\r\n{";
            if (send(c, head, sizeof head - 1, MSG_NOSIGNAL) > 0) {
                char sink[256];
                while (read(c, sink, sizeof sink) > 0) {
                }
            }
        } else {
            usleep(700 * 1000); /* longer than the deadline leaves a second attempt */
            static const char body[] = "{\"__type\":\"ServiceUnavailableException\",\"message\":\"busy\"}";
            char out[512];
            int len = snprintf(out, sizeof out,
                               "HTTP/1.1 503 Busy\r\nContent-Type: application/x-amz-json-1.1\r\n"
                               "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                               sizeof body - 1, body);
            (void)!send(c, out, (size_t)len, MSG_NOSIGNAL); /* byoc may have hung up already */
        }
    }
}

static void server_start(server *s, behaviour how)
{
    memset(s, 0, sizeof *s);
    s->how = how;
    loopback_start(&s->lb, serve, s);
}

static void server_stop(server *s) { loopback_stop(&s->lb); }

static byoc_aws_creds CREDS = {"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", NULL, 0};

/* One DescribeRepositories call to s with mode and max attempts; returns its rc. */
static int call(server *s, byoc_retry_mode mode, int attempts, byoc_err *err)
{
    byoc_aws_endpoint ep = {.service = (byoc_aws_service)byoc_aws_service_from_name("ecr"), .signing_name = "ecr"};
    ep.url = byoc_xasprintf("http://127.0.0.1:%d", s->lb.port);
    ep.signing_region = byoc_xstrdup("us-east-1");
    byoc_aws_ctx ctx = {.endpoint = &ep, .creds = &CREDS, .creds_origin = "test", .retry_mode = mode,
                        .max_attempts = attempts};
    json_t *out = NULL;
    int rc = byoc_aws_json_do(&ctx, "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories", NULL, &out, err);
    json_decref(out);
    byoc_aws_endpoint_clear(&ep);
    return rc;
}

static void test_helpers(void)
{
    byoc_net_deadline none, one;
    byoc_net_deadline_start(&none, 0);
    CHECK(byoc_net_deadline_left_ms(&none) > 3600L * 1000L);
    CHECK(!byoc_net_deadline_too_late(&none, 1000000));
    byoc_net_deadline_start(&one, 30000);
    long left = byoc_net_deadline_left_ms(&one);
    CHECK(left > 0 && left <= 30000);
    CHECK(byoc_net_deadline_too_late(&one, 30000));
    CHECK(!byoc_net_deadline_too_late(&one, 0));
    byoc_err err;
    CHECK_INT(byoc_net_deadline_passed(&one, 3, &err), -1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "within 30 s") && strstr(err.message, "retries included") &&
          strstr(err.message, "BYOC_API_TIMEOUT") && strstr(err.message, "gave up after 3 attempts"));
    byoc_net_deadline_passed(&one, 1, &err);
    CHECK(strstr(err.message, "gave up") == NULL);
}

/* A reply that never completes: the first attempt uses the whole deadline, so none follows
 * (each attempt had its own deadline before: three attempts, three deadlines). */
static void test_held_reply(void)
{
    server s;
    server_start(&s, HOLD);
    byoc_err err;
    CHECK_INT(call(&s, BYOC_RETRY_STANDARD, 3, &err), -1);
    CHECK_INT(__atomic_load_n(&s.served, __ATOMIC_SEQ_CST), 1);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "DescribeRepositories") && strstr(err.message, "within 1 s") &&
          strstr(err.message, "retries included") && strstr(err.message, "BYOC_API_TIMEOUT"));
    CHECK(strstr(err.message, "gave up after") == NULL);
    server_stop(&s);
}

/* 503s that each take most of the deadline: the call ends at the deadline after one or two
 * attempts (the back-off is random), never after the ten it may make. */
static void test_slow_5xx(void)
{
    server s;
    server_start(&s, SLOW_503);
    byoc_err err;
    CHECK_INT(call(&s, BYOC_RETRY_LEGACY, 10, &err), -1);
    int served = __atomic_load_n(&s.served, __ATOMIC_SEQ_CST);
    CHECK(served == 1 || served == 2);
    CHECK_INT(err.kind, BYOC_E_NET);
    CHECK(strstr(err.message, "DescribeRepositories") && strstr(err.message, "BYOC_API_TIMEOUT") &&
          strstr(err.message, "retries included"));
    char want[64];
    snprintf(want, sizeof want, "gave up after %d attempts", served);
    CHECK(served == 1 ? strstr(err.message, "gave up") == NULL : strstr(err.message, want) != NULL);
    if (!(err.kind == BYOC_E_NET && served <= 2))
        fprintf(stderr, "served %d: %s\n", served, err.message);
    server_stop(&s);
}

/* A call's own per-attempt deadline (timeout_ms) shorter than the API deadline: the held
 * attempt is abandoned and retried within the call's deadline, as before. */
static void test_attempt_deadline(void)
{
    setenv("BYOC_API_TIMEOUT", "5", 1); /* the back-off after attempt 1 is under 1 s: a retry always fits */
    server s;
    server_start(&s, HOLD_FIRST);
    byoc_aws_endpoint ep = {.service = (byoc_aws_service)byoc_aws_service_from_name("ecr"), .signing_name = "ecr"};
    ep.url = byoc_xasprintf("http://127.0.0.1:%d", s.lb.port);
    ep.signing_region = byoc_xstrdup("us-east-1");
    byoc_aws_ctx ctx = {.endpoint = &ep, .creds = &CREDS, .creds_origin = "test", .retry_mode = BYOC_RETRY_STANDARD,
                        .max_attempts = 3};
    static const char body[] = "{}";
    byoc_aws_call call = {.protocol = BYOC_AWS_JSON, .operation = "DescribeRepositories",
                          .target = "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories", .body = body,
                          .body_len = sizeof body - 1, .timeout_ms = 300};
    CHECK_INT(byoc_aws_call_deadline_ms(&call), 5000);
    CHECK_INT(byoc_aws_deadline_ms(&call), 300);
    byoc_aws_response resp;
    byoc_err err;
    byoc_err_clear(&err);
    CHECK_INT(byoc_aws_do(&ctx, &call, &resp, &err), 0);
    CHECK_INT(__atomic_load_n(&s.served, __ATOMIC_SEQ_CST), 2);
    CHECK_INT(resp.status, 200);
    byoc_aws_response_clear(&resp);
    byoc_aws_endpoint_clear(&ep);
    server_stop(&s);
    setenv("BYOC_API_TIMEOUT", "1", 1);
}

int main(void)
{
    setenv("NO_PROXY", "127.0.0.1", 1);
    setenv("BYOC_API_TIMEOUT", "1", 1);
    byoc_http_global_init();
    test_helpers();
    test_held_reply();
    test_slow_5xx();
    test_attempt_deadline();
    byoc_http_global_cleanup();
    byoc_secret_clear_all();
    return check_done();
}
