/* fuzz.h: what every fuzz target shares.
 *
 * A target is one file tests/fuzz/fuzz_<name>.c defining
 * LLVMFuzzerTestOneInput() (and optionally LLVMFuzzerInitialize()); its seeds
 * live in tests/fuzz/corpus/<name>/. The same file builds twice: with clang's
 * libFuzzer (BYOC_FUZZ=ON) and, in every build, with replay_main.c, a driver
 * that replays the seeds and deterministic variants of them.
 *
 * A target asserts the parser's own promises with FUZZ_ASSERT (not just "no
 * crash"): a failed assertion aborts, which both drivers report as a crash. */
#ifndef BYOC_FUZZ_H
#define BYOC_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_ASSERT(c)                                                                         \
    do {                                                                                       \
        if (!(c)) {                                                                            \
            fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", __FILE__, __LINE__, #c);     \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* s holds no control character: no C0, DEL, or C1 in its UTF-8 form (what the printable pass,
 * core/utf8.h, promises for text shown on a terminal). */
static inline void fuzz_assert_printable(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        FUZZ_ASSERT(*p >= 0x20 && *p != 0x7F);
        FUZZ_ASSERT(!(p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0));
    }
}

#ifdef JANSSON_H
/* Every string and key of v (a printable copy) passes fuzz_assert_printable. */
static inline void fuzz_assert_printable_json(const json_t *v)
{
    if (json_is_string(v))
        fuzz_assert_printable(json_string_value(v));
    size_t i;
    json_t *e;
    const char *key;
    if (json_is_array(v))
        json_array_foreach(v, i, e) fuzz_assert_printable_json(e);
    if (json_is_object(v))
        json_object_foreach((json_t *)v, key, e)
        {
            fuzz_assert_printable(key);
            fuzz_assert_printable_json(e);
        }
}
#endif

/* Logging off: a parser's warnings are not findings and would drown the fuzzer's output. */
static inline void fuzz_quiet(void)
{
    byoc_log_init(NULL, -1, -1);
}

/* A fresh scratch directory for targets that touch files: in memory
 * (/dev/shm) when possible, since a fuzzer writes files millions of times.
 * $BYOC_FUZZ_TMPDIR overrides. Writes the path into buf (>= 64 bytes). */
static inline void fuzz_scratch_dir(char *buf, size_t size, const char *name)
{
    const char *root = getenv("BYOC_FUZZ_TMPDIR");
    if (!root || !*root)
        root = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    snprintf(buf, size, "%s/byoc-fuzz-%s-XXXXXX", root, name);
    if (!mkdtemp(buf)) {
        perror(buf);
        abort();
    }
}

/* A NUL-terminated copy of the input (caller frees). */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
    char *s = byoc_xmalloc(size + 1);
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* Consume the input piece by piece: a few bytes steer the target (options,
 * chunk sizes), the rest is the text under test. */
typedef struct fuzz_in {
    const uint8_t *p;
    size_t n;
} fuzz_in;

static inline unsigned fuzz_byte(fuzz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

/* The next NUL-terminated string (or the rest); caller frees. */
static inline char *fuzz_str(fuzz_in *in)
{
    const uint8_t *z = memchr(in->p, 0, in->n);
    size_t len = z ? (size_t)(z - in->p) : in->n;
    char *s = fuzz_cstr(in->p, len);
    in->p += len + (z ? 1 : 0);
    in->n -= len + (z ? 1 : 0);
    return s;
}

/* Split the input on a separator line "\n----\n" into at most max parts
 * (pointers into the input; lengths in lens). Returns the count. */
static inline size_t fuzz_split(const uint8_t *data, size_t size, const char **parts, size_t *lens, size_t max)
{
    static const char sep[] = "\n----\n";
    size_t k = 0;
    const char *p = (const char *)data, *end = p + size;
    while (k + 1 < max) {
        const char *hit = NULL;
        for (const char *q = p; q + sizeof sep - 1 <= end; q++)
            if (memcmp(q, sep, sizeof sep - 1) == 0) {
                hit = q;
                break;
            }
        if (!hit)
            break;
        parts[k] = p;
        lens[k++] = (size_t)(hit - p);
        p = hit + sizeof sep - 1;
    }
    parts[k] = p;
    lens[k++] = (size_t)(end - p);
    return k;
}

#endif
