/* screen_monitor: the Monitor step. A table of jobs (name, status with a
 * symbol and colour, device, instance, created, duration), AWS jobs from
 * SearchJobs and local jobs from the local record in the same table;
 * filtered by status (f cycles) and by name (/); refreshed on its own every
 * few seconds with "updated Ns ago" in view. Every page of SearchJobs is
 * listed in the background: the first listing fills the table page by page,
 * later ones replace it when complete (the head counts the rows meanwhile).
 * Enter opens a job (screen_job.h); c cancels the selected job (AWS or local)
 * after a confirmation whose default is No. A job handed over by Run
 * (flow.h) is selected when it appears. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "background.h"
#include "core/buf.h"
#include "core/str.h"
#include "flow.h"
#include "job_status.h"
#include "screen_job.h"
#include "list.h"
#include "monitor_tasks.h"
#include "progress.h"
#include "screens.h"
#include "steps.h"
#include "whole.h"

#define REFRESH_ACTIVE_MS 3000     /* while a job is queued or running */
#define REFRESH_IDLE_MS 15000
#define REFRESH_LIST_FACTOR 4      /* and never sooner than 4x the last listing took */

typedef struct monitor_screen {
    tui_screen base;
    tui_list jobs;                 /* row data: the ARN, pointing into rows or building */
    byoc_job_rows rows;             /* the last complete listing */
    byoc_job_rows building;         /* the listing under way */
    bool showing_building;         /* the first listing: its rows show as they arrive */
    bool any_active;               /* a row is QUEUED, RUNNING or CANCELLING */
    byoc_jobs_lister *lister;
    int status_filter;
    char empty_text[128];     /* the table's, for the rows and filter of the last fill */
    uint64_t list_task;
    bool listing;
    uint64_t list_started_ms, list_took_ms;
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

/* Times come from the service or the local record: a value no time_t can
 * hold (or NaN) shows as "-" instead of an undefined conversion. */
static bool time_ok(double t)
{
    return t > -1e15 && t < 1e15;
}

static void fmt_created(double t, char *buf, size_t size)
{
    if (!time_ok(t)) {
        snprintf(buf, size, "-");
        return;
    }
    time_t tt = (time_t)t;
    struct tm tm;
    localtime_r(&tt, &tm);
    strftime(buf, size, "%m-%d %H:%M", &tm);
}

static void fmt_duration(const byoc_job_row *row, char *buf, size_t size)
{
    double end = isnan(row->ended) ? (double)time(NULL) : row->ended;
    if (!time_ok(row->started) || !time_ok(end)) {
        snprintf(buf, size, "-");
        return;
    }
    tui_fmt_duration((int64_t)(end - row->started), buf, size);
}

static const byoc_job_rows *shown_rows(const monitor_screen *s)
{
    return s->showing_building ? &s->building : &s->rows;
}

/* Rows [from, n) of the shown set into the table; selects want_arn (a job
 * from Run) when it comes, else keep (the selection before a rebuild). */
static void add_to_table(monitor_screen *s, size_t from, const char *keep)
{
    const byoc_job_rows *set = shown_rows(s);
    for (size_t i = from; i < set->n; i++) {
        const byoc_job_row *row = &set->items[i];
        if (!passes(s, row->status))
            continue;
        char st[48], created[32], dur[32];
        tui_job_status_text(row->status, st, sizeof st);
        fmt_created(row->created, created, sizeof created);
        fmt_duration(row, dur, sizeof dur);
        const char *cells[NCOLS] = {row->name, st, tui_job_device_short(row->device), row->instance, created, dur};
        size_t n = tui_list_add(&s->jobs, cells, (void *)row->arn);
        if (s->want_arn && strcmp(s->want_arn, row->arn) == 0) {
            tui_list_select_row(&s->jobs, n);
            free(s->want_arn);
            s->want_arn = NULL;
        } else if (!s->want_arn && keep && strcmp(keep, row->arn) == 0) {
            tui_list_select_row(&s->jobs, n);
        }
    }
}

static void fill_table(monitor_screen *s)
{
    const char *sel = tui_list_selected_data(&s->jobs);
    char *keep = byoc_xstrdup_opt(sel);
    tui_list_reset(&s->jobs);
    add_to_table(s, 0, keep);
    free(keep);
    tui_mon_empty_text(shown_rows(s)->n, filters[s->status_filter], s->empty_text, sizeof s->empty_text);
}

static bool compute_any_active(const byoc_job_rows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        if (active(rows->items[i].status))
            return true;
    return false;
}

/* ---- listing ---- */

static void start_list(monitor_screen *s)
{
    if (s->listing)
        return;
    byoc_jobs_args *a = tui_mon_args(s->base.app, NULL);
    a->lister = byoc_jobs_lister_ref(s->lister);
    byoc_job_rows_clear(&s->building);
    s->showing_building = s->updated_ms == 0;
    if (s->showing_building)
        tui_list_reset(&s->jobs);
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "list jobs", byoc_jobs_list_task, a,
                                                 byoc_jobs_args_free);
    s->last_try_ms = s->list_started_ms = tui_now_ms();
    if (t) {
        s->listing = true;
        s->list_task = byoc_task_id(t);
    }
}

