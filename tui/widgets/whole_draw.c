#include "whole.h"

#include "text.h"

int tui_whole_fit(WINDOW *win, int y, int x, int w, tui_style sty, const char *title, const char *text,
                  const char *full)
{
    if (text && w > 0 && tui_text_width(text) > w)
        tui_whole_note(title, full ? full : text);
    return tui_draw_fit(win, y, x, w, sty, text);
}
