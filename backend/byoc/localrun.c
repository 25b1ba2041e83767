#include "byoc/localrun.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aws/client.h"
#include "aws/endpoints.h"
#include "aws/s3.h"
#include "aws/sts.h"
#include "byoc/jobspec_files.h"
#include "byoc/jobsubmit.h"
#include "byoc/localjobs.h"
#include "byoc/results.h"
#include "byoc/source_archive.h"
#include "core/buf.h"
#include "core/log.h"
#include "docker/containers.h"
#include "docker/images.h"

#define OPT_ML "/opt/ml"
#define HP_FILE "/opt/braket/input/config/hyperparameters.json"
#define INPUT_DIR "/opt/braket/input/data"
#define RESULTS_DIR "/opt/braket/model"
#define FAILURE_FILE "/opt/ml/output/failure"
#define FAILURE_REASON_MAX 1024   /* the API's failureReason limit */
#define LINE_MAX_BYTES 65536
#define CHUNK 65536

/* ---- the result --------------------------------------------------------------------------- */

void byoc_local_run_result_free(byoc_local_run_result *r)
{
    if (!r)
        return;
    free(r->job_name);
    free(r->job_arn);
    free(r->image);
    free(r->image_id);
    free(r->container_id);
    free(r->status);
    free(r->failure_reason);
    free(r->output_dir);
    free(r->log_path);
    free(r->source_uri);
    byoc_strv_free(&r->warnings);
    byoc_job_problems_free(&r->problems);
    memset(r, 0, sizeof *r);
}

json_t *byoc_local_run_result_json(const byoc_local_run_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "job_arn", r->job_arn ? json_string(r->job_arn) : json_null());
    json_object_set_new(o, "job_name", r->job_name ? json_string(r->job_name) : json_null());
    json_object_set_new(o, "status", r->status ? json_string(r->status) : json_null());
    json_object_set_new(o, "output_dir", r->output_dir ? json_string(r->output_dir) : json_null());
    json_object_set_new(o, "exit_code", r->has_exit_code ? json_integer(r->exit_code) : json_null());
    if (r->failure_reason)
        json_object_set_new(o, "failure_reason", json_string(r->failure_reason));
    json_object_set_new(o, "image", r->image ? json_string(r->image) : json_null());
    json_object_set_new(o, "log", r->log_path ? json_string(r->log_path) : json_null());
    json_object_set_new(o, "source_uri", r->source_uri ? json_string(r->source_uri) : json_null());
    json_t *w = json_array();
    for (size_t i = 0; i < r->warnings.n; i++)
        json_array_append_new(w, json_string(r->warnings.v[i]));
    json_object_set_new(o, "warnings", w);
    return o;
}

/* ---- the run's state ------------------------------------------------------------------------- */

typedef enum { ITEM_DIR, ITEM_MEM, ITEM_FILE } item_kind;

/* One entry of the tar put into the container at "/". */
typedef struct put_item {
    item_kind kind;
    char *path;          /* "opt/ml/input/config/hyperparameters.json" (dirs end in '/') */
    char *host;          /* ITEM_FILE: the file to read */
    char *data;          /* ITEM_MEM */
    size_t len;
} put_item;

typedef struct run {
    const byoc_jobspec *spec;
    const byoc_local_run_opts *opts;
    byoc_task *t;
    byoc_local_run_result *out;

    char timestamp[32];
    char created[32];
    char *device;
    char *entry_point;
    char *checkpoint_dir;        /* absolute, normalised */
    bool created_outdir;

    byoc_engine *engine;
    bool own_engine;
    char *program;               /* the image's SAGEMAKER_PROGRAM, or NULL */
    bool has_entrypoint;
    char *image_user;            /* Config.User */

    char *archive_path;          /* source.tar.gz built here */
    char *stage_dir;             /* downloads of s3:// channels */
    byoc_aws_client *aws;
    char *region;
    char *output_s3;             /* known output location (upload or --output-s3), else NULL */

    byoc_strv env;               /* "K=V" for the container; may hold secrets */
    put_item *items;
    size_t n_items;
    byoc_strv item_dirs;         /* dir entries already listed */

    unsigned uid, gid;
    byoc_local_job record;
} run;

static void warn(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_task_log(r->t, "warning: %s", byoc_buf_str(&b));
    byoc_strv_push(&r->out->warnings, byoc_buf_str(&b));
    byoc_buf_free(&b);
}

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = v ? byoc_xstrdup(v) : NULL;
}

static void rm_tree(const char *path);

/* ---- 1. what local mode uses ----------------------------------------------------------------- */

static bool used_locally(byoc_job_field f, bool upload)
{
    switch (f) {
    case BYOC_JF_SOURCE_MODULE:
    case BYOC_JF_ENTRY_POINT:
    case BYOC_JF_DEVICE:
    case BYOC_JF_HYPERPARAMETER:
    case BYOC_JF_INPUT_DATA:
    case BYOC_JF_OUTPUT_S3:
    case BYOC_JF_CHECKPOINT_LOCAL_PATH:
    case BYOC_JF_MAX_RUNTIME:
    case BYOC_JF_JOB_NAME:
        return true;
    case BYOC_JF_CODE_LOCATION:
        return upload;
    default:
        return false; /* the image URI is checked on the engine instead of against ECR's pattern */
    }
}

static void warn_ignored(run *r)
{
    const byoc_jobspec *s = r->spec;
    struct {
        bool given;
        byoc_job_field f;
    } ignored[] = {
        {s->role_arn != NULL, BYOC_JF_ROLE_ARN},
        {s->instance_type != NULL, BYOC_JF_INSTANCE_TYPE},
        {s->instance_count != NULL, BYOC_JF_INSTANCE_COUNT},
        {s->volume_gb != NULL, BYOC_JF_VOLUME_GB},
        {s->n_tags > 0, BYOC_JF_TAG},
        {s->distribution != NULL, BYOC_JF_DISTRIBUTION},
        {s->reservation_arn != NULL, BYOC_JF_RESERVATION_ARN},
        {s->copy_checkpoints_from_job != NULL, BYOC_JF_COPY_CHECKPOINTS},
        {s->kms_key_id != NULL, BYOC_JF_KMS_KEY},
        {s->checkpoint_s3 != NULL, BYOC_JF_CHECKPOINT_S3},
        {s->code_location != NULL && !r->opts->upload, BYOC_JF_CODE_LOCATION},
    };
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (ignored[i].given)
            warn(r, "%s is not used in local mode%s", byoc_job_field_flag(ignored[i].f),
                 ignored[i].f == BYOC_JF_CODE_LOCATION ? " without --upload" : "");
}

static int usage(run *r, byoc_job_problems *probs, byoc_err *err)
{
    byoc_job_problems_to_err(probs, err);
    r->out->problems = *probs;
    memset(probs, 0, sizeof *probs);
    return -1;
}

/* An absolute path without "." or ".." parts, not "/"; malloc'd normal form or NULL. */
static char *container_dir_path(const char *p)
{
    if (!p || p[0] != '/')
        return NULL;
    byoc_buf b = BYOC_BUF_INIT;
    const char *s = p;
    while (*s) {
        while (*s == '/')
            s++;
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0)
            break;
        if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) {
            byoc_buf_free(&b);
            return NULL;
        }
        byoc_buf_putc(&b, '/');
        byoc_buf_append(&b, s, n);
        s += n;
    }
    return b.len ? byoc_buf_steal(&b) : (byoc_buf_free(&b), NULL);
}

