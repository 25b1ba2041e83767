/* The jobs module (byoc/jobs.h) as the Monitor screen drives it: its watch,
 * list and cancel tasks on an event queue, against the Braket stand-in (job
 * states moved with its control API) and moto's CloudWatch Logs (events
 * written with byoc's own signed calls). The described job comes once,
 * status documents follow the job, log records carry every line once and in
 * order, the metrics fill from the log, DONE comes when the job ended, and a
 * cancelled watch ends with a BYOC_E_CANCELLED error. The screen's list,
 * cancel and results tasks take their client from one pool, as the app's do:
 * every task of a session shares one client, and a profile that cannot make
 * one ends the task with the reason. Also byoc_job_watch_run with `once`, and
 * byoc_logs_filter_events by stream names. */
#include "check.h"
#include "standin_jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "aws/logs.h"
#include "byoc/jobref.h"
#include "byoc/jobs.h"
#include "byoc/logtail.h"
#include "byoc/metrics.h"
#include "byoc/poller.h"
#include "net/http.h"

static char run_id[16];

typedef struct seen {
    char *lines[64];
    int nlines;
    char statuses[16][48];
    int nstatus;
    bool described;
    bool done, error;
    byoc_err err;
} seen;

/* Pump events until cond or the guard runs out (a guard, not a timing check). */
static void pump(byoc_evq *q, seen *s, bool (*cond)(const seen *), int guard_s)
{
    time_t end = time(NULL) + guard_s;
    while (!cond(s) && time(NULL) < end) {
        if (!byoc_evq_wait(q, 200))
            continue;
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_DATA && ev.current == BYOC_JOBS_LOG) {
                const byoc_jobs_log *r = ev.result;
                CHECK_STR(r->source, "algo-1");
                for (const char *p = r->text; p && s->nlines < 64;) {
                    const char *nl = strchr(p, '\n');
                    s->lines[s->nlines++] = nl ? strndup(p, (size_t)(nl - p)) : strdup(p);
                    p = nl ? nl + 1 : NULL;
                }
            } else if (ev.kind == BYOC_EV_DATA && ev.current == BYOC_JOBS_STATUS && s->nstatus < 16) {
                snprintf(s->statuses[s->nstatus++], sizeof s->statuses[0], "%s",
                         json_string_value(json_object_get(ev.result, "status")));
            } else if (ev.kind == BYOC_EV_DATA && ev.current == BYOC_JOBS_DESCRIBED) {
                s->described = json_object_get(ev.result, "instanceConfig") != NULL;
            } else if (ev.kind == BYOC_EV_DONE) {
                s->done = true;
            } else if (ev.kind == BYOC_EV_ERROR) {
                s->error = true;
                s->err = ev.err;
            }
            byoc_event_release(&ev);
        }
    }
}

/* The watch task on job, as the Monitor's job view starts it. */
static byoc_task *watch(byoc_evq *q, byoc_aws_client *c, const char *job, byoc_jobs_shared *shared)
{
    byoc_jobs_args *a = byoc_jobs_args_new(c, job);
    a->shared = byoc_jobs_shared_ref(shared);
    return byoc_task_start(q, "watch job", byoc_jobs_watch_task, a, byoc_jobs_args_free);
}

static bool six_lines(const seen *s) { return s->nlines >= 6; }
static bool ten_lines(const seen *s) { return s->nlines >= 10; }
static bool finished(const seen *s) { return s->done || s->error; }

