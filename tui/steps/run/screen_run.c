/* screen_run: the Run step. The job form (run_form.h: grouped fields,
 * inline errors from the backend's validation), a review page with the
 * exact CreateJob request from a dry run (run_review.h), then the real
 * submit with its progress in the log pane; on success the job goes to
 * Monitor (flow.h). "Run on: this machine" runs the job container on the
 * local engine (byoc/localrun.h) with its output in the log pane.
 *
 * Preflight: reaching the review page starts the checks of
 * byoc/preflight.h as a task (p on the page runs them again); each check
 * shows on the page as it finishes (preflight_model.h) and is logged here.
 * Sending while a check failed, while they still run, or when they could
 * not run asks first (No is the default) and names the failed checks.
 * Leaving the page cancels checks still running; editing the form (or a
 * new image from Push) marks the last results stale, shown under the status.
 *
 * The form is read from byoc.json on first show and saved back after a
 * successful submit; the image URI comes from Push (flow.h) when it
 * changes. Every backend call is a task. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "action.h"
#include "background.h"
#include "byoc/imagecheck.h"
#include "byoc/jobsubmit.h"
#include "byoc/localrun.h"
#include "byoc/preflight.h"
#include "core/buf.h"
#include "core/str.h"
#include "flow.h"
#include "logview.h"
#include "preflight_model.h"
#include "progress.h"
#include "run_form.h"
#include "run_review.h"
#include "screens.h"
#include "steps.h"
#include "whole.h"

#define TALL_MIN 34

typedef enum { R_IDLE, R_PLANNING, R_SUBMITTING, R_SUBMITTED, R_LOCAL, R_LOCAL_DONE, R_FAILED } run_state;

typedef struct run_screen {
    tui_screen base;
    tui_form form;
    bool form_focus;
    bool form_dirty;
    bool started;
    uint64_t load_task;
    unsigned flow_serial;
    tui_logview log;
    run_state state;
    byoc_task *running;
    uint64_t running_id;
    uint64_t start_ms, end_ms;
    long shown_secs;
    char *status;            /* the last STATUS text of the running task */
    char *error;
    char *job_arn;
    char *job_name;
    char *job_status;
    char *output_dir;        /* local run */
    size_t not_copied;       /* local run: what the copy-out skipped */
    byoc_jobspec pending;    /* the reviewed spec, sent on y */
    bool have_pending;
    bool pending_local;
    char pending_ts[32];     /* the reviewed plan's timestamp: the S3 keys shown are the ones used */
    byoc_job_origin pending_origin[BYOC_JF_COUNT];  /* where the reviewed values came from */
    tui_pf_view pf;          /* the last preflight, shown on the review page */
    byoc_task *pf_task;      /* while it runs */
    uint64_t pf_task_id;
    tui_screen *review;      /* the review page while it exists */
} run_screen;

static double now_secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void log_line(run_screen *s, const char *text)
{
    tui_logview_append(&s->log, text, now_secs());
}

static void set_running(run_screen *s, byoc_task *t, run_state st)
{
    s->running = t;
    s->running_id = t ? byoc_task_id(t) : 0;
    s->base.wants_tick = t != NULL;
    if (t) {
        s->state = st;
        s->start_ms = tui_now_ms();
        s->end_ms = 0;
        s->shown_secs = -1;
        byoc_str_set(&s->status, NULL);
        byoc_str_set(&s->error, NULL);
    }
}

static byoc_aws_config_opts aws_opts(run_screen *s)
{
    const byoc_globals *g = tui_app_globals(s->base.app);
    return (byoc_aws_config_opts){.profile = g->profile, .region = g->region};
}

/* ---- byoc.json and flow ---- */

static void start_load(run_screen *s)
{
    s->load_task = tui_app_read_project(s->base.app, &s->base, "byoc.json", tui_run_load_task);
}

