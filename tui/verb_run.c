/* byoc run: create a Braket Hybrid Job from the flags (backend/byoc/jobsubmit.h),
 * or with --local run it in its container on the local engine (backend/byoc/localrun.h).
 * Progress on stderr; the job ARN on stdout (or, with --json, one document).
 * On success the form is remembered in the project's byoc.json ("job") when
 * that file exists. Ctrl-C cancels (an upload in flight is aborted). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "aws/braket.h"
#include "byoc/jobspec.h"
#include "byoc/jobsubmit.h"
#include "byoc/localrun.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "core/log.h"
#include "verbs.h"

enum {
    OPT_IMAGE_URI = 256,
    OPT_SOURCE_MODULE,
    OPT_ENTRY_POINT,
    OPT_ROLE_ARN,
    OPT_DEVICE,
    OPT_INSTANCE_TYPE,
    OPT_INSTANCE_COUNT,
    OPT_VOLUME_GB,
    OPT_HYPERPARAMETER,
    OPT_INPUT_DATA,
    OPT_OUTPUT_S3,
    OPT_KMS_KEY,
    OPT_CHECKPOINT_S3,
    OPT_CHECKPOINT_LOCAL_PATH,
    OPT_CODE_LOCATION,
    OPT_MAX_RUNTIME,
    OPT_JOB_NAME,
    OPT_TAG,
    OPT_DISTRIBUTION,
    OPT_RESERVATION_ARN,
    OPT_COPY_CHECKPOINTS,
    OPT_WAIT,
    OPT_DRY_RUN,
    OPT_LOCAL,
    OPT_UPLOAD,
    OPT_WITH_CREDENTIALS,
    OPT_HOST_NETWORK,
};

static const struct option OPTIONS[] = {
    {"image-uri", required_argument, NULL, OPT_IMAGE_URI},
    {"source-module", required_argument, NULL, OPT_SOURCE_MODULE},
    {"entry-point", required_argument, NULL, OPT_ENTRY_POINT},
    {"role-arn", required_argument, NULL, OPT_ROLE_ARN},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"instance-type", required_argument, NULL, OPT_INSTANCE_TYPE},
    {"instance-count", required_argument, NULL, OPT_INSTANCE_COUNT},
    {"volume-gb", required_argument, NULL, OPT_VOLUME_GB},
    {"hyperparameter", required_argument, NULL, OPT_HYPERPARAMETER},
    {"input-data", required_argument, NULL, OPT_INPUT_DATA},
    {"output-s3", required_argument, NULL, OPT_OUTPUT_S3},
    {"kms-key-id", required_argument, NULL, OPT_KMS_KEY},
    {"checkpoint-s3", required_argument, NULL, OPT_CHECKPOINT_S3},
    {"checkpoint-local-path", required_argument, NULL, OPT_CHECKPOINT_LOCAL_PATH},
    {"code-location", required_argument, NULL, OPT_CODE_LOCATION},
    {"max-runtime", required_argument, NULL, OPT_MAX_RUNTIME},
    {"job-name", required_argument, NULL, OPT_JOB_NAME},
    {"tag", required_argument, NULL, OPT_TAG},
    {"distribution", required_argument, NULL, OPT_DISTRIBUTION},
    {"reservation-arn", required_argument, NULL, OPT_RESERVATION_ARN},
    {"copy-checkpoints-from-job", required_argument, NULL, OPT_COPY_CHECKPOINTS},
    {"wait", no_argument, NULL, OPT_WAIT},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"local", no_argument, NULL, OPT_LOCAL},
    {"upload", no_argument, NULL, OPT_UPLOAD},
    {"with-credentials", no_argument, NULL, OPT_WITH_CREDENTIALS},
    {"host-network", no_argument, NULL, OPT_HOST_NETWORK},
    {NULL, 0, NULL, 0},
};

/* The spec field a scalar flag fills. */
static char **scalar_field(byoc_jobspec *s, int opt)
{
    switch (opt) {
    case OPT_IMAGE_URI: return &s->image_uri;
    case OPT_SOURCE_MODULE: return &s->source_module;
    case OPT_ENTRY_POINT: return &s->entry_point;
    case OPT_ROLE_ARN: return &s->role_arn;
    case OPT_DEVICE: return &s->device;
    case OPT_INSTANCE_TYPE: return &s->instance_type;
    case OPT_INSTANCE_COUNT: return &s->instance_count;
    case OPT_VOLUME_GB: return &s->volume_gb;
    case OPT_OUTPUT_S3: return &s->output_s3;
    case OPT_KMS_KEY: return &s->kms_key_id;
    case OPT_CHECKPOINT_S3: return &s->checkpoint_s3;
    case OPT_CHECKPOINT_LOCAL_PATH: return &s->checkpoint_local_path;
    case OPT_CODE_LOCATION: return &s->code_location;
    case OPT_MAX_RUNTIME: return &s->max_runtime;
    case OPT_JOB_NAME: return &s->job_name;
    case OPT_DISTRIBUTION: return &s->distribution;
    case OPT_RESERVATION_ARN: return &s->reservation_arn;
    case OPT_COPY_CHECKPOINTS: return &s->copy_checkpoints_from_job;
    default: return NULL;
    }
}

