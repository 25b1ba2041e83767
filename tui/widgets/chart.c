/* chart: the line plot and its axes (chart.h); the numbers' text is in
 * chart_labels.c. */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#define MAX_SIDE 4096       /* a grid beyond this is a caller's bug, not a terminal */
#define LABEL_MAX 32
#define MAX_TICKS 64

typedef struct pt {
    double x, y;
    size_t i;
} pt;

/* The cell geometry: dots per cell across and down. */
typedef struct canvas {
    int dx, dy;
    int w, h;               /* in cells */
    unsigned char *cells;   /* one bit per dot of a cell */
} canvas;

/* Braille dot bits by (column, row) in the cell: dots 1-3 and 7 on the left,
 * 4-6 and 8 on the right (U+2800 + bits). */
static const unsigned char braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

static void set_dot(canvas *cv, int x, int y)
{
    if (x < 0 || y < 0 || x >= cv->w * cv->dx || y >= cv->h * cv->dy)
        return;
    unsigned char bit = cv->dx == 2 ? braille_bit[x % 2][y % 4] : (unsigned char)(1u << (y % 3));
    cv->cells[(y / cv->dy) * cv->w + x / cv->dx] |= bit;
}

static void line(canvas *cv, int x0, int y0, int x1, int y1)
{
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (;;) {
        set_dot(cv, x0, y0);
        if (x0 == x1 && y0 == y1)
            return;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/* Where v falls in [lo, hi] as 0..1; halves first so that the span of two
 * huge values of opposite sign does not overflow. A flat range is 0.5. */
static double fraction(double v, double lo, double hi)
{
    double span = hi / 2 - lo / 2;
    if (!(span > 0))
        return 0.5;
    double f = (v / 2 - lo / 2) / span;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static int dot_x(const tui_chart *c, const canvas *cv, double x)
{
    if (!(c->xmax > c->xmin))
        return 0;
    return (int)lround(fraction(x, c->xmin, c->xmax) * (cv->w * cv->dx - 1));
}

/* Dot row from the top of the plot. */
static int dot_y(const tui_chart *c, const canvas *cv, double y)
{
    int rows = cv->h * cv->dy - 1;
    return rows - (int)lround(fraction(y, c->ymin, c->ymax) * rows);
}

static int cmp_pt(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

static void put_cell(byoc_buf *b, const canvas *cv, unsigned char bits)
{
    if (!bits) {
        byoc_buf_putc(b, ' ');
    } else if (cv->dx == 2) {
        char u[3] = {(char)0xE2, (char)(0xA0 | (bits >> 6)), (char)(0x80 | (bits & 0x3F))};
        byoc_buf_append(b, u, 3);
    } else {
        byoc_buf_putc(b, bits == 1 ? '\'' : bits == 2 ? '-' : bits == 4 ? '.' : '|');
    }
}

/* ---- y labels ---- */

typedef struct ylabels {
    char text[3][LABEL_MAX];   /* top (max), middle, bottom (min); "" when not shown */
    int width;
} ylabels;

/* The fewest digits (3 at least) that tell the three labels apart. */
static void make_ylabels(const tui_chart *c, ylabels *l)
{
    memset(l, 0, sizeof *l);
    if (c->ymin == c->ymax) {
        tui_chart_number(c->ymin, 4, l->text[1], LABEL_MAX);
    } else {
        double mid = c->ymin / 2 + c->ymax / 2;
        for (int sig = 3; sig <= 8; sig++) {
            tui_chart_number(c->ymax, sig, l->text[0], LABEL_MAX);
            tui_chart_number(mid, sig, l->text[1], LABEL_MAX);
            tui_chart_number(c->ymin, sig, l->text[2], LABEL_MAX);
            if (strcmp(l->text[0], l->text[1]) != 0 && strcmp(l->text[1], l->text[2]) != 0)
                break;
        }
    }
    for (int i = 0; i < 3; i++)
        if ((int)strlen(l->text[i]) > l->width)
            l->width = (int)strlen(l->text[i]);
}

/* ---- x ticks ---- */

typedef struct xtick {
    int col;                 /* the tick, in the grid */
    int start;               /* where its label starts */
    char text[LABEL_MAX];
} xtick;

/* The smallest "nice" step (1, 2 or 5 times a power of ten) at least raw. */
static double nice_step(double raw)
{
    double base = pow(10, floor(log10(raw)));
    static const double m[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (m[i] * base >= raw * (1 - 1e-9))
            return m[i] * base;
    return 10 * base;
}

/* Steps that read well as durations; past a day, nice numbers of days. */
static double time_step(double raw)
{
    static const double steps[] = {1,    2,    5,    10,    15,    30,    60,    120,   300,
                                   600,  900,  1800, 3600,  7200,  10800, 21600, 43200, 86400};
    if (raw < 1)
        return nice_step(raw);
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] >= raw)
            return steps[i];
    return nice_step(raw / 86400) * 86400;
}

static bool whole(double v) { return v == floor(v); }

/* Ticks at nice values, labelled where their text fits without touching the
 * previous one. Returns how many. */
static int make_xticks(const tui_chart *c, const canvas *cv, tui_chart_xkind kind, xtick *out)
{
    double span = c->xmax / 2 - c->xmin / 2;   /* half the span: finite for any two doubles */
    double values[MAX_TICKS];
    int n = 0;
    double first = c->xmin, step = 0;
    if (span > 0) {
        int want = cv->w / 9 > 1 ? cv->w / 9 : 1;   /* a label and a gap every ~9 columns */
        double raw = span / want * 2;
        if (isfinite(raw) && raw > 0) {
            if (kind == TUI_CHART_X_TIME) {
                step = time_step(raw);
            } else {
                step = nice_step(raw);
                if (step < 1 && whole(c->xmin) && whole(c->xmax))
                    step = 1;   /* iterations are counted, not measured */
                first = ceil(c->xmin / step) * step;
            }
        }
    }
    if (step > 0 && isfinite(step)) {
        for (int i = 0; n < MAX_TICKS; i++) {
            double t = first + i * step;
            if (t > c->xmax)
                break;
            values[n++] = t;
        }
    }
    if (n == 0) {   /* no nice value in range (or no step): the ends */
        values[n++] = c->xmin;
        if (c->xmax > c->xmin)
            values[n++] = c->xmax;
    }
    /* enough digits that neighbouring iteration labels differ */
    int sig = 3;
    if (kind != TUI_CHART_X_TIME && step > 0) {
        double big = fmax(fabs(values[0]), fabs(values[n - 1]));
        if (big > step)
            sig = (int)ceil(log10(big / step)) + 1;
        sig = sig < 3 ? 3 : sig > 10 ? 10 : sig;
    }
    int got = 0, prev_end = -2;   /* labels keep a blank column between them */
    for (int i = 0; i < n; i++) {
        xtick *t = &out[got];
        if (kind == TUI_CHART_X_TIME)
            tui_chart_duration(values[i] - c->xmin, t->text, LABEL_MAX);
        else
            tui_chart_number(values[i], sig, t->text, LABEL_MAX);
        t->col = c->plot_x + dot_x(c, cv, values[i]) / cv->dx;
        int len = (int)strlen(t->text);
        int start = t->col - (i == 0 && t->col == c->plot_x ? 0 : len / 2);
        if (start + len > c->width)
            start = c->width - len;
        if (start < 0 || start < prev_end + 2)
            continue;
        prev_end = start + len - 1;
        t->start = start;
        got++;
    }
    return got;
}

/* ---- the grid ---- */

static char *axis_row(const tui_chart *c, const xtick *ticks, int nticks, bool utf8)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (int col = 0; col < c->plot_x - 1; col++)
        byoc_buf_putc(&b, ' ');
    byoc_buf_puts(&b, utf8 ? "\u2514" : "+");
    int t = 0;
    for (int col = c->plot_x; col < c->width; col++) {
        while (t < nticks && ticks[t].col < col)
            t++;
        bool tick = t < nticks && ticks[t].col == col;
        byoc_buf_puts(&b, tick ? (utf8 ? "\u252C" : "+") : (utf8 ? "\u2500" : "-"));
    }
    return byoc_buf_steal(&b);
}

static char *label_row(const tui_chart *c, const xtick *ticks, int nticks)
{
    char *row = byoc_xmalloc((size_t)c->width + 1);
    memset(row, ' ', (size_t)c->width);
    row[c->width] = '\0';
    for (int i = 0; i < nticks; i++) {
        int start = ticks[i].start;
        size_t len = strlen(ticks[i].text);
        memcpy(row + start, ticks[i].text, len);
    }
    return row;
}

static void blank_rows(tui_chart *c)
{
    for (int r = 0; r < c->height; r++) {
        c->rows[r] = byoc_xmalloc((size_t)c->width + 1);
        memset(c->rows[r], ' ', (size_t)c->width);
        c->rows[r][c->width] = '\0';
    }
}

void tui_chart_clear(tui_chart *c)
{
    for (int i = 0; c->rows && i < c->height; i++)
        free(c->rows[i]);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

int tui_chart_render(tui_chart *c, const double *xs, const double *ys, size_t n, int width, int height, bool utf8,
                     tui_chart_xkind xkind)
{
    memset(c, 0, sizeof *c);
    if (width < TUI_CHART_MIN_WIDTH || height < TUI_CHART_MIN_HEIGHT || width > MAX_SIDE || height > MAX_SIDE)
        return -1;
    c->width = width;
    c->height = height;
    c->rows = byoc_xcalloc((size_t)height, sizeof *c->rows);
    c->xmin = c->ymin = INFINITY;
    c->xmax = c->ymax = -INFINITY;
    pt *pts = byoc_xcalloc(n ? n : 1, sizeof *pts);
    for (size_t i = 0; i < n; i++) {
        double x = xs ? xs[i] : (double)i, y = ys[i];
        if (!isfinite(x) || !isfinite(y)) {
            c->skipped++;
            continue;
        }
        pts[c->used++] = (pt){x, y, i};
        c->xmin = fmin(c->xmin, x);
        c->xmax = fmax(c->xmax, x);
        c->ymin = fmin(c->ymin, y);
        c->ymax = fmax(c->ymax, y);
    }
    if (c->used == 0) {
        free(pts);
        blank_rows(c);
        return 0;
    }
    ylabels yl;
    make_ylabels(c, &yl);
    if (yl.width > width / 3)
        yl.width = 0;   /* labels that would crowd out the plot are left out */
    c->plot_x = yl.width + 1;
    c->plot_w = width - c->plot_x;
    c->plot_h = height - 2;
    canvas cv = {utf8 ? 2 : 1, utf8 ? 4 : 3, c->plot_w, c->plot_h, NULL};
    cv.cells = byoc_xcalloc((size_t)cv.w * (size_t)cv.h, 1);

    /* a line through the points in x order (ties in the order given) */
    qsort(pts, c->used, sizeof *pts, cmp_pt);
    int px = dot_x(c, &cv, pts[0].x), py = dot_y(c, &cv, pts[0].y);
    set_dot(&cv, px, py);
    for (size_t i = 1; i < c->used; i++) {
        int x = dot_x(c, &cv, pts[i].x), y = dot_y(c, &cv, pts[i].y);
        line(&cv, px, py, x, y);
        px = x;
        py = y;
    }
    free(pts);

    /* the label rows: max on the top row, min on the bottom one, the middle
     * value on the row its dot falls in (when that is neither) */
    int label_at[3] = {0, dot_y(c, &cv, c->ymin / 2 + c->ymax / 2) / cv.dy, c->plot_h - 1};
    if (c->ymin == c->ymax)
        label_at[0] = label_at[2] = -1;
    else if (label_at[1] == label_at[0] || label_at[1] == label_at[2])
        label_at[1] = -1;
    for (int r = 0; r < c->plot_h; r++) {
        byoc_buf b = BYOC_BUF_INIT;
        const char *label = "";
        for (int k = 0; k < 3; k++)
            if (label_at[k] == r && yl.width)
                label = yl.text[k];
        byoc_buf_printf(&b, "%*s", yl.width, label);
        byoc_buf_puts(&b, *label ? (utf8 ? "\u2524" : "+") : (utf8 ? "\u2502" : "|"));
        for (int col = 0; col < cv.w; col++)
            put_cell(&b, &cv, cv.cells[r * cv.w + col]);
        c->rows[r] = byoc_buf_steal(&b);
    }
    free(cv.cells);

    xtick ticks[MAX_TICKS];
    int nticks = make_xticks(c, &cv, xkind, ticks);
    c->rows[c->plot_h] = axis_row(c, ticks, nticks, utf8);
    c->rows[c->plot_h + 1] = label_row(c, ticks, nticks);
    return 0;
}
