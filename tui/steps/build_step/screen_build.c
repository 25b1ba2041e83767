/* screen_build: the Build step. The settings as a form (defaults from
 * byoc.json, saved back on build), the lint first (errors stop the build
 * unless "Lint first" is off; the findings are a list with file:line), then
 * the build on the engine with a live log, the step counter and the elapsed
 * time; errors are highlighted and the failing step named; c cancels. On
 * success: the image ID, its size, and p to push it (flow.h).
 *
 * Layout: the purpose, the settings (the whole form while it has the focus,
 * or always on a tall screen; one summary line otherwise), the lint line, the
 * status line, then the build log or the lint findings (f switches). Enter
 * goes to the settings, Esc comes back. Nothing starts before the screen is
 * first drawn; every disk and engine call is a task (build_job.h, and the
 * build itself byoc/buildflow.h's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "action.h"
#include "background.h"
#include "build_job.h"
#include "build_model.h"
#include "core/buf.h"
#include "core/str.h"
#include "flow.h"
#include "form.h"
#include "image_text.h"
#include "list.h"
#include "logview.h"
#include "progress.h"
#include "screens.h"
#include "steps.h"
#include "text.h"
#include "whole.h"

#define TALL_MIN 30              /* content rows from which the settings always show */
#define WHOLE_LOG_MAX 40         /* log lines of the failing step the whole view shows */

typedef enum { B_IDLE, B_PREPARING, B_BUILDING, B_DONE, B_FAILED, B_CANCELLED, B_LINT_FAILED } build_state;

typedef struct build_screen {
    tui_screen base;
    tui_form form;
    bool form_focus;
    bool form_dirty;             /* the user changed the settings since byoc.json was read */
    bool saved_dirty;            /* ... among them one that byoc.json keeps */
    bool started, want_load;
    uint64_t load_task;
    char *project_name;
    char *load_error;

    tui_logview log;
    tui_list findings;
    bool show_findings;
    bool linted;
    size_t lint_errors, lint_warnings, lint_notes;

    build_state state;
    bool lint_only;              /* the running prepare is a lint alone */
    bool in_flow;                /* the running task is the build flow (lint, then build) */
    byoc_task *running;          /* the prepare or build task, until its last event */
    uint64_t running_id;
    tui_build_settings snap;     /* the settings the running build uses */
    uint64_t start_ms, end_ms;
    long shown_secs;
    int step, steps;
    char *step_line;
    uint64_t step_seq;           /* the log line of the current step */
    bool have_step;
    int64_t ctx_sent, ctx_total; /* sending the context */
    char *error;
    char *image_id;
    byoc_strv image_tags;
    int64_t image_size;
} build_screen;