static bool numeric_flag(int opt)
{
    return opt == OPT_INSTANCE_COUNT || opt == OPT_VOLUME_GB || opt == OPT_MAX_RUNTIME;
}

typedef struct {
    bool wait, dry_run;
    bool local, upload, with_credentials, host_network;
} run_flags;

/* Parse argv into the spec. Returns 0 or the usage exit code with err set. */
static int parse_args(int argc, char **argv, byoc_jobspec *s, run_flags *f, byoc_err *err)
{
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":", OPTIONS, &index)) != -1) {
        char **field = scalar_field(s, c);
        if (field) {
            if (*field) {
                char flag[64];
                snprintf(flag, sizeof flag, "--%s", index >= 0 ? OPTIONS[index].name : "?");
                return byoc_cli_usage(err, flag, "given twice");
            }
            if (numeric_flag(c)) {
                *field = byoc_xstrdup(optarg); /* "" stays, so that validation names it */
            } else {
                byoc_jobspec_set(field, optarg);
                if (!*field && (c == OPT_IMAGE_URI || c == OPT_SOURCE_MODULE))
                    return byoc_cli_usage(err, c == OPT_IMAGE_URI ? "--image-uri" : "--source-module",
                                          "needs a value");
            }
            continue;
        }
        char *k, *v;
        switch (c) {
        case OPT_HYPERPARAMETER:
        case OPT_TAG:
            if (byoc_jobspec_split_kv(optarg, &k, &v) != 0)
                return byoc_cli_usage(err, c == OPT_TAG ? "--tag" : "--hyperparameter", "'%s' is not KEY=VALUE",
                                      optarg);
            if (c == OPT_TAG)
                byoc_jobspec_add_tag(s, k, v);
            else
                byoc_jobspec_add_hyperparameter(s, k, v);
            free(k);
            free(v);
            break;
        case OPT_INPUT_DATA:
            byoc_jobspec_add_input_arg(s, optarg);
            break;
        case OPT_WAIT: f->wait = true; break;
        case OPT_DRY_RUN: f->dry_run = true; break;
        case OPT_LOCAL: f->local = true; break;
        case OPT_UPLOAD: f->upload = true; break;
        case OPT_WITH_CREDENTIALS: f->with_credentials = true; break;
        case OPT_HOST_NETWORK: f->host_network = true; break;
        case ':':
            return byoc_cli_usage(err, argv[optind - 1], "needs a value");
        default:
            return byoc_cli_usage(err, "run", "unknown flag '%s' (see byoc run --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return byoc_cli_usage(err, "run", "takes no positional arguments (got '%s')", argv[optind]);
    if (!f->local && (f->upload || f->with_credentials || f->host_network))
        return byoc_cli_usage(err,
                              f->upload ? "--upload" : f->with_credentials ? "--with-credentials" : "--host-network",
                              "only with --local");
    if (f->local && f->dry_run)
        return byoc_cli_usage(err, "--dry-run", "not with --local (a local run creates nothing on AWS)");
    if (f->local && !s->image_uri)
        return byoc_cli_usage(err, "--image-uri", "is required: the image on the local engine to run");
    if (!s->image_uri)
        return byoc_cli_usage(err, "--image-uri", "is required: the ECR image of the job (<account>.dkr.ecr.<region>."
                                                  "amazonaws.com/<repository>:<tag>)");
    if (!s->source_module)
        return byoc_cli_usage(err, "--source-module", "is required: the Python file or directory to run");
    return 0;
}

/* ---- the task, with Ctrl-C as cancel ---- */

static volatile sig_atomic_t interrupted;
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct {
    const byoc_jobspec *spec;
    const byoc_job_submit_opts *opts;
    byoc_job_result *result;
} run_arg;

static int run_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    run_arg *a = arg;
    *result = NULL;
    *result_free = NULL;
    return byoc_job_submit(a->spec, a->opts, t, a->result, err);
}

typedef struct {
    int last_pct_step;
    char last_key[512];
} printer;

static void print_event(printer *p, const byoc_event *ev)
{
    switch (ev->kind) {
    case BYOC_EV_LOG:
        fprintf(stderr, "%s\n", ev->text ? ev->text : "");
        break;
    case BYOC_EV_STATUS:
        fprintf(stderr, "... %s\n", ev->text ? ev->text : "");
        break;
    case BYOC_EV_PROGRESS:
        if (!ev->key || ev->total <= 0 || strncmp(ev->key, "s3://", 5) != 0)
            break;
        if (strcmp(p->last_key, ev->key) != 0) {
            snprintf(p->last_key, sizeof p->last_key, "%s", ev->key);
            p->last_pct_step = -1;
        }
        int step = (int)(4 * ev->current / ev->total);
        if (step > p->last_pct_step && ev->current > 0) {
            p->last_pct_step = step;
            fprintf(stderr, "    %s: %lld of %lld bytes\n", ev->key, (long long)ev->current, (long long)ev->total);
        }
        break;
    default:
        break;
    }
    fflush(stderr);
}

/* Run fn(arg) as a task, printing its events, with Ctrl-C as cancel. */
static int run_printing(byoc_task_fn fn, void *arg, byoc_err *err)
{
    byoc_evq *q = byoc_evq_new();
    struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    byoc_task *t = byoc_task_start(q, "run", fn, arg, free);
    printer p = {.last_pct_step = -1};
    bool done = false, cancel_sent = false;
    int rc = -1;
    while (!done) {
        if (interrupted && !cancel_sent) {
            cancel_sent = true;
            byoc_task_cancel(t);
        }
        byoc_evq_wait(q, 200);
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_DONE) {
                rc = 0;
                done = true;
            } else if (ev.kind == BYOC_EV_ERROR) {
                *err = ev.err;
                done = true;
            } else {
                print_event(&p, &ev);
            }
            byoc_event_release(&ev);
        }
    }
    byoc_task_release(t);
    byoc_evq_free(q);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

