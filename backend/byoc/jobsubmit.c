#include "byoc/jobsubmit.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "aws/braket.h"
#include "aws/clients.h"
#include "aws/endpoints.h"
#include "aws/iam.h"
#include "aws/s3.h"
#include "aws/sts_client.h"
#include "byoc/jobspec_files.h"
#include "byoc/source_archive.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "core/log.h"
#include "core/str.h"
#include "core/utf8.h"
#include "net/retry.h"

/* The Braket regions the SDK searches for a region-less QPU ARN (AwsDevice.REGIONS). */
static const char *const BRAKET_REGIONS[] = {"us-east-1", "us-west-1", "us-west-2", "eu-west-2", "eu-north-1", NULL};

/* ---- plan and result storage --------------------------------------------------------- */

static void byoc_job_plan_clear(byoc_job_plan *p)
{
    free(p->region);
    free(p->account);
    free(p->bucket);
    free(p->timestamp);
    free(p->job_name);
    free(p->client_token);
    free(p->role_arn);
    free(p->role_origin);
    free(p->image_uri);
    free(p->endpoint);
    json_decref(p->request);
    for (size_t i = 0; i < p->n_transfers; i++) {
        free(p->transfers[i].kind);
        free(p->transfers[i].from);
        free(p->transfers[i].to);
    }
    free(p->transfers);
    for (size_t i = 0; i < p->n_warnings; i++)
        free(p->warnings[i]);
    free(p->warnings);
    byoc_source_archive_remove(p->archive_path);
    memset(p, 0, sizeof *p);
}

void byoc_job_result_clear(byoc_job_result *r)
{
    byoc_job_plan_clear(&r->plan);
    free(r->job_arn);
    free(r->status);
    free(r->failure_reason);
    json_decref(r->job);
    byoc_job_problems_clear(&r->problems);
    memset(r, 0, sizeof *r);
}

static void add_transfer(byoc_job_plan *p, const char *kind, const char *from, const char *to, int64_t size)
{
    p->transfers = byoc_xrealloc(p->transfers, (p->n_transfers + 1) * sizeof *p->transfers);
    byoc_job_transfer *x = &p->transfers[p->n_transfers++];
    x->kind = byoc_xstrdup(kind);
    x->from = byoc_xstrdup(from);
    x->to = byoc_xstrdup(to);
    x->size = size;
}

