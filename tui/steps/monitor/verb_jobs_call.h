/* verb_jobs_call: what the Monitor's verbs (jobs, status, logs, cancel, results)
 * share: the job opened as a verb opens it (byoc_jobs_open: a local job's
 * record, or a client in the job's region and its ARN) and worked on, all of it
 * on a task so that Ctrl-C (SIGINT, SIGTERM) cancels it (cli_task.h). */
#ifndef BYOC_TUI_VERB_JOBS_CALL_H
#define BYOC_TUI_VERB_JOBS_CALL_H

#include "byoc/jobs.h"
#include "cli.h"
#include "cli_task.h"

/* The work on the opened job, on the task's thread; 0, or -1 with err. */
typedef int (*tui_jobs_verb_fn)(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err);

/* Open ref (NULL: no job, the client alone) with the globals' profile and region and run fn on
 * it; the task's events go to print (may be NULL). Returns 0, or -1 with err (BYOC_E_CANCELLED
 * after Ctrl-C). */
int tui_jobs_verb_run(const byoc_globals *g, const char *name, const char *ref, tui_jobs_verb_fn fn, void *ud,
                      byoc_cli_task_printer print, byoc_err *err);

#endif
