/* screen_monitor: the Monitor step. A table of jobs (name, status with a
 * symbol and colour, device, instance, created, duration), AWS jobs from
 * SearchJobs and local jobs from the local record in the same table;
 * filtered by status (f cycles) and by name (/); refreshed on its own every
 * few seconds with "updated Ns ago" in view. Enter opens a job (job_view.h);
 * c cancels the selected job after a confirmation. A job handed over by Run
 * (flow.h) is selected when it appears. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "background.h"
#include "core/buf.h"
#include "flow.h"
#include "job_status.h"
#include "job_view.h"
#include "list.h"
#include "monitor_tasks.h"
#include "progress.h"
#include "screens.h"
#include "steps.h"

#define REFRESH_ACTIVE_MS 3000     /* while a job is queued or running */
#define REFRESH_IDLE_MS 15000

typedef struct monitor_screen {
    tui_screen base;
    tui_list jobs;
    json_t *rows;                  /* the last list, for the table and the filters */
    json_t *known;                 /* arn -> instance */
    int status_filter;
    uint64_t list_task;
    bool listing;
    uint64_t updated_ms;           /* last successful list */
    uint64_t last_try_ms;
    long shown_age;
    char *error;
    char *want_arn;                /* select this job when it shows up */
    unsigned flow_serial;
    char *cancel_arn;              /* the job the open confirmation is about */
    bool list_on_draw;
} monitor_screen;