static void take_flow_image(run_screen *s)
{
    const tui_flow *f = tui_flow_get(s->base.app);
    if (f->serial == s->flow_serial)
        return;
    s->flow_serial = f->serial;
    const char *cur = tui_form_value(&s->form, "image_uri");
    if (f->image_uri && (!cur || strcmp(cur, f->image_uri) != 0)) {
        tui_form_set_value(&s->form, "image_uri", f->image_uri);
        tui_pf_view_mark_stale(&s->pf);
        tui_app_message(s->base.app, "Run: image URI from Push: %s", f->image_uri);
    }
}

static void remember(run_screen *s)
{
    tui_run_remember_args *a = byoc_xcalloc(1, sizeof *a);
    a->project_dir = byoc_xstrdup(tui_app_project(s->base.app));
    tui_run_form_to_spec(&s->form, false, &a->spec, NULL);
    tui_run_form_origins(&s->form, a->origin);
    tui_app_start_background_task(s->base.app, &s->base, "remember the job form", tui_run_remember_task, a,
                                  tui_run_remember_args_free);
}

/* ---- preflight ---- */

static void review_dirty(run_screen *s)
{
    if (s->review)
        tui_screen_dirty(s->review);
    tui_screen_dirty(&s->base);
}

static void stop_preflight(run_screen *s, const char *why)
{
    if (!s->pf_task)
        return;
    byoc_task_cancel(s->pf_task);
    s->pf_task = NULL;       /* its last events are dropped: the view is no longer running */
    tui_pf_view_cancelled(&s->pf, tui_now_ms());
    char *line = byoc_xasprintf("Preflight cancelled: %s", why);
    log_line(s, line);
    free(line);
    review_dirty(s);
}

static void start_preflight(run_screen *s, bool smoke)
{
    tui_app *a = s->base.app;
    stop_preflight(s, "started again");
    byoc_preflight_args *args = byoc_xcalloc(1, sizeof *args);
    byoc_jobspec_init(&args->spec);
    tui_run_form_to_spec(&s->form, true, &args->spec, NULL);
    if (s->have_pending && s->pending.job_name && !args->spec.job_name)
        byoc_jobspec_set(&args->spec.job_name, s->pending.job_name);
    args->opts.aws = aws_opts(s);
    args->opts.project_dir = tui_app_project(a);
    args->opts.local = s->pending_local;
    args->opts.smoke = smoke;
    args->opts.clients = tui_app_aws(a);
    args->engines = tui_app_engines(a);
    byoc_task *t = tui_app_start_task(a, &s->base, "preflight", byoc_preflight_task_fn, args,
                                      byoc_preflight_args_free);
    if (!t) {
        tui_app_error(a, "could not start the preflight checks");
        return;
    }
    s->pf_task = t;
    s->pf_task_id = byoc_task_id(t);
    tui_pf_view_start(&s->pf, tui_now_ms());
    log_line(s, smoke ? "Preflight: checking the image, the container contract, the code and the permissions, "
                        "then a smoke run of the job on the engine..."
                      : "Preflight: checking the image, the container contract, the code and the permissions...");
    review_dirty(s);
}

static void preflight_event(run_screen *s, const byoc_event *ev)
{
    if (!s->pf_task)
        return;              /* cancelled: the rest of its events */
    if (tui_pf_view_is_check(ev)) {
        char *line = byoc_xasprintf("preflight %s %s: %s%s%s", byoc_pf_status_name((byoc_pf_status)ev->current),
                                    ev->key, ev->text ? ev->text : "", ev->detail ? " -- fix: " : "",
                                    ev->detail ? ev->detail : "");
        log_line(s, line);
        free(line);
    }
    if (tui_pf_view_event(&s->pf, ev, tui_now_ms())) {
        s->pf_task = NULL;   /* released by the app after this event */
        s->pf_task_id = 0;
        char sum[1024];
        log_line(s, tui_pf_view_summary(&s->pf, tui_now_ms(), sum, sizeof sum));
    }
    review_dirty(s);
}

/* The form changed: the results no longer describe the job. */
static void preflight_stale(run_screen *s)
{
    tui_pf_view_mark_stale(&s->pf);
    stop_preflight(s, "the job form changed");
}

