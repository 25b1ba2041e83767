/* fuzz_jobs_page: the streaming SearchJobs reader (byoc/jobs_page.h) against the jansson path it
 * replaced (json_loadb, then byoc_job_summary_json for each object in "jobs"). Input: a reply
 * body. Both accept or both refuse; when they accept, the summaries and nextToken are equal. One
 * known difference: jansson takes a NUL right after a number or literal for the token's end
 * ("[0\0]" parses); JSON allows no raw control character but tab, LF and CR (RFC 8259), and the
 * reader refuses every other one, so such an input must be refused. */
#include <jansson.h>

#include "byoc/jobref.h"
#include "byoc/jobs_page.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *want = json_array();
    const char *want_next = NULL;
    json_t *page = NULL;
    bool ok = true;
    if (size) {
        page = json_loadb((const char *)data, size, 0, NULL);
        ok = page != NULL;
        size_t i;
        json_t *j;
        json_array_foreach(json_object_get(page, "jobs"), i, j)
            if (json_is_object(j))
                json_array_append_new(want, byoc_job_summary_json(j));
        want_next = json_string_value(json_object_get(page, "nextToken"));
    }
    for (size_t i = 0; i < size; i++)
        if (data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' && data[i] != '\r')
            ok = false;
    byoc_jobs_page got;
    int rc = byoc_jobs_page_parse((const char *)data, size, (size_t)-1, &got, NULL);
    FUZZ_ASSERT((rc == 0) == ok);
    if (rc == 0) {
        FUZZ_ASSERT(json_equal(want, got.summaries));
        FUZZ_ASSERT((want_next == NULL) == (got.next_token == NULL));
        if (want_next)
            FUZZ_ASSERT(strcmp(want_next, got.next_token) == 0);
    }
    byoc_jobs_page_clear(&got);
    json_decref(page);
    json_decref(want);
    return 0;
}
