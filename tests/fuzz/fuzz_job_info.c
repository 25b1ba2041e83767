/* fuzz_job_info: a GetJob reply (byoc/jobref.h) as the status view and
 * `byoc status` read it, and a SearchJobs summary (or a page's entries) as
 * `byoc jobs` shows it. Input: the reply body. Fixed-size fields stay
 * NUL-terminated; what plain output prints (the printable copies) holds no
 * control character, whatever fields are missing or of the wrong type. */
#include <jansson.h>

#include "byoc/jobref.h"
#include "core/jsonprint.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

#define TERMINATED(f) FUZZ_ASSERT(memchr((f), 0, sizeof(f)) != NULL)

static void check_shown(const json_t *doc)
{
    json_t *shown = byoc_json_printable_copy(doc);
    fuzz_assert_printable_json(shown);
    const char *keys[] = {"job_name", "status", "created", "device", "job_arn"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        fuzz_assert_printable(byoc_json_text(json_object_get(shown, keys[i]), "-"));
    json_decref(shown);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY, NULL);
    if (!j)
        return 0;
    byoc_job_info info;
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
        FUZZ_ASSERT(!byoc_job_info_changed(&info, &info));
        json_t *status = byoc_job_status_json(&info, NULL);
        FUZZ_ASSERT(status != NULL);
        check_shown(status);
        json_decref(status);
        byoc_job_info shown;
        byoc_job_info_printable(&shown, &info);
        fuzz_assert_printable(shown.name);
        fuzz_assert_printable(shown.status);
        fuzz_assert_printable(shown.queue_position);
        fuzz_assert_printable(shown.device);
        fuzz_assert_printable_json(shown.events);
        byoc_job_info_clear(&shown);
        byoc_job_info_clear(&info);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
    }
    json_t *summary = byoc_job_summary_json(j);
    check_shown(summary);
    json_decref(summary);
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(j, "jobs"), i, entry)
    {
        json_t *s = byoc_job_summary_json(entry); /* SearchJobs page entries of any type */
        check_shown(s);
        json_decref(s);
    }
    json_decref(j);
    return 0;
}
