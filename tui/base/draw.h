/* draw: small curses drawing helpers shared by the widgets and screens.
 * Everything is clipped to the given width; text is measured in columns
 * (text.h) and cut on character boundaries. */
#ifndef BYOC_TUI_DRAW_H
#define BYOC_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>

#include "style.h"

typedef struct tui_rect {
    int y, x, h, w;
} tui_rect;

/* Draw text at (y, x) in at most maxw columns, cut without a mark; returns
 * the columns drawn. Non-ASCII text is drawn as '?' in a non-UTF-8 locale. */
int tui_draw_text(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text);
/* Same, but a cut string ends with the ellipsis glyph. */
int tui_draw_fit(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text);
/* A path from outside: made printable, and when cut it loses its start
 * ("…/projects/sample"), where a path says least. */
int tui_draw_path(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *path);
/* Draw the first n bytes of text (cut at maxw columns). */
int tui_draw_ntext(WINDOW *w, int y, int x, int maxw, tui_style sty, const char *text, size_t n);
/* n spaces. */
void tui_draw_blank(WINDOW *w, int y, int x, int n, tui_style sty);
void tui_draw_fill(WINDOW *w, tui_rect r, tui_style sty);
void tui_draw_hline(WINDOW *w, int y, int x, int n, tui_style sty);
void tui_draw_vline(WINDOW *w, int y, int x, int n, tui_style sty);
/* A box on the edge of r with an optional title in the top edge. */
void tui_draw_box(WINDOW *w, tui_rect r, tui_style sty, const char *title, tui_style title_sty);
/* The inside of a box drawn on r. */
tui_rect tui_rect_inset(tui_rect r, int by);
/* Draw "text" with every case-insensitive occurrence of needle in match_sty. */
int tui_draw_highlight(WINDOW *w, int y, int x, int maxw, tui_style sty, tui_style match_sty,
                       const char *text, const char *needle);
/* Whether the locale can show UTF-8 (set by the terminal layer). */
void tui_draw_set_utf8(bool utf8);

#endif
