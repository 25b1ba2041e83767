/* jsonout: jansson's serialiser with every real in its shortest round-trip form.
 *
 * jansson prints a real with 17 significant digits, so 0.03 comes out as
 * 0.029999999999999999. These calls take the same flags as json_dumps and
 * json_dump_callback and print each real with the fewest digits (1..17) that
 * read back as the same double ("0.03", "1e-07", "2.0"), whatever the locale.
 *
 * They also escape more than jansson does: besides '"', '\\' and U+0000-U+001F,
 * a string's DEL, C1 controls U+0080-U+009F (U+009B is a one-byte CSI to a
 * terminal that reads 8-bit controls) and U+2028/U+2029 (line breaks to
 * JavaScript) are written \u007F, \u0080..\u009F, \u2028, \u2029, so a --json
 * document on a terminal is as harmless as plain output. */
#ifndef BYOC_CORE_JSONOUT_H
#define BYOC_CORE_JSONOUT_H

#include <jansson.h>
#include <stddef.h>

#include "core/buf.h"

/* The shortest text of v that strtod reads back as v, always with a '.' or an
 * exponent (as jansson writes reals). v must be finite. Returns the length. */
int byoc_json_real_text(double v, char *buf, size_t size);

/* As json_dumps: a malloc'd string (free()), or NULL. */
char *byoc_json_dumps(const json_t *doc, size_t flags);

/* As json_dump_callback. */
int byoc_json_dump_callback(const json_t *doc, json_dump_callback_t cb, void *ud, size_t flags);

/* Append s[0..n) to b as a JSON string, quotes included, exactly as the calls
 * above write it (UTF-8 as is, no JSON_ENSURE_ASCII), for writers that skip
 * jansson's per-token callback. */
void byoc_json_put_string(byoc_buf *b, const char *s, size_t n);

#endif
