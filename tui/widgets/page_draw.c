#include "page.h"

#include <stdio.h>

#include "text.h"

void tui_page_draw(tui_page *p, WINDOW *win, tui_rect r)
{
    if (r.h <= 0 || r.w <= 0)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    bool more_below, more_above;
    tui_page_layout(p, r.w - 1);                /* one column for the scroll marks */
    tui_page_set_height(p, r.h);
    more_above = p->top > 0;
    more_below = (size_t)(p->top + r.h) < p->nrows;
    for (int i = 0; i < r.h && (size_t)(p->top + i) < p->nrows; i++) {
        const tui_page_row *row = &p->rows[p->top + i];
        const tui_page_item *it = &p->items[row->item];
        int y = r.y + i;
        if (row->first && it->kind == TUI_PAGE_BULLET)
            tui_draw_text(win, y, r.x, 2, TUI_STY_DIM, tui_glyph_mode_get() == TUI_GLYPHS_UTF8 ? "•" : "*");
        if (row->first && it->kind == TUI_PAGE_KV)
            tui_draw_fit(win, y, r.x, p->key_width, TUI_STY_LABEL, it->key);
        tui_draw_ntext(win, y, r.x + row->indent, r.w - 1 - row->indent, it->style, it->text + row->start,
                       row->len);
    }
    if (more_above)
        tui_draw_text(win, r.y, r.x + r.w - 1, 1, TUI_STY_DIM, tui_glyph()->sort_up);
    if (more_below)
        tui_draw_text(win, r.y + r.h - 1, r.x + r.w - 1, 1, TUI_STY_DIM, tui_glyph()->sort_down);
}
