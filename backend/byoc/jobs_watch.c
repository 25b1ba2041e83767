/* jobs_watch: the watch task (jobs.h): one job, AWS or local, followed until
 * it ended, its state, log and metrics reported as typed DATA events. */
#include "byoc/jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logfile.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "core/log.h"
#include "core/str.h"

#define BATCH_LINES 64           /* log lines per event at most: the UI takes up to 512 events a turn */
#define BATCH_BYTES (16 * 1024)

/* Log lines collected into one record: consecutive lines with the same
 * timestamp and instance share one, so a busy log costs few events. */
typedef struct log_batch {
    byoc_task *t;
    byoc_buf text;
    long long ms;
    char *instance;
    size_t lines;
} log_batch;

static void log_free(void *p)
{
    byoc_jobs_log *r = p;
    free(r->source);
    free(r->text);
    free(r);
}

static void batch_flush(log_batch *b)
{
    if (b->lines) {
        byoc_jobs_log *r = byoc_xcalloc(1, sizeof *r);
        r->ms = b->ms;
        r->source = byoc_xstrdup(b->instance ? b->instance : "");
        r->text = byoc_xstrndup(b->text.data, b->text.len);
        byoc_redact_inplace(r->text);
        r->len = strlen(r->text);
        byoc_task_data(b->t, BYOC_JOBS_LOG, r, log_free);
    }
    byoc_buf_reset(&b->text);
    b->lines = 0;
}

static void batch_add(log_batch *b, long long ms, const char *instance, const char *text, size_t len)
{
    instance = instance ? instance : "";
    if (b->lines && (ms != b->ms || strcmp(instance, b->instance) != 0))
        batch_flush(b);
    if (!b->lines) {
        b->ms = ms;
        if (!b->instance || strcmp(b->instance, instance) != 0) {
            free(b->instance);
            b->instance = byoc_xstrdup(instance);
        }
    } else {
        byoc_buf_append(&b->text, "\n", 1);
    }
    byoc_buf_append(&b->text, text, len);
    if (++b->lines >= BATCH_LINES || b->text.len >= BATCH_BYTES)
        batch_flush(b);
}

static void batch_free(log_batch *b)
{
    byoc_buf_clear(&b->text);
    free(b->instance);
}

typedef struct watch_ctx {
    byoc_task *t;
    log_batch batch;
} watch_ctx;

static void doc_free(void *p) { json_decref(p); }

/* j (taken) as a DATA event: redacted and made printable as a STATUS text would be. */
static void post_doc(byoc_task *t, byoc_jobs_data what, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!text)
        return;
    byoc_redact_inplace(text);
    json_t *clean = json_loads(text, 0, NULL);
    free(text);
    if (!clean)
        return;
    byoc_task_data(t, what, byoc_json_printable_copy(clean), doc_free);
    json_decref(clean);
}

static void on_job(const byoc_job_info *job, bool changed, void *ud)
{
    watch_ctx *w = ud;
    batch_flush(&w->batch);
    if (changed)
        post_doc(w->t, BYOC_JOBS_STATUS, byoc_job_status_json(job, NULL));
}

static void on_line(const byoc_log_line *l, void *ud)
{
    watch_ctx *w = ud;
    batch_add(&w->batch, (long long)l->timestamp_ms, l->instance, l->message, l->len);
}

static void on_lines_read(void *ud)
{
    batch_flush(&((watch_ctx *)ud)->batch);
}

