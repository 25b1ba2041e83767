/* progress: progress bars with byte counts, rates and ETA, and a spinner
 * for work of unknown size.
 *
 * Pure (progress.c): human units (IEC: KiB, MiB...), rates, durations, a
 * smoothed rate estimate, the fraction and the bar's filled cells.
 * Drawing (progress_draw.c): one line: label, bar (or spinner), figures.
 *
 * Usage: tui_progress_init(&p, "layer 3f2a", true);
 *        on_event(PROGRESS): tui_progress_update(&p, ev->current, ev->total, tui_now_ms());
 *        draw(): tui_progress_draw(&p, win, y, x, w, now_ms); */
#ifndef BYOC_TUI_PROGRESS_H
#define BYOC_TUI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "draw.h"

/* "0 B/s", "1.2 MiB/s". */
char *tui_fmt_rate(double bytes_per_sec, char *buf, size_t size);
/* "0s", "59s", "1m05s", "1h02m", "3d04h" ("-" when negative). */
char *tui_fmt_duration(int64_t seconds, char *buf, size_t size);

typedef struct tui_progress {
    char label[96];
    bool bytes;          /* figures are bytes (human units) rather than steps */
    int64_t current, total;   /* total <= 0: unknown (spinner) */
    double rate;         /* smoothed units per second; 0 until known */
    uint64_t start_ms, last_ms;
    int64_t last_current;
    bool done;
} tui_progress;

void tui_progress_init(tui_progress *p, const char *label, bool bytes);
void tui_progress_update(tui_progress *p, int64_t current, int64_t total, uint64_t now_ms);
void tui_progress_finish(tui_progress *p);
/* 0..1, or -1 when the total is unknown. */
double tui_progress_fraction(const tui_progress *p);
/* Seconds left at the current rate, or -1 when unknown. */
int64_t tui_progress_eta(const tui_progress *p);
/* "12.3 MiB / 40.0 MiB  30%  1.2 MiB/s  ETA 23s" (parts only when known). */
char *tui_progress_text(const tui_progress *p, char *buf, size_t size);
/* Filled cells of a bar `width` cells wide for a fraction (0..width). */
int tui_progress_cells(double fraction, int width);
/* Spinner frame for a time: changes every 100 ms. */
int tui_spinner_frame(uint64_t now_ms, int frames);
/* Monotonic milliseconds. */
uint64_t tui_now_ms(void);

void tui_progress_draw(const tui_progress *p, WINDOW *win, int y, int x, int w, uint64_t now_ms);

#endif
