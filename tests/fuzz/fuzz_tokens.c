/* fuzz_tokens: the credential detector the lint runs over every file of a
 * build context and every ENV/ARG name (byoc/tokens.h). Input: file contents;
 * also taken as a path and as a variable name. A token found lies inside the
 * text, and searching again after it makes progress. */
#include "byoc/tokens.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t at = 0;
    for (int i = 0; i < 64 && at < size; i++) {
        size_t off = 0;
        const char *what = byoc_token_find(s + at, size - at, &off);
        if (!what)
            break;
        FUZZ_ASSERT(*what != '\0');
        FUZZ_ASSERT(off < size - at);
        at += off + 1;
    }
    char *text = fuzz_cstr(data, size);
    byoc_secret_path(text);
    byoc_secret_var_name(text);
    free(text);
    return 0;
}