static void add_warning(byoc_job_plan *p, byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_warning(byoc_job_plan *p, byoc_task *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    p->warnings = byoc_xrealloc(p->warnings, (p->n_warnings + 1) * sizeof *p->warnings);
    p->warnings[p->n_warnings++] = byoc_xstrdup(byoc_buf_str(&b));
    byoc_task_log(t, "warning: %s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
}

/* ---- step 2: resolving ------------------------------------------------------------------ */

typedef struct {
    const byoc_jobspec *spec;
    const byoc_job_submit_opts *opts;
    byoc_task *t;
    byoc_job_result *out;
    byoc_aws_client *client;    /* for the job's region */
} run_ctx;

static int client_for_region(run_ctx *r, const char *region, byoc_err *err)
{
    byoc_aws_config_opts o = r->opts->aws;
    o.region = region;
    byoc_aws_client *c;
    if (byoc_aws_clients_get(r->opts->clients, &o, &c, err) != 0)
        return -1;
    byoc_aws_client_free(r->client);
    r->client = c;
    return 0;
}

static bool is_not_found(const byoc_err *e)
{
    return strcmp(e->code, "ResourceNotFoundException") == 0 || e->http_status == 404;
}

/* AwsQuantumJob._initialize_session: GetDevice in the device's region, or in
 * the current one, or (a region-less QPU) in the other Braket regions. */
static int resolve_device(run_ctx *r, byoc_err *err)
{
    const char *device = r->spec->device ? r->spec->device : BYOC_JOB_DEFAULT_DEVICE;
    if (strncmp(device, "local:", 6) == 0)
        return 0;
    char *device_region = byoc_job_device_region(device);
    const char *current = byoc_aws_client_region(r->client);
    json_t *d = NULL;
    int rc = 0;
    if (*device_region) {
        if (strcmp(device_region, current) != 0) {
            byoc_task_log(r->t, "the device is in %s: the job runs there (not in %s)", device_region, current);
            rc = client_for_region(r, device_region, err);
        }
        if (rc == 0 && byoc_braket_get_device(r->client, r->t, device, &d, err) != 0) {
            if (is_not_found(err))
                byoc_err_set(err, BYOC_E_USAGE, "--device (deviceConfig.device)", "'%s' not found in %s", device,
                             device_region);
            rc = -1;
        }
    } else if (byoc_braket_get_device(r->client, r->t, device, &d, err) != 0) {
        rc = -1;
        if (is_not_found(err) && !strstr(device, "qpu")) {
            byoc_err_set(err, BYOC_E_USAGE, "--device (deviceConfig.device)", "simulator '%s' not found in %s",
                         device, current);
        } else if (is_not_found(err)) {
            char *original = byoc_xstrdup(current);
            for (const char *const *reg = BRAKET_REGIONS; *reg && rc != 0; reg++) {
                if (strcmp(*reg, original) == 0)
                    continue;
                if (client_for_region(r, *reg, err) != 0)
                    break;
                if (byoc_braket_get_device(r->client, r->t, device, &d, err) == 0) {
                    byoc_task_log(r->t, "the device is in %s: the job runs there (not in %s)", *reg, original);
                    rc = 0;
                } else if (!is_not_found(err)) {
                    break;
                }
            }
            if (rc != 0 && is_not_found(err))
                byoc_err_set(err, BYOC_E_USAGE, "--device (deviceConfig.device)", "QPU '%s' not found", device);
            free(original);
        }
    }
    const char *status = json_string_value(json_object_get(d, "deviceStatus"));
    if (rc == 0 && status && strcmp(status, "ONLINE") != 0)
        add_warning(&r->out->plan, r->t, "device %s is %s", device, status);
    json_decref(d);
    free(device_region);
    return rc;
}

static int resolve_role(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    if (r->spec->role_arn) {
        byoc_str_set(&p->role_arn, r->spec->role_arn);
        byoc_str_set(&p->role_origin, "--role-arn");
        return 0;
    }
    const char *env = r->opts->role_env ? r->opts->role_env : getenv(BYOC_JOB_ROLE_ENV);
    if (env && *env) {
        byoc_str_set(&p->role_arn, env);
        byoc_str_set(&p->role_origin, BYOC_JOB_ROLE_ENV);
        return 0;
    }
    byoc_task_status(r->t, "looking up the default jobs role");
    char *arn = NULL;
    if (byoc_iam_find_role(r->client, r->t, BYOC_JOB_DEFAULT_ROLE_PATH, BYOC_JOB_DEFAULT_ROLE_PREFIX, &arn, err) != 0) {
        byoc_err_prefix(err, "finding the default jobs role (give --role-arn to skip this)");
        return -1;
    }
    if (!arn)
        return byoc_err_set(err, BYOC_E_USAGE, "--role-arn (roleArn)",
                            "no role given and no default jobs role found: IAM has no role %s%s*; create one in the "
                            "Amazon Braket console, set " BYOC_JOB_ROLE_ENV " or pass --role-arn",
                            BYOC_JOB_DEFAULT_ROLE_PATH, BYOC_JOB_DEFAULT_ROLE_PREFIX);
    byoc_job_problems probs = {0};
    if (byoc_job_check_role_arn(arn, BYOC_JF_ROLE_ARN, "IAM ListRoles", &probs)) {
        byoc_job_problems_to_err(&probs, err);
        byoc_job_problems_clear(&probs);
        free(arn);
        return -1;
    }
    p->role_arn = arn;
    byoc_str_set(&p->role_origin, "IAM ListRoles");
    return 0;
}

/* ---- step 3: deriving -------------------------------------------------------------------- */

static int usage_from_problems(run_ctx *r, byoc_job_problems *probs, byoc_err *err)
{
    byoc_job_problems_to_err(probs, err);
    byoc_job_problems *keep = &r->out->problems;
    for (size_t i = 0; i < probs->len; i++) {
        if (keep->len == keep->cap) {
            keep->cap = keep->cap ? keep->cap * 2 : 8;
            keep->items = byoc_xrealloc(keep->items, keep->cap * sizeof *keep->items);
        }
        keep->items[keep->len++] = probs->items[i];
    }
    byoc_job_problems_clear(probs);
    return -1;
}

/* The local input files of each channel, mapped to S3; channel_uris[i] filled. */
static int plan_inputs(run_ctx *r, const byoc_job_resolved *res, char **channel_uris, byoc_err *err)
{
    const byoc_jobspec *s = r->spec;
    for (size_t i = 0; i < s->n_channels; i++) {
        const byoc_job_channel *c = &s->channels[i];
        if (strncasecmp(c->location, "s3://", 5) == 0 || strncmp(c->location, "https://", 8) == 0) {
            channel_uris[i] = byoc_xstrdup(c->location);
            continue;
        }
        channel_uris[i] = byoc_job_channel_s3_prefix(res, c->name, c->location);
        byoc_job_local_file *files;
        size_t n;
        char why[600];
        if (byoc_job_local_input_files(c->location, channel_uris[i], &files, &n, why, sizeof why) != 0)
            return byoc_err_set(err, BYOC_E_USAGE, "--input-data (inputDataConfig)", "%s", why);
        if (n == 0) {
            byoc_job_local_files_free(files, n);
            return byoc_err_set(err, BYOC_E_USAGE, "--input-data (inputDataConfig)", "no local file matches '%s'",
                                c->location);
        }
        for (size_t k = 0; k < n; k++)
            add_transfer(&r->out->plan, "input", files[k].path, files[k].s3_uri, files[k].size);
        byoc_job_local_files_free(files, n);
    }
    return 0;
}

static int plan_source(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    const json_t *script = json_object_get(json_object_get(p->request, "algorithmSpecification"), "scriptModeConfig");
    const char *to = json_string_value(json_object_get(script, "s3Uri"));
    char *bucket, *key;
    if (byoc_s3_parse_uri(to, &bucket, &key) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, r->spec->code_location ? "--code-location" : "--source-module",
                            "cannot upload to '%s': it must be s3://<bucket without dots>/<key> (SDK parse_s3_uri)",
                            to);
    free(bucket);
    free(key);
    const char *src = r->spec->source_module;
    if (strncasecmp(src, "s3://", 5) == 0 || strncmp(src, "https://", 8) == 0) {
        if (byoc_s3_parse_uri(src, &bucket, &key) != 0)
            return byoc_err_set(err, BYOC_E_USAGE, "--source-module",
                                "'%s' must be s3://<bucket without dots>/<key> (SDK parse_s3_uri)", src);
        free(bucket);
        free(key);
        if (strcmp(src, to) != 0)
            add_transfer(p, "copy", src, to, -1);
        return 0;
    }
    struct stat st;
    add_transfer(p, "source", p->archive_path, to, stat(p->archive_path, &st) == 0 ? (int64_t)st.st_size : -1);
    return 0;
}

/* Archive a local source module before anything is sent: its errors are the user's to fix. */
static int build_archive(run_ctx *r, byoc_err *err)
{
    const char *src = r->spec->source_module;
    if (strncasecmp(src, "s3://", 5) == 0 || strncmp(src, "https://", 8) == 0)
        return 0;
    byoc_task_status(r->t, "archiving the source module");
    byoc_archive_stats st;
    if (byoc_source_archive_build(src, r->t, &r->out->plan.archive_path, &st, err) != 0)
        return -1;
    byoc_task_log(r->t, "source.tar.gz: %llu files, %llu bytes -> %llu bytes", (unsigned long long)st.files,
                  (unsigned long long)st.bytes_in, (unsigned long long)st.bytes_out);
    return 0;
}

/* The timestamp, token and name come first: they need nothing remote, and a
 * default name that cannot be used must stop the run before anything is sent. */
static int name_job(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    const byoc_jobspec *s = r->spec;
    char ts[32], token[40];
    const char *given = r->opts->timestamp;
    if (given && *given) {
        /* the reviewed plan's: epoch milliseconds, as byoc_job_timestamp writes them */
        size_t n = strspn(given, "0123456789");
        if (given[n] || n > 19)
            return byoc_err_set(err, BYOC_E_USAGE, "run", "the plan's timestamp '%.32s' is not epoch milliseconds",
                                given);
        snprintf(ts, sizeof ts, "%s", given);
    } else {
        byoc_job_timestamp(ts, sizeof ts);
    }
    if (byoc_job_client_token(token, sizeof token) != 0)
        return byoc_err_set(err, BYOC_E_ENV, "run", "the system random generator failed (OpenSSL RAND_bytes)");
    byoc_str_set(&p->timestamp, ts);
    byoc_str_set(&p->client_token, token);
    p->job_name = s->job_name ? byoc_xstrdup(s->job_name) : byoc_job_default_name(s->image_uri, ts);
    byoc_job_problems probs = {0};
    if (!s->job_name && byoc_job_check_name(p->job_name, BYOC_JF_JOB_NAME, &probs)) {
        byoc_job_problems named = {0};
        byoc_job_problem_add(&named, BYOC_JF_JOB_NAME, -1, NULL,
                             "the default name made from the image repository is not valid (%s): give --job-name",
                             probs.items[0].message);
        byoc_job_problems_clear(&probs);
        return usage_from_problems(r, &named, err);
    }
    return 0;
}

static int derive(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    const byoc_jobspec *s = r->spec;
    p->bucket = byoc_job_default_bucket(p->region, p->account);
    if (s->image_uri) {
        byoc_str_set(&p->image_uri, s->image_uri);
    } else {
        p->image_uri = byoc_job_base_image(p->region);
        if (!p->image_uri)
            return byoc_err_set(err, BYOC_E_USAGE, "--image-uri (algorithmSpecification.containerImage.uri)",
                                "no image given and the SDK has no base image for region %s", p->region);
    }
    char **channel_uris = byoc_xcalloc(s->n_channels + 1, sizeof *channel_uris);
    byoc_job_resolved res = {.region = p->region,
                             .bucket = p->bucket,
                             .timestamp = p->timestamp,
                             .job_name = p->job_name,
                             .role_arn = p->role_arn,
                             .client_token = p->client_token,
                             .image_uri = p->image_uri,
                             .channel_uris = (const char *const *)channel_uris};
    byoc_job_problems probs = {0};
    int rc = 0;
    if (rc == 0)
        rc = plan_inputs(r, &res, channel_uris, err);
    if (rc == 0) {
        p->request = byoc_job_create_request(s, &res);
        if (byoc_job_check_request(p->request, s, &probs))
            rc = usage_from_problems(r, &probs, err);
    }
    for (size_t i = 0; i < s->n_channels; i++)
        free(channel_uris[i]);
    free(channel_uris);
    if (rc == 0)
        rc = plan_source(r, err);
    if (rc == 0 && s->copy_checkpoints_from_job) {
        const char *to = json_string_value(json_object_get(json_object_get(p->request, "checkpointConfig"), "s3Uri"));
        add_transfer(p, "checkpoints", s->copy_checkpoints_from_job, to, -1);
    }
    return rc;
}

/* ---- step 4: S3 ---------------------------------------------------------------------------- */

/* check: HEAD the bucket (status 200 when it exists, 404 when not); one in
 * another region (301) or not ours (403) is an error. create: create it in
 * region, then, unless we already owned it, block public access and put
 * Braket's bucket policy. */
static int byoc_job_check_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region, long *status,
                                 byoc_err *err)
{
    char where[64] = "";
    if (byoc_s3_head_bucket(c, t, bucket, status, where, err) != 0)
        return -1;
    if (*status == 301)
        return byoc_err_set(err, BYOC_E_FAILED, "s3", "the default bucket %s is in region %s, not %s", bucket,
                            where[0] ? where : "(another)", region);
    if (*status == 403)
        return byoc_err_set(err, BYOC_E_FAILED, "s3",
                            "the default bucket %s exists but is not accessible to these credentials "
                            "(another account may own it)",
                            bucket);
    return 0;
}

static int byoc_job_create_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region,
                                  byoc_err *err)
{
    byoc_task_status(t, "creating bucket %s", bucket);
    bool owned = false;
    if (byoc_s3_create_bucket(c, t, bucket, region, &owned, err) != 0)
        return -1;
    if (owned)
        return 0;
    char *policy = byoc_s3_braket_bucket_policy(bucket, byoc_aws_partition(region));
    int rc = byoc_s3_block_public_access(c, t, bucket, err);
    if (rc == 0)
        rc = byoc_s3_put_bucket_policy(c, t, bucket, policy, err);
    free(policy);
    if (rc == 0)
        byoc_task_log(t, "created bucket %s in %s", bucket, region);
    return rc;
}

