#include "dialog.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

struct text_pos {
    WINDOW *win;
    int y, x, w, max_y;
};

static void draw_line(const char *s, size_t n, void *ud)
{
    struct text_pos *p = ud;
    if (p->y < p->max_y)
        tui_draw_ntext(p->win, p->y, p->x, p->w, TUI_STY_DIALOG, s, n);
    p->y++;
}

static int draw_button(WINDOW *win, int y, int x, const char *label, bool selected)
{
    char buf[64];
    snprintf(buf, sizeof buf, selected ? "[ %s ]" : "  %s  ", label);
    return tui_draw_text(win, y, x, 64, selected ? TUI_STY_BUTTON_FOCUS : TUI_STY_BUTTON, buf);
}

void tui_dialog_draw(tui_dialog *d, WINDOW *win, int sw, int sh)
{
    tui_rect r = tui_dialog_layout(d, sw, sh);
    tui_draw_fill(win, r, TUI_STY_DIALOG);
    tui_draw_box(win, r, TUI_STY_BORDER_FOCUS, d->title, TUI_STY_HEADING);
    tui_rect in = tui_rect_inset(r, 1);
    int bottom = in.y + in.h;               /* one past the last inside row */
    struct text_pos p = {win, in.y + 1, in.x + 1, in.w - 2, bottom - 2};
    tui_text_wrap(d->text, in.w - 2, draw_line, &p);
    int by = bottom - 1;
    if (d->kind == TUI_DIALOG_INPUT) {
        tui_edit_draw(&d->input, win, bottom - 3, in.x + 1, in.w - 2, TUI_STY_FIELD_FOCUS, true);
        if (d->msg[0]) {
            char msg[200];
            snprintf(msg, sizeof msg, "! %s", d->msg);
            tui_draw_fit(win, bottom - 2, in.x + 1, in.w - 2, TUI_STY_ERROR, msg);
        }
        char hint[64];
        snprintf(hint, sizeof hint, "Enter %s   Esc %s", d->yes_label, d->no_label);
        tui_draw_fit(win, by, in.x + 1, in.w - 2, TUI_STY_DIM, hint);
        return;
    }
    if (d->kind == TUI_DIALOG_MESSAGE) {
        int w = tui_text_width(d->yes_label) + 4;
        draw_button(win, by, in.x + (in.w - w) / 2, d->yes_label, true);
        return;
    }
    int w = tui_text_width(d->yes_label) + tui_text_width(d->no_label) + 10;
    int x = in.x + (in.w - w) / 2;
    x += draw_button(win, by, x, d->yes_label, d->button == 1) + 2;
    draw_button(win, by, x, d->no_label, d->button == 0);
}
