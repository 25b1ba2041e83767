#include "page.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "text.h"

#define BULLET_INDENT 2
#define KV_MAX 22

void tui_page_init(tui_page *p)
{
    memset(p, 0, sizeof *p);
    p->height = 1;
}

void tui_page_reset(tui_page *p)
{
    for (size_t i = 0; i < p->count; i++) {
        free(p->items[i].text);
        free(p->items[i].key);
    }
    p->count = 0;
    p->nrows = 0;
    p->width = 0;
    p->key_width = 0;
}

void tui_page_clear(tui_page *p)
{
    tui_page_reset(p);
    free(p->items);
    free(p->rows);
    memset(p, 0, sizeof *p);
}

static void add(tui_page *p, tui_page_kind kind, tui_style style, const char *key, const char *text)
{
    if (p->count == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->items = byoc_xrealloc(p->items, p->cap * sizeof *p->items);
    }
    const char *t = text ? text : "";
    p->items[p->count++] = (tui_page_item){kind, style, tui_text_sanitize(t, strlen(t)),
                                           key ? tui_text_sanitize(key, strlen(key)) : NULL};
    if (kind == TUI_PAGE_KV && key) {
        int w = tui_text_width(key) + 1;
        if (w > p->key_width)
            p->key_width = w > KV_MAX ? KV_MAX : w;
    }
    p->width = 0;                       /* needs a new layout */
}

void tui_page_heading(tui_page *p, const char *text) { add(p, TUI_PAGE_HEADING, TUI_STY_HEADING, NULL, text); }
void tui_page_text(tui_page *p, tui_style s, const char *text) { add(p, TUI_PAGE_TEXT, s, NULL, text); }
void tui_page_bullet(tui_page *p, const char *text) { add(p, TUI_PAGE_BULLET, TUI_STY_NORMAL, NULL, text); }
void tui_page_pre(tui_page *p, tui_style s, const char *text) { add(p, TUI_PAGE_PRE, s, NULL, text); }
void tui_page_kv(tui_page *p, const char *key, const char *value) { add(p, TUI_PAGE_KV, TUI_STY_NORMAL, key, value); }
void tui_page_blank(tui_page *p) { add(p, TUI_PAGE_BLANK, TUI_STY_NORMAL, NULL, ""); }

struct wrap_state {
    tui_page *p;
    size_t item;
    const char *base;
    int indent;
    bool first;
};

static void push_row(tui_page *p, tui_page_row r)
{
    if (p->nrows == p->rows_cap) {
        p->rows_cap = p->rows_cap ? p->rows_cap * 2 : 64;
        p->rows = byoc_xrealloc(p->rows, p->rows_cap * sizeof *p->rows);
    }
    p->rows[p->nrows++] = r;
}

static void on_line(const char *start, size_t n, void *ud)
{
    struct wrap_state *w = ud;
    push_row(w->p, (tui_page_row){w->item, (size_t)(start - w->base), n, w->indent, w->first});
    w->first = false;
}

size_t tui_page_layout(tui_page *p, int width)
{
    if (width < 4)
        width = 4;
    if (p->width == width)
        return p->nrows;
    p->nrows = 0;
    p->width = width;
    for (size_t i = 0; i < p->count; i++) {
        tui_page_item *it = &p->items[i];
        int indent = 0;
        switch (it->kind) {
        case TUI_PAGE_BLANK:
            push_row(p, (tui_page_row){i, 0, 0, 0, true});
            continue;
        case TUI_PAGE_PRE:
            push_row(p, (tui_page_row){i, 0, strlen(it->text), 0, true});
            continue;
        case TUI_PAGE_BULLET: indent = BULLET_INDENT; break;
        case TUI_PAGE_KV: indent = p->key_width + 1; break;
        default: break;
        }
        struct wrap_state w = {p, i, it->text, indent, true};
        if (!*it->text)
            push_row(p, (tui_page_row){i, 0, 0, indent, true});
        else
            tui_text_wrap(it->text, width - indent, on_line, &w);
    }
    tui_page_scroll(p, 0);
    return p->nrows;
}

void tui_page_set_height(tui_page *p, int height)
{
    p->height = height > 0 ? height : 1;
    tui_page_scroll(p, 0);
}

void tui_page_scroll(tui_page *p, int rows)
{
    int max_top = (int)p->nrows - p->height;
    p->top += rows;
    if (p->top > max_top)
        p->top = max_top;
    if (p->top < 0)
        p->top = 0;
}

bool tui_page_handle(tui_page *p, tui_action_id act)
{
    int page = p->height > 1 ? p->height - 1 : 1;
    switch (act) {
    case TUI_ACT_UP: tui_page_scroll(p, -1); return true;
    case TUI_ACT_DOWN: tui_page_scroll(p, 1); return true;
    case TUI_ACT_PAGE_UP: tui_page_scroll(p, -page); return true;
    case TUI_ACT_PAGE_DOWN: tui_page_scroll(p, page); return true;
    case TUI_ACT_TOP: p->top = 0; return true;
    case TUI_ACT_BOTTOM: tui_page_scroll(p, (int)p->nrows); return true;
    default: return false;
    }
}
