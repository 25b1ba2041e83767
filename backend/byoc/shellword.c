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

/* Deeper ${...} nesting than this counts as unset, unexpanded: the lexer
 * recurses once per level, and a hostile Dockerfile must not exhaust the stack. */
#define MAX_NESTING 64

static void process(lexer *lx, byoc_buf *out, int depth);

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

/* ${NAME<op>WORD}, the lexer at the '{'. The word is lexed in the same pass,
 * up to the unquoted '}' that closes it, so expansion stays linear however
 * deep the nesting (finding the close first, at every level, was quadratic). */
static void expand_braced(lexer *lx, byoc_buf *out, int depth)
{
    const char *s = lx->s;
    size_t start = lx->pos + 1, n = start;
    if (depth >= MAX_NESTING) {
        lx->saw_unset = true;
        lx->pos = matching_brace(s, lx->len, start, lx->esc);
        return;
    }
    while (n < lx->len && is_name_char(s[n]))
        n++;
    char *name = byoc_xstrndup(s + start, n - start);
    const char *val = lx->lookup(lx->ctx, name);
    free(name);
    bool colon = n < lx->len && s[n] == ':';
    size_t op = colon ? n + 1 : n;
    char mod = op < lx->len && s[op] != '}' ? s[op] : 0;

    byoc_buf word = BYOC_BUF_INIT;
    bool unset_before = lx->saw_unset;
    lx->saw_unset = false;
    lx->pos = mod ? op + 1 : op;
    process(lx, &word, depth + 1);
    bool word_unset = lx->saw_unset;
    lx->saw_unset = unset_before;
    if (lx->pos < lx->len) /* at the closing '}' */
        lx->pos++;

    bool set = val != NULL, nonempty = val && *val;
    bool use = colon ? nonempty : set;
    bool use_word = (mod == '-' && !use) || (mod == '+' && use);
    if (use_word) {
        byoc_buf_append(out, word.data, word.len);
        lx->saw_unset |= word_unset;
    } else if (mod == '-' || val) {
        /* plain ${VAR}, ${VAR:?msg}, and forms byoc does not model (#, %, /) */
        byoc_buf_puts(out, val);
    } else if (mod != '+') {
        lx->saw_unset = true;
    }
    byoc_buf_clear(&word);
}

static void expand_var(lexer *lx, byoc_buf *out, int depth)
{
    const char *s = lx->s;
    size_t i = lx->pos + 1; /* past '$' */
    if (i < lx->len && s[i] == '{') {
        lx->pos = i;
        expand_braced(lx, out, depth);
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

/* Lex from lx->pos to the end, or (inside ${...}, depth > 0) to the unquoted
 * '}' that closes the braces, left unconsumed. */
static void process(lexer *lx, byoc_buf *out, int depth)
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
        if (c == '}' && !quote && depth > 0)
            return;
        if (c == '$' && lx->lookup) {
            expand_var(lx, out, depth);
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
    process(&lx, &b, 0);
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

size_t byoc_sw_token_len(const char *s, size_t len, char escape)
{
    return token_end(s, len, 0, escape);
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
    byoc_strv_clear(&raw);
}

bool byoc_sw_has_unset(const char *s, char escape, byoc_var_lookup lookup, void *ctx)
{
    lexer lx = {s, strlen(s), 0, escape, lookup, ctx, false};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    process(&lx, &b, 0);
    byoc_buf_clear(&b);
    return lx.saw_unset;
}
