/* Faults on every Braket operation byoc uses, injected with the Braket stand-in's own
 * fault API on a private stand-in (so other tests' traffic is untouched): CreateJob,
 * GetJob, CancelJob, SearchJobs, GetDevice, SearchDevices.
 *
 * Each: 500, 503, 429 throttling, a reset connection and a proxy's HTML page are retried
 * and succeed; repeated 503s give up after exactly 3 attempts with an error naming the
 * operation; validation errors, clock skew and expired tokens are not retried and say
 * what to fix; the next call succeeds. A request held past the call's timeout is retried.
 * 100 CreateJob calls whose first attempt fails (including after the job was created)
 * make exactly 100 jobs: the retry carries the same clientToken. Credentials that
 * expire mid-session are refreshed from credential_process; an expired-token answer
 * says so, and the next call with fresh credentials succeeds. */
#include "check.h"

#include <sys/stat.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "core/log.h"
#include "faultkit.h"

static fk_proc standin;
static int job_counter;

static const char *const DEVICE = "arn:aws:braket:::device/quantum-simulator/amazon/sv1";

static json_t *job_request(const char *token)
{
    char name[64];
    snprintf(name, sizeof name, "faults-%d-%d", (int)getpid() % 100000, ++job_counter);
    return json_pack("{s:s, s:s, s:s, s:{s:{s:s}, s:{s:s, s:s}}, s:{s:s, s:i, s:i}, s:{s:s}, s:{s:s}}",
                     "clientToken", token, "jobName", name, "roleArn",
                     "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole", "algorithmSpecification",
                     "containerImage", "uri", "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-faults:1",
                     "scriptModeConfig", "entryPoint", "algo:main", "s3Uri", "s3://amazon-braket-faults/src.tar.gz",
                     "instanceConfig", "instanceType", "ml.m5.large", "instanceCount", 1, "volumeSizeInGb", 30,
                     "outputDataConfig", "s3Path", "s3://amazon-braket-faults/out", "deviceConfig", "device",
                     DEVICE);
}

static void new_token(char *buf, size_t n)
{
    static unsigned k;
    snprintf(buf, n, "00000000-0000-4000-8000-%06d%06u", (int)getpid() % 1000000, ++k);
}

static char *create_job(byoc_aws_client *c, byoc_err *err)
{
    char token[64];
    new_token(token, sizeof token);
    json_t *req = job_request(token);
    char *arn = NULL;
    int rc = byoc_braket_create_job(c, NULL, req, &arn, err);
    json_decref(req);
    return rc == 0 ? arn : NULL;
}

/* ---- the operations ------------------------------------------------------------- */

static char *current_job; /* a job the read operations look at */

static int op_create(byoc_aws_client *c, byoc_err *err)
{
    char *arn = create_job(c, err);
    free(arn);
    return arn ? 0 : -1;
}

static int op_get_job(byoc_aws_client *c, byoc_err *err)
{
    json_t *out = NULL;
    int rc = byoc_braket_get_job(c, NULL, current_job, true, &out, err);
    json_decref(out);
    return rc;
}

static int op_cancel(byoc_aws_client *c, byoc_err *err)
{
    byoc_err e2;
    char *arn = create_job(c, &e2);
    if (!arn) {
        fk_print_err("create a job to cancel", &e2);
        return -2;
    }
    /* the fault is for CancelJob: created above without one */
    char status[64];
    int rc = byoc_braket_cancel_job(c, NULL, arn, status, err);
    free(arn);
    return rc;
}

static int op_search_jobs(byoc_aws_client *c, byoc_err *err)
{
    json_t *page = NULL;
    int rc = byoc_braket_search_jobs(c, NULL, NULL, 5, NULL, &page, err);
    json_decref(page);
    return rc;
}

static int op_get_device(byoc_aws_client *c, byoc_err *err)
{
    json_t *out = NULL;
    int rc = byoc_braket_get_device(c, NULL, DEVICE, &out, err);
    json_decref(out);
    return rc;
}

