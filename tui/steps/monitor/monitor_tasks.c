#include "monitor_tasks.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/localjobs.h"

/* The app's shared client for the job's region (the ARN's own when no --region
 * was given): the Monitor's relist every few seconds reuses one client and one
 * credential chain. */
static byoc_aws_client *mon_client(tui_app *app, const char *job, byoc_err *err)
{
    const byoc_globals *g = tui_app_globals(app);
    char *region = byoc_jobref_region(g->region, job);
    byoc_aws_config_opts o = {.profile = g->profile, .region = region};
    byoc_aws_client *c = NULL;
    int rc = byoc_aws_clients_get(tui_app_aws(app), &o, &c, err);
    free(region);
    return rc == 0 ? c : NULL;
}

byoc_jobs_args *tui_mon_args(tui_app *app, const char *job)
{
    if (job && byoc_local_job_is_ref(job))
        return byoc_jobs_args_new(NULL, job);
    byoc_err err;
    byoc_err_clear(&err);
    byoc_aws_client *c = mon_client(app, job, &err);
    if (!c && job) {
        tui_app_error(app, "%s", err.message);
        return NULL;
    }
    byoc_jobs_args *a = byoc_jobs_args_new(c, job);
    byoc_aws_client_free(c);   /* the args hold their own */
    if (!c)
        a->client_err = err;
    return a;
}
