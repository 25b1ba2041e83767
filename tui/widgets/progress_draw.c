#include "progress.h"

#include <stdio.h>

#include "text.h"

void tui_progress_draw(const tui_progress *p, WINDOW *win, int y, int x, int w, uint64_t now_ms)
{
    if (w <= 0)
        return;
    const tui_glyphs *g = tui_glyph();
    tui_draw_blank(win, y, x, w, TUI_STY_NORMAL);
    char text[160];
    tui_progress_text(p, text, sizeof text);
    int label_w = p->label[0] ? tui_text_width(p->label) + 1 : 0;
    if (label_w > w / 3)
        label_w = w / 3;
    int text_w = tui_text_width(text);
    int bar_w = w - label_w - text_w - 3;   /* [bar] and a space */
    if (label_w)
        tui_draw_fit(win, y, x, label_w - 1, TUI_STY_NORMAL, p->label);
    int cx = x + label_w;
    double f = tui_progress_fraction(p);
    if (f < 0) {
        tui_draw_text(win, y, cx, 1, TUI_STY_KEY, g->spinner[tui_spinner_frame(now_ms, g->spinner_frames)]);
        cx += 2;
    } else if (bar_w >= 4) {
        if (bar_w > 40)
            bar_w = 40;
        int full = tui_progress_cells(f, bar_w);
        tui_draw_text(win, y, cx, 1, TUI_STY_DIM, "[");
        for (int i = 0; i < bar_w; i++)
            tui_draw_text(win, y, cx + 1 + i, 1, i < full ? TUI_STY_BAR_DONE : TUI_STY_BAR_TODO,
                          i < full ? g->bar_full : g->bar_empty);
        tui_draw_text(win, y, cx + 1 + bar_w, 1, TUI_STY_DIM, "]");
        cx += bar_w + 3;
    }
    tui_draw_fit(win, y, cx, x + w - cx, p->done ? TUI_STY_OK : TUI_STY_NORMAL, text);
}
