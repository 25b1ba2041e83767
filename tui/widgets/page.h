/* page: a scrollable page of styled text: headings, paragraphs (wrapped to
 * the width), bullets (wrapped with a hanging indent), key/value rows and
 * pre-formatted lines. For information screens, help and detail views.
 *
 * Pure (page.c): the items, the wrapped rows for a width, the scroll offset.
 * Drawing: page_draw.c. */
#ifndef BYOC_TUI_PAGE_H
#define BYOC_TUI_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"

typedef enum { TUI_PAGE_HEADING, TUI_PAGE_TEXT, TUI_PAGE_BULLET, TUI_PAGE_PRE, TUI_PAGE_KV, TUI_PAGE_BLANK } tui_page_kind;

typedef struct tui_page_item {
    tui_page_kind kind;
    tui_style style;
    char *text;
    char *key;           /* KV: the key column (also a PRE line's highlighted key, or NULL) */
} tui_page_item;

typedef struct tui_page_row {
    size_t item;         /* which item */
    size_t start, len;   /* bytes of the item's text on this row */
    int indent;
    bool first;          /* the item's first row (draws the bullet or the key) */
} tui_page_row;

typedef struct tui_page {
    tui_page_item *items;
    size_t count, cap;
    tui_page_row *rows;  /* from the last layout */
    size_t nrows, rows_cap;
    int width;           /* of the last layout */
    int key_width;       /* KV key column */
    int top;             /* first row shown */
    int height;
} tui_page;

void tui_page_init(tui_page *p);
/* Release every line: the page needs tui_page_init before its next use. */
void tui_page_clear(tui_page *p);
/* Drop every line, to fill the page again. */
void tui_page_reset(tui_page *p);
void tui_page_heading(tui_page *p, const char *text);
void tui_page_text(tui_page *p, tui_style style, const char *text);
void tui_page_bullet(tui_page *p, const char *text);
void tui_page_pre(tui_page *p, tui_style style, const char *text);
void tui_page_kv(tui_page *p, const char *key, const char *value);
void tui_page_blank(tui_page *p);
/* Wrap the items for a width; returns the number of rows. */
size_t tui_page_layout(tui_page *p, int width);
void tui_page_set_height(tui_page *p, int height);
void tui_page_scroll(tui_page *p, int rows);
/* Movement actions (up, down, page-up/down, top, bottom); true if handled. */
bool tui_page_handle(tui_page *p, tui_action_id act);

void tui_page_draw(tui_page *p, WINDOW *win, tui_rect rect);

#endif
