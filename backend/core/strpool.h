/* strpool: a bag of owned strings, freed together. For jobs that copy the
 * caller's options before handing them to a task thread: every string (and
 * list of strings) the copy points to lives in the pool. */
#ifndef BYOC_CORE_STRPOOL_H
#define BYOC_CORE_STRPOOL_H

#include <stddef.h>

typedef struct byoc_strpool {
    char **items;
    size_t n;
} byoc_strpool;

/* A copy of s owned by the pool; NULL for NULL. */
const char *byoc_strpool_dup(byoc_strpool *p, const char *s);
/* A copy of the n strings of v (and of the array) owned by the pool; NULL when n is 0. */
const char *const *byoc_strpool_dup_list(byoc_strpool *p, const char *const *v, size_t n);
void byoc_strpool_clear(byoc_strpool *p);

#endif
