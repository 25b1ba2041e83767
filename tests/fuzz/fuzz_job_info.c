/* fuzz_job_info: a GetJob reply (byoc/jobref.h) as the status view and
 * `byoc status` read it, and a SearchJobs summary as `byoc jobs` shows it.
 * Input: the reply body. Fixed-size fields stay NUL-terminated. */
#include <jansson.h>

#include "byoc/jobref.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

#define TERMINATED(f) FUZZ_ASSERT(memchr((f), 0, sizeof(f)) != NULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
    if (!j)
        return 0;
    byoc_job_info info, copy;
    memset(&info, 0, sizeof info);
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_job_info_from_json(j, &info, &err) == 0) {
        TERMINATED(info.arn);
        TERMINATED(info.name);
        TERMINATED(info.status);
        TERMINATED(info.device);
        TERMINATED(info.failure_reason);
        TERMINATED(info.created);
        TERMINATED(info.output_s3_path);
        TERMINATED(info.queue_position);
        TERMINATED(info.queue_message);
        FUZZ_ASSERT(json_is_array(info.events));
        byoc_job_info_copy(&copy, &info);
        FUZZ_ASSERT(!byoc_job_info_changed(&info, &copy));
        json_t *status = byoc_job_status_json(&info, NULL);
        FUZZ_ASSERT(status != NULL);
        json_decref(status);
        byoc_job_info_free(&copy);
        byoc_job_info_free(&info);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
    }
    json_t *summary = byoc_job_summary_json(j);
    json_decref(summary);
    json_decref(j);
    return 0;
}