int byoc_job_ensure_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region, byoc_err *err)
{
    long status = 0;
    if (byoc_job_check_bucket(c, t, bucket, region, &status, err) != 0)
        return -1;
    return status == 200 ? 0 : byoc_job_create_bucket(c, t, bucket, region, err);
}

static int check_bucket(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    return byoc_job_check_bucket(r->client, r->t, p->bucket, p->region, &p->bucket_status, err);
}

static int ensure_bucket(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    return p->bucket_status == 200 ? 0 : byoc_job_create_bucket(r->client, r->t, p->bucket, p->region, err);
}

static int copy_prefix(run_ctx *r, const char *from_uri, const char *to_uri, byoc_err *err)
{
    char *sb, *sk, *db, *dk;
    if (byoc_s3_parse_uri(from_uri, &sb, &sk) != 0)
        return byoc_err_set(err, BYOC_E_FAILED, "--copy-checkpoints-from-job",
                            "the earlier job's checkpoint location '%s' is not an S3 URI", from_uri);
    if (byoc_s3_parse_uri(to_uri, &db, &dk) != 0) {
        free(sb);
        free(sk);
        return byoc_err_set(err, BYOC_E_USAGE, "--checkpoint-s3", "'%s' is not an s3://bucket/key URI", to_uri);
    }
    byoc_s3_object *objs = NULL;
    size_t n = 0;
    int rc = byoc_s3_list_objects(r->client, r->t, sb, sk, 0, &objs, &n, err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        /* key.replace(source_prefix, destination_prefix, 1) */
        const char *k = objs[i].key;
        char *dst = strncmp(k, sk, strlen(sk)) == 0 ? byoc_xasprintf("%s%s", dk, k + strlen(sk)) : byoc_xstrdup(k);
        byoc_task_log(r->t, "copying s3://%s/%s -> s3://%s/%s", sb, k, db, dst);
        rc = byoc_s3_copy_object(r->client, r->t, sb, k, db, dst, err);
        free(dst);
    }
    byoc_s3_objects_free(objs, n);
    free(sb);
    free(sk);
    free(db);
    free(dk);
    return rc;
}

