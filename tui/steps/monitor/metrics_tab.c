#include "metrics_tab.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "chart.h"
#include "core/buf.h"
#include "style.h"
#include "text.h"

#define STRIP_NAME_COLS 24   /* a long name in the strip is cut; the line below shows more */

void tui_metrics_tab_step(tui_metrics_tab *t, byoc_metrics *m, int step)
{
    byoc_metrics_lock(m);
    size_t n = byoc_metrics_count(m);
    byoc_metrics_unlock(m);
    if (n == 0)
        return;
    size_t cur = t->selected < n ? t->selected : n - 1;
    t->selected = step > 0 ? (cur + 1) % n : (cur + n - 1) % n;
}

/* What one draw needs, copied under the store's lock so the chart is
 * rendered without holding it. */
typedef struct snapshot {
    size_t n;
    char **names;          /* printable, cut for the strip */
    char *name;            /* the chosen metric's name, printable */
    double min, max, last;
    uint64_t count;
    size_t npoints;
    double *xs, *ys;
    size_t nonfinite;      /* points whose value is NaN or infinite */
    size_t no_x;           /* points with a value but no time / iteration to place it */
} snapshot;

static char *printable(const char *s)
{
    return tui_text_sanitize(s, strlen(s));
}

static void take(snapshot *s, tui_metrics_tab *t, byoc_metrics *m)
{
    memset(s, 0, sizeof *s);
    byoc_metrics_lock(m);
    s->n = byoc_metrics_count(m);
    if (s->n) {
        if (t->selected >= s->n)
            t->selected = s->n - 1;
        s->names = byoc_xcalloc(s->n, sizeof *s->names);
        for (size_t i = 0; i < s->n; i++) {
            char *p = printable(byoc_metrics_at(m, i)->name);
            char cut[STRIP_NAME_COLS * 4 + 8];
            tui_text_fit(p, STRIP_NAME_COLS, tui_glyph()->ellipsis, cut, sizeof cut);
            s->names[i] = byoc_xstrdup(cut);
            free(p);
        }
        const byoc_metric_series *sr = byoc_metrics_at(m, t->selected);
        s->name = printable(sr->name);
        s->min = sr->min;
        s->max = sr->max;
        s->last = sr->last;
        s->count = sr->count;
        s->npoints = sr->npoints;
        s->xs = byoc_xcalloc(sr->npoints + 1, sizeof *s->xs);
        s->ys = byoc_xcalloc(sr->npoints + 1, sizeof *s->ys);
        for (size_t k = 0; k < sr->npoints; k++) {
            s->xs[k] = t->by_iteration ? sr->points[k].iteration : sr->points[k].timestamp;
            s->ys[k] = sr->points[k].value;
            if (!isfinite(s->ys[k]))
                s->nonfinite++;
            else if (!isfinite(s->xs[k]))
                s->no_x++;
        }
    }
    byoc_metrics_unlock(m);
}

static void drop(snapshot *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->names[i]);
    free(s->names);
    free(s->name);
    free(s->xs);
    free(s->ys);
}

/* The names in a row, the chosen one in reverse video; scrolled so that it
 * shows, with arrows where names are out of view, and "2/5" on the right. */
static void draw_strip(const snapshot *s, size_t sel, WINDOW *win, int y, int x0, int w)
{
    char counter[48] = "";
    if (s->n > 1)
        snprintf(counter, sizeof counter, "%zu/%zu", sel + 1, s->n);
    int cw = tui_text_width(counter);
    int avail = w - (cw ? cw + 1 : 0);
    size_t start = 0;
    for (;;) {
        int need = start > 0 ? 2 : 0;
        for (size_t i = start; i <= sel; i++)
            need += tui_text_width(s->names[i]) + 2 + 1;
        if (need <= avail || start == sel)
            break;
        start++;
    }
    int x = x0, end = x0 + avail;
    if (start > 0)
        x += tui_draw_text(win, y, x, end - x, TUI_STY_DIM, tui_glyph()->arrow_left) + 1;
    for (size_t i = start; i < s->n; i++) {
        int iw = tui_text_width(s->names[i]) + 2;
        if (x + iw > end) {
            tui_draw_text(win, y, x, end - x, TUI_STY_DIM, tui_glyph()->arrow_right);
            break;
        }
        char *item = byoc_xasprintf(" %s ", s->names[i]);
        tui_draw_text(win, y, x, iw, i == sel ? TUI_STY_TAB_ACTIVE : TUI_STY_TAB, item);
        free(item);
        x += iw + 1;
    }
    if (cw)
        tui_draw_text(win, y, x0 + w - cw, cw, TUI_STY_DIM, counter);
}