static int op_search_devices(byoc_aws_client *c, byoc_err *err)
{
    json_t *page = NULL;
    int rc = byoc_braket_search_devices(c, NULL, NULL, 10, NULL, &page, err);
    json_decref(page);
    return rc;
}

typedef int (*op_fn)(byoc_aws_client *c, byoc_err *err);

typedef struct bop {
    const char *name;
    op_fn fn;
} bop;

typedef struct fault_case {
    const char *fault;      /* stand-in fault members, "operation" added */
    bool ok;
    int attempts;
    byoc_err_kind kind;
    const char *says;
} fault_case;

static const fault_case cases[] = {
    {"\"status\": 500", true, 2, BYOC_OK, NULL},
    {"\"status\": 503, \"count\": 2", true, 3, BYOC_OK, NULL},
    {"\"status\": 429, \"count\": 2, \"retry_after\": 1", true, 3, BYOC_OK, NULL},
    {"\"action\": \"drop\"", true, 2, BYOC_OK, NULL},
    {"\"status\": 502, \"body\": \"<html><body>502 Bad Gateway</body></html>\"", true, 2, BYOC_OK, NULL},
    {"\"status\": 503, \"count\": 3", false, 3, BYOC_E_FAILED, "gave up after 3 attempts"},
    {"\"status\": 429, \"count\": 3", false, 3, BYOC_E_FAILED, "gave up after 3 attempts"},
    {"\"status\": 400, \"error\": \"ValidationException\", \"message\": \"1 validation error detected\"", false, 1,
     BYOC_E_FAILED, "validation"},
    {"\"status\": 403, \"error\": \"InvalidSignatureException\", \"message\": \"Signature expired: "
     "20200101T000000Z is now earlier than 20240101T000000Z (20240101T000500Z - 5 min.)\"",
     false, 1, BYOC_E_ENV, "clock"},
    {"\"status\": 403, \"error\": \"ExpiredTokenException\", \"message\": \"The security token included in the "
     "request is expired\"",
     false, 1, BYOC_E_ENV, "expired"},
};

static byoc_aws_client *new_client(const char *profile)
{
    byoc_aws_config_opts o = {.profile = profile};
    byoc_aws_client *c = NULL;
    byoc_err err;
    if (byoc_aws_client_new(&o, &c, &err) != 0) {
        fk_print_err("client", &err);
        exit(1);
    }
    return c;
}

static void test_matrix(byoc_aws_client *c, const bop *o)
{
    byoc_err err;
    CHECK_INT(o->fn(c, &err), 0);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const fault_case *fc = &cases[i];
        char fault[768];
        snprintf(fault, sizeof fault, "{\"operation\": \"%s\", %s}", o->name, fc->fault);
        int seq = 0;
        fk_standin_count(&standin, NULL, 1 << 30, &seq);
        CHECK(fk_standin_fault(&standin, fault));
        byoc_err_clear(&err);
        int rc = o->fn(c, &err);
        int n = fk_standin_count(&standin, o->name, seq, NULL);
        fk_standin_clear_faults(&standin);
        bool good = (rc == 0) == fc->ok && n == fc->attempts;
        if (!fc->ok)
            good = good && err.kind == fc->kind && strcasestr(err.message, fc->says) &&
                   strstr(err.message, o->name) && !strchr(err.message, '\n');
        if (good) {
            check_passed++;
        } else {
            check_fail(__FILE__, __LINE__, "%s with {%s}: rc %d after %d requests, want %s after %d", o->name,
                       fc->fault, rc, n, fc->ok ? "success" : "failure", fc->attempts);
            if (rc)
                fk_print_err(o->name, &err);
        }
        if (!fc->ok) {
            byoc_err_clear(&err);
            int again = o->fn(c, &err);
            if (again)
                fk_print_err("the call after the fault", &err);
            CHECK_INT(again, 0);
        }
    }
}

