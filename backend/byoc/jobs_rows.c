#include "byoc/jobs_rows.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/str.h"

#define CHUNK_SIZE (64 * 1024)

struct byoc_job_chunk {
    byoc_job_chunk *next;
    size_t used, size;
    char data[];
};

static uint64_t hash_str(const char *s)
{
    return byoc_fnv1a(BYOC_FNV1A_SEED, s, strlen(s));
}

static const char *arena_copy(byoc_job_strings *st, const char *s)
{
    size_t n = strlen(s) + 1;
    byoc_job_chunk *c = st->chunks;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
        c = byoc_xmalloc(sizeof *c + size);
        c->size = size;
        c->used = 0;
        c->next = st->chunks;
        st->chunks = c;
    }
    char *out = c->data + c->used;
    memcpy(out, s, n);
    c->used += n;
    return out;
}

static void intern_grow(byoc_job_strings *st)
{
    size_t cap = st->interned_cap ? st->interned_cap * 2 : 64;
    const char **slots = byoc_xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < st->interned_cap; i++) {
        const char *s = st->interned[i];
        if (!s)
            continue;
        size_t j = hash_str(s) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = s;
    }
    free(st->interned);
    st->interned = slots;
    st->interned_cap = cap;
}

/* One copy per distinct value. */
static const char *intern(byoc_job_strings *st, const char *s)
{
    if (!s || !*s)
        return "";
    if ((st->interned_n + 1) * 2 > st->interned_cap)
        intern_grow(st);
    size_t j = hash_str(s) & (st->interned_cap - 1);
    for (; st->interned[j]; j = (j + 1) & (st->interned_cap - 1))
        if (strcmp(st->interned[j], s) == 0)
            return st->interned[j];
    st->interned[j] = arena_copy(st, s);
    st->interned_n++;
    return st->interned[j];
}

static const char *unique(byoc_job_strings *st, const char *s)
{
    return s && *s ? arena_copy(st, s) : "";
}

static void strings_clear(byoc_job_strings *st)
{
    while (st->chunks) {
        byoc_job_chunk *next = st->chunks->next;
        free(st->chunks);
        st->chunks = next;
    }
    free(st->interned);
    memset(st, 0, sizeof *st);
}

void byoc_job_rows_init(byoc_job_rows *r)
{
    memset(r, 0, sizeof *r);
}

void byoc_job_rows_clear(byoc_job_rows *r)
{
    free(r->items);
    strings_clear(&r->strings);
    memset(r, 0, sizeof *r);
}

byoc_job_row *byoc_job_rows_add(byoc_job_rows *r, const byoc_job_row *src)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 128;
        r->items = byoc_xrealloc(r->items, r->cap * sizeof *r->items);
    }
    byoc_job_row *row = &r->items[r->n++];
    *row = *src;
    row->arn = unique(&r->strings, src->arn);
    row->name = unique(&r->strings, src->name);
    row->status = intern(&r->strings, src->status);
    row->device = intern(&r->strings, src->device);
    row->instance = intern(&r->strings, src->instance);
    row->failure = intern(&r->strings, src->failure);
    return row;
}

void byoc_job_rows_append(byoc_job_rows *r, const byoc_job_rows *src)
{
    for (size_t i = 0; i < src->n; i++)
        byoc_job_rows_add(r, &src->items[i]);
}

void byoc_job_rows_swap(byoc_job_rows *a, byoc_job_rows *b)
{
    byoc_job_rows t = *a;
    *a = *b;
    *b = t;
}

void byoc_job_rows_move(byoc_job_rows *dst, byoc_job_rows *src)
{
    if (dst->n == 0) {
        byoc_job_rows_clear(dst);
        byoc_job_rows_swap(dst, src);
    } else {
        byoc_job_rows_append(dst, src);
        byoc_job_rows_clear(src);
    }
}

void byoc_job_known_init(byoc_job_known *k)
{
    memset(k, 0, sizeof *k);
}

void byoc_job_known_clear(byoc_job_known *k)
{
    free(k->keys);
    free(k->values);
    strings_clear(&k->strings);
    memset(k, 0, sizeof *k);
}

static size_t known_slot(const char **keys, size_t cap, const char *arn)
{
    size_t j = hash_str(arn) & (cap - 1);
    while (keys[j] && strcmp(keys[j], arn) != 0)
        j = (j + 1) & (cap - 1);
    return j;
}

const char *byoc_job_known_get(const byoc_job_known *k, const char *arn)
{
    if (!k->cap || !arn)
        return NULL;
    size_t j = known_slot(k->keys, k->cap, arn);
    return k->keys[j] ? k->values[j] : NULL;
}

void byoc_job_known_put(byoc_job_known *k, const char *arn, const char *instance)
{
    if (!arn || !*arn)
        return;
    if ((k->n + 1) * 2 > k->cap) {
        size_t cap = k->cap ? k->cap * 2 : 256;
        const char **keys = byoc_xcalloc(cap, sizeof *keys), **values = byoc_xcalloc(cap, sizeof *values);
        for (size_t i = 0; i < k->cap; i++) {
            if (!k->keys[i])
                continue;
            size_t j = known_slot(keys, cap, k->keys[i]);
            keys[j] = k->keys[i];
            values[j] = k->values[i];
        }
        free(k->keys);
        free(k->values);
        k->keys = keys;
        k->values = values;
        k->cap = cap;
    }
    size_t j = known_slot(k->keys, k->cap, arn);
    if (!k->keys[j]) {
        k->keys[j] = arena_copy(&k->strings, arn);
        k->n++;
    }
    k->values[j] = intern(&k->strings, instance ? instance : "");
}