/* "loss  min 0.2  max 0.9  last 0.2  (by time, 3 values)": the name is cut
 * before the figures are. */
static void draw_figures(const snapshot *s, const tui_metrics_tab *t, WINDOW *win, int y, int x, int w)
{
    char figures[200], tail[160];
    tui_chart_label(s->min, s->max, s->last, figures, sizeof figures);
    int len = snprintf(tail, sizeof tail, "  %s  (by %s, %" PRIu64 " value%s", figures,
                       t->by_iteration ? "iteration" : "time", s->count, s->count == 1 ? "" : "s");
    if (s->npoints < s->count && len > 0 && (size_t)len < sizeof tail)
        len += snprintf(tail + len, sizeof tail - (size_t)len, ", %zu drawn", s->npoints);
    if (s->nonfinite && len > 0 && (size_t)len < sizeof tail)
        len += snprintf(tail + len, sizeof tail - (size_t)len, ", %zu not finite: skipped", s->nonfinite);
    if (s->no_x && len > 0 && (size_t)len < sizeof tail)
        len += snprintf(tail + len, sizeof tail - (size_t)len, ", %zu without %s", s->no_x,
                        t->by_iteration ? "iteration_number" : "a time");
    if (len > 0 && (size_t)len < sizeof tail)
        snprintf(tail + len, sizeof tail - (size_t)len, ")");
    int name_w = w - tui_text_width(tail);
    if (name_w < 8)
        name_w = 8;
    int used = tui_draw_fit(win, y, x, name_w < w ? name_w : w, TUI_STY_HEADING, s->name);
    tui_draw_fit(win, y, x + used, w - used, TUI_STY_NORMAL, tail);
}

static void draw_chart(const tui_chart *c, WINDOW *win, int y, int x)
{
    for (int r = 0; r < c->height; r++) {
        if (r >= c->plot_h) {   /* the x axis and its labels */
            tui_draw_text(win, y + r, x, c->width, TUI_STY_DIM, c->rows[r]);
            continue;
        }
        const char *plot = tui_text_skip_cols(c->rows[r], c->plot_x, NULL);
        tui_draw_ntext(win, y + r, x, c->plot_x, TUI_STY_DIM, c->rows[r], (size_t)(plot - c->rows[r]));
        tui_draw_text(win, y + r, x + c->plot_x, c->plot_w, TUI_STY_OK, plot);
    }
}

void tui_metrics_tab_draw(tui_metrics_tab *t, byoc_metrics *m, WINDOW *win, tui_rect r)
{
    snapshot s;
    take(&s, t, m);
    int x = r.x + 1, w = r.w - 2;
    if (s.n == 0) {
        tui_draw_fit(win, r.y, x, w, TUI_STY_DIM,
                     "No metrics yet: the job logs them as \"Metrics - name=value; ...\" lines");
        drop(&s);
        return;
    }
    draw_strip(&s, t->selected, win, r.y, x, w);
    tui_chart c;
    bool utf8 = tui_glyph_mode_get() == TUI_GLYPHS_UTF8;
    int rc = tui_chart_render(&c, s.xs, s.ys, s.npoints, w, r.h - 2,
                              utf8, t->by_iteration ? TUI_CHART_X_ITERATION : TUI_CHART_X_TIME);
    if (r.h >= 2)
        draw_figures(&s, t, win, r.y + 1, x, w);
    if (rc != 0)
        tui_draw_fit(win, r.y + 2, x, w, TUI_STY_DIM, "(enlarge the window to see the chart)");
    else if (c.used == 0) {
        char note[80], k[16];
        snprintf(note, sizeof note, "(no iteration_number on these lines: %s switches to time)",
                 tui_action_key(TUI_CTX_METRICS, TUI_ACT_X_AXIS, k, sizeof k));
        tui_draw_fit(win, r.y + 2, x, w, TUI_STY_DIM,
                     t->by_iteration ? note : "(no finite values with a time to draw)");
    } else
        draw_chart(&c, win, r.y + 2, x);
    tui_chart_clear(&c);
    drop(&s);
}