size_t byoc_local_run_validate(const byoc_jobspec *s, bool upload, byoc_job_problems *out)
{
    size_t before = out->len;
    byoc_job_problems all = {0};
    byoc_job_validate_opts vo = {.role_env = ""};
    byoc_jobspec_validate(s, &vo, &all);
    for (size_t i = 0; i < all.len; i++) {
        if (!used_locally(all.items[i].field, upload))
            continue;
        if (out->len == out->cap) {
            out->cap = out->cap ? out->cap * 2 : 8;
            out->items = byoc_xrealloc(out->items, out->cap * sizeof *out->items);
        }
        out->items[out->len++] = all.items[i];
    }
    byoc_job_problems_free(&all);
    if (!s->image_uri || !*s->image_uri)
        byoc_job_problem_add(out, BYOC_JF_IMAGE_URI, -1, NULL, "is required in local mode: the image on the engine");
    const char *src = s->source_module ? s->source_module : "";
    if (!upload && (strncasecmp(src, "s3://", 5) == 0 || strncmp(src, "https://", 8) == 0))
        byoc_job_problem_add(out, BYOC_JF_SOURCE_MODULE, -1, NULL,
                             "an S3 source module needs --upload in local mode (the container fetches it from S3): %s",
                             src);
    const char *ckpt = s->checkpoint_local_path ? s->checkpoint_local_path : BYOC_JOB_DEFAULT_CHECKPOINT_LOCAL_PATH;
    char *dir = container_dir_path(ckpt);
    if (!dir)
        byoc_job_problem_add(out, BYOC_JF_CHECKPOINT_LOCAL_PATH, -1, NULL,
                             "must be an absolute container path without '.' or '..' parts, not '/': '%s'", ckpt);
    else if (strcmp(dir, OPT_ML) == 0 || strncmp(dir, OPT_ML "/input", 13) == 0 ||
             strncmp(dir, OPT_ML "/model", 13) == 0)
        byoc_job_problem_add(out, BYOC_JF_CHECKPOINT_LOCAL_PATH, -1, NULL,
                             "must not be /opt/ml or lie in /opt/ml/input or /opt/ml/model: '%s'", ckpt);
    free(dir);
    return out->len - before;
}

static int check_spec(run *r, byoc_err *err)
{
    const byoc_jobspec *s = r->spec;
    byoc_job_problems kept = {0};
    if (byoc_local_run_validate(s, r->opts->upload, &kept))
        return usage(r, &kept, err);
    byoc_job_problems_free(&kept);
    r->checkpoint_dir = container_dir_path(s->checkpoint_local_path ? s->checkpoint_local_path
                                                                    : BYOC_JOB_DEFAULT_CHECKPOINT_LOCAL_PATH);

    warn_ignored(r);
    byoc_job_timestamp(r->timestamp, sizeof r->timestamp);
    byoc_local_job_now(r->created, sizeof r->created);
    r->out->job_name = s->job_name ? byoc_xstrdup(s->job_name) : byoc_job_default_name(s->image_uri, r->timestamp);
    byoc_job_problems probs = {0};
    if (!s->job_name && byoc_job_check_name(r->out->job_name, BYOC_JF_JOB_NAME, &probs)) {
        byoc_job_problems named = {0};
        byoc_job_problem_add(&named, BYOC_JF_JOB_NAME, -1, NULL,
                             "the default name made from the image is not valid (%s): give --job-name",
                             probs.items[0].message);
        byoc_job_problems_free(&probs);
        return usage(r, &named, err);
    }
    r->out->job_arn = byoc_local_job_arn(r->out->job_name);
    r->out->image = byoc_xstrdup(s->image_uri);
    r->device = byoc_xstrdup(s->device ? s->device : BYOC_JOB_DEFAULT_DEVICE);
    r->entry_point = byoc_job_entry_point(s);
    return 0;
}

/* <output_parent>/<job-name>: absent or empty, as the SDK wants ./<jobName> absent. */
static int prepare_output_dir(run *r, byoc_err *err)
{
    const char *parent = r->opts->output_parent ? r->opts->output_parent : ".";
    char *real = realpath(parent, NULL);
    if (!real)
        return byoc_err_set(err, BYOC_E_USAGE, "output directory", "%s: %s", parent, strerror(errno));
    r->out->output_dir = byoc_xasprintf("%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", r->out->job_name);
    r->out->log_path = byoc_xasprintf("%s/log.txt", r->out->output_dir);
    free(real);
    const char *dir = r->out->output_dir;
    if (mkdir(dir, 0777) == 0) {
        r->created_outdir = true;
        return 0;
    }
    if (errno != EEXIST)
        return byoc_err_set(err, BYOC_E_USAGE, "output directory", "cannot create %s: %s", dir, strerror(errno));
    struct stat st;
    DIR *d = lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? opendir(dir) : NULL;
    bool empty = d != NULL;
    for (struct dirent *e; d && empty && (e = readdir(d));)
        empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
    if (d)
        closedir(d);
    if (!empty)
        return byoc_err_set(err, BYOC_E_USAGE, "--job-name",
                            "%s already exists: the results of a local job go there; remove it or give another "
                            "--job-name",
                            dir);
    return 0;
}

/* ---- 2. the image ----------------------------------------------------------------------------- */

static int inspect_image(run *r, byoc_err *err)
{
    if (r->opts->engine) {
        r->engine = r->opts->engine;
    } else {
        if (byoc_engine_new(&r->engine, err) != 0)
            return -1;
        r->own_engine = true;
    }
    byoc_task_status(r->t, "checking image %s", r->spec->image_uri);
    json_t *doc = NULL;
    if (byoc_image_inspect(r->engine, r->t, r->spec->image_uri, &doc, err) != 0) {
        if (err->http_status == 404)
            byoc_err_set(err, BYOC_E_USAGE, "--image-uri",
                         "no image '%s' on the Docker engine at %s: build it (byoc build) or pull it first",
                         r->spec->image_uri, byoc_engine_host(r->engine));
        return -1;
    }
    const char *image_id = json_string_value(json_object_get(doc, "Id"));
    r->out->image_id = byoc_xstrdup(image_id ? image_id : r->spec->image_uri);
    json_t *cfg = json_object_get(doc, "Config");
    r->has_entrypoint = json_array_size(json_object_get(cfg, "Entrypoint")) > 0;
    const char *user = json_string_value(json_object_get(cfg, "User"));
    r->image_user = byoc_xstrdup(user ? user : "");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(cfg, "Env"), i, v) {
        const char *kv = json_string_value(v);
        if (kv && strncmp(kv, "SAGEMAKER_PROGRAM=", 18) == 0 && kv[18])
            set_str(&r->program, kv + 18);
    }
    json_decref(doc);
    if (!r->program && !r->has_entrypoint)
        return byoc_err_set(err, BYOC_E_USAGE, "--image-uri",
                            "image '%s' is not set up to run Braket jobs: it has neither SAGEMAKER_PROGRAM nor an "
                            "ENTRYPOINT (byoc init scaffolds one that has)",
                            r->spec->image_uri);
    if (r->program && strcmp(r->program, "braket_container.py") == 0 && !r->opts->upload)
        warn(r, "the image runs the stock Braket launcher (braket_container.py), which fetches the source only from "
                "S3: add --upload (and --with-credentials --host-network) for it");
    if (r->opts->upload && (!r->opts->with_credentials || !r->opts->host_network))
        warn(r, "with --upload the container fetches the source from S3: it needs --with-credentials and "
                "--host-network to reach it");
    return 0;
}