/* ---- review and send ---- */

static void send_pending(tui_app *a, void *ud);

static void close_review_and_send(run_screen *s)
{
    tui_app *a = s->base.app;
    if (s->review)
        tui_app_pop(a);      /* the review; shows this screen again, which stops the checks */
    send_pending(a, s);
}

static void send_confirmed(tui_app *a, bool yes, void *ud)
{
    run_screen *s = ud;
    if (!yes) {
        tui_app_message(a, "Not sent: fix what failed (each check names its fix), p checks again, q goes back");
        return;
    }
    if (s->review && s->have_pending)
        close_review_and_send(s);
}

/* y on the review page: send, or ask first when the checks do not say it is sound. */
static void review_send(tui_app *a, void *ud)
{
    run_screen *s = ud;
    if (!s->have_pending || s->running)
        return;
    const tui_pf_view *v = &s->pf;
    const char *what = s->pending_local ? "Run" : "Send";
    char *failed = tui_pf_view_failed_names(v);
    char *text = NULL;
    const char *title = NULL;
    if (v->state == TUI_PF_DONE && *failed) {
        title = "Preflight failed";
        text = byoc_xasprintf("These checks failed: %s.\n\nThe job would most likely fail after it was queued and "
                              "paid for; each check in the list names its fix.\n\n%s it anyway?",
                              failed, what);
    } else if (v->state == TUI_PF_RUNNING) {
        title = "Preflight still running";
        text = byoc_xasprintf("%zu checks done so far%s%s.\n\n%s it without waiting for the rest?", v->n,
                              *failed ? "; failed: " : ", none failed", failed, what);
    } else if (v->state == TUI_PF_ERROR) {
        title = "Preflight could not run";
        text = byoc_xasprintf("The checks could not run: %s.\n\n%s it unchecked?", v->error ? v->error : "?", what);
    } else if (v->state == TUI_PF_CANCELLED && *failed) {
        title = "Preflight failed";
        text = byoc_xasprintf("These checks failed before the checks stopped: %s.\n\n%s it anyway?", failed, what);
    }
    free(failed);
    if (!text) {
        close_review_and_send(s);
        return;
    }
    char yes[32];
    snprintf(yes, sizeof yes, "%s anyway", what);
    tui_app_confirm(a, title, text, yes, send_confirmed, s);
    tui_app_dialog_about(a, s->review, TUI_ABOUT_PANE);    /* the checks that failed stay in view */
    free(text);
}

static void review_preflight(tui_app *a, bool smoke, void *ud)
{
    (void)a;
    start_preflight(ud, smoke);
}

static void review_closed(void *ud)
{
    run_screen *s = ud;
    s->review = NULL;
}

static void show_review(run_screen *s, const char *title, const json_t *plan)
{
    tui_app *a = s->base.app;
    const tui_run_review_hooks hooks = {review_send, review_preflight, review_closed, s};
    s->review = tui_run_review_new(a, title, plan, &s->pf, &hooks);
    tui_app_push(a, s->review);
    start_preflight(s, false);
}

static bool form_ok(run_screen *s)
{
    if (tui_run_form_validate(&s->form) == 0)
        return true;
    s->form_focus = true;
    tui_app_error(s->base.app, "Fix the job form first: %s", s->form.fields[s->form.focus].msg);
    return false;
}