static int transfer(run_ctx *r, const byoc_job_transfer *x, byoc_err *err)
{
    if (strcmp(x->kind, "checkpoints") == 0) {
        json_t *job = NULL;
        byoc_task_status(r->t, "reading the checkpoints of %s", x->from);
        if (byoc_braket_get_job(r->client, r->t, x->from, false, &job, err) != 0)
            return -1;
        const char *src =
            json_string_value(json_object_get(json_object_get(job, "checkpointConfig"), "s3Uri"));
        int rc = src ? (strcmp(src, x->to) == 0 ? 0 : copy_prefix(r, src, x->to, err))
                     : byoc_err_set(err, BYOC_E_FAILED, "--copy-checkpoints-from-job", "job %s has no checkpoints",
                                    x->from);
        json_decref(job);
        return rc;
    }
    char *db, *dk;
    if (byoc_s3_parse_uri(x->to, &db, &dk) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "s3", "'%s' is not an s3://bucket/key URI", x->to);
    int rc;
    if (strcmp(x->kind, "copy") == 0) {
        char *sb, *sk;
        byoc_s3_parse_uri(x->from, &sb, &sk);
        byoc_task_log(r->t, "copying %s -> %s", x->from, x->to);
        rc = byoc_s3_copy_object(r->client, r->t, sb, sk, db, dk, err);
        free(sb);
        free(sk);
    } else {
        byoc_task_log(r->t, "uploading %s -> %s", strcmp(x->kind, "source") == 0 ? "source.tar.gz" : x->from, x->to);
        byoc_s3_upload_opts o = r->opts->upload ? *r->opts->upload : (byoc_s3_upload_opts){0};
        o.progress_key = x->to;
        rc = byoc_s3_upload_file(r->client, r->t, db, dk, x->from, &o, NULL, err);
    }
    free(db);
    free(dk);
    return rc;
}

