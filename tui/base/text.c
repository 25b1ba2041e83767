#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "core/buf.h"
#include "core/utf8.h"

int tui_cp_width(unsigned cp)
{
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
        return 1;                       /* drawn as '?' after sanitizing */
    if (cp < 0x7F)
        return 1;
    int w = wcwidth((wchar_t)cp);       /* the same table curses uses */
    if (w >= 0)
        return w > 2 ? 2 : w;
    return 1;
}

int tui_text_nwidth(const char *s, size_t n)
{
    int cols = 0;
    size_t i = 0;
    while (i < n && s[i]) {
        unsigned cp;
        i += byoc_utf8_decode(s + i, &cp);
        cols += tui_cp_width(cp);
    }
    return cols;
}

int tui_text_width(const char *s)
{
    return s ? tui_text_nwidth(s, strlen(s)) : 0;
}

size_t tui_text_fit_bytes(const char *s, int cols)
{
    size_t i = 0;
    int used = 0;
    while (s[i]) {
        unsigned cp;
        size_t n = byoc_utf8_decode(s + i, &cp);
        int w = tui_cp_width(cp);
        if (used + w > cols)
            break;
        used += w;
        i += n;
    }
    return i;
}

const char *tui_text_skip_cols(const char *s, int cols, int *pad)
{
    int used = 0;
    if (pad)
        *pad = 0;
    while (*s && used < cols) {
        unsigned cp;
        size_t n = byoc_utf8_decode(s, &cp);
        used += tui_cp_width(cp);
        s += n;
    }
    if (pad && used > cols)
        *pad = used - cols;
    return s;
}

int tui_text_fit(const char *s, int cols, const char *ellipsis, char *out, size_t outsize)
{
    if (outsize == 0)
        return 0;
    out[0] = '\0';
    if (!s || cols <= 0)
        return 0;
    int width = tui_text_width(s);
    size_t take;
    const char *tail = "";
    if (width <= cols) {
        take = strlen(s);
    } else {
        int ew = tui_text_width(ellipsis);
        if (ew > cols) {
            ellipsis = "";
            ew = 0;
        }
        take = tui_text_fit_bytes(s, cols - ew);
        tail = ellipsis;
    }
    size_t tl = strlen(tail);
    if (take + tl + 1 > outsize) {
        if (tl + 1 > outsize)
            tl = 0;
        take = outsize - 1 - tl;
        while (take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80)
            take--;                     /* never split a character */
    }
    memcpy(out, s, take);
    memcpy(out + take, tail, tl);
    out[take + tl] = '\0';
    return tui_text_width(out);
}

int tui_text_fit_tail(const char *s, int cols, const char *ellipsis, char *out, size_t outsize)
{
    if (outsize == 0)
        return 0;
    out[0] = '\0';
    if (!s || cols <= 0)
        return 0;
    int width = tui_text_width(s);
    if (width <= cols) {
        snprintf(out, outsize, "%s", s);
        return tui_text_width(out);
    }
    int ew = tui_text_width(ellipsis);
    if (ew > cols) {
        ellipsis = "";
        ew = 0;
    }
    int pad;
    const char *tail = tui_text_skip_cols(s, width - (cols - ew), &pad);
    snprintf(out, outsize, "%s%s", ellipsis, tail);
    return tui_text_width(out);
}

static unsigned fold(unsigned cp)
{
    if (cp < 0x80)
        return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    return (unsigned)towlower((wint_t)cp);
}

static bool is_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return false;
    return true;
}

static unsigned char ascii_fold(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

/* The common case of an ASCII needle, byte by byte: a filter over 10,000
 * rows runs within a frame. Bytes of multi-byte characters never match an
 * ASCII needle here (towlower would fold the Kelvin sign to "k"; nobody
 * filters by that). */
static const char *ascii_casestr(const char *hay, const char *needle)
{
    unsigned char first = ascii_fold((unsigned char)needle[0]);
    for (const char *h = hay; *h; h++) {
        if (ascii_fold((unsigned char)*h) != first)
            continue;
        const char *a = h + 1, *b = needle + 1;
        while (*b && *a && ascii_fold((unsigned char)*a) == ascii_fold((unsigned char)*b)) {
            a++;
            b++;
        }
        if (!*b)
            return h;
    }
    return NULL;
}

const char *tui_text_casestr(const char *hay, const char *needle)
{
    if (!hay || !needle)
        return NULL;
    if (!*needle)
        return hay;
    if (is_ascii(needle))
        return ascii_casestr(hay, needle);
    for (const char *h = hay; *h;) {
        const char *a = h, *b = needle;
        while (*a && *b) {
            unsigned ca, cb;
            size_t na = byoc_utf8_decode(a, &ca), nb = byoc_utf8_decode(b, &cb);
            if (fold(ca) != fold(cb))
                break;
            a += na;
            b += nb;
        }
        if (!*b)
            return h;
        unsigned cp;
        h += byoc_utf8_decode(h, &cp);
    }
    return NULL;
}

char *tui_text_sanitize(const char *s, size_t n)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, n + 1);
    int col = 0;
    size_t i = 0;
    while (i < n && s[i]) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0x1B) {
            i += byoc_escape_len(s + i, n - i);
            continue;
        }
        if (c == '\t') {
            do {
                byoc_buf_putc(&b, ' ');
                col++;
            } while (col % 8);
            i++;
            continue;
        }
        if (c == '\r') {
            i++;
            continue;
        }
        if (c == '\n') {
            byoc_buf_putc(&b, '\n');
            col = 0;
            i++;
            continue;
        }
        if (c < 0x20 || c == 0x7F) {
            byoc_buf_putc(&b, '?');
            col++;
            i++;
            continue;
        }
        unsigned cp;
        size_t len = byoc_utf8_decode(s + i, &cp);
        if (i + len > n || cp == 0xFFFD || (cp >= 0x80 && cp < 0xA0)) {
            if (cp == 0xFFFD && len == 3) {
                byoc_buf_append(&b, s + i, len); /* a real U+FFFD */
            } else {
                byoc_buf_putc(&b, '?');
                len = len > n - i ? n - i : len;
            }
            col++;
            i += len;
            continue;
        }
        byoc_buf_append(&b, s + i, len);
        col += tui_cp_width(cp);
        i += len;
    }
    return byoc_buf_steal(&b);
}

int tui_text_wrap(const char *s, int cols, tui_wrap_fn line, void *ud)
{
    if (cols < 1)
        cols = 1;
    int lines = 0;
    const char *p = s;
    while (*p) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *q = p;
        if (q == eol) {
            if (line)
                line(q, 0, ud);
            lines++;
        }
        while (q < eol) {
            const char *r = q, *brk = NULL;
            int used = 0;
            size_t n = 1;
            while (r < eol) {
                unsigned cp;
                n = byoc_utf8_decode(r, &cp);
                int w = tui_cp_width(cp);
                if (used + w > cols)
                    break;
                if (cp == ' ')
                    brk = r;
                used += w;
                r += n;
            }
            const char *end, *next;
            if (r >= eol) {
                end = next = eol;
            } else if (brk && brk > q) {
                end = brk;
                next = brk + 1;
            } else {
                end = next = (r == q) ? r + n : r;   /* a character wider than cols */
            }
            if (line)
                line(q, (size_t)(end - q), ud);
            lines++;
            q = next;
        }
        p = *eol ? eol + 1 : eol;
    }
    return lines;
}
