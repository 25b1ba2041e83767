#include "docker/lines.h"

#include <string.h>

void byoc_lines_init(byoc_lines *l, size_t max, byoc_line_fn fn, void *ud)
{
    memset(l, 0, sizeof *l);
    l->max = max ? max : 4096;
    l->fn = fn;
    l->ud = ud;
}

static void emit(byoc_lines *l, const char *p, size_t n)
{
    if (n > 0 && p[n - 1] == '\r')
        n--;
    l->fn(p, n, l->ud);
}

void byoc_lines_feed(byoc_lines *l, const char *p, size_t n)
{
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        size_t seg = nl ? (size_t)(nl - p) : n;
        /* Keep the pending part below the limit. */
        while (l->partial.len + seg > l->max) {
            size_t room = l->max - l->partial.len;
            byoc_buf_append(&l->partial, p, room);
            emit(l, l->partial.data, l->partial.len);
            byoc_buf_reset(&l->partial);
            p += room;
            n -= room;
            seg -= room;
        }
        if (!nl) {
            byoc_buf_append(&l->partial, p, seg);
            return;
        }
        if (l->partial.len) {
            byoc_buf_append(&l->partial, p, seg);
            emit(l, l->partial.data, l->partial.len);
            byoc_buf_reset(&l->partial);
        } else {
            emit(l, p, seg);
        }
        p += seg + 1;
        n -= seg + 1;
    }
}

void byoc_lines_flush(byoc_lines *l)
{
    if (l->partial.len) {
        emit(l, l->partial.data, l->partial.len);
        byoc_buf_reset(&l->partial);
    }
}

void byoc_lines_clear(byoc_lines *l)
{
    byoc_buf_clear(&l->partial);
}
