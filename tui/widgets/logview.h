/* logview: a bounded log with follow mode, wrapping, timestamps and search.
 *
 * tui_logring (logring.h, pure): the lines, bounded in count and bytes.
 *
 * tui_logview (logview.c, pure): the scroll position in screen rows (a
 * wrapped line takes several), follow mode (stays at the newest line; stops
 * when the user scrolls up; `F` or End resumes), wrap and timestamp
 * toggles, and search (`/`, n/N; case-insensitive, wraps around).
 * Drawing (logview_draw.c): the lines with the matches highlighted and a
 * footer with the mode, the counts and the search.
 *
 * Usage from a screen: tui_logview_init(&s->log, 10000, 4 << 20);
 *   on_event(LOG): tui_logview_append(&s->log, ev->text, now);
 *   key(): tui_logview_handle(&s->log, ev->key, ev->action);
 *   focus contexts: tui_logview_contexts(&s->log, chain);
 *   draw(): tui_logview_draw(&s->log, win, rect, focused); */
#ifndef BYOC_TUI_LOGVIEW_H
#define BYOC_TUI_LOGVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "draw.h"
#include "editline.h"
#include "logring.h"

typedef struct tui_logview {
    tui_logring ring;
    uint64_t top_seq;    /* first line shown */
    int top_sub;         /* first row of that line shown (when wrapped) */
    bool follow, wrap, timestamps;
    int width, height;   /* text area, from the last draw or tui_logview_set_size */
    char *search;        /* the active search, or NULL */
    long match;          /* index of the current match, or -1 */
    size_t match_nth;    /* its rank among the matches (1-based) when found... */
    uint64_t match_hits_dropped;  /* ...and ring.hits_dropped then: matches dropped since come off */
    bool searching;      /* the search is being typed */
    tui_edit search_edit;
    char note[96];       /* "no match for ..." after a failed search */
} tui_logview;

void tui_logview_init(tui_logview *v, size_t max_lines, size_t max_bytes);
/* Release every line: the view needs tui_logview_init before its next use. */
void tui_logview_clear(tui_logview *v);
void tui_logview_append(tui_logview *v, const char *text, double ts);
/* Drop every line (keeps the limits and the size). */
void tui_logview_reset(tui_logview *v);
void tui_logview_set_size(tui_logview *v, int width, int height);
/* Screen rows line i takes at the current width/wrap/timestamps. */
int tui_logview_line_rows(const tui_logview *v, size_t i);
/* The prefix drawn before a line ("12:34:56 " with timestamps, else ""). */
void tui_logview_prefix(const tui_logview *v, const tui_log_line *l, char *buf, size_t size);
/* Scroll by rows (negative: up, which stops following). */
void tui_logview_scroll(tui_logview *v, long rows);
void tui_logview_top(tui_logview *v);
/* Whether the newest row is on screen. */
bool tui_logview_at_bottom(const tui_logview *v);
/* Index (into the ring) of the first line shown, after applying follow. */
size_t tui_logview_first_index(tui_logview *v);
/* Search for needle from the current position; true if found (scrolls to it). */
bool tui_logview_search(tui_logview *v, const char *needle);
bool tui_logview_next_match(tui_logview *v, int dir);
/* Keys: movement, follow, wrap, timestamps, search (then typing it: accept
 * runs it, cancel drops it), next/prev-match. true when handled. */
bool tui_logview_handle(tui_logview *v, int key, tui_action_id act);
size_t tui_logview_contexts(const tui_logview *v, tui_ctx *out);
/* Footer text: "follow wrap time  1200 lines (34 dropped)  /error 3 of 9". */
void tui_logview_status(const tui_logview *v, char *buf, size_t size);

void tui_logview_draw(tui_logview *v, WINDOW *win, tui_rect rect, bool focused);

#endif