static void review(run_screen *s)
{
    tui_app *a = s->base.app;
    if (s->running) {
        char k[16];
        tui_app_message(a, "A %s is running: %s cancels it", s->state == R_LOCAL ? "local run" : "submit",
                        tui_action_key(TUI_CTX_RUN, TUI_ACT_STOP, k, sizeof k));
        return;
    }
    if (!form_ok(s))
        return;
    if (s->have_pending)
        byoc_jobspec_clear(&s->pending);
    tui_run_form_to_spec(&s->form, true, &s->pending, NULL);
    s->have_pending = true;
    s->pending_ts[0] = '\0';
    s->pending_local = tui_run_form_local(&s->form);
    tui_run_form_origins(&s->form, s->pending_origin);
    if (s->pending_local) {
        json_t *plan = json_pack("{s:o, s:o}", "local", byoc_jobspec_to_json(&s->pending), "origins",
                                 byoc_job_origins_json(s->pending_origin));
        show_review(s, "5 Run: review the local run", plan);
        json_decref(plan);
        return;
    }
    byoc_job_submit_args *args = byoc_xcalloc(1, sizeof *args);
    byoc_jobspec_init(&args->spec);
    tui_run_form_to_spec(&s->form, true, &args->spec, NULL);
    args->opts.aws = aws_opts(s);
    args->opts.clients = tui_app_aws(a);
    args->opts.dry_run = true;
    args->opts.image_check = byoc_ecr_image_check;
    args->opts.image_check_ud = tui_app_aws(a);
    byoc_task *t = tui_app_start_task(a, &s->base, "plan the job", byoc_job_submit_task_fn, args,
                                      byoc_job_submit_args_free);
    if (!t) {
        tui_app_error(a, "could not start a task");
        return;
    }
    tui_logview_reset(&s->log);
    log_line(s, "Resolving the request (region, account, role, bucket, image)...");
    set_running(s, t, R_PLANNING);
}

static void planned(run_screen *s, const byoc_job_result *r)
{
    s->state = R_IDLE;
    /* the name shown is the name sent */
    if (!s->pending.job_name && r->plan.job_name)
        byoc_jobspec_set(&s->pending.job_name, r->plan.job_name);
    snprintf(s->pending_ts, sizeof s->pending_ts, "%s", r->plan.timestamp ? r->plan.timestamp : "");
    json_t *plan = byoc_job_result_json(r);
    json_object_set_new(plan, "origins", byoc_job_origins_json(s->pending_origin));
    char send[16], back[16], line[64];
    snprintf(line, sizeof line, "Review the request: %s sends it, %s goes back",
             tui_action_key(TUI_CTX_REVIEW, TUI_ACT_SEND, send, sizeof send),
             tui_action_key(TUI_CTX_GLOBAL, TUI_ACT_BACK, back, sizeof back));
    log_line(s, line);
    show_review(s, "5 Run: review the request", plan);
    json_decref(plan);
}

static void send_pending(tui_app *a, void *ud)
{
    run_screen *s = ud;
    if (!s->have_pending || s->running)
        return;
    if (s->pending_local) {
        byoc_local_run_args *args = byoc_xcalloc(1, sizeof *args);
        args->spec = s->pending;
        s->have_pending = false;
        args->opts.aws = aws_opts(s);
        args->opts.output_parent = tui_app_project(a);
        args->opts.clients = tui_app_aws(a);
        args->engines = tui_app_engines(a);
        byoc_task *t = tui_app_start_task(a, &s->base, "local run", byoc_local_run_task_fn, args,
                                          byoc_local_run_args_free);
        if (!t) {
            tui_app_error(a, "could not start a task");
            return;
        }
        tui_logview_reset(&s->log);
        log_line(s, "Starting the job container on the local engine...");
        set_running(s, t, R_LOCAL);
        return;
    }
    byoc_job_submit_args *args = byoc_xcalloc(1, sizeof *args);
    args->spec = s->pending;
    s->have_pending = false;
    args->opts.aws = aws_opts(s);
    args->opts.clients = tui_app_aws(a);
    args->opts.image_check = byoc_ecr_image_check;
    args->opts.image_check_ud = tui_app_aws(a);
    snprintf(args->timestamp, sizeof args->timestamp, "%s", s->pending_ts);
    args->opts.timestamp = args->timestamp;
    byoc_task *t = tui_app_start_task(a, &s->base, "submit the job", byoc_job_submit_task_fn, args,
                                      byoc_job_submit_args_free);
    if (!t) {
        tui_app_error(a, "could not start a task");
        return;
    }
    log_line(s, "Sending...");
    set_running(s, t, R_SUBMITTING);
}