static const tui_column finding_columns[] = {
    {"Sev", 5, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Where", 14, 2, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Rule", 18, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Message", 8, 1, TUI_ALIGN_LEFT, TUI_SORT_NONE},
};

static bool running(const build_screen *s)
{
    return s->running != NULL;
}

static double now_secs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void log_line(build_screen *s, const char *text)
{
    tui_logview_append(&s->log, text, now_secs());
}

/* ---- byoc.json ---- */

static void start_load(build_screen *s)
{
    s->want_load = false;
    if (s->load_task || running(s) || s->form_dirty)
        return;
    s->load_task = tui_app_read_project(s->base.app, &s->base, "byoc.json", tui_build_load_task);
}

static void load_done(build_screen *s, const tui_build_loaded *l)
{
    free(s->load_error);
    s->load_error = byoc_xstrdup_opt(l->error);
    free(s->project_name);
    s->project_name = byoc_xstrdup_opt(l->project.name);
    if (s->form_dirty)
        return;                          /* the user's edits win over the file */
    char *tag = tui_build_default_tag(l->project.name, tui_app_project(s->base.app));
    tui_build_form_load(&s->form, &l->project, tag);
    free(tag);
}

/* ---- lint and build ---- */

static void set_running(build_screen *s, byoc_task *t)
{
    s->running = t;
    s->running_id = t ? byoc_task_id(t) : 0;
    s->base.wants_tick = t != NULL;
}

static void reset_progress(build_screen *s)
{
    s->start_ms = tui_now_ms();
    s->end_ms = 0;
    s->shown_secs = -1;
    s->step = s->steps = 0;
    free(s->step_line);
    s->step_line = NULL;
    s->have_step = false;
    s->ctx_sent = s->ctx_total = 0;
    free(s->error);
    s->error = NULL;
}

static void start_prepare(build_screen *s, bool lint_only)
{
    tui_app *a = s->base.app;
    if (running(s)) {
        char k[16];
        tui_app_message(a, "A %s is running: %s cancels it", s->lint_only ? "lint" : "build",
                        tui_action_key(TUI_CTX_BUILD, TUI_ACT_STOP, k, sizeof k));
        return;
    }
    if (tui_form_validate(&s->form)) {
        s->form_focus = true;
        tui_app_error(a, "Fix the settings first (the field in focus says why)");
        return;
    }
    tui_build_settings_clear(&s->snap);
    tui_build_settings_from_form(&s->form, &s->snap);
    tui_build_request *req = byoc_xcalloc(1, sizeof *req);
    req->project_dir = byoc_xstrdup(tui_app_project(a));
    tui_build_settings_from_form(&s->form, &req->settings);
    req->save_new = !lint_only && s->saved_dirty;
    req->lint = lint_only; /* a build's lint is the build flow's */
    req->git = !lint_only;
    byoc_task *t = lint_only ? tui_app_start_background_task(a, &s->base, "lint", tui_build_prepare_task, req,
                                                             tui_build_request_free)
                             : tui_app_start_task(a, &s->base, "build", tui_build_prepare_task, req,
                                                  tui_build_request_free);
    if (!t) {
        tui_app_error(a, "could not start a task");
        return;
    }
    s->lint_only = lint_only;
    s->in_flow = false;
    set_running(s, t);
    if (!lint_only) {
        s->state = B_PREPARING;
        s->show_findings = false;
        tui_logview_reset(&s->log);
        reset_progress(s);
        free(s->image_id);
        s->image_id = NULL;
        byoc_strv_clear(&s->image_tags);
    }
}

static void clear_findings(build_screen *s)
{
    tui_list_reset(&s->findings);
    s->lint_errors = s->lint_warnings = s->lint_notes = 0;
}

static void add_finding(build_screen *s, byoc_lint_severity severity, const char *file, int line, const char *rule,
                        const char *message)
{
    char where[256];
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d", file ? file : "", line);
    else
        snprintf(where, sizeof where, "%s", file ? file : "");
    const char *sev = byoc_lint_severity_name(severity);
    const char *cells[4] = {severity == BYOC_LINT_WARNING ? "warn" : sev, where, rule, message};
    char *full = byoc_xasprintf("%s %s [%s]: %s", sev, where, rule, message);
    tui_list_add(&s->findings, cells, full);
    s->lint_errors += severity == BYOC_LINT_ERROR;
    s->lint_warnings += severity == BYOC_LINT_WARNING;
    s->lint_notes += severity == BYOC_LINT_INFO;
}

static void fill_findings(build_screen *s, const byoc_lint_result *lr)
{
    clear_findings(s);
    for (size_t i = 0; i < lr->n; i++) {
        const byoc_finding *f = &lr->items[i];
        add_finding(s, f->severity, f->file, f->line, f->rule, f->message);
    }
    s->linted = true;
}

/* A finding of the build flow's lint, as it comes: listed, and in the log unless a note. */
static void lint_finding(build_screen *s, const byoc_build_event *be)
{
    add_finding(s, be->severity, be->file, be->line, be->rule, be->text ? be->text : "");
    if (be->severity == BYOC_LINT_INFO)
        return;
    char *line = byoc_xasprintf("lint %s: %s:%d: %s: %s", byoc_lint_severity_name(be->severity), be->file, be->line,
                                be->rule, be->text ? be->text : "");
    log_line(s, line);
    free(line);
}

/* The build flow: its lint first when the settings ask for it (B_PREPARING
 * until the lint is over), then the build. */
static void start_build(build_screen *s, const tui_build_prepared *p)
{
    const char *project = tui_app_project(s->base.app);
    char *df = s->snap.lint ? tui_build_lint_dockerfile(s->snap.dockerfile, project) : NULL;
    byoc_build_flow_job *job =
        byoc_build_flow_job_new(tui_app_engines(s->base.app), &p->plan, s->snap.lint ? project : NULL, df);
    free(df);
    byoc_task *t = tui_app_start_task(s->base.app, &s->base, "build", byoc_build_flow_task, job,
                                      byoc_build_flow_job_free);
    if (!t) {
        s->state = B_FAILED;
        s->error = byoc_xstrdup("could not start a task");
        return;
    }
    set_running(s, t);
    s->in_flow = true;
    if (s->snap.lint) {
        clear_findings(s);
        s->linted = false;
        s->state = B_PREPARING;
    } else {
        s->state = B_BUILDING;
    }
}

static void prepared(build_screen *s, const tui_build_prepared *p)
{
    tui_app *a = s->base.app;
    if (p->saved) {
        s->form_dirty = s->saved_dirty = false;
        tui_app_message(a, "Saved the settings to byoc.json");
    }
    if (p->linted)
        fill_findings(s, &p->lint);
    if (s->lint_only) {
        if (p->lint.n)
            s->show_findings = true;
        tui_app_message(a, "Lint: %zu error%s, %zu warning%s", s->lint_errors, s->lint_errors == 1 ? "" : "s",
                        s->lint_warnings, s->lint_warnings == 1 ? "" : "s");
        return;
    }
    start_build(s, p);
}

/* The flow's lint found errors: nothing was built. */
static void lint_stopped(build_screen *s)
{
    s->state = B_LINT_FAILED;
    s->end_ms = tui_now_ms();
    s->show_findings = true;
}

static void built(build_screen *s, const byoc_build_flow_result *b)
{
    if (b->linted)
        fill_findings(s, &b->lint); /* the whole lint, should an event have been dropped */
    if (b->lint_stopped) {
        lint_stopped(s);
        return;
    }
    s->state = B_DONE;
    s->end_ms = tui_now_ms();
    free(s->image_id);
    s->image_id = byoc_xstrdup(b->image_id);
    s->image_size = b->size;
    byoc_strv_clear(&s->image_tags);
    for (size_t i = 0; i < b->tags.n; i++)
        byoc_strv_push(&s->image_tags, b->tags.v[i]);
    /* Push offers what was built last */
    tui_flow_set_image(s->base.app, b->tags.n ? b->tags.v[0] : b->image_id, b->image_id);
    char size[32];
    byoc_fmt_bytes(b->size, size, sizeof size);
    char *line = byoc_xasprintf("Built %s (%s)", b->image_id, b->size >= 0 ? size : "size unknown");
    log_line(s, line);
    free(line);
}

static void failed(build_screen *s, const byoc_err *err)
{
    s->end_ms = tui_now_ms();
    if (err->kind == BYOC_E_CANCELLED) {
        s->state = B_CANCELLED;
        log_line(s, "Build cancelled");
        return;
    }
    s->state = B_FAILED;
    free(s->error);
    s->error = byoc_xstrdup(err->message);
    char *line = byoc_xasprintf("error: %s", err->message);
    log_line(s, line);
    free(line);
    if (strcmp(err->what, "base image") == 0) /* the status line would cut the cause and the fix */
        tui_app_alert(s->base.app, "The base image cannot be pulled", err->message);
}

static void lint_failed(build_screen *s, const byoc_err *err)
{
    if (err->kind != BYOC_E_CANCELLED)
        tui_app_error(s->base.app, "lint: %s", err->message);
}

/* ---- events ---- */

static void on_event(tui_screen *base, const byoc_event *ev)
{
    build_screen *s = (build_screen *)base;
    if (ev->task_id == s->load_task) {
        if (ev->kind == BYOC_EV_DONE)
            load_done(s, ev->result);
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            s->load_task = 0;
        tui_screen_dirty(base);
        return;
    }
    if (!s->running || ev->task_id != s->running_id)
        return;
    if (s->in_flow && s->state == B_PREPARING && (ev->kind == BYOC_EV_LOG || ev->kind == BYOC_EV_PROGRESS))
        s->state = B_BUILDING; /* the build began (its lint's end may have been dropped from a full queue) */
    switch (ev->kind) {
    case BYOC_EV_LOG: {
        log_line(s, ev->text ? ev->text : "");
        byoc_build_event be;
        byoc_build_event_decode(ev, &be);
        if (be.kind == BYOC_BUILD_EV_STEP) {
            s->step_seq = s->log.ring.first_seq + s->log.ring.count - 1;
            s->have_step = true;
            free(s->step_line);
            s->step_line = byoc_xstrdup(ev->text);
            s->step = be.step;
            s->steps = be.steps;
        }
        break;
    }
    case BYOC_EV_PROGRESS:
        if (ev->key && strcmp(ev->key, "context") == 0) {
            s->ctx_sent = ev->current;
            s->ctx_total = ev->total;
        }
        break;
    case BYOC_EV_DATA: {
        byoc_build_event be;
        byoc_build_event_decode(ev, &be);
        if (be.kind == BYOC_BUILD_EV_LINT) {
            lint_finding(s, &be);
        } else if (be.kind == BYOC_BUILD_EV_LINTED) {
            s->linted = true;
            if (be.current == 0 && s->state == B_PREPARING)
                s->state = B_BUILDING;
        }
        break;
    }
    case BYOC_EV_STATUS:
    case BYOC_EV_CHECK:
        break;
    case BYOC_EV_DONE: {
        bool was_prepare = !s->in_flow || s->lint_only;
        set_running(s, NULL);
        if (was_prepare)
            prepared(s, ev->result);
        else
            built(s, ev->result);
        break;
    }
    case BYOC_EV_ERROR:
        set_running(s, NULL);
        if (s->lint_only)
            lint_failed(s, &ev->err);
        else
            failed(s, &ev->err);
        break;
    }
    tui_screen_dirty(base);
}

static bool tick(tui_screen *base, uint64_t now)
{
    build_screen *s = (build_screen *)base;
    if (!running(s)) {
        base->wants_tick = false;
        return false;
    }
    return tui_tick_seconds(now, s->start_ms, &s->shown_secs);
}

/* ---- keys ---- */

static void push_this(build_screen *s)
{
    tui_app *a = s->base.app;
    if (s->state != B_DONE || !s->image_id) {
        tui_app_message(a, "Build an image first (b), or pick one in the image browser (i)");
        return;
    }
    char *ref = byoc_xstrdup(s->image_tags.n ? s->image_tags.v[0] : s->image_id);
    tui_flow_set_image(a, ref, s->image_id);
    tui_app_goto_step(a, TUI_STEP_PUSH);
    tui_app_message(a, "Push: %s selected", ref);
    free(ref);
}

static void stop(build_screen *s)
{
    if (!running(s)) {
        char k[16];
        tui_app_message(s->base.app, "Nothing runs: %s builds", tui_action_key(TUI_CTX_BUILD, TUI_ACT_BUILD, k, sizeof k));
        return;
    }
    byoc_task_cancel(s->running);
    log_line(s, "Cancelling...");
    tui_app_message(s->base.app, "Cancelling the %s", s->lint_only ? "lint" : "build");
}

static bool form_key(build_screen *s, const tui_keyev *ev)
{
    if (ev->action == TUI_ACT_CANCEL || ev->action == TUI_ACT_BACK) {
        s->form_focus = false;
        return true;
    }
    tui_form_result r = tui_form_handle(&s->form, ev->key, ev->action);
    if (r == TUI_FORM_IGNORED)
        return false;
    if (ev->action != TUI_ACT_NEXT_FIELD && ev->action != TUI_ACT_PREV_FIELD && ev->action != TUI_ACT_ACCEPT &&
        ev->action != TUI_ACT_SUBMIT) {
        static const char *const kept[] = {"context", "dockerfile", "tags", "build_args"};
        s->form_dirty = true;
        for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
            s->saved_dirty |= strcmp(s->form.fields[s->form.focus].key, kept[i]) == 0;
    }
    if (r == TUI_FORM_SUBMIT) {
        s->form_focus = false;
        start_prepare(s, false);
    }
    return true;
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    build_screen *s = (build_screen *)base;
    if (s->form_focus && form_key(s, ev))
        return true;
    if (!s->form_focus) {
        if (s->show_findings) {
            if (tui_list_handle(&s->findings, ev->key, ev->action))
                return true;
            if (ev->action == TUI_ACT_OPEN && ev->row && ev->row->ctx == TUI_CTX_LIST) {
                const char *full = tui_list_selected_data(&s->findings);
                if (full)
                    tui_app_alert(base->app, "Lint finding", full);
                return true;
            }
        } else if (tui_logview_handle(&s->log, ev->key, ev->action)) {
            return true;
        }
    }
    switch (ev->action) {
    case TUI_ACT_OPEN: s->form_focus = true; return true;
    case TUI_ACT_BUILD: start_prepare(s, false); return true;
    case TUI_ACT_LINT: start_prepare(s, true); return true;
    case TUI_ACT_STOP: stop(s); return true;
    case TUI_ACT_PUSH_THIS: push_this(s); return true;
    case TUI_ACT_FINDINGS:
        s->show_findings = !s->show_findings;
        if (s->show_findings && !s->linted)
            tui_app_message(base->app, "No lint yet: l lints, b lints and builds");
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    build_screen *s = (build_screen *)base;
    if (max < 4)
        return 0;
    size_t n = 0;
    if (s->form_focus) {
        n = tui_form_contexts(&s->form, out);
        out[n++] = TUI_CTX_BUILD;
    } else if (s->show_findings) {
        n = tui_list_contexts(&s->findings, out);
        out[n++] = TUI_CTX_BUILD;
    } else if (s->log.searching) {
        n = tui_logview_contexts(&s->log, out);
        out[n++] = TUI_CTX_BUILD;
    } else {
        out[n++] = TUI_CTX_BUILD;
        n += tui_logview_contexts(&s->log, out + n);
    }
    return n;
}

/* ---- drawing ---- */

static void elapsed_text(const build_screen *s, char *buf, size_t size)
{
    uint64_t end = s->end_ms ? s->end_ms : tui_now_ms();
    tui_fmt_duration((int64_t)((end - s->start_ms) / 1000), buf, size);
}

/* The settings in two lines, while the form is not on show. */
static void draw_summary(build_screen *s, WINDOW *win, int y, int x, int w)
{
    const char *tags = tui_form_value(&s->form, "tags"), *args = tui_form_value(&s->form, "build_args");
    char *line = byoc_xasprintf("Context %s  Dockerfile %s", tui_form_value(&s->form, "context"),
                                tui_form_value(&s->form, "dockerfile"));
    tui_draw_fit(win, y, x, w, TUI_STY_NORMAL, line);
    free(line);
    line = byoc_xasprintf("Tags %s%s%s", tags && *tags ? tags : "(none)", args && *args ? "  Build args " : "",
                          args && *args ? args : "");
    tui_draw_fit(win, y + 1, x, w, TUI_STY_NORMAL, line);
    free(line);
}

static void draw_lint_line(build_screen *s, WINDOW *win, int y, int x, int w)
{
    const char *on = tui_form_value(&s->form, "lint");
    bool lint_on = !on || strcmp(on, "true") == 0;
    char line[256];
    tui_style sty = TUI_STY_DIM;
    if (s->linted) {
        if (s->lint_errors + s->lint_warnings + s->lint_notes == 0)
            snprintf(line, sizeof line, "Lint: clean%s", lint_on ? "" : " (off for builds)");
        else
            snprintf(line, sizeof line, "Lint: %zu error%s, %zu warning%s, %zu note%s (f shows them)%s",
                     s->lint_errors, s->lint_errors == 1 ? "" : "s", s->lint_warnings,
                     s->lint_warnings == 1 ? "" : "s", s->lint_notes, s->lint_notes == 1 ? "" : "s",
                     lint_on ? "" : "; off for builds");
        sty = s->lint_errors ? TUI_STY_ERROR : s->lint_warnings ? TUI_STY_WARN : TUI_STY_OK;
    } else {
        snprintf(line, sizeof line, lint_on ? "Lint: runs before each build (l lints now)" : "Lint: off");
    }
    tui_whole_fit(win, y, x, w, sty, "Lint", line, NULL);
}

/* What the whole view shows of a failure: the status line, then the failing step and its output
 * from the log (as much of it as the log still holds, up to WHOLE_LOG_MAX lines). */
static char *failure_text(const build_screen *s, const char *status)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, status);
    const tui_logring *ring = &s->log.ring;
    if (s->state == B_FAILED && s->have_step && s->step_seq >= ring->first_seq) {
        byoc_buf_puts(&b, "\n\nThe step that failed, and its output:");
        size_t count = tui_logring_count(ring);
        for (size_t i = (size_t)(s->step_seq - ring->first_seq), n = 0; i < count && n < WHOLE_LOG_MAX; i++, n++)
            byoc_buf_printf(&b, "\n%s", tui_logring_get(ring, i)->text);
    }
    return byoc_buf_steal(&b);
}

