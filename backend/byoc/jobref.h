/* jobref: finding Braket Hybrid Jobs and reading what the service says
 * about them, for the Monitor step (the job list, `status`, `logs`,
 * `cancel`, `results`).
 *
 * A JOB argument is a job ARN (arn:aws...:braket:<region>:<account>:job/...,
 * used as is, without a call) or a job name, resolved with SearchJobs filter
 * {"name": "jobName", "operator": "EQUAL"} and an exact check of every match.
 * The API model documents only the jobArn and createdAt filters, so when the
 * service refuses the jobName filter the most recent jobs (up to 2000) are
 * scanned instead. No match, or more than one, is an error that says what
 * to pass instead.
 *
 * byoc_job_info is GetJob's reply in plain fields for screens and verbs. */
#ifndef BYOC_BYOC_JOBREF_H
#define BYOC_BYOC_JOBREF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_JOB_NAME_MAX 50
#define BYOC_JOBREF_SCAN_MAX 2000

/* ref -> job ARN (malloc'd). Errors: neither form (BYOC_E_USAGE, what "JOB"),
 * no such job or several (BYOC_E_FAILED, what "JOB"), service errors. */
int byoc_jobref_resolve(byoc_aws_client *c, byoc_task *t, const char *ref, char **arn, byoc_err *err);

/* The region to work on ref in (malloc'd): region (--region) when given, else an ARN's own;
 * NULL: the profile's. */
char *byoc_jobref_region(const char *region, const char *ref);

/* A client for working on ref: in the ARN's region unless region (--region)
 * is given, then ref resolved. Both outputs are the caller's. */
int byoc_jobref_open(const char *profile, const char *region, const char *ref, byoc_task *t, byoc_aws_client **c,
                     char **arn, byoc_err *err);

/* ---- the job list ---------------------------------------------------------------- */

typedef struct byoc_job_query {
    const char *const *statuses; /* QUEUED RUNNING COMPLETED FAILED CANCELLING CANCELLED; none: all */
    size_t n_statuses;
    size_t max;                  /* 0: 100 */
} byoc_job_query;

/* True for one of the six job states. */
bool byoc_job_status_valid(const char *s);

/* Newest first, up to q->max, following nextToken. With statuses, the filter
 * goes to the service ({"name": "status", "operator": "EQUAL"}); if the
 * service refuses it, byoc filters the pages itself. *jobs = a JSON array of
 * {"job_arn", "job_name", "status", "created", "device"} (what `byoc jobs --json` prints). */
int byoc_jobs_list(byoc_aws_client *c, byoc_task *t, const byoc_job_query *q, json_t **jobs, byoc_err *err);

/* The same listing a page at a time, as the pages arrive: on_page gets the
 * page's summaries that pass (a JSON array, borrowed for the call; never
 * empty). A non-zero return from on_page stops the listing with that code
 * (err set by on_page). Memory holds one page whatever the listing's size. */
typedef int (*byoc_jobs_page_fn)(const json_t *summaries, void *ud, byoc_err *err);
int byoc_jobs_each_page(byoc_aws_client *c, byoc_task *t, const byoc_job_query *q, byoc_jobs_page_fn on_page,
                        void *ud, byoc_err *err);

/* One SearchJobs summary in the shape `byoc jobs --json` prints. */
json_t *byoc_job_summary_json(const json_t *summary);

/* ---- one job ------------------------------------------------------------------------ */

typedef struct byoc_job_info {
    char arn[512];
    char name[BYOC_JOB_NAME_MAX + 14];
    char status[16];
    char device[260];
    char failure_reason[1025];
    char created[40], started[40], ended[40]; /* ISO 8601 as the service gave them, "" when absent */
    int instance_count;          /* 1 when absent */
    char output_s3_path[1025];
    long long billable_duration; /* -1 when absent */
    bool has_queue;
    char queue_name[32];
    char queue_position[16];     /* "3", ">15"; "" when none (the SDK drops "None") */
    char queue_message[256];
    json_t *events;              /* array of {eventType, timeOfEvent, message}, owned; never NULL once filled */
} byoc_job_info;

/* Fill from a GetJob reply. -1 if it lacks status, jobArn or jobName. */
int byoc_job_info_from_json(const json_t *get_job, byoc_job_info *out, byoc_err *err);
void byoc_job_info_clear(byoc_job_info *j);
/* A copy of src for lines and messages: every text field and event passed
 * through the printable pass (core/utf8.h). Never for calls: the name and
 * ARN are the service's keys as it gave them. Free with byoc_job_info_clear. */
void byoc_job_info_printable(byoc_job_info *dst, const byoc_job_info *src);
/* Status, event count, queue position or failure reason differ. */
bool byoc_job_info_changed(const byoc_job_info *before, const byoc_job_info *after);

/* GetJob (with QueueInfo) into info. */
int byoc_job_get(byoc_aws_client *c, byoc_task *t, const char *arn, byoc_job_info *info, byoc_err *err);

/* {"job_arn", "job_name", "status", "events": [{"type", "time", "message"?}], "failure_reason" (null when
 * none), "metrics": <metrics or {}>, "created", "started"?, "ended"?, "device", "instance_count",
 * "queue"? {"name", "position", "message"?}, "billable_duration"?}. metrics is taken (may be NULL). */
json_t *byoc_job_status_json(const byoc_job_info *j, json_t *metrics);

/* CancelJob with a clear answer for a job that already ended: BYOC_E_FAILED
 * "job X already ended (COMPLETED): nothing to cancel". *status gets
 * CANCELLING or CANCELLED (>= 32 bytes). */
int byoc_job_cancel(byoc_aws_client *c, byoc_task *t, const char *arn, char *status, byoc_err *err);

#endif
