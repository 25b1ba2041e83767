#include "monitor_tasks.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "aws/pager.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"
#include "byoc/logfile.h"
#include "byoc/results.h"
#include "core/buf.h"
#include "core/str.h"

#define BATCH_LINES 64           /* log lines per LOG event at most: the UI takes up to 512 events a turn */
#define BATCH_BYTES (16 * 1024)

tui_mon_shared *tui_mon_shared_new(void)
{
    tui_mon_shared *s = byoc_xcalloc(1, sizeof *s);
    atomic_init(&s->refs, 1);
    atomic_init(&s->poke, 0);
    s->metrics = byoc_metrics_new(32, 2000);
    return s;
}

tui_mon_shared *tui_mon_shared_ref(tui_mon_shared *s)
{
    atomic_fetch_add(&s->refs, 1);
    return s;
}

void tui_mon_shared_unref(tui_mon_shared *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        byoc_metrics_free(s->metrics);
        free(s);
    }
}

tui_mon_args *tui_mon_args_new(const char *profile, const char *region, const char *job)
{
    tui_mon_args *a = byoc_xcalloc(1, sizeof *a);
    a->profile = byoc_xstrdup_opt(profile);
    a->region = byoc_xstrdup_opt(region);
    a->job = byoc_xstrdup_opt(job);
    return a;
}

void tui_mon_args_free(void *args)
{
    tui_mon_args *a = args;
    if (!a)
        return;
    free(a->profile);
    free(a->region);
    free(a->job);
    free(a->dest);
    tui_mon_lister_unref(a->lister);
    tui_mon_shared_unref(a->shared);
    free(a);
}

/* Epoch seconds of a service time (ISO 8601 string or a number); NAN if none. */
static double tui_mon_time(const json_t *v)
{
    if (json_is_number(v))
        return json_number_value(v);
    const char *s = json_string_value(v);
    if (!s || !*s)
        return NAN;
    struct tm tm = {0};
    const char *rest = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
    if (!rest)
        return NAN;
    double frac = 0;
    if (*rest == '.')
        frac = strtod(rest, NULL);
    return (double)timegm(&tm) + frac;
}

static double iso_time(const char *s)
{
    json_t *v = json_string(s ? s : "");
    double t = tui_mon_time(v);
    json_decref(v);
    return t;
}

