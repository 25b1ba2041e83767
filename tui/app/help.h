/* help: the help screen's text, generated from the action table (action.h).
 * One section per context, in table order; each row shows the keys, the
 * `:` command (with its argument) and the one-line help. Pure: no curses. */
#ifndef BYOC_TUI_HELP_H
#define BYOC_TUI_HELP_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"

typedef struct tui_help_line {
    bool heading;        /* a context title */
    char *text;
} tui_help_line;

typedef struct tui_help {
    tui_help_line *lines;
    size_t count;
    size_t actions, shown;   /* rows of the table, and those listed (all but the filter's misses) */
} tui_help;

/* Build the help text (intro, then the sections) for a width in columns;
 * long help texts wrap with a hanging indent. */
void tui_help_build(tui_help *h, int width);
/* The same, with the contexts in first (the keys of the screen help was opened from) before
 * the global ones, and the rest after. */
void tui_help_build_for(tui_help *h, int width, const tui_ctx *first, size_t nfirst);
/* The same, listing only the rows whose keys ("C-o"), command (":wrap") or
 * help contain filter case-insensitively, and the headings of their
 * contexts; NULL or "" lists every row. */
void tui_help_build_filtered(tui_help *h, int width, const tui_ctx *first, size_t nfirst, const char *filter);
/* Whether row a matches filter as above. */
bool tui_help_row_matches(const tui_action *a, const char *filter);
void tui_help_clear(tui_help *h);
/* Index of the first line after `from` (wrapping) containing needle
 * case-insensitively, or -1. */
long tui_help_find(const tui_help *h, const char *needle, size_t from);

#endif
