/* jobs_list: the list task (jobs.h): SearchJobs page by page and the local
 * jobs record, as rows handed to the screen through a byoc_jobs_lister; and
 * the local jobs as `byoc jobs` lists them. */
#include "byoc/jobs.h"

#include <malloc.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "aws/pager.h"
#include "byoc/localjobs.h"
#include "core/str.h"

/* Epoch seconds of a service time (ISO 8601 string or a number); NAN if none. */
static double service_time(const json_t *v)
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
    double t = service_time(v);
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

struct byoc_jobs_lister {
    atomic_int refs;
    pthread_mutex_t lock;
    byoc_job_rows handed;          /* under lock: rows not yet taken by the screen */
    /* list tasks only (one at a time): */
    byoc_job_known known;          /* arn -> instance */
    byoc_localjobs_stamp local_stamp;
    byoc_job_rows local_rows;      /* the record as rows, while the file is unchanged */
};

byoc_jobs_lister *byoc_jobs_lister_new(void)
{
    byoc_jobs_lister *l = byoc_xcalloc(1, sizeof *l);
    atomic_init(&l->refs, 1);
    pthread_mutex_init(&l->lock, NULL);
    byoc_job_rows_init(&l->handed);
    byoc_job_known_init(&l->known);
    byoc_job_rows_init(&l->local_rows);
    return l;
}

byoc_jobs_lister *byoc_jobs_lister_ref(byoc_jobs_lister *l)
{
    atomic_fetch_add(&l->refs, 1);
    return l;
}

void byoc_jobs_lister_unref(byoc_jobs_lister *l)
{
    if (!l || atomic_fetch_sub(&l->refs, 1) != 1)
        return;
    byoc_job_rows_clear(&l->handed);
    byoc_job_known_clear(&l->known);
    byoc_job_rows_clear(&l->local_rows);
    pthread_mutex_destroy(&l->lock);
    free(l);
}

size_t byoc_jobs_lister_take(byoc_jobs_lister *l, byoc_job_rows *dst)
{
    pthread_mutex_lock(&l->lock);
    size_t n = l->handed.n;
    if (n)
        byoc_job_rows_move(dst, &l->handed);
    pthread_mutex_unlock(&l->lock);
    return n;
}

static void hand_over(byoc_task *t, byoc_jobs_lister *l, byoc_job_rows *page, size_t *listed)
{
    if (!page->n)
        return;
    *listed += page->n;
    pthread_mutex_lock(&l->lock);
    byoc_job_rows_move(&l->handed, page);
    pthread_mutex_unlock(&l->lock);
    byoc_task_progress(t, "rows", (int64_t)*listed, -1, NULL);
}

/* The record as rows, parsed again only when the file changed; the parse's
 * memory (jansson tree, job structs) is freed and returned to the system. */
