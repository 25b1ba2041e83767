/* jobs_cancel: cancelling a job (jobs.h), AWS or local; the plain call and
 * the task that runs it. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "core/str.h"

int byoc_jobs_cancel(const byoc_jobs_args *a, byoc_task *t, char *status, byoc_err *err)
{
    status[0] = '\0';
    if (byoc_local_job_is_ref(a->job))
        return byoc_local_job_cancel_ref(a->engines, NULL, a->job, status, err) == 0 ? 0 : -1;
    char *arn;
    if (byoc_jobs_resolve(a, t, "cancel job", &arn, err) != 0)
        return -1;
    int rc = byoc_job_cancel(a->client, t, arn, status, err);
    free(arn);
    return rc == 0 ? 0 : -1;
}

int byoc_jobs_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    char status[32];
    byoc_jobs_args_take_client(arg);
    if (byoc_jobs_cancel(arg, t, status, err) != 0)
        return -1;
    *result = byoc_xstrdup(status);
    *result_free = free;
    return 0;
}