static void submitted(run_screen *s, const byoc_job_result *r)
{
    tui_app *a = s->base.app;
    s->state = R_SUBMITTED;
    s->end_ms = tui_now_ms();
    byoc_str_set(&s->job_arn, r->job_arn);
    byoc_str_set(&s->job_name, r->plan.job_name);
    byoc_str_set(&s->job_status, r->status);
    char *line = byoc_xasprintf("Created %s (%s)", r->job_arn ? r->job_arn : "?", r->status ? r->status : "?");
    log_line(s, line);
    free(line);
    remember(s);
    s->form_dirty = false;
    if (r->job_arn) {
        tui_flow_set_job(a, r->job_arn);
        s->flow_serial = tui_flow_get(a)->serial;
        tui_app_goto_step(a, TUI_STEP_MONITOR);
        tui_app_message(a, "Job %s created", r->plan.job_name ? r->plan.job_name : r->job_arn);
    }
}

static void local_done(run_screen *s, const byoc_local_run_result *r)
{
    tui_app *a = s->base.app;
    s->state = R_LOCAL_DONE;
    s->end_ms = tui_now_ms();
    byoc_str_set(&s->job_arn, r->job_arn);
    byoc_str_set(&s->job_name, r->job_name);
    byoc_str_set(&s->job_status, r->status);
    byoc_str_set(&s->output_dir, r->output_dir);
    s->not_copied = r->not_copied.n;
    char *line = byoc_xasprintf("Local job %s %s%s%s; files in %s", r->job_name ? r->job_name : "?",
                                r->status ? r->status : "?", r->failure_reason ? ": " : "",
                                r->failure_reason ? r->failure_reason : "", r->output_dir ? r->output_dir : "?");
    log_line(s, line);
    free(line);
    if (r->not_copied.n) {
        line = byoc_xasprintf("Warning: %zu of the job's files or directories were not copied (named above)",
                              r->not_copied.n);
        log_line(s, line);
        free(line);
    }
    remember(s);
    if (r->job_arn) {
        tui_flow_set_job(a, r->job_arn);
        s->flow_serial = tui_flow_get(a)->serial;
    }
}

static void failed(run_screen *s, const byoc_err *err)
{
    s->end_ms = tui_now_ms();
    s->state = R_FAILED;
    byoc_str_set(&s->error, err->kind == BYOC_E_CANCELLED ? "cancelled" : err->message);
    char *line = byoc_xasprintf("error: %s%s%s", err->what[0] ? err->what : "", err->what[0] ? ": " : "",
                                err->message);
    log_line(s, line);
    free(line);
    /* a validation problem points at its field */
    if (err->kind == BYOC_E_USAGE) {
        tui_form_validate(&s->form);
        s->form_focus = true;
    }
}

/* ---- events ---- */

static void on_event(tui_screen *base, const byoc_event *ev)
{
    run_screen *s = (run_screen *)base;
    if (ev->task_id == s->load_task) {
        if (ev->kind == BYOC_EV_DONE && ev->result && !s->form_dirty) {
            const tui_run_loaded *l = ev->result;
            tui_run_form_from_spec(&s->form, &l->spec, l->origin);
            s->flow_serial = (unsigned)-1;    /* a pushed image wins over byoc.json */
            take_flow_image(s);
        }
        if (ev->kind == BYOC_EV_ERROR)
            tui_app_error(base->app, "byoc.json: %s", ev->err.message);
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            s->load_task = 0;
        tui_screen_dirty(base);
        return;
    }
    if (s->pf_task_id && ev->task_id == s->pf_task_id) {
        preflight_event(s, ev);
        return;
    }
    if (!s->running || ev->task_id != s->running_id)
        return;
    run_state st = s->state;
    switch (ev->kind) {
    case BYOC_EV_LOG: log_line(s, ev->text ? ev->text : ""); break;
    case BYOC_EV_STATUS:
        byoc_str_set(&s->status, ev->text);
        if (ev->text)
            log_line(s, ev->text);
        break;
    case BYOC_EV_PROGRESS: {
        char a[32], b[32];
        char *text = byoc_xasprintf("%s %s / %s", ev->key ? ev->key : "upload",
                                    byoc_fmt_bytes(ev->current, a, sizeof a),
                                    ev->total >= 0 ? byoc_fmt_bytes(ev->total, b, sizeof b) : "?");
        byoc_str_set(&s->status, text);
        free(text);
        break;
    }
    case BYOC_EV_DONE:
        set_running(s, NULL, st);
        if (st == R_PLANNING)
            planned(s, ev->result);
        else if (st == R_SUBMITTING)
            submitted(s, ev->result);
        else
            local_done(s, ev->result);
        break;
    case BYOC_EV_ERROR:
        set_running(s, NULL, st);
        failed(s, &ev->err);
        break;
    case BYOC_EV_CHECK:      /* preflight's come through preflight_event */
    case BYOC_EV_DATA:
        break;
    }
    tui_screen_dirty(base);
}