static void refresh_local_rows(byoc_jobs_lister *l)
{
    byoc_local_jobs jobs = {0};
    byoc_err e;
    int rc = byoc_localjobs_load_changed(NULL, &l->local_stamp, &jobs, &e);
    if (rc != 0) {
        if (rc < 0)
            byoc_job_rows_clear(&l->local_rows);
        return;
    }
    byoc_job_rows_clear(&l->local_rows);
    for (size_t i = 0; i < jobs.n; i++) {
        const byoc_local_job *j = &jobs.items[i];
        char *arn = byoc_local_job_arn(j->name);
        byoc_job_row r = {
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
        byoc_job_rows_add(&l->local_rows, &r);
        free(arn);
    }
    byoc_local_jobs_clear(&jobs);
    malloc_trim(0);
}

static void add_local(byoc_task *t, byoc_jobs_lister *l, size_t *listed)
{
    refresh_local_rows(l);
    byoc_job_rows page;
    byoc_job_rows_init(&page);
    for (size_t i = 0; i < l->local_rows.n; i++) {
        byoc_job_row r = l->local_rows.items[i];
        /* the byoc that ran it may be gone: checked on every listing */
        byoc_local_job probe = {.status = (char *)r.status, .pid = r.pid, .failure_reason = (char *)r.failure};
        r.status = byoc_local_job_shown_status(&probe, &r.failure);
        byoc_job_rows_add(&page, &r);
    }
    hand_over(t, l, &page, listed);
}

static void add_aws_page(byoc_aws_client *c, byoc_task *t, byoc_jobs_lister *l, const json_t *jobs, int *describe_left,
                         byoc_job_rows *page)
{
    size_t i;
    const json_t *j;
    json_array_foreach(jobs, i, j) {
        const char *arn = json_string_value(json_object_get(j, "jobArn"));
        if (!arn)
            continue;
        const char *instance = byoc_job_known_get(&l->known, arn);
        char described[128] = "";
        if (!instance && *describe_left > 0 && !byoc_task_cancelled(t)) {
            (*describe_left)--;
            json_t *full = NULL;
            byoc_err e2;
            if (byoc_braket_get_job(c, t, arn, false, &full, &e2) == 0) {
                instance_of(full, described, sizeof described);
                byoc_job_known_put(&l->known, arn, described);
                instance = described;
            }
            json_decref(full);
        }
        byoc_job_row r = {
            .arn = arn,
            .name = member(j, "jobName"),
            .status = member(j, "status"),
            .device = member(j, "device"),
            .instance = instance,
            .created = service_time(json_object_get(j, "createdAt")),
            .started = service_time(json_object_get(j, "startedAt")),
            .ended = service_time(json_object_get(j, "endedAt")),
        };
        byoc_job_rows_add(page, &r);
    }
}

int byoc_jobs_list_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    byoc_jobs_args *a = arg;
    byoc_jobs_args_take_client(a);
    byoc_jobs_lister *l = a->lister;
    size_t listed = 0;
    byoc_aws_client *c = a->client;
    int rc = 0;
    if (!c) {
        *err = a->client_err;
        rc = -1;
    } else {
        int describe_left = BYOC_JOBS_DESCRIBE_PER_LIST;
        byoc_aws_pager pager;
        byoc_aws_pager_init(&pager, "SearchJobs");
        int more = 0;
        do {
            json_t *page = NULL;
            rc = byoc_braket_search_jobs(c, t, NULL, 100, pager.token, &page, err);
            if (rc != 0)
                break;
            more = byoc_aws_pager_next(&pager, json_string_value(json_object_get(page, "nextToken")), err);
            byoc_job_rows rows;
            byoc_job_rows_init(&rows);
            add_aws_page(c, t, l, json_object_get(page, "jobs"), &describe_left, &rows);
            json_decref(page);
            hand_over(t, l, &rows, &listed);
            if (more < 0)
                rc = -1;
        } while (rc == 0 && more && !byoc_task_cancelled(t));
        byoc_aws_pager_clear(&pager);
        if (rc == 0 && byoc_task_cancelled(t))
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "list jobs", "cancelled");
    }
    add_local(t, l, &listed);   /* the local jobs show even when AWS cannot be reached */
    return rc == 0 ? 0 : -1;
}


json_t *byoc_jobs_local_summaries(const char *const *statuses, size_t n_statuses, long max, byoc_err *err)
{
    byoc_local_jobs l = {0};
    if (byoc_localjobs_load(NULL, &l, err) != 0)
        return NULL;
    json_t *out = json_array();
    for (size_t i = 0; i < l.n && (long)json_array_size(out) < max; i++) {
        const char *status = byoc_local_job_shown_status(&l.items[i], NULL);
        bool wanted = n_statuses == 0;
        for (size_t k = 0; k < n_statuses && !wanted; k++)
            wanted = status && strcmp(status, statuses[k]) == 0;
        if (wanted)
            json_array_append_new(out, byoc_local_job_summary_json(&l.items[i]));
    }
    byoc_local_jobs_clear(&l);
    return out;
}
