/* monitor_tasks: the Monitor step's backend work, as core/task.h tasks
 * started with tui_app_start_task.
 *
 *   list   SearchJobs (newest first, up to 100) plus the local jobs record
 *          (localjobs.h), as rows for the table; GetJob only for jobs it
 *          has not described before (for the instance type).
 *   watch  one job: the full GetJob once (hyperparameters, config), then
 *          byoc_job_watch_run (poller.h) with the CloudWatch log tail and
 *          the metrics store; for a local job, its record and log.txt.
 *          Events: STATUS "C<json>" the GetJob reply (once), STATUS
 *          "J<json>" the job's state whenever it changed (byoc_job_status_json,
 *          or byoc_local_job_json for a local job), LOG "<ms>\t<instance>\t<text>"
 *          per log line; DONE when the job ended and its log was read.
 *   cancel CancelJob; DONE result: the new status (char *).
 *   results  GetJob, then the results download (byoc/results.h).
 *
 * The metrics store is shared between a watch task and its screen through
 * a reference-counted holder, so either may go first. */
#ifndef BYOC_TUI_MONITOR_TASKS_H
#define BYOC_TUI_MONITOR_TASKS_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "byoc/metrics.h"
#include "core/task.h"

typedef struct tui_mon_shared {
    atomic_int refs;
    atomic_int poke;              /* set to poll now */
    byoc_metrics *metrics;
} tui_mon_shared;

tui_mon_shared *tui_mon_shared_new(void);
tui_mon_shared *tui_mon_shared_ref(tui_mon_shared *s);
void tui_mon_shared_unref(tui_mon_shared *s);

typedef struct tui_mon_args {
    char *profile, *region;       /* may be NULL */
    char *job;                    /* a job ARN (AWS or local:job/<name>) */
    json_t *known;                /* list: object arn -> instance already known (taken) */
    tui_mon_shared *shared;       /* watch: a reference (released with the args) */
    char *dest;                   /* results: the directory to unpack into */
} tui_mon_args;

tui_mon_args *tui_mon_args_new(const char *profile, const char *region, const char *job);
void tui_mon_args_free(void *args);

/* DONE result: json_t * array of rows {"arn", "name", "status", "device",
 * "instance", "created", "started", "ended" (epoch seconds, null when
 * unknown), "local", "failure"}. */
int tui_mon_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_mon_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
/* Download and unpack the job's results into args->dest; PROGRESS of the
 * download; DONE result: a byoc_unpacked * (results.h). */
int tui_mon_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_mon_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

/* Epoch seconds of a service time (ISO 8601 string or a number); NAN if none. */
double tui_mon_time(const json_t *v);

#endif
