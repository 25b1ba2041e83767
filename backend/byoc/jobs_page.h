/* jobs_page: a SearchJobs reply read as a stream (yajl) straight into the summaries `byoc jobs`
 * prints, instead of building the whole reply as a jansson document first.
 *
 * Listing many jobs spends its CPU parsing replies: profiled at 3,000 jobs, jansson's loader took
 * 55k of the 77k instructions byoc spent per job (bench/README.md, jobs.sh). This reads only what
 * a summary needs and skips the rest without building it.
 *
 * It accepts and refuses what json_loadb (no flags) does for this reply, so the answer does not
 * depend on which parser read it: invalid JSON or UTF-8, a "\u0000" in a string, trailing data,
 * a scalar at the top, nesting deeper than jansson's 2048, all refused ("not JSON"); a repeated
 * key: the last one counts. */
#ifndef BYOC_BYOC_JOBS_PAGE_H
#define BYOC_BYOC_JOBS_PAGE_H

#include <jansson.h>
#include <stddef.h>

#include "core/err.h"

typedef struct byoc_jobs_page {
    json_t *summaries; /* {"job_arn", "job_name", "status", "created", "device"}, in the reply's order;
                          a member that is missing or not a string is null; a "jobs" entry that is
                          not an object is skipped */
    size_t seen;       /* the "jobs" entries that were objects, kept or not */
    char *next_token;  /* NULL when the reply has none (or not a string) */
} byoc_jobs_page;

/* Parse the reply body (len 0: an empty page). Keeps at most `max` summaries (the rest are read
 * and checked, not kept). 0, or -1 with err set (BYOC_E_FAILED, "braket": "SearchJobs: the reply
 * is not JSON (why)"); *out is cleared first and holds nothing on failure. */
int byoc_jobs_page_parse(const char *data, size_t len, size_t max, byoc_jobs_page *out, byoc_err *err);
void byoc_jobs_page_clear(byoc_jobs_page *p);

#endif
