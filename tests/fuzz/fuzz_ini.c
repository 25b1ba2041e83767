/* fuzz_ini: the AWS config/credentials INI dialect (aws/ini.h).
 * Input: the file text. Every section and key found must read back. */
#include "aws/ini.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    byoc_ini ini;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_ini_parse(text, "fuzz", &ini, &err) == 0) {
        for (size_t i = 0; i < ini.len; i++) {
            const byoc_ini_section *s = &ini.sections[i];
            FUZZ_ASSERT(s->name != NULL);
            FUZZ_ASSERT(byoc_ini_section_get(&ini, s->name) != NULL);
            for (size_t k = 0; k < s->len; k++) {
                FUZZ_ASSERT(s->kv[k].key && s->kv[k].value);
                FUZZ_ASSERT(byoc_ini_get(s, s->kv[k].key) != NULL);
                free(byoc_ini_get_sub(s, s->kv[k].key, "max_attempts"));
                free(byoc_ini_get_sub(s, s->kv[k].key, "endpoint_url"));
            }
        }
        byoc_ini_clear(&ini);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
        FUZZ_ASSERT(ini.len == 0);
    }
    free(text);
    return 0;
}