/* Rows the list task handed over: into the listing under way (and the table
 * when that is shown). */
static void take_rows(monitor_screen *s)
{
    size_t from = s->building.n;
    if (!byoc_jobs_lister_take(s->lister, &s->building))
        return;
    if (s->showing_building) {
        add_to_table(s, from, NULL);
        tui_mon_empty_text(s->building.n, filters[s->status_filter], s->empty_text, sizeof s->empty_text);
    }
}

/* The listing ended: complete (ok) or not. */
static void listed(monitor_screen *s, bool ok)
{
    take_rows(s);
    s->listing = false;
    s->list_took_ms = tui_now_ms() - s->list_started_ms;
    if (!ok && !s->showing_building) {
        byoc_job_rows_clear(&s->building);   /* keep the last complete listing */
        return;
    }
    byoc_job_rows_swap(&s->rows, &s->building);
    if (!s->showing_building)
        fill_table(s);                     /* its ARNs pointed into the old rows */
    s->showing_building = false;
    byoc_job_rows_clear(&s->building);
    s->any_active = compute_any_active(&s->rows);
    if (ok) {
        s->updated_ms = tui_now_ms();
        free(s->error);
        s->error = NULL;
    }
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    monitor_screen *s = (monitor_screen *)base;
    if (ev->task_id == s->list_task) {
        if (ev->kind == BYOC_EV_PROGRESS)
            take_rows(s);
        if (ev->kind == BYOC_EV_ERROR) {
            free(s->error);
            s->error = byoc_xstrdup(ev->err.message);
        }
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            listed(s, ev->kind == BYOC_EV_DONE);
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
    uint64_t every = s->any_active ? REFRESH_ACTIVE_MS : REFRESH_IDLE_MS;
    if (every < s->list_took_ms * REFRESH_LIST_FACTOR)
        every = s->list_took_ms * REFRESH_LIST_FACTOR;
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
        tui_app_start_task(a, &s->base, "cancel job", byoc_jobs_cancel_task, tui_mon_args(a, s->cancel_arn),
                           byoc_jobs_args_free);
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
    long sel = tui_list_selected(&s->jobs);
    const char *name = s->jobs.rows[sel].cells[0];
    free(s->cancel_arn);
    s->cancel_arn = byoc_xstrdup(arn);
    bool local = strncmp(arn, "local:", 6) == 0;
    char *text = byoc_xasprintf("Cancel job %s?\n%s\n%s", name, arn,
                                local ? "Its container is stopped and removed; it cannot be resumed."
                                      : "It stops and cannot be resumed.");
    tui_app_confirm(s->base.app, "Cancel job", text, "Cancel job", cancel_answer, s);
    tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);
    free(text);
}

static void open_selected(monitor_screen *s)
{
    const char *arn = tui_list_selected_data(&s->jobs);
    if (!arn) {
        tui_app_message(s->base.app, "No job selected");
        return;
    }
    tui_app_push(s->base.app, tui_screen_job_new(s->base.app, arn));
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
    char progress[64] = "";
    if (s->listing)
        snprintf(progress, sizeof progress, "%slisting... %zu jobs", s->updated_ms ? "   " : "",
                 s->building.n);
    snprintf(head, sizeof head, "Status: %s   %s%s%s%s", filters[s->status_filter],
             s->updated_ms ? "updated " : "", s->updated_ms ? age : "", s->updated_ms ? " ago" : "", progress);
    tui_draw_fit(win, r.y, r.x + 1, r.w - 1, TUI_STY_NORMAL, head);
    int y = r.y + 1;
    if (s->error) {
        char *line = byoc_xasprintf("error: %s", s->error);
        tui_whole_fit(win, y++, r.x + 1, r.w - 1, TUI_STY_ERROR, "Listing the jobs failed", line, NULL);
        free(line);
    }
    tui_rect list = {y, r.x, r.y + r.h - y, r.w};
    tui_list_draw(&s->jobs, win, list, true);
    base->about = tui_list_selected_rect(&s->jobs, list);   /* the job c asks about */
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
    tui_list_clear(&s->jobs);
    byoc_job_rows_clear(&s->rows);
    byoc_job_rows_clear(&s->building);
    byoc_jobs_lister_unref(s->lister);
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
    tui_mon_empty_text(0, filters[0], s->empty_text, sizeof s->empty_text);
    s->jobs.empty_text = s->empty_text;
    byoc_job_rows_init(&s->rows);
    byoc_job_rows_init(&s->building);
    s->lister = byoc_jobs_lister_new();
    s->shown_age = -2;
    return &s->base;
}
