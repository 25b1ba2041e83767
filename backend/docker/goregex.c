#include "docker/goregex.h"

#include <locale.h>
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

struct byoc_goregex {
    regex_t re;
    locale_t utf8;
    char *ere;
};

/* One UTF-8 locale for every regexp of the process (glibc keeps its data mapped anyway). */
static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_init(void)
{
    utf8_locale = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
}

/* ---- small helpers ---- */

typedef struct {
    uint32_t lo, hi;
} rrange;

typedef struct {
    rrange *r;
    size_t len, cap;
} rset;

static void rset_add(rset *s, uint32_t lo, uint32_t hi)
{
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->r = byoc_xrealloc(s->r, s->cap * sizeof *s->r);
    }
    s->r[s->len].lo = lo;
    s->r[s->len].hi = hi;
    s->len++;
}

static int rrange_cmp(const void *a, const void *b)
{
    const rrange *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void rset_normalize(rset *s)
{
    if (s->len < 2)
        return;
    qsort(s->r, s->len, sizeof *s->r, rrange_cmp);
    size_t w = 0;
    for (size_t i = 1; i < s->len; i++) {
        if (s->r[i].lo <= s->r[w].hi + 1) {
            if (s->r[i].hi > s->r[w].hi)
                s->r[w].hi = s->r[i].hi;
        } else {
            s->r[++w] = s->r[i];
        }
    }
    s->len = w + 1;
}

#define MAX_RUNE 0x10FFFFu

/* Add the complement of the ranges `items` (normalized) to s. */
static void rset_add_complement(rset *s, const rrange *items, size_t n)
{
    uint32_t next = 0;
    for (size_t i = 0; i < n; i++) {
        if (items[i].lo > next)
            rset_add(s, next, items[i].lo - 1);
        next = items[i].hi + 1;
    }
    if (next <= MAX_RUNE)
        rset_add(s, next, MAX_RUNE);
}

/* Decode one UTF-8 code point; returns its length, 0 on invalid input. */
static size_t utf8_decode(const char *p, uint32_t *cp)
{
    const unsigned char *s = (const unsigned char *)p;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    size_t n;
    uint32_t c;
    if ((s[0] & 0xE0) == 0xC0) { n = 2; c = s[0] & 0x1F; }
    else if ((s[0] & 0xF0) == 0xE0) { n = 3; c = s[0] & 0x0F; }
    else if ((s[0] & 0xF8) == 0xF0) { n = 4; c = s[0] & 0x07; }
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && c < 0x10000) || c > MAX_RUNE ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

static void put_utf8(byoc_buf *b, uint32_t c)
{
    char u[4];
    size_t n;
    if (c < 0x80) { u[0] = (char)c; n = 1; }
    else if (c < 0x800) { u[0] = (char)(0xC0 | (c >> 6)); u[1] = (char)(0x80 | (c & 0x3F)); n = 2; }
    else if (c < 0x10000) {
        u[0] = (char)(0xE0 | (c >> 12)); u[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        u[2] = (char)(0x80 | (c & 0x3F)); n = 3;
    } else {
        u[0] = (char)(0xF0 | (c >> 18)); u[1] = (char)(0x80 | ((c >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((c >> 6) & 0x3F)); u[3] = (char)(0x80 | (c & 0x3F)); n = 4;
    }
    byoc_buf_append(b, u, n);
}

static bool is_alnum_ascii(uint32_t c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* ---- the translator ---- */

typedef struct {
    const char *s;        /* remaining Go regexp */
    byoc_buf out;         /* ERE being built */
    char *why;
    unsigned long why_size;
    int depth;
    size_t *groups;       /* out offsets of the open groups' '(' */
    size_t atom_start;    /* where the last atom begins in out */
    enum { PREV_NONE, PREV_ATOM, PREV_ZERO, PREV_REPEAT } prev;
} xlat;

static int fail(xlat *x, const char *fmt, const char *arg)
{
    snprintf(x->why, x->why_size, fmt, arg);
    return -1;
}

/* Perl class \d \s \w (and upper-case negations) as ranges. */
static bool perl_class(char c, rset *s)
{
    rset pos = {0};
    switch (c) {
    case 'd': case 'D':
        rset_add(&pos, '0', '9');
        break;
    case 's': case 'S':
        rset_add(&pos, '\t', '\n');
        rset_add(&pos, '\f', '\r');
        rset_add(&pos, ' ', ' ');
        break;
    case 'w': case 'W':
        rset_add(&pos, '0', '9');
        rset_add(&pos, 'A', 'Z');
        rset_add(&pos, '_', '_');
        rset_add(&pos, 'a', 'z');
        break;
    default:
        return false;
    }
    rset_normalize(&pos);
    if (c >= 'A' && c <= 'Z')
        rset_add_complement(s, pos.r, pos.len);
    else
        for (size_t i = 0; i < pos.len; i++)
            rset_add(s, pos.r[i].lo, pos.r[i].hi);
    free(pos.r);
    return true;
}

/* POSIX named classes as Go defines them (ASCII only). */
static bool named_class(const char *name, size_t len, rset *s)
{
    static const struct { const char *name; const char *ranges; } tab[] = {
        {"alnum", "09AZaz"}, {"alpha", "AZaz"}, {"ascii", "\x01\x7f"}, {"blank", "\t\t  "},
        {"cntrl", "\x01\x1f\x7f\x7f"}, {"digit", "09"}, {"graph", "!~"}, {"lower", "az"},
        {"print", " ~"}, {"punct", "!/:@[`{~"}, {"space", "\t\r  "}, {"upper", "AZ"},
        {"word", "09AZ__az"}, {"xdigit", "09AFaf"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (strlen(tab[i].name) == len && memcmp(tab[i].name, name, len) == 0) {
            for (const char *r = tab[i].ranges; *r; r += 2)
                rset_add(s, (unsigned char)r[0], (unsigned char)r[1]);
            return true;
        }
    }
    return false;
}

/* After a backslash (x->s points past it): a single code point escape.
 * Returns 1 and *cp for a character, 0 if the escape is something else
 * (class or assertion: left unconsumed), -1 on error. */
static int parse_char_escape(xlat *x, uint32_t *cp)
{
    const char *t = x->s;
    unsigned char c = (unsigned char)*t;
    if (c == 0)
        return fail(x, "trailing backslash at end of expression%s", "");
    if (c >= 0x80)
        return fail(x, "invalid escape sequence%s", "");
    if (!is_alnum_ascii(c)) {
        *cp = c;
        x->s = t + 1;
        return 1;
    }
    if (c >= '0' && c <= '7') {
        /* Go: a single non-zero digit would be a backreference (unsupported). */
        if (c != '0' && !(t[1] >= '0' && t[1] <= '7'))
            return fail(x, "invalid escape sequence: `\\%c`", (const char *)t);
        uint32_t v = 0;
        int n = 0;
        while (n < 3 && *t >= '0' && *t <= '7') {
            v = v * 8 + (uint32_t)(*t - '0');
            t++;
            n++;
        }
        if (v == 0)
            return fail(x, "NUL in pattern is not supported%s", "");
        *cp = v;
        x->s = t;
        return 1;
    }
    switch (c) {
    case 'a': *cp = 7; break;
    case 'f': *cp = 12; break;
    case 't': *cp = 9; break;
    case 'n': *cp = 10; break;
    case 'r': *cp = 13; break;
    case 'v': *cp = 11; break;
    case 'x': {
        t++;
        uint32_t v = 0;
        if (*t == '{') {
            t++;
            int n = 0;
            while ((*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'f') || (*t >= 'A' && *t <= 'F')) {
                v = v * 16 + (uint32_t)(*t <= '9' ? *t - '0' : (*t | 0x20) - 'a' + 10);
                if (v > MAX_RUNE)
                    return fail(x, "invalid escape sequence%s", "");
                t++;
                n++;
            }
            if (*t != '}' || n == 0)
                return fail(x, "invalid escape sequence%s", "");
            t++;
        } else {
            for (int i = 0; i < 2; i++, t++) {
                if (!((*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'f') || (*t >= 'A' && *t <= 'F')))
                    return fail(x, "invalid escape sequence%s", "");
                v = v * 16 + (uint32_t)(*t <= '9' ? *t - '0' : (*t | 0x20) - 'a' + 10);
            }
        }
        if (v == 0)
            return fail(x, "NUL in pattern is not supported%s", "");
        *cp = v;
        x->s = t;
        return 1;
    }
    case 'd': case 'D': case 's': case 'S': case 'w': case 'W':
    case 'A': case 'z': case 'b': case 'B':
        return 0;
    case 'p': case 'P': case 'Q': case 'E': case 'C':
        return fail(x, "unsupported escape `\\%c` in pattern", (const char *)t);
    default:
        return fail(x, "invalid escape sequence: `\\%.1s`", (const char *)t);
    }
    x->s = t + 1;
    return 1;
}

/* One character of a class (possibly escaped). */
static int class_char(xlat *x, uint32_t *cp)
{
    if (*x->s == '\\') {
        x->s++;
        int r = parse_char_escape(x, cp);
        if (r == 0)
            return fail(x, "invalid escape sequence in class%s", "");
        return r < 0 ? -1 : 0;
    }
    size_t n = utf8_decode(x->s, cp);
    if (n == 0)
        return fail(x, "invalid UTF-8%s", "");
    x->s += n;
    return 0;
}

static void emit_bracket(xlat *x, rset *s, bool neg)
{
    rset_normalize(s);
    if (s->len == 0) {
        byoc_buf_puts(&x->out, neg ? "(.)" : "($x)");
        return;
    }
    static const uint32_t specials[] = {'-', '[', ']', '^'}; /* ascending */
    bool mark[4] = {false, false, false, false};
    rset body = {0};
    for (size_t i = 0; i < s->len; i++) {
        uint32_t c = s->r[i].lo ? s->r[i].lo : 1, hi = s->r[i].hi;
        for (int k = 0; k < 4; k++) {
            if (specials[k] < c || specials[k] > hi)
                continue;
            if (specials[k] > c)
                rset_add(&body, c, specials[k] - 1);
            mark[k] = true;
            c = specials[k] + 1;
        }
        if (c <= hi)
            rset_add(&body, c, hi);
    }
    bool dash = mark[0], lbrack = mark[1], rbrack = mark[2], caret = mark[3];
    if (!neg && !rbrack && body.len == 0 && !lbrack && caret && !dash) {
        byoc_buf_puts(&x->out, "\\^");
        free(body.r);
        return;
    }
    byoc_buf_putc(&x->out, '[');
    if (neg)
        byoc_buf_putc(&x->out, '^');
    size_t start = x->out.len;
    if (rbrack)
        byoc_buf_putc(&x->out, ']');
    for (size_t i = 0; i < body.len; i++) {
        put_utf8(&x->out, body.r[i].lo);
        if (body.r[i].hi != body.r[i].lo) {
            byoc_buf_putc(&x->out, '-');
            put_utf8(&x->out, body.r[i].hi);
        }
    }
    if (lbrack)
        byoc_buf_putc(&x->out, '[');
    if (caret) {
        if (x->out.len == start) {
            byoc_buf_putc(&x->out, '-');
            dash = false;
        }
        byoc_buf_putc(&x->out, '^');
    }
    if (dash)
        byoc_buf_putc(&x->out, '-');
    byoc_buf_putc(&x->out, ']');
    free(body.r);
}

/* x->s points just past '['. */
static int parse_class(xlat *x)
{
    rset s = {0};
    bool neg = false;
    if (*x->s == '^') {
        neg = true;
        x->s++;
    }
    bool first = true;
    while (first || *x->s != ']') {
        if (*x->s == 0) {
            free(s.r);
            return fail(x, "missing closing ]%s", "");
        }
        first = false;
        if (x->s[0] == '[' && x->s[1] == ':') {
            const char *end = strstr(x->s + 2, ":]");
            if (end) {
                const char *name = x->s + 2;
                bool nneg = *name == '^';
                if (nneg)
                    name++;
                rset tmp = {0};
                if (!named_class(name, (size_t)(end - name), &tmp)) {
                    free(tmp.r);
                    free(s.r);
                    return fail(x, "invalid character class range%s", "");
                }
                rset_normalize(&tmp);
                if (nneg)
                    rset_add_complement(&s, tmp.r, tmp.len);
                else
                    for (size_t i = 0; i < tmp.len; i++)
                        rset_add(&s, tmp.r[i].lo, tmp.r[i].hi);
                free(tmp.r);
                x->s = end + 2;
                continue;
            }
        }
        if (x->s[0] == '\\' && x->s[1] && strchr("dDsSwW", x->s[1])) {
            perl_class(x->s[1], &s);
            x->s += 2;
            continue;
        }
        uint32_t lo, hi;
        if (class_char(x, &lo) < 0) {
            free(s.r);
            return -1;
        }
        hi = lo;
        if (x->s[0] == '-' && x->s[1] && x->s[1] != ']') {
            x->s++;
            if (class_char(x, &hi) < 0) {
                free(s.r);
                return -1;
            }
            if (hi < lo) {
                free(s.r);
                return fail(x, "invalid character class range%s", "");
            }
        }
        rset_add(&s, lo, hi);
    }
    x->s++; /* ']' */
    emit_bracket(x, &s, neg);
    free(s.r);
    return 0;
}

static void emit_literal(xlat *x, uint32_t c)
{
    if (c < 0x80) {
        if (strchr(".[]()*+?{}|^$\\", (int)c))
            byoc_buf_putc(&x->out, '\\');
        byoc_buf_putc(&x->out, (char)c);
    } else {
        byoc_buf_putc(&x->out, '(');
        put_utf8(&x->out, c);
        byoc_buf_putc(&x->out, ')');
    }
}

/* Parse "{n}", "{n,}", "{n,m}" at x->s; returns length consumed or 0 if not a repeat. */
static size_t parse_repeat(const char *s, long *min, long *max)
{
    const char *p = s + 1;
    if (!(*p >= '0' && *p <= '9'))
        return 0;
    long a = 0, b;
    while (*p >= '0' && *p <= '9') {
        a = a * 10 + (*p++ - '0');
        if (a > 100000)
            a = 100000;
    }
    b = a;
    if (*p == ',') {
        p++;
        if (*p == '}') {
            b = -1;
        } else {
            if (!(*p >= '0' && *p <= '9'))
                return 0;
            b = 0;
            while (*p >= '0' && *p <= '9') {
                b = b * 10 + (*p++ - '0');
                if (b > 100000)
                    b = 100000;
            }
        }
    }
    if (*p != '}')
        return 0;
    *min = a;
    *max = b;
    return (size_t)(p + 1 - s);
}

static int translate(xlat *x)
{
    while (*x->s) {
        const char *at = x->s;
        char c = *x->s;
        long min = 0, max = 0;
        size_t replen = 0;
        if (c == '*' || c == '+' || c == '?' || (c == '{' && (replen = parse_repeat(x->s, &min, &max)))) {
            if (c == '*') { min = 0; max = -1; replen = 1; }
            else if (c == '+') { min = 1; max = -1; replen = 1; }
            else if (c == '?') { min = 0; max = 1; replen = 1; }
            if (x->prev == PREV_NONE)
                return fail(x, "missing argument to repetition operator: `%.1s`", at);
            if (x->prev == PREV_REPEAT)
                return fail(x, "invalid nested repetition operator: `%.1s`", at);
            if (min > 1000 || max > 1000 || (max >= 0 && max < min))
                return fail(x, "invalid repeat count%s", "");
            x->s += replen;
            if (*x->s == '?')
                x->s++; /* non-greedy: same match set */
            if (x->prev == PREV_ZERO) {
                /* A repeated empty-width assertion: optional => nothing, else itself. */
                if (min == 0)
                    x->out.len = x->atom_start, x->out.data[x->out.len] = 0;
            } else {
                byoc_buf_append(&x->out, at, replen);
            }
            x->prev = PREV_REPEAT;
            continue;
        }
        x->atom_start = x->out.len;
        switch (c) {
        case '(':
            if (x->s[1] == '?')
                return fail(x, "unsupported group syntax `(?` in pattern%s", "");
            if (x->depth >= 1000)
                return fail(x, "expression nests too deeply%s", "");
            x->groups = byoc_xrealloc(x->groups, (size_t)(x->depth + 1) * sizeof *x->groups);
            x->groups[x->depth++] = x->out.len;
            byoc_buf_putc(&x->out, '(');
            x->s++;
            x->prev = PREV_NONE;
            break;
        case ')': {
            if (x->depth == 0)
                return fail(x, "unexpected )%s", "");
            x->depth--;
            byoc_buf_putc(&x->out, ')');
            x->s++;
            x->atom_start = x->groups[x->depth];
            x->prev = PREV_ATOM;
            break;
        }
        case '|':
            byoc_buf_putc(&x->out, '|');
            x->s++;
            x->prev = PREV_NONE;
            break;
        case '^':
        case '$':
            byoc_buf_putc(&x->out, c);
            x->s++;
            x->prev = PREV_ZERO;
            break;
        case '.':
            byoc_buf_puts(&x->out, "[^\n]");
            x->s++;
            x->prev = PREV_ATOM;
            break;
        case '[':
            x->s++;
            if (parse_class(x) < 0)
                return -1;
            x->prev = PREV_ATOM;
            break;
        case '\\': {
            x->s++;
            uint32_t cp;
            int r = parse_char_escape(x, &cp);
            if (r < 0)
                return -1;
            if (r == 1) {
                emit_literal(x, cp);
                x->prev = PREV_ATOM;
                break;
            }
            char e = *x->s++;
            if (e == 'A' || e == 'z') {
                byoc_buf_putc(&x->out, e == 'A' ? '^' : '$');
                x->prev = PREV_ZERO;
            } else if (e == 'b' || e == 'B') {
                byoc_buf_putc(&x->out, '\\');
                byoc_buf_putc(&x->out, e);
                x->prev = PREV_ZERO;
            } else {
                rset s = {0};
                perl_class(e, &s);
                emit_bracket(x, &s, false);
                free(s.r);
                x->prev = PREV_ATOM;
            }
            break;
        }
        default: {
            uint32_t cp;
            size_t n = utf8_decode(x->s, &cp);
            if (n == 0)
                return fail(x, "invalid UTF-8%s", "");
            x->s += n;
            emit_literal(x, cp);
            x->prev = PREV_ATOM;
            break;
        }
        }
    }
    if (x->depth > 0)
        return fail(x, "missing closing )%s", "");
    return 0;
}

byoc_goregex *byoc_goregex_compile(const char *go_re, char *why, unsigned long why_size)
{
    char dummy[8];
    if (!why) {
        why = dummy;
        why_size = sizeof dummy;
    }
    why[0] = 0;
    xlat x = {.s = go_re, .out = BYOC_BUF_INIT, .why = why, .why_size = why_size, .prev = PREV_NONE};
    byoc_buf_puts(&x.out, "");
    int rc = translate(&x);
    free(x.groups);
    if (rc < 0) {
        byoc_buf_clear(&x.out);
        return NULL;
    }
    byoc_goregex *re = byoc_xcalloc(1, sizeof *re);
    re->ere = byoc_buf_steal(&x.out);
    pthread_once(&utf8_once, utf8_init);
    re->utf8 = utf8_locale;
    if (!re->utf8) {
        snprintf(why, why_size, "the C.UTF-8 locale is not available");
        free(re->ere);
        free(re);
        return NULL;
    }
    locale_t old = uselocale(re->utf8);
    rc = regcomp(&re->re, re->ere, REG_EXTENDED | REG_NOSUB);
    uselocale(old);
    if (rc != 0) {
        char msg[128];
        regerror(rc, &re->re, msg, sizeof msg);
        snprintf(why, why_size, "%s", msg);
        free(re->ere);
        free(re);
        return NULL;
    }
    return re;
}

bool byoc_goregex_match(const byoc_goregex *re, const char *s)
{
    locale_t old = uselocale(re->utf8);
    int rc = regexec(&re->re, s, 0, NULL, 0);
    uselocale(old);
    return rc == 0;
}

void byoc_goregex_free(byoc_goregex *re)
{
    if (!re)
        return;
    regfree(&re->re);
    free(re->ere);
    free(re);
}

const char *byoc_goregex_ere(const byoc_goregex *re)
{
    return re->ere;
}
