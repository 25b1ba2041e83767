/* whole: the texts on screen that were drawn cut, so that one key (the
 * `whole` action, action.h) can show them in full and the hint bar can offer
 * that key only when something was cut.
 *
 * Drawing code notes a text when it cuts it: tui_whole_fit() draws like
 * tui_draw_fit() and notes the text (or a fuller one, e.g. a failure with its
 * step) when it did not fit. The app starts an area (the content box, the
 * message line) before redrawing it, which forgets that area's old
 * notes: the notes are always those of what is on screen, even though only
 * the dirty parts are redrawn. Single-threaded, like curses. The store
 * (whole.c) is pure; tui_whole_fit is in whole_draw.c. */
#ifndef BYOC_TUI_WHOLE_H
#define BYOC_TUI_WHOLE_H

#include <stdbool.h>
#include <stddef.h>

#include "draw.h"

/* In the order the whole view lists them: the newest thing first. */
typedef enum { TUI_WHOLE_MESSAGE, TUI_WHOLE_CONTENT, TUI_WHOLE_AREAS } tui_whole_area;

/* The area is about to be redrawn: forget its notes; new notes go to it. */
void tui_whole_begin(tui_whole_area area);
/* Note a text shown cut under a title ("Build", "Execution role: error").
 * A text already noted (in any area) is not noted twice. */
void tui_whole_note(const char *title, const char *text);
/* How many notes there are, and note i (in area order, then as noted). */
size_t tui_whole_count(void);
bool tui_whole_get(size_t i, const char **title, const char **text);
/* Whether text is among the notes. */
bool tui_whole_has(const char *text);
/* Forget every note (the app's end, tests). */
void tui_whole_clear(void);

/* Draw text in w columns like tui_draw_fit; when it is cut, note `full`
 * (text when NULL) under title. Returns the columns drawn. */
int tui_whole_fit(WINDOW *win, int y, int x, int w, tui_style sty, const char *title, const char *text,
                  const char *full);

#endif
