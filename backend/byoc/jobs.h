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
 *   results  GetJob, then, once the job ended, the results download
 *            (results.h); PROGRESS of the download; for a local job, the files
 *            of its output directory; DONE result: a byoc_unpacked *
 *            (results.h).
 *
 * Every task holds its own reference to the client it was given (released
 * with the args), so the caller may drop its own at once. The metrics store
 * is shared between a watch task and its screen through a reference-counted
 * holder, so either may go first.
 *
 * The plain calls at the end are what the verbs (`byoc jobs`, `status`,
 * `logs`, `cancel`, `results`) ask, for AWS and local jobs alike; the cancel
 * and results tasks run the same calls. */
#ifndef BYOC_BYOC_JOBS_H
#define BYOC_BYOC_JOBS_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "aws/client.h"
#include "aws/clients.h"
#include "byoc/jobref.h"
#include "byoc/jobs_rows.h"
#include "byoc/localjobs.h"
#include "byoc/logtail.h"
#include "byoc/metrics.h"
#include "core/err.h"
#include "core/task.h"
#include "docker/engines.h"

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
    byoc_aws_client *client;      /* a reference of the task's own; NULL: none (local jobs only), or
                                     not taken yet from clients */
    byoc_aws_clients *clients;    /* with no client, the task takes one from here, on its own thread,
                                     for profile and region (an app's pool, which must outlive it) */
    char *profile, *region;       /* that client's; NULL: as configured */
    byoc_engines *engines;        /* cancelling a local job: its engine comes from here (an app's, which
                                     must outlive the task); NULL: one of its own */
    byoc_err client_err;          /* why there is no client */
    char *job;                    /* a job ARN or name (AWS) or local:job/<name> */
    byoc_jobs_lister *lister;     /* list: a reference (released with the args) */
    byoc_jobs_shared *shared;     /* watch: a reference (released with the args) */
    char *dest;                   /* results: the directory to unpack into */
} byoc_jobs_args;

/* c (may be NULL) gets a reference of the args' own. */
byoc_jobs_args *byoc_jobs_args_new(byoc_aws_client *c, const char *job);
/* Args whose task takes its client from clients, for profile and the job's region: region, or a
 * job ARN's own when region is NULL (byoc_jobref_region); a local job's take none. No I/O: for a
 * screen's thread. engines: for cancelling a local job (may be NULL). */
byoc_jobs_args *byoc_jobs_args_pooled(byoc_aws_clients *clients, byoc_engines *engines, const char *profile,
                                      const char *region, const char *job);
/* For the module's tasks, first thing: take the client from a->clients when the args have none
 * yet; a failure is kept in a->client_err (the list goes on with the local jobs;
 * byoc_jobs_resolve returns it). */
void byoc_jobs_args_take_client(byoc_jobs_args *a);
void byoc_jobs_args_free(void *args);

/* For the tasks of the module: args->job resolved to an ARN (malloc'd) with args->client; what
 * names the task in the error when there is no client. */
int byoc_jobs_resolve(const byoc_jobs_args *a, byoc_task *t, const char *what, char **arn, byoc_err *err);

int byoc_jobs_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_jobs_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

/* ---- plain calls -------------------------------------------------------------------- */

/* The args for working on ref as a verb does: a local job's (local:job/<name>) have no client;
 * else a client in the job's region (the ARN's own unless region, --region, is given) and
 * a->job is ref resolved to its ARN (byoc_jobref_open; t, which may be NULL, can cancel that).
 * ref NULL: the client alone. */
int byoc_jobs_open(const char *profile, const char *region, const char *ref, byoc_task *t, byoc_jobs_args **out,
                   byoc_err *err);

/* What `byoc status --json` prints of a->job: GetJob and the metrics its CloudWatch log holds
 * (byoc_job_status_json), or a local job's entry in the record and the metrics of its log.txt
 * (byoc_local_job_status_json). Metrics that cannot be read do not hide the status: *warn says
 * why (kind BYOC_OK when they were read). NULL: the error in err. */
json_t *byoc_jobs_status(const byoc_jobs_args *a, byoc_task *t, byoc_err *warn, byoc_err *err);

/* Cancel a->job (what the cancel task does): *status (>= 32 bytes) gets CANCELLING or CANCELLED. */
int byoc_jobs_cancel(const byoc_jobs_args *a, byoc_task *t, char *status, byoc_err *err);

/* a->job's results into *u (byoc_unpacked_clear): an AWS job's model.tar.gz, once the job
 * ended, downloaded and unpacked into a->dest (NULL: ./<job name>); a local job's, listed in
 * its output directory (byoc_local_job_results), where a->dest has no place. */
struct byoc_unpacked;
int byoc_jobs_results(const byoc_jobs_args *a, byoc_task *t, struct byoc_unpacked *u, byoc_err *err);

/* The local jobs of the record (newest first) as `byoc jobs --json` prints them
 * (byoc_local_job_summary_json), by their shown status (none: all), at most max. NULL: err. */
json_t *byoc_jobs_local_summaries(const char *const *statuses, size_t n_statuses, long max, byoc_err *err);

/* Who gets a job's log (byoc_jobs_logs). */
typedef struct byoc_jobs_reader {
    byoc_log_line_fn on_line;
    /* an AWS job: once before its first line (changed false), then after every look while following */
    void (*on_job)(const byoc_job_info *job, bool changed, void *ud);
    /* not following, and the job has no log yet: its name and status */
    void (*on_no_log)(const char *name, const char *status, void *ud);
    void *ud;
} byoc_jobs_reader;

/* a->job's log, AWS (CloudWatch, its instances merged by time) or local (log.txt): what there is
 * now, or with follow until the job ended; a job that then ended FAILED or CANCELLED is
 * BYOC_E_FAILED (what "logs"). */
int byoc_jobs_logs(const byoc_jobs_args *a, byoc_task *t, bool follow, const byoc_jobs_reader *r, byoc_err *err);

/* For the module's followers of a local job: *job (its entry for ref, or cleared) taken again
 * when the record changed since *stamp; returns 1 when it was, 0 when the record is unchanged,
 * -1 on error; *have: the record holds the job. */
int byoc_jobs_local_reload(const char *ref, byoc_localjobs_stamp *stamp, byoc_local_job *job, bool *have,
                           byoc_err *err);

#endif
