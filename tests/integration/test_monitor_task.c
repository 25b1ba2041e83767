/* The Monitor backend as a screen drives it: byoc_job_monitor on an event
 * queue, against the Braket stand-in (job states moved with its control API)
 * and moto's CloudWatch Logs (events written with byoc's own signed calls).
 * STATUS events follow the job, LOG events carry every line once and in
 * order, the metrics fill from the log, DONE carries the final GetJob, and a
 * cancelled monitor ends with a BYOC_E_CANCELLED error. Also byoc_job_watch_run
 * with `once`, and byoc_logs_filter_events by stream names. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "aws/logs.h"
#include "byoc/jobref.h"
#include "byoc/logtail.h"
#include "byoc/metrics.h"
#include "byoc/poller.h"
#include "byoc/results.h"
#include "net/http.h"

static const char *account;
static char run_id[16];

static void print_err(const char *what, const byoc_err *err)
{
    char buf[1024];
    fprintf(stderr, "%s: %s\n", what, byoc_err_format(err, buf, sizeof buf));
}

/* POST the stand-in's control API (no signature). */
static int control_post(const char *path, const char *body)
{
    char url[512];
    snprintf(url, sizeof url, "%s%s", check_env("BYOC_STANDIN_CONTROL"), path);
    byoc_http_req req = {.method = "POST", .url = url, .body = body, .body_len = strlen(body)};
    byoc_headers_add(&req.headers, "Content-Type", "application/json");
    byoc_http_resp resp;
    memset(&resp, 0, sizeof resp);
    byoc_err err;
    int rc = byoc_http_do(&req, &resp, &err);
    long status = resp.status;
    byoc_headers_clear(&req.headers);
    byoc_http_resp_clear(&resp);
    return rc == 0 && status == 200 ? 0 : -1;
}

static int set_status(const char *name, const char *status)
{
    char path[256], body[128];
    snprintf(path, sizeof path, "/jobs/%s/set-status", name);
    snprintf(body, sizeof body, "{\"status\": \"%s\"}", status);
    return control_post(path, body);
}

static char *create_job(byoc_aws_client *c, const char *name, int instances)
{
    json_t *req = json_pack(
        "{s:s, s:s, s:s, s:{s:{s:s, s:s, s:s}, s:{s:s}}, s:{s:s}, s:{s:s, s:i, s:i}, s:{s:s}}", "clientToken", name,
        "jobName", name, "roleArn", "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole",
        "algorithmSpecification", "scriptModeConfig", "entryPoint", "algo.main", "s3Uri",
        "s3://bucket/src/source.tar.gz", "compressionType", "GZIP", "containerImage", "uri",
        "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-byoc:latest", "outputDataConfig", "s3Path",
        "s3://bucket/out", "instanceConfig", "instanceType", "ml.m5.large", "volumeSizeInGb", 30, "instanceCount",
        instances, "deviceConfig", "device", "arn:aws:braket:::device/quantum-simulator/amazon/sv1");
    char *arn = NULL;
    byoc_err err;
    if (byoc_braket_create_job(c, NULL, req, &arn, &err) != 0)
        print_err("CreateJob", &err);
    json_decref(req);
    if (arn)
        set_status(name, "RUNNING");
    return arn;
}

static int logs_call(byoc_aws_client *c, const char *op, json_t *body)
{
    char target[64];
    snprintf(target, sizeof target, "Logs_20140328.%s", op);
    json_t *out = NULL;
    byoc_err err;
    int rc = byoc_aws_json_call(c, NULL, BYOC_AWS_LOGS, target, body, &out, &err);
    if (rc && strcmp(err.code, "ResourceAlreadyExistsException") != 0)
        print_err(op, &err);
    json_decref(out);
    json_decref(body);
    return rc;
}

static void put_lines(byoc_aws_client *c, const char *stream, int from, int to, int64_t t0)
{
    json_t *events = json_array();
    char msg[128];
    for (int i = from; i < to; i++) {
        if (i % 2)
            snprintf(msg, sizeof msg, "Metrics - timestamp=%d; loss=%d; iteration_number=%d;", 1700000000 + i,
                     100 - i, i);
        else
            snprintf(msg, sizeof msg, "line %d", i);
        json_array_append_new(events, json_pack("{s:I, s:s}", "timestamp", (json_int_t)(t0 + i), "message", msg));
    }
    logs_call(c, "PutLogEvents",
              json_pack("{s:s, s:s, s:o}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP, "logStreamName", stream,
                        "logEvents", events));
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct seen {
    char *lines[64];
    int nlines;
    char statuses[16][48];
    int nstatus;
    bool done, error;
    byoc_err err;
    byoc_job_info final;
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
            if (ev.kind == BYOC_EV_LOG && s->nlines < 64)
                s->lines[s->nlines++] = strdup(ev.text);
            else if (ev.kind == BYOC_EV_STATUS && s->nstatus < 16)
                snprintf(s->statuses[s->nstatus++], sizeof s->statuses[0], "%s", ev.text);
            else if (ev.kind == BYOC_EV_DONE) {
                s->done = true;
                byoc_job_info_copy(&s->final, ev.result);
            } else if (ev.kind == BYOC_EV_ERROR) {
                s->error = true;
                s->err = ev.err;
            }
            byoc_event_release(&ev);
        }
    }
}

static bool six_lines(const seen *s) { return s->nlines >= 6; }
static bool ten_lines(const seen *s) { return s->nlines >= 10; }
static bool finished(const seen *s) { return s->done || s->error; }

