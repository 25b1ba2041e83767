#include "form.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/str.h"
#include "keys.h"
#include "text.h"

#define LABEL_MAX 24

void tui_form_init(tui_form *f)
{
    memset(f, 0, sizeof *f);
}

void tui_form_clear(tui_form *f)
{
    for (size_t i = 0; i < f->count; i++) {
        tui_field *fl = &f->fields[i];
        free(fl->key);
        free(fl->label);
        free(fl->help);
        free(fl->origin);
        free(fl->origin_value);
        tui_edit_clear(&fl->edit);
        for (size_t c = 0; c < fl->nchoices; c++)
            free(fl->choices[c]);
        free(fl->choices);
    }
    free(f->fields);
    memset(f, 0, sizeof *f);
}

static tui_field *add(tui_form *f, tui_field_kind kind, const char *key, const char *label)
{
    if (f->count == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 8;
        f->fields = byoc_xrealloc(f->fields, f->cap * sizeof *f->fields);
    }
    tui_field *fl = &f->fields[f->count++];
    memset(fl, 0, sizeof *fl);
    fl->kind = kind;
    fl->key = byoc_xstrdup(key);
    fl->label = byoc_xstrdup(label);
    tui_edit_init(&fl->edit, "");
    int w = tui_text_width(label);
    if (w > f->label_width)
        f->label_width = w > LABEL_MAX ? LABEL_MAX : w;
    return fl;
}

size_t tui_form_add_text(tui_form *f, const char *key, const char *label, const char *value, bool required,
                         tui_validate_fn validate, void *ud)
{
    tui_field *fl = add(f, TUI_FIELD_TEXT, key, label);
    tui_edit_set(&fl->edit, value);
    fl->required = required;
    fl->validate = validate;
    fl->validate_ud = ud;
    return f->count - 1;
}

size_t tui_form_add_choice(tui_form *f, const char *key, const char *label, const char *const *choices,
                           size_t n, size_t initial)
{
    tui_field *fl = add(f, TUI_FIELD_CHOICE, key, label);
    fl->choices = byoc_xcalloc(n ? n : 1, sizeof *fl->choices);
    for (size_t i = 0; i < n; i++)
        fl->choices[i] = byoc_xstrdup(choices[i]);
    fl->nchoices = n;
    fl->choice = initial < n ? initial : 0;
    return f->count - 1;
}

size_t tui_form_add_number(tui_form *f, const char *key, const char *label, long long value, long long min,
                           long long max, bool required)
{
    tui_field *fl = add(f, TUI_FIELD_NUMBER, key, label);
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", value);
    tui_edit_set(&fl->edit, buf);
    fl->edit.max_len = 20;
    fl->min = min;
    fl->max = max;
    fl->required = required;
    return f->count - 1;
}

size_t tui_form_add_toggle(tui_form *f, const char *key, const char *label, bool on)
{
    tui_field *fl = add(f, TUI_FIELD_TOGGLE, key, label);
    fl->on = on;
    return f->count - 1;
}

void tui_form_set_help(tui_form *f, size_t index, const char *help)
{
    if (index >= f->count)
        return;
    free(f->fields[index].help);
    f->fields[index].help = byoc_xstrdup_opt(help);
}

bool tui_form_set_from(tui_form *f, const char *key, const char *value, const char *origin)
{
    tui_field *fl = tui_form_field(f, key);
    if (!fl || !tui_form_set_value(f, key, value))
        return false;
    free(fl->origin);
    free(fl->origin_value);
    fl->origin = byoc_xstrdup_opt(origin);
    fl->origin_value = origin ? byoc_xstrdup(tui_form_value(f, key)) : NULL;
    return true;
}

const char *tui_form_origin(const tui_form *f, const tui_field *fl)
{
    if (!fl->origin || fl->kind != TUI_FIELD_TEXT)
        return NULL;
    return strcmp(tui_form_value(f, fl->key), fl->origin_value) == 0 ? fl->origin : NULL;
}

void tui_form_origins_text(const tui_form *f, char *buf, size_t size)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i < f->count; i++) {
        const char *o = tui_form_origin(f, &f->fields[i]);
        bool first = true;       /* the first field of this origin: list the origin's fields once */
        for (size_t k = 0; o && k < i && first; k++) {
            const char *ok = tui_form_origin(f, &f->fields[k]);
            first = !ok || strcmp(ok, o) != 0;
        }
        if (!o || !first)
            continue;
        byoc_buf_printf(&b, "%sFrom %s: ", b.len ? "\n" : "", o);
        for (size_t k = i, n = 0; k < f->count; k++) {
            const char *ok = tui_form_origin(f, &f->fields[k]);
            if (!ok || strcmp(ok, o) != 0)
                continue;
            const char *label = f->fields[k].label, *group = strstr(label, ": ");
            byoc_buf_printf(&b, "%s%s", n++ ? ", " : "", group ? group + 2 : label);
        }
    }
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
}

