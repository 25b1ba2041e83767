#include "core/strv.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

void byoc_strv_push_owned(byoc_strv *s, char *str)
{
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->v = byoc_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = str;
    s->v[s->n] = NULL;
}

void byoc_strv_push(byoc_strv *s, const char *str)
{
    byoc_strv_push_owned(s, byoc_xstrdup(str));
}

void byoc_strv_pushf(byoc_strv *s, const char *fmt, ...)
{
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_strv_push_owned(s, byoc_buf_steal(&b));
}

bool byoc_strv_contains(const byoc_strv *s, const char *str)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], str) == 0)
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void byoc_strv_sort(byoc_strv *s)
{
    if (s->n > 1)
        qsort(s->v, s->n, sizeof *s->v, cmp_str);
}

void byoc_strv_clear(byoc_strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}