static void test_monitor(byoc_aws_client *c)
{
    char name[64], stream[160];
    snprintf(name, sizeof name, "mon%s-task", run_id);
    char *arn = create_logged_job(c, name, run_id, stream, sizeof stream);
    if (!arn)
        return;
    int64_t t0 = now_ms() - 600000;
    put_lines(c, stream, 0, 6, t0);

    byoc_evq *q = byoc_evq_new();
    byoc_jobs_shared *shared = byoc_jobs_shared_new();
    byoc_task *t = watch(q, c, name, shared);   /* by name: resolved by the task */
    seen s = {0};
    pump(q, &s, six_lines, 60);
    CHECK_INT(s.nlines, 6);
    CHECK(s.described);
    CHECK(s.nstatus >= 1 && strcmp(s.statuses[0], "RUNNING") == 0);

    put_lines(c, stream, 6, 10, t0);
    atomic_store(&shared->poke, 1);
    pump(q, &s, ten_lines, 60);
    set_status(name, "COMPLETED");
    atomic_store(&shared->poke, 1);
    pump(q, &s, finished, 120);
    CHECK(s.done);
    CHECK(!s.error);
    CHECK_STR(s.statuses[s.nstatus - 1], "COMPLETED");
    CHECK_INT(s.nlines, 10);
    for (int i = 0; i < s.nlines && i < 10; i++) {
        char want[128];
        if (i % 2)
            snprintf(want, sizeof want, "Metrics - timestamp=%d; loss=%d; iteration_number=%d;", 1700000000 + i,
                     100 - i, i);
        else
            snprintf(want, sizeof want, "line %d", i);
        CHECK_STR(s.lines[i], want);
    }
    byoc_metrics *mx = shared->metrics;
    byoc_metrics_lock(mx);
    const byoc_metric_series *loss = byoc_metrics_find(mx, "loss");
    CHECK(loss && loss->count == 5 && loss->last == 91.0 && loss->min == 91.0 && loss->max == 99.0);
    byoc_metrics_unlock(mx);
    CHECK_INT(byoc_evq_dropped(q), 0);

    byoc_task_release(t);
    byoc_jobs_shared_unref(shared);
    byoc_evq_free(q);
    for (int i = 0; i < s.nlines; i++)
        free(s.lines[i]);

    /* a filter over explicit stream names finds the metrics lines only */
    const char *names[] = {stream};
    byoc_logs_filter_params fp = {.group = BYOC_LOGS_BRAKET_JOBS_GROUP,
                                  .stream_names = names,
                                  .n_stream_names = 1,
                                  .filter_pattern = "\"Metrics -\""};
    byoc_logs_event_page page;
    byoc_err err;
    CHECK_INT(byoc_logs_filter_events(c, NULL, &fp, &page, &err), 0);
    CHECK_INT(page.len, 5);
    CHECK(page.len && page.items[0].stream && strcmp(page.items[0].stream, stream) == 0);
    byoc_logs_event_page_clear(&page);
    free(arn);
}

static void test_cancel_monitor(byoc_aws_client *c)
{
    char name[64];
    snprintf(name, sizeof name, "mon%s-quiet", run_id);
    char *arn = create_job(c, name, 2);
    CHECK(arn != NULL);
    if (!arn)
        return;
    byoc_evq *q = byoc_evq_new();
    byoc_jobs_shared *shared = byoc_jobs_shared_new();
    byoc_task *t = watch(q, c, arn, shared);
    seen s = {0};
    pump(q, &s, finished, 3); /* it keeps watching: nothing ends it */
    CHECK(!s.done && !s.error);
    byoc_task_cancel(t);
    pump(q, &s, finished, 30);
    CHECK(s.error);
    CHECK_INT(s.err.kind, BYOC_E_CANCELLED);
    byoc_task_release(t);
    byoc_jobs_shared_unref(shared);
    byoc_evq_free(q);

    /* once: one GetJob, one log read, back at once */
    byoc_job_watch w = {.job_arn = arn, .once = true};
    byoc_job_info final;
    byoc_err err;
    CHECK_INT(byoc_job_watch_run(c, NULL, &w, &final, &err), 0);
    CHECK_STR(final.status, "RUNNING");
    CHECK_INT(final.instance_count, 2);
    byoc_job_info_clear(&final);
    free(arn);
}

/* Wait for a task's final event; returns true for DONE (result taken into *result). */
static bool finish(byoc_evq *q, byoc_task *t, void **result, byoc_err *err)
{
    time_t end = time(NULL) + 60;
    bool done = false, over = false;
    while (!over && time(NULL) < end) {
        if (!byoc_evq_wait(q, 200))
            continue;
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.task_id == byoc_task_id(t) && ev.kind == BYOC_EV_DONE) {
                done = over = true;
                *result = ev.result;
                ev.result = NULL;
            } else if (ev.task_id == byoc_task_id(t) && ev.kind == BYOC_EV_ERROR) {
                over = true;
                *err = ev.err;
            }
            byoc_event_release(&ev);
        }
    }
    byoc_task_release(t);
    return done;
}

/* A task of the jobs module on job, started as the Monitor starts it: its client from the pool. */
static byoc_task *start(byoc_evq *q, byoc_aws_clients *pool, const char *job, byoc_task_fn fn,
                        byoc_jobs_lister *lister, const char *dest)
{
    byoc_jobs_args *a = byoc_jobs_args_pooled(pool, NULL, NULL, NULL, job);
    a->lister = lister ? byoc_jobs_lister_ref(lister) : NULL;
    a->dest = dest ? strdup(dest) : NULL;
    return byoc_task_start(q, "jobs", fn, a, byoc_jobs_args_free);
}

