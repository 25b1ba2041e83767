/* jobs_logs: a job's log for `byoc logs` (jobs.h), AWS (CloudWatch) or local
 * (log.txt), read once or followed until the job ended; and the reload of a
 * local job's entry that the module's followers share. */
#include "byoc/jobs.h"

#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logfile.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"

int byoc_jobs_local_reload(const char *ref, byoc_localjobs_stamp *stamp, byoc_local_job *job, bool *have,
                           byoc_err *err)
{
    byoc_local_jobs l = {0};
    int loaded = byoc_localjobs_load_changed(NULL, stamp, &l, err);
    if (loaded != 0)
        return loaded < 0 ? -1 : 0;
    const byoc_local_job *j = byoc_localjobs_find(&l, ref);
    byoc_local_job_clear(job);
    *have = j != NULL;
    if (j)
        byoc_local_job_copy(job, j);
    byoc_local_jobs_clear(&l);
    malloc_trim(0);
    return 1;
}

static int ended_badly(const char *name, const char *status, const char *failure, byoc_err *err)
{
    if (failure && *failure)
        return byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s: %s", name, status, failure);
    return byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s", name, status);
}

/* A local job: its log.txt, as `byoc run --local` writes it. Following reads
 * on until the record says the job ended. */
static int local_logs(const char *ref, byoc_task *t, bool follow, const byoc_jobs_reader *rd, byoc_err *err)
{
    byoc_local_job job;
    if (byoc_localjobs_get(NULL, ref, &job, err) != 0)
        return -1;
    char *path = byoc_local_job_log_path(&job);
    byoc_log_source *src = path ? byoc_log_source_file(path) : NULL;
    free(path);
    byoc_localjobs_stamp stamp = {0};
    bool have = true;
    int rc = 0;
    for (;;) {
        const char *failure;
        const char *status = byoc_local_job_shown_status(&job, &failure);
        bool ended = !status || strcmp(status, "RUNNING") != 0;
        byoc_log_round r = {0};
        do
            rc = src ? byoc_log_source_poll(src, t, ended || !follow, rd->on_line, rd->ud, &r, err) : 0;
        while (rc == 0 && r.more);
        if (rc != 0)
            break;
        if (!follow || ended) {
            if (r.streams == 0 && !follow && rd->on_no_log)
                rd->on_no_log(job.name, status ? status : "?", rd->ud);
            if (follow && byoc_braket_status_failed(status))
                rc = ended_badly(job.name, status, failure, err);
            break;
        }
        if (byoc_backoff_sleep(t, 1000)) {
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "logs", "cancelled");
            break;
        }
        if (byoc_jobs_local_reload(ref, &stamp, &job, &have, err) < 0) {
            rc = -1;
            break;
        }
        if (!have) {
            rc = byoc_err_set(err, BYOC_E_FAILED, "JOB", "no local job %s in the record", ref);
            break;
        }
    }
    byoc_log_source_free(src);
    byoc_local_job_clear(&job);
    return rc == 0 ? 0 : -1;
}

/* An AWS job: everything there is now, with a final look for streams. */
static int read_all(byoc_log_source *src, byoc_task *t, const byoc_jobs_reader *rd, const byoc_job_info *job,
                    byoc_err *err)
{
    byoc_log_round r;
    do {
        if (byoc_log_source_poll(src, t, true, rd->on_line, rd->ud, &r, err) != 0)
            return -1;
    } while (r.more);
    if (r.streams == 0 && rd->on_no_log)
        rd->on_no_log(job->name, job->status, rd->ud);
    return 0;
}

int byoc_jobs_logs(const byoc_jobs_args *a, byoc_task *t, bool follow, const byoc_jobs_reader *rd, byoc_err *err)
{
    if (byoc_local_job_is_ref(a->job))
        return local_logs(a->job, t, follow, rd, err);
    char *arn;
    if (byoc_jobs_resolve(a, t, "logs", &arn, err) != 0)
        return -1;
    byoc_job_info job;
    int rc = byoc_job_get(a->client, t, arn, &job, err);
    if (rc == 0 && rd->on_job)
        rd->on_job(&job, false, rd->ud);
    byoc_log_source *src = rc == 0 ? byoc_log_source_cwl(a->client, job.name, job.instance_count) : NULL;
    if (rc == 0 && !follow) {
        rc = read_all(src, t, rd, &job, err);
    } else if (rc == 0) {
        byoc_job_watch w = {.job_arn = arn, .logs = src, .on_job = rd->on_job, .on_line = rd->on_line, .ud = rd->ud};
        byoc_job_info final;
        rc = byoc_job_watch_run(a->client, t, &w, &final, err);
        if (rc == 0 && byoc_braket_status_failed(final.status))
            rc = ended_badly(final.name, final.status, final.failure_reason, err);
        byoc_job_info_clear(&final);
    }
    byoc_log_source_free(src);
    byoc_job_info_clear(&job);
    free(arn);
    return rc == 0 ? 0 : -1;
}
