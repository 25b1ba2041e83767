#include "byoc/localrun.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/contract.h"
#include "byoc/localrun_aws.h"
#include "byoc/localrun_container.h"
#include "byoc/localrun_copy.h"
#include "byoc/localrun_files.h"
#include "byoc/localrun_run.h"
#include "byoc/source_archive.h"
#include "core/fs.h"
#include "docker/containers.h"
#include "docker/images.h"

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
        if (ignored[i].given && !(r->opts->origin && r->opts->origin[ignored[i].f] == BYOC_JO_PROJECT))
            lr_warn(r, "%s is not used in local mode%s", byoc_job_field_flag(ignored[i].f),
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
            byoc_buf_clear(&b);
            return NULL;
        }
        byoc_buf_putc(&b, '/');
        byoc_buf_append(&b, s, n);
        s += n;
    }
    return b.len ? byoc_buf_steal(&b) : (byoc_buf_clear(&b), NULL);
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
    byoc_job_problems_clear(&all);
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
    else if (strcmp(dir, BYOC_CONTRACT_OPT_ML) == 0 || strncmp(dir, BYOC_CONTRACT_OPT_ML "/input", 13) == 0 ||
             strncmp(dir, BYOC_CONTRACT_MODEL_DIR, 13) == 0)
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
    byoc_job_problems_clear(&kept);
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
        byoc_job_problems_clear(&probs);
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
            byoc_str_set(&r->program, kv + 18);
    }
    json_decref(doc);
    if (!r->program && !r->has_entrypoint)
        return byoc_err_set(err, BYOC_E_USAGE, "--image-uri",
                            "image '%s' is not set up to run Braket jobs: it has neither SAGEMAKER_PROGRAM nor an "
                            "ENTRYPOINT (byoc init scaffolds one that has)",
                            r->spec->image_uri);
    if (r->program && strcmp(r->program, "braket_container.py") == 0 && !r->opts->upload)
        lr_warn(r, "the image runs the stock Braket launcher (braket_container.py), which fetches the source only from "
                "S3: add --upload (and --with-credentials --host-network) for it");
    if (r->opts->upload && (!r->opts->with_credentials || !r->opts->host_network))
        lr_warn(r, "with --upload the container fetches the source from S3: it needs --with-credentials and "
                "--host-network to reach it");
    return 0;
}

/* ---- 7. status ---------------------------------------------------------------------------------- */

static void decide(run *r, const run_outcome *o, const char *put_error)
{
    char *failure = o->cancelled ? NULL : lr_failure_text(r);
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
                                lr_max_runtime(r));
    } else if (failure) {
        status = "FAILED";
        reason = failure;
        failure = NULL;
    } else if (r->out->has_exit_code && r->out->exit_code != 0) {
        status = "FAILED";
        reason = byoc_xasprintf("AlgorithmError: the container exited with code %d (it wrote no %s)",
                                r->out->exit_code, BYOC_CONTRACT_FAILURE_FILE);
    }
    free(failure);
    byoc_str_set(&r->out->status, status);
    free(r->out->failure_reason);
    r->out->failure_reason = reason;
}

/* ---- the whole run ----------------------------------------------------------------------------------- */

static int after_create(run *r, byoc_err *err)
{
    const char *id = r->out->container_id;
    lr_record(r);
    run_outcome o = {0};
    lr_resolve_user(r, id);
    byoc_err pe;
    byoc_err_clear(&pe);
    char *put_error = NULL;
    if (lr_put_files(r, id, &pe) != 0) {
        if (pe.kind == BYOC_E_CANCELLED || byoc_task_cancelled(r->t))
            o.cancelled = true;
        else
            put_error = byoc_xstrdup(pe.message);
    }
    if (!o.cancelled && !put_error)
        lr_run_container(r, &o);
    byoc_task_status(r->t, "copying the results into %s", r->out->output_dir);
    lr_copy_out(r, BYOC_CONTRACT_MODEL_DIR, NULL);
    lr_copy_out(r, r->checkpoint_dir, "checkpoints");
    decide(r, &o, put_error);
    byoc_err e;
    if (byoc_container_remove(r->engine, NULL, id, true, true, &e) != 0)
        lr_warn(r, "the container %.12s was not removed: %s", id, e.message);
    lr_record(r);
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

static void run_clear(run *r)
{
    free(r->device);
    free(r->entry_point);
    free(r->checkpoint_dir);
    free(r->program);
    free(r->image_user);
    byoc_source_archive_remove(r->archive_path);
    if (r->stage_dir)
        byoc_remove_tree(r->stage_dir);
    free(r->stage_dir);
    byoc_aws_client_free(r->aws);
    free(r->region);
    free(r->output_s3);
    for (size_t i = 0; i < r->env.n; i++)
        byoc_wipe(r->env.v[i], strlen(r->env.v[i])); /* credentials may be among them */
    byoc_strv_clear(&r->env);
    byoc_put_list_clear(&r->files);
    byoc_local_job_clear(&r->record);
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
    if (rc == 0 && !lr_is_s3(spec->source_module)) {
        byoc_task_status(t, "archiving the source module");
        byoc_archive_stats st;
        rc = byoc_source_archive_build(spec->source_module, t, &r.archive_path, &st, err);
        if (rc == 0)
            byoc_task_log(t, "source.tar.gz: %llu files, %llu bytes -> %llu bytes", (unsigned long long)st.files,
                          (unsigned long long)st.bytes_in, (unsigned long long)st.bytes_out);
    }
    if (rc == 0)
        rc = lr_aws_phase(&r, err);
    if (rc == 0 && !out->source_uri)
        out->source_uri = byoc_xstrdup("file://" BYOC_CONTRACT_SOURCE_DIR "/source.tar.gz");
    if (rc == 0)
        rc = lr_plan_files(&r, err);
    if (rc == 0)
        rc = lr_create_container(&r, err);
    if (rc == 0)
        rc = after_create(&r, err);
    else if (r.created_outdir && out->output_dir)
        rmdir(out->output_dir); /* nothing ran: leave no empty directory behind */
    run_clear(&r);
    return rc;
}

/* ---- as a task ------------------------------------------------------------------------------------------- */

void byoc_local_run_args_free(void *args)
{
    byoc_local_run_args *a = args;
    if (!a)
        return;
    byoc_jobspec_clear(&a->spec);
    free(a);
}

BYOC_TASK_FREE(local_run_result_free, byoc_local_run_result, byoc_local_run_result_clear)

int byoc_local_run_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_local_run_args *a = arg;
    byoc_local_run_opts o = a->opts;
    byoc_engine *shared = NULL;
    if (!o.engine && a->engines) {
        if (byoc_engines_get(a->engines, &shared, err) != 0)
            return -1;
        o.engine = shared;
    }
    byoc_local_run_result *res = byoc_xcalloc(1, sizeof *res);
    int rc = byoc_local_run(&a->spec, &o, t, res, err);
    byoc_engine_free(shared);
    if (rc != 0 && !res->status) {
        local_run_result_free(res);
        return -1;
    }
    byoc_err_clear(err);
    *result = res;
    *result_free = local_run_result_free;
    return 0;
}