static bool tick(tui_screen *base, uint64_t now)
{
    run_screen *s = (run_screen *)base;
    if (!s->running) {
        base->wants_tick = false;
        return false;
    }
    return tui_tick_seconds(now, s->start_ms, &s->shown_secs);
}

/* ---- keys ---- */

static void show_job(run_screen *s)
{
    tui_app *a = s->base.app;
    if (!s->job_arn) {
        char k[16];
        tui_app_message(a, "No job yet: %s reviews and sends the form",
                        tui_action_key(TUI_CTX_RUN, TUI_ACT_SUBMIT, k, sizeof k));
        return;
    }
    tui_flow_set_job(a, s->job_arn);
    s->flow_serial = tui_flow_get(a)->serial;
    tui_app_goto_step(a, TUI_STEP_MONITOR);
}

static void stop(run_screen *s)
{
    if (!s->running) {
        char k[16];
        tui_app_message(s->base.app, "Nothing runs: %s reviews and sends the form",
                        tui_action_key(TUI_CTX_RUN, TUI_ACT_SUBMIT, k, sizeof k));
        return;
    }
    byoc_task_cancel(s->running);
    log_line(s, "Cancelling...");
}

static bool form_key(run_screen *s, const tui_keyev *ev)
{
    if (ev->action == TUI_ACT_CANCEL || ev->action == TUI_ACT_BACK) {
        tui_form_validate_field(&s->form, s->form.focus);
        s->form_focus = false;
        return true;
    }
    tui_form_result r = tui_form_handle(&s->form, ev->key, ev->action);
    if (r == TUI_FORM_IGNORED)
        return false;
    if (ev->action != TUI_ACT_NEXT_FIELD && ev->action != TUI_ACT_PREV_FIELD && ev->action != TUI_ACT_ACCEPT &&
        ev->action != TUI_ACT_SUBMIT) {
        s->form_dirty = true;
        preflight_stale(s);
    }
    if (r == TUI_FORM_SUBMIT) {
        s->form_focus = false;
        review(s);
    }
    return true;
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    run_screen *s = (run_screen *)base;
    if (s->form_focus)
        return form_key(s, ev);
    if (tui_logview_handle(&s->log, ev->key, ev->action))
        return true;
    switch (ev->action) {
    case TUI_ACT_OPEN: s->form_focus = true; return true;
    case TUI_ACT_SUBMIT: review(s); return true;
    case TUI_ACT_SHOW_JOB: show_job(s); return true;
    case TUI_ACT_STOP: stop(s); return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    run_screen *s = (run_screen *)base;
    if (max < 4)
        return 0;
    size_t n = 0;
    if (s->form_focus) {
        n = tui_form_contexts(&s->form, out);
    } else if (s->log.searching) {
        n = tui_logview_contexts(&s->log, out);
        out[n++] = TUI_CTX_RUN;
    } else {
        out[n++] = TUI_CTX_RUN;
        n += tui_logview_contexts(&s->log, out + n);
    }
    return n;
}

/* ---- drawing ---- */

/* Three lines of the job, then (as room allows, up to max lines in all) where the values the
 * user did not type came from. */
static int draw_summary(run_screen *s, WINDOW *win, int y, int x, int w, int max)
{
    const char *img = tui_form_value(&s->form, "image_uri");
    const char *src = tui_form_value(&s->form, "source_module");
    const char *ep = tui_form_value(&s->form, "entry_point");
    const char *dev = tui_form_value(&s->form, "device");
    const char *it = tui_form_value(&s->form, "instance_type");
    char *l1 = byoc_xasprintf("Image %s", img && *img ? img : "(the Braket base image)");
    char *l2 = byoc_xasprintf("Source %s  entry %s", src && *src ? src : "(none)", ep && *ep ? ep : "(module name)");
    char *l3 = byoc_xasprintf("Device %s  instance %s  on %s", dev && *dev ? dev : BYOC_JOB_DEFAULT_DEVICE,
                              it && *it ? it : BYOC_JOB_DEFAULT_INSTANCE_TYPE,
                              tui_run_form_local(&s->form) ? "this machine" : "Amazon Braket");
    tui_whole_fit(win, y, x, w, TUI_STY_NORMAL, "The job's image", l1, NULL);
    tui_whole_fit(win, y + 1, x, w, TUI_STY_NORMAL, "The job's code", l2, NULL);
    tui_whole_fit(win, y + 2, x, w, TUI_STY_NORMAL, "Where the job runs", l3, NULL);
    free(l1);
    free(l2);
    free(l3);
    int n = 3;
    char from[1024];
    tui_form_origins_text(&s->form, from, sizeof from);
    for (char *save = NULL, *line = strtok_r(from, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save))
        tui_draw_fit(win, y + n++, x, w, TUI_STY_DIM, line);
    return n;
}

static void draw_status(run_screen *s, WINDOW *win, int y, int x, int w)
{
    char el[32], buf[1024];
    uint64_t end = s->end_ms ? s->end_ms : tui_now_ms();
    tui_fmt_duration((int64_t)((end - s->start_ms) / 1000), el, sizeof el);
    tui_style sty = TUI_STY_NORMAL;
    switch (s->state) {
    case R_IDLE: {
        const tui_field *fl = s->form_focus ? &s->form.fields[s->form.focus] : NULL;
        const char *o = fl ? tui_form_origin(&s->form, fl) : NULL;
        if (o) {    /* the inline mark does not fit after a long value: say it here */
            snprintf(buf, sizeof buf, "%s: from %s", fl->label, o);
        } else {
            char e[16], k[16];
            snprintf(buf, sizeof buf, "Ready: %s edits the form, %s reviews the request before sending",
                     tui_action_key(TUI_CTX_RUN, TUI_ACT_OPEN, e, sizeof e),
                     tui_action_key(TUI_CTX_RUN, TUI_ACT_SUBMIT, k, sizeof k));
        }
        sty = TUI_STY_DIM;
        break;
    }
    case R_PLANNING: snprintf(buf, sizeof buf, "Resolving the request...  %s", el); break;
    case R_SUBMITTING:
        snprintf(buf, sizeof buf, "Submitting: %s  %s", s->status ? s->status : "...", el);
        sty = TUI_STY_LABEL_FOCUS;
        break;
    case R_LOCAL:
        snprintf(buf, sizeof buf, "Local run: %s  %s  (c cancels)", s->status ? s->status : "...", el);
        sty = TUI_STY_LABEL_FOCUS;
        break;
    case R_SUBMITTED:
        snprintf(buf, sizeof buf, "Created %s (%s)  m shows it in Monitor", s->job_name ? s->job_name : "",
                 s->job_status ? s->job_status : "");
        sty = TUI_STY_OK;
        break;
    case R_LOCAL_DONE:
        snprintf(buf, sizeof buf, "Local job %s %s%s in %s  m shows it in Monitor", s->job_name ? s->job_name : "",
                 s->job_status ? s->job_status : "", s->not_copied ? ", results incomplete (see the log)" : "", el);
        sty = s->job_status && strcmp(s->job_status, "COMPLETED") == 0 ? s->not_copied ? TUI_STY_WARN : TUI_STY_OK
                                                                        : TUI_STY_ERROR;
        break;
    case R_FAILED:
        snprintf(buf, sizeof buf, "Failed: %s", s->error ? s->error : "");
        sty = TUI_STY_ERROR;
        break;
    }
    tui_whole_fit(win, y, x, w, sty, "Run", buf, NULL);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    run_screen *s = (run_screen *)base;
    if (!s->started) {
        s->started = true;
        start_load(s);
    }
    if (r.h < 8 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int x = r.x + 1, w = r.w - 1, y = r.y;
    tui_draw_fit(win, y++, x, w, TUI_STY_LABEL_FOCUS, tui_step_purpose(base->step));
    if (s->form_focus || r.h >= TALL_MIN) {
        int fh = tui_form_lines_at(&s->form, w);
        if (fh > r.h - 5)
            fh = r.h - 5;
        tui_form_scroll(&s->form, fh);
        tui_form_draw(&s->form, win, (tui_rect){y, x, fh, w}, s->form_focus);
        y += fh;
    } else {
        y += draw_summary(s, win, y, x, w, r.h - 5);   /* leave the status, the rule and a line of output */
    }
    draw_status(s, win, y++, x, w);
    if (s->pf.state != TUI_PF_NONE && y < r.y + r.h - 2) {
        char sum[1024];
        tui_pf_view_summary(&s->pf, tui_now_ms(), sum, sizeof sum);
        bool bad = s->pf.state == TUI_PF_ERROR || tui_pf_view_count(&s->pf, BYOC_PF_FAIL) > 0;
        tui_whole_fit(win, y++, x, w, s->pf.stale ? TUI_STY_DIM : bad ? TUI_STY_ERROR : TUI_STY_NORMAL,
                      "Preflight checks", sum, NULL);
    }
    tui_draw_hline(win, y, r.x, r.w, s->form_focus ? TUI_STY_BORDER : TUI_STY_BORDER_FOCUS);
    tui_draw_fit(win, y, r.x + 2, r.w - 4, TUI_STY_HEADING, " Progress and output ");
    y++;
    tui_rect pane = {y, r.x, r.y + r.h - y, r.w};
    if (pane.h >= 1)
        tui_logview_draw(&s->log, win, pane, !s->form_focus);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    run_screen *s = (run_screen *)base;
    switch (s->state) {
    case R_PLANNING: snprintf(buf, size, "5 Run: resolving"); break;
    case R_SUBMITTING: snprintf(buf, size, "5 Run: submitting"); break;
    case R_LOCAL: snprintf(buf, size, "5 Run: running locally"); break;
    case R_SUBMITTED: snprintf(buf, size, "5 Run: created %s", s->job_name ? s->job_name : ""); break;
    case R_LOCAL_DONE: snprintf(buf, size, "5 Run: local job %s", s->job_status ? s->job_status : ""); break;
    case R_FAILED: snprintf(buf, size, "5 Run: failed"); break;
    default: snprintf(buf, size, "5 Run"); break;
    }
}

static void enter(tui_screen *base)
{
    run_screen *s = (run_screen *)base;
    if (!s->review)
        stop_preflight(s, "left the review page");
    take_flow_image(s);
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    run_screen *s = (run_screen *)base;
    tui_form_clear(&s->form);
    tui_logview_clear(&s->log);
    tui_pf_view_clear(&s->pf);
    if (s->have_pending)
        byoc_jobspec_clear(&s->pending);
    free(s->status);
    free(s->error);
    free(s->job_arn);
    free(s->job_name);
    free(s->job_status);
    free(s->output_dir);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "run",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_run_new(tui_app *app)
{
    run_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_RUN);
    tui_form_init(&s->form);
    tui_run_form_build(&s->form, tui_app_project(app));
    tui_logview_init(&s->log, 5000, 4u << 20);
    tui_pf_view_init(&s->pf);
    return &s->base;
}
