/* byoc preflight: the checks of backend/byoc/preflight.h for the job the run
 * flags describe. Each check's line goes to stderr as it finishes; the report
 * to stdout (with --json, one document). Exit 1 when a check fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/preflight.h"
#include "cli_task.h"
#include "runflags.h"
#include "verbs.h"

static void on_event(void *ud, const byoc_event *ev)
{
    (void)ud;
    if (ev->kind == BYOC_EV_CHECK && ev->key)
        fprintf(stderr, "... %s: %s: %s\n", ev->key, byoc_pf_status_name((byoc_pf_status)ev->current),
                ev->text ? ev->text : "");
    else if (ev->kind == BYOC_EV_PROGRESS && ev->key)
        fprintf(stderr, "... %s: %s\n", ev->key, ev->text ? ev->text : "");
    else if ((ev->kind == BYOC_EV_LOG || ev->kind == BYOC_EV_STATUS) && ev->text)
        fprintf(stderr, "%s\n", ev->text);
    fflush(stderr);
}

typedef struct {
    byoc_preflight_args *args;
    byoc_preflight_report *report;
} preflight_run;

static int task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    *result = NULL;
    *result_free = NULL;
    preflight_run *r = arg;
    return byoc_preflight(&r->args->spec, &r->args->opts, t, r->report, err);
}

/* Run the checks as a task, printing each as it ends; Ctrl-C cancels (the throwaway container is removed). */
static int run_with_ctrl_c(preflight_run *run, byoc_err *err)
{
    return byoc_cli_run_task("preflight", task, run, NULL, on_event, NULL, NULL, err);
}

static void print_report(const byoc_preflight_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const byoc_pf_check *k = &r->items[i];
        printf("%-4s  %-30s %s\n", byoc_pf_status_name(k->status), k->name, k->message);
        if (k->fix[0])
            printf("      %-30s fix: %s\n", "", k->fix);
    }
    printf("%s\n", byoc_preflight_ok(r) ? "preflight: ok" : "preflight: FAILED (see the fixes above)");
}

int verb_preflight(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    byoc_preflight_args a;
    memset(&a, 0, sizeof a);
    byoc_jobspec_init(&a.spec);
    byoc_runflags f = {.project_dir = g->project_dir};
    int rc = byoc_runflags_parse("preflight", argc, argv, BYOC_RUNFLAGS_RUN_MODES | BYOC_RUNFLAGS_SMOKE, &a.spec, &f,
                                 err);
    a.spec.launcher = byoc_job_launcher_in(a.spec.image_uri, g->project_dir);
    if (rc != 0) {
        byoc_jobspec_clear(&a.spec);
        return rc;
    }
    a.opts.aws.profile = g->profile;
    a.opts.aws.region = g->region;
    a.opts.smoke = f.smoke;
    a.opts.local = f.local;
    a.opts.project_dir = g->project_dir;
    byoc_preflight_report report;
    memset(&report, 0, sizeof report);
    preflight_run run = {&a, &report};
    rc = run_with_ctrl_c(&run, err); /* progress on stderr, also with --json */
    byoc_jobspec_clear(&a.spec);
    if (rc != 0) {
        byoc_preflight_report_clear(&report);
        return byoc_err_exit_code(err->kind);
    }
    bool ok = byoc_preflight_ok(&report);
    if (g->json)
        byoc_cli_print_json(byoc_preflight_report_json(&report));
    else
        print_report(&report);
    fflush(stdout);
    byoc_preflight_report_clear(&report);
    return ok ? 0 : 1;
}
