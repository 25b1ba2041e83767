#include "screen_job.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "background.h"
#include "byoc/results.h"
#include "metrics_tab.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "flow.h"
#include "job_model.h"
#include "job_status.h"
#include "logview.h"
#include "monitor_tasks.h"
#include "page.h"
#include "progress.h"
#include "text.h"

enum { TAB_OVERVIEW, TAB_LOGS, TAB_METRICS, TAB_COUNT };
static const char *const tab_names[TAB_COUNT] = {"Overview", "Logs", "Metrics"};

typedef struct job_screen {
    tui_screen base;
    char *arn;
    bool local;
    int tab;
    tui_page page;
    tui_logview log;
    byoc_jobs_shared *shared;
    uint64_t watch_id;           /* the watch task's id (0: not started) */
    uint64_t cancel_id, results_id;
    tui_job_model m;             /* what the watch task reported */
    tui_metrics_tab metrics;
    tui_progress download;
    bool downloading;
    char *results_note;
} job_screen;

static const char *member(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const char *job_name(const job_screen *v)
{
    const char *n = member(v->m.job, "job_name");
    return *n ? n : v->arn;
}

/* ---- overview ---- */

static void kv_json(tui_page *p, const char *key, const json_t *v)
{
    if (!v || json_is_null(v))
        return;
    if (json_is_string(v)) {
        tui_page_kv(p, key, json_string_value(v));
        return;
    }
    char *text = byoc_json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (text)
        tui_page_kv(p, key, text);
    free(text);
}

static void fill_overview(job_screen *v)
{
    tui_page *p = &v->page;
    int top = p->top;
    tui_page_reset(p);
    const json_t *j = v->m.job;
    char st[64];
    tui_job_status_text(member(j, "status"), st, sizeof st);
    tui_page_kv(p, "Job", job_name(v));
    tui_page_kv(p, "ARN", v->arn);
    tui_page_kv(p, "Status", st);
    const json_t *q = json_object_get(j, "queue");
    if (q) {
        char *line = byoc_xasprintf("%s in %s%s%s", member(q, "position"), member(q, "name"),
                                    *member(q, "message") ? ": " : "", member(q, "message"));
        tui_page_kv(p, "Queue position", line);
        free(line);
    }
    const char *why = member(j, "failure_reason");
    if (*why)
        tui_page_kv(p, "Failure reason", why);
    kv_json(p, "Device", json_object_get(j, "device"));
    kv_json(p, "Created", json_object_get(j, "created"));
    kv_json(p, "Started", json_object_get(j, "started"));
    kv_json(p, "Ended", json_object_get(j, "ended"));
    if (v->local) {
        kv_json(p, "Image", json_object_get(j, "image"));
        kv_json(p, "Exit code", json_object_get(j, "exit_code"));
        kv_json(p, "Output", json_object_get(j, "output_dir"));
    }
    if (v->results_note)
        tui_page_kv(p, "Results", v->results_note);
    const json_t *events = json_object_get(j, "events");
    if (json_array_size(events)) {
        tui_page_blank(p);
        tui_page_heading(p, "Timeline");
        size_t i;
        const json_t *e;
        json_array_foreach(events, i, e) {
            char *line = byoc_xasprintf("%s%s%s", member(e, "type"), *member(e, "message") ? ": " : "",
                                        member(e, "message"));
            tui_page_kv(p, member(e, "time"), line);
            free(line);
        }
    }
    const json_t *c = v->m.config;
    if (c) {
        const json_t *hp = json_object_get(c, "hyperParameters");
        tui_page_blank(p);
        tui_page_heading(p, "Hyperparameters");
        if (json_object_size(hp) == 0)
            tui_page_text(p, TUI_STY_DIM, "(none)");
        const char *k;
        const json_t *val;
        json_object_foreach((json_t *)hp, k, val) kv_json(p, k, val);
        tui_page_blank(p);
        tui_page_heading(p, "Config");
        static const char *const keys[] = {"algorithmSpecification", "instanceConfig", "roleArn", "deviceConfig",
                                           "inputDataConfig", "outputDataConfig", "checkpointConfig",
                                           "stoppingCondition", "tags"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            kv_json(p, keys[i], json_object_get(c, keys[i]));
    }
    p->top = top;
}

/* ---- events ---- */

static void on_line(const char *line, double ts, void *ud)
{
    tui_logview_append(&((job_screen *)ud)->log, line, ts);
}

static void on_watch_event(job_screen *v, const byoc_event *ev)
{
    if (tui_job_model_event(&v->m, ev, on_line, v))
        fill_overview(v);
}

static void start_watch(job_screen *v);

static void on_event(tui_screen *base, const byoc_event *ev)
{
    job_screen *v = (job_screen *)base;
    if (ev->task_id == v->watch_id) {
        on_watch_event(v, ev);
    } else if (ev->task_id == v->cancel_id) {
        if (ev->kind == BYOC_EV_DONE) {
            tui_app_message(base->app, "Cancel sent: %s is %s", job_name(v), (const char *)ev->result);
            if (v->shared)
                atomic_store(&v->shared->poke, 1);
        } else if (ev->kind == BYOC_EV_ERROR) {
            tui_app_error(base->app, "cancel: %s", ev->err.message);
        }
    } else if (ev->task_id == v->results_id) {
        if (ev->kind == BYOC_EV_PROGRESS) {
            tui_progress_update(&v->download, ev->current, ev->total, tui_now_ms());
        } else if (ev->kind == BYOC_EV_DONE) {
            const byoc_unpacked *u = ev->result;
            v->downloading = false;
            free(v->results_note);
            v->results_note = byoc_xasprintf("%zu file%s in %s", u->files.n, u->files.n == 1 ? "" : "s", u->dir);
            tui_app_message(base->app, "Results: %s", v->results_note);
            fill_overview(v);
        } else if (ev->kind == BYOC_EV_ERROR) {
            v->downloading = false;
            tui_app_error(base->app, "results: %s", ev->err.message);
        }
    }
    tui_screen_dirty(base);
}

static void start_watch(job_screen *v)
{
    byoc_jobs_args *a = tui_mon_args(v->base.app, v->arn);
    a->shared = byoc_jobs_shared_ref(v->shared);
    byoc_task *t = tui_app_start_background_task(v->base.app, &v->base, "watch job", byoc_jobs_watch_task, a,
                                                 byoc_jobs_args_free);
    if (t) {
        v->m.watching = true;
        v->watch_id = byoc_task_id(t);
    }
}

/* ---- keys ---- */

static void cancel_answer(tui_app *a, bool yes, void *ud)
{
    job_screen *v = ud;
    if (!yes)
        return;
    byoc_task *t = tui_app_start_task(a, &v->base, "cancel job", byoc_jobs_cancel_task, tui_mon_args(a, v->arn),
                                      byoc_jobs_args_free);
    if (t)
        v->cancel_id = byoc_task_id(t);
}

static void cancel_job(job_screen *v)
{
    if (v->local) {
        tui_app_message(v->base.app, "A local job is cancelled where it runs (Run: c, or Ctrl-C in byoc run)");
        return;
    }
    char *text = byoc_xasprintf("Cancel job %s?\n%s\nIt stops and cannot be resumed.", job_name(v), v->arn);
    tui_app_confirm(v->base.app, "Cancel job", text, "Cancel job", cancel_answer, v);
    tui_app_dialog_about(v->base.app, &v->base, TUI_ABOUT_MARK);
    free(text);
}

static void download(job_screen *v)
{
    tui_app *a = v->base.app;
    if (v->local) {
        tui_app_message(a, "A local job's files are in its output directory: %s", member(v->m.job, "output_dir"));
        return;
    }
    if (v->downloading)
        return;
    char *parent = byoc_xasprintf("%s/results", tui_app_project(a));
    byoc_err err = {0};
    char *dest = byoc_results_dest_for_job(parent, member(v->m.job, "job_name"), &err);
    free(parent);
    if (!dest) {
        tui_app_error(a, "results: %s", err.message);
        return;
    }
    byoc_jobs_args *args = tui_mon_args(a, v->arn);
    args->dest = dest;
    byoc_task *t = tui_app_start_task(a, &v->base, "download results", byoc_jobs_results_task, args,
                                      byoc_jobs_args_free);
    if (t) {
        v->results_id = byoc_task_id(t);
        v->downloading = true;
        tui_progress_init(&v->download, "results", true);
        v->base.wants_tick = true;
    }
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    job_screen *v = (job_screen *)base;
    if (v->tab == TAB_LOGS && tui_logview_handle(&v->log, ev->key, ev->action))
        return true;
    if (v->tab == TAB_OVERVIEW && tui_page_handle(&v->page, ev->action))
        return true;
    switch (ev->action) {
    case TUI_ACT_NEXT_TAB: v->tab = (v->tab + 1) % TAB_COUNT; return true;
    case TUI_ACT_X_AXIS:
        v->metrics.by_iteration = !v->metrics.by_iteration;
        tui_app_message(base->app, "Metrics by %s", v->metrics.by_iteration ? "iteration" : "time");
        return true;
    case TUI_ACT_METRIC_NEXT:
    case TUI_ACT_METRIC_PREV:
        if (v->tab != TAB_METRICS)
            return false;
        tui_metrics_tab_step(&v->metrics, v->shared->metrics, ev->action == TUI_ACT_METRIC_NEXT ? 1 : -1);
        return true;
    case TUI_ACT_CANCEL_JOB: cancel_job(v); return true;
    case TUI_ACT_RESULTS: download(v); return true;
    case TUI_ACT_REFRESH:
        if (v->shared)
            atomic_store(&v->shared->poke, 1);
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    job_screen *v = (job_screen *)base;
    if (max < 4)
        return 0;
    size_t n = 0;
    if (v->tab == TAB_LOGS) {
        n = tui_logview_contexts(&v->log, out);
        if (!v->log.searching)
            out[n++] = TUI_CTX_JOB;
        return n;
    }
    if (v->tab == TAB_METRICS)
        out[n++] = TUI_CTX_METRICS;
    out[n++] = TUI_CTX_JOB;
    if (v->tab == TAB_OVERVIEW)
        out[n++] = TUI_CTX_PAGE;
    return n;
}

static bool tick(tui_screen *base, uint64_t now)
{
    (void)now;
    job_screen *v = (job_screen *)base;
    if (!v->downloading)
        base->wants_tick = false;
    return v->downloading;
}

/* ---- drawing ---- */

/* Each instance's "[algo-N]" tag in its own style (the tag itself is the
 * cue without colour). */
static void colour_instances(job_screen *v, WINDOW *win, tui_rect r)
{
    static const tui_style styles[] = {TUI_STY_TITLE, TUI_STY_OK, TUI_STY_WARN, TUI_STY_KEY, TUI_STY_ERROR};
    tui_logview *lv = &v->log;
    int text_h = r.h >= 3 ? r.h - 1 : r.h;
    size_t i = tui_logview_first_index(lv), count = tui_logring_count(&lv->ring);
    int sub = lv->top_sub, y = r.y;
    while (y < r.y + text_h && i < count) {
        const tui_log_line *l = tui_logring_get(&lv->ring, i);
        int rows = tui_logview_line_rows(lv, i);
        const char *close = l->text[0] == '[' ? strchr(l->text, ']') : NULL;
        if (sub == 0 && close) {
            unsigned h = 0;
            for (const char *c = l->text + 1; c < close; c++)
                h = h * 31 + (unsigned char)*c;
            char prefix[64] = "";
            tui_logview_prefix(lv, l, prefix, sizeof prefix);
            int x = r.x + tui_text_width(prefix);
            int w = (int)(close - l->text) + 1;
            if (x + w <= r.x + r.w) {
                short pair;
                attr_t at = tui_style_attrs(styles[h % (sizeof styles / sizeof styles[0])], &pair);
                mvwchgat(win, y, x, w, at, pair, NULL);
            }
        }
        y += rows - sub;
        sub = 0;
        i++;
    }
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    job_screen *v = (job_screen *)base;
    if (!v->watch_id)
        start_watch(v);
    if (r.h < 5 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    /* the box's title (above r) names the job, the first row has its status: what c asks about */
    base->about = (tui_rect){r.y - 1, r.x, 2, r.w};
    /* tabs */
    int x = r.x + 1;
    for (int i = 0; i < TAB_COUNT; i++) {
        char t[32];
        snprintf(t, sizeof t, " %s ", tab_names[i]);
        x += tui_draw_text(win, r.y, x, r.x + r.w - x, i == v->tab ? TUI_STY_TAB_ACTIVE : TUI_STY_TAB, t) + 1;
    }
    const char *status = member(v->m.job, "status");
    char st[64];
    tui_job_status_text(status, st, sizeof st);
    char *right = byoc_xasprintf("%s%s", *status ? st : "loading...", v->m.watching ? "" : v->m.ended ? "  (ended)" : "");
    tui_draw_fit(win, r.y, x + 1, r.x + r.w - x - 1, tui_job_status_style(status), right);
    free(right);
    int y = r.y + 1;
    if (v->m.error) {
        char *line = byoc_xasprintf("error: %s", v->m.error);
        tui_draw_fit(win, y++, r.x + 1, r.w - 1, TUI_STY_ERROR, line);
        free(line);
    }
    if (v->downloading) {
        tui_progress_draw(&v->download, win, y++, r.x + 1, r.w - 2, tui_now_ms());
    }
    tui_rect body = {y, r.x, r.y + r.h - y, r.w};
    if (body.h < 1)
        return;
    switch (v->tab) {
    case TAB_OVERVIEW: {
        tui_rect in = {body.y, body.x + 1, body.h, body.w - 1};
        tui_page_layout(&v->page, in.w);
        tui_page_set_height(&v->page, in.h);
        tui_page_draw(&v->page, win, in);
        break;
    }
    case TAB_LOGS:
        tui_logview_draw(&v->log, win, body, true);
        colour_instances(v, win, body);
        break;
    default: tui_metrics_tab_draw(&v->metrics, v->shared->metrics, win, body); break;
    }
}

static void title(tui_screen *base, char *buf, size_t size)
{
    job_screen *v = (job_screen *)base;
    snprintf(buf, size, "6 Monitor: %s", job_name(v));
}

static void destroy(tui_screen *base)
{
    job_screen *v = (job_screen *)base;
    if (v->m.watching)
        tui_app_cancel_task(v->base.app, v->watch_id);   /* not a handle: the app may have released it */
    tui_page_clear(&v->page);
    tui_logview_clear(&v->log);
    byoc_jobs_shared_unref(v->shared);
    tui_job_model_clear(&v->m);
    free(v->arn);
    free(v->results_note);
    free(v);
}

static const tui_screen_ops ops = {
    .name = "job",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_job_new(tui_app *app, const char *arn)
{
    job_screen *v = byoc_xcalloc(1, sizeof *v);
    tui_screen_init(&v->base, &ops, app, TUI_CTX_JOB, -1);
    v->base.wide = true;
    v->arn = byoc_xstrdup(arn);
    v->local = strncmp(arn, "local:", 6) == 0;
    tui_page_init(&v->page);
    tui_page_text(&v->page, TUI_STY_DIM, "Asking the service...");
    tui_logview_init(&v->log, 20000, 8u << 20);
    v->shared = byoc_jobs_shared_new();
    return &v->base;
}
