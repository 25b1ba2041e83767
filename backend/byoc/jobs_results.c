/* jobs_results: the results task (jobs.h): GetJob, then the download. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/results.h"
#include "core/str.h"

BYOC_TASK_FREE(unpacked_free, byoc_unpacked, byoc_unpacked_clear)

int byoc_jobs_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_jobs_args *a = arg;
    byoc_aws_client *c = a->client;
    char *arn;
    if (byoc_jobs_resolve(a, t, "results", &arn, err) != 0)
        return -1;
    byoc_job_info info = {0};
    int rc = byoc_job_get(c, t, arn, &info, err);
    byoc_unpacked *u = byoc_xcalloc(1, sizeof *u);
    if (rc == 0)
        rc = byoc_results_fetch(c, t, info.name, info.output_s3_path, a->dest, u, err);
    byoc_job_info_clear(&info);
    free(arn);
    if (rc != 0) {
        unpacked_free(u);
        return -1;
    }
    *result = u;
    *result_free = unpacked_free;
    return 0;
}