/* ---- step 6: waiting --------------------------------------------------------------------------- */

static long poll_interval(long ms)
{
    if (ms > 0)
        return ms;
    const char *v = getenv("BYOC_JOB_POLL_MS");
    long n = v ? strtol(v, NULL, 10) : 0;
    return n > 0 ? n : 5000;
}

/* Follow a job until it ends (step 6): out->status, failure_reason, job. */
static int byoc_job_wait(byoc_aws_client *c, byoc_task *t, const char *job_arn, long poll_ms, byoc_job_result *out,
                         byoc_err *err)
{
    long ms = poll_interval(poll_ms);
    size_t events_seen = 0;
    char last_status[32] = "";
    for (;;) {
        json_t *job = NULL;
        if (byoc_braket_get_job(c, t, job_arn, true, &job, err) != 0)
            return -1;
        const char *status = json_string_value(json_object_get(job, "status"));
        json_t *shown = byoc_json_printable_copy(job); /* what the lines say: the service's words */
        json_t *events = json_object_get(shown, "events");
        for (size_t i = events_seen; i < json_array_size(events); i++) {
            json_t *e = json_array_get(events, i);
            const char *msg = byoc_json_text(json_object_get(e, "message"), NULL);
            byoc_task_log(t, "event %s %s%s%s", byoc_json_text(json_object_get(e, "timeOfEvent"), "?"),
                          byoc_json_text(json_object_get(e, "eventType"), "?"), msg ? ": " : "", msg ? msg : "");
        }
        events_seen = json_array_size(events) > events_seen ? json_array_size(events) : events_seen;
        if (status && strcmp(status, last_status) != 0) {
            const char *text = byoc_json_text(json_object_get(shown, "status"), "?");
            const char *pos = byoc_json_text(json_object_get(json_object_get(shown, "queueInfo"), "position"), NULL);
            if (pos && strcmp(pos, "None") != 0)
                byoc_task_status(t, "%s (queue position %s)", text, pos);
            else
                byoc_task_status(t, "%s", text);
            byoc_utf8_copy(last_status, sizeof last_status, status);
        }
        json_decref(shown);
        byoc_str_set(&out->status, status);
        byoc_str_set(&out->failure_reason, json_string_value(json_object_get(job, "failureReason")));
        json_decref(out->job);
        out->job = job;
        if (byoc_braket_status_terminal(status))
            break;
        if (byoc_retry_sleep(t, ms) != 0)
            return byoc_err_set(err, BYOC_E_CANCELLED, "run", "stopped waiting for %s", job_arn);
    }
    if (byoc_braket_status_failed(out->status))
        return byoc_err_set(err, BYOC_E_FAILED, "job", "%s ended %s%s%s", out->plan.job_name ? out->plan.job_name : job_arn,
                            out->status, out->failure_reason ? ": " : "",
                            out->failure_reason ? out->failure_reason : "");
    return 0;
}

