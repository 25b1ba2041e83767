/* fuzz_logs_json: CloudWatch Logs replies (aws/logs.h): GetLogEvents /
 * FilterLogEvents pages and DescribeLogStreams pages, as JSON from the wire.
 * Input: the reply body. */
#include <jansson.h>

#include "aws/logs.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_t *j = json_loadb((const char *)data, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    if (!j)
        return 0;
    byoc_err err;
    byoc_logs_event_page ev;
    memset(&ev, 0, sizeof ev);
    byoc_err_clear(&err);
    if (byoc_logs_event_page_from_json(j, &ev, &err) == 0) {
        for (size_t i = 0; i < ev.len; i++) {
            FUZZ_ASSERT(ev.items[i].message != NULL);
            FUZZ_ASSERT(strlen(ev.items[i].message) <= ev.items[i].message_len);
        }
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
    }
    byoc_logs_event_page_clear(&ev);
    byoc_logs_stream_page sp;
    memset(&sp, 0, sizeof sp);
    byoc_err_clear(&err);
    if (byoc_logs_stream_page_from_json(j, &sp, &err) == 0) {
        for (size_t i = 0; i < sp.len; i++)
            FUZZ_ASSERT(sp.items[i].name != NULL);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
    }
    byoc_logs_stream_page_clear(&sp);
    json_decref(j);
    return 0;
}
