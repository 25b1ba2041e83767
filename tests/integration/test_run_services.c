/* aws/s3, aws/braket and aws/iam against moto (S3, IAM; SigV4 checked) and
 * the Braket stand-in (SigV4 and the botocore model checked): buckets,
 * single and multipart uploads, a cancelled multipart upload that leaves no
 * upload behind, copy/list/get; devices and jobs with pagination; IAM role
 * lookup; the Run step's tasks sharing one pool of clients.
 * moto rebuilds the URL from werkzeug's decoded form before checking SigV4, so
 * query values with '/' and keys with '+', '=', '%' or non-ASCII fail there
 * even for boto3: the keys and prefixes below avoid them. */
#include "check.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "aws/iam.h"
#include "aws/s3.h"
#include "byoc/jobspec.h"
#include "byoc/imagecheck.h"
#include "byoc/jobsubmit.h"
#include "byoc/preflight.h"
#include "core/buf.h"
#include "core/log.h"
#include "net/http.h"

static byoc_aws_client *client;
static char bucket[64];
static char *dir;

static void report(const char *what, const byoc_err *err)
{
    char line[1200];
    fprintf(stderr, "%s: %s\n", what, byoc_err_format(err, line, sizeof line));
}

static char *write_random_file(const char *name, size_t size)
{
    char *path = byoc_xasprintf("%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    unsigned char buf[65536];
    unsigned x = 12345;
    bool ok = fd >= 0;
    for (size_t done = 0; ok && done < size;) {
        size_t n = size - done < sizeof buf ? size - done : sizeof buf;
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (unsigned char)(x >> 16);
        }
        ok = (size_t)write(fd, buf, n) == n;
        done += n;
    }
    CHECK(ok);
    close(fd);
    return path;
}

static bool same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *da = check_read_file(a, &la), *db = check_read_file(b, &lb);
    bool same = da && db && la == lb && memcmp(da, db, la) == 0;
    free(da);
    free(db);
    return same;
}

static void test_buckets(void)
{
    byoc_err err;
    long status;
    char region[64];
    snprintf(bucket, sizeof bucket, "byoc-run-test-%ld", (long)time(NULL));
    CHECK_INT(byoc_s3_head_bucket(client, NULL, bucket, &status, region, &err), 0);
    CHECK_INT(status, 404);
    bool owned = true;
    if (byoc_s3_create_bucket(client, NULL, bucket, "us-east-1", &owned, &err) != 0)
        report("CreateBucket", &err);
    CHECK(!owned);
    CHECK_INT(byoc_s3_head_bucket(client, NULL, bucket, &status, region, &err), 0);
    CHECK_INT(status, 200);
    /* Again: already ours is not an error. */
    CHECK_INT(byoc_s3_create_bucket(client, NULL, bucket, "us-east-1", &owned, &err), 0);
    CHECK_INT(byoc_s3_block_public_access(client, NULL, bucket, &err), 0);
    char *policy = byoc_s3_braket_bucket_policy(bucket, "aws");
    CHECK_INT(byoc_s3_put_bucket_policy(client, NULL, bucket, policy, &err), 0);
    free(policy);
}

