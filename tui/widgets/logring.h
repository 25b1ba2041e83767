/* logring: the lines of a log view (logview.h), bounded by a maximum count and
 * a maximum number of bytes; the oldest lines are dropped first and counted.
 * Text is sanitized on the way in (ANSI escapes removed, tabs expanded). Pure. */
#ifndef BYOC_TUI_LOGRING_H
#define BYOC_TUI_LOGRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tui_log_line {
    char *text;
    double ts;           /* seconds since the epoch, when the line arrived */
} tui_log_line;

typedef struct tui_logring {
    tui_log_line *lines; /* circular, max_lines slots */
    size_t max_lines, max_bytes;
    size_t head, count;  /* head: slot of the oldest line */
    size_t bytes;        /* text bytes held */
    uint64_t first_seq;  /* sequence number of the oldest line held */
    uint64_t dropped;    /* lines dropped to stay within the bounds */
    char *needle;        /* lines containing it (case-insensitively) are counted: */
    char needle_lower[256];
    bool needle_ascii;   /* needle_lower holds it lowered (the fast path) */
    size_t hits;         /*   among the lines held */
    uint64_t hits_dropped;  /* among the lines dropped since the needle was set */
} tui_logring;

void tui_logring_init(tui_logring *r, size_t max_lines, size_t max_bytes);
void tui_logring_clear(tui_logring *r);
/* Append one line (n bytes, no newline expected; a longer line than
 * max_bytes is cut). */
void tui_logring_push(tui_logring *r, const char *text, size_t n, double ts);
/* Append text that may hold several lines (split at '\n'; a final newline
 * does not add an empty line). */
void tui_logring_push_text(tui_logring *r, const char *text, double ts);
size_t tui_logring_count(const tui_logring *r);
/* Count the lines that contain needle (NULL: stop counting), kept up to date
 * as lines come and go, so a view need not scan the ring on every frame. */
void tui_logring_set_needle(tui_logring *r, const char *needle);
/* How many of lines 0..last contain the needle. */
size_t tui_logring_hits_upto(const tui_logring *r, size_t last);
/* Line i, 0 = oldest held; NULL when out of range. */
const tui_log_line *tui_logring_get(const tui_logring *r, size_t i);
/* The index of the next line (dir > 0) or previous line (dir < 0) after
 * `from` that contains needle case-insensitively, wrapping around and
 * ending with `from` itself; -1 if none. */
long tui_logring_find(const tui_logring *r, const char *needle, long from, int dir);

#endif
