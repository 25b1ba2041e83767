/* Faults on the AWS calls byoc makes, injected by tests/topology/faultproxy.py between
 * byoc and moto (which checks every signature): one operation per service and protocol
 * (STS and IAM query, ECR and Logs JSON 1.1, S3 REST-XML) through the real client.
 *
 * For each: HTTP 500/503, throttling, a connection reset before and after the service ran,
 * a truncated body and a proxy's HTML page are retried and succeed; the same faults on
 * every attempt give up after exactly the mode's attempts with an error that names the
 * operation and says it gave up; clock skew, an expired token and a validation error are
 * not retried and say what to fix; the next call then succeeds. Also: legacy mode (5
 * attempts), AWS_MAX_ATTEMPTS, adaptive mode, a stalled server past the call's timeout,
 * and a multipart upload that either completes or names the part that failed and leaves
 * nothing behind. */
#include "check.h"

#include <sys/stat.h>

#include "aws/client.h"
#include "aws/iam.h"
#include "aws/s3.h"
#include "aws/sts_client.h"
#include "core/log.h"
#include "faultkit.h"

static fk_proc proxy;
static char bucket[64];

typedef int (*op_fn)(byoc_aws_client *c, byoc_err *err);

static int op_sts(byoc_aws_client *c, byoc_err *err)
{
    byoc_sts_identity id;
    return byoc_sts_get_caller_identity(c, NULL, &id, err);
}

static int op_ecr(byoc_aws_client *c, byoc_err *err)
{
    json_t *out = NULL;
    int rc = byoc_aws_json_call(c, NULL, BYOC_AWS_ECR, "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories",
                                NULL, &out, err);
    json_decref(out);
    return rc;
}

static int op_logs(byoc_aws_client *c, byoc_err *err)
{
    json_t *out = NULL;
    int rc = byoc_aws_json_call(c, NULL, BYOC_AWS_LOGS, "Logs_20140328.DescribeLogGroups", NULL, &out, err);
    json_decref(out);
    return rc;
}

static int op_iam(byoc_aws_client *c, byoc_err *err)
{
    byoc_iam_role *roles = NULL;
    size_t n = 0;
    int rc = byoc_iam_list_roles(c, NULL, "/", &roles, &n, err);
    byoc_iam_roles_free(roles, n);
    return rc;
}

static int op_s3_put(byoc_aws_client *c, byoc_err *err)
{
    return byoc_s3_put_object(c, NULL, bucket, "faults-object.txt", "hello", 5, "text/plain", NULL, err);
}

static int op_s3_list(byoc_aws_client *c, byoc_err *err)
{
    byoc_s3_object *objs = NULL;
    size_t n = 0;
    int rc = byoc_s3_list_objects(c, NULL, bucket, "faults-", 0, &objs, &n, err);
    byoc_s3_objects_free(objs, n);
    return rc;
}

typedef struct op {
    const char *name;
    const char *match; /* faultproxy "match" object */
    op_fn fn;
} op;

typedef struct fault_case {
    const char *rule;       /* without "match" */
    bool ok;
    int attempts;           /* requests that reach the proxy */
    bool reuse_retry;       /* a reset: libcurl itself resends once when a reused
                               connection dies unanswered, so up to one request more per attempt */
    byoc_err_kind kind;     /* when !ok */
    const char *says;       /* the message contains this (when !ok), or NULL */
} fault_case;

static const fault_case cases[] = {
    {"\"fault\": \"status\", \"status\": 500, \"count\": 1", true, 2, false, BYOC_OK, NULL},
    {"\"fault\": \"status\", \"status\": 503, \"count\": 2", true, 3, false, BYOC_OK, NULL},
    {"\"fault\": \"throttle\", \"count\": 2", true, 3, false, BYOC_OK, NULL},
    {"\"fault\": \"reset\", \"count\": 1", true, 2, false, BYOC_OK, NULL},
    {"\"fault\": \"reset_after\", \"count\": 1", true, 2, false, BYOC_OK, NULL},
    {"\"fault\": \"truncate\", \"count\": 1", true, 2, false, BYOC_OK, NULL},
    {"\"fault\": \"html\", \"count\": 1", true, 2, false, BYOC_OK, NULL},
    {"\"fault\": \"status\", \"status\": 503, \"count\": 3", false, 3, false, BYOC_E_FAILED,
     "gave up after 3 attempts"},
    {"\"fault\": \"throttle\", \"count\": 3", false, 3, false, BYOC_E_FAILED, "gave up after 3 attempts"},
    {"\"fault\": \"reset\", \"count\": 10", false, 3, true, BYOC_E_NET, "gave up after 3 attempts"},
    {"\"fault\": \"skew\", \"count\": 1", false, 1, false, BYOC_E_ENV, "clock"},
    {"\"fault\": \"expired\", \"count\": 1", false, 1, false, BYOC_E_ENV, "expired"},
    {"\"fault\": \"status\", \"status\": 400, \"code\": \"ValidationException\", \"count\": 1", false, 1,
     false, BYOC_E_FAILED, "ValidationException"},
};

