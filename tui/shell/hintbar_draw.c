#include "hintbar.h"

void tui_hints_draw(WINDOW *win, int y, int x, int w, const tui_ctx *chain, size_t n, bool cut)
{
    tui_hint h[32];
    bool use[32];
    size_t count = tui_hints_for(chain, n, cut, h, 32);
    tui_hints_choose(h, count, w - 1, use);
    tui_draw_blank(win, y, x, w, TUI_STY_HINT);
    int cx = x + 1;
    for (size_t i = 0; i < count; i++) {
        if (!use[i])
            continue;
        cx += tui_draw_text(win, y, cx, x + w - cx, TUI_STY_HINT_KEY, h[i].keys);
        cx += tui_draw_text(win, y, cx, x + w - cx, TUI_STY_HINT, " ");
        cx += tui_draw_text(win, y, cx, x + w - cx, TUI_STY_HINT, h[i].label);
        cx += 2;
    }
}
