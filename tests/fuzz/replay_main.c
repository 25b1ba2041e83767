/* replay_main: runs a fuzz target without libFuzzer, so every build (gcc
 * included, with or without sanitizers, under valgrind) exercises it.
 *
 *   replay_<name> PATH...    each PATH a file or a directory of files
 *
 * Every file is run as is, then as deterministic variants: prefixes cut at up
 * to 16 points (truncated input is the commonest hostile case) and
 * BYOC_FUZZ_REPLAY_VARIANTS (default 24) copies with 1-4 bytes changed by a
 * generator seeded from the file's contents, so a run is reproducible.
 * Prints "N inputs from M files" and exits 0; a crash or a failed
 * FUZZ_ASSERT aborts, naming the file and variant on stderr first. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static unsigned long long inputs, files;

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void run_one(const char *path, const char *variant, const uint8_t *data, size_t n)
{
    /* A fresh heap copy of exactly n bytes: ASan/valgrind then catch reads past the end. */
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy)
        abort();
    if (n)
        memcpy(copy, data, n);
    if (getenv("BYOC_FUZZ_REPLAY_VERBOSE"))
        fprintf(stderr, "replay %s [%s] %zu bytes\n", path, variant, n);
    LLVMFuzzerTestOneInput(copy, n);
    free(copy);
    inputs++;
}

static void replay_bytes(const char *path, const uint8_t *data, size_t n)
{
    char variant[64];
    files++;
    run_one(path, "as is", data, n);
    size_t cuts = n < 16 ? n : 16;
    for (size_t i = 0; i < cuts; i++) {
        size_t len = n * i / (cuts ? cuts : 1);
        snprintf(variant, sizeof variant, "prefix %zu", len);
        run_one(path, variant, data, len);
    }
    if (!n)
        return;
    const char *e = getenv("BYOC_FUZZ_REPLAY_VARIANTS");
    long variants = e ? strtol(e, NULL, 10) : 24;
    uint64_t seed = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        seed = (seed ^ data[i]) * 1099511628211ULL;
    if (!seed)
        seed = 1;
    uint8_t *m = malloc(n);
    if (!m)
        abort();
    static const uint8_t interesting[] = {0, 0xff, 0x7f, 0x80, '\n', '"', '\\', '/', '.', '[', '{', '$'};
    for (long v = 0; v < variants; v++) {
        memcpy(m, data, n);
        int changes = 1 + (int)(next_rand(&seed) % 4);
        for (int c = 0; c < changes; c++) {
            size_t at = (size_t)(next_rand(&seed) % n);
            uint64_t r = next_rand(&seed);
            m[at] = (r & 1) ? interesting[(r >> 1) % sizeof interesting] : (uint8_t)(r >> 8);
        }
        snprintf(variant, sizeof variant, "variant %ld", v);
        run_one(path, variant, m, n);
    }
    free(m);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    byoc_buf b = BYOC_BUF_INIT;
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        byoc_buf_append(&b, chunk, got);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        perror(path);
        byoc_buf_clear(&b);
        return -1;
    }
    replay_bytes(path, (const uint8_t *)b.data, b.len);
    byoc_buf_clear(&b);
    return 0;
}

static int skip_hidden(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

static int replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    struct dirent **names;
    int n = scandir(path, &names, skip_hidden, alphasort);
    if (n < 0) {
        perror(path);
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char *child = byoc_xasprintf("%s/%s", path, names[i]->d_name);
        if (replay_path(child) != 0)
            rc = -1;
        free(child);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE-OR-DIR...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (replay_path(argv[i]) != 0)
            rc = 1;
    if (files == 0) {
        fprintf(stderr, "%s: no seed files found\n", argv[0]);
        rc = 1;
    }
    printf("%llu inputs from %llu files\n", inputs, files);
    return rc;
}
