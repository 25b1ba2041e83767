/* byoc run: create a Braket Hybrid Job from the flags (backend/byoc/jobsubmit.h),
 * or with --local run it in its container on the local engine (backend/byoc/localrun.h).
 * Progress on stderr; the job ARN on stdout (or, with --json, one document).
 * On success the form is remembered in the project's byoc.json ("job") when
 * that file exists. Ctrl-C cancels (an upload in flight is aborted).
 * Unless --no-preflight or --dry-run, the preflight checks (backend/byoc/preflight.h)
 * run first, once the spec is valid: a failing one stops the run before anything is sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "aws/braket.h"
#include "byoc/jobspec.h"
#include "byoc/imagecheck.h"
#include "byoc/jobsubmit.h"
#include "byoc/localrun.h"
#include "byoc/preflight.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/jsonprint.h"
#include "core/log.h"
#include "core/utf8.h"
#include "cli_task.h"
#include "runflags.h"
#include "verbs.h"

/* ---- the task, with Ctrl-C as cancel ---- */

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
    bool terminal;        /* stderr is a terminal */
} printer;

static void print_event(void *ud, const byoc_event *ev)
{
    printer *p = ud;
    switch (ev->kind) {
    case BYOC_EV_LOG:
        /* The job's own output (verbatim): exact into a file or pipe; on a
         * terminal its escape sequences could retitle, clear or write the
         * clipboard. byoc's own lines come printable (core/task.h). */
        if (p->terminal && ev->verbatim && ev->text) {
            char *line = byoc_printable_dup(ev->text);
            fprintf(stderr, "%s\n", line);
            free(line);
        } else {
            fprintf(stderr, "%s\n", ev->text ? ev->text : "");
        }
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
    printer p = {.last_pct_step = -1, .terminal = isatty(STDERR_FILENO) == 1};
    return byoc_cli_run_task("run", fn, arg, free, print_event, &p, NULL, err);
}

static int submit(const byoc_jobspec *spec, const byoc_job_submit_opts *opts, byoc_job_result *res, byoc_err *err)
{
    run_arg *a = byoc_xcalloc(1, sizeof *a);
    a->spec = spec;
    a->opts = opts;
    a->result = res;
    return run_printing(run_task, a, err);
}

/* ---- preflight ---- */

typedef struct {
    const byoc_jobspec *spec;
    const byoc_preflight_opts *opts;
    byoc_preflight_report *report;
} preflight_arg;

static int preflight_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    preflight_arg *a = arg;
    *result = NULL;
    *result_free = NULL;
    return byoc_preflight(a->spec, a->opts, t, a->report, err);
}

/* Whether the spec passes the checks the run makes before it sends anything.
 * Preflight runs only then, so that a bad field is still refused as a usage
 * error that names it (exit 2). */
static bool spec_valid(const byoc_jobspec *spec, const byoc_runflags *f)
{
    byoc_job_problems probs = {0};
    size_t n = f->local ? byoc_local_run_validate(spec, f->upload, &probs) : byoc_jobspec_validate(spec, NULL, &probs);
    byoc_job_problems_clear(&probs);
    return n == 0;
}

/* Run the preflight checks, their warnings and failures on stderr. Returns 0
 * when none failed, else the exit code with err set. */
