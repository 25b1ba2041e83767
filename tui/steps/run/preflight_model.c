#include "preflight_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"

void tui_pf_view_init(tui_pf_view *v)
{
    memset(v, 0, sizeof *v);
    tui_page_init(&v->page);
    v->follow = true;
}

static void clear_items(tui_pf_view *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->items[i].name);
        free(v->items[i].message);
        free(v->items[i].fix);
    }
    v->n = 0;
}

void tui_pf_view_clear(tui_pf_view *v)
{
    clear_items(v);
    free(v->items);
    free(v->error);
    tui_page_clear(&v->page);
    memset(v, 0, sizeof *v);
}

static const char *tag(byoc_pf_status s)
{
    return s == BYOC_PF_PASS ? "PASS" : s == BYOC_PF_WARN ? "WARN" : "FAIL";
}

static tui_style style_of(byoc_pf_status s)
{
    return s == BYOC_PF_PASS ? TUI_STY_OK : s == BYOC_PF_WARN ? TUI_STY_WARN : TUI_STY_ERROR;
}

/* One key/value row per check: the tag in the key column, the message (in
 * the check's colour) and its fix wrapped beside it. */
static void rebuild(tui_pf_view *v)
{
    tui_page_reset(&v->page);
    for (size_t i = 0; i < v->n; i++) {
        const tui_pf_item *k = &v->items[i];
        char *line = byoc_xasprintf("%s: %s", k->name, k->message);
        tui_page_kv(&v->page, tag(k->status), line);
        v->page.items[v->page.count - 1].style = style_of(k->status);
        free(line);
        if (k->fix && *k->fix) {
            line = byoc_xasprintf("fix: %s", k->fix);
            tui_page_kv(&v->page, "", line);
            free(line);
        }
    }
    if (v->n == 0)
        tui_page_text(&v->page, TUI_STY_DIM,
                      v->state == TUI_PF_RUNNING ? "The checks appear here as they finish..." : "No checks.");
}

void tui_pf_view_start(tui_pf_view *v, uint64_t now_ms)
{
    clear_items(v);
    free(v->error);
    v->error = NULL;
    v->state = TUI_PF_RUNNING;
    v->stale = false;
    v->started_ms = now_ms;
    v->ended_ms = 0;
    v->follow = true;
    v->page.top = 0;
    rebuild(v);
}

static void add_item(tui_pf_view *v, const char *name, byoc_pf_status st, const char *message, const char *fix)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 24;
        v->items = byoc_xrealloc(v->items, v->cap * sizeof *v->items);
    }
    v->items[v->n++] = (tui_pf_item){byoc_xstrdup(name ? name : "?"), st, byoc_xstrdup(message ? message : ""),
                                     byoc_xstrdup(fix ? fix : "")};
}

bool tui_pf_view_is_check(const byoc_event *ev)
{
    return ev->kind == BYOC_EV_CHECK && ev->key && ev->current >= BYOC_PF_PASS && ev->current <= BYOC_PF_FAIL;
}

/* Failures first, then warnings, then passes; the report's order within each. */
static void take_report(tui_pf_view *v, const byoc_preflight_report *r)
{
    clear_items(v);
    for (int st = BYOC_PF_FAIL; st >= BYOC_PF_PASS; st--)
        for (size_t i = 0; i < r->n; i++)
            if ((int)r->items[i].status == st)
                add_item(v, r->items[i].name, r->items[i].status, r->items[i].message, r->items[i].fix);
}

