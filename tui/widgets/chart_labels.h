/* chart_labels: the chart's numbers and durations, short enough for an axis
 * (chart_labels.c); the chart (chart.h) and the Metrics tab write them. */
#ifndef BYOC_TUI_CHART_LABELS_H
#define BYOC_TUI_CHART_LABELS_H

#include <stddef.h>

/* v in at most `sig` significant digits, compactly: 0.5, 12.3, 1,234,
 * 1.2e-3, 3.4e7, -inf, nan. The integer digits of 1,000..999,999 are always
 * kept. */
void tui_chart_number(double v, int sig, char *buf, size_t size);
/* A duration: 0s, 0.5s, 30s, 1m, 1m30s, 2h, 1h5m, 3d, 3d4h. */
void tui_chart_duration(double seconds, char *buf, size_t size);
/* "min 0.12  max 3.4  last 1.5" (4 significant digits; "-" when min > max,
 * that is when no value was finite). */
void tui_chart_label(double min, double max, double last, char *buf, size_t size);

#endif
