/* preflight: the shared setup (spec, credentials, region, device,
 * instance type) and the concurrent run of the check groups. */
#include "byoc/preflight.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"
#include "aws/iam.h"
#include "aws/sts_client.h"
#include "byoc/imagecheck.h"
#include "byoc/preflight_ctx.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"
#include "net/http.h"

BYOC_TASK_FREE(report_free, byoc_preflight_report, byoc_preflight_report_clear)

/* ---- the image URI ---- */

/* The image URI's parts as imagecheck.h reads an ECR image URI (no tag: latest). */
static bool parse_ecr_uri(pf_ctx *c, const char *uri)
{
    byoc_ecr_image_uri u;
    if (!byoc_ecr_image_uri_parse(uri, &u, c->image_not_ecr, sizeof c->image_not_ecr))
        return false;
    c->image_account = u.account;
    c->image_region = u.region;
    c->repository = u.repository;
    c->tag = u.tag;
    c->digest = u.digest;
    c->image_host = byoc_xstrndup(uri, strcspn(uri, "/"));
    return true;
}

/* ---- setup checks ---- */

static void check_spec(pf_ctx *c)
{
    byoc_job_problems probs = {0};
    byoc_job_validate_opts vo = {.role_env = c->opts->role_env};
    size_t n = byoc_jobspec_validate(c->spec, &vo, &probs);
    if (n == 0) {
        pf_add(c, PF_ORD_SETUP + 1, "spec", BYOC_PF_PASS, NULL, "the job spec passes local validation");
    } else {
        const byoc_job_problem *p = &probs.items[0];
        char fix[256];
        snprintf(fix, sizeof fix, "correct %s", p->what);
        pf_add(c, PF_ORD_SETUP + 1, "spec", BYOC_PF_FAIL, fix, "%s: %s%s", p->what, p->message,
               n > 1 ? " (and more problems: see byoc run --dry-run)" : "");
    }
    byoc_job_problems_clear(&probs);
}

static long max_runtime(const byoc_jobspec *s)
{
    long v = s->max_runtime ? strtol(s->max_runtime, NULL, 10) : 0;
    return v > 0 ? v : BYOC_JOB_DEFAULT_MAX_RUNTIME;
}

static void check_credentials(pf_ctx *c)
{
    byoc_err err;
    byoc_err_clear(&err);
    byoc_sts_identity id;
    if (byoc_sts_get_caller_identity(c->client, c->t, &id, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_SETUP + 2, "credentials", BYOC_PF_FAIL,
               "set valid AWS credentials (AWS_PROFILE / aws configure), then check with byoc doctor",
               "STS GetCallerIdentity failed: %s", line);
        c->account = byoc_xstrdup("");
        return;
    }
    c->account = byoc_xstrdup(id.account);
    c->caller_arn = byoc_xstrdup(id.arn);
    byoc_aws_creds creds;
    memset(&creds, 0, sizeof creds);
    byoc_aws_creds_info info;
    memset(&info, 0, sizeof info);
    time_t exp = 0;
    if (byoc_aws_client_credentials(c->client, c->t, &creds, &info, &err) == 0) {
        exp = info.expiration;
        byoc_aws_creds_clear(&creds);
    }
    long need = max_runtime(c->spec);
    time_t now = time(NULL);
    if (exp != 0 && exp < now + need) {
        pf_add(c, PF_ORD_SETUP + 2, "credentials", BYOC_PF_WARN,
               "use credentials that last the run (longer role session, or re-login before monitoring)",
               "%s (account %s): temporary credentials expire in %ld min, before the max runtime of %ld s ends; "
               "monitoring and results will need fresh ones",
               id.arn, id.account, (long)(exp - now) / 60, need);
    } else {
        pf_add(c, PF_ORD_SETUP + 2, "credentials", BYOC_PF_PASS, NULL, "%s (account %s)%s", id.arn, id.account,
               exp ? ", temporary credentials outlast the max runtime" : "");
    }
}

static void check_region(pf_ctx *c, const char *configured, const char *device_region)
{
    const char *fix_fmt = "push the image to ECR in %s (byoc --region %s push ...) or run the job in %s";
    char fix[300];
    if (!c->image_is_ecr) {
        pf_add(c, PF_ORD_SETUP + 3, "region", BYOC_PF_FAIL,
               "push the image to ECR and pass its URI <account>.dkr.ecr.<region>.amazonaws.com/<repo>:<tag>",
               "'%s' is not an ECR image URI (%s): Braket jobs pull only from ECR",
               c->spec->image_uri ? c->spec->image_uri : "",
               c->image_not_ecr);
        return;
    }
    if (strcmp(c->image_region, c->job_region) != 0) {
        snprintf(fix, sizeof fix, fix_fmt, c->job_region, c->job_region, c->image_region);
        pf_add(c, PF_ORD_SETUP + 3, "region", BYOC_PF_FAIL, fix,
               "the image is in ECR %s but the job runs in %s%s", c->image_region, c->job_region,
               *device_region ? " (the device's region)" : "");
        return;
    }
    if (*device_region && configured && strcmp(configured, device_region) != 0) {
        pf_add(c, PF_ORD_SETUP + 3, "region", BYOC_PF_WARN, "pass --region matching the device",
               "the device is in %s: the job runs there, not in the configured %s", device_region, configured);
        return;
    }
    pf_add(c, PF_ORD_SETUP + 3, "region", BYOC_PF_PASS, NULL, "image, job%s all in %s",
           *device_region ? " and device" : "", c->job_region);
}