static void test_objects(void)
{
    byoc_err err;
    char etag[128];
    if (byoc_s3_put_object(client, NULL, bucket, "dir/a b.txt", "hello", 5, "text/plain", etag, &err) != 0) {
        report("PutObject", &err);
        CHECK(false);
    }
    CHECK(etag[0] == '"');
    char *small = write_random_file("small.bin", 1000);
    CHECK_INT(byoc_s3_upload_file(client, NULL, bucket, "dir/small.bin", small, NULL, NULL, &err), 0);

    /* 12 MiB in 5 MiB parts: a three-part upload. */
    char *big = write_random_file("big.bin", 12u << 20);
    byoc_s3_upload_opts o = {.part_size = 5 << 20, .threshold = 5 << 20};
    if (byoc_s3_upload_file(client, NULL, bucket, "dir/big.bin", big, &o, etag, &err) != 0)
        report("multipart", &err);
    CHECK_STR(etag, "(multipart, 3 parts)");

    byoc_s3_object *objs;
    size_t n;
    if (byoc_s3_list_objects(client, NULL, bucket, "dir", 0, &objs, &n, &err) != 0)
        report("ListObjectsV2", &err);
    CHECK_INT(n, 3);
    if (n == 3) {
        CHECK_STR(objs[0].key, "dir/a b.txt");
        CHECK_INT(objs[1].size, 12 << 20);
        CHECK(strstr(objs[1].etag, "-3\"") != NULL); /* a multipart ETag */
        CHECK_INT(objs[2].size, 1000);
    }
    byoc_s3_objects_free(objs, n);
    CHECK_INT(byoc_s3_list_objects(client, NULL, bucket, "dir", 1, &objs, &n, &err), 0);
    CHECK_INT(n, 1);
    byoc_s3_objects_free(objs, n);

    char *back = byoc_xasprintf("%s/back.bin", dir);
    CHECK_INT(byoc_s3_get_object_to_file(client, NULL, bucket, "dir/big.bin", back, NULL, &err), 0);
    CHECK(same_file(big, back));
    CHECK_INT(byoc_s3_copy_object(client, NULL, bucket, "dir/small.bin", bucket, "copy/small.bin", &err), 0);
    CHECK_INT(byoc_s3_get_object_to_file(client, NULL, bucket, "copy/small.bin", back, NULL, &err), 0);
    CHECK(same_file(small, back));
    CHECK_INT(byoc_s3_get_object_to_file(client, NULL, bucket, "no/such/key", back, NULL, &err), -1);
    CHECK_STR(err.code, "NoSuchKey");
    CHECK(access(back, F_OK) != 0);
    /* a bound on the download: 12 MiB refused at 1 MiB by Content-Length, nothing left behind */
    byoc_s3_get_limit lim = {.max_bytes = 1 << 20, .setting = "BYOC_RESULTS_MAX_BYTES"};
    CHECK_INT(byoc_s3_get_object_to_file(client, NULL, bucket, "dir/big.bin", back, &lim, &err), -1);
    CHECK(strstr(err.message, "larger than 1048576 bytes") && strstr(err.message, "BYOC_RESULTS_MAX_BYTES"));
    CHECK(access(back, F_OK) != 0);
    free(back);
    free(small);
    free(big);
}

/* ---- a cancelled multipart upload is aborted ---- */

static byoc_task *running;

typedef struct {
    const char *path;
} upload_arg;

static int upload_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    upload_arg *a = arg;
    running = t;
    *result = NULL;
    *result_free = NULL;
    byoc_s3_upload_opts o = {.part_size = 5 << 20, .threshold = 5 << 20};
    return byoc_s3_upload_file(client, t, bucket, "cancelled/big.bin", a->path, &o, NULL, err);
}

static void cancel_after_first_part(const byoc_event *ev, void *ud)
{
    (void)ud;
    if (ev->kind == BYOC_EV_PROGRESS && ev->current > 0 && ev->current < ev->total)
        byoc_task_cancel(running);
}

static int count_uploads(void)
{
    const byoc_aws_endpoint *ep;
    byoc_err err;
    if (byoc_aws_client_endpoint(client, BYOC_AWS_S3, &ep, &err) != 0)
        return -1;
    char *base = byoc_aws_s3_url(ep, bucket, NULL);
    char *url = byoc_xasprintf("%s?uploads", base);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML, .operation = "ListMultipartUploads", .method = "GET",
                          .url = url};
    byoc_aws_response resp;
    int n = -1;
    if (byoc_aws_call_do(client, NULL, BYOC_AWS_S3, &call, &resp, &err) == 0) {
        n = 0;
        for (const char *p = resp.body.data; p && (p = strstr(p, "<Upload>")); p++)
            n++;
    } else {
        report("ListMultipartUploads", &err);
    }
    byoc_aws_response_clear(&resp);
    free(url);
    free(base);
    return n;
}

