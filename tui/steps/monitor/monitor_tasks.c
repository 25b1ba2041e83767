#include "monitor_tasks.h"

/* The task takes the app's shared client for the job's region (the ARN's own when no --region
 * was given) on its own thread: the Monitor's relist every few seconds reuses one client and
 * one credential chain, and the UI thread reads no config file. */
byoc_jobs_args *tui_mon_args(tui_app *app, const char *job)
{
    const byoc_globals *g = tui_app_globals(app);
    return byoc_jobs_args_pooled(tui_app_aws(app), tui_app_engines(app), g->profile, g->region, job);
}