bool tui_pf_view_event(tui_pf_view *v, const byoc_event *ev, uint64_t now_ms)
{
    switch (ev->kind) {
    case BYOC_EV_CHECK:
        if (v->state != TUI_PF_RUNNING || !tui_pf_view_is_check(ev))
            return false;
        add_item(v, ev->key, (byoc_pf_status)ev->current, ev->text, ev->detail);
        rebuild(v);
        return false;
    case BYOC_EV_DONE:
        if (v->state == TUI_PF_RUNNING) {
            if (ev->result)
                take_report(v, ev->result);
            v->state = TUI_PF_DONE;
            v->ended_ms = now_ms;
            v->ended_at = time(NULL);
            v->follow = false;
            v->page.top = 0;     /* the first failure in view */
            rebuild(v);
        }
        return true;
    case BYOC_EV_ERROR:
        if (v->state == TUI_PF_RUNNING) {
            v->ended_ms = now_ms;
            if (ev->err.kind == BYOC_E_CANCELLED) {
                v->state = TUI_PF_CANCELLED;
            } else {
                v->state = TUI_PF_ERROR;
                free(v->error);
                v->error = byoc_xstrdup(ev->err.message);
            }
            rebuild(v);
        }
        return true;
    default: return false;
    }
}

void tui_pf_view_cancelled(tui_pf_view *v, uint64_t now_ms)
{
    if (v->state != TUI_PF_RUNNING)
        return;
    v->state = TUI_PF_CANCELLED;
    v->ended_ms = now_ms;
    rebuild(v);
}

void tui_pf_view_mark_stale(tui_pf_view *v)
{
    if (v->state != TUI_PF_NONE)
        v->stale = true;
}

size_t tui_pf_view_count(const tui_pf_view *v, byoc_pf_status s)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += v->items[i].status == s;
    return n;
}

char *tui_pf_view_failed_names(const tui_pf_view *v)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "%s", "");
    for (size_t i = 0; i < v->n; i++)
        if (v->items[i].status == BYOC_PF_FAIL)
            byoc_buf_printf(&b, "%s%s", b.len ? ", " : "", v->items[i].name);
    char *out = byoc_xstrdup(byoc_buf_str(&b));
    byoc_buf_clear(&b);
    return out;
}

char *tui_pf_view_summary(const tui_pf_view *v, uint64_t now_ms, char *buf, size_t size)
{
    size_t pass = tui_pf_view_count(v, BYOC_PF_PASS), warn = tui_pf_view_count(v, BYOC_PF_WARN),
           fail = tui_pf_view_count(v, BYOC_PF_FAIL);
    uint64_t end = v->ended_ms ? v->ended_ms : now_ms;
    double secs = end > v->started_ms ? (double)(end - v->started_ms) / 1000.0 : 0.0;
    char counts[96];
    snprintf(counts, sizeof counts, "%zu pass, %zu warn, %zu fail", pass, warn, fail);
    char *failed = tui_pf_view_failed_names(v);
    char failed_part[512] = "";
    if (*failed)
        snprintf(failed_part, sizeof failed_part, " (%s)", failed);
    free(failed);
    const char *stale = v->stale ? " [stale: the job changed]" : "";
    switch (v->state) {
    case TUI_PF_NONE: snprintf(buf, size, "Preflight: not run"); break;
    case TUI_PF_RUNNING:
        snprintf(buf, size, "Preflight running%s: %s, %zu checks so far (%.0fs)", failed_part, counts, v->n, secs);
        break;
    case TUI_PF_DONE: {
        char at[16] = "";
        struct tm tm;
        if (localtime_r(&v->ended_at, &tm))
            strftime(at, sizeof at, " at %H:%M:%S", &tm);
        snprintf(buf, size, "Preflight%s%s %s%s: %s in %.1fs", stale, at, fail ? "FAILED" : "passed", failed_part,
                 counts, secs);
        break;
    }
    case TUI_PF_CANCELLED:
        snprintf(buf, size, "Preflight%s cancelled%s: %s, %zu checks ran", stale, failed_part, counts, v->n);
        break;
    case TUI_PF_ERROR:
        snprintf(buf, size, "Preflight%s could not run: %s", stale, v->error ? v->error : "?");
        break;
    }
    return buf;
}

bool tui_pf_view_handle(tui_pf_view *v, tui_action_id act)
{
    if (!tui_page_handle(&v->page, act))
        return false;
    v->follow = v->page.top + v->page.height >= (int)v->page.nrows;
    return true;
}
