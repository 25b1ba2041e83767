/* fuzz_dockerignore: .dockerignore reading and matching (docker/ignore.h,
 * docker/goregex.h) and Go's path.Clean.
 * Input: the .dockerignore text, "\n----\n", then paths to match, one a line. */
#include "docker/ignore.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static void match_paths(const byoc_ignore *m, const char *p, size_t n)
{
    static const char *const fixed[] = {"a", "a/b", "Dockerfile", ".dockerignore", "node_modules/x/y.js",
                                        "src/main.py", ".git/config", "a b/c"};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) {
        byoc_ignore_excluded(m, fixed[i]);
        byoc_ignore_dir_may_reinclude(m, fixed[i]);
    }
    FUZZ_ASSERT(!byoc_ignore_excluded(m, "."));
    const char *end = p + n;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *raw = byoc_xstrndup(p, len);
        char *clean = byoc_path_clean(raw);
        FUZZ_ASSERT(clean && *clean);
        char *again = byoc_path_clean(clean);
        FUZZ_ASSERT(strcmp(again, clean) == 0); /* Clean is idempotent */
        byoc_ignore_excluded(m, clean);
        byoc_ignore_dir_may_reinclude(m, clean);
        free(again);
        free(clean);
        free(raw);
        p += len + (nl ? 1 : 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *parts[2];
    size_t lens[2];
    size_t k = fuzz_split(data, size, parts, lens, 2);
    byoc_err err;
    byoc_err_clear(&err);
    byoc_strv patterns = BYOC_STRV_INIT;
    if (byoc_ignore_read(parts[0], lens[0], &patterns, &err) != 0) {
        FUZZ_ASSERT(err.kind != BYOC_OK);
        byoc_strv_clear(&patterns);
        return 0;
    }
    size_t n = patterns.n;
    for (size_t i = 0; i < n; i++)
        FUZZ_ASSERT(patterns.v[i] != NULL);
    FUZZ_ASSERT(n == 0 || patterns.v[n] == NULL);
    byoc_ignore *m = byoc_ignore_new((const char *const *)patterns.v, n, &err);
    if (m) {
        /* blank patterns are skipped: like buildkit's ReadAll, byoc_ignore_read keeps a
         * pattern that cleaning leaves as spaces only ("a/../\v/" gives "\v"), and the
         * matcher drops it after trimming, as docker's does. (A NUL once cut a line
         * short into such a pattern: corpus regression-nul-*.) */
        FUZZ_ASSERT(byoc_ignore_count(m) <= n);
        match_paths(m, k > 1 ? parts[1] : "", k > 1 ? lens[1] : 0);
        byoc_ignore_free(m);
    } else {
        FUZZ_ASSERT(err.kind == BYOC_E_USAGE);
    }
    byoc_strv_clear(&patterns);
    return 0;
}
