/* monitor_tasks: the Monitor screens' adapter to the jobs module
 * (byoc/jobs.h), which does the work: the arguments of a jobs task, with
 * the AWS client it works with. */
#ifndef BYOC_TUI_MONITOR_TASKS_H
#define BYOC_TUI_MONITOR_TASKS_H

#include "byoc/jobs.h"
#include "shell.h"

/* Arguments for a jobs task on job (NULL: the list; free with byoc_jobs_args_free), with the
 * app's shared AWS client for the app's profile and region (a job ARN's own region when no
 * --region was given). A local job
 * needs no client; the list goes without one (it reports why after the local jobs); for an AWS
 * job without a client the error is shown and the answer is NULL. */
byoc_jobs_args *tui_mon_args(tui_app *app, const char *job);

#endif
