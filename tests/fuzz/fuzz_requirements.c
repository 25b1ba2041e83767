/* fuzz_requirements: requirements.txt and PEP 508 strings (byoc/requirements.h),
 * PyPI name normalisation, private-URL detection, and the git dependency
 * specs that are vendored from them (byoc/git.h: byoc_git_parse_dep).
 * Input: the requirements text. A vendored dependency's directory name must
 * be one plain path component: it is joined under the vendor directory. */
#include "byoc/git.h"
#include "byoc/requirements.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static void check_git(const char *spec)
{
    byoc_git_dep d;
    memset(&d, 0, sizeof d);
    if (byoc_git_parse_dep(spec, &d) != 0)
        return;
    FUZZ_ASSERT(d.url && *d.url);
    FUZZ_ASSERT(d.name && *d.name);
    FUZZ_ASSERT(strchr(d.name, '/') == NULL);
    FUZZ_ASSERT(strcmp(d.name, ".") != 0 && strcmp(d.name, "..") != 0);
    byoc_git_dep_clear(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byoc_requirements r;
    memset(&r, 0, sizeof r);
    byoc_requirements_parse((const char *)data, size, &r);
    FUZZ_ASSERT(byoc_requirements_count(&r) <= r.n);
    for (size_t i = 0; i < r.n; i++) {
        const byoc_requirement *q = &r.items[i];
        FUZZ_ASSERT(q->text != NULL && q->line >= 1);
        if (q->name) {
            char *again = byoc_pypi_normalize(q->name, strlen(q->name));
            FUZZ_ASSERT(again != NULL);
            free(again);
        }
        if (q->url) {
            const char *why = NULL;
            byoc_url_is_private(q->url, &why);
            check_git(q->url);
        }
        check_git(q->text);
    }
    char *text = fuzz_cstr(data, size);
    byoc_requirements_add_pep508(&r, text, 1);
    char *norm = byoc_pypi_normalize(text, size);
    free(norm);
    free(text);
    byoc_requirements_clear(&r);
    return 0;
}
