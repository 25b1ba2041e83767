#include "filter.h"

#include "text.h"

void tui_filter_draw(WINDOW *win, int y, int x, int w, tui_edit *edit, bool typing, const char *text,
                     const char *right)
{
    int rw = tui_text_width(right);
    tui_draw_blank(win, y, x, w, TUI_STY_DIM);
    if (typing || text[0]) {
        tui_draw_text(win, y, x, 1, TUI_STY_KEY, "/");
        int ew = w - 1 - rw;
        if (typing)
            tui_edit_draw(edit, win, y, x + 1, ew, TUI_STY_NORMAL, true);
        else
            tui_draw_fit(win, y, x + 1, ew, TUI_STY_NORMAL, text);
    }
    tui_draw_text(win, y, x + w - rw, rw, TUI_STY_DIM, right);
}
