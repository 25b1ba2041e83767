/* editline: a one-line text editor model (form fields, filters, the command
 * prompt, dialog input). Pure: no curses.
 *
 * Holds UTF-8 text and a cursor (a byte offset on a character boundary);
 * edits by action (action.h: cursor-left/right, line-start/end, delete-back,
 * delete, kill-line = C-u, kill-word = C-w) or by inserting a printable key.
 * tui_edit_view() does the horizontal scrolling: given a width it returns
 * where the visible part starts so the cursor stays on screen. */
#ifndef BYOC_TUI_EDITLINE_H
#define BYOC_TUI_EDITLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"

typedef struct tui_edit {
    char *text;          /* always NUL-terminated (never NULL after init) */
    size_t len, cap;
    size_t cursor;       /* byte offset */
    size_t max_len;      /* bytes; 0 = 4096 */
    int scroll;          /* first visible column (kept by tui_edit_view) */
    bool secret;         /* drawn as '*' */
} tui_edit;

void tui_edit_init(tui_edit *e, const char *text);
void tui_edit_clear(tui_edit *e);      /* wipes: the text may be a secret */
/* Replace the text, cursor at the end. */
void tui_edit_set(tui_edit *e, const char *text);
const char *tui_edit_text(const tui_edit *e);
/* Insert a code point at the cursor; false if it is not printable or the text is full. */
bool tui_edit_insert(tui_edit *e, unsigned cp);
/* Apply an editing action; false if the action is not an editing one.
 * Returns true for a known action even when it changed nothing. */
bool tui_edit_action(tui_edit *e, tui_action_id act);
/* Key entry point: printable keys insert, others go through action lookup by
 * the caller; convenience for tests. */
bool tui_edit_key(tui_edit *e, int key, tui_action_id act);
/* Column of the cursor from the start of the text. */
int tui_edit_cursor_col(const tui_edit *e);
/* Adjust the horizontal scroll for a field `width` columns wide and return
 * the byte offset of the first visible character; *cursor_x gets the
 * cursor's column inside the field. */
size_t tui_edit_view(tui_edit *e, int width, int *cursor_x);


/* Drawing (editline_draw.c): the visible part of the text in `w` columns at
 * (y, x), scrolled so the cursor shows; with focus the cursor cell is drawn in
 * reverse video (no hardware cursor is needed). Secret text shows as '*'. */
void tui_edit_draw(tui_edit *e, WINDOW *win, int y, int x, int w, tui_style sty, bool focused);

#endif
