/* strmap: a hash table from strings to size_t values (an index into the
 * caller's array, a kind, a count), with owned copies of the keys.
 * Keys are byte strings with a length, so a caller can look up a prefix of
 * a longer string in place, and carry a prefix's hash forward to the next
 * (byoc_fnv1a, core/str.h) instead of rehashing from the start. */
#ifndef BYOC_CORE_STRMAP_H
#define BYOC_CORE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct byoc_strmap {
    char **keys;
    size_t *klen;
    uint64_t *hash;
    size_t *val;
    size_t cap, len;
} byoc_strmap;

#define BYOC_STRMAP_INIT {0}

/* Is key[0..n), whose hash is h, in the map? Its value in *val if so. */
bool byoc_strmap_get(const byoc_strmap *m, const char *key, size_t n, uint64_t h, size_t *val);
/* Set key[0..n) (hash h) to val, adding it if absent. */
void byoc_strmap_put(byoc_strmap *m, const char *key, size_t n, uint64_t h, size_t val);

/* The same for a NUL-terminated key. */
bool byoc_strmap_get_str(const byoc_strmap *m, const char *key, size_t *val);
void byoc_strmap_put_str(byoc_strmap *m, const char *key, size_t val);

void byoc_strmap_clear(byoc_strmap *m); /* leaves it empty and usable */

#endif
