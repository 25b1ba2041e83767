/* jobs_cancel: the cancel task (jobs.h), for an AWS job and a local one. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "core/str.h"

int byoc_jobs_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_jobs_args *a = arg;
    char status[32] = "";
    if (byoc_local_job_is_ref(a->job)) {
        if (byoc_local_job_cancel_ref(NULL, a->job, status, err) != 0)
            return -1;
        *result = byoc_xstrdup(status);
        *result_free = free;
        return 0;
    }
    byoc_aws_client *c = a->client;
    char *arn;
    if (byoc_jobs_resolve(a, t, "cancel job", &arn, err) != 0)
        return -1;
    int rc = byoc_job_cancel(c, t, arn, status, err);
    free(arn);
    if (rc != 0)
        return -1;
    *result = byoc_xstrdup(status);
    *result_free = free;
    return 0;
}