/* A request held past the call's timeout is abandoned and retried; held every time, the
 * call gives up. (The stall comes from faultproxy in front of the stand-in: it logs the
 * held request as soon as byoc hangs up.) */
static void test_stall(void)
{
    fk_proc proxy;
    fk_proxy_start(&proxy, standin.url);
    setenv("AWS_ENDPOINT_URL_BRAKET", proxy.url, 1);
    byoc_aws_client *c = new_client(NULL);
    setenv("AWS_ENDPOINT_URL_BRAKET", standin.url, 1);
    char *label = byoc_aws_path_label(DEVICE);
    char path[512];
    snprintf(path, sizeof path, "/device/%s", label);
    free(label);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_JSON, .operation = "GetDevice", .method = "GET", .path = path,
                          .timeout_ms = 1500};
    for (int stalls = 1; stalls <= 3; stalls += 2) {
        char rule[256];
        snprintf(rule, sizeof rule, "{\"match\": {\"path\": \"/device/\"}, \"fault\": \"stall\", "
                 "\"stall_seconds\": 60, \"count\": %d}", stalls);
        CHECK(fk_proxy_rule(&proxy, rule));
        int seq = fk_proxy_seq(&proxy);
        byoc_aws_response resp;
        byoc_err err;
        byoc_err_clear(&err);
        int rc = byoc_aws_call_do(c, NULL, BYOC_AWS_BRAKET, &call, &resp, &err);
        int n = fk_proxy_count(&proxy, NULL, seq, NULL);
        fk_proxy_clear(&proxy);
        if (stalls == 1) {
            if (rc)
                fk_print_err("GetDevice after a stall", &err);
            CHECK_INT(rc, 0);
            CHECK_INT(resp.status, 200);
            CHECK_INT(n, 2);
        } else {
            CHECK_INT(rc, -1);
            CHECK_INT(n, 3);
            CHECK_INT(err.kind, BYOC_E_NET);
            CHECK(strstr(err.message, "GetDevice") != NULL);
            CHECK(strstr(err.message, "gave up after 3 attempts") != NULL);
        }
        byoc_aws_response_clear(&resp);
    }
    byoc_aws_client_free(c);
    fk_stop(&proxy);
}

/* No duplicate job across 100 injected CreateJob faults. */
static void test_create_idempotent(byoc_aws_client *c)
{
    static const char *const faults[] = {
        "{\"operation\": \"CreateJob\", \"action\": \"drop_after\"}",
        "{\"operation\": \"CreateJob\", \"status\": 500}",
        "{\"operation\": \"CreateJob\", \"action\": \"drop\"}",
        "{\"operation\": \"CreateJob\", \"status\": 503}",
        "{\"operation\": \"CreateJob\", \"status\": 429}",
    };
    char url[128];
    snprintf(url, sizeof url, "%s/_standin/reset", standin.url);
    CHECK(fk_post(url, "{}"));
    int ok = 0, seq = 0;
    fk_standin_count(&standin, NULL, 1 << 30, &seq);
    char tokens[100][64];
    for (int i = 0; i < 100; i++) {
        CHECK(fk_standin_fault(&standin, faults[i % 5]));
        new_token(tokens[i], sizeof tokens[i]);
        json_t *req = job_request(tokens[i]);
        char *arn = NULL;
        byoc_err err;
        if (byoc_braket_create_job(c, NULL, req, &arn, &err) == 0)
            ok++;
        else
            fk_print_err("CreateJob with a fault", &err);
        /* the same request again (a user's retry): the same job */
        if (i == 0 && arn) {
            char *again = NULL;
            CHECK_INT(byoc_braket_create_job(c, NULL, req, &again, &err), 0);
            CHECK_STR(again, arn);
            free(again);
        }
        free(arn);
        json_decref(req);
    }
    CHECK_INT(ok, 100);
    CHECK_INT(fk_standin_count(&standin, "CreateJob", seq, NULL), 201);
    snprintf(url, sizeof url, "%s/_standin/jobs", standin.url);
    json_t *jobs = fk_http_json("GET", url, NULL, NULL);
    json_t *list = json_is_array(jobs) ? jobs : json_object_get(jobs, "jobs");
    CHECK_INT(json_array_size(list), 100);
    int matched = 0;
    for (int i = 0; i < 100; i++) {
        int count = 0;
        size_t k;
        json_t *j;
        json_array_foreach(list, k, j) {
            const char *tok = json_string_value(json_object_get(j, "clientToken"));
            if (tok && strcmp(tok, tokens[i]) == 0)
                count++;
        }
        matched += count == 1;
    }
    CHECK_INT(matched, 100);
    json_decref(jobs);
}