static void check_device(pf_ctx *c)
{
    const char *dev = c->spec->device ? c->spec->device : BYOC_JOB_DEFAULT_DEVICE;
    if (strncmp(dev, "local:", 6) == 0) {
        pf_add(c, PF_ORD_SETUP + 4, "device", BYOC_PF_PASS, NULL, "%s: a simulator inside the job, no device call",
               dev);
        return;
    }
    json_t *d = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_braket_get_device(c->client, c->t, dev, &d, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        bool missing = err.http_status == 400 || err.http_status == 404;
        pf_add(c, PF_ORD_SETUP + 4, "device", missing ? BYOC_PF_FAIL : BYOC_PF_WARN,
               missing ? "pick a device ARN that exists in the job's region (see the Braket console's devices)"
                       : "check Braket access (braket:GetDevice) and the endpoint",
               "GetDevice %s: %s", dev, line);
        return;
    }
    const char *st = json_string_value(json_object_get(d, "deviceStatus"));
    const char *name = json_string_value(json_object_get(d, "deviceName"));
    if (!st)
        st = "?";
    if (strcmp(st, "ONLINE") == 0)
        pf_add(c, PF_ORD_SETUP + 4, "device", BYOC_PF_PASS, NULL, "%s (%s) is ONLINE", dev, name ? name : "");
    else if (strcmp(st, "OFFLINE") == 0)
        pf_add(c, PF_ORD_SETUP + 4, "device", BYOC_PF_WARN,
               "wait for the device's availability window, or pick an ONLINE device",
               "%s is OFFLINE: the job's tasks will wait in the device queue", dev);
    else
        pf_add(c, PF_ORD_SETUP + 4, "device", BYOC_PF_FAIL, "pick an ONLINE device (--device ARN)",
               "%s is %s: CreateJob would be refused", dev, st);
    json_decref(d);
}

static void check_instance_type(pf_ctx *c)
{
    const char *it = c->spec->instance_type ? c->spec->instance_type : BYOC_JOB_DEFAULT_INSTANCE_TYPE;
    bool known = false;
    for (size_t i = 0; byoc_job_instance_types[i]; i++)
        known = known || strcmp(byoc_job_instance_types[i], it) == 0;
    long count = c->spec->instance_count ? strtol(c->spec->instance_count, NULL, 10) : 1;
    if (!known)
        pf_add(c, PF_ORD_SETUP + 5, "instance-type", BYOC_PF_FAIL, "use an offered type such as ml.m5.large",
               "%s is not an instance type Braket jobs offer", it);
    else if (count > BYOC_JOB_MAX_INSTANCES)
        pf_add(c, PF_ORD_SETUP + 5, "instance-type", BYOC_PF_FAIL, "use at most 5 instances (--instance-count)",
               "%ld instances of %s: the developer guide allows at most %d", count, it, BYOC_JOB_MAX_INSTANCES);
    else
        pf_add(c, PF_ORD_SETUP + 5, "instance-type", BYOC_PF_PASS, NULL, "%ld x %s (x86_64)", count, it);
}

static void resolve_role(pf_ctx *c)
{
    const char *env = c->opts->role_env ? c->opts->role_env : getenv(BYOC_JOB_ROLE_ENV);
    if (c->spec->role_arn) {
        c->role_arn = byoc_xstrdup(c->spec->role_arn);
    } else if (env && *env) {
        c->role_arn = byoc_xstrdup(env);
    } else {
        byoc_err err;
        byoc_err_clear(&err);
        char *arn = NULL;
        if (byoc_iam_find_role(c->client, c->t, BYOC_JOB_DEFAULT_ROLE_PATH, BYOC_JOB_DEFAULT_ROLE_PREFIX, &arn, &err) ==
                0 &&
            arn)
            c->role_arn = arn;
        else
            free(arn);
    }
}

/* The region the user configured (--region, environment, profile), before a device moves the job; malloc'd or NULL. */
static char *configured_region(byoc_aws_clients *clients, const byoc_aws_config_opts *ao)
{
    if (ao->region)
        return byoc_xstrdup(ao->region);
    byoc_aws_client *plain = NULL;
    byoc_err e;
    byoc_err_clear(&e);
    char *r = NULL;
    if (byoc_aws_clients_get(clients, ao, &plain, &e) == 0 && byoc_aws_client_region(plain))
        r = byoc_xstrdup(byoc_aws_client_region(plain));
    byoc_aws_client_free(plain);
    return r;
}