static void test_cancelled_multipart(void)
{
    char *big = write_random_file("cancel.bin", 11u << 20);
    upload_arg a = {big};
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_task_run_sync("upload", upload_task, &a, &result, &result_free, &err, cancel_after_first_part, NULL);
    CHECK_INT(rc, -1);
    CHECK_INT(err.kind, BYOC_E_CANCELLED);
    CHECK_INT(count_uploads(), 0);
    byoc_s3_object *objs;
    size_t n;
    CHECK_INT(byoc_s3_list_objects(client, NULL, bucket, "cancelled", 0, &objs, &n, &err), 0);
    CHECK_INT(n, 0);
    byoc_s3_objects_free(objs, n);
    free(big);
}

/* ---- IAM ---- */

static void test_iam(void)
{
    byoc_err err;
    char path[64], name[96], other_name[96];
    snprintf(path, sizeof path, "/byoc-run-test-%ld/", (long)time(NULL));
    snprintf(name, sizeof name, "AmazonBraketJobsExecutionRole-c%ld", (long)time(NULL));
    snprintf(other_name, sizeof other_name, "AnotherRole-c%ld", (long)time(NULL));
    const char *trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":"
                        "{\"Service\":\"braket.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}";
    const char *other[] = {"RoleName", other_name, "Path", path, "AssumeRolePolicyDocument", trust, NULL};
    const char *params[] = {"RoleName", name, "Path", path, "AssumeRolePolicyDocument", trust, NULL};
    CHECK_INT(byoc_aws_query_call(client, NULL, BYOC_AWS_IAM, "CreateRole", "2010-05-08", other, NULL, &err), 0);
    CHECK_INT(byoc_aws_query_call(client, NULL, BYOC_AWS_IAM, "CreateRole", "2010-05-08", params, NULL, &err), 0);
    byoc_iam_role *roles;
    size_t n;
    CHECK_INT(byoc_iam_list_roles(client, NULL, path, &roles, &n, &err), 0);
    CHECK_INT(n, 2);
    byoc_iam_roles_free(roles, n);
    char *arn = NULL;
    CHECK_INT(byoc_iam_find_role(client, NULL, path, "AmazonBraketJobsExecutionRole", &arn, &err), 0);
    char want[256];
    snprintf(want, sizeof want, "arn:aws:iam::%s:role%s%s", check_env("BYOC_TEST_ACCOUNT"), path, name);
    CHECK_STR(arn, want);
    free(arn);
    CHECK_INT(byoc_iam_find_role(client, NULL, path, "NoSuchPrefix", &arn, &err), 0);
    CHECK(arn == NULL);
}

/* ---- Braket ---- */

static void test_devices(void)
{
    byoc_err err;
    json_t *d = NULL;
    CHECK_INT(byoc_braket_get_device(client, NULL, "arn:aws:braket:::device/quantum-simulator/amazon/sv1", &d, &err), 0);
    CHECK_STR(json_string_value(json_object_get(d, "deviceName")), "SV1");
    json_decref(d);
    CHECK_INT(byoc_braket_get_device(client, NULL, "arn:aws:braket:::device/quantum-simulator/amazon/nope", &d, &err),
              -1);
    CHECK_STR(err.code, "ResourceNotFoundException");

    /* Pages of two, by hand and by the helper. */
    json_t *page = NULL;
    size_t seen = 0;
    char *token = NULL;
    int pages = 0;
    do {
        CHECK_INT(byoc_braket_search_devices(client, NULL, NULL, 2, token, &page, &err), 0);
        free(token);
        token = NULL;
        seen += json_array_size(json_object_get(page, "devices"));
        const char *next = json_string_value(json_object_get(page, "nextToken"));
        if (next)
            token = byoc_xstrdup(next);
        json_decref(page);
        pages++;
    } while (token && pages < 20);
    CHECK(pages >= 3);
    CHECK(seen >= 5);
    json_t *all = NULL;
    CHECK_INT(byoc_braket_search_devices_all(client, NULL, NULL, 0, &all, &err), 0);
    CHECK_INT(json_array_size(all), seen);
    json_decref(all);
    const char *sim[] = {"SIMULATOR"};
    json_t *filters = json_array();
    json_array_append_new(filters, byoc_braket_device_filter("deviceType", sim, 1));
    CHECK_INT(byoc_braket_search_devices_all(client, NULL, filters, 2, &all, &err), 0);
    CHECK_INT(json_array_size(all), 2);
    json_decref(all);
    json_decref(filters);
}

