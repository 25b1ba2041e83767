/* preflight_model: the preflight checks of one job as the TUI shows them
 * (backend/byoc/preflight.h does the checking).
 *
 * The model (preflight_model.c) takes the events of a byoc_preflight_task_fn
 * task: every CHECK event is one finished check (key = name, current =
 * byoc_pf_status, text = message, detail = fix), shown as it comes; DONE
 * brings the report, after which the checks are listed failures first, then
 * warnings, then passes (report order within each). Results go
 * stale when the job they were run for changes (tui_pf_view_mark_stale).
 *
 * The panel (tui_pf_view_draw, preflight_draw.c): a divider with the summary line, then a
 * scrollable page of the checks, each "FAIL  name: message" (PASS, WARN) wrapped, with a
 * "fix: ..." line under a failure or warning. While the checks run the page
 * follows the newest one unless the user scrolled away. */
#ifndef BYOC_TUI_PREFLIGHT_VIEW_H
#define BYOC_TUI_PREFLIGHT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "byoc/preflight.h"
#include "core/task.h"
#include "draw.h"
#include "page.h"

typedef enum {
    TUI_PF_NONE,       /* never run */
    TUI_PF_RUNNING,
    TUI_PF_DONE,       /* every check ran */
    TUI_PF_CANCELLED,  /* stopped: the checks so far are kept */
    TUI_PF_ERROR       /* the checks could not run (error) */
} tui_pf_state;

typedef struct tui_pf_item {
    char *name;
    byoc_pf_status status;
    char *message;
    char *fix;         /* "" for a pass */
} tui_pf_item;

typedef struct tui_pf_view {
    tui_pf_state state;
    tui_pf_item *items;
    size_t n, cap;
    bool stale;        /* the job changed after these results */
    char *error;       /* TUI_PF_ERROR: why */
    uint64_t started_ms, ended_ms;
    time_t ended_at;   /* wall clock of DONE, shown in the summary */
    tui_page page;     /* the checks, rebuilt on change */
    bool follow;       /* keep the newest check in view */
} tui_pf_view;

void tui_pf_view_init(tui_pf_view *v);
void tui_pf_view_clear(tui_pf_view *v);
/* Forget the checks and show them running from now. */
void tui_pf_view_start(tui_pf_view *v, uint64_t now_ms);
/* Whether an event is one of preflight's finished checks. */
bool tui_pf_view_is_check(const byoc_event *ev);
/* One event of the preflight task. Returns true when it ended the run (DONE or ERROR). */
bool tui_pf_view_event(tui_pf_view *v, const byoc_event *ev, uint64_t now_ms);
/* The run was cancelled (the user left or changed the job). */
void tui_pf_view_cancelled(tui_pf_view *v, uint64_t now_ms);
void tui_pf_view_mark_stale(tui_pf_view *v);

size_t tui_pf_view_count(const tui_pf_view *v, byoc_pf_status s);
/* The names of the failed checks, ", "-separated; malloc'd ("" for none). */
char *tui_pf_view_failed_names(const tui_pf_view *v);
/* "Preflight at 21:40:12 FAILED (image.ecr, contract.program): 12 pass, 1 warn,
 * 2 fail in 3.1s" (most telling first: a narrow screen cuts the end) and the
 * like for running / cancelled / error, with "[stale: the job changed]"
 * after "Preflight" when stale. Returns buf. */
char *tui_pf_view_summary(const tui_pf_view *v, uint64_t now_ms, char *buf, size_t size);

/* Scrolling (up, down, page up/down, top, bottom); true if handled. */
bool tui_pf_view_handle(tui_pf_view *v, tui_action_id act);
/* The divider with the summary on row r.y, the checks below. */
void tui_pf_view_draw(tui_pf_view *v, WINDOW *win, tui_rect r, bool focused, uint64_t now_ms);

#endif
