/* buf: a growable byte buffer, always NUL-terminated so it doubles as a string.
 * Allocation failure aborts (byoc_xmalloc): byoc cannot do anything useful
 * without memory, and checking every append would bury the logic. */
#ifndef BYOC_CORE_BUF_H
#define BYOC_CORE_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct byoc_buf {
    char *data;   /* NULL until the first append; then NUL-terminated */
    size_t len;
    size_t cap;
} byoc_buf;

#define BYOC_BUF_INIT {NULL, 0, 0}

void byoc_buf_reserve(byoc_buf *b, size_t extra);
void byoc_buf_append(byoc_buf *b, const void *p, size_t n);
void byoc_buf_puts(byoc_buf *b, const char *s);
void byoc_buf_putc(byoc_buf *b, char c);
void byoc_buf_printf(byoc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void byoc_buf_vprintf(byoc_buf *b, const char *fmt, va_list ap);
void byoc_buf_reset(byoc_buf *b);        /* len = 0, keeps the memory */
void byoc_buf_clear(byoc_buf *b);         /* releases; wipes first (may hold secrets) */
char *byoc_buf_steal(byoc_buf *b);       /* returns data (never NULL), leaves b empty */
const char *byoc_buf_str(const byoc_buf *b); /* data or "" */

void *byoc_xmalloc(size_t n);
void *byoc_xcalloc(size_t n, size_t size);
void *byoc_xrealloc(void *p, size_t n);
/* p, an array of `used` elements of `size` bytes that grows one at a time
 * through this call only, with room for one more. Capacity doubles (and is
 * implied by `used`), so n appends cost O(n) where growing by one each time
 * copies O(n^2) bytes: minutes, under ASan, for a Dockerfile of 100,000 lines. */
void *byoc_grow_for_one(void *p, size_t used, size_t size);
char *byoc_xstrdup(const char *s);
char *byoc_xstrndup(const char *s, size_t n);
char *byoc_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Overwrite memory that held a secret in a way the compiler cannot elide. */
void byoc_wipe(void *p, size_t n);
/* byoc_wipe + free for a NUL-terminated secret string; NULL is fine. */
void byoc_free_secret(char *s);

#endif
