#include "core/strpool.h"
#include "core/buf.h"

#include <stdlib.h>

static void own(byoc_strpool *p, void *item)
{
    p->items = byoc_xrealloc(p->items, (p->n + 1) * sizeof *p->items);
    p->items[p->n++] = item;
}

const char *byoc_strpool_dup(byoc_strpool *p, const char *s)
{
    if (!s)
        return NULL;
    char *copy = byoc_xstrdup(s);
    own(p, copy);
    return copy;
}

const char *const *byoc_strpool_dup_list(byoc_strpool *p, const char *const *v, size_t n)
{
    if (!n)
        return NULL;
    const char **copy = byoc_xcalloc(n, sizeof *copy);
    for (size_t i = 0; i < n; i++)
        copy[i] = byoc_strpool_dup(p, v[i]);
    own(p, (void *)copy);
    return copy;
}

void byoc_strpool_clear(byoc_strpool *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->items[i]);
    free(p->items);
    p->items = NULL;
    p->n = 0;
}
