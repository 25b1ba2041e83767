/* shellword: the small shell-like word language of Dockerfile arguments, as the
 * builder applies it to FROM, COPY, ADD, ENV, ARG, LABEL, WORKDIR, USER, ...:
 * quotes ('...' literal, "..." with expansion), the escape character (\ or the
 * one set by "# escape="), and variable references $VAR, ${VAR},
 * ${VAR:-default}, ${VAR-default}, ${VAR:+alt}, ${VAR+alt}, ${VAR:?msg}. */
#ifndef BYOC_BYOC_SHELLWORD_H
#define BYOC_BYOC_SHELLWORD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strv.h"

/* Value of a variable, or NULL when it is not set. */
typedef const char *(*byoc_var_lookup)(void *ctx, const char *name);

/* Process one word: remove quotes, apply escapes, expand variables (no
 * expansion when lookup is NULL). Whitespace is kept. Caller frees. */
char *byoc_sw_word(const char *s, size_t len, char escape, byoc_var_lookup lookup, void *ctx);

/* Split s on unquoted whitespace and process each word. */
void byoc_sw_words(const char *s, char escape, byoc_var_lookup lookup, void *ctx, byoc_strv *out);

/* Length of the raw token that starts s[0..len): up to unquoted whitespace. */
size_t byoc_sw_token_len(const char *s, size_t len, char escape);

/* Split s on unquoted whitespace, keeping quotes and escapes as written. */
void byoc_sw_split_raw(const char *s, char escape, byoc_strv *out);

/* Does the word reference a variable that is unset (so expansion changed its meaning)? */
bool byoc_sw_has_unset(const char *s, char escape, byoc_var_lookup lookup, void *ctx);

#endif
