/* preflight_draw: the preflight panel (preflight_model.h, tui_pf_view_draw) in curses: a
 * divider with the summary line, then the page of checks. */
#include "preflight_model.h"

#include <stdio.h>

static tui_style summary_style(const tui_pf_view *v)
{
    if (v->state == TUI_PF_RUNNING)
        return TUI_STY_HEADING;
    if (v->stale || v->state == TUI_PF_CANCELLED)
        return TUI_STY_DIM;
    if (v->state == TUI_PF_ERROR || tui_pf_view_count(v, BYOC_PF_FAIL))
        return TUI_STY_ERROR;
    return tui_pf_view_count(v, BYOC_PF_WARN) ? TUI_STY_WARN : TUI_STY_OK;
}

void tui_pf_view_draw(tui_pf_view *v, WINDOW *win, tui_rect r, bool focused, uint64_t now_ms)
{
    if (r.h < 1 || r.w < 4)
        return;
    char summary[1024];
    tui_pf_view_summary(v, now_ms, summary, sizeof summary);
    tui_style sty = summary_style(v);
    tui_draw_hline(win, r.y, r.x, r.w, focused ? TUI_STY_BORDER_FOCUS : TUI_STY_BORDER);
    char title[1100];
    snprintf(title, sizeof title, " %s ", summary);
    tui_draw_fit(win, r.y, r.x + 1, r.w - 2, sty, title);
    tui_rect in = {r.y + 1, r.x + 1, r.h - 1, r.w - 1};
    if (in.h < 1)
        return;
    tui_page_layout(&v->page, in.w);
    tui_page_set_height(&v->page, in.h);
    if (v->follow && v->state == TUI_PF_RUNNING)
        tui_page_scroll(&v->page, (int)v->page.nrows);
    tui_page_draw(&v->page, win, in);
}
