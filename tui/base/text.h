/* text: UTF-8 text measured in terminal columns, for every widget.
 *
 * Pure functions (no curses), on top of core/utf8.h: display width, fitting a string into
 * a number of columns with an ellipsis, skipping columns for horizontal
 * scrolling, case-insensitive search, making untrusted text safe to draw
 * (ANSI escapes stripped, tabs expanded, control bytes replaced) and word
 * wrapping. Invalid UTF-8 bytes count as one column each and are drawn as '?'. */
#ifndef BYOC_TUI_TEXT_H
#define BYOC_TUI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/utf8.h"

/* Columns a code point takes: 0 (combining), 1 or 2. Control characters: 1. */
int tui_cp_width(unsigned cp);
/* Columns the string (or its first n bytes) takes. */
int tui_text_width(const char *s);
int tui_text_nwidth(const char *s, size_t n);
/* Bytes of s that fit in `cols` columns without splitting a character. */
size_t tui_text_fit_bytes(const char *s, int cols);
/* Pointer into s after skipping `cols` columns (a wide character straddling
 * the boundary is skipped whole; *pad gets 1 then, else 0; pad may be NULL). */
const char *tui_text_skip_cols(const char *s, int cols, int *pad);
/* Copy s into out, cut to `cols` columns; when cut, the last column(s) hold
 * `ellipsis` (e.g. "…" or "~"). Returns the columns of the result. */
int tui_text_fit(const char *s, int cols, const char *ellipsis, char *out, size_t outsize);
/* Same, but keeps the end of s ("…/qaoa-job" for a long path). */
int tui_text_fit_tail(const char *s, int cols, const char *ellipsis, char *out, size_t outsize);
/* Case-insensitive substring search (Unicode simple case folding via towlower
 * for the code points the C library knows, ASCII always). Returns a pointer
 * to the first match in hay, or NULL. An empty needle matches at hay. */
const char *tui_text_casestr(const char *hay, const char *needle);
/* A copy of s that is safe to draw: ANSI/VT escape sequences removed, tabs
 * expanded to 8-column stops, CR dropped, other control bytes and invalid
 * UTF-8 replaced with '?'. Caller frees. */
char *tui_text_sanitize(const char *s, size_t n);

/* Word wrap: calls line(start, nbytes, ud) for each line of at most `cols`
 * columns, breaking at spaces where possible and at '\n' always. Returns the
 * number of lines. cols < 1 is treated as 1. */
typedef void (*tui_wrap_fn)(const char *start, size_t nbytes, void *ud);
int tui_text_wrap(const char *s, int cols, tui_wrap_fn line, void *ud);

#endif
