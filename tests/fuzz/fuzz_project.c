/* fuzz_project: byoc.json (byoc/project.h) and the job form's fields kept in
 * it (byoc/jobspec.h recall). A parsed project serialises again, and what it
 * serialises parses again. */
#include <jansson.h>

#include "byoc/jobspec.h"
#include "byoc/project.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byoc_project p;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_project_parse(&p, (const char *)data, size, &err) != 0) {
        FUZZ_ASSERT(err.kind != BYOC_OK);
        byoc_project_clear(&p);
        return 0;
    }
    FUZZ_ASSERT(p.job != NULL && p.doc != NULL);
    byoc_jobspec spec;
    byoc_jobspec_init(&spec);
    byoc_err_clear(&err);
    byoc_jobspec_recall(&spec, &p, &err);
    byoc_jobspec_clear(&spec);

    json_t *j = byoc_project_to_json(&p);
    FUZZ_ASSERT(j != NULL);
    char *text = json_dumps(j, JSON_COMPACT);
    FUZZ_ASSERT(text != NULL);
    byoc_project again;
    byoc_err_clear(&err);
    int rc = byoc_project_parse(&again, text, strlen(text), &err);
    if (rc != 0)
        fprintf(stderr, "re-parse failed: %s\n%s\n", err.message, text);
    FUZZ_ASSERT(rc == 0);
    byoc_project_clear(&again);
    free(text);
    json_decref(j);
    byoc_project_clear(&p);
    return 0;
}
