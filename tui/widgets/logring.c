#include "logring.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "text.h"

/* needle lowered into buf if it is ASCII (then true); else false. */
static bool lower_ascii(const char *needle, char *buf, size_t size)
{
    size_t i = 0;
    for (; needle[i]; i++) {
        unsigned char c = (unsigned char)needle[i];
        if (c >= 0x80 || i + 1 >= size)
            return false;
        buf[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    buf[i] = '\0';
    return true;
}

/* Whether text contains needle case-insensitively, as tui_text_casestr
 * decides; lowered (may be NULL) is needle lowered when ASCII: then an ASCII
 * line is matched byte by byte, without decoding and folding each character
 * (a search over a 20,000-line ring stays well inside a frame). */
static bool line_has(const char *text, const char *needle, const char *lowered)
{
    if (!lowered)
        return tui_text_casestr(text, needle) != NULL;
    size_t n = strlen(lowered);
    for (const unsigned char *h = (const unsigned char *)text; *h; h++) {
        unsigned c = *h >= 'A' && *h <= 'Z' ? *h + 32u : *h;
        if (c >= 0x80)
            return tui_text_casestr(text, needle) != NULL;   /* folding beyond ASCII */
        if (c != (unsigned char)lowered[0])
            continue;
        size_t k = 1;
        for (; k < n && h[k]; k++) {
            unsigned d = h[k] >= 'A' && h[k] <= 'Z' ? h[k] + 32u : h[k];
            if (d >= 0x80)
                return tui_text_casestr(text, needle) != NULL;
            if (d != (unsigned char)lowered[k])
                break;
        }
        if (k == n)
            return true;
    }
    return false;
}

static bool counts(const tui_logring *r, const char *text)
{
    return r->needle && line_has(text, r->needle, r->needle_ascii ? r->needle_lower : NULL);
}

void tui_logring_init(tui_logring *r, size_t max_lines, size_t max_bytes)
{
    memset(r, 0, sizeof *r);
    r->max_lines = max_lines ? max_lines : 1;
    r->max_bytes = max_bytes ? max_bytes : 1;
    r->lines = byoc_xcalloc(r->max_lines, sizeof *r->lines);
}

void tui_logring_clear(tui_logring *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->lines[(r->head + i) % r->max_lines].text);
    free(r->lines);
    free(r->needle);
    memset(r, 0, sizeof *r);
}

static void drop_oldest(tui_logring *r)
{
    tui_log_line *l = &r->lines[r->head];
    if (counts(r, l->text)) {
        r->hits--;
        r->hits_dropped++;
    }
    r->bytes -= strlen(l->text);
    free(l->text);
    l->text = NULL;
    r->head = (r->head + 1) % r->max_lines;
    r->count--;
    r->first_seq++;
    r->dropped++;
}

void tui_logring_push(tui_logring *r, const char *text, size_t n, double ts)
{
    char *clean = tui_text_sanitize(text, n);
    size_t len = strlen(clean);
    if (len > r->max_bytes) {
        len = r->max_bytes;
        while (len > 0 && ((unsigned char)clean[len] & 0xC0) == 0x80)
            len--;
        clean[len] = '\0';
    }
    while (r->count > 0 && (r->count >= r->max_lines || r->bytes + len > r->max_bytes))
        drop_oldest(r);
    tui_log_line *l = &r->lines[(r->head + r->count) % r->max_lines];
    if (counts(r, clean))
        r->hits++;
    l->text = clean;
    l->ts = ts;
    r->count++;
    r->bytes += len;
}

void tui_logring_push_text(tui_logring *r, const char *text, double ts)
{
    if (!text)
        return;
    const char *p = text;
    for (;;) {
        const char *nl = strchr(p, '\n');
        if (!nl) {
            if (*p || p == text)
                tui_logring_push(r, p, strlen(p), ts);
            return;
        }
        tui_logring_push(r, p, (size_t)(nl - p), ts);
        p = nl + 1;
        if (!*p)
            return;
    }
}

size_t tui_logring_count(const tui_logring *r)
{
    return r->count;
}

void tui_logring_set_needle(tui_logring *r, const char *needle)
{
    free(r->needle);
    r->needle = needle && *needle ? byoc_xstrdup(needle) : NULL;
    r->hits = 0;
    r->hits_dropped = 0;
    if (!r->needle)
        return;
    r->needle_ascii = lower_ascii(r->needle, r->needle_lower, sizeof r->needle_lower);
    for (size_t i = 0; i < r->count; i++)
        if (counts(r, tui_logring_get(r, i)->text))
            r->hits++;
}

const tui_log_line *tui_logring_get(const tui_logring *r, size_t i)
{
    if (i >= r->count)
        return NULL;
    return &r->lines[(r->head + i) % r->max_lines];
}

size_t tui_logring_hits_upto(const tui_logring *r, size_t last)
{
    size_t n = 0;
    for (size_t i = 0; i <= last && i < r->count; i++)
        if (counts(r, tui_logring_get(r, i)->text))
            n++;
    return n;
}

long tui_logring_find(const tui_logring *r, const char *needle, long from, int dir)
{
    if (!needle || !*needle || r->count == 0)
        return -1;
    long n = (long)r->count;
    char lowered[256];
    bool ascii = lower_ascii(needle, lowered, sizeof lowered);
    if (from < 0)
        from = dir > 0 ? -1 : n;
    for (long k = 1; k <= n; k++) {
        long i = dir > 0 ? from + k : from - k;
        i = ((i % n) + n) % n;
        if (line_has(tui_logring_get(r, (size_t)i)->text, needle, ascii ? lowered : NULL))
            return i;
    }
    return -1;
}
