#include "dialog.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
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

static void draw_buttons(const tui_dialog *d, WINDOW *win, int y, int x)
{
    if (d->kind == TUI_DIALOG_MESSAGE) {
        draw_button(win, y, x, d->yes_label, true);
        return;
    }
    x += draw_button(win, y, x, d->yes_label, d->button == 1) + 2;
    draw_button(win, y, x, d->no_label, d->button == 0);
}

static int buttons_width(const tui_dialog *d)
{
    if (d->kind == TUI_DIALOG_MESSAGE)
        return tui_text_width(d->yes_label) + 4;
    return tui_text_width(d->yes_label) + tui_text_width(d->no_label) + 10;
}

/* Nothing else fits: "Title: the text" on the status line, the buttons (or
 * the input) on the hint line. The text is flattened to one line; the
 * keys are in help, the box forms show it whole. */
static void draw_lines(tui_dialog *d, WINDOW *win, tui_rect r)
{
    tui_draw_fill(win, r, TUI_STY_DIALOG);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "%s: %s", d->title, d->text);
    for (char *c = b.data; c && *c; c++)
        if (*c == '\n')
            *c = ' ';
    tui_draw_fit(win, r.y, 1, r.w - 2, TUI_STY_DIALOG, byoc_buf_str(&b));
    byoc_buf_clear(&b);
    if (r.h < 2)
        return;
    int y = r.y + 1;
    if (d->kind == TUI_DIALOG_INPUT) {
        int mw = d->msg[0] ? r.w / 3 : 0;
        tui_edit_draw(&d->input, win, y, 1, r.w - 2 - mw, TUI_STY_FIELD_FOCUS, true);
        if (mw)
            tui_draw_fit(win, y, r.w - mw, mw - 1, TUI_STY_ERROR, d->msg);
        return;
    }
    draw_buttons(d, win, y, 1);
}

void tui_dialog_draw(tui_dialog *d, WINDOW *win, const tui_dialog_place *at)
{
    tui_rect r = at->box;
    if (at->form == TUI_PLACE_LINES) {
        draw_lines(d, win, r);
        return;
    }
    tui_draw_fill(win, r, TUI_STY_DIALOG);
    tui_draw_box(win, r, TUI_STY_BORDER_FOCUS, d->title, TUI_STY_HEADING);
    tui_rect in = tui_rect_inset(r, 1);
    int bottom = in.y + in.h;               /* one past the last inside row */
    int pad = at->compact ? 0 : 1;
    int last_text = bottom - 1 - pad - (d->kind == TUI_DIALOG_INPUT ? 2 : 0);
    struct text_pos p = {win, in.y + pad, in.x + 1, in.w - 2, last_text};
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
    draw_buttons(d, win, by, in.x + (in.w - buttons_width(d)) / 2);
}
