/* jobs_status: one job's state as `byoc status` gives it (jobs.h), with the
 * metrics its log holds, for an AWS job and a local one. */
#include "byoc/jobs.h"

#include <stdlib.h>

#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logfile.h"
#include "byoc/metrics.h"

/* A metrics load's failure in *warn (a warning: the status stands without them). */
static void metrics_warn(int rc, const byoc_err *e, byoc_err *warn)
{
    if (rc != 0) {
        *warn = *e;
        if (warn->kind == BYOC_OK)
            warn->kind = BYOC_E_FAILED;
    }
}

/* A local job: the record's entry, with the metrics its log.txt holds. */
static json_t *local_status(const char *ref, byoc_err *warn, byoc_err *err)
{
    byoc_local_job job;
    if (byoc_localjobs_get(NULL, ref, &job, err) != 0)
        return NULL;
    byoc_metrics *m = byoc_metrics_new(0, 0);
    char *path = byoc_local_job_log_path(&job);
    if (path) {
        byoc_log_source *src = byoc_log_source_file(path);
        byoc_err e;
        byoc_err_clear(&e);
        metrics_warn(byoc_metrics_load_log(src, NULL, m, NULL, &e), &e, warn);
        byoc_log_source_free(src);
        free(path);
    }
    json_t *doc = byoc_local_job_status_json(&job, byoc_metrics_json(m, BYOC_METRICS_SERIES_MAX));
    byoc_metrics_free(m);
    byoc_local_job_clear(&job);
    return doc;
}

json_t *byoc_jobs_status(const byoc_jobs_args *a, byoc_task *t, byoc_err *warn, byoc_err *err)
{
    byoc_err_clear(warn);
    if (byoc_local_job_is_ref(a->job))
        return local_status(a->job, warn, err);
    char *arn;
    if (byoc_jobs_resolve(a, t, "status", &arn, err) != 0)
        return NULL;
    byoc_job_info job;
    int rc = byoc_job_get(a->client, t, arn, &job, err);
    free(arn);
    if (rc != 0)
        return NULL;
    /* Metrics come from the job's log; a log we cannot read does not hide the status. */
    byoc_metrics *m = byoc_metrics_new(0, 0);
    byoc_err e;
    byoc_err_clear(&e);
    metrics_warn(byoc_metrics_load_cwl(a->client, t, job.name, 0, m, NULL, &e), &e, warn);
    json_t *metrics = byoc_metrics_json(m, BYOC_METRICS_SERIES_MAX);
    byoc_metrics_free(m);
    json_t *doc = byoc_job_status_json(&job, metrics);
    byoc_job_info_clear(&job);
    return doc;
}
