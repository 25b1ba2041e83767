/* chart: one metric series drawn as a line plot with axes, in terminal cells.
 * Pure (no curses): it renders points into rows of text that a screen draws
 * as they are, so every cell can be unit-tested.
 *
 * The grid is `width` columns by `height` rows:
 *
 *     0.9 ┤⠑⠢⡀                 y labels (max, middle, min), right-aligned,
 *         │  ⠈⠢⢄⡀              then the y axis with a tick at each label
 *    0.55 ┤     ⠈⠑⠢⢄⣀
 *     0.2 ┤          ⠉⠉⠉
 *         └┬────┬────┬──       the x axis with a tick under each x label
 *          0s   30s  1m        time since the first point, or the iteration
 *
 * The plot joins the points in x order with lines. In UTF-8 mode a cell is a
 * braille character of 2x4 dots; in ASCII mode a cell is one dot wide and
 * three high, drawn as '\'' (top), '-' (middle), '.' (bottom) or '|' (more
 * than one). Points whose x or y is NaN or infinite are skipped and counted.
 * Huge values do not overflow the scaling. The y range is [min, max] of the
 * values; a flat series is drawn at mid-height with one label. */
#ifndef BYOC_TUI_CHART_H
#define BYOC_TUI_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "chart_labels.h"

typedef enum {
    TUI_CHART_X_TIME,       /* x is epoch seconds; ticks say the time since the first point */
    TUI_CHART_X_ITERATION,  /* x is a number; ticks are its values (whole steps for whole x) */
} tui_chart_xkind;

typedef struct tui_chart {
    int width, height;
    char **rows;          /* height strings, top row first, each exactly width cells */
    int plot_x;           /* columns before the plot (y labels and the axis) */
    int plot_w, plot_h;   /* the plot's cells: rows 0..plot_h-1; then the x axis and its labels */
    double ymin, ymax;    /* the range drawn */
    double xmin, xmax;
    size_t used;          /* points drawn (finite x and y) */
    size_t skipped;       /* points left out: x or y not finite */
} tui_chart;

/* The smallest grid tui_chart_render draws into. */
#define TUI_CHART_MIN_WIDTH 12
#define TUI_CHART_MIN_HEIGHT 3

/* xs may be NULL (then the index is x). Returns 0, or -1 when the grid is
 * smaller than the minimum or absurdly large (the chart is then empty).
 * With no finite point the rows are blank. */
int tui_chart_render(tui_chart *c, const double *xs, const double *ys, size_t n, int width, int height, bool utf8,
                     tui_chart_xkind xkind);
void tui_chart_clear(tui_chart *c);

#endif