/* ---- 3. AWS: upload, S3 input channels, credentials ---------------------------------------------- */

static bool is_s3(const char *s) { return strncasecmp(s, "s3://", 5) == 0 || strncmp(s, "https://", 8) == 0; }

static bool needs_aws(const run *r)
{
    if (r->opts->upload || r->opts->with_credentials)
        return true;
    for (size_t i = 0; i < r->spec->n_channels; i++)
        if (is_s3(r->spec->channels[i].location))
            return true;
    return false;
}

/* Source to <code location>/source.tar.gz, as AwsQuantumJob.create puts it. */
static int upload_source(run *r, byoc_err *err)
{
    byoc_task_status(r->t, "finding the account");
    byoc_sts_identity id;
    if (byoc_sts_get_caller_identity(r->aws, r->t, &id, err) != 0)
        return -1;
    char *bucket = byoc_job_default_bucket(r->region, id.account);
    byoc_job_resolved res = {.region = r->region, .bucket = bucket, .timestamp = r->timestamp,
                             .job_name = r->out->job_name, .image_uri = r->spec->image_uri};
    char *code = byoc_job_code_location(r->spec, &res);
    char *to = byoc_xasprintf("%s/source.tar.gz", code);
    r->output_s3 = r->spec->output_s3 ? byoc_xstrdup(r->spec->output_s3) : byoc_job_default_s3(&res, "data");
    char *db = NULL, *dk = NULL;
    int rc = 0;
    if (byoc_s3_parse_uri(to, &db, &dk) != 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, r->spec->code_location ? "--code-location" : "--source-module",
                          "cannot upload to '%s': it must be s3://<bucket>/<key>", to);
    if (rc == 0 && !r->spec->code_location) {
        byoc_task_status(r->t, "checking bucket %s", bucket);
        rc = byoc_job_ensure_bucket(r->aws, r->t, bucket, r->region, err);
    }
    if (rc == 0 && r->archive_path) {
        byoc_task_log(r->t, "uploading source.tar.gz -> %s", to);
        byoc_s3_upload_opts o = {.progress_key = to};
        rc = byoc_s3_upload_file(r->aws, r->t, db, dk, r->archive_path, &o, NULL, err);
    } else if (rc == 0) {
        char *sb = NULL, *sk = NULL;
        if (byoc_s3_parse_uri(r->spec->source_module, &sb, &sk) != 0) {
            rc = byoc_err_set(err, BYOC_E_USAGE, "--source-module", "'%s' is not an s3://bucket/key URI",
                              r->spec->source_module);
        } else if (strcmp(r->spec->source_module, to) != 0) {
            byoc_task_log(r->t, "copying %s -> %s", r->spec->source_module, to);
            rc = byoc_s3_copy_object(r->aws, r->t, sb, sk, db, dk, err);
        }
        free(sb);
        free(sk);
    }
    if (rc == 0)
        r->out->source_uri = byoc_xstrdup(to);
    free(db);
    free(dk);
    free(to);
    free(code);
    free(bucket);
    return rc;
}

static int mkdir_parents(const char *file_path)
{
    char *dir = byoc_xstrdup(file_path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        rc = byoc_mkdir_p(dir, 0700);
    }
    free(dir);
    return rc;
}

static bool safe_relative(const char *rel)
{
    if (!*rel || rel[0] == '/')
        return false;
    for (const char *s = rel; *s;) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        s += n + (e ? 1 : 0);
    }
    return true;
}

static void add_item(run *r, item_kind kind, const char *path, const char *host, const char *data, size_t len);
static void add_dir_chain(run *r, const char *base, const char *rel_file);

/* An s3:// channel, downloaded as LocalQuantumJob does: a "directory" prefix
 * gives its contents, another prefix paths relative to its parent. */
static int download_channel(run *r, const byoc_job_channel *c, byoc_err *err)
{
    char *bucket = NULL, *prefix = NULL;
    if (byoc_s3_parse_uri(c->location, &bucket, &prefix) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "--input-data", "'%s' is not an s3://bucket/key URI", c->location);
    byoc_s3_object *objs = NULL;
    size_t n = 0;
    byoc_task_status(r->t, "listing %s", c->location);
    int rc = byoc_s3_list_objects(r->aws, r->t, bucket, prefix, 0, &objs, &n, err);
    size_t plen = strlen(prefix);
    bool is_dir = plen && prefix[plen - 1] == '/';
    if (!is_dir) {
        is_dir = true;
        for (size_t i = 0; i < n && is_dir; i++)
            is_dir = strncmp(objs[i].key, prefix, plen) == 0 && objs[i].key[plen] == '/';
    }
    const char *slash = strrchr(prefix, '/');
    size_t top = is_dir ? plen : (slash ? (size_t)(slash - prefix) : 0);
    size_t found = 0;
    char *base = byoc_xasprintf("opt/ml/input/data/%s", c->name);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *k = objs[i].key;
        size_t kl = strlen(k);
        if (kl && k[kl - 1] == '/')
            continue;
        const char *rel = k + top;
        while (*rel == '/')
            rel++;
        if (!safe_relative(rel)) {
            warn(r, "skipped s3://%s/%s: its key does not make a safe path in the container", bucket, k);
            continue;
        }
        char *local = byoc_xasprintf("%s/%s/%s", r->stage_dir, c->name, rel);
        if (mkdir_parents(local) != 0) {
            rc = byoc_err_set(err, BYOC_E_ENV, "input data", "cannot create a directory for %s: %s", local,
                              strerror(errno));
        } else {
            byoc_task_log(r->t, "downloading s3://%s/%s", bucket, k);
            rc = byoc_s3_get_object_to_file(r->aws, r->t, bucket, k, local, err);
        }
        if (rc == 0) {
            add_dir_chain(r, base, rel);
            char *path = byoc_xasprintf("%s/%s", base, rel);
            add_item(r, ITEM_FILE, path, local, NULL, 0);
            free(path);
            found++;
        }
        free(local);
    }
    if (rc == 0 && found == 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, "--input-data", "no data found for channel %s under %s", c->name,
                          c->location);
    free(base);
    byoc_s3_objects_free(objs, n);
    free(bucket);
    free(prefix);
    return rc;
}

static void add_env(run *r, const char *key, const char *value)
{
    byoc_strv_push_owned(&r->env, byoc_xasprintf("%s=%s", key, value));
}

static int pass_credentials(run *r, byoc_err *err)
{
    byoc_aws_creds creds = {0};
    byoc_aws_creds_info info;
    byoc_task_status(r->t, "reading AWS credentials");
    if (byoc_aws_client_credentials(r->aws, r->t, &creds, &info, err) != 0)
        return -1;
    add_env(r, "AWS_ACCESS_KEY_ID", creds.access_key_id);
    add_env(r, "AWS_SECRET_ACCESS_KEY", creds.secret_access_key);
    if (creds.session_token)
        add_env(r, "AWS_SESSION_TOKEN", creds.session_token);
    if (creds.expiration) {
        char when[40];
        struct tm tm;
        gmtime_r(&creds.expiration, &tm);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", &tm);
        warn(r, "the AWS credentials passed to the job are temporary and expire at %s; the job cannot renew them",
             when);
    }
    byoc_aws_creds_free(&creds);
    return 0;
}

