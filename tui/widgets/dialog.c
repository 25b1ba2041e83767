#include "dialog.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "text.h"

static void set_common(tui_dialog *d, tui_dialog_kind kind, const char *title, const char *text)
{
    memset(d, 0, sizeof *d);
    d->kind = kind;
    d->title = byoc_xstrdup(title ? title : "");
    d->text = tui_text_sanitize(text ? text : "", text ? strlen(text) : 0);
    tui_edit_init(&d->input, "");
}

void tui_dialog_message(tui_dialog *d, const char *title, const char *text)
{
    set_common(d, TUI_DIALOG_MESSAGE, title, text);
    d->yes_label = byoc_xstrdup("OK");
    d->button = 1;
}

void tui_dialog_confirm(tui_dialog *d, const char *title, const char *text, const char *yes_label,
                        const char *no_label)
{
    set_common(d, TUI_DIALOG_CONFIRM, title, text);
    d->yes_label = byoc_xstrdup(yes_label ? yes_label : "Yes");
    d->no_label = byoc_xstrdup(no_label ? no_label : "No");
    d->button = 0;
}

void tui_dialog_input(tui_dialog *d, const char *title, const char *text, const char *initial,
                      tui_input_check_fn check, void *ud)
{
    set_common(d, TUI_DIALOG_INPUT, title, text);
    tui_edit_set(&d->input, initial);
    d->check = check;
    d->check_ud = ud;
    d->yes_label = byoc_xstrdup("OK");
    d->no_label = byoc_xstrdup("Cancel");
    d->button = 1;
}

void tui_dialog_clear(tui_dialog *d)
{
    free(d->title);
    free(d->text);
    free(d->yes_label);
    free(d->no_label);
    tui_edit_clear(&d->input);
    memset(d, 0, sizeof *d);
}

tui_dialog_result tui_dialog_handle(tui_dialog *d, int key, tui_action_id act)
{
    switch (d->kind) {
    case TUI_DIALOG_MESSAGE:
        if (act == TUI_ACT_ACCEPT || act == TUI_ACT_CANCEL || act == TUI_ACT_YES || act == TUI_ACT_NO)
            return TUI_DIALOG_YES;
        return TUI_DIALOG_OPEN;
    case TUI_DIALOG_CONFIRM:
        switch (act) {
        case TUI_ACT_YES: return TUI_DIALOG_YES;
        case TUI_ACT_NO:
        case TUI_ACT_CANCEL: return TUI_DIALOG_NO;
        case TUI_ACT_SWITCH: d->button = !d->button; return TUI_DIALOG_OPEN;
        case TUI_ACT_ACCEPT: return d->button ? TUI_DIALOG_YES : TUI_DIALOG_NO;
        default: return TUI_DIALOG_OPEN;
        }
    case TUI_DIALOG_INPUT:
        if (act == TUI_ACT_CANCEL)
            return TUI_DIALOG_NO;
        if (act == TUI_ACT_ACCEPT) {
            d->msg[0] = '\0';
            if (d->check && !d->check(tui_edit_text(&d->input), d->msg, sizeof d->msg, d->check_ud)) {
                if (!d->msg[0])
                    strcpy(d->msg, "invalid value");
                return TUI_DIALOG_OPEN;
            }
            return TUI_DIALOG_YES;
        }
        if (tui_edit_key(&d->input, key, act))
            d->msg[0] = '\0';
        return TUI_DIALOG_OPEN;
    }
    return TUI_DIALOG_OPEN;
}

size_t tui_dialog_contexts(const tui_dialog *d, tui_ctx *out)
{
    size_t n = 0;
    if (d->kind == TUI_DIALOG_INPUT)
        out[n++] = TUI_CTX_EDIT;
    out[n++] = TUI_CTX_DIALOG;
    return n;
}

static void count_line(const char *s, size_t n, void *ud)
{
    (void)s;
    (void)n;
    (*(int *)ud)++;
}

static int text_lines(const tui_dialog *d, int cols)
{
    int lines = 0;
    tui_text_wrap(d->text, cols, count_line, &lines);
    return lines;
}

/* Borders, the text, then the buttons, or the input, its message line and
 * the keys; a full box has a blank row above and below the text. */
static int box_height(const tui_dialog *d, int bw, bool compact)
{
    int bh = 2 + text_lines(d, bw - 4) + 1 + (compact ? 0 : 2);
    if (d->kind == TUI_DIALOG_INPUT)
        bh += 2;
    return bh;
}

/* As wide as the text and the title ask, at least 36, at most 70 and w - 4. */
static int box_width(const tui_dialog *d, int w)
{
    int bw = w - 4 < 70 ? w - 4 : 70;
    int need = tui_text_width(d->text) + 4;
    int tw = tui_text_width(d->title) + 8;
    if (need < tw)
        need = tw;
    if (need < 36)
        need = 36;
    if (bw > need)
        bw = need;
    if (bw < 10)
        bw = w > 0 ? w : 1;
    return bw;
}

static tui_dialog_place place(tui_place_form form, int y, int x, int h, int w, bool compact)
{
    return (tui_dialog_place){form, {y, x, h, w}, compact, form == TUI_PLACE_DOCKED ? h : 0};
}

static tui_dialog_place on_message_lines(int w, int h)
{
    return place(TUI_PLACE_LINES, h >= 2 ? h - 2 : 0, 0, h >= 2 ? 2 : (h > 0 ? h : 1), w > 0 ? w : 1, true);
}

tui_dialog_place tui_dialog_place_for(const tui_dialog *d, tui_about about, int w, int h, tui_rect content,
                                      tui_rect mark)
{
    if (about == TUI_ABOUT_PANE) {
        int bh = box_height(d, content.w, true);
        if (content.h - 2 - bh >= TUI_DIALOG_MIN_CONTENT)
            return place(TUI_PLACE_DOCKED, content.y + content.h - bh, content.x, bh, content.w, true);
        return on_message_lines(w, h);
    }
    int bw = box_width(d, w);
    int x = (w - bw) / 2 > 0 ? (w - bw) / 2 : 0;
    if (about == TUI_ABOUT_MARK && mark.h > 0) {
        const int top = 1, bottom = h - 1;      /* the top bar and the hint line stay */
        for (int compact = 0; compact < 2; compact++) {
            int bh = box_height(d, bw, compact);
            if (mark.y + mark.h + bh <= bottom)   /* below reads on from what it asks about */
                return place(TUI_PLACE_BESIDE, mark.y + mark.h, x, bh, bw, compact);
            if (mark.y - bh >= top)
                return place(TUI_PLACE_BESIDE, mark.y - bh, x, bh, bw, compact);
        }
        return on_message_lines(w, h);
    }
    int bh = box_height(d, bw, false);
    if (bh > h)
        bh = h > 0 ? h : 1;
    int y = (h - bh) / 2 > 0 ? (h - bh) / 2 : 0;
    return place(TUI_PLACE_CENTRED, y, x, bh, bw, false);
}