tui_field *tui_form_field(tui_form *f, const char *key)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->fields[i].key, key) == 0)
            return &f->fields[i];
    return NULL;
}

static const char *field_value(const tui_field *fl)
{
    switch (fl->kind) {
    case TUI_FIELD_CHOICE: return fl->nchoices ? fl->choices[fl->choice] : "";
    case TUI_FIELD_TOGGLE: return fl->on ? "true" : "false";
    default: return tui_edit_text(&fl->edit);
    }
}

const char *tui_form_value(const tui_form *f, const char *key)
{
    const tui_field *fl = tui_form_field((tui_form *)f, key);
    return fl ? field_value(fl) : NULL;
}

bool tui_form_set_value(tui_form *f, const char *key, const char *value)
{
    tui_field *fl = tui_form_field(f, key);
    if (!fl || !value)
        return false;
    switch (fl->kind) {
    case TUI_FIELD_CHOICE:
        for (size_t i = 0; i < fl->nchoices; i++)
            if (strcmp(fl->choices[i], value) == 0) {
                fl->choice = i;
                return true;
            }
        return false;
    case TUI_FIELD_TOGGLE:
        if (!strcasecmp(value, "true") || !strcasecmp(value, "on") || !strcasecmp(value, "yes") || !strcmp(value, "1"))
            fl->on = true;
        else if (!strcasecmp(value, "false") || !strcasecmp(value, "off") || !strcasecmp(value, "no") ||
                 !strcmp(value, "0"))
            fl->on = false;
        else
            return false;
        return true;
    default:
        tui_edit_set(&fl->edit, value);
        return true;
    }
}

static bool check_field(const tui_form *f, tui_field *fl)
{
    const char *v = field_value(fl);
    fl->msg[0] = '\0';
    if (fl->kind == TUI_FIELD_TEXT || fl->kind == TUI_FIELD_NUMBER) {
        if (!*v) {
            if (fl->required) {
                snprintf(fl->msg, sizeof fl->msg, "required");
                return false;
            }
            return true;   /* an empty optional field is not checked further */
        }
    }
    if (fl->kind == TUI_FIELD_NUMBER) {
        char *end;
        errno = 0;
        long long n = strtoll(v, &end, 10);
        if (*end || errno == ERANGE) {
            snprintf(fl->msg, sizeof fl->msg, "not a whole number");
            return false;
        }
        if (n < fl->min || n > fl->max) {
            snprintf(fl->msg, sizeof fl->msg, "must be between %lld and %lld", fl->min, fl->max);
            return false;
        }
    }
    if (fl->validate && !fl->validate(f, fl, v, fl->msg, sizeof fl->msg, fl->validate_ud)) {
        if (!fl->msg[0])
            snprintf(fl->msg, sizeof fl->msg, "invalid value");
        return false;
    }
    fl->msg[0] = '\0';
    return true;
}

bool tui_form_validate_field(tui_form *f, size_t index)
{
    if (index >= f->count)
        return true;
    f->fields[index].touched = true;
    return check_field(f, &f->fields[index]);
}

size_t tui_form_validate(tui_form *f)
{
    size_t bad = 0;
    long first = -1;
    for (size_t i = 0; i < f->count; i++)
        if (!tui_form_validate_field(f, i)) {
            if (first < 0)
                first = (long)i;
            bad++;
        }
    if (first >= 0)
        f->focus = (size_t)first;
    return bad;
}

void tui_form_focus(tui_form *f, size_t index)
{
    if (index < f->count)
        f->focus = index;
}

static bool number_char_ok(const tui_field *fl, int key)
{
    if (key >= '0' && key <= '9')
        return true;
    return key == '-' && fl->edit.cursor == 0 && fl->edit.text[0] != '-';
}