static const char *member(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static void instance_of(const json_t *get_job, char *buf, size_t size)
{
    const json_t *ic = json_object_get(get_job, "instanceConfig");
    const char *type = json_string_value(json_object_get(ic, "instanceType"));
    json_int_t count = json_integer_value(json_object_get(ic, "instanceCount"));
    if (!type)
        snprintf(buf, size, "%s", "");
    else if (count > 1)
        snprintf(buf, size, "%s x%d", type, (int)count);
    else
        snprintf(buf, size, "%s", type);
}

/* ---- list ---- */

struct tui_mon_lister {
    atomic_int refs;
    pthread_mutex_t lock;
    tui_mon_rows handed;          /* under lock: rows not yet taken by the screen */
    /* list tasks only (one at a time): */
    tui_mon_known known;          /* arn -> instance */
    byoc_localjobs_stamp local_stamp;
    tui_mon_rows local_rows;      /* the record as rows, while the file is unchanged */
};

tui_mon_lister *tui_mon_lister_new(void)
{
    tui_mon_lister *l = byoc_xcalloc(1, sizeof *l);
    atomic_init(&l->refs, 1);
    pthread_mutex_init(&l->lock, NULL);
    tui_mon_rows_init(&l->handed);
    tui_mon_known_init(&l->known);
    tui_mon_rows_init(&l->local_rows);
    return l;
}

tui_mon_lister *tui_mon_lister_ref(tui_mon_lister *l)
{
    atomic_fetch_add(&l->refs, 1);
    return l;
}

void tui_mon_lister_unref(tui_mon_lister *l)
{
    if (!l || atomic_fetch_sub(&l->refs, 1) != 1)
        return;
    tui_mon_rows_free(&l->handed);
    tui_mon_known_free(&l->known);
    tui_mon_rows_free(&l->local_rows);
    pthread_mutex_destroy(&l->lock);
    free(l);
}

size_t tui_mon_lister_take(tui_mon_lister *l, tui_mon_rows *dst)
{
    pthread_mutex_lock(&l->lock);
    size_t n = l->handed.n;
    if (n)
        tui_mon_rows_move(dst, &l->handed);
    pthread_mutex_unlock(&l->lock);
    return n;
}

static void hand_over(byoc_task *t, tui_mon_lister *l, tui_mon_rows *page, size_t *listed)
{
    if (!page->n)
        return;
    *listed += page->n;
    pthread_mutex_lock(&l->lock);
    tui_mon_rows_move(&l->handed, page);
    pthread_mutex_unlock(&l->lock);
    byoc_task_progress(t, "rows", (int64_t)*listed, -1, NULL);
}

/* The record as rows, parsed again only when the file changed; the parse's
 * memory (jansson tree, job structs) is freed and returned to the system. */
static void refresh_local_rows(tui_mon_lister *l)
{
    byoc_local_jobs jobs = {0};
    byoc_err e;
    int rc = byoc_localjobs_load_changed(NULL, &l->local_stamp, &jobs, &e);
    if (rc != 0) {
        if (rc < 0)
            tui_mon_rows_free(&l->local_rows);
        return;
    }
    tui_mon_rows_free(&l->local_rows);
    for (size_t i = 0; i < jobs.n; i++) {
        const byoc_local_job *j = &jobs.items[i];
        char *arn = byoc_local_job_arn(j->name);
        tui_mon_row r = {
            .arn = arn,
            .name = j->name,
            .status = j->status,
            .device = j->device,
            .instance = "local",
            .failure = j->failure_reason,
            .created = iso_time(j->created),
            .started = iso_time(j->started),
            .ended = iso_time(j->ended),
            .pid = j->pid,
            .local = true,
        };
        tui_mon_rows_add(&l->local_rows, &r);
        free(arn);
    }
    byoc_local_jobs_free(&jobs);
    malloc_trim(0);
}

static void add_local(byoc_task *t, tui_mon_lister *l, size_t *listed)
{
    refresh_local_rows(l);
    tui_mon_rows page;
    tui_mon_rows_init(&page);
    for (size_t i = 0; i < l->local_rows.n; i++) {
        tui_mon_row r = l->local_rows.items[i];
        /* the byoc that ran it may be gone: checked on every listing */
        byoc_local_job probe = {.status = (char *)r.status, .pid = r.pid, .failure_reason = (char *)r.failure};
        r.status = byoc_local_job_shown_status(&probe, &r.failure);
        tui_mon_rows_add(&page, &r);
    }
    hand_over(t, l, &page, listed);
}

static void add_aws_page(byoc_aws_client *c, byoc_task *t, tui_mon_lister *l, const json_t *jobs, int *describe_left,
                         tui_mon_rows *page)
{
    size_t i;
    const json_t *j;
    json_array_foreach(jobs, i, j) {
        const char *arn = json_string_value(json_object_get(j, "jobArn"));
        if (!arn)
            continue;
        const char *instance = tui_mon_known_get(&l->known, arn);
        char described[128] = "";
        if (!instance && *describe_left > 0 && !byoc_task_cancelled(t)) {
            (*describe_left)--;
            json_t *full = NULL;
            byoc_err e2;
            if (byoc_braket_get_job(c, t, arn, false, &full, &e2) == 0) {
                instance_of(full, described, sizeof described);
                tui_mon_known_put(&l->known, arn, described);
                instance = described;
            }
            json_decref(full);
        }
        tui_mon_row r = {
            .arn = arn,
            .name = member(j, "jobName"),
            .status = member(j, "status"),
            .device = member(j, "device"),
            .instance = instance,
            .created = tui_mon_time(json_object_get(j, "createdAt")),
            .started = tui_mon_time(json_object_get(j, "startedAt")),
            .ended = tui_mon_time(json_object_get(j, "endedAt")),
        };
        tui_mon_rows_add(page, &r);
    }
}

int tui_mon_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    tui_mon_args *a = arg;
    tui_mon_lister *l = a->lister;
    size_t listed = 0;
    byoc_aws_config_opts o = {.profile = a->profile, .region = a->region};
    byoc_aws_client *c;
    int rc = byoc_aws_client_new(&o, &c, err);
    if (rc == 0) {
        int describe_left = TUI_MON_DESCRIBE_PER_LIST;
        byoc_aws_pager pager;
        byoc_aws_pager_init(&pager, "SearchJobs");
        int more = 0;
        do {
            json_t *page = NULL;
            rc = byoc_braket_search_jobs(c, t, NULL, 100, pager.token, &page, err);
            if (rc != 0)
                break;
            more = byoc_aws_pager_next(&pager, json_string_value(json_object_get(page, "nextToken")), err);
            tui_mon_rows rows;
            tui_mon_rows_init(&rows);
            add_aws_page(c, t, l, json_object_get(page, "jobs"), &describe_left, &rows);
            json_decref(page);
            hand_over(t, l, &rows, &listed);
            if (more < 0)
                rc = -1;
        } while (rc == 0 && more && !byoc_task_cancelled(t));
        byoc_aws_pager_free(&pager);
        byoc_aws_client_free(c);
        if (rc == 0 && byoc_task_cancelled(t))
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "list jobs", "cancelled");
    }
    add_local(t, l, &listed);   /* the local jobs show even when AWS cannot be reached */
    return rc == 0 ? 0 : -1;
}

/* ---- watch ---- */

/* Log lines collected into one LOG event: consecutive lines with the same
 * timestamp and instance share the "<ms>\t<instance>\t" header. */
typedef struct log_batch {
    byoc_task *t;
    byoc_buf text;
    long long ms;
    char *instance;
    size_t lines;
} log_batch;

static void batch_flush(log_batch *b)
{
    if (b->lines)
        byoc_task_output_text(b->t, b->text.data, b->text.len);
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
        byoc_buf_printf(&b->text, "%lld\t%s\t", ms, instance);
    } else {
        byoc_buf_append(&b->text, "\n", 1);
    }
    byoc_buf_append(&b->text, text, len);
    if (++b->lines >= BATCH_LINES || b->text.len >= BATCH_BYTES)
        batch_flush(b);
}

