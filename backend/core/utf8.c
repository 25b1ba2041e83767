#include "core/utf8.h"

#include <stdio.h>
#include <string.h>

#include "core/buf.h"

size_t byoc_utf8_decode(const char *str, unsigned *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    unsigned c = s[0], need, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1; min = 0x80; c &= 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2; min = 0x800; c &= 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3; min = 0x10000; c &= 0x07;
    } else {
        *cp = 0xFFFD;
        return 1;
    }
    for (unsigned i = 1; i <= need; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = 0xFFFD;
            return 1;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        *cp = 0xFFFD;
        return 1;
    }
    *cp = c;
    return need + 1;
}

size_t byoc_utf8_encode(unsigned cp, char *out)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return 0;
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    if (cp <= 0x10FFFF) {
        o[0] = (unsigned char)(0xF0 | (cp >> 18));
        o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[3] = (unsigned char)(0x80 | (cp & 0x3F));
        return 4;
    }
    return 0;
}

size_t byoc_utf8_whole(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    /* a lead byte is at most 4 bytes from the end; a sequence is cut when it needs more than are left */
    for (size_t back = 1; back <= 4 && back <= n; back++) {
        unsigned char c = s[n - back];
        if ((c & 0xC0) == 0x80)
            continue;               /* a continuation byte: its lead is further back */
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        return need > back ? n - back : n;
    }
    return n;                       /* no lead byte at all: invalid anyway, nothing to cut */
}

size_t byoc_utf8_invalid_at(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        /* byoc_utf8_decode reads up to 4 bytes and stops at a NUL: give it a padded copy near the end */
        char tail[5] = {0};
        const char *at = s + i;
        if (n - i < 4) {
            memcpy(tail, at, n - i);
            at = tail;
        }
        unsigned cp;
        size_t len = byoc_utf8_decode(at, &cp);
        if (cp == 0xFFFD && len == 1)
            return i;
        i += len;
    }
    return n;
}

size_t byoc_utf8_copy(char *dst, size_t size, const char *src)
{
    return byoc_utf8_snprintf(dst, size, "%s", src ? src : "");
}

size_t byoc_utf8_snprintf(char *dst, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t n = byoc_utf8_vsnprintf(dst, size, fmt, ap);
    va_end(ap);
    return n;
}

size_t byoc_utf8_vsnprintf(char *dst, size_t size, const char *fmt, va_list ap)
{
    int n = vsnprintf(dst, size, fmt, ap);
    if (n < 0) {
        dst[0] = '\0';
        return 0;
    }
    if ((size_t)n < size)
        return (size_t)n;
    size_t len = byoc_utf8_whole(dst, size - 1);
    dst[len] = '\0';
    return len;
}

size_t byoc_escape_len(const char *s, size_t n)
{
    if (n < 2)
        return n;
    size_t i = 2;
    switch (s[1]) {
    case '[':                               /* CSI: parameters, then a final byte 0x40..0x7E */
        while (i < n && !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7E))
            i++;
        return i < n ? i + 1 : n;
    case ']': case 'P': case '_': case '^': /* OSC/DCS/APC/PM: up to BEL or ESC \ */
        while (i < n) {
            if (s[i] == '\a')
                return i + 1;
            if (s[i] == 0x1B && i + 1 < n && s[i + 1] == '\\')
                return i + 2;
            i++;
        }
        return n;
    case '(': case ')': case '*': case '+': case '#': case '%':
        return n >= 3 ? 3 : n;
    default:
        return 2;
    }
}

size_t byoc_printable_inplace(char *s)
{
    if (!s)
        return 0;
    size_t n = strlen(s), r = 0, w = 0;
    while (r < n) {
        unsigned char c = (unsigned char)s[r];
        if (c == 0x1B) {
            r += byoc_escape_len(s + r, n - r);
            continue;
        }
        if (c == '\r') {
            r++;
            continue;
        }
        if (c < 0x20 || c == 0x7F) {
            s[w++] = c == '\n' || c == '\t' || c == '\v' || c == '\f' ? ' ' : '?';
            r++;
            continue;
        }
        unsigned cp;
        size_t len = byoc_utf8_decode(s + r, &cp);
        if ((cp == 0xFFFD && len == 1) || (cp >= 0x80 && cp < 0xA0)) {
            s[w++] = '?';
        } else {
            memmove(s + w, s + r, len);
            w += len;
        }
        r += len;
    }
    s[w] = '\0';
    return w;
}

char *byoc_printable_dup(const char *s)
{
    char *copy = byoc_xstrdup(s ? s : "");
    byoc_printable_inplace(copy);
    return copy;
}