static void test_screen_tasks(byoc_aws_client *c)
{
    byoc_evq *q = byoc_evq_new();
    void *res = NULL;
    byoc_err err;
    byoc_err_clear(&err);

    char name[64], quiet[64];
    snprintf(name, sizeof name, "mon%s-task", run_id);
    snprintf(quiet, sizeof quiet, "mon%s-quiet", run_id);
    char *arn = NULL, *qarn = NULL;
    CHECK_INT(byoc_jobref_resolve(c, NULL, name, &arn, &err), 0);
    CHECK_INT(byoc_jobref_resolve(c, NULL, quiet, &qarn, &err), 0);

    /* the list: both jobs among the rows, with their state and instance */
    byoc_aws_clients *pool = byoc_aws_clients_new();
    unsigned long before = byoc_aws_client_count_made();
    byoc_jobs_lister *l = byoc_jobs_lister_new();
    CHECK(finish(q, start(q, pool, NULL, byoc_jobs_list_task, l, NULL), &res, &err));
    byoc_job_rows rows;
    byoc_job_rows_init(&rows);
    CHECK(byoc_jobs_lister_take(l, &rows) >= 2);
    int found = 0;
    for (size_t i = 0; i < rows.n; i++) {
        const byoc_job_row *r = &rows.items[i];
        if (arn && strcmp(r->arn, arn) == 0) {
            found++;
            CHECK_STR(r->status, "COMPLETED");
            CHECK_STR(r->instance, "ml.m5.large");
        } else if (qarn && strcmp(r->arn, qarn) == 0) {
            found++;
            CHECK_STR(r->status, "RUNNING");
            CHECK_STR(r->instance, "ml.m5.large x2");
        }
    }
    CHECK_INT(found, 2);
    byoc_job_rows_clear(&rows);
    byoc_jobs_lister_unref(l);

    res = NULL;
    CHECK(!finish(q, start(q, pool, arn, byoc_jobs_cancel_task, NULL, NULL), &res, &err));
    CHECK(strstr(err.message, "already ended (COMPLETED)") != NULL);

    CHECK(!finish(q, start(q, pool, arn, byoc_jobs_results_task, NULL, "/tmp/never-made"), &res, &err));
    CHECK(err.kind == BYOC_E_FAILED && err.message[0]);
    CHECK(access("/tmp/never-made", F_OK) != 0);

    CHECK(finish(q, start(q, pool, qarn, byoc_jobs_cancel_task, NULL, NULL), &res, &err));
    CHECK_STR(res, "CANCELLING");
    free(res);
    l = byoc_jobs_lister_new();
    CHECK(finish(q, start(q, pool, NULL, byoc_jobs_list_task, l, NULL), &res, &err));
    byoc_jobs_lister_unref(l);
    /* five tasks on five threads: one client for the lists (the region as configured) and one for
     * the tasks on a job (the region its ARN names), as the pool is keyed on what was asked */
    CHECK_INT(byoc_aws_clients_made(pool), 2);
    CHECK_INT(byoc_aws_client_count_made() - before, 2);   /* and no task made one of its own */

    /* a profile the config does not have: the task, not the screen, finds out, and says so */
    byoc_jobs_args *a = byoc_jobs_args_pooled(pool, NULL, "no-such-profile", NULL, qarn);
    byoc_err_clear(&err);
    CHECK(!finish(q, byoc_task_start(q, "jobs", byoc_jobs_cancel_task, a, byoc_jobs_args_free), &res, &err));
    CHECK(strstr(err.message, "no-such-profile") != NULL);
    a = byoc_jobs_args_pooled(pool, NULL, "no-such-profile", NULL, NULL);
    a->lister = byoc_jobs_lister_new();
    byoc_err_clear(&err);
    CHECK(!finish(q, byoc_task_start(q, "jobs", byoc_jobs_list_task, a, byoc_jobs_args_free), &res, &err));
    CHECK(strstr(err.message, "no-such-profile") != NULL);
    CHECK_INT(byoc_aws_clients_made(pool), 2);
    byoc_aws_clients_free(pool);
    free(qarn);
    free(arn);
    byoc_evq_free(q);
}

int main(void)
{
    check_env("BYOC_TEST_ACCOUNT");
    snprintf(run_id, sizeof run_id, "%lx", (unsigned long)time(NULL) ^ (unsigned long)getpid());
    byoc_http_global_init();
    byoc_aws_client *c;
    byoc_err err;
    if (byoc_aws_client_new(NULL, &c, &err) != 0) {
        print_err("client", &err);
        return 1;
    }
    test_monitor(c);
    test_cancel_monitor(c);
    test_screen_tasks(c);
    byoc_aws_client_free(c);   /* the tasks held their own references */
    byoc_http_global_cleanup();
    return check_done();
}