/* ---- the whole run ------------------------------------------------------------------------------- */

static int resolve(run_ctx *r, byoc_err *err)
{
    byoc_job_plan *p = &r->out->plan;
    if (byoc_aws_clients_get(r->opts->clients, &r->opts->aws, &r->client, err) != 0)
        return -1;
    if (!byoc_aws_client_region(r->client))
        return byoc_err_set(err, BYOC_E_ENV, "region",
                            "no AWS region: pass --region or set AWS_REGION or the profile's region");
    byoc_task_status(r->t, "checking the device");
    if (resolve_device(r, err) != 0)
        return -1;
    byoc_str_set(&p->region, byoc_aws_client_region(r->client));
    const byoc_aws_endpoint *ep;
    if (byoc_aws_client_endpoint(r->client, BYOC_AWS_BRAKET, &ep, err) != 0)
        return -1;
    byoc_str_set(&p->endpoint, ep->url);
    byoc_task_status(r->t, "finding the account");
    byoc_sts_identity id;
    if (byoc_sts_get_caller_identity(r->client, r->t, &id, err) != 0)
        return -1;
    byoc_str_set(&p->account, id.account);
    if (resolve_role(r, err) != 0)
        return -1;
    if (r->spec->image_uri && r->opts->image_check) {
        byoc_task_status(r->t, "checking the image");
        char note[512] = "";
        byoc_aws_config_opts aws = r->opts->aws;
        aws.region = p->region;
        int ic = r->opts->image_check(r->opts->image_check_ud, r->t, &aws, p->account, r->spec->image_uri, note,
                                      sizeof note, err);
        if (ic < 0)
            return -1;
        if (ic > 0)
            add_warning(p, r->t, "the image could not be checked: %s", note);
    }
    return 0;
}