static void test_monitor(byoc_aws_client *c)
{
    char name[64], stream[160];
    snprintf(name, sizeof name, "mon%s-task", run_id);
    char *arn = create_job(c, name, 1);
    CHECK(arn != NULL);
    if (!arn)
        return;
    logs_call(c, "CreateLogGroup", json_pack("{s:s}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP));
    snprintf(stream, sizeof stream, "%s/%s/algo-1-1700000000", name, run_id);
    logs_call(c, "CreateLogStream",
              json_pack("{s:s, s:s}", "logGroupName", BYOC_LOGS_BRAKET_JOBS_GROUP, "logStreamName", stream));
    int64_t t0 = now_ms() - 600000;
    put_lines(c, stream, 0, 6, t0);

    byoc_evq *q = byoc_evq_new();
    byoc_job_monitor *m = byoc_job_monitor_new(c, arn, byoc_log_source_cwl(c, name, 1));
    byoc_job_info snap;
    CHECK(!byoc_job_monitor_snapshot(m, &snap));
    byoc_task *t = byoc_job_monitor_start(m, q);
    seen s = {0};
    pump(q, &s, six_lines, 60);
    CHECK_INT(s.nlines, 6);
    CHECK(s.nstatus >= 1 && strcmp(s.statuses[0], "RUNNING") == 0);
    CHECK(byoc_job_monitor_snapshot(m, &snap));
    CHECK_STR(snap.status, "RUNNING");
    CHECK_STR(snap.name, name);
    byoc_job_info_free(&snap);

    put_lines(c, stream, 6, 10, t0);
    byoc_job_monitor_poke(m);
    pump(q, &s, ten_lines, 60);
    set_status(name, "COMPLETED");
    byoc_job_monitor_poke(m);
    pump(q, &s, finished, 120);
    CHECK(s.done);
    CHECK(!s.error);
    CHECK_STR(s.final.status, "COMPLETED");
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
    byoc_metrics *mx = byoc_job_monitor_metrics(m);
    byoc_metrics_lock(mx);
    const byoc_metric_series *loss = byoc_metrics_find(mx, "loss");
    CHECK(loss && loss->count == 5 && loss->last == 91.0 && loss->min == 91.0 && loss->max == 99.0);
    byoc_metrics_unlock(mx);
    CHECK_INT(byoc_evq_dropped(q), 0);

    byoc_task_release(t);
    byoc_job_monitor_free(m);
    byoc_evq_free(q);
    byoc_job_info_free(&s.final);
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
    byoc_job_monitor *m = byoc_job_monitor_new(c, arn, byoc_log_source_cwl(c, name, 2));
    byoc_task *t = byoc_job_monitor_start(m, q);
    seen s = {0};
    pump(q, &s, finished, 3); /* it keeps watching: nothing ends it */
    CHECK(!s.done && !s.error);
    byoc_task_cancel(t);
    pump(q, &s, finished, 30);
    CHECK(s.error);
    CHECK_INT(s.err.kind, BYOC_E_CANCELLED);
    byoc_task_release(t);
    byoc_job_monitor_free(m);
    byoc_evq_free(q);

    /* once: one GetJob, one log read, back at once */
    byoc_job_watch w = {.job_arn = arn, .once = true};
    byoc_job_info final;
    byoc_err err;
    CHECK_INT(byoc_job_watch_run(c, NULL, &w, &final, &err), 0);
    CHECK_STR(final.status, "RUNNING");
    CHECK_INT(final.instance_count, 2);
    byoc_job_info_free(&final);
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

static void test_screen_tasks(byoc_aws_client *c)
{
    byoc_evq *q = byoc_evq_new();
    void *res = NULL;
    byoc_err err;
    byoc_err_clear(&err);

    const char *running[] = {"RUNNING"};
    byoc_job_query jq = {.statuses = running, .n_statuses = 1, .max = 5};
    CHECK(finish(q, byoc_jobs_list_start(q, c, &jq), &res, &err));
    json_t *jobs = res;
    CHECK(json_array_size(jobs) >= 1 && json_array_size(jobs) <= 5);
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j) CHECK_STR(json_string_value(json_object_get(j, "status")), "RUNNING");
    json_decref(jobs);

    char name[64];
    snprintf(name, sizeof name, "mon%s-task", run_id);
    char *arn = NULL;
    CHECK_INT(byoc_jobref_resolve(c, NULL, name, &arn, &err), 0);
    CHECK(finish(q, byoc_job_status_start(q, c, arn), &res, &err));
    json_t *st = res;
    CHECK_STR(json_string_value(json_object_get(st, "status")), "COMPLETED");
    CHECK_INT(json_integer_value(json_object_get(json_object_get(json_object_get(st, "metrics"), "loss"), "count")), 5);
    json_decref(st);

    res = NULL;
    CHECK(!finish(q, byoc_job_cancel_start(q, c, arn), &res, &err));
    CHECK(strstr(err.message, "already ended (COMPLETED)") != NULL);

    CHECK(!finish(q, byoc_results_fetch_start(q, c, name, "s3://byoc-no-such-bucket-x/out", "/tmp/never-made"), &res,
                  &err));
    CHECK(err.kind == BYOC_E_FAILED && err.message[0]);
    CHECK(access("/tmp/never-made", F_OK) != 0);

    char quiet[64];
    snprintf(quiet, sizeof quiet, "mon%s-quiet", run_id);
    char *qarn = NULL;
    CHECK_INT(byoc_jobref_resolve(c, NULL, quiet, &qarn, &err), 0);
    CHECK(finish(q, byoc_job_cancel_start(q, c, qarn), &res, &err));
    CHECK_STR(res, "CANCELLING");
    free(res);
    free(qarn);
    free(arn);
    byoc_evq_free(q);
}

int main(void)
{
    account = check_env("BYOC_TEST_ACCOUNT");
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
    byoc_aws_client_free(c);
    byoc_http_global_cleanup();
    return check_done();
}
