#include "core/jsonout.h"

#include <locale.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

/* jansson writes exponents without '+' or leading zeros ("1e20", "1e-7"). */
static void tidy_exponent(char *s)
{
    char *e = strchr(s, 'e');
    if (!e)
        return;
    char *from = e + 1, *to = e + 1;
    if (*from == '-')
        *to++ = *from++;
    else if (*from == '+')
        from++;
    while (*from == '0' && from[1])
        from++;
    memmove(to, from, strlen(from) + 1);
}

int byoc_json_real_text(double v, char *buf, size_t size)
{
    pthread_once(&c_locale_once, make_c_locale);
    locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    if (old)
        uselocale(old);
    tidy_exponent(tmp);
    if (!strpbrk(tmp, ".e"))
        strcat(tmp, ".0");
    return snprintf(buf, size, "%s", tmp);
}

/* jansson hands the callback each token on its own: a string opens and closes
 * with a piece that is exactly one '"' (a quote inside is always the escape
 * piece "\""), and a real is one piece. Outside strings, a piece that starts
 * like a number and has a '.' or an exponent is a real. */
typedef struct filter {
    json_dump_callback_t cb;
    void *ud;
    bool in_string;
} filter;

static bool looks_real(const char *p, size_t n)
{
    if (n == 0 || n >= 40 || !(p[0] == '-' || (p[0] >= '0' && p[0] <= '9')))
        return false;
    return memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n);
}

/* When s[0..n) starts with a character byoc escapes beyond jansson (see
 * jsonout.h), or with one jansson escapes too when c0 (for byoc_json_put_string),
 * its escape goes to esc and its length in bytes is returned; else 0. */
static size_t escape_at(const unsigned char *s, size_t n, bool c0, char esc[8])
{
    static const char hex[] = "0123456789ABCDEF";
    unsigned cp;
    size_t len;
    if (c0 && (s[0] < 0x20 || s[0] == '"' || s[0] == '\\')) {
        const char *named = s[0] == '"' ? "\\\"" : s[0] == '\\' ? "\\\\" : s[0] == '\b' ? "\\b"
                          : s[0] == '\f' ? "\\f" : s[0] == '\n' ? "\\n" : s[0] == '\r' ? "\\r"
                          : s[0] == '\t' ? "\\t" : NULL;
        if (named) {
            memcpy(esc, named, 3);
            return 1;
        }
        cp = s[0];
        len = 1;
    } else if (s[0] == 0x7F) {
        cp = 0x7F;
        len = 1;
    } else if (s[0] == 0xC2 && n >= 2 && s[1] >= 0x80 && s[1] <= 0x9F) {
        cp = s[1];
        len = 2;
    } else if (s[0] == 0xE2 && n >= 3 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9)) {
        cp = s[2] == 0xA8 ? 0x2028 : 0x2029;
        len = 3;
    } else {
        return 0;
    }
    char u[8] = {'\\', 'u', hex[cp >> 12], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15], hex[cp & 15], 0};
    memcpy(esc, u, sizeof u);
    return len;
}

typedef int (*put_fn)(const char *p, size_t n, void *ud);

/* s[0..n) with the escapes of escape_at, in runs: one put per run and per escape. */
static int put_escaped(const char *s, size_t n, bool c0, put_fn put, void *ud)
{
    size_t run = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') { /* most bytes: no call */
            i++;
            continue;
        }
        char esc[8];
        size_t len = escape_at((const unsigned char *)s + i, n - i, c0, esc);
        if (!len) {
            i++;
            continue;
        }
        if ((i > run && put(s + run, i - run, ud) != 0) || put(esc, strlen(esc), ud) != 0)
            return -1;
        i += len;
        run = i;
    }
    return n > run ? put(s + run, n - run, ud) : 0;
}

static int filter_put(const char *p, size_t n, void *ud)
{
    filter *f = ud;
    if (n == 1 && p[0] == '"') {
        f->in_string = !f->in_string;
        return f->cb(p, n, f->ud);
    }
    if (f->in_string) /* jansson hands a string's text in runs of whole characters */
        return put_escaped(p, n, false, f->cb, f->ud);
    if (!looks_real(p, n))
        return f->cb(p, n, f->ud);
    char num[40], out[40];
    memcpy(num, p, n);
    num[n] = '\0';
    pthread_once(&c_locale_once, make_c_locale);
    locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
    char *end;
    double v = strtod(num, &end);
    if (old)
        uselocale(old);
    if (*end != '\0')
        return f->cb(p, n, f->ud);
    int len = byoc_json_real_text(v, out, sizeof out);
    return f->cb(out, (size_t)len, f->ud);
}

int byoc_json_dump_callback(const json_t *doc, json_dump_callback_t cb, void *ud, size_t flags)
{
    filter f = {cb, ud, false};
    return json_dump_callback(doc, filter_put, &f, flags);
}

static int to_buf(const char *p, size_t n, void *ud)
{
    byoc_buf_append(ud, p, n);
    return 0;
}

char *byoc_json_dumps(const json_t *doc, size_t flags)
{
    byoc_buf b = BYOC_BUF_INIT;
    if (byoc_json_dump_callback(doc, to_buf, &b, flags) != 0) {
        byoc_buf_clear(&b);
        return NULL;
    }
    return byoc_buf_steal(&b);
}

void byoc_json_put_string(byoc_buf *b, const char *s, size_t n)
{
    byoc_buf_reserve(b, n + 2);
    byoc_buf_putc(b, '"');
    put_escaped(s, n, true, to_buf, b);
    byoc_buf_putc(b, '"');
}
