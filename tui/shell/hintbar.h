/* hintbar: the bottom line listing the most relevant keys for the focus,
 * generated from the action table: the hint-ranked rows of each context of
 * the focus chain (most specific first), skipping keys another context
 * shadows. When they do not all fit, the row is filled by priority (the
 * rank: a lower rank wins whichever context it is in, a tie goes to the more
 * specific context) and drawn in chain order. "? help" is always kept, and
 * so is the `whole` key while something on screen was cut (whole.h).
 * Pure; drawing in hintbar_draw.c. */
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

/* Collect up to max hints for the chain, in chain order; returns the count. */
size_t tui_hints_collect(const tui_ctx *chain, size_t n, tui_hint *out, size_t max);
/* The same, with the `whole` hint first when cut (something on screen was
 * cut) and its key reaches it through the chain. */
size_t tui_hints_for(const tui_ctx *chain, size_t n, bool cut, tui_hint *out, size_t max);
/* The `whole` hint for the chain (its first key that reaches it: "v", or
 * "C-o" in a text field); false when no key does (a dialog). */
bool tui_hints_whole(const tui_ctx *chain, size_t n, tui_hint *out);
/* Which hints fit in width columns, by priority (see above), with room kept
 * for "help" and "whole"; sets use[i] (n <= 64) and returns how many. */
size_t tui_hints_choose(const tui_hint *h, size_t n, int width, bool *use);
/* The hints that fit in width columns as "key label  key label"; returns the
 * number of hints used. */
size_t tui_hints_text(const tui_hint *h, size_t n, int width, char *buf, size_t size);
void tui_hints_draw(WINDOW *win, int y, int x, int w, const tui_ctx *chain, size_t n, bool cut);

#endif
