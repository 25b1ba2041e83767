/* str: the small string chores every layer has: an optional copy, replacing an owned string
 * field, a byte count for people, and the one string hash (FNV-1a). One of each, so that a size reads the same in the TUI,
 * the CLI and the backend's messages. */
#ifndef BYOC_CORE_STR_H
#define BYOC_CORE_STR_H

#include <stddef.h>
#include <stdint.h>

/* A copy of s (malloc'd, aborts when memory runs out), or NULL when s is NULL. */
char *byoc_xstrdup_opt(const char *s);

/* Free *field and set it to a copy of value (NULL when value is NULL). */
void byoc_str_set(char **field, const char *value);

/* "512 B", "1.5 KiB", "2.0 MiB" ... "EiB" (binary units, one decimal, never "1024.0 KiB");
 * "-" when n < 0 (not known). Returns buf. */
char *byoc_fmt_bytes(int64_t n, char *buf, size_t size);

/* FNV-1a (64 bits) of p[0..n), continued from h: start from BYOC_FNV1A_SEED, carry the result
 * forward to hash a longer string without going back to its start. Not for secrets' sake: it
 * is a table and change hash, not a cryptographic one. */
#define BYOC_FNV1A_SEED 14695981039346656037ULL
uint64_t byoc_fnv1a(uint64_t h, const void *p, size_t n);

#endif
