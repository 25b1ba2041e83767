/* fuzz_goregex: Go (RE2) regexps translated to POSIX EREs (docker/goregex.h),
 * the engine behind .dockerignore parity.
 * Input: the regexp, then a NUL byte, then subject strings separated by NUL. */
#include "docker/goregex.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512) /* the regexps .dockerignore makes are short; glibc regcomp is not linear */
        return 0;
    fuzz_in in = {data, size};
    char *re_text = fuzz_str(&in);
    char why[256] = "";
    byoc_goregex *re = byoc_goregex_compile(re_text, why, sizeof why);
    if (re) {
        FUZZ_ASSERT(byoc_goregex_ere(re) != NULL);
        for (int i = 0; i < 8 && in.n > 0; i++) {
            char *s = fuzz_str(&in);
            byoc_goregex_match(re, s);
            free(s);
        }
        byoc_goregex_match(re, "");
        byoc_goregex_match(re, "a/b/c");
        byoc_goregex_free(re);
    } else {
        FUZZ_ASSERT(why[0] != '\0');
    }
    free(re_text);
    return 0;
}