static int aws_phase(run *r, byoc_err *err)
{
    bool needed = needs_aws(r);
    byoc_err quiet;
    if (byoc_aws_client_new(&r->opts->aws, &r->aws, needed ? err : &quiet) != 0)
        return needed ? -1 : 0; /* a plain local run needs no AWS configuration */
    const char *region = byoc_aws_client_region(r->aws);
    r->region = region ? byoc_xstrdup(region) : NULL;
    if (!needed)
        return 0;
    if (!r->region && (r->opts->upload || r->opts->with_credentials))
        return byoc_err_set(err, BYOC_E_ENV, "region",
                            "no AWS region: pass --region or set AWS_REGION or the profile's region");
    int rc = 0;
    if (r->opts->upload)
        rc = upload_source(r, err);
    for (size_t i = 0; rc == 0 && i < r->spec->n_channels; i++) {
        const byoc_job_channel *c = &r->spec->channels[i];
        if (!is_s3(c->location))
            continue;
        if (!r->stage_dir) {
            const char *tmp = getenv("TMPDIR");
            r->stage_dir = byoc_xasprintf("%s/byoc-local-XXXXXX", tmp && *tmp ? tmp : "/tmp");
            if (!mkdtemp(r->stage_dir)) {
                rc = byoc_err_set(err, BYOC_E_ENV, "input data", "cannot create a temporary directory: %s",
                                  strerror(errno));
                set_str(&r->stage_dir, NULL);
                break;
            }
        }
        rc = download_channel(r, c, err);
    }
    if (rc == 0 && r->opts->with_credentials)
        rc = pass_credentials(r, err);
    return rc;
}

/* ---- 4. the files put into the container --------------------------------------------------------- */

static void add_item(run *r, item_kind kind, const char *path, const char *host, const char *data, size_t len)
{
    if (kind == ITEM_DIR) {
        if (byoc_strv_contains(&r->item_dirs, path))
            return;
        byoc_strv_push(&r->item_dirs, path);
    }
    r->items = byoc_xrealloc(r->items, (r->n_items + 1) * sizeof *r->items);
    put_item *it = &r->items[r->n_items++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = byoc_xstrdup(path);
    it->host = host ? byoc_xstrdup(host) : NULL;
    if (data) {
        it->data = byoc_xstrndup(data, len);
        it->len = len;
    }
}

static void add_dir(run *r, const char *path)
{
    char *p = byoc_xasprintf("%s/", path);
    add_item(r, ITEM_DIR, p, NULL, NULL, 0);
    free(p);
}

/* base/ and every directory between it and rel_file. */
static void add_dir_chain(run *r, const char *base, const char *rel_file)
{
    add_dir(r, base);
    for (const char *s = strchr(rel_file, '/'); s; s = strchr(s + 1, '/')) {
        char *d = byoc_xasprintf("%s/%.*s", base, (int)(s - rel_file), rel_file);
        add_dir(r, d);
        free(d);
    }
}

static void add_json(run *r, const char *path, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    add_item(r, ITEM_MEM, path, NULL, text, strlen(text));
    free(text);
    json_decref(doc);
}

/* A local channel, laid out as the SDK's upload and download would lay it out. */
static int add_local_channel(run *r, const byoc_job_channel *c, byoc_err *err)
{
    char *name = byoc_job_path_name(c->location);
    byoc_job_local_file *files = NULL;
    size_t n = 0;
    char why[600];
    if (byoc_job_local_input_files(c->location, name, &files, &n, why, sizeof why) != 0) {
        free(name);
        return byoc_err_set(err, BYOC_E_USAGE, "--input-data", "%s", why);
    }
    size_t nl = strlen(name);
    bool is_dir = n > 0;
    for (size_t i = 0; i < n && is_dir; i++)
        is_dir = strncmp(files[i].s3_uri, name, nl) == 0 && files[i].s3_uri[nl] == '/';
    char *base = byoc_xasprintf("opt/ml/input/data/%s", c->name);
    add_dir(r, base);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rel = files[i].s3_uri + (is_dir ? nl + 1 : 0);
        if (!safe_relative(rel)) {
            warn(r, "skipped %s: it does not make a safe path in the container", files[i].path);
            continue;
        }
        add_dir_chain(r, base, rel);
        char *path = byoc_xasprintf("%s/%s", base, rel);
        add_item(r, ITEM_FILE, path, files[i].path, NULL, 0);
        free(path);
    }
    if (n == 0)
        rc = byoc_err_set(err, BYOC_E_USAGE, "--input-data", "no local file matches '%s'", c->location);
    free(base);
    byoc_job_local_files_free(files, n);
    free(name);
    return rc;
}

static json_t *resource_config(void)
{
    return json_pack("{s:s, s:s, s:s, s:[s], s:[{s:s, s:s, s:[s]}], s:s}", "current_host", "algo-1",
                     "current_instance_type", "local", "current_group_name", "homogeneousCluster", "hosts", "algo-1",
                     "instance_groups", "instance_group_name", "homogeneousCluster", "instance_type", "local", "hosts",
                     "algo-1", "network_interface_name", "eth0");
}

static int plan_files(run *r, byoc_err *err)
{
    const byoc_jobspec *s = r->spec;
    add_dir(r, "opt/ml/input");
    add_dir(r, "opt/ml/input/config");
    json_t *hps = json_object();
    for (size_t i = 0; i < s->n_hyperparameters; i++)
        json_object_set_new(hps, s->hyperparameters[i].key, json_string(s->hyperparameters[i].value));
    add_json(r, "opt/ml/input/config/hyperparameters.json", hps);
    add_json(r, "opt/ml/input/config/resourceconfig.json", resource_config());
    json_t *channels = json_object();
    for (size_t i = 0; i < s->n_channels; i++) {
        json_t *ch = json_pack("{s:s, s:s, s:s}", "TrainingInputMode", "File", "S3DistributionType", "FullyReplicated",
                               "RecordWrapperType", "None");
        if (s->channels[i].content_type)
            json_object_set_new(ch, "ContentType", json_string(s->channels[i].content_type));
        json_object_set_new(channels, s->channels[i].name, ch);
    }
    add_json(r, "opt/ml/input/config/inputdataconfig.json", channels);
    if (r->archive_path) {
        add_dir(r, BYOC_LOCAL_SOURCE_DIR + 1);
        add_item(r, ITEM_FILE, &BYOC_LOCAL_SOURCE_DIR "/source.tar.gz"[1], r->archive_path, NULL, 0);
    }
    if (s->n_channels)
        add_dir(r, "opt/ml/input/data");
    for (size_t i = 0; i < s->n_channels; i++)
        if (!is_s3(s->channels[i].location) && add_local_channel(r, &s->channels[i], err) != 0)
            return -1;
    add_dir(r, "opt/ml/model");
    add_dir(r, "opt/ml/output");
    add_dir(r, "opt/ml/output/data");
    add_dir(r, r->checkpoint_dir + 1);
    return 0;
}

/* The tar, made by libarchive as curl asks for the body: memory stays at one chunk. */
typedef struct tar_stream {
    const put_item *items;
    size_t n, next;
    struct archive *a;
    byoc_buf out;
    size_t out_pos;
    int fd;
    int64_t left;
    bool done, failed;
    unsigned uid, gid;
    time_t now;
    char error[512];
} tar_stream;

static la_ssize_t tar_write_cb(struct archive *a, void *ud, const void *buf, size_t n)
{
    (void)a;
    tar_stream *ts = ud;
    byoc_buf_append(&ts->out, buf, n);
    return (la_ssize_t)n;
}