static char *create_job(const char *name, byoc_err *err)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_set(&s.source_module, "algo.py");
    byoc_jobspec_set(&s.entry_point, "algo");
    char token[40];
    byoc_job_client_token(token, sizeof token);
    char role[128], image[160];
    snprintf(role, sizeof role, "arn:aws:iam::%s:role/service-role/AmazonBraketJobsExecutionRole",
             check_env("BYOC_TEST_ACCOUNT"));
    snprintf(image, sizeof image, "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-x:1", check_env("BYOC_TEST_ACCOUNT"));
    byoc_job_resolved r = {.region = "us-east-1", .bucket = bucket, .timestamp = "1", .job_name = name,
                           .role_arn = role, .client_token = token, .image_uri = image};
    json_t *req = byoc_job_create_request(&s, &r);
    char *arn = NULL;
    if (byoc_braket_create_job(client, NULL, req, &arn, err) != 0)
        report("CreateJob", err);
    json_decref(req);
    byoc_jobspec_clear(&s);
    return arn;
}

static void test_jobs(void)
{
    byoc_err err;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "byoc-svc-%ld", (long)time(NULL));
    char *arns[3];
    for (int i = 0; i < 3; i++) {
        char name[80];
        snprintf(name, sizeof name, "%s-%d", prefix, i);
        arns[i] = create_job(name, &err);
        CHECK(arns[i] != NULL);
    }
    if (!arns[0] || !arns[1] || !arns[2])
        return;
    json_t *job = NULL;
    CHECK_INT(byoc_braket_get_job(client, NULL, arns[0], true, &job, &err), 0);
    CHECK_STR(json_string_value(json_object_get(job, "jobArn")), arns[0]);
    const char *st = json_string_value(json_object_get(job, "status"));
    CHECK(st && (strcmp(st, "QUEUED") == 0 || strcmp(st, "RUNNING") == 0 || strcmp(st, "COMPLETED") == 0));
    json_decref(job);

    const char *vals[] = {prefix};
    json_t *filters = json_array();
    json_array_append_new(filters, byoc_braket_job_filter("jobName", "CONTAINS", vals, 1));
    json_t *page = NULL;
    CHECK_INT(byoc_braket_search_jobs(client, NULL, filters, 2, NULL, &page, &err), 0);
    CHECK_INT(json_array_size(json_object_get(page, "jobs")), 2);
    CHECK(json_object_get(page, "nextToken") != NULL);
    json_decref(page);
    json_t *all = NULL;
    CHECK_INT(byoc_braket_search_jobs_all(client, NULL, filters, 0, &all, &err), 0);
    CHECK_INT(json_array_size(all), 3);
    json_decref(all);
    json_decref(filters);

    char status[32];
    if (byoc_braket_cancel_job(client, NULL, arns[1], status, &err) == 0)
        CHECK(strcmp(status, "CANCELLING") == 0 || strcmp(status, "CANCELLED") == 0);
    else
        CHECK_STR(err.code, "ConflictException"); /* already finished on a fast clock */
    char missing[160];
    snprintf(missing, sizeof missing, "arn:aws:braket:us-east-1:%s:job/does-not-exist", check_env("BYOC_TEST_ACCOUNT"));
    CHECK_INT(byoc_braket_cancel_job(client, NULL, missing, status, &err), -1);
    CHECK_STR(err.code, "ResourceNotFoundException");
    CHECK_INT(byoc_braket_get_job(client, NULL, missing, false, &job, &err), -1);
    CHECK_INT(err.http_status, 404);
    for (int i = 0; i < 3; i++)
        free(arns[i]);
}

/* ---- the whole run as a task (what the TUI starts) ---- */

