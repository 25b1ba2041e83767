/* monitor_tasks: the Monitor screens' adapter to the jobs module
 * (byoc/jobs.h), which does the work: the arguments of a jobs task, with
 * the app's AWS clients and engine it works with. */
#ifndef BYOC_TUI_MONITOR_TASKS_H
#define BYOC_TUI_MONITOR_TASKS_H

#include "byoc/jobs.h"
#include "shell.h"

/* Arguments for a jobs task on job (NULL: the list; free with byoc_jobs_args_free), which takes
 * the app's shared AWS client for the app's profile and region (a job ARN's own region when no
 * --region was given) and, to cancel a local job, the app's engine. A local job needs no client;
 * the list goes without one (it reports why after the local jobs); a task on an AWS job without
 * one ends with the error. Never NULL. */
byoc_jobs_args *tui_mon_args(tui_app *app, const char *job);

#endif