static int watch_aws(byoc_task *t, byoc_jobs_args *a, byoc_err *err)
{
    byoc_aws_client *c = a->client;
    char *arn;
    if (byoc_jobs_resolve(a, t, "watch job", &arn, err) != 0)
        return -1;
    json_t *full = NULL;
    int rc = byoc_braket_get_job(c, t, arn, true, &full, err);
    byoc_job_info info = {0};
    if (rc == 0) {
        post_doc(t, BYOC_JOBS_DESCRIBED, json_incref(full));
        rc = byoc_job_info_from_json(full, &info, err);
    }
    json_decref(full);
    if (rc == 0) {
        post_doc(t, BYOC_JOBS_STATUS, byoc_job_status_json(&info, NULL));
        watch_ctx w = {.t = t, .batch = {.t = t}};
        byoc_job_watch watch = {
            .job_arn = arn,
            .logs = byoc_log_source_cwl(c, info.name, info.instance_count),
            .metrics = a->shared->metrics,
            .on_job = on_job,
            .on_line = on_line,
            .on_lines_read = on_lines_read,
            .ud = &w,
            .poke = &a->shared->poke,
        };
        byoc_job_info final = {0};
        rc = byoc_job_watch_run(c, t, &watch, &final, err);
        batch_flush(&w.batch);
        batch_free(&w.batch);
        if (rc == 0)
            post_doc(t, BYOC_JOBS_STATUS, byoc_job_status_json(&final, NULL));
        byoc_job_info_clear(&final);  /* filled on a cancelled watch too */
        byoc_log_source_free(watch.logs);
    }
    byoc_job_info_clear(&info);
    free(arn);
    return rc;
}

/* A local job's log.txt lines: into the metrics and log records. */
typedef struct local_lines {
    log_batch batch;
    byoc_metrics *metrics;
} local_lines;

static void on_local_line(const byoc_log_line *l, void *ud)
{
    local_lines *x = ud;
    byoc_metrics_feed(x->metrics, l->message, l->len, 0);
    batch_add(&x->batch, 0, "", l->message, l->len);
}

/* What log.txt holds now (all of it once the job ended). Stops early only when cancelled. */
static void read_local_log(byoc_task *t, byoc_log_source *src, bool ended, byoc_metrics *m)
{
    local_lines x = {.batch = {.t = t}, .metrics = m};
    byoc_log_round r = {0};
    byoc_err e;
    do {
        if (byoc_log_source_poll(src, t, ended, on_local_line, &x, &r, &e) != 0)
            break;
    } while (r.more && !byoc_task_cancelled(t));
    batch_flush(&x.batch);
    batch_free(&x.batch);
}

static int watch_local(byoc_task *t, byoc_jobs_args *a, byoc_err *err)
{
    byoc_log_source *log = NULL;
    char *last = NULL;
    byoc_localjobs_stamp stamp = {0};
    byoc_local_job job = {0};
    bool have = false;
    int rc = 0;
    for (;;) {
        if (byoc_jobs_local_reload(a->job, &stamp, &job, &have, err) < 0) {
            rc = -1;
            break;
        }
        if (!have) {
            rc = byoc_err_set(err, BYOC_E_FAILED, "JOB", "no local job %s in the record", a->job);
            break;
        }
        json_t *doc = byoc_local_job_status_json(&job, NULL);  /* what `byoc status` says of it */
        char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
        if (text && (!last || strcmp(text, last) != 0)) {
            post_doc(t, BYOC_JOBS_STATUS, json_incref(doc));
            free(last);
            last = text;
        } else {
            free(text);
        }
        json_decref(doc);
        const char *shown = byoc_local_job_shown_status(&job, NULL);
        bool ended = !shown || strcmp(shown, "RUNNING") != 0;
        if (!log && job.output_dir) {
            char *path = byoc_local_job_log_path(&job);
            log = byoc_log_source_file(path);
            free(path);
        }
        if (log)
            read_local_log(t, log, ended, a->shared->metrics);
        if (ended && !byoc_task_cancelled(t))
            break;
        if (byoc_task_cancelled(t) || byoc_backoff_sleep(t, 1000)) {
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "monitor", "cancelled");
            break;
        }
    }
    byoc_local_job_clear(&job);
    byoc_log_source_free(log);
    free(last);
    return rc == 0 ? 0 : -1;
}

int byoc_jobs_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    byoc_jobs_args *a = arg;
    if (byoc_local_job_is_ref(a->job))
        return watch_local(t, a, err);
    byoc_jobs_args_take_client(a);
    return watch_aws(t, a, err);
}
