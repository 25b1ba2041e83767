#include "form.h"

#include <stdio.h>
#include <string.h>

#include "text.h"
#include "whole.h"

#define VALUE_MAX 60

static void draw_value(const tui_form *f, tui_field *fl, WINDOW *win, int y, int x, int w, bool focus)
{
    const tui_glyphs *g = tui_glyph();
    tui_style sty = focus ? TUI_STY_FIELD_FOCUS : TUI_STY_FIELD;
    switch (fl->kind) {
    case TUI_FIELD_TEXT:
    case TUI_FIELD_NUMBER:
        tui_edit_draw(&fl->edit, win, y, x, w, sty, focus);
        if (focus && !fl->edit.len && fl->help)
            tui_draw_fit(win, y, x + 1, w - 1, TUI_STY_DIM, fl->help);
        const char *origin = tui_form_origin(f, fl);
        if (origin) {   /* where an unchanged value came from, when it fits after the value */
            char from[96];
            snprintf(from, sizeof from, "(from %s)", origin);
            int used = tui_text_width(tui_form_value(f, fl->key)) + 2;
            if (used + tui_text_width(from) <= w)
                tui_draw_text(win, y, x + used, w - used, TUI_STY_DIM, from);
        }
        break;
    case TUI_FIELD_CHOICE: {
        char buf[256];
        const char *v = fl->nchoices ? fl->choices[fl->choice] : "";
        if (focus)
            snprintf(buf, sizeof buf, "%s %s %s", g->arrow_left, v, g->arrow_right);
        else
            snprintf(buf, sizeof buf, "  %s  ", v);
        tui_draw_blank(win, y, x, w, TUI_STY_NORMAL);
        tui_draw_fit(win, y, x, w, sty, buf);
        if (fl->nchoices > 1) {
            char count[32];
            snprintf(count, sizeof count, " %zu/%zu", fl->choice + 1, fl->nchoices);
            int used = tui_text_width(buf);
            tui_draw_text(win, y, x + used, w - used, TUI_STY_DIM, count);
        }
        break;
    }
    case TUI_FIELD_TOGGLE:
        tui_draw_blank(win, y, x, w, TUI_STY_NORMAL);
        tui_draw_text(win, y, x, w, sty, fl->on ? g->check_on : g->check_off);
        tui_draw_text(win, y, x + 4, w - 4, TUI_STY_DIM, fl->on ? "on" : "off");
        break;
    }
}

/* A field's message wrapped on the rows below it, clipped to the form's rows
 * [top, bottom); the last of TUI_FORM_MSG_ROWS rows ends cut when more follows. */
struct msg_rows {
    WINDOW *win;
    int y, x, w, top, bottom, row, max;
    bool cut;
};

static void msg_row(const char *start, size_t n, void *ud)
{
    struct msg_rows *m = ud;
    int y = m->y + m->row++;
    if (m->row > m->max) {
        m->cut = true;
        return;
    }
    if (y < m->top || y >= m->bottom)
        return;
    if (m->row == m->max) {             /* the last row has the rest: an ellipsis when it is more */
        tui_draw_fit(m->win, y, m->x, m->w, TUI_STY_ERROR, start);
        return;
    }
    tui_draw_ntext(m->win, y, m->x, m->w, TUI_STY_ERROR, start, n);
}

static void draw_message(const tui_form *f, size_t i, WINDOW *win, int y, tui_rect r, bool focus)
{
    const tui_field *fl = &f->fields[i];
    int dx, w;
    tui_form_msg_box(f, i, r.w, &dx, &w);
    int x = r.x + dx;
    char msg[sizeof fl->msg + 4];
    snprintf(msg, sizeof msg, "! %s", fl->msg);
    struct msg_rows m = {win, y, x, w, r.y, r.y + r.h, 0, TUI_FORM_MSG_ROWS, false};
    tui_text_wrap(msg, w, msg_row, &m);
    if (m.cut || focus) {               /* the key for the whole text works on the field in focus */
        char title[160];
        snprintf(title, sizeof title, "%s: not valid", fl->label);
        tui_whole_note(title, fl->msg);
    }
}

void tui_form_draw(tui_form *f, WINDOW *win, tui_rect r, bool focused)
{
    if (r.h <= 0 || r.w <= 0)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    f->width = r.w;
    tui_form_scroll(f, r.h);
    int label_w = tui_form_label_columns(f, r.w);
    int vx = r.x + label_w + 1;
    int vw = r.w - label_w - 1;
    if (vw > VALUE_MAX)
        vw = VALUE_MAX;
    int line = 0;
    for (size_t i = 0; i < f->count; i++) {
        tui_field *fl = &f->fields[i];
        bool focus = focused && i == f->focus;
        int lines = tui_form_field_lines(f, i);
        int y = r.y + line - f->top;
        line += lines;
        if (y + lines <= r.y || y >= r.y + r.h)
            continue;
        if (y >= r.y) {
            char label[128];
            snprintf(label, sizeof label, "%s%s", fl->label, fl->required ? "*" : "");
            tui_style ls = i == f->focus ? TUI_STY_LABEL_FOCUS : TUI_STY_LABEL;
            if (i == f->focus)
                tui_draw_text(win, y, r.x, 1, ls, tui_glyph()->marker);
            tui_draw_fit(win, y, r.x + 2, label_w - 2, ls, label);
            draw_value(f, fl, win, y, vx, vw, focus);
        }
        if (fl->msg[0])
            draw_message(f, i, win, y + 1, r, focus);
    }
}