static int tar_fail(tar_stream *ts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tar_fail(tar_stream *ts, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ts->error, sizeof ts->error, fmt, ap);
    va_end(ap);
    ts->failed = true;
    return -1;
}

static int tar_header(tar_stream *ts, const put_item *it)
{
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, it->path);
    archive_entry_set_uid(e, ts->uid);
    archive_entry_set_gid(e, ts->gid);
    archive_entry_set_mtime(e, ts->now, 0);
    int rc = 0;
    if (it->kind == ITEM_DIR) {
        archive_entry_set_filetype(e, AE_IFDIR);
        archive_entry_set_perm(e, 0755);
    } else if (it->kind == ITEM_MEM) {
        archive_entry_set_filetype(e, AE_IFREG);
        archive_entry_set_perm(e, 0644);
        archive_entry_set_size(e, (la_int64_t)it->len);
    } else {
        ts->fd = open(it->host, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (ts->fd < 0 || fstat(ts->fd, &st) != 0)
            rc = tar_fail(ts, "%s: %s", it->host, strerror(errno));
        else if (!S_ISREG(st.st_mode))
            rc = tar_fail(ts, "%s: not a regular file", it->host);
        if (rc == 0) {
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, (st.st_mode & 0111) ? 0755 : 0644);
            archive_entry_set_size(e, (la_int64_t)st.st_size);
            archive_entry_set_mtime(e, st.st_mtime, 0);
            ts->left = st.st_size;
        }
    }
    if (rc == 0 && archive_write_header(ts->a, e) != ARCHIVE_OK)
        rc = tar_fail(ts, "tar: %s", archive_error_string(ts->a));
    if (rc == 0 && it->kind == ITEM_MEM && it->len && archive_write_data(ts->a, it->data, it->len) < 0)
        rc = tar_fail(ts, "tar: %s", archive_error_string(ts->a));
    archive_entry_free(e);
    if (rc == 0 && it->kind == ITEM_FILE && ts->left == 0) {
        close(ts->fd);
        ts->fd = -1;
    }
    return rc;
}

static int tar_step(tar_stream *ts)
{
    if (ts->fd >= 0) {
        char buf[CHUNK];
        size_t want = ts->left < (int64_t)sizeof buf ? (size_t)ts->left : sizeof buf;
        ssize_t got = read(ts->fd, buf, want);
        if (got < 0 && errno == EINTR)
            return 0;
        if (got <= 0)
            return tar_fail(ts, "%s: %s", ts->items[ts->next - 1].host,
                            got < 0 ? strerror(errno) : "the file shrank while it was being sent");
        if (archive_write_data(ts->a, buf, (size_t)got) < 0)
            return tar_fail(ts, "tar: %s", archive_error_string(ts->a));
        ts->left -= got;
        if (ts->left == 0) {
            close(ts->fd);
            ts->fd = -1;
        }
        return 0;
    }
    if (ts->next < ts->n)
        return tar_header(ts, &ts->items[ts->next++]);
    if (archive_write_close(ts->a) != ARCHIVE_OK)
        return tar_fail(ts, "tar: %s", archive_error_string(ts->a));
    ts->done = true;
    return 0;
}

static size_t tar_read(char *dst, size_t n, void *ud)
{
    tar_stream *ts = ud;
    while (ts->out.len == ts->out_pos && !ts->done && !ts->failed)
        tar_step(ts);
    if (ts->failed)
        return (size_t)-1;
    size_t avail = ts->out.len - ts->out_pos;
    size_t k = avail < n ? avail : n;
    memcpy(dst, ts->out.data + ts->out_pos, k);
    ts->out_pos += k;
    if (ts->out_pos == ts->out.len) {
        byoc_buf_reset(&ts->out);
        ts->out_pos = 0;
    }
    return k;
}

static int put_files(run *r, const char *id, byoc_err *err)
{
    tar_stream ts = {.items = r->items, .n = r->n_items, .fd = -1, .uid = r->uid, .gid = r->gid,
                     .now = time(NULL)};
    ts.a = archive_write_new();
    archive_write_set_format_pax_restricted(ts.a);
    archive_write_set_bytes_in_last_block(ts.a, 1);
    int rc = 0;
    if (archive_write_open(ts.a, &ts, NULL, tar_write_cb, NULL) != ARCHIVE_OK)
        rc = byoc_err_set(err, BYOC_E_FAILED, "tar", "%s", archive_error_string(ts.a));
    if (rc == 0) {
        byoc_task_status(r->t, "putting the job's files into the container");
        rc = byoc_container_archive_put(r->engine, r->t, id, "/", tar_read, &ts, NULL, 0, err);
        if (rc != 0 && ts.failed && err->kind != BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_FAILED, "input", "%s", ts.error);
    }
    if (ts.fd >= 0)
        close(ts.fd);
    archive_write_free(ts.a);
    byoc_buf_free(&ts.out);
    return rc;
}

/* ---- reading small files out of the container ------------------------------------------------------ */

typedef struct {
    byoc_buf b;
    size_t max;
} capped;

static int capped_sink(const char *p, size_t n, void *ud)
{
    capped *c = ud;
    if (c->b.len < c->max)
        byoc_buf_append(&c->b, p, c->b.len + n <= c->max ? n : c->max - c->b.len);
    return 0;
}

/* The first regular file of the archive of path, up to max bytes of its tar.
 * 1 with *content (malloc'd, NUL-terminated), 0 when the path does not exist, -1 on errors. */
static int read_container_file(run *r, const char *id, const char *path, size_t max, char **content, byoc_err *err)
{
    *content = NULL;
    capped c = {.max = max};
    if (byoc_container_archive_get(r->engine, NULL, id, path, capped_sink, &c, err) != 0) {
        byoc_buf_free(&c.b);
        return err->http_status == 404 ? 0 : -1;
    }
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    struct archive_entry *e;
    int found = 0;
    if (c.b.len && archive_read_open_memory(a, c.b.data, c.b.len) == ARCHIVE_OK) {
        while (!found && archive_read_next_header(a, &e) == ARCHIVE_OK) {
            if (archive_entry_filetype(e) != AE_IFREG)
                continue;
            byoc_buf text = BYOC_BUF_INIT;
            char buf[8192];
            la_ssize_t got;
            while ((got = archive_read_data(a, buf, sizeof buf)) > 0)
                byoc_buf_append(&text, buf, (size_t)got); /* a cut-short archive still gives its beginning */
            byoc_buf_puts(&text, "");
            *content = byoc_buf_steal(&text);
            found = 1;
        }
    }
    archive_read_free(a);
    byoc_buf_free(&c.b);
    return found;
}

/* ---- 5. the container ---------------------------------------------------------------------------- */

static bool all_digits(const char *s) { return *s && strspn(s, "0123456789") == strlen(s); }

/* Find name (or a numeric id) in an /etc/passwd- or /etc/group-style text: field 3 and 4. */
static bool lookup_db(const char *text, const char *name, unsigned *id, unsigned *gid)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *l = byoc_xstrndup(line, len);
        char *fields[5] = {0};
        char *p = l;
        int nf = 0;
        for (char *tok; nf < 5 && (tok = strsep(&p, ":"));)
            fields[nf++] = tok;
        bool match = nf >= 3 && (strcmp(fields[0], name) == 0 || (all_digits(name) && strcmp(fields[2], name) == 0));
        if (match) {
            *id = (unsigned)strtoul(fields[2], NULL, 10);
            if (gid)
                *gid = nf >= 4 ? (unsigned)strtoul(fields[3], NULL, 10) : 0;
        }
        free(l);
        if (match)
            return true;
        line = end ? end + 1 : NULL;
    }
    return false;
}

