/* jsonprint: a JSON document that came from outside, made safe to print.
 *
 * Plain (non --json) output of a reply goes through one printable copy of
 * the document it was built from, so no field can reach the terminal raw,
 * whichever field a verb prints: every string and every object key passes
 * through byoc_printable_inplace (core/utf8.h). --json prints the original:
 * JSON escapes the control characters itself. */
#ifndef BYOC_CORE_JSONPRINT_H
#define BYOC_CORE_JSONPRINT_H

#include <jansson.h>

/* A deep copy of v (NULL for NULL) whose strings and keys are printable; a
 * string cut at an embedded NUL. Numbers, booleans and null are kept. Objects
 * whose keys collide once made printable keep the later member. */
json_t *byoc_json_printable_copy(const json_t *v);

/* v's text when it is a string, else fallback (missing, null, a number, an
 * object...): what a table cell or a line shows. */
const char *byoc_json_text(const json_t *v, const char *fallback);

#endif