static const tui_column columns[] = {
    {"Name", 16, 2, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Status", 12, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Device", 10, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Instance", 12, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Created", 11, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Duration", 8, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
};
#define NCOLS (sizeof columns / sizeof columns[0])

static const char *const filters[] = {"all", "active", "COMPLETED", "FAILED", "CANCELLED"};
#define NFILTERS (sizeof filters / sizeof filters[0])

static const char *member(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static bool active(const char *status)
{
    return strcmp(status, "QUEUED") == 0 || strcmp(status, "RUNNING") == 0 || strcmp(status, "CANCELLING") == 0;
}

static bool passes(const monitor_screen *s, const char *status)
{
    if (s->status_filter == 0)
        return true;
    if (s->status_filter == 1)
        return active(status);
    return strcmp(status, filters[s->status_filter]) == 0;
}

static void fmt_created(double t, char *buf, size_t size)
{
    if (isnan(t)) {
        snprintf(buf, size, "-");
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    localtime_r(&tt, &tm);
    strftime(buf, size, "%m-%d %H:%M", &tm);
}

static void fmt_duration(const json_t *row, char *buf, size_t size)
{
    double start = json_is_number(json_object_get(row, "started")) ? json_number_value(json_object_get(row, "started"))
                                                                    : NAN;
    double end = json_is_number(json_object_get(row, "ended")) ? json_number_value(json_object_get(row, "ended"))
                                                                : NAN;
    if (isnan(start)) {
        snprintf(buf, size, "-");
        return;
    }
    if (isnan(end))
        end = (double)time(NULL);
    tui_fmt_duration((int64_t)(end - start), buf, size);
}

static void fill_table(monitor_screen *s)
{
    char *keep = NULL;
    const char *sel = tui_list_selected_data(&s->jobs);
    keep = byoc_xstrdup(s->want_arn ? s->want_arn : sel ? sel : "");
    tui_list_clear(&s->jobs);
    size_t i;
    json_t *row;
    json_array_foreach(s->rows, i, row) {
        const char *status = member(row, "status");
        if (!passes(s, status))
            continue;
        char st[48], created[32], dur[32];
        tui_job_status_text(status, st, sizeof st);
        fmt_created(json_is_number(json_object_get(row, "created")) ? json_number_value(json_object_get(row, "created"))
                                                                      : NAN,
                    created, sizeof created);
        fmt_duration(row, dur, sizeof dur);
        const char *cells[NCOLS] = {member(row, "name"), st, tui_job_device_short(member(row, "device")),
                                    member(row, "instance"), created, dur};
        size_t n = tui_list_add(&s->jobs, cells, byoc_xstrdup(member(row, "arn")));
        if (*keep && strcmp(keep, member(row, "arn")) == 0) {
            tui_list_select_row(&s->jobs, n);
            if (s->want_arn) {
                free(s->want_arn);
                s->want_arn = NULL;
            }
        }
    }
    free(keep);
}

static bool any_active(const monitor_screen *s)
{
    size_t i;
    json_t *row;
    json_array_foreach(s->rows, i, row) if (active(member(row, "status"))) return true;
    return false;
}

/* ---- listing ---- */

static void start_list(monitor_screen *s)
{
    if (s->listing)
        return;
    const byoc_globals *g = tui_app_globals(s->base.app);
    tui_mon_args *a = tui_mon_args_new(g->profile, g->region, NULL);
    a->known = json_deep_copy(s->known);
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "list jobs", tui_mon_list_task, a,
                                                 tui_mon_args_free);
    s->last_try_ms = tui_now_ms();
    if (t) {
        s->listing = true;
        s->list_task = byoc_task_id(t);
    }
}

static void listed(monitor_screen *s, json_t *rows)
{
    json_decref(s->rows);
    s->rows = json_incref(rows);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        const json_t *inst = json_object_get(row, "instance");
        if (json_is_string(inst) && !json_is_true(json_object_get(row, "local")))
            json_object_set(s->known, member(row, "arn"), (json_t *)inst);
    }
    s->updated_ms = tui_now_ms();
    free(s->error);
    s->error = NULL;
    fill_table(s);
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    monitor_screen *s = (monitor_screen *)base;
    if (ev->task_id == s->list_task) {
        if (ev->kind == BYOC_EV_DONE)
            listed(s, ev->result);
        if (ev->kind == BYOC_EV_ERROR) {
            free(s->error);
            s->error = byoc_xstrdup(ev->err.message);
        }
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            s->listing = false;
        tui_screen_dirty(base);
        return;
    }
    if (ev->kind == BYOC_EV_DONE) {            /* a cancel */
        tui_app_message(base->app, "Cancel sent: the job is %s", (const char *)ev->result);
        start_list(s);
    } else if (ev->kind == BYOC_EV_ERROR) {
        tui_app_error(base->app, "cancel: %s", ev->err.message);
    }
    tui_screen_dirty(base);
}

static bool tick(tui_screen *base, uint64_t now)
{
    monitor_screen *s = (monitor_screen *)base;
    uint64_t every = any_active(s) ? REFRESH_ACTIVE_MS : REFRESH_IDLE_MS;
    if (!s->listing && s->last_try_ms && now - s->last_try_ms >= every)
        start_list(s);
    long age = s->updated_ms ? (long)((now - s->updated_ms) / 1000) : -1;
    if (age == s->shown_age)
        return false;
    s->shown_age = age;
    return true;
}

/* ---- keys ---- */

static void cancel_answer(tui_app *a, bool yes, void *ud)
{
    monitor_screen *s = ud;
    if (yes && s->cancel_arn) {
        const byoc_globals *g = tui_app_globals(a);
        tui_app_start_task(a, &s->base, "cancel job", tui_mon_cancel_task,
                           tui_mon_args_new(g->profile, g->region, s->cancel_arn), tui_mon_args_free);
    }
    free(s->cancel_arn);
    s->cancel_arn = NULL;
}

static void cancel_selected(monitor_screen *s)
{
    const char *arn = tui_list_selected_data(&s->jobs);
    if (!arn) {
        tui_app_message(s->base.app, "No job selected");
        return;
    }
    if (strncmp(arn, "local:", 6) == 0) {
        tui_app_message(s->base.app, "A local job is cancelled where it runs (Run: c, or Ctrl-C in byoc run)");
        return;
    }
    long sel = tui_list_selected(&s->jobs);
    const char *name = s->jobs.rows[s->jobs.view[sel]].cells[0];
    free(s->cancel_arn);
    s->cancel_arn = byoc_xstrdup(arn);
    char *text = byoc_xasprintf("Cancel job %s?\n%s\nIt stops and cannot be resumed.", name, arn);
    tui_app_confirm(s->base.app, "Cancel job", text, "Cancel job", cancel_answer, s);
    free(text);
}

static void open_selected(monitor_screen *s)
{
    const char *arn = tui_list_selected_data(&s->jobs);
    if (!arn) {
        tui_app_message(s->base.app, "No job selected");
        return;
    }
    tui_app_push(s->base.app, tui_job_view_new(s->base.app, arn));
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    monitor_screen *s = (monitor_screen *)base;
    if (ev->action == TUI_ACT_OPEN && !s->jobs.filtering) {
        open_selected(s);
        return true;
    }
    if (tui_list_handle(&s->jobs, ev->key, ev->action))
        return true;
    switch (ev->action) {
    case TUI_ACT_STATUS_FILTER:
        s->status_filter = (s->status_filter + 1) % (int)NFILTERS;
        fill_table(s);
        return true;
    case TUI_ACT_REFRESH:
        start_list(s);
        return true;
    case TUI_ACT_CANCEL_JOB:
        cancel_selected(s);
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    monitor_screen *s = (monitor_screen *)base;
    if (max < 4)
        return 0;
    size_t n = tui_list_contexts(&s->jobs, out);
    if (!s->jobs.filtering)
        out[n++] = TUI_CTX_MONITOR;
    return n;
}

/* ---- drawing ---- */

static void colour_status(monitor_screen *s, WINDOW *win, tui_rect r)
{
    int widths[NCOLS];
    tui_list_layout(columns, NCOLS, r.w, widths);
    if (widths[1] <= 0)
        return;
    int x = r.x + widths[0] + 1;
    size_t n = tui_list_visible(&s->jobs);
    for (int i = 0; i < s->jobs.height && s->jobs.top + (size_t)i < n; i++) {
        size_t vi = s->jobs.top + (size_t)i;
        if ((long)vi == s->jobs.sel)
            continue;
        const char *cell = s->jobs.rows[s->jobs.view[vi]].cells[1];
        const char *sp = strchr(cell, ' ');
        short pair;
        attr_t at = tui_style_attrs(tui_job_status_style(sp ? sp + 1 : cell), &pair);
        mvwchgat(win, r.y + 1 + i, x, widths[1], at, pair, NULL);
    }
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    monitor_screen *s = (monitor_screen *)base;
    if (s->list_on_draw) {
        s->list_on_draw = false;
        start_list(s);
    }
    if (r.h < 5 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    char head[512], age[32];
    if (s->updated_ms)
        tui_fmt_duration((int64_t)((tui_now_ms() - s->updated_ms) / 1000), age, sizeof age);
    snprintf(head, sizeof head, "Status: %s   %s%s%s", filters[s->status_filter],
             s->updated_ms ? "updated " : "", s->updated_ms ? age : s->listing ? "listing..." : "",
             s->updated_ms ? " ago" : "");
    tui_draw_fit(win, r.y, r.x + 1, r.w - 1, TUI_STY_NORMAL, head);
    int y = r.y + 1;
    if (s->error) {
        char *line = byoc_xasprintf("error: %s", s->error);
        tui_draw_fit(win, y++, r.x + 1, r.w - 1, TUI_STY_ERROR, line);
        free(line);
    }
    tui_rect list = {y, r.x, r.y + r.h - y, r.w};
    tui_list_draw(&s->jobs, win, list, true);
    colour_status(s, win, list);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    monitor_screen *s = (monitor_screen *)base;
    char count[64];
    tui_list_count_text(&s->jobs, count, sizeof count);
    snprintf(buf, size, "6 Monitor: %s", count);
}

static void enter(tui_screen *base)
{
    monitor_screen *s = (monitor_screen *)base;
    const tui_flow *f = tui_flow_get(base->app);
    if (f->serial != s->flow_serial) {
        s->flow_serial = f->serial;
        if (f->job_arn) {
            free(s->want_arn);
            s->want_arn = byoc_xstrdup(f->job_arn);
        }
    }
    base->wants_tick = true;
    s->list_on_draw = true;         /* listing starts once the screen is really shown */
    tui_screen_dirty(base);
}

static void leave(tui_screen *base)
{
    base->wants_tick = false;
}

static void destroy(tui_screen *base)
{
    monitor_screen *s = (monitor_screen *)base;
    tui_list_free(&s->jobs);
    json_decref(s->rows);
    json_decref(s->known);
    free(s->error);
    free(s->want_arn);
    free(s->cancel_arn);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "monitor",
    .destroy = destroy,
    .enter = enter,
    .leave = leave,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_monitor_new(tui_app *app)
{
    monitor_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_MONITOR);
    s->base.wide = true;
    tui_list_init(&s->jobs, columns, NCOLS);
    s->jobs.data_free = free;
    s->jobs.empty_text = "No jobs yet: Run creates one";
    s->rows = json_array();
    s->known = json_object();
    s->shown_age = -2;
    return &s->base;
}
