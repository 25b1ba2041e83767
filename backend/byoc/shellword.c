#include "byoc/shellword.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

typedef struct {
    const char *s;
    size_t len, pos;
    char esc;
    byoc_var_lookup lookup;
    void *ctx;
    bool saw_unset;
} lexer;

static void process(lexer *lx, byoc_buf *out);

static bool is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Index just past the '}' that closes a "${" whose body starts at i. */
static size_t matching_brace(const char *s, size_t len, size_t i, char esc)
{
    int depth = 1;
    char quote = 0;
    while (i < len) {
        char c = s[i];
        if (c == esc && quote != '\'' && i + 1 < len) {
            i += 2;
            continue;
        }
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '$' && i + 1 < len && s[i + 1] == '{') {
            depth++;
            i++;
        } else if (c == '}' && --depth == 0) {
            return i + 1;
        }
        i++;
    }
    return len; /* unterminated: consume the rest */
}

static char *expand_sub(lexer *lx, const char *s, size_t len)
{
    lexer sub = {s, len, 0, lx->esc, lx->lookup, lx->ctx, false};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    process(&sub, &b);
    lx->saw_unset |= sub.saw_unset;
    return byoc_buf_steal(&b);
}

static void expand_var(lexer *lx, byoc_buf *out)
{
    const char *s = lx->s;
    size_t i = lx->pos + 1; /* past '$' */
    if (i < lx->len && s[i] == '{') {
        size_t start = i + 1, close = matching_brace(s, lx->len, start, lx->esc);
        size_t body_end = close > start && s[close - 1] == '}' ? close - 1 : close;
        size_t n = start;
        while (n < body_end && is_name_char(s[n]))
            n++;
        char *name = byoc_xstrndup(s + start, n - start);
        const char *val = lx->lookup ? lx->lookup(lx->ctx, name) : NULL;
        bool colon = n < body_end && s[n] == ':';
        size_t op = colon ? n + 1 : n;
        char mod = op < body_end ? s[op] : 0;
        const char *word = s + op + 1;
        size_t wlen = op + 1 <= body_end ? body_end - op - 1 : 0;
        bool set = val != NULL, nonempty = val && *val;
        bool use = colon ? nonempty : set;
        if (mod == '-') {
            if (use) {
                byoc_buf_puts(out, val);
            } else {
                char *d = expand_sub(lx, word, wlen);
                byoc_buf_puts(out, d);
                free(d);
            }
        } else if (mod == '+') {
            if (use) {
                char *d = expand_sub(lx, word, wlen);
                byoc_buf_puts(out, d);
                free(d);
            }
        } else {
            /* plain ${VAR}, ${VAR:?msg}, and forms byoc does not model (#, %, /) */
            if (val)
                byoc_buf_puts(out, val);
            else
                lx->saw_unset = true;
        }
        free(name);
        lx->pos = close;
        return;
    }
    size_t n = i;
    while (n < lx->len && is_name_char(s[n]))
        n++;
    if (n == i) { /* a lone '$' */
        byoc_buf_putc(out, '$');
        lx->pos = i;
        return;
    }
    char *name = byoc_xstrndup(s + i, n - i);
    const char *val = lx->lookup ? lx->lookup(lx->ctx, name) : NULL;
    if (val)
        byoc_buf_puts(out, val);
    else
        lx->saw_unset = true;
    free(name);
    lx->pos = n;
}

static void process(lexer *lx, byoc_buf *out)
{
    char quote = 0;
    while (lx->pos < lx->len) {
        char c = lx->s[lx->pos];
        if (quote == '\'') {
            if (c == '\'')
                quote = 0;
            else
                byoc_buf_putc(out, c);
            lx->pos++;
            continue;
        }
        if (c == lx->esc && lx->pos + 1 < lx->len) {
            char next = lx->s[lx->pos + 1];
            if (quote == '"' && next != '"' && next != '$' && next != lx->esc)
                byoc_buf_putc(out, c); /* inside "...", only \" \$ \\ are escapes */
            byoc_buf_putc(out, next);
            lx->pos += 2;
            continue;
        }
        if (c == '"') {
            quote = quote ? 0 : '"';
            lx->pos++;
            continue;
        }
        if (c == '\'' && !quote) {
            quote = '\'';
            lx->pos++;
            continue;
        }
        if (c == '$' && lx->lookup) {
            expand_var(lx, out);
            continue;
        }
        byoc_buf_putc(out, c);
        lx->pos++;
    }
}

char *byoc_sw_word(const char *s, size_t len, char escape, byoc_var_lookup lookup, void *ctx)
{
    lexer lx = {s, len, 0, escape, lookup, ctx, false};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    process(&lx, &b);
    return byoc_buf_steal(&b);
}

/* End of the raw token starting at i (quotes and ${...} keep whitespace inside). */
static size_t token_end(const char *s, size_t len, size_t i, char esc)
{
    char quote = 0;
    while (i < len) {
        char c = s[i];
        if (c == esc && quote != '\'' && i + 1 < len) {
            i += 2;
            continue;
        }
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '$' && i + 1 < len && s[i + 1] == '{') {
            i = matching_brace(s, len, i + 2, esc);
            continue;
        } else if (isspace((unsigned char)c)) {
            break;
        }
        i++;
    }
    return i;
}

void byoc_sw_split_raw(const char *s, char escape, byoc_strv *out)
{
    size_t len = strlen(s), i = 0;
    for (;;) {
        while (i < len && isspace((unsigned char)s[i]))
            i++;
        if (i >= len)
            break;
        size_t e = token_end(s, len, i, escape);
        byoc_strv_push_owned(out, byoc_xstrndup(s + i, e - i));
        i = e;
    }
}

void byoc_sw_words(const char *s, char escape, byoc_var_lookup lookup, void *ctx, byoc_strv *out)
{
    byoc_strv raw = BYOC_STRV_INIT;
    byoc_sw_split_raw(s, escape, &raw);
    for (size_t i = 0; i < raw.n; i++)
        byoc_strv_push_owned(out, byoc_sw_word(raw.v[i], strlen(raw.v[i]), escape, lookup, ctx));
    byoc_strv_free(&raw);
}

bool byoc_sw_has_unset(const char *s, char escape, byoc_var_lookup lookup, void *ctx)
{
    lexer lx = {s, strlen(s), 0, escape, lookup, ctx, false};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    process(&lx, &b);
    byoc_buf_free(&b);
    return lx.saw_unset;
}
