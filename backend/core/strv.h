/* strv: a growable, NULL-terminated vector of owned strings. */
#ifndef BYOC_CORE_STRV_H
#define BYOC_CORE_STRV_H

#include <stdbool.h>
#include <stddef.h>

typedef struct byoc_strv {
    char **v;      /* NULL-terminated once anything is added; NULL before */
    size_t n;
    size_t cap;
} byoc_strv;

#define BYOC_STRV_INIT {NULL, 0, 0}

void byoc_strv_push(byoc_strv *s, const char *str);       /* copies */
void byoc_strv_push_owned(byoc_strv *s, char *str);       /* takes ownership */
void byoc_strv_pushf(byoc_strv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool byoc_strv_contains(const byoc_strv *s, const char *str);
void byoc_strv_sort(byoc_strv *s);
void byoc_strv_clear(byoc_strv *s);

#endif