/* ---- running ---- */

typedef void (*group_fn)(pf_ctx *c);
typedef struct {
    group_fn fn;
    pf_ctx *c;
} group_run;

static void *group_main(void *arg)
{
    group_run *g = arg;
    g->fn(g->c);
    byoc_http_thread_done();
    return NULL;
}

static int by_order(const void *a, const void *b)
{
    const byoc_pf_check *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

static void ctx_clear(pf_ctx *c)
{
    byoc_aws_client_free(c->client);
    free(c->job_region);
    free(c->account);
    free(c->caller_arn);
    free(c->role_arn);
    free(c->image_account);
    free(c->image_region);
    free(c->image_host);
    free(c->repository);
    free(c->tag);
    free(c->digest);
    pthread_mutex_destroy(&c->lock);
}

/* The smoke run (after the other checks: it is slow and uses the engine), the report in order. */
static int finish(pf_ctx *c, byoc_err *err)
{
    if (c->opts->smoke && !byoc_task_cancelled(c->t))
        pf_group_smoke(c);
    qsort(c->report->items, c->report->n, sizeof *c->report->items, by_order);
    bool cancelled = byoc_task_cancelled(c->t);
    ctx_clear(c);
    return cancelled ? byoc_err_set(err, BYOC_E_CANCELLED, "preflight", "cancelled") : 0;
}

int byoc_preflight(const byoc_jobspec *spec, const byoc_preflight_opts *opts, byoc_task *t,
                   byoc_preflight_report *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_preflight_opts none = {0};
    pf_ctx c = {.spec = spec, .opts = opts ? opts : &none, .t = t, .report = out};
    pthread_mutex_init(&c.lock, NULL);
    if (c.opts->local) {
        pf_group_container(&c);
        return finish(&c, err);
    }
    check_spec(&c);
    c.image_is_ecr = parse_ecr_uri(&c, spec->image_uri);

    const char *dev = spec->device ? spec->device : BYOC_JOB_DEFAULT_DEVICE;
    char *device_region = byoc_job_device_region(dev);
    byoc_aws_config_opts ao = c.opts->aws;
    if (*device_region)
        ao.region = device_region;
    byoc_err e;
    byoc_err_clear(&e);
    if (byoc_aws_clients_get(c.opts->clients, &ao, &c.client, &e) != 0 || !byoc_aws_client_region(c.client)) {
        char line[900];
        if (!c.client)
            byoc_err_format(&e, line, sizeof line);
        else
            snprintf(line, sizeof line, "no region is configured");
        pf_add(&c, PF_ORD_SETUP + 2, "credentials", BYOC_PF_FAIL, "set AWS_REGION or --region and a usable profile",
               "AWS setup: %s", line);
        free(device_region);
        pf_group_container(&c); /* the image and the code need no AWS */
        return finish(&c, err);
    }
    char *configured = configured_region(c.opts->clients, &c.opts->aws);
    c.job_region = byoc_xstrdup(byoc_aws_client_region(c.client));

    check_credentials(&c);
    check_region(&c, configured, device_region);
    free(configured);
    free(device_region);
    resolve_role(&c);

    group_fn groups[] = {check_device, check_instance_type, pf_group_image, pf_group_container, pf_group_permissions};
    size_t n_groups = sizeof groups / sizeof groups[0];
    group_run runs[sizeof groups / sizeof groups[0]];
    pthread_t threads[sizeof groups / sizeof groups[0]];
    bool started[sizeof groups / sizeof groups[0]];
    for (size_t i = 0; i < n_groups; i++) {
        runs[i] = (group_run){groups[i], &c};
        started[i] = pthread_create(&threads[i], NULL, group_main, &runs[i]) == 0;
        if (!started[i])
            groups[i](&c);
    }
    for (size_t i = 0; i < n_groups; i++)
        if (started[i])
            pthread_join(threads[i], NULL);
    return finish(&c, err);
}

int byoc_preflight_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_preflight_args *a = arg;
    byoc_preflight_opts o = a->opts;
    byoc_engine *shared = NULL;
    byoc_err ignored;
    /* A failure is left to the checks, which make their own engine then and report why it failed. */
    if (!o.engine && a->engines && byoc_engines_get(a->engines, &shared, &ignored) == 0)
        o.engine = shared;
    byoc_preflight_report *r = byoc_xcalloc(1, sizeof *r);
    int rc = byoc_preflight(&a->spec, &o, t, r, err);
    byoc_engine_free(shared);
    if (rc != 0) {
        report_free(r);
        return -1;
    }
    *result = r;
    *result_free = report_free;
    return 0;
}

void byoc_preflight_args_free(void *args)
{
    byoc_preflight_args *a = args;
    if (!a)
        return;
    byoc_jobspec_clear(&a->spec);
    free(a);
}
