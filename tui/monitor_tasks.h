/* monitor_tasks: the Monitor step's backend work, as core/task.h tasks
 * started with tui_app_start_task.
 *
 *   list   every page of SearchJobs (newest first) plus the local jobs
 *          record (localjobs.h, parsed again only when the file changed),
 *          as compact rows (monitor_rows.h) handed to the screen page by page
 *          through a tui_mon_lister: PROGRESS "rows" (current: rows listed so
 *          far) after each page, DONE (no result) at the end. GetJob (for the
 *          instance type) only for jobs not described before, at most
 *          TUI_MON_DESCRIBE_PER_LIST per listing, newest first.
 *   watch  one job: the full GetJob once (hyperparameters, config), then
 *          byoc_job_watch_run (poller.h) with the CloudWatch log tail and
 *          the metrics store; for a local job, its record and log.txt.
 *          Events: STATUS "C<json>" the GetJob reply (once), STATUS
 *          "J<json>" the job's state whenever it changed (byoc_job_status_json,
 *          or byoc_local_job_json for a local job), LOG "<ms>\t<instance>\t<text>"
 *          where text is one line or several ('\n'-separated) that share the
 *          timestamp and instance (a local job's log.txt is streamed whole in
 *          such batches); DONE when the job ended and its log was read.
 *   cancel CancelJob, or for a local job byoc_local_job_cancel_ref (the byoc
 *          process running it stops it; a stale one's container is removed
 *          here); DONE result: the new status (char *).
 *   results  GetJob, then the results download (byoc/results.h).
 *
 * The metrics store is shared between a watch task and its screen through
 * a reference-counted holder, so either may go first. */
#ifndef BYOC_TUI_MONITOR_TASKS_H
#define BYOC_TUI_MONITOR_TASKS_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "byoc/localjobs.h"
#include "byoc/metrics.h"
#include "core/task.h"
#include "monitor_rows.h"

#define TUI_MON_DESCRIBE_PER_LIST 25

typedef struct tui_mon_shared {
    atomic_int refs;
    atomic_int poke;              /* set to poll now */
    byoc_metrics *metrics;
} tui_mon_shared;

tui_mon_shared *tui_mon_shared_new(void);
tui_mon_shared *tui_mon_shared_ref(tui_mon_shared *s);
void tui_mon_shared_unref(tui_mon_shared *s);

/* Shared by the Monitor screen and its list tasks (one listing at a time). */
typedef struct tui_mon_lister tui_mon_lister;
tui_mon_lister *tui_mon_lister_new(void);
tui_mon_lister *tui_mon_lister_ref(tui_mon_lister *l);
void tui_mon_lister_unref(tui_mon_lister *l);
/* UI thread: move the rows handed over since the last call to the end of dst; returns how many. */
size_t tui_mon_lister_take(tui_mon_lister *l, tui_mon_rows *dst);

typedef struct tui_mon_args {
    char *profile, *region;       /* may be NULL */
    char *job;                    /* a job ARN (AWS or local:job/<name>) */
    tui_mon_lister *lister;       /* list: a reference (released with the args) */
    tui_mon_shared *shared;       /* watch: a reference (released with the args) */
    char *dest;                   /* results: the directory to unpack into */
} tui_mon_args;

tui_mon_args *tui_mon_args_new(const char *profile, const char *region, const char *job);
void tui_mon_args_free(void *args);

int tui_mon_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_mon_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
/* Download and unpack the job's results into args->dest; PROGRESS of the
 * download; DONE result: a byoc_unpacked * (results.h). */
int tui_mon_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int tui_mon_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
