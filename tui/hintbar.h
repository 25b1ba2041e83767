/* hintbar: the bottom line listing the most relevant keys for the focus,
 * generated from the action table: the hint-ranked rows of each context of
 * the focus chain (most specific first), skipping keys another context
 * shadows, with "? help" always kept. Pure; drawing in hintbar_draw.c. */
#ifndef BYOC_TUI_HINTBAR_H
#define BYOC_TUI_HINTBAR_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"

typedef struct tui_hint {
    char keys[32];
    const char *label;
    const tui_action *row;
} tui_hint;

/* Collect up to max hints for the chain; returns the count. */
size_t tui_hints_collect(const tui_ctx *chain, size_t n, tui_hint *out, size_t max);
/* Which hints fit in width columns: all that fit, in order, with room kept
 * for "help"; sets use[i] (n <= 64) and returns how many. */
size_t tui_hints_choose(const tui_hint *h, size_t n, int width, bool *use);
/* The hints that fit in width columns as "key label  key label"; returns the
 * number of hints used. */
size_t tui_hints_text(const tui_hint *h, size_t n, int width, char *buf, size_t size);
void tui_hints_draw(WINDOW *win, int y, int x, int w, const tui_ctx *chain, size_t n);

#endif
