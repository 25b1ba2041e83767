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

void tui_dialog_free(tui_dialog *d)
{
    free(d->title);
    free(d->text);
    free(d->yes_label);
    free(d->no_label);
    tui_edit_free(&d->input);
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

tui_rect tui_dialog_layout(const tui_dialog *d, int w, int h)
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
    int lines = 0;
    tui_text_wrap(d->text, bw - 4, count_line, &lines);
    int bh = 2 /* borders */ + 1 /* top pad */ + lines + 1 /* pad */ + 1 /* buttons */;
    if (d->kind == TUI_DIALOG_INPUT)
        bh += 2;                        /* input line and message line */
    if (bh > h)
        bh = h > 0 ? h : 1;
    tui_rect r = {(h - bh) / 2, (w - bw) / 2, bh, bw};
    if (r.y < 0)
        r.y = 0;
    if (r.x < 0)
        r.x = 0;
    return r;
}