int byoc_job_submit(const byoc_jobspec *spec, const byoc_job_submit_opts *opts, byoc_task *t, byoc_job_result *out,
                    byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_job_validate_opts vo = {.role_env = opts->role_env};
    byoc_job_problems probs = {0};
    run_ctx r = {.spec = spec, .opts = opts, .t = t, .out = out};
    if (byoc_jobspec_validate(spec, &vo, &probs))
        return usage_from_problems(&r, &probs, err);
    byoc_job_plan *p = &out->plan;
    if (spec->launcher == BYOC_LAUNCHER_UNKNOWN)
        add_warning(p, t, "entry point %s: the image's launcher is not known to byoc (no byoc.json recipe), so "
                          "only the API's rules were checked; the launcher decides whether it starts",
                    spec->entry_point ? spec->entry_point : "(the source module's stem)");
    if (!spec->image_uri && spec->launcher != BYOC_LAUNCHER_BRAKET)
        /* the entry point was judged for the project's own image, which this job does not name (only
         * the TUI's form sends no image: the CLI requires one, the last push by default) */
        add_warning(p, t, "no image: the job runs on the Braket base image, whose launcher starts Python modules "
                          "only; push the project's image and give its URI");
    int rc = name_job(&r, err);
    if (rc == 0)
        rc = build_archive(&r, err);
    if (rc == 0)
        rc = resolve(&r, err);
    if (rc == 0)
        rc = derive(&r, err);
    if (rc == 0) {
        byoc_task_status(t, "checking bucket %s", p->bucket);
        rc = check_bucket(&r, err);
    }
    if (rc == 0 && opts->dry_run) {
        byoc_str_set(&out->status, "DRY_RUN");
        byoc_aws_client_free(r.client);
        return 0;
    }
    if (rc == 0)
        rc = ensure_bucket(&r, err);
    for (size_t i = 0; rc == 0 && i < p->n_transfers; i++)
        rc = transfer(&r, &p->transfers[i], err);
    if (rc == 0) {
        byoc_task_status(t, "creating job %s", p->job_name);
        rc = byoc_braket_create_job(r.client, t, p->request, &out->job_arn, err);
    }
    if (rc == 0) {
        byoc_task_log(t, "created %s", out->job_arn);
        json_t *job = NULL;
        if (byoc_braket_get_job(r.client, t, out->job_arn, false, &job, err) == 0) {
            byoc_str_set(&out->status, json_string_value(json_object_get(job, "status")));
            out->job = job;
        } else {
            /* The job exists; its status will show in the monitor. */
            char line[1024];
            byoc_log(BYOC_LOG_WARN, "GetJob after CreateJob: %s", byoc_err_format(err, line, sizeof line));
            byoc_err_clear(err);
            byoc_str_set(&out->status, "CREATED");
        }
        if (opts->wait)
            rc = byoc_job_wait(r.client, t, out->job_arn, opts->poll_ms, out, err);
    }
    byoc_aws_client_free(r.client);
    return rc;
}

