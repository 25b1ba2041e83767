#include "editline.h"

#include <string.h>

#include "text.h"

void tui_edit_draw(tui_edit *e, WINDOW *win, int y, int x, int w, tui_style sty, bool focused)
{
    if (w <= 0)
        return;
    int cx = 0;
    size_t start = tui_edit_view(e, w, &cx);
    tui_draw_blank(win, y, x, w, sty);
    if (e->secret) {
        int n = tui_text_width(e->text + start);
        tui_style_set(win, sty);
        for (int i = 0; i < n && i < w; i++)
            mvwaddch(win, y, x + i, '*');
    } else {
        tui_draw_text(win, y, x, w, sty, e->text + start);
    }
    if (focused && cx >= 0 && cx < w) {
        const char *at = e->text + e->cursor;
        char cell[8] = " ";
        if (*at && e->secret) {
            strcpy(cell, "*");
        } else if (*at) {
            unsigned cp;
            size_t n = byoc_utf8_decode(at, &cp);
            memcpy(cell, at, n);
            cell[n] = '\0';
        }
        tui_draw_text(win, y, x + cx, w - cx, TUI_STY_SELECTED, cell);
    }
}