/* The uid/gid the job runs as, so that what byoc puts in is the job's to write. */
static void resolve_user(run *r, const char *id)
{
    r->uid = r->gid = 0;
    if (!*r->image_user)
        return;
    char *user = byoc_xstrdup(r->image_user);
    char *group = strchr(user, ':');
    if (group)
        *group++ = '\0';
    bool resolved = true;
    if (all_digits(user) && (!group || all_digits(group))) {
        r->uid = (unsigned)strtoul(user, NULL, 10);
        r->gid = group ? (unsigned)strtoul(group, NULL, 10) : 0;
    }
    if (!all_digits(user) || !group) {
        byoc_err e;
        char *passwd = NULL;
        unsigned uid = 0, gid = 0;
        if (read_container_file(r, id, "/etc/passwd", 1 << 20, &passwd, &e) > 0 &&
            lookup_db(passwd, user, &uid, &gid)) {
            r->uid = uid;
            if (!group)
                r->gid = gid;
        } else if (!all_digits(user)) {
            resolved = false;
        }
        free(passwd);
    }
    if (group && !all_digits(group)) {
        byoc_err e;
        char *groups = NULL;
        unsigned gid = 0;
        if (read_container_file(r, id, "/etc/group", 1 << 20, &groups, &e) > 0 && lookup_db(groups, group, &gid, NULL))
            r->gid = gid;
        else
            resolved = false;
        free(groups);
    }
    if (!resolved)
        warn(r, "the image's user '%s' is not in its /etc/passwd or /etc/group: the job's directories are root's",
             r->image_user);
    free(user);
}

static void job_env(run *r)
{
    const byoc_jobspec *s = r->spec;
    add_env(r, "AMZN_BRAKET_SCRIPT_S3_URI", r->out->source_uri);
    add_env(r, "AMZN_BRAKET_SCRIPT_ENTRY_POINT", r->entry_point);
    add_env(r, "AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE", "GZIP");
    add_env(r, "AMZN_BRAKET_JOB_NAME", r->out->job_name);
    add_env(r, "AMZN_BRAKET_DEVICE_ARN", r->device);
    add_env(r, "AMZN_BRAKET_JOB_RESULTS_DIR", RESULTS_DIR);
    add_env(r, "AMZN_BRAKET_CHECKPOINT_DIR", r->checkpoint_dir);
    add_env(r, "AMZN_BRAKET_HP_FILE", HP_FILE);
    if (s->n_channels)
        add_env(r, "AMZN_BRAKET_INPUT_DIR", INPUT_DIR);
    const char *out = r->output_s3 ? r->output_s3 : s->output_s3;
    char *bucket = NULL, *key = NULL;
    if (out && byoc_s3_parse_uri(out, &bucket, &key) == 0) {
        size_t kl = strlen(key);
        while (kl && key[kl - 1] == '/')
            key[--kl] = '\0';
        add_env(r, "AMZN_BRAKET_OUT_S3_BUCKET", bucket);
        char *tasks = byoc_xasprintf("s3://%s/jobs/%s/tasks", bucket, r->out->job_name);
        add_env(r, "AMZN_BRAKET_TASK_RESULTS_S3_URI", tasks);
        free(tasks);
        char *results = byoc_xasprintf("%s/%s/output", key, r->out->job_name);
        add_env(r, "AMZN_BRAKET_JOB_RESULTS_S3_PATH", results);
        free(results);
    }
    free(bucket);
    free(key);
    if (r->region)
        add_env(r, "AWS_DEFAULT_REGION", r->region);
}

/* A create cut short by a cancel may still have made the container: find it by its run label. */
static void remove_orphans(run *r, const char *run_label)
{
    json_t *filters = json_pack("{s:[s]}", "label", run_label);
    json_t *list = NULL;
    byoc_err e;
    if (byoc_containers_list(r->engine, NULL, true, filters, &list, &e) == 0) {
        size_t i;
        json_t *c;
        json_array_foreach(list, i, c) {
            const char *id = json_string_value(json_object_get(c, "Id"));
            if (id)
                byoc_container_remove(r->engine, NULL, id, true, true, &e);
        }
    }
    json_decref(list);
    json_decref(filters);
}

static int create_container(run *r, byoc_err *err)
{
    job_env(r);
    static const char *const cmd[] = {"train"};
    char *label = byoc_xasprintf(BYOC_LOCAL_LABEL "=%s", r->out->job_name);
    char *run_label = byoc_xasprintf(BYOC_LOCAL_LABEL ".run=%ld-%s", (long)getpid(), r->timestamp);
    const char *labels[] = {label, run_label};
    byoc_container_spec cs = {
        .image = r->out->image_id,
        .cmd = cmd,
        .n_cmd = 1,
        .env = (const char *const *)r->env.v,
        .n_env = r->env.n,
        .labels = labels,
        .n_labels = 2,
        .network_mode = r->opts->host_network ? "host" : "none",
    };
    byoc_task_status(r->t, "creating the container (network %s)", cs.network_mode);
    int rc = byoc_container_create(r->engine, r->t, &cs, &r->out->container_id, err);
    if (rc != 0 && err->kind == BYOC_E_CANCELLED)
        remove_orphans(r, run_label);
    free(run_label);
    free(label);
    return rc;
}

/* The job's output: LOG events line by line, and log.txt as it comes. */
typedef struct log_sink {
    byoc_task *t;
    FILE *file;
    byoc_buf partial[3];
} log_sink;

static void emit_line(log_sink *ls, byoc_buf *b)
{
    byoc_buf_puts(b, "");
    byoc_redact_inplace(b->data);
    byoc_task_log(ls->t, "%s", b->data);
    if (ls->file) {
        fputs(b->data, ls->file);
        fputc('\n', ls->file);
        fflush(ls->file);
    }
    byoc_buf_reset(b);
}

static int on_output(int stream, const char *p, size_t n, void *ud)
{
    log_sink *ls = ud;
    byoc_buf *b = &ls->partial[stream == BYOC_STREAM_STDERR ? 2 : 1];
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl - p) : n;
        byoc_buf_append(b, p, take);
        if (nl || b->len >= LINE_MAX_BYTES)
            emit_line(ls, b);
        take += nl ? 1 : 0;
        p += take;
        n -= take;
    }
    return 0;
}

