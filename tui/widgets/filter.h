/* filter: the `/` filter line that lists and the help screen share: its
 * keys while the text is typed (Enter keeps it, Esc clears it, the editing
 * keys edit it) and its look (a "/" mark, the text, a count on the right).
 * The owner keeps the edit line and whether it is typed, and applies the
 * text (a list's rows, help's keys). tui_filter_key is pure; tui_filter_draw
 * is in filter_draw.c. */
#ifndef BYOC_TUI_FILTER_H
#define BYOC_TUI_FILTER_H

#include <stdbool.h>

#include "action.h"
#include "draw.h"
#include "editline.h"

/* A key while the filter is typed (*typing): accept stops typing and keeps
 * the text, cancel stops typing and empties it, text keys and editing
 * actions edit it. False when the key is none of those (movement...). */
bool tui_filter_key(tui_edit *edit, bool *typing, int key, tui_action_id act);

/* The filter line, w columns at (y, x), dim: while typing, "/" and the edit
 * line with its cursor; with a kept filter, "/" and text; then `right`
 * (" 3 of 10 ", may be "") right-aligned. */
void tui_filter_draw(WINDOW *win, int y, int x, int w, tui_edit *edit, bool typing, const char *text,
                     const char *right);

#endif