static byoc_aws_client *new_client(void)
{
    byoc_aws_client *c = NULL;
    byoc_err err;
    if (byoc_aws_client_new(NULL, &c, &err) != 0) {
        fk_print_err("client", &err);
        exit(1);
    }
    return c;
}

/* Inject rule_body (matching m), run the op, return the requests it took. */
static int run_with_fault(byoc_aws_client *c, const op *o, const char *rule_body, int *rc, byoc_err *err)
{
    char rule[1024];
    snprintf(rule, sizeof rule, "{\"match\": %s, %s}", o->match, rule_body);
    CHECK(fk_proxy_rule(&proxy, rule));
    int seq = fk_proxy_seq(&proxy);
    byoc_err_clear(err);
    *rc = o->fn(c, err);
    int n = fk_proxy_count(&proxy, NULL, seq, NULL);
    fk_proxy_clear(&proxy);
    return n;
}

static void test_matrix(const op *o)
{
    byoc_aws_client *c = new_client();
    byoc_err err;
    CHECK_INT(o->fn(c, &err), 0); /* works without faults */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const fault_case *fc = &cases[i];
        int rc;
        int n = run_with_fault(c, o, fc->rule, &rc, &err);
        bool good = (rc == 0) == fc->ok &&
                    (fc->reuse_retry ? n >= fc->attempts && n <= 2 * fc->attempts : n == fc->attempts);
        if (!fc->ok) /* what failed, why, and that retrying already happened */
            good = good && err.kind == fc->kind && strstr(err.message, fc->says) && strstr(err.message, o->name);
        if (good)
            check_passed++;
        else {
            check_fail(__FILE__, __LINE__, "%s with {%s}: rc %d after %d requests, want %s after %d", o->name,
                       fc->rule, rc, n, fc->ok ? "success" : "failure", fc->attempts);
            if (rc != 0)
                fk_print_err(o->name, &err);
        }
        if (!fc->ok) {
            /* the error is one line that names the service call */
            CHECK(strchr(err.message, '\n') == NULL);
            CHECK(err.message[0] != '\0');
            /* and a retry by the user succeeds */
            byoc_err_clear(&err);
            int again = o->fn(c, &err);
            if (again != 0)
                fk_print_err("retry after the fault", &err);
            CHECK_INT(again, 0);
        }
    }
    byoc_aws_client_free(c);
}

