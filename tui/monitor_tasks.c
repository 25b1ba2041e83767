#include "monitor_tasks.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"
#include "byoc/results.h"
#include "core/buf.h"

#define LIST_MAX 100
#define LOCAL_LOG_MAX_READ (1 << 20)

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
    a->profile = profile ? byoc_xstrdup(profile) : NULL;
    a->region = region ? byoc_xstrdup(region) : NULL;
    a->job = job ? byoc_xstrdup(job) : NULL;
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
    json_decref(a->known);
    tui_mon_shared_unref(a->shared);
    free(a);
}

double tui_mon_time(const json_t *v)
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

static json_t *time_json(double t)
{
    return isnan(t) ? json_null() : json_real(t);
}

static void json_decref_ptr(void *p)
{
    json_decref(p);
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

static json_t *instance_of(const json_t *get_job)
{
    const json_t *ic = json_object_get(get_job, "instanceConfig");
    const char *type = json_string_value(json_object_get(ic, "instanceType"));
    json_int_t count = json_integer_value(json_object_get(ic, "instanceCount"));
    if (!type)
        return json_string("");
    if (count > 1)
        return json_sprintf("%s x%d", type, (int)count);
    return json_string(type);
}

static void add_local(json_t *rows)
{
    byoc_local_jobs l = {0};
    byoc_err e;
    if (byoc_localjobs_load(NULL, &l, &e) != 0)
        return;
    for (size_t i = 0; i < l.n; i++) {
        const byoc_local_job *j = &l.items[i];
        char *arn = byoc_local_job_arn(j->name);
        const char *status = j->status ? j->status : "";
        bool stale = byoc_local_job_stale(j);
        json_array_append_new(
            rows, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:s}", "arn", arn, "name", j->name,
                            "status", stale ? "FAILED" : status, "device", j->device ? j->device : "", "instance",
                            "local", "created", time_json(iso_time(j->created)), "started", time_json(iso_time(j->started)),
                            "ended", time_json(iso_time(j->ended)), "local", true,
                            "failure", stale ? "interrupted: the byoc that ran it is gone"
                                             : j->failure_reason ? j->failure_reason : ""));
        free(arn);
    }
    byoc_local_jobs_free(&l);
}

int tui_mon_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_mon_args *a = arg;
    byoc_aws_config_opts o = {.profile = a->profile, .region = a->region};
    byoc_aws_client *c;
    json_t *rows = json_array();
    if (byoc_aws_client_new(&o, &c, err) != 0) {
        json_decref(rows);
        return -1;
    }
    json_t *jobs = NULL;
    int rc = byoc_braket_search_jobs_all(c, t, NULL, LIST_MAX, &jobs, err);
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j) {
        if (rc != 0)
            break;
        const char *arn = json_string_value(json_object_get(j, "jobArn"));
        if (!arn)
            continue;
        json_t *instance = json_incref(json_object_get(a->known, arn));
        if (!instance) {
            json_t *full = NULL;
            byoc_err e2;
            if (byoc_braket_get_job(c, t, arn, false, &full, &e2) == 0)
                instance = instance_of(full);
            json_decref(full);
        }
        json_array_append_new(
            rows, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:s}", "arn", arn, "name",
                            member(j, "jobName"), "status",
                            member(j, "status"), "device",
                            member(j, "device"), "instance",
                            instance ? instance : json_null(), "created",
                            time_json(tui_mon_time(json_object_get(j, "createdAt"))), "started",
                            time_json(tui_mon_time(json_object_get(j, "startedAt"))), "ended",
                            time_json(tui_mon_time(json_object_get(j, "endedAt"))), "local", false, "failure", ""));
    }
    json_decref(jobs);
    byoc_aws_client_free(c);
    if (rc != 0) {
        json_decref(rows);
        return -1;
    }
    add_local(rows);
    *result = rows;
    *result_free = json_decref_ptr;
    return 0;
}

/* ---- watch ---- */

typedef struct watch_ctx {
    byoc_task *t;
    byoc_metrics *metrics;
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
    if (changed)
        post_json(w->t, 'J', byoc_job_status_json(job, NULL));
}

static void on_line(const byoc_log_line *l, void *ud)
{
    watch_ctx *w = ud;
    byoc_task_log(w->t, "%lld\t%s\t%.*s", (long long)l->timestamp_ms, l->instance ? l->instance : "", (int)l->len,
                  l->message);
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
        watch_ctx w = {t, a->shared->metrics};
        byoc_job_watch watch = {
            .job_arn = arn,
            .logs = byoc_log_source_cwl(c, info.name, info.instance_count),
            .metrics = a->shared->metrics,
            .on_job = on_job,
            .on_line = on_line,
            .ud = &w,
            .poke = &a->shared->poke,
        };
        byoc_job_info final = {0};
        rc = byoc_job_watch_run(c, t, &watch, &final, err);
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

/* Lines of log.txt from *offset on; keeps a partial last line for later. */
static void read_local_log(byoc_task *t, const char *path, long *offset, byoc_metrics *m)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fseek(f, *offset, SEEK_SET) == 0) {
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        long read_bytes = 0;
        while (read_bytes < LOCAL_LOG_MAX_READ && (n = getline(&line, &cap, f)) > 0) {
            if (line[n - 1] != '\n')
                break;                      /* the rest comes on the next read */
            line[--n] = '\0';
            *offset += n + 1;
            read_bytes += n + 1;
            byoc_metrics_feed(m, line, (size_t)n, 0);
            byoc_task_log(t, "0\t\t%s", line);
        }
        free(line);
    }
    fclose(f);
}

static int watch_local(byoc_task *t, tui_mon_args *a, byoc_err *err)
{
    long offset = 0;
    char *last = NULL;
    for (;;) {
        byoc_local_jobs l = {0};
        if (byoc_localjobs_load(NULL, &l, err) != 0)
            return -1;
        const byoc_local_job *j = byoc_localjobs_find(&l, a->job);
        if (!j) {
            byoc_local_jobs_free(&l);
            free(last);
            byoc_err_set(err, BYOC_E_FAILED, "JOB", "no local job %s in the record", a->job);
            return -1;
        }
        json_t *doc = byoc_local_job_json(j);
        char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
        if (text && (!last || strcmp(text, last) != 0)) {
            byoc_task_status(t, "J%s", text);
            free(last);
            last = text;
        } else {
            free(text);
        }
        json_decref(doc);
        bool ended = !j->status || strcmp(j->status, "RUNNING") != 0 || byoc_local_job_stale(j);
        if (j->output_dir) {
            char *path = byoc_xasprintf("%s/log.txt", j->output_dir);
            read_local_log(t, path, &offset, a->shared->metrics);
            free(path);
        }
        byoc_local_jobs_free(&l);
        if (ended)
            break;
        if (byoc_backoff_sleep(t, 1000)) {
            free(last);
            byoc_err_set(err, BYOC_E_CANCELLED, "monitor", "cancelled");
            return -1;
        }
    }
    free(last);
    return 0;
}

int tui_mon_watch_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    tui_mon_args *a = arg;
    if (strncmp(a->job, "local:", 6) == 0)
        return watch_local(t, a, err);
    return watch_aws(t, a, err);
}

int tui_mon_cancel_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_mon_args *a = arg;
    byoc_aws_client *c;
    char *arn;
    if (byoc_jobref_open(a->profile, a->region, a->job, t, &c, &arn, err) != 0)
        return -1;
    char status[32] = "";
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