static int preflight_gate(const byoc_globals *g, const byoc_jobspec *spec, const byoc_runflags *f, byoc_err *err)
{
    byoc_preflight_opts opts = {
        .aws = {.profile = g->profile, .region = g->region},
        .local = f->local,
        .project_dir = g->project_dir,
    };
    byoc_preflight_report report;
    memset(&report, 0, sizeof report);
    preflight_arg *a = byoc_xcalloc(1, sizeof *a);
    a->spec = spec;
    a->opts = &opts;
    a->report = &report;
    fprintf(stderr, "... preflight (skip with --no-preflight)\n");
    if (run_printing(preflight_task, a, err) != 0) {
        byoc_preflight_report_clear(&report);
        return byoc_err_exit_code(err->kind);
    }
    size_t failed = 0;
    for (size_t i = 0; i < report.n; i++) {
        const byoc_pf_check *k = &report.items[i];
        if (k->status == BYOC_PF_PASS)
            continue;
        failed += k->status == BYOC_PF_FAIL;
        fprintf(stderr, "preflight: %s %s: %s%s%s\n", byoc_pf_status_name(k->status), k->name, k->message,
                k->fix[0] ? " -- fix: " : "", k->fix);
    }
    fflush(stderr);
    byoc_preflight_report_clear(&report);
    if (failed == 0)
        return 0;
    byoc_err_set(err, BYOC_E_FAILED, "preflight",
                 "%zu check%s failed (run byoc preflight ... for details, or pass --no-preflight)", failed,
                 failed == 1 ? "" : "s");
    return 1;
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

static void remember(const byoc_globals *g, const byoc_jobspec *spec, const byoc_job_origin *origin);

/* Local runs always wait: the job's output streams to stderr, the results land in ./<job-name>/. */
static int run_local(const byoc_globals *g, const byoc_jobspec *spec, const byoc_runflags *f, byoc_err *err)
{
    byoc_local_run_opts opts = {
        .aws = {.profile = g->profile, .region = g->region},
        .upload = f->upload,
        .with_credentials = f->with_credentials,
        .host_network = f->host_network,
        .origin = f->origin,
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
        remember(g, spec, f->origin);
    if (res.status) {
        if (g->json)
            byoc_cli_print_json(byoc_local_run_result_json(&res));
        else
            printf("%s\n", res.job_arn);
        fflush(stdout);
        if (!g->json) {
            char *reason = byoc_printable_dup(res.failure_reason); /* the container's own words */
            fprintf(stderr, "job %s: %s%s%s; results in %s\n", res.job_name, res.status, reason[0] ? ": " : "",
                    reason, res.output_dir);
            free(reason);
            if (res.has_first_output) /* the baked side of decide --measure's comparison */
                fprintf(stderr, "its first line of output came %.1f s after the container started\n",
                        res.first_output_seconds);
            if (res.not_copied.n)
                fprintf(stderr, "warning: %zu of the job's files or directories were not copied (named above)%s\n",
                        res.not_copied.n, f->strict ? "" : "; --strict makes this fail the command");
        }
        if (rc == 0 && f->strict && res.not_copied.n)
            rc = byoc_err_set(err, BYOC_E_FAILED, "--strict", "%zu of the job's files or directories were not copied",
                              res.not_copied.n);
    }
    byoc_local_run_result_clear(&res);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}

/* ---- output ---- */

/* The fields the project filled in, as "from byoc.json: a, b; from the last push: c". */
static void print_origins(const byoc_runflags *f)
{
    for (byoc_job_origin o = BYOC_JO_PROJECT; o <= BYOC_JO_PUSH; o++) {
        bool any = false;
        for (int i = 0; i < BYOC_JF_COUNT; i++)
            if (f->origin[i] == o) {
                printf("%s%s", any ? ", " : o == BYOC_JO_PROJECT ? "from byoc.json: " : "from the last push: ",
                       byoc_job_field_flag((byoc_job_field)i));
                any = true;
            }
        if (any)
            printf("\n");
    }
}

static const char *text_of(const json_t *o, const char *key)
{
    return byoc_json_text(json_object_get(o, key), "");
}

/* The plan as the review shows it, from the printable copy of its document
 * (the account, role, bucket and warnings quote the services); the request
 * body as byoc's JSON writer escapes it. */
static void print_plan(const json_t *doc, const byoc_job_result *r, const byoc_runflags *f)
{
    json_t *shown = byoc_json_printable_copy(doc);
    printf("dry run: nothing was created or uploaded\n");
    print_origins(f);
    printf("region %s, account %s, role %s (from %s)\n", text_of(shown, "region"), text_of(shown, "account"),
           text_of(shown, "role_arn"), text_of(shown, "role_origin"));
    json_t *bucket = json_object_get(shown, "bucket");
    printf("bucket %s: %s\n", text_of(bucket, "name"),
           json_is_true(json_object_get(bucket, "exists")) ? "exists" : "would be created");
    size_t i;
    json_t *x;
    json_array_foreach(json_object_get(shown, "transfers"), i, x) {
        json_t *size = json_object_get(x, "size");
        printf("%s %s -> %s", text_of(x, "kind"), text_of(x, "from"), text_of(x, "to"));
        if (json_is_integer(size))
            printf(" (%lld bytes)", (long long)json_integer_value(size));
        printf("\n");
    }
    json_array_foreach(json_object_get(shown, "warnings"), i, x)
        printf("warning: %s\n", byoc_json_text(x, ""));
    printf("POST %s\n", text_of(json_object_get(shown, "create_job"), "url"));
    json_decref(shown);
    char *body = byoc_json_dumps(r->plan.request, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    printf("%s\n", body ? body : "{}");
    free(body);
}

static void remember(const byoc_globals *g, const byoc_jobspec *spec, const byoc_job_origin *origin)
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
        byoc_project_clear(&proj);
        return;
    }
    byoc_jobspec_remember(spec, origin, &proj);
    if (byoc_project_save(&proj, g->project_dir, &e) != 0)
        byoc_log(BYOC_LOG_WARN, "byoc.json not updated: %s", e.message);
    byoc_project_clear(&proj);
}

int verb_run(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    byoc_jobspec spec;
    byoc_jobspec_init(&spec);
    byoc_runflags f = {.project_dir = g->project_dir};
    int rc = byoc_runflags_parse("run", argc, argv, BYOC_RUNFLAGS_RUN_MODES | BYOC_RUNFLAGS_NO_PREFLIGHT, &spec, &f,
                                 err);
    spec.launcher = byoc_job_launcher_in(spec.image_uri, g->project_dir);
    if (rc == 0 && !f.no_preflight && !f.dry_run && spec_valid(&spec, &f))
        rc = preflight_gate(g, &spec, &f, err);
    if (rc != 0 || f.local) {
        if (rc == 0)
            rc = run_local(g, &spec, &f, err);
        byoc_jobspec_clear(&spec);
        return rc;
    }
    byoc_job_submit_opts opts = {
        .aws = {.profile = g->profile, .region = g->region},
        .dry_run = f.dry_run,
        .wait = f.wait,
        .image_check = byoc_ecr_image_check,
    };

    byoc_job_result res;
    memset(&res, 0, sizeof res);
    rc = submit(&spec, &opts, &res, err);
    for (size_t i = 1; i < res.problems.len; i++)
        byoc_log(BYOC_LOG_INFO, "also: %s: %s", res.problems.items[i].what, res.problems.items[i].message);
    bool job_exists = res.job_arn != NULL;
    if (rc == 0 && !f.dry_run)
        remember(g, &spec, f.origin);
    if (rc == 0 || job_exists) {
        json_t *doc = byoc_job_result_json(&res);
        if (g->json) {
            if (f.dry_run) /* the review; a created job's document keeps DESIGN's shape */
                json_object_set_new(doc, "origins", byoc_job_origins_json(f.origin));
            byoc_cli_print_json(doc);
        } else if (f.dry_run) {
            print_plan(doc, &res, &f);
            json_decref(doc);
        } else {
            for (int i = 0; i < BYOC_JF_COUNT; i++)
                if (f.origin[i] == BYOC_JO_PROJECT || f.origin[i] == BYOC_JO_PUSH)
                    fprintf(stderr, "%s from %s\n", byoc_job_field_flag((byoc_job_field)i),
                            byoc_job_origin_name(f.origin[i]));
            json_t *shown = byoc_json_printable_copy(doc); /* the ARN and status are the service's */
            json_decref(doc);
            printf("%s\n", byoc_json_text(json_object_get(shown, "job_arn"), "?"));
            fflush(stdout);
            if (job_exists)
                fprintf(stderr, "job %s: %s\n", byoc_json_text(json_object_get(shown, "job_name"), "?"),
                        byoc_json_text(json_object_get(shown, "status"), "?"));
            json_decref(shown);
        }
        fflush(stdout);
    }
    byoc_job_result_clear(&res);
    byoc_jobspec_clear(&spec);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