static void test_modes(void)
{
    const op sts = {"GetCallerIdentity", "{\"action\": \"GetCallerIdentity\"}", op_sts};
    byoc_err err;
    int rc, n;

    setenv("AWS_RETRY_MODE", "legacy", 1);
    byoc_aws_client *c = new_client();
    n = run_with_fault(c, &sts, "\"fault\": \"status\", \"status\": 503, \"count\": 4", &rc, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(n, 5);
    n = run_with_fault(c, &sts, "\"fault\": \"status\", \"status\": 500, \"count\": 5", &rc, &err);
    CHECK_INT(rc, -1);
    CHECK_INT(n, 5);
    CHECK(strstr(err.message, "gave up after 5 attempts") != NULL);
    byoc_aws_client_free(c);
    unsetenv("AWS_RETRY_MODE");

    setenv("AWS_MAX_ATTEMPTS", "1", 1);
    c = new_client();
    n = run_with_fault(c, &sts, "\"fault\": \"status\", \"status\": 500, \"count\": 1", &rc, &err);
    CHECK_INT(rc, -1);
    CHECK_INT(n, 1);
    CHECK(strstr(err.message, "gave up") == NULL);
    byoc_aws_client_free(c);
    setenv("AWS_MAX_ATTEMPTS", "6", 1);
    c = new_client();
    n = run_with_fault(c, &sts, "\"fault\": \"throttle\", \"count\": 5", &rc, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(n, 6);
    byoc_aws_client_free(c);
    unsetenv("AWS_MAX_ATTEMPTS");

    setenv("AWS_RETRY_MODE", "adaptive", 1);
    c = new_client();
    n = run_with_fault(c, &sts, "\"fault\": \"throttle\", \"count\": 2", &rc, &err);
    CHECK_INT(rc, 0);
    CHECK_INT(n, 3);
    byoc_aws_client_free(c);
    unsetenv("AWS_RETRY_MODE");
}

/* A server that accepts the request and never answers: the call's timeout ends each attempt. */
static void test_stall(void)
{
    byoc_aws_client *c = new_client();
    static const char body[] = "Action=GetCallerIdentity&Version=2011-06-15";
    byoc_aws_call call = {.protocol = BYOC_AWS_QUERY,
                          .operation = "GetCallerIdentity",
                          .body = body,
                          .body_len = sizeof body - 1,
                          .timeout_ms = 1500};
    for (int stalls = 1; stalls <= 3; stalls += 2) {
        char rule[256];
        snprintf(rule, sizeof rule,
                 "{\"match\": {\"action\": \"GetCallerIdentity\"}, \"fault\": \"stall\", \"stall_seconds\": 30, "
                 "\"count\": %d}",
                 stalls);
        CHECK(fk_proxy_rule(&proxy, rule));
        int seq = fk_proxy_seq(&proxy);
        byoc_err err;
        byoc_err_clear(&err);
        byoc_aws_response resp;
        int rc = byoc_aws_call_do(c, NULL, BYOC_AWS_STS, &call, &resp, &err);
        int n = fk_proxy_count(&proxy, NULL, seq, NULL);
        fk_proxy_clear(&proxy);
        if (stalls == 1) {
            CHECK_INT(rc, 0);
            CHECK_INT(resp.status, 200);
            CHECK_INT(n, 2);
        } else {
            CHECK_INT(rc, -1);
            CHECK_INT(n, 3);
            CHECK_INT(err.kind, BYOC_E_NET);
            CHECK(strstr(err.message, "GetCallerIdentity") != NULL);
            CHECK(strstr(err.message, "gave up after 3 attempts") != NULL);
            if (!strstr(err.message, "GetCallerIdentity"))
                fk_print_err("stall", &err);
        }
        byoc_aws_response_clear(&resp);
    }
    byoc_aws_client_free(c);
}

/* Uploads either complete or say exactly what did not, and leave no half-made object. */
static void test_multipart(void)
{
    byoc_aws_client *c = new_client();
    char *dir = check_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/blob", dir);
    const size_t size = 11u << 20;
    char *data = byoc_xmalloc(size);
    for (size_t i = 0; i < size; i++)
        data[i] = (char)(i * 7 + (i >> 12));
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size);
    if (f)
        fclose(f);
    free(data);
    byoc_s3_upload_opts opts = {.part_size = 5u << 20, .threshold = 5u << 20};
    byoc_err err;

    /* a part that fails once, and one whose answer is lost after S3 stored it */
    CHECK(fk_proxy_rule(&proxy, "{\"rules\": [{\"match\": {\"method\": \"PUT\", \"query\": \"partNumber=2\"}, "
                                "\"fault\": \"status\", \"status\": 500},"
                                "{\"match\": {\"method\": \"PUT\", \"query\": \"partNumber=3\"}, "
                                "\"fault\": \"reset_after\"}]}"));
    int rc = byoc_s3_upload_file(c, NULL, bucket, "faults-multipart.bin", path, &opts, NULL, &err);
    if (rc)
        fk_print_err("multipart upload with faults", &err);
    CHECK_INT(rc, 0);
    fk_proxy_clear(&proxy);
    byoc_s3_object *objs = NULL;
    size_t n = 0;
    CHECK_INT(byoc_s3_list_objects(c, NULL, bucket, "faults-multipart.bin", 0, &objs, &n, &err), 0);
    CHECK_INT(n, 1);
    if (n == 1)
        CHECK_INT(objs[0].size, (long long)size);
    byoc_s3_objects_free(objs, n);

    /* a part that keeps failing: the error names it, the upload is aborted, no object */
    CHECK(fk_proxy_rule(&proxy, "{\"match\": {\"method\": \"PUT\", \"query\": \"partNumber=2\"}, "
                                "\"fault\": \"status\", \"status\": 503, \"count\": 3}"));
    rc = byoc_s3_upload_file(c, NULL, bucket, "faults-failed.bin", path, &opts, NULL, &err);
    fk_proxy_clear(&proxy);
    CHECK_INT(rc, -1);
    CHECK(strstr(err.message, "part 2") != NULL);
    CHECK(strstr(err.message, "gave up after 3 attempts") != NULL);
    if (rc != -1 || !strstr(err.message, "part 2"))
        fk_print_err("multipart upload that fails", &err);
    objs = NULL;
    n = 0;
    CHECK_INT(byoc_s3_list_objects(c, NULL, bucket, "faults-failed.bin", 0, &objs, &n, &err), 0);
    CHECK_INT(n, 0);
    byoc_s3_objects_free(objs, n);
    /* (moto's signature check rejects a '/' in an S3 query, as it does boto3's: keys here have none) */
    byoc_aws_call lu = {.protocol = BYOC_AWS_REST_XML, .operation = "ListMultipartUploads", .method = "GET",
                        .query = "uploads="};
    char p[128];
    snprintf(p, sizeof p, "/%s", bucket);
    lu.path = p;
    byoc_aws_response resp;
    CHECK_INT(byoc_aws_call_do(c, NULL, BYOC_AWS_S3, &lu, &resp, &err), 0);
    CHECK(strstr(byoc_buf_str(&resp.body), "failed.bin") == NULL);
    byoc_aws_response_clear(&resp);
    unlink(path);
    rmdir(dir);
    free(dir);
    byoc_aws_client_free(c);
}

int main(void)
{
    byoc_http_global_init();
    byoc_log_init(NULL, -1, -1);
    fk_proxy_start(&proxy, check_env("BYOC_TEST_MOTO_URL"));
    static const char *const services[] = {"AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_S3",
                                           "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", "AWS_ENDPOINT_URL_IAM"};
    for (size_t i = 0; i < sizeof services / sizeof *services; i++)
        setenv(services[i], proxy.url, 1);
    unsetenv("AWS_RETRY_MODE");
    unsetenv("AWS_MAX_ATTEMPTS");

    snprintf(bucket, sizeof bucket, "byoc-faults-%ld-%d", (long)time(NULL), (int)getpid());
    byoc_aws_client *c = new_client();
    byoc_err err;
    if (byoc_s3_create_bucket(c, NULL, bucket, "us-east-1", NULL, &err) != 0) {
        fk_print_err("create bucket", &err);
        CHECK(0);
    }
    byoc_aws_client_free(c);

    char s3_put[160], s3_list[160];
    snprintf(s3_put, sizeof s3_put, "{\"method\": \"PUT\", \"path\": \"/%s/faults-object.txt\"}", bucket);
    snprintf(s3_list, sizeof s3_list, "{\"method\": \"GET\", \"path\": \"/%s\", \"query\": \"list-type=2\"}", bucket);
    const op ops[] = {
        {"GetCallerIdentity", "{\"action\": \"GetCallerIdentity\"}", op_sts},
        {"ListRoles", "{\"action\": \"ListRoles\"}", op_iam},
        {"DescribeRepositories", "{\"target\": \"DescribeRepositories\"}", op_ecr},
        {"DescribeLogGroups", "{\"target\": \"DescribeLogGroups\"}", op_logs},
        {"PutObject", s3_put, op_s3_put},
        {"ListObjectsV2", s3_list, op_s3_list},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        fprintf(stderr, "-- %s\n", ops[i].name);
        test_matrix(&ops[i]);
    }
    fprintf(stderr, "-- retry modes\n");
    test_modes();
    fprintf(stderr, "-- stall past the timeout\n");
    test_stall();
    fprintf(stderr, "-- multipart upload\n");
    test_multipart();
    fk_stop(&proxy);
    byoc_http_global_cleanup();
    return check_done();
}
