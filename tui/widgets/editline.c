#include "editline.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "keys.h"
#include "text.h"

#define DEFAULT_MAX 4096

static void reserve(tui_edit *e, size_t need)
{
    if (need + 1 <= e->cap)
        return;
    size_t cap = e->cap ? e->cap : 32;
    while (cap < need + 1)
        cap *= 2;
    char *p = byoc_xmalloc(cap);
    memcpy(p, e->text, e->len + 1);
    byoc_wipe(e->text, e->cap);
    free(e->text);
    e->text = p;
    e->cap = cap;
}

void tui_edit_init(tui_edit *e, const char *text)
{
    memset(e, 0, sizeof *e);
    e->cap = 32;
    e->text = byoc_xcalloc(1, e->cap);
    tui_edit_set(e, text);
}

void tui_edit_clear(tui_edit *e)
{
    if (e->text) {
        byoc_wipe(e->text, e->cap);
        free(e->text);
    }
    memset(e, 0, sizeof *e);
}

static size_t limit(const tui_edit *e)
{
    return e->max_len ? e->max_len : DEFAULT_MAX;
}

void tui_edit_set(tui_edit *e, const char *text)
{
    if (!text)
        text = "";
    size_t n = strlen(text);
    if (n > limit(e)) {
        n = limit(e);
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    reserve(e, n);
    memcpy(e->text, text, n);
    e->text[n] = '\0';
    e->len = n;
    e->cursor = n;
    e->scroll = 0;
}

const char *tui_edit_text(const tui_edit *e)
{
    return e->text ? e->text : "";
}

bool tui_edit_insert(tui_edit *e, unsigned cp)
{
    char enc[4];
    if (!tui_key_is_text((int)cp))
        return false;
    size_t n = byoc_utf8_encode(cp, enc);
    if (n == 0 || e->len + n > limit(e))
        return false;
    reserve(e, e->len + n);
    memmove(e->text + e->cursor + n, e->text + e->cursor, e->len - e->cursor + 1);
    memcpy(e->text + e->cursor, enc, n);
    e->len += n;
    e->cursor += n;
    return true;
}

static size_t prev_char(const tui_edit *e, size_t at)
{
    if (at == 0)
        return 0;
    at--;
    while (at > 0 && ((unsigned char)e->text[at] & 0xC0) == 0x80)
        at--;
    return at;
}

static size_t next_char(const tui_edit *e, size_t at)
{
    if (at >= e->len)
        return e->len;
    unsigned cp;
    return at + byoc_utf8_decode(e->text + at, &cp);
}

static void cut(tui_edit *e, size_t from, size_t to)
{
    if (to <= from)
        return;
    memmove(e->text + from, e->text + to, e->len - to + 1);
    e->len -= to - from;
    byoc_wipe(e->text + e->len + 1, to - from);
    if (e->cursor > to)
        e->cursor -= to - from;
    else if (e->cursor > from)
        e->cursor = from;
}

bool tui_edit_action(tui_edit *e, tui_action_id act)
{
    switch (act) {
    case TUI_ACT_CURSOR_LEFT:
        e->cursor = prev_char(e, e->cursor);
        return true;
    case TUI_ACT_CURSOR_RIGHT:
        e->cursor = next_char(e, e->cursor);
        return true;
    case TUI_ACT_LINE_START:
        e->cursor = 0;
        return true;
    case TUI_ACT_LINE_END:
        e->cursor = e->len;
        return true;
    case TUI_ACT_DELETE_BACK:
        cut(e, prev_char(e, e->cursor), e->cursor);
        return true;
    case TUI_ACT_DELETE:
        cut(e, e->cursor, next_char(e, e->cursor));
        return true;
    case TUI_ACT_KILL_LINE:
        cut(e, 0, e->cursor);
        return true;
    case TUI_ACT_KILL_WORD: {
        size_t at = e->cursor;
        while (at > 0 && e->text[at - 1] == ' ')
            at--;
        while (at > 0 && e->text[at - 1] != ' ')
            at--;
        cut(e, at, e->cursor);
        return true;
    }
    default:
        return false;
    }
}

bool tui_edit_key(tui_edit *e, int key, tui_action_id act)
{
    if (act == TUI_ACT_NONE && tui_key_is_text(key))
        return tui_edit_insert(e, (unsigned)key);
    return tui_edit_action(e, act);
}

int tui_edit_cursor_col(const tui_edit *e)
{
    return tui_text_nwidth(e->text, e->cursor);
}

size_t tui_edit_view(tui_edit *e, int width, int *cursor_x)
{
    if (width < 2)
        width = 2;
    int col = tui_edit_cursor_col(e);
    int total = tui_text_width(e->text);
    /* keep one column free after the text for the cursor */
    if (col < e->scroll)
        e->scroll = col;
    if (col >= e->scroll + width)
        e->scroll = col - width + 1;
    if (total + 1 - e->scroll < width && e->scroll > 0) {
        e->scroll = total + 1 - width;
        if (e->scroll < 0)
            e->scroll = 0;
    }
    int pad;
    const char *start = tui_text_skip_cols(e->text, e->scroll, &pad);
    if (pad) {                          /* a wide character straddles the left edge */
        e->scroll += pad;
    }
    if (cursor_x)
        *cursor_x = col - e->scroll;
    return (size_t)(start - e->text);
}
