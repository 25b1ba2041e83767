#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static const char *const eighths[9] = {" ", "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
                                       "\u2588"};

void tui_chart_free(tui_chart *c)
{
    for (int i = 0; c->rows && i < c->height; i++)
        free(c->rows[i]);
    free(c->rows);
    memset(c, 0, sizeof *c);
}

int tui_chart_render(tui_chart *c, const double *xs, const double *ys, size_t n, int width, int height, bool utf8)
{
    memset(c, 0, sizeof *c);
    if (width < 1 || height < 1)
        return -1;
    c->width = width;
    c->height = height;
    c->xmin = c->ymin = INFINITY;
    c->xmax = c->ymax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        double x = xs ? xs[i] : (double)i, y = ys[i];
        if (!isfinite(x) || !isfinite(y))
            continue;
        c->used++;
        c->xmin = fmin(c->xmin, x);
        c->xmax = fmax(c->xmax, x);
        c->ymin = fmin(c->ymin, y);
        c->ymax = fmax(c->ymax, y);
    }
    /* per column: the last value, as a height in eighths of a row (-1: none) */
    int *level = byoc_xcalloc((size_t)width, sizeof *level);
    for (int col = 0; col < width; col++)
        level[col] = -1;
    int total = height * 8;
    for (size_t i = 0; c->used && i < n; i++) {
        double x = xs ? xs[i] : (double)i, y = ys[i];
        if (!isfinite(x) || !isfinite(y))
            continue;
        int col = c->xmax > c->xmin ? (int)((x - c->xmin) / (c->xmax - c->xmin) * (width - 1) + 0.5) : 0;
        double f = c->ymax > c->ymin ? (y - c->ymin) / (c->ymax - c->ymin) : 0.5;
        int lv = 1 + (int)(f * (total - 1) + 0.5);   /* at least a sliver, so the lowest value shows */
        level[col] = lv > total ? total : lv;
    }
    c->rows = byoc_xcalloc((size_t)height, sizeof *c->rows);
    for (int r = 0; r < height; r++) {
        byoc_buf b = BYOC_BUF_INIT;
        int floor_eighths = (height - 1 - r) * 8;    /* eighths below this row */
        for (int col = 0; col < width; col++) {
            int lv = level[col];
            int in_row = lv < 0 ? 0 : lv - floor_eighths;
            if (in_row <= 0) {
                byoc_buf_putc(&b, ' ');
            } else if (utf8) {
                byoc_buf_puts(&b, eighths[in_row > 8 ? 8 : in_row]);
            } else {
                byoc_buf_putc(&b, in_row > 8 ? '|' : '*');
            }
        }
        c->rows[r] = byoc_buf_steal(&b);
    }
    free(level);
    return 0;
}

void tui_chart_label(double min, double max, double last, char *buf, size_t size)
{
    snprintf(buf, size, "min %.4g  max %.4g  last %.4g", min, max, last);
}