tui_form_result tui_form_handle(tui_form *f, int key, tui_action_id act)
{
    if (f->count == 0)
        return TUI_FORM_IGNORED;
    tui_field *fl = &f->fields[f->focus];
    bool editable = fl->kind == TUI_FIELD_TEXT || fl->kind == TUI_FIELD_NUMBER;

    switch (act) {
    case TUI_ACT_NEXT_FIELD:
        tui_form_validate_field(f, f->focus);
        if (f->focus + 1 < f->count)
            f->focus++;
        return TUI_FORM_HANDLED;
    case TUI_ACT_PREV_FIELD:
        tui_form_validate_field(f, f->focus);
        if (f->focus > 0)
            f->focus--;
        return TUI_FORM_HANDLED;
    case TUI_ACT_ACCEPT:
        if (f->focus + 1 < f->count) {
            tui_form_validate_field(f, f->focus);
            f->focus++;
            return TUI_FORM_HANDLED;
        }
        __attribute__((fallthrough));   /* Enter on the last field submits */
    case TUI_ACT_SUBMIT:
        return tui_form_validate(f) ? TUI_FORM_INVALID : TUI_FORM_SUBMIT;
    case TUI_ACT_CHOICE_PREV:
    case TUI_ACT_CHOICE_NEXT:
        if (fl->kind == TUI_FIELD_TOGGLE) {
            fl->on = !fl->on;
        } else if (fl->kind == TUI_FIELD_CHOICE && fl->nchoices) {
            if (act == TUI_ACT_CHOICE_NEXT)
                fl->choice = (fl->choice + 1) % fl->nchoices;
            else
                fl->choice = (fl->choice + fl->nchoices - 1) % fl->nchoices;
        } else {
            return TUI_FORM_IGNORED;
        }
        if (fl->touched)
            check_field(f, fl);
        return TUI_FORM_HANDLED;
    default:
        break;
    }
    if (!editable)
        return TUI_FORM_IGNORED;
    bool done;
    if (act == TUI_ACT_NONE && tui_key_is_text(key)) {
        if (fl->kind == TUI_FIELD_NUMBER && !number_char_ok(fl, key))
            return TUI_FORM_HANDLED;    /* swallowed: not a digit */
        tui_edit_insert(&fl->edit, (unsigned)key);   /* a full field just ignores the key */
        done = true;
    } else {
        done = tui_edit_action(&fl->edit, act);
    }
    if (done && fl->touched)
        check_field(f, fl);             /* a shown message goes away as soon as it is fixed */
    return done ? TUI_FORM_HANDLED : TUI_FORM_IGNORED;
}

size_t tui_form_contexts(const tui_form *f, tui_ctx *out)
{
    size_t n = 0;
    if (f->count) {
        const tui_field *fl = &f->fields[f->focus];
        if (fl->kind == TUI_FIELD_TEXT || fl->kind == TUI_FIELD_NUMBER)
            out[n++] = TUI_CTX_EDIT;
        else
            out[n++] = TUI_CTX_CHOICE;
    }
    out[n++] = TUI_CTX_FORM;
    return n;
}

int tui_form_label_columns(const tui_form *f, int width)
{
    int lw = f->label_width + 2;        /* label, required mark, space */
    return lw > width / 2 ? width / 2 : lw;
}

int tui_form_msg_box(const tui_form *f, size_t i, int width, int *dx, int *w)
{
    if (i >= f->count || !f->fields[i].msg[0])
        return 0;
    const tui_field *fl = &f->fields[i];
    char msg[sizeof fl->msg + 4];
    snprintf(msg, sizeof msg, "! %s", fl->msg);
    int lw = tui_form_label_columns(f, width);
    *dx = lw + 1;
    *w = width - lw - 1;
    if (tui_text_width(msg) <= *w)
        return 1;
    *dx = 2;                            /* a long rule reads better on whole rows than in a column */
    *w = width - 2;
    int rows = tui_text_wrap(msg, *w, NULL, NULL);
    return rows < 1 ? 1 : rows > TUI_FORM_MSG_ROWS ? TUI_FORM_MSG_ROWS : rows;
}

static int field_lines(const tui_form *f, const tui_field *fl)
{
    if (!fl->msg[0])
        return 1;
    if (f->width <= 0)
        return 2;
    int dx, w;
    return 1 + tui_form_msg_box(f, (size_t)(fl - f->fields), f->width, &dx, &w);
}

int tui_form_field_lines(const tui_form *f, size_t i)
{
    return i < f->count ? field_lines(f, &f->fields[i]) : 0;
}

int tui_form_lines(const tui_form *f)
{
    int n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += field_lines(f, &f->fields[i]);
    return n;
}

int tui_form_lines_at(tui_form *f, int width)
{
    f->width = width;
    return tui_form_lines(f);
}

/* Line of the focused field from the top of the form. */
static int tui_form_focus_line(const tui_form *f)
{
    int n = 0;
    for (size_t i = 0; i < f->focus && i < f->count; i++)
        n += field_lines(f, &f->fields[i]);
    return n;
}

void tui_form_scroll(tui_form *f, int height)
{
    if (height < 1)
        height = 1;
    int line = tui_form_focus_line(f);
    int need = f->count ? field_lines(f, &f->fields[f->focus]) : 1;
    if (line < f->top)
        f->top = line;
    if (line + need > f->top + height)
        f->top = line + need - height;
    if (line < f->top)                  /* a message taller than the room: the field itself shows */
        f->top = line;
    int max_top = tui_form_lines(f) - height;
    if (f->top > max_top)
        f->top = max_top > 0 ? max_top : 0;
    if (f->top < 0)
        f->top = 0;
}
