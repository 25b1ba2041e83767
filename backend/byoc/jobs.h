/* jobs: the Monitor step's work on jobs, AWS and local alike, as core/task.h
 * tasks (the Monitor screen starts them; a verb may run them with
 * byoc_task_run_sync).
 *
 *   list     every page of SearchJobs (newest first) plus the local jobs
 *            record (localjobs.h, parsed again only when the file changed),
 *            as compact rows (jobs_rows.h) handed over page by page through
 *            a byoc_jobs_lister: PROGRESS "rows" (current: rows listed so
 *            far) after each page, DONE (no result) at the end. GetJob (for
 *            the instance type) only for jobs not described before, at most
 *            BYOC_JOBS_DESCRIBE_PER_LIST per listing, newest first. Without
 *            a client the local jobs are still listed, then the task fails
 *            with args->client_err.
 *   watch    one job: the full GetJob once, then byoc_job_watch_run (poller.h)
 *            with the CloudWatch log tail and the metrics store; for a local
 *            job, its record and log.txt. Typed DATA events (byoc_jobs_data):
 *            the described job once, the job's state whenever it changed, log
 *            records; DONE when the job ended and its log was read.
 *   cancel   CancelJob, or for a local job byoc_local_job_cancel_ref (the byoc
 *            process running it stops it; a stale one's container is removed
 *            here); DONE result: the new status (char *).
 *   results  GetJob, then the results download (results.h); PROGRESS of the
 *            download; DONE result: a byoc_unpacked * (results.h).
 *
 * Every task holds its own reference to the client it was given (released
 * with the args), so the caller may drop its own at once. The metrics store
 * is shared between a watch task and its screen through a reference-counted
 * holder, so either may go first. */
#ifndef BYOC_BYOC_JOBS_H
#define BYOC_BYOC_JOBS_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "aws/client.h"
#include "byoc/jobs_rows.h"
#include "byoc/metrics.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_JOBS_DESCRIBE_PER_LIST 25

/* What a watch task's BYOC_EV_DATA event carries (the event's `current`); its
 * text already went through the printable pass, but a log record's. */
typedef enum byoc_jobs_data {
    BYOC_JOBS_DESCRIBED = 1, /* json_t *: the GetJob reply (AWS jobs only, once) */
    BYOC_JOBS_STATUS,        /* json_t *: the job's state as `byoc status --json` gives it, without
                                metrics (byoc_job_status_json, byoc_local_job_status_json) */
    BYOC_JOBS_LOG,           /* byoc_jobs_log *: lines of the job's log */
} byoc_jobs_data;

/* One or more consecutive log lines that share their time and source. The text is the
 * job's own output, redacted but otherwise as it came (a printer makes it printable). */
typedef struct byoc_jobs_log {
    long long ms;                 /* the lines' time, epoch ms; 0 when unknown (a local job's log.txt) */
    char *source;                 /* the instance ("algo-1"); "" when none */
    char *text;                   /* the lines, separated by '\n' */
    size_t len;
} byoc_jobs_log;

typedef struct byoc_jobs_shared {
    atomic_int refs;
    atomic_int poke;              /* set to poll now */
    byoc_metrics *metrics;
} byoc_jobs_shared;

byoc_jobs_shared *byoc_jobs_shared_new(void);
byoc_jobs_shared *byoc_jobs_shared_ref(byoc_jobs_shared *s);
void byoc_jobs_shared_unref(byoc_jobs_shared *s);

/* Shared by a screen and its list tasks (one listing at a time). */
typedef struct byoc_jobs_lister byoc_jobs_lister;
byoc_jobs_lister *byoc_jobs_lister_new(void);
byoc_jobs_lister *byoc_jobs_lister_ref(byoc_jobs_lister *l);
void byoc_jobs_lister_unref(byoc_jobs_lister *l);
/* The consumer's thread: move the rows handed over since the last call to the end of dst;
 * returns how many. */
size_t byoc_jobs_lister_take(byoc_jobs_lister *l, byoc_job_rows *dst);

typedef struct byoc_jobs_args {
    byoc_aws_client *client;      /* a reference of the task's own; NULL: none (local jobs only) */
    byoc_err client_err;          /* list: why there is no client */
    char *job;                    /* a job ARN or name (AWS) or local:job/<name> */
    byoc_jobs_lister *lister;     /* list: a reference (released with the args) */
    byoc_jobs_shared *shared;     /* watch: a reference (released with the args) */
    char *dest;                   /* results: the directory to unpack into */
} byoc_jobs_args;

/* c (may be NULL) gets a reference of the args' own. */
byoc_jobs_args *byoc_jobs_args_new(byoc_aws_client *c, const char *job);
void byoc_jobs_args_free(void *args);

/* For the tasks of the module: args->job resolved to an ARN (malloc'd) with args->client; what
 * names the task in the error when there is no client. */
int byoc_jobs_resolve(const byoc_jobs_args *a, byoc_task *t, const char *what, char **arn, byoc_err *err);

int byoc_jobs_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