static void draw_status_line(build_screen *s, WINDOW *win, int y, int x, int w)
{
    char el[32], buf[1024];
    elapsed_text(s, el, sizeof el);
    tui_style sty = TUI_STY_NORMAL;
    switch (s->state) {
    case B_IDLE:
        if (s->load_error) {
            snprintf(buf, sizeof buf, "%s", s->load_error);
            sty = TUI_STY_ERROR;
        } else {
            char k[16];
            snprintf(buf, sizeof buf, "Ready: %s builds with these settings (Enter changes them)",
                     tui_action_key(TUI_CTX_BUILD, TUI_ACT_BUILD, k, sizeof k));
            sty = TUI_STY_DIM;
        }
        break;
    case B_PREPARING:
        snprintf(buf, sizeof buf, "%s  %s", s->snap.lint ? "Linting..." : "Preparing...", el);
        break;
    case B_BUILDING:
        if (s->step)
            snprintf(buf, sizeof buf, "Step %d/%d  %s  %s", s->step, s->steps, el,
                     s->step_line && strstr(s->step_line, " : ") ? strstr(s->step_line, " : ") + 3 : "");
        else if (s->ctx_total > 0)
            snprintf(buf, sizeof buf, "Sending the context %d%%  %s", (int)(100 * s->ctx_sent / s->ctx_total), el);
        else
            snprintf(buf, sizeof buf, "Starting the build  %s", el);
        sty = TUI_STY_LABEL_FOCUS;
        break;
    case B_DONE: {
        char id[16], size[32], k[16];
        tui_image_short_id(s->image_id, id, sizeof id);
        byoc_fmt_bytes(s->image_size, size, sizeof size);
        snprintf(buf, sizeof buf, "Built %s  %s  in %s  %s pushes it  %s%s", id, s->image_size >= 0 ? size : "",
                 el, tui_action_key(TUI_CTX_BUILD, TUI_ACT_PUSH_THIS, k, sizeof k),
                 s->image_tags.n ? s->image_tags.v[0] : "", s->image_tags.n > 1 ? " +more" : "");
        sty = TUI_STY_OK;
        break;
    }
    case B_FAILED:
        if (s->have_step)
            snprintf(buf, sizeof buf, "Failed at step %d/%d (%s): %s", s->step, s->steps, el,
                     s->error ? s->error : "");
        else
            snprintf(buf, sizeof buf, "Failed (%s): %s", el, s->error ? s->error : "");
        sty = TUI_STY_ERROR;
        break;
    case B_CANCELLED:
        snprintf(buf, sizeof buf, "Build cancelled after %s", el);
        sty = TUI_STY_WARN;
        break;
    case B_LINT_FAILED:
        snprintf(buf, sizeof buf, "%zu lint error%s stop the build (or set Lint first off)",
                 s->lint_errors, s->lint_errors == 1 ? "" : "s");
        sty = TUI_STY_ERROR;
        break;
    }
    char *full = s->state == B_FAILED ? failure_text(s, buf) : NULL;
    tui_whole_fit(win, y, x, w, sty, s->state == B_FAILED ? "The build failed" : "Build", buf, full);
    free(full);
}