static int submit(const byoc_jobspec *spec, const byoc_job_submit_opts *opts, byoc_job_result *res, byoc_err *err)
{
    run_arg *a = byoc_xcalloc(1, sizeof *a);
    a->spec = spec;
    a->opts = opts;
    a->result = res;
    return run_printing(run_task, a, err);
}

/* ---- --local ---- */

typedef struct {
    const byoc_jobspec *spec;
    const byoc_local_run_opts *opts;
    byoc_local_run_result *result;
} local_arg;

static int local_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    local_arg *a = arg;
    *result = NULL;
    *result_free = NULL;
    return byoc_local_run(a->spec, a->opts, t, a->result, err);
}

static void remember(const byoc_globals *g, const byoc_jobspec *spec);

/* Local runs always wait: the job's output streams to stderr, the results land in ./<job-name>/. */
static int run_local(const byoc_globals *g, const byoc_jobspec *spec, const run_flags *f, byoc_err *err)
{
    byoc_local_run_opts opts = {
        .aws = {.profile = g->profile, .region = g->region},
        .upload = f->upload,
        .with_credentials = f->with_credentials,
        .host_network = f->host_network,
    };
    byoc_local_run_result res;
    memset(&res, 0, sizeof res);
    local_arg *a = byoc_xcalloc(1, sizeof *a);
    a->spec = spec;
    a->opts = &opts;
    a->result = &res;
    int rc = run_printing(local_task, a, err);
    for (size_t i = 1; i < res.problems.len; i++)
        byoc_log(BYOC_LOG_INFO, "also: %s: %s", res.problems.items[i].what, res.problems.items[i].message);
    if (rc == 0)
        remember(g, spec);
    if (res.status) {
        if (g->json)
            byoc_cli_print_json(byoc_local_run_result_json(&res));
        else
            printf("%s\n", res.job_arn);
        fflush(stdout);
        if (!g->json)
            fprintf(stderr, "job %s: %s%s%s; results in %s\n", res.job_name, res.status,
                    res.failure_reason ? ": " : "", res.failure_reason ? res.failure_reason : "", res.output_dir);
    }
    byoc_local_run_result_free(&res);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}

