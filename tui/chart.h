/* chart: a metric series drawn with the terminal's own characters. Pure:
 * it maps points to rows of text that a screen draws as they are.
 *
 * The plot is `width` columns by `height` rows. Points are placed by x (time
 * or iteration) into columns; a column shows the last value that fell into
 * it. In UTF-8 mode a column is a bar of block characters with eighth-row
 * resolution (" ▁▂▃▄▅▆▇█"); in ASCII mode the value's row holds '*' and
 * the rows below '|'. Columns no point reached stay blank. The y range is
 * [min, max] of the values (a flat series sits mid-height). */
#ifndef BYOC_TUI_CHART_H
#define BYOC_TUI_CHART_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tui_chart {
    int width, height;
    char **rows;          /* height strings, top row first, each width cells */
    double ymin, ymax;    /* the range drawn */
    double xmin, xmax;
    size_t used;          /* points drawn (finite x and y) */
} tui_chart;

/* xs may be NULL (then the index is x). NaN points are skipped. Returns 0,
 * or -1 when width or height < 1 (the chart is then empty). */
int tui_chart_render(tui_chart *c, const double *xs, const double *ys, size_t n, int width, int height, bool utf8);
void tui_chart_free(tui_chart *c);

/* "min 0.12  max 3.4  last 1.5" for labels (%.4g). */
void tui_chart_label(double min, double max, double last, char *buf, size_t size);

#endif
