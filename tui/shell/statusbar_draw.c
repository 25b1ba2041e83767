#include "statusbar.h"

#include <stdio.h>

#include "text.h"

void tui_status_draw(const tui_statusbar *sb, WINDOW *win, int y, int x, int w, const char *right)
{
    tui_draw_blank(win, y, x, w, TUI_STY_STATUS);
    int give[TUI_SB_COUNT], rw;
    tui_status_fit(sb, w, right && *right ? tui_text_width(right) + 2 : 0, give, &rw);
    int cx = x + 1;
    for (int i = 0; i < TUI_SB_COUNT; i++) {
        if (!give[i])
            continue;
        int end = cx + give[i];
        int vx = cx + tui_draw_text(win, y, cx, end - cx, TUI_STY_STATUS, tui_status_label(i));
        vx += tui_draw_text(win, y, vx, end - vx, TUI_STY_STATUS, " ");
        const char *fix = tui_status_fix(sb, i);
        char value[512];
        snprintf(value, sizeof value, "%s%s%s", tui_status_get(sb, i), fix ? ": " : "", fix ? fix : "");
        tui_draw_fit(win, y, vx, end - vx, TUI_STY_STATUS_KEY, value);
        cx = end + 2;
    }
    if (rw)
        tui_draw_fit(win, y, x + w - rw + 1, rw - 2, TUI_STY_STATUS_KEY, right);
}
