/* jsonnum: a JSON number (jansson) as an int64_t, without undefined behaviour.
 * Replies carry times and sizes as integers or as reals; a real such as 1e100
 * cannot be cast to int64_t in C (the cast is undefined), so every reader of a
 * numeric member goes through here. */
#ifndef BYOC_CORE_JSONNUM_H
#define BYOC_CORE_JSONNUM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* v as an int64_t in *out (a real is truncated toward zero). False, and *out
 * untouched, if v is not a number or is a real outside int64_t's range. */
bool byoc_json_int64(const json_t *v, int64_t *out);

/* v as an int64_t, or fallback when byoc_json_int64 refuses it. */
int64_t byoc_json_int64_or(const json_t *v, int64_t fallback);

#endif
