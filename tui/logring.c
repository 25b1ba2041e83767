#include "logview.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "text.h"

void tui_logring_init(tui_logring *r, size_t max_lines, size_t max_bytes)
{
    memset(r, 0, sizeof *r);
    r->max_lines = max_lines ? max_lines : 1;
    r->max_bytes = max_bytes ? max_bytes : 1;
    r->lines = byoc_xcalloc(r->max_lines, sizeof *r->lines);
}

void tui_logring_free(tui_logring *r)
{
    for (size_t i = 0; i < r->count; i++)
        free(r->lines[(r->head + i) % r->max_lines].text);
    free(r->lines);
    memset(r, 0, sizeof *r);
}

static void drop_oldest(tui_logring *r)
{
    tui_log_line *l = &r->lines[r->head];
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

const tui_log_line *tui_logring_get(const tui_logring *r, size_t i)
{
    if (i >= r->count)
        return NULL;
    return &r->lines[(r->head + i) % r->max_lines];
}

long tui_logring_find(const tui_logring *r, const char *needle, long from, int dir)
{
    if (!needle || !*needle || r->count == 0)
        return -1;
    long n = (long)r->count;
    if (from < 0)
        from = dir > 0 ? -1 : n;
    for (long k = 1; k <= n; k++) {
        long i = dir > 0 ? from + k : from - k;
        i = ((i % n) + n) % n;
        if (tui_text_casestr(tui_logring_get(r, (size_t)i)->text, needle))
            return i;
    }
    return -1;
}
