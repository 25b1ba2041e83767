#include "statusbar.h"

#include "text.h"

void tui_status_draw(const tui_statusbar *sb, WINDOW *win, int y, int x, int w, const char *right)
{
    tui_draw_blank(win, y, x, w, TUI_STY_STATUS);
    int rw = right && *right ? tui_text_width(right) + 2 : 0;
    if (rw > w / 2)
        rw = w / 2;
    int cx = x + 1, end = x + w - rw;
    for (int i = 0; i < TUI_SB_COUNT && cx < end; i++) {
        cx += tui_draw_text(win, y, cx, end - cx, TUI_STY_STATUS, tui_status_label(i));
        cx += tui_draw_text(win, y, cx, end - cx, TUI_STY_STATUS, " ");
        cx += tui_draw_fit(win, y, cx, end - cx, TUI_STY_STATUS_KEY, tui_status_get(sb, i));
        cx += tui_draw_text(win, y, cx, end - cx, TUI_STY_STATUS, "  ");
    }
    if (rw)
        tui_draw_fit(win, y, x + w - rw + 1, rw - 2, TUI_STY_STATUS_KEY, right);
}
