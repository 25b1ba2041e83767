/* lines: split a byte stream that arrives in pieces into lines, for log
 * events. A line ends at '\n' (a trailing '\r' is dropped); a line longer
 * than the limit is handed out in parts of that size, so memory stays bounded.
 * "\r" alone (progress bars redrawing a line) is kept inside the line. */
#ifndef BYOC_DOCKER_LINES_H
#define BYOC_DOCKER_LINES_H

#include <stddef.h>

#include "core/buf.h"

typedef void (*byoc_line_fn)(const char *line, size_t len, void *ud);

typedef struct byoc_lines {
    byoc_buf partial;
    size_t max;
    byoc_line_fn fn;
    void *ud;
} byoc_lines;

void byoc_lines_init(byoc_lines *l, size_t max, byoc_line_fn fn, void *ud);
void byoc_lines_feed(byoc_lines *l, const char *p, size_t n);
/* Hand out a last line without its newline, if any. */
void byoc_lines_flush(byoc_lines *l);
void byoc_lines_clear(byoc_lines *l);

#endif