/* ---- credentials that expire mid-session ------------------------------------------ */

static char *creds_dir;

static void write_creds(const char *key, const char *secret, const char *token, long expires_in)
{
    char path[4096], tmp[4200], when[64];
    time_t t = time(NULL) + expires_in;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(path, sizeof path, "%s/creds.json", creds_dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    fprintf(f, "{\"Version\": 1, \"AccessKeyId\": \"%s\", \"SecretAccessKey\": \"%s\", \"SessionToken\": \"%s\", "
               "\"Expiration\": \"%s\"}\n",
            key, secret, token, when);
    fclose(f);
    rename(tmp, path);
}

static void allow_key(const char *key, const char *secret, const char *token)
{
    char url[128], body[512];
    snprintf(url, sizeof url, "%s/_standin/credentials", standin.url);
    snprintf(body, sizeof body, "{\"accessKeyId\": \"%s\", \"secretAccessKey\": \"%s\", \"sessionToken\": \"%s\"}",
             key, secret, token);
    CHECK(fk_post(url, body));
}

static const char *last_key(void)
{
    static char key[64];
    char url[128];
    snprintf(url, sizeof url, "%s/_standin/requests", standin.url);
    json_t *j = fk_http_json("GET", url, NULL, NULL);
    json_t *reqs = json_is_array(j) ? j : json_object_get(j, "requests");
    json_t *last = json_array_get(reqs, json_array_size(reqs) - 1);
    const char *k = json_string_value(json_object_get(last, "accessKeyId"));
    snprintf(key, sizeof key, "%s", k ? k : "");
    json_decref(j);
    return key;
}

static void test_expiring_credentials(void)
{
    creds_dir = check_tmpdir();
    char config[4096];
    snprintf(config, sizeof config, "%s/config", creds_dir);
    FILE *f = fopen(config, "w");
    fprintf(f, "[profile expiring]\nregion = us-east-1\ncredential_process = cat %s/creds.json\n", creds_dir);
    fclose(f);
    setenv("AWS_CONFIG_FILE", config, 1);
    char *saved_key = byoc_xstrdup(getenv("AWS_ACCESS_KEY_ID"));
    char *saved_secret = byoc_xstrdup(getenv("AWS_SECRET_ACCESS_KEY"));
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SECRET_ACCESS_KEY");

    allow_key("ASIAFAULTSKEYAAAAAAA", "faults-secret-a-0123456789", "faults-token-a-0123456789");
    allow_key("ASIAFAULTSKEYBBBBBBB", "faults-secret-b-0123456789", "faults-token-b-0123456789");
    allow_key("ASIAFAULTSKEYCCCCCCC", "faults-secret-c-0123456789", "faults-token-c-0123456789");
    /* key A is good for 10 minutes: inside the 15-minute refresh window */
    write_creds("ASIAFAULTSKEYAAAAAAA", "faults-secret-a-0123456789", "faults-token-a-0123456789", 600);
    byoc_aws_client *c = new_client("expiring");
    byoc_err err;
    CHECK_INT(op_get_device(c, &err), 0);
    CHECK_STR(last_key(), "ASIAFAULTSKEYAAAAAAA");

    /* A expires mid-session; the process now hands out B, and byoc picks it up */
    write_creds("ASIAFAULTSKEYBBBBBBB", "faults-secret-b-0123456789", "faults-token-b-0123456789", 600);
    int rc = op_get_device(c, &err);
    if (rc)
        fk_print_err("after the refresh", &err);
    CHECK_INT(rc, 0);
    CHECK_STR(last_key(), "ASIAFAULTSKEYBBBBBBB");

    /* the service says the token expired: byoc says so (exit 3), without the secret */
    CHECK(fk_standin_fault(&standin, "{\"status\": 403, \"error\": \"ExpiredTokenException\", \"message\": "
                                     "\"The security token included in the request is expired\"}"));
    byoc_err_clear(&err);
    rc = op_get_device(c, &err);
    CHECK_INT(rc, -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK_INT(byoc_err_exit_code(err.kind), 3);
    CHECK(strstr(err.message, "expired") != NULL);
    CHECK(strstr(err.message, "credential-process") != NULL || strstr(err.message, "expiring") != NULL);
    CHECK(strstr(err.message, "faults-secret") == NULL && strstr(err.message, "faults-token") == NULL);
    /* fresh credentials: the retry succeeds */
    write_creds("ASIAFAULTSKEYCCCCCCC", "faults-secret-c-0123456789", "faults-token-c-0123456789", 600);
    rc = op_get_device(c, &err);
    if (rc)
        fk_print_err("retry with fresh credentials", &err);
    CHECK_INT(rc, 0);
    CHECK_STR(last_key(), "ASIAFAULTSKEYCCCCCCC");

    /* the process breaks while the cached key is still valid for minutes: the key is kept */
    f = fopen(config, "w");
    fprintf(f, "[profile expiring]\nregion = us-east-1\ncredential_process = cat %s/missing.json\n", creds_dir);
    fclose(f);
    CHECK_INT(op_get_device(c, &err), 0);
    byoc_aws_client_free(c);

    setenv("AWS_ACCESS_KEY_ID", saved_key, 1);
    setenv("AWS_SECRET_ACCESS_KEY", saved_secret, 1);
    free(saved_key);
    free(saved_secret);
    unsetenv("AWS_CONFIG_FILE");
    char p[4200];
    snprintf(p, sizeof p, "%s/creds.json", creds_dir);
    unlink(p);
    unlink(config);
    rmdir(creds_dir);
    free(creds_dir);
}

int main(void)
{
    byoc_http_global_init();
    byoc_log_init(NULL, -1, -1);
    fk_standin_start(&standin);
    setenv("AWS_ENDPOINT_URL_BRAKET", standin.url, 1);
    unsetenv("AWS_RETRY_MODE");
    unsetenv("AWS_MAX_ATTEMPTS");
    byoc_aws_client *c = new_client(NULL);
    byoc_err err;
    current_job = create_job(c, &err);
    if (!current_job) {
        fk_print_err("CreateJob", &err);
        return 1;
    }
    const bop ops[] = {
        {"CreateJob", op_create},     {"GetJob", op_get_job},         {"CancelJob", op_cancel},
        {"SearchJobs", op_search_jobs}, {"GetDevice", op_get_device}, {"SearchDevices", op_search_devices},
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        fprintf(stderr, "-- %s\n", ops[i].name);
        test_matrix(c, &ops[i]);
    }
    fprintf(stderr, "-- stall past the timeout\n");
    test_stall();
    fprintf(stderr, "-- 100 CreateJob faults\n");
    test_create_idempotent(c);
    byoc_aws_client_free(c);
    fprintf(stderr, "-- credentials that expire mid-session\n");
    test_expiring_credentials();
    free(current_job);
    fk_stop(&standin);
    byoc_http_global_cleanup();
    return check_done();
}