/* Kills the container when the max runtime has passed. */
typedef struct watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, fired;
    long seconds;
    byoc_engine *engine;
    const char *id;
} watchdog;

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += w->seconds;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) == ETIMEDOUT && !w->stop) {
            w->fired = true;
            pthread_mutex_unlock(&w->mu);
            byoc_err e;
            byoc_container_kill(w->engine, NULL, w->id, "KILL", &e);
            return NULL;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

typedef struct run_outcome {
    bool cancelled, timed_out, start_failed;
    char *start_error;
} run_outcome;

static long max_runtime(const run *r)
{
    long v = r->spec->max_runtime ? strtol(r->spec->max_runtime, NULL, 10) : 0;
    return v > 0 ? v : BYOC_JOB_DEFAULT_MAX_RUNTIME;
}

static void stop_container(run *r, const char *id, run_outcome *o)
{
    byoc_err e;
    byoc_task_status(r->t, "stopping the container");
    byoc_container_kill(r->engine, NULL, id, "KILL", &e);
    int64_t code;
    if (byoc_container_wait(r->engine, NULL, id, "not-running", &code, &e) == 0) {
        r->out->has_exit_code = true;
        r->out->exit_code = (int)code;
    }
    o->cancelled = true;
}

static void record(run *r);

static void run_container(run *r, run_outcome *o)
{
    const char *id = r->out->container_id;
    byoc_err e;
    byoc_err_clear(&e);
    if (byoc_container_start(r->engine, r->t, id, &e) != 0) {
        if (e.kind == BYOC_E_CANCELLED || byoc_task_cancelled(r->t)) {
            stop_container(r, id, o);
            return;
        }
        o->start_failed = true;
        o->start_error = byoc_xstrdup(e.message);
        return;
    }
    char started[32];
    byoc_local_job_now(started, sizeof started);
    set_str(&r->record.started, started);
    record(r);
    byoc_task_status(r->t, "RUNNING");

    watchdog w = {.seconds = max_runtime(r), .engine = r->engine, .id = id};
    pthread_mutex_init(&w.mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w.cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t th;
    bool dog = pthread_create(&th, NULL, watchdog_main, &w) == 0;

    log_sink ls = {.t = r->t};
    int fd = open(r->out->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
    ls.file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!ls.file) {
        if (fd >= 0)
            close(fd);
        warn(r, "cannot write %s: %s", r->out->log_path, strerror(errno));
    }
    byoc_logs_opts lo = {.follow = true, .tty = 0};
    if (byoc_container_logs(r->engine, r->t, id, &lo, on_output, &ls, &e) != 0 && e.kind != BYOC_E_CANCELLED &&
        !byoc_task_cancelled(r->t))
        warn(r, "the job's output stopped: %s", e.message);
    for (int s = 1; s <= 2; s++) {
        if (ls.partial[s].len)
            emit_line(&ls, &ls.partial[s]);
        byoc_buf_free(&ls.partial[s]);
    }
    int64_t code = 0;
    int wrc = byoc_task_cancelled(r->t) ? -1 : byoc_container_wait(r->engine, r->t, id, "not-running", &code, &e);
    if (wrc == 0) {
        r->out->has_exit_code = true;
        r->out->exit_code = (int)code;
    } else if (byoc_task_cancelled(r->t) || e.kind == BYOC_E_CANCELLED) {
        stop_container(r, id, o);
    } else {
        warn(r, "waiting for the container: %s", e.message);
        stop_container(r, id, o);
        o->cancelled = false;
    }
    if (dog) {
        pthread_mutex_lock(&w.mu);
        w.stop = true;
        pthread_cond_signal(&w.cv);
        pthread_mutex_unlock(&w.mu);
        pthread_join(th, NULL);
    }
    o->timed_out = w.fired && !o->cancelled;
    pthread_cond_destroy(&w.cv);
    pthread_mutex_destroy(&w.mu);
    if (o->timed_out)
        byoc_task_log(r->t, "the job ran longer than its max runtime (%ld s): stopped", w.seconds);
    if (ls.file) {
        if (o->cancelled)
            fputs("byoc: the job was cancelled; the container was stopped\n", ls.file);
        fclose(ls.file);
    }
}

/* ---- 6. copying the results out -------------------------------------------------------------------- */

typedef struct spool {
    int fd;
    int error;
} spool;

static int spool_sink(const char *p, size_t n, void *ud)
{
    spool *s = ud;
    while (n) {
        ssize_t w = write(s->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            s->error = errno;
            return 1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

static void rm_tree(const char *path)
{
    if (path)
        nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The only directory inside dir (the basename the archive used), malloc'd path or NULL. */
static char *single_subdir(const char *dir)
{
    DIR *d = opendir(dir);
    char *found = NULL;
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        free(found);
        found = byoc_xasprintf("%s/%s", dir, e->d_name);
    }
    if (d)
        closedir(d);
    struct stat st;
    if (count != 1 || lstat(found, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(found);
        return NULL;
    }
    return found;
}

/* Copy the container directory ctr_path into the output directory: its
 * contents at the top (as_name NULL), or as <output>/<as_name>. */
static void copy_out(run *r, const char *ctr_path, const char *as_name)
{
    const char *outdir = r->out->output_dir;
    char *tmp = byoc_xasprintf("%s/.byoc-copy-XXXXXX", outdir);
    if (!mkdtemp(tmp)) {
        warn(r, "cannot copy %s: %s: %s", ctr_path, outdir, strerror(errno));
        free(tmp);
        return;
    }
    char *tarball = byoc_xasprintf("%s/archive.tar", tmp);
    spool sp = {.fd = open(tarball, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)};
    byoc_err e;
    byoc_err_clear(&e);
    int rc = sp.fd < 0 ? byoc_err_set(&e, BYOC_E_FAILED, tarball, "%s", strerror(errno))
                       : byoc_container_archive_get(r->engine, NULL, r->out->container_id, ctr_path, spool_sink,
                                                    &sp, &e);
    if (sp.fd >= 0)
        close(sp.fd);
    char *unpacked_dir = byoc_xasprintf("%s/unpacked", tmp);
    byoc_unpacked u = {0};
    if (rc != 0) {
        if (e.http_status != 404)
            warn(r, "cannot copy %s out of the container: %s", ctr_path, sp.error ? strerror(sp.error) : e.message);
    } else if (byoc_results_unpack(tarball, unpacked_dir, NULL, NULL, &u, &e) != 0) {
        warn(r, "%s was not copied: %s", ctr_path, e.message);
    } else {
        char *top = single_subdir(unpacked_dir);
        if (!top) {
            warn(r, "%s was not copied: the engine's archive has an unexpected layout", ctr_path);
        } else if (as_name) {
            char *dest = byoc_xasprintf("%s/%s", outdir, as_name);
            if (rename(top, dest) != 0)
                warn(r, "cannot move %s into %s: %s", ctr_path, dest, strerror(errno));
            free(dest);
        } else {
            DIR *d = opendir(top);
            for (struct dirent *de; d && (de = readdir(d));) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                    continue;
                if (strcmp(de->d_name, "log.txt") == 0 || strcmp(de->d_name, "checkpoints") == 0) {
                    warn(r, "%s/%s not copied: %s/%s is the job's %s", ctr_path, de->d_name, outdir, de->d_name,
                         de->d_name[0] == 'l' ? "log" : "checkpoint directory");
                    continue;
                }
                char *from = byoc_xasprintf("%s/%s", top, de->d_name);
                char *to = byoc_xasprintf("%s/%s", outdir, de->d_name);
                if (rename(from, to) != 0)
                    warn(r, "cannot move %s into %s: %s", from, outdir, strerror(errno));
                free(from);
                free(to);
            }
            if (d)
                closedir(d);
        }
        free(top);
        byoc_unpacked_free(&u);
    }
    rm_tree(tmp);
    free(unpacked_dir);
    free(tarball);
    free(tmp);
}

/* The failure file's text: trimmed, cut to the API's 1024 characters at a UTF-8 boundary. */
static char *failure_text(run *r)
{
    char *text = NULL;
    byoc_err e;
    if (read_container_file(r, r->out->container_id, FAILURE_FILE, 256 * 1024, &text, &e) <= 0)
        return NULL;
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n > FAILURE_REASON_MAX) {
        n = FAILURE_REASON_MAX;
        while (n && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    text[n] = '\0';
    byoc_redact_inplace(text);
    if (!*text) {
        free(text);
        return NULL;
    }
    return text;
}

/* ---- 7/8. status and record ---------------------------------------------------------------------------- */

static void record(run *r)
{
    byoc_local_job *j = &r->record;
    set_str(&j->name, r->out->job_name);
    if (!j->created)
        set_str(&j->created, r->created);
    set_str(&j->image, r->out->image);
    set_str(&j->image_id, r->out->image_id);
    set_str(&j->device, r->device);
    set_str(&j->status, r->out->status ? r->out->status : "RUNNING");
    set_str(&j->output_dir, r->out->output_dir);
    set_str(&j->container_id, r->out->container_id);
    set_str(&j->failure_reason, r->out->failure_reason);
    j->has_exit_code = r->out->has_exit_code;
    j->exit_code = r->out->exit_code;
    j->pid = r->out->status ? 0 : (long)getpid();
    if (r->out->status) {
        char now[32];
        byoc_local_job_now(now, sizeof now);
        set_str(&j->ended, now);
    }
    byoc_err e;
    if (byoc_localjobs_put(r->opts->jobs_file, j, &e) != 0)
        warn(r, "the local job record was not updated: %s", e.message);
}

static void decide(run *r, const run_outcome *o, const char *put_error)
{
    char *failure = o->cancelled ? NULL : failure_text(r);
    const char *status = "COMPLETED";
    char *reason = NULL;
    if (o->cancelled) {
        status = "CANCELLED";
    } else if (put_error) {
        status = "FAILED";
        reason = byoc_xasprintf("ClientError: the job's files could not be put into the container: %s", put_error);
    } else if (o->start_failed) {
        status = "FAILED";
        reason = byoc_xasprintf("ClientError: the container did not start: %s%s", o->start_error,
                                strstr(o->start_error, "train") ? " (the image needs a `train` executable on its PATH, "
                                                                  "as sagemaker-training installs)"
                                                                : "");
    } else if (o->timed_out) {
        status = "FAILED";
        reason = byoc_xasprintf("MaxRuntimeExceeded: the job ran longer than its max runtime of %ld seconds",
                                max_runtime(r));
    } else if (failure) {
        status = "FAILED";
        reason = failure;
        failure = NULL;
    } else if (r->out->has_exit_code && r->out->exit_code != 0) {
        status = "FAILED";
        reason = byoc_xasprintf("AlgorithmError: the container exited with code %d (it wrote no %s)",
                                r->out->exit_code, FAILURE_FILE);
    }
    free(failure);
    set_str(&r->out->status, status);
    free(r->out->failure_reason);
    r->out->failure_reason = reason;
}

/* ---- the whole run ----------------------------------------------------------------------------------- */

static int after_create(run *r, byoc_err *err)
{
    const char *id = r->out->container_id;
    record(r);
    run_outcome o = {0};
    resolve_user(r, id);
    byoc_err pe;
    byoc_err_clear(&pe);
    char *put_error = NULL;
    if (put_files(r, id, &pe) != 0) {
        if (pe.kind == BYOC_E_CANCELLED || byoc_task_cancelled(r->t))
            o.cancelled = true;
        else
            put_error = byoc_xstrdup(pe.message);
    }
    if (!o.cancelled && !put_error)
        run_container(r, &o);
    byoc_task_status(r->t, "copying the results into %s", r->out->output_dir);
    copy_out(r, OPT_ML "/model", NULL);
    copy_out(r, r->checkpoint_dir, "checkpoints");
    decide(r, &o, put_error);
    byoc_err e;
    if (byoc_container_remove(r->engine, NULL, id, true, true, &e) != 0)
        warn(r, "the container %.12s was not removed: %s", id, e.message);
    record(r);
    byoc_task_status(r->t, "%s", r->out->status);
    free(put_error);
    free(o.start_error);
    if (strcmp(r->out->status, "COMPLETED") == 0)
        return 0;
    if (strcmp(r->out->status, "CANCELLED") == 0)
        return byoc_err_set(err, BYOC_E_CANCELLED, "job",
                            "%s was cancelled: the container was stopped and removed; what it had written is in %s",
                            r->out->job_name, r->out->output_dir);
    return byoc_err_set(err, BYOC_E_FAILED, "job", "%s ended FAILED: %s", r->out->job_name, r->out->failure_reason);
}

static void run_free(run *r)
{
    free(r->device);
    free(r->entry_point);
    free(r->checkpoint_dir);
    free(r->program);
    free(r->image_user);
    byoc_source_archive_remove(r->archive_path);
    rm_tree(r->stage_dir);
    free(r->stage_dir);
    byoc_aws_client_free(r->aws);
    free(r->region);
    free(r->output_s3);
    for (size_t i = 0; i < r->env.n; i++)
        byoc_wipe(r->env.v[i], strlen(r->env.v[i])); /* credentials may be among them */
    byoc_strv_free(&r->env);
    for (size_t i = 0; i < r->n_items; i++) {
        free(r->items[i].path);
        free(r->items[i].host);
        free(r->items[i].data);
    }
    free(r->items);
    byoc_strv_free(&r->item_dirs);
    byoc_local_job_free(&r->record);
    if (r->own_engine)
        byoc_engine_free(r->engine);
}

int byoc_local_run(const byoc_jobspec *spec, const byoc_local_run_opts *opts, byoc_task *t,
                   byoc_local_run_result *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    run r = {.spec = spec, .opts = opts, .t = t, .out = out};
    int rc = check_spec(&r, err);
    if (rc == 0)
        rc = prepare_output_dir(&r, err);
    if (rc == 0)
        rc = inspect_image(&r, err);
    if (rc == 0 && !is_s3(spec->source_module)) {
        byoc_task_status(t, "archiving the source module");
        byoc_archive_stats st;
        rc = byoc_source_archive_build(spec->source_module, t, &r.archive_path, &st, err);
        if (rc == 0)
            byoc_task_log(t, "source.tar.gz: %llu files, %llu bytes -> %llu bytes", (unsigned long long)st.files,
                          (unsigned long long)st.bytes_in, (unsigned long long)st.bytes_out);
    }
    if (rc == 0)
        rc = aws_phase(&r, err);
    if (rc == 0 && !out->source_uri)
        out->source_uri = byoc_xstrdup("file://" BYOC_LOCAL_SOURCE_DIR "/source.tar.gz");
    if (rc == 0)
        rc = plan_files(&r, err);
    if (rc == 0)
        rc = create_container(&r, err);
    if (rc == 0)
        rc = after_create(&r, err);
    else if (r.created_outdir && out->output_dir)
        rmdir(out->output_dir); /* nothing ran: leave no empty directory behind */
    run_free(&r);
    return rc;
}

/* ---- as a task ------------------------------------------------------------------------------------------- */

void byoc_local_run_args_free(void *args)
{
    byoc_local_run_args *a = args;
    if (!a)
        return;
    byoc_jobspec_free(&a->spec);
    free(a);
}

void byoc_local_run_result_free_ptr(void *result)
{
    byoc_local_run_result_free(result);
    free(result);
}

int byoc_local_run_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_local_run_args *a = arg;
    byoc_local_run_result *res = byoc_xcalloc(1, sizeof *res);
    int rc = byoc_local_run(&a->spec, &a->opts, t, res, err);
    if (rc != 0 && !res->status) {
        byoc_local_run_result_free_ptr(res);
        return -1;
    }
    byoc_err_clear(err);
    *result = res;
    *result_free = byoc_local_run_result_free_ptr;
    return 0;
}