/* ---- output ---- */

static void print_plan(const byoc_job_result *r)
{
    const byoc_job_plan *p = &r->plan;
    printf("dry run: nothing was created or uploaded\n");
    printf("region %s, account %s, role %s (from %s)\n", p->region, p->account, p->role_arn, p->role_origin);
    printf("bucket %s: %s\n", p->bucket, p->bucket_status == 200 ? "exists" : "would be created");
    for (size_t i = 0; i < p->n_transfers; i++) {
        const byoc_job_transfer *x = &p->transfers[i];
        if (x->size >= 0)
            printf("%s %s -> %s (%lld bytes)\n", x->kind, strcmp(x->kind, "source") == 0 ? "source.tar.gz" : x->from,
                   x->to, (long long)x->size);
        else
            printf("%s %s -> %s\n", x->kind, x->from, x->to);
    }
    for (size_t i = 0; i < p->n_warnings; i++)
        printf("warning: %s\n", p->warnings[i]);
    printf("POST %s/job\n", p->endpoint);
    char *body = json_dumps(p->request, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("%s\n", body ? body : "{}");
    free(body);
}

static void remember(const byoc_globals *g, const byoc_jobspec *spec)
{
    byoc_project proj;
    bool found = false;
    byoc_err e;
    byoc_err_clear(&e);
    if (byoc_project_load(&proj, g->project_dir, &found, &e) != 0) {
        byoc_log(BYOC_LOG_WARN, "byoc.json not updated: %s", e.message);
        return;
    }
    if (!found) { /* only a project that has a byoc.json remembers the form */
        byoc_project_free(&proj);
        return;
    }
    byoc_jobspec_remember(spec, &proj);
    if (byoc_project_save(&proj, g->project_dir, &e) != 0)
        byoc_log(BYOC_LOG_WARN, "byoc.json not updated: %s", e.message);
    byoc_project_free(&proj);
}

int verb_run(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    byoc_jobspec spec;
    byoc_jobspec_init(&spec);
    run_flags f = {0};
    int rc = parse_args(argc, argv, &spec, &f, err);
    if (rc != 0 || f.local) {
        if (rc == 0)
            rc = run_local(g, &spec, &f, err);
        byoc_jobspec_free(&spec);
        return rc;
    }
    byoc_job_submit_opts opts = {
        .aws = {.profile = g->profile, .region = g->region},
        .dry_run = f.dry_run,
        .wait = f.wait,
        .image_check = byoc_job_ecr_image_check,
    };

    byoc_job_result res;
    memset(&res, 0, sizeof res);
    rc = submit(&spec, &opts, &res, err);
    for (size_t i = 1; i < res.problems.len; i++)
        byoc_log(BYOC_LOG_INFO, "also: %s: %s", res.problems.items[i].what, res.problems.items[i].message);
    bool job_exists = res.job_arn != NULL;
    if (rc == 0 && !f.dry_run)
        remember(g, &spec);
    if (rc == 0 || job_exists) {
        if (g->json)
            byoc_cli_print_json(byoc_job_result_json(&res));
        else if (f.dry_run)
            print_plan(&res);
        else
            printf("%s\n", res.job_arn);
        fflush(stdout);
        if (!g->json && job_exists)
            fprintf(stderr, "job %s: %s\n", res.plan.job_name, res.status ? res.status : "?");
    }
    byoc_job_result_free(&res);
    byoc_jobspec_free(&spec);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
