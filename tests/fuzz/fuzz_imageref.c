/* fuzz_imageref: image references (docker/reference.h): -t values, FROM
 * lines, --image-uri. A parsed reference has its parts; a valid tag passes
 * the tag grammar on its own. */
#include "docker/reference.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    byoc_imageref r;
    memset(&r, 0, sizeof r);
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_imageref_parse(s, "-t", &r, &err) == 0) {
        FUZZ_ASSERT(r.repository && r.domain && r.path);
        if (r.tag)
            FUZZ_ASSERT(byoc_imageref_valid_tag(r.tag));
        byoc_imageref_clear(&r);
    } else {
        FUZZ_ASSERT(err.kind == BYOC_E_USAGE);
    }
    byoc_err_clear(&err);
    byoc_imageref_check_tag(s, "-t", &err);
    byoc_imageref_valid_tag(s);
    free(s);
    return 0;
}
