/* metrics_tab: the job view's Metrics tab. One metric at a time: a strip of
 * the job's metric names (the chosen one highlighted, scrolled to stay in
 * view), a line with its name, min / max / last, the x axis in use, how many
 * values and how many were not finite, then the chart (chart.h) filling the
 * rest, by time since the first point or by iteration number. Metric names
 * are the job's own text and go through the printable pass. */
#ifndef BYOC_TUI_METRICS_TAB_H
#define BYOC_TUI_METRICS_TAB_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/metrics.h"
#include "draw.h"

typedef struct tui_metrics_tab {
    size_t selected;     /* index into the store's series (first-seen order) */
    bool by_iteration;
} tui_metrics_tab;

/* Choose the next (step 1) or previous (-1) metric, wrapping around. */
void tui_metrics_tab_step(tui_metrics_tab *t, byoc_metrics *m, int step);
/* Draw into r (redrawn whole each time, so any size after a resize). */
void tui_metrics_tab_draw(tui_metrics_tab *t, byoc_metrics *m, WINDOW *win, tui_rect r);

#endif