/* ---- output -------------------------------------------------------------------------------------- */

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

json_t *byoc_job_result_json(const byoc_job_result *r)
{
    const byoc_job_plan *p = &r->plan;
    json_t *j = json_object();
    json_object_set_new(j, "job_arn", str_or_null(r->job_arn));
    json_object_set_new(j, "job_name", str_or_null(p->job_name));
    json_object_set_new(j, "status", str_or_null(r->status));
    if (r->failure_reason)
        json_object_set_new(j, "failure_reason", json_string(r->failure_reason));
    if (r->job_arn)
        return j;
    json_object_set_new(j, "region", str_or_null(p->region));
    json_object_set_new(j, "account", str_or_null(p->account));
    json_t *b = json_object();
    json_object_set_new(b, "name", str_or_null(p->bucket));
    json_object_set_new(b, "exists", json_boolean(p->bucket_status == 200));
    json_object_set_new(j, "bucket", b);
    json_object_set_new(j, "role_arn", str_or_null(p->role_arn));
    json_object_set_new(j, "role_origin", str_or_null(p->role_origin));
    json_t *cj = json_object();
    json_object_set_new(cj, "method", json_string("POST"));
    char *url = byoc_xasprintf("%s/job", p->endpoint ? p->endpoint : "");
    json_object_set_new(cj, "url", json_string(url));
    free(url);
    json_object_set(cj, "body", p->request ? p->request : json_null());
    json_object_set_new(j, "create_job", cj);
    json_t *xs = json_array();
    for (size_t i = 0; i < p->n_transfers; i++) {
        const byoc_job_transfer *x = &p->transfers[i];
        json_t *o = json_object();
        json_object_set_new(o, "kind", json_string(x->kind));
        json_object_set_new(o, "from", json_string(strcmp(x->kind, "source") == 0 ? "source.tar.gz" : x->from));
        json_object_set_new(o, "to", json_string(x->to));
        json_object_set_new(o, "size", x->size >= 0 ? json_integer(x->size) : json_null());
        json_array_append_new(xs, o);
    }
    json_object_set_new(j, "transfers", xs);
    json_t *ws = json_array();
    for (size_t i = 0; i < p->n_warnings; i++)
        json_array_append_new(ws, json_string(p->warnings[i]));
    json_object_set_new(j, "warnings", ws);
    return j;
}

/* ---- as a task ------------------------------------------------------------------------------------- */

void byoc_job_submit_args_free(void *args)
{
    byoc_job_submit_args *a = args;
    if (!a)
        return;
    byoc_jobspec_clear(&a->spec);
    free(a);
}

BYOC_TASK_FREE(job_result_free, byoc_job_result, byoc_job_result_clear)

int byoc_job_submit_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_job_submit_args *a = arg;
    byoc_job_result *r = byoc_xcalloc(1, sizeof *r);
    int rc = byoc_job_submit(&a->spec, &a->opts, t, r, err);
    /* A job that ran and ended FAILED or CANCELLED is a result, not a task failure. */
    if (rc != 0 && !(r->job_arn && err->kind == BYOC_E_FAILED && byoc_braket_status_failed(r->status))) {
        job_result_free(r);
        return -1;
    }
    byoc_err_clear(err);
    *result = r;
    *result_free = job_result_free;
    return 0;
}
