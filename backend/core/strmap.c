#include "core/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/str.h"

/* The slot of key[0..n) (an empty one when absent); cap is a power of two. */
static size_t slot(const byoc_strmap *m, const char *key, size_t n, uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    while (m->keys[i] && !(m->hash[i] == h && m->klen[i] == n && memcmp(m->keys[i], key, n) == 0))
        i = (i + 1) & (m->cap - 1);
    return i;
}

bool byoc_strmap_get(const byoc_strmap *m, const char *key, size_t n, uint64_t h, size_t *val)
{
    if (!m->cap)
        return false;
    size_t i = slot(m, key, n, h);
    if (!m->keys[i])
        return false;
    if (val)
        *val = m->val[i];
    return true;
}

static void grow(byoc_strmap *m)
{
    byoc_strmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->keys = byoc_xcalloc(m->cap, sizeof *m->keys);
    m->klen = byoc_xcalloc(m->cap, sizeof *m->klen);
    m->hash = byoc_xcalloc(m->cap, sizeof *m->hash);
    m->val = byoc_xcalloc(m->cap, sizeof *m->val);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) {
            size_t j = slot(m, old.keys[i], old.klen[i], old.hash[i]);
            m->keys[j] = old.keys[i];
            m->klen[j] = old.klen[i];
            m->hash[j] = old.hash[i];
            m->val[j] = old.val[i];
        }
    free(old.keys);
    free(old.klen);
    free(old.hash);
    free(old.val);
}

void byoc_strmap_put(byoc_strmap *m, const char *key, size_t n, uint64_t h, size_t val)
{
    if ((m->len + 1) * 2 > m->cap)
        grow(m);
    size_t i = slot(m, key, n, h);
    if (!m->keys[i]) {
        m->keys[i] = byoc_xstrndup(key, n);
        m->klen[i] = n;
        m->hash[i] = h;
        m->len++;
    }
    m->val[i] = val;
}

bool byoc_strmap_get_str(const byoc_strmap *m, const char *key, size_t *val)
{
    size_t n = strlen(key);
    return byoc_strmap_get(m, key, n, byoc_fnv1a(BYOC_FNV1A_SEED, key, n), val);
}

void byoc_strmap_put_str(byoc_strmap *m, const char *key, size_t val)
{
    size_t n = strlen(key);
    byoc_strmap_put(m, key, n, byoc_fnv1a(BYOC_FNV1A_SEED, key, n), val);
}

void byoc_strmap_clear(byoc_strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->klen);
    free(m->hash);
    free(m->val);
    memset(m, 0, sizeof *m);
}
