#include "core/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "byoc: out of memory (%zu bytes)\n", n);
    abort();
}

void *byoc_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *byoc_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *byoc_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

/* The capacity of an array of `used` elements grown by byoc_grow_for_one. */
static size_t grown_capacity(size_t used)
{
    size_t cap = 4;
    while (cap < used)
        cap *= 2;
    return cap;
}

void *byoc_grow_for_one(void *p, size_t used, size_t size)
{
    if (p && used < grown_capacity(used))
        return p;
    size_t cap = grown_capacity(used + 1);
    if (cap > SIZE_MAX / size)
        out_of_memory(SIZE_MAX);
    return byoc_xrealloc(p, cap * size);
}

char *byoc_xstrdup(const char *s)
{
    return byoc_xstrndup(s, strlen(s));
}

char *byoc_xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = byoc_xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *byoc_xasprintf(const char *fmt, ...)
{
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return byoc_buf_steal(&b);
}

void byoc_wipe(void *p, size_t n)
{
    if (!p)
        return;
    explicit_bzero(p, n);       /* a memset the compiler may not drop; buffers are wiped on every free */
}

void byoc_free_secret(char *s)
{
    if (!s)
        return;
    byoc_wipe(s, strlen(s));
    free(s);
}

void byoc_buf_reserve(byoc_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    /* Grow by copy so that a wiped buffer never leaves old secret bytes behind in freed memory. */
    char *p = byoc_xmalloc(cap);
    if (b->data) {
        memcpy(p, b->data, b->len + 1);
        byoc_wipe(b->data, b->cap);
        free(b->data);
    } else {
        p[0] = '\0';
    }
    b->data = p;
    b->cap = cap;
}

void byoc_buf_append(byoc_buf *b, const void *p, size_t n)
{
    byoc_buf_reserve(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void byoc_buf_puts(byoc_buf *b, const char *s)
{
    byoc_buf_append(b, s, strlen(s));
}

void byoc_buf_putc(byoc_buf *b, char c)
{
    byoc_buf_append(b, &c, 1);
}

void byoc_buf_vprintf(byoc_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    byoc_buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void byoc_buf_printf(byoc_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void byoc_buf_reset(byoc_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void byoc_buf_clear(byoc_buf *b)
{
    if (b->data) {
        byoc_wipe(b->data, b->cap);
        free(b->data);
    }
    b->data = NULL;
    b->len = b->cap = 0;
}

char *byoc_buf_steal(byoc_buf *b)
{
    char *p = b->data ? b->data : byoc_xstrdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

const char *byoc_buf_str(const byoc_buf *b)
{
    return b->data ? b->data : "";
}
