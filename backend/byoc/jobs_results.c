/* jobs_results: a job's results (jobs.h): an AWS job's download, a local
 * job's output directory; the plain call and the task that runs it. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "aws/braket.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/results.h"
#include "core/str.h"

BYOC_TASK_FREE(unpacked_free, byoc_unpacked, byoc_unpacked_clear)

/* A local job's results: in its output directory already, listed. */
static int local_results(const char *ref, byoc_unpacked *u, byoc_err *err)
{
    byoc_local_job job;
    if (byoc_localjobs_get(NULL, ref, &job, err) != 0)
        return -1;
    int rc = byoc_local_job_results(&job, u, err);
    byoc_local_job_clear(&job);
    return rc;
}

int byoc_jobs_results(const byoc_jobs_args *a, byoc_task *t, byoc_unpacked *u, byoc_err *err)
{
    if (byoc_local_job_is_ref(a->job))
        return local_results(a->job, u, err);
    char *arn;
    if (byoc_jobs_resolve(a, t, "results", &arn, err) != 0)
        return -1;
    byoc_job_info job;
    int rc = byoc_job_get(a->client, t, arn, &job, err);
    free(arn);
    char *dest = NULL;
    if (rc == 0 && !byoc_braket_status_terminal(job.status)) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "results",
                          "job %s is %s: results are written when it ends (wait with: byoc logs --follow %s)",
                          job.name, job.status, job.name);
    } else if (rc == 0) {
        dest = a->dest ? byoc_xstrdup(a->dest) : byoc_results_dest_for_job(NULL, job.name, err);
        rc = dest ? byoc_results_fetch(a->client, t, job.name, job.output_s3_path, dest, u, err) : -1;
    }
    free(dest);
    byoc_job_info_clear(&job);
    return rc == 0 ? 0 : -1;
}

int byoc_jobs_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_jobs_args_take_client(arg);
    byoc_unpacked *u = byoc_xcalloc(1, sizeof *u);
    if (byoc_jobs_results(arg, t, u, err) != 0) {
        unpacked_free(u);
        return -1;
    }
    *result = u;
    *result_free = unpacked_free;
    return 0;
}