static void batch_free(log_batch *b)
{
    byoc_buf_free(&b->text);
    free(b->instance);
}

typedef struct watch_ctx {
    byoc_task *t;
    log_batch batch;
} watch_ctx;

static void post_json(byoc_task *t, char tag, json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    if (text)
        byoc_task_status(t, "%c%s", tag, text);
    free(text);
    json_decref(j);
}

static void on_job(const byoc_job_info *job, bool changed, void *ud)
{
    watch_ctx *w = ud;
    batch_flush(&w->batch);
    if (changed)
        post_json(w->t, 'J', byoc_job_status_json(job, NULL));
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

static int watch_aws(byoc_task *t, tui_mon_args *a, byoc_err *err)
{
    byoc_aws_client *c;
    char *arn;
    if (byoc_jobref_open(a->profile, a->region, a->job, t, &c, &arn, err) != 0)
        return -1;
    json_t *full = NULL;
    int rc = byoc_braket_get_job(c, t, arn, true, &full, err);
    byoc_job_info info = {0};
    if (rc == 0) {
        post_json(t, 'C', json_incref(full));
        rc = byoc_job_info_from_json(full, &info, err);
    }
    json_decref(full);
    if (rc == 0) {
        post_json(t, 'J', byoc_job_status_json(&info, NULL));
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
            post_json(t, 'J', byoc_job_status_json(&final, NULL));
        byoc_job_info_free(&final);  /* filled on a cancelled watch too */
        byoc_log_source_free(watch.logs);
    }
    byoc_job_info_free(&info);
    byoc_aws_client_free(c);
    free(arn);
    return rc;
}

/* A local job's log.txt lines: into the Monitor's metrics and LOG events. */
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

static int watch_local(byoc_task *t, tui_mon_args *a, byoc_err *err)
{
    byoc_log_source *log = NULL;
    char *last = NULL;
    byoc_localjobs_stamp stamp = {0};
    byoc_local_job job = {0};
    bool have = false;
    int rc = 0;
    for (;;) {
        byoc_local_jobs l = {0};
        int loaded = byoc_localjobs_load_changed(NULL, &stamp, &l, err);
        if (loaded < 0) {
            rc = -1;
            break;
        }
        if (loaded == 0) {              /* the record changed: take this job's entry again */
            const byoc_local_job *j = byoc_localjobs_find(&l, a->job);
            byoc_local_job_free(&job);
            have = j != NULL;
            if (j)
                byoc_local_job_copy(&job, j);
            byoc_local_jobs_free(&l);
            malloc_trim(0);
        }
        if (!have) {
            rc = byoc_err_set(err, BYOC_E_FAILED, "JOB", "no local job %s in the record", a->job);
            break;
        }
        json_t *doc = byoc_local_job_status_json(&job, NULL);  /* what `byoc status` says of it */
        char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
        if (text && (!last || strcmp(text, last) != 0)) {
            byoc_task_status(t, "J%s", text);
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
    byoc_local_job_free(&job);
    byoc_log_source_free(log);
    free(last);
    return rc == 0 ? 0 : -1;
}

int tui_mon_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    tui_mon_args *a = arg;
    if (byoc_local_job_is_ref(a->job))
        return watch_local(t, a, err);
    return watch_aws(t, a, err);
}

int tui_mon_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_mon_args *a = arg;
    char status[32] = "";
    if (byoc_local_job_is_ref(a->job)) {
        if (byoc_local_job_cancel_ref(NULL, a->job, status, err) != 0)
            return -1;
        *result = byoc_xstrdup(status);
        *result_free = free;
        return 0;
    }
    byoc_aws_client *c;
    char *arn;
    if (byoc_jobref_open(a->profile, a->region, a->job, t, &c, &arn, err) != 0)
        return -1;
    int rc = byoc_job_cancel(c, t, arn, status, err);
    byoc_aws_client_free(c);
    free(arn);
    if (rc != 0)
        return -1;
    *result = byoc_xstrdup(status);
    *result_free = free;
    return 0;
}

static void unpacked_free(void *p)
{
    byoc_unpacked_free(p);
    free(p);
}

int tui_mon_results_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_mon_args *a = arg;
    byoc_aws_client *c;
    char *arn;
    if (byoc_jobref_open(a->profile, a->region, a->job, t, &c, &arn, err) != 0)
        return -1;
    byoc_job_info info = {0};
    int rc = byoc_job_get(c, t, arn, &info, err);
    byoc_unpacked *u = byoc_xcalloc(1, sizeof *u);
    if (rc == 0)
        rc = byoc_results_fetch(c, t, info.name, info.output_s3_path, a->dest, u, err);
    byoc_job_info_free(&info);
    byoc_aws_client_free(c);
    free(arn);
    if (rc != 0) {
        unpacked_free(u);
        return -1;
    }
    *result = u;
    *result_free = unpacked_free;
    return 0;
}