/* A job of the task image running algo as role. */
static byoc_job_submit_args *submit_args(const char *algo, const char *role)
{
    byoc_job_submit_args *a = byoc_xcalloc(1, sizeof *a);
    byoc_jobspec_init(&a->spec);
    byoc_jobspec_set(&a->spec.image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-task:1");
    byoc_jobspec_set(&a->spec.source_module, algo);
    byoc_jobspec_set(&a->spec.role_arn, role);
    return a;
}

/* The job's script (malloc'd path) and the execution role the submit tasks name. */
static char *write_algo(char *role, size_t role_size)
{
    char *algo = byoc_xasprintf("%s/algo.py", dir);
    FILE *f = fopen(algo, "w");
    fputs("print('hi')\n", f);
    fclose(f);
    snprintf(role, role_size, "arn:aws:iam::%s:role/service-role/AmazonBraketJobsExecutionRole",
             check_env("BYOC_TEST_ACCOUNT"));
    return algo;
}

static void test_submit_task(void)
{
    char role[160];
    char *algo = write_algo(role, sizeof role);
    for (int dry = 1; dry >= 0; dry--) {
        byoc_job_submit_args *a = submit_args(algo, role);
        a->opts.dry_run = dry;
        a->opts.wait = !dry;
        a->opts.poll_ms = 100;
        void *result = NULL;
        void (*result_free)(void *) = NULL;
        byoc_err err;
        byoc_err_clear(&err);
        int rc = byoc_task_run_sync("run", byoc_job_submit_task_fn, a, &result, &result_free, &err, NULL, NULL);
        if (rc != 0)
            report("submit task", &err);
        CHECK_INT(rc, 0);
        byoc_job_result *r = result;
        if (r) {
            CHECK_STR(r->status, dry ? "DRY_RUN" : "COMPLETED");
            CHECK(dry ? r->job_arn == NULL : r->job_arn != NULL);
            CHECK(strncmp(r->plan.job_name, "braket-job-task-", 16) == 0);
            json_t *j = byoc_job_result_json(r);
            CHECK(json_object_get(j, dry ? "create_job" : "job_arn") != NULL);
            json_decref(j);
            result_free(result);
        }
        byoc_job_submit_args_free(a);
    }
    /* A reviewed plan's timestamp is the one sent: the S3 keys shown are the ones used. */
    for (int bad = 0; bad <= 1; bad++) {
        byoc_job_submit_args *a = submit_args(algo, role);
        a->opts.dry_run = true;
        snprintf(a->timestamp, sizeof a->timestamp, "%s", bad ? "17/../x" : "1700000000123");
        a->opts.timestamp = a->timestamp;
        void *result = NULL;
        void (*result_free)(void *) = NULL;
        byoc_err err;
        byoc_err_clear(&err);
        int rc = byoc_task_run_sync("run", byoc_job_submit_task_fn, a, &result, &result_free, &err, NULL, NULL);
        if (bad) {
            CHECK(rc != 0 && err.kind == BYOC_E_USAGE && strstr(err.message, "epoch milliseconds"));
        } else {
            CHECK_INT(rc, 0);
            byoc_job_result *r = result;
            if (r) {
                CHECK_STR(r->plan.timestamp, "1700000000123");
                CHECK_STR(r->plan.job_name, "braket-job-task-1700000000123");
                char *body = json_dumps(r->plan.request, JSON_COMPACT);
                CHECK(body && strstr(body, "/braket-job-task-1700000000123/1700000000123/script/source.tar.gz"));
                free(body);
            }
        }
        if (result_free)
            result_free(result);
        byoc_job_submit_args_free(a);
    }
    unlink(algo);
    free(algo);
}

/* The Run screen's tasks (plan, image check, preflight) take their clients from the app's pool:
 * however many tasks run, the pool makes one client per region asked (the configured one, and
 * the image's and device's), and nothing else in the process makes one. */
static void test_session_pool(void)
{
    char role[160];
    char *algo = write_algo(role, sizeof role);
    byoc_aws_clients *pool = byoc_aws_clients_new();
    unsigned long before = byoc_aws_client_count_made();
    for (int i = 0; i < 2; i++) {
        byoc_job_submit_args *a = submit_args(algo, role);
        a->opts.dry_run = true;
        a->opts.clients = pool;
        a->opts.image_check = byoc_ecr_image_check;
        a->opts.image_check_ud = pool;
        void *result = NULL;
        void (*result_free)(void *) = NULL;
        byoc_err err;
        byoc_err_clear(&err);
        /* the image is not in ECR: the check (through the pool) says so */
        int rc = byoc_task_run_sync("plan", byoc_job_submit_task_fn, a, &result, &result_free, &err, NULL, NULL);
        CHECK(rc != 0 && strstr(err.message, "not in ECR") != NULL);
        if (result_free)
            result_free(result);
        byoc_job_submit_args_free(a);

        /* every AWS check of the preflight: credentials, region, device, instance type, image, permissions */
        byoc_preflight_args *pa = byoc_xcalloc(1, sizeof *pa);
        byoc_jobspec_init(&pa->spec);
        byoc_jobspec_set(&pa->spec.image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-task:1");
        byoc_jobspec_set(&pa->spec.source_module, algo);
        pa->opts.skip_image_run = true;
        pa->opts.clients = pool;
        pa->opts.role_env = role;
        result = NULL;
        result_free = NULL;
        byoc_err_clear(&err);
        rc = byoc_task_run_sync("preflight", byoc_preflight_task_fn, pa, &result, &result_free, &err, NULL, NULL);
        CHECK_INT(rc, 0);
        if (rc == 0) {
            const byoc_preflight_report *r = result;
            static const char *const ran[] = {"credentials", "device", "image.ecr", "permissions.pull",
                                              "permissions.s3"};
            for (size_t k = 0; k < sizeof ran / sizeof *ran; k++) {
                if (!byoc_preflight_find(r, ran[k]))
                    fprintf(stderr, "preflight: no %s check\n", ran[k]);
                CHECK(byoc_preflight_find(r, ran[k]) != NULL);
            }
            result_free(result);
        }
        byoc_preflight_args_free(pa);
    }
    CHECK_INT(byoc_aws_clients_made(pool), 2);
    CHECK_INT(byoc_aws_client_count_made() - before, 2);
    byoc_aws_clients_free(pool);
    unlink(algo);
    free(algo);
}

/* Empty and delete the test bucket (raw calls: byoc itself never deletes). */
static void drop_bucket(void)
{
    const byoc_aws_endpoint *ep;
    byoc_err err;
    if (byoc_aws_client_endpoint(client, BYOC_AWS_S3, &ep, &err) != 0)
        return;
    byoc_s3_object *objs;
    size_t n;
    if (byoc_s3_list_objects(client, NULL, bucket, NULL, 0, &objs, &n, &err) == 0) {
        for (size_t i = 0; i < n; i++) {
            char *url = byoc_aws_s3_url(ep, bucket, objs[i].key);
            byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML, .operation = "DeleteObject", .method = "DELETE",
                                  .url = url};
            CHECK_INT(byoc_aws_call_do(client, NULL, BYOC_AWS_S3, &call, NULL, &err), 0);
            free(url);
        }
        byoc_s3_objects_free(objs, n);
    }
    char *url = byoc_aws_s3_url(ep, bucket, NULL);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML, .operation = "DeleteBucket", .method = "DELETE", .url = url};
    CHECK_INT(byoc_aws_call_do(client, NULL, BYOC_AWS_S3, &call, NULL, &err), 0);
    free(url);
}

int main(void)
{
    check_env("AWS_ENDPOINT_URL_BRAKET");
    byoc_http_global_init();
    dir = check_tmpdir();
    byoc_err err;
    if (byoc_aws_client_new(NULL, &client, &err) != 0) {
        report("client", &err);
        return 1;
    }
    test_buckets();
    test_objects();
    test_cancelled_multipart();
    test_iam();
    test_devices();
    test_jobs();
    test_submit_task();
    test_session_pool();
    drop_bucket();
    byoc_aws_client_free(client);
    char cmd_dir[4200];
    snprintf(cmd_dir, sizeof cmd_dir, "%s", dir);
    const char *files[] = {"small.bin", "big.bin", "back.bin", "cancel.bin"};
    for (size_t i = 0; i < 4; i++) {
        char p[4300];
        snprintf(p, sizeof p, "%s/%s", cmd_dir, files[i]);
        unlink(p);
    }
    rmdir(cmd_dir);
    free(dir);
    byoc_http_global_cleanup();
    return check_done();
}
