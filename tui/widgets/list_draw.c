#include "list.h"

#include <stdio.h>
#include <string.h>

#include "filter.h"
#include "text.h"

static void draw_cell(WINDOW *win, int y, int x, int w, tui_style sty, const char *text, tui_align align)
{
    if (w <= 0)
        return;
    char buf[1024];
    int n = tui_text_fit(text, w, tui_glyph()->ellipsis, buf, sizeof buf);
    int off = (align == TUI_ALIGN_RIGHT && n < w) ? w - n : 0;
    tui_draw_blank(win, y, x, w, sty);
    tui_draw_text(win, y, x + off, w - off, sty, buf);
}

void tui_list_draw(tui_list *l, WINDOW *win, tui_rect r, bool focused)
{
    if (r.h <= 0 || r.w <= 0)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    bool footer = r.h >= 3;
    int data_h = r.h - 1 - (footer ? 1 : 0);
    if (data_h < 1)
        data_h = 1;
    tui_list_set_height(l, data_h);

    int widths[l->ncols ? l->ncols : 1];
    tui_list_layout(l->cols, l->ncols, r.w, widths);

    int x = r.x;
    tui_draw_blank(win, r.y, r.x, r.w, TUI_STY_COLUMN_HEAD);
    for (size_t c = 0; c < l->ncols; c++) {
        if (widths[c] > 0) {
            char title[256];
            const char *mark = "";
            if ((int)c == l->sort_col)
                mark = l->sort_desc ? tui_glyph()->sort_down : tui_glyph()->sort_up;
            snprintf(title, sizeof title, "%s%s", l->cols[c].title, mark);
            draw_cell(win, r.y, x, widths[c], TUI_STY_COLUMN_HEAD, title, l->cols[c].align);
            x += widths[c];
        }
        if (c + 1 < l->ncols && widths[c] > 0 && x < r.x + r.w) {
            tui_draw_blank(win, r.y, x, 1, TUI_STY_COLUMN_HEAD);
            x++;
        }
    }

    size_t n = tui_list_visible(l);
    if (n == 0) {
        const char *msg = l->nrows == 0 ? (l->empty_text ? l->empty_text : "(nothing to show)")
                                        : "(no rows match the filter)";
        tui_draw_fit(win, r.y + 1, r.x + 1, r.w - 1, TUI_STY_DIM, msg);
    }
    for (int i = 0; i < data_h && l->top + (size_t)i < n; i++) {
        size_t vi = l->top + (size_t)i;
        const tui_list_row *row = &l->rows[l->view[vi]];
        tui_style sty = TUI_STY_NORMAL;
        if ((long)vi == l->sel)
            sty = focused ? TUI_STY_SELECTED : TUI_STY_SELECTED_DIM;
        int y = r.y + 1 + i;
        tui_draw_blank(win, y, r.x, r.w, sty);
        x = r.x;
        for (size_t c = 0; c < l->ncols; c++) {
            if (widths[c] > 0) {
                draw_cell(win, y, x, widths[c], sty, row->cells[c], l->cols[c].align);
                x += widths[c] + 1;
            }
        }
    }

    if (footer) {
        int y = r.y + r.h - 1;
        char count[64], pos[96];
        tui_list_count_text(l, count, sizeof count);
        if (l->filter[0] || l->filtering)
            snprintf(pos, sizeof pos, " %s ", count);
        else if (n)
            snprintf(pos, sizeof pos, " %ld/%s ", l->sel + 1, count);
        else
            snprintf(pos, sizeof pos, " 0 ");
        tui_filter_draw(win, y, r.x, r.w, &l->filter_edit, l->filtering, l->filter, pos);
    }
}

tui_rect tui_list_selected_rect(const tui_list *l, tui_rect r)
{
    tui_rect none = {0, 0, 0, 0};
    if (l->sel < 0 || (size_t)l->sel < l->top || (long)l->top + l->height <= l->sel || r.h < 2)
        return none;
    return (tui_rect){r.y + 1 + (int)((size_t)l->sel - l->top), r.x, 1, r.w};
}