/* Errors in the log in the error style, the failing step in the warning style. */
static void highlight_log(build_screen *s, WINDOW *win, tui_rect r)
{
    tui_logview *v = &s->log;
    int text_h = r.h >= 3 ? r.h - 1 : r.h;
    size_t i = tui_logview_first_index(v), count = tui_logring_count(&v->ring);
    int sub = v->top_sub, y = r.y;
    while (y < r.y + text_h && i < count) {
        const tui_log_line *l = tui_logring_get(&v->ring, i);
        uint64_t seq = v->ring.first_seq + i;
        int rows = tui_logview_line_rows(v, i);
        bool failing_step = s->state == B_FAILED && s->have_step && seq == s->step_seq;
        tui_style sty = failing_step ? TUI_STY_WARN : tui_build_line_is_error(l->text) ? TUI_STY_ERROR
                                                                                       : TUI_STY_NORMAL;
        for (int k = sub; k < rows && y < r.y + text_h; k++, y++) {
            if (sty == TUI_STY_NORMAL)
                continue;
            short pair;
            attr_t at = tui_style_attrs(sty, &pair);
            mvwchgat(win, y, r.x, r.w, at, pair, NULL);
        }
        sub = 0;
        i++;
    }
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    build_screen *s = (build_screen *)base;
    if (!s->started) {
        s->started = true;
        s->want_load = true;
    }
    if (s->want_load)
        start_load(s);
    if (r.h < 8 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int x = r.x + 1, w = r.w - 1, y = r.y;
    tui_draw_fit(win, y++, x, w, TUI_STY_LABEL_FOCUS, tui_step_purpose(base->step));
    if (s->form_focus || r.h >= TALL_MIN) {
        int fh = tui_form_lines_at(&s->form, w);
        if (fh > r.h - 8)
            fh = r.h - 8;
        tui_form_draw(&s->form, win, (tui_rect){y, x, fh, w}, s->form_focus);
        y += fh;
    } else {
        draw_summary(s, win, y, x, w);
        y += 2;
    }
    draw_lint_line(s, win, y++, x, w);
    draw_status_line(s, win, y++, x, w);
    bool pane_focus = !s->form_focus;
    tui_draw_hline(win, y, r.x, r.w, pane_focus ? TUI_STY_BORDER_FOCUS : TUI_STY_BORDER);
    tui_draw_fit(win, y, r.x + 2, r.w - 4, TUI_STY_HEADING,
                 s->show_findings ? " Lint findings (f: the build log) " : " Build log (f: the lint findings) ");
    y++;
    tui_rect pane = {y, r.x, r.y + r.h - y, r.w};
    if (pane.h < 2)
        return;
    if (s->show_findings) {
        tui_list_draw(&s->findings, win, pane, pane_focus);
        const char *full = tui_list_selected_data(&s->findings);
        if (full && tui_text_width(full) > pane.w)     /* its row is cut: Enter or the whole key show it */
            tui_whole_note("Lint finding", full);
    } else {
        tui_logview_draw(&s->log, win, pane, pane_focus);
        highlight_log(s, win, pane);
    }
}

static void title(tui_screen *base, char *buf, size_t size)
{
    build_screen *s = (build_screen *)base;
    char id[16];
    switch (s->state) {
    case B_PREPARING: snprintf(buf, size, "2 Build: %s", s->snap.lint ? "linting" : "preparing"); break;
    case B_BUILDING: snprintf(buf, size, "2 Build: building step %d/%d", s->step, s->steps); break;
    case B_DONE:
        tui_image_short_id(s->image_id, id, sizeof id);
        snprintf(buf, size, "2 Build: built %s", id);
        break;
    case B_FAILED: snprintf(buf, size, "2 Build: failed"); break;
    case B_CANCELLED: snprintf(buf, size, "2 Build: cancelled"); break;
    case B_LINT_FAILED: snprintf(buf, size, "2 Build: lint errors"); break;
    default: snprintf(buf, size, "2 Build"); break;
    }
}

static void enter(tui_screen *base)
{
    build_screen *s = (build_screen *)base;
    if (s->started && !s->form_dirty && !running(s))
        s->want_load = true;             /* Decide may have scaffolded a new byoc.json */
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    build_screen *s = (build_screen *)base;
    tui_form_clear(&s->form);
    tui_logview_clear(&s->log);
    tui_list_clear(&s->findings);
    tui_build_settings_clear(&s->snap);
    free(s->project_name);
    free(s->load_error);
    free(s->step_line);
    free(s->error);
    free(s->image_id);
    byoc_strv_clear(&s->image_tags);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "build",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_build_new(tui_app *app)
{
    build_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_BUILD);
    tui_form_init(&s->form);
    tui_build_form_build(&s->form);
    tui_logview_init(&s->log, 5000, 4u << 20);
    tui_list_init(&s->findings, finding_columns, 4);
    s->findings.data_free = free;
    s->findings.empty_text = "No findings";
    s->image_size = -1;
    return &s->base;
}
