/* jobs (backend/byoc/jobs.h): the plain calls the verbs make, for local jobs
 * (a record in a private XDG_STATE_HOME and the jobs' output directories):
 * open, status with the metrics of log.txt, the listing, the log read once
 * and followed to a failed end, the results, and a cancel of a job not there. */
#include <stdlib.h>
#include <string.h>

#include "byoc/jobs.h"
#include "byoc/results.h"
#include "check.h"
#include "core/buf.h"
#include "core/str.h"

static void record(const char *tmp, const char *name, const char *status, const char *failure, const char *log)
{
    byoc_local_job j = {0};
    j.name = byoc_xstrdup(name);
    j.created = byoc_xstrdup("2026-01-01T00:00:00.000Z");
    j.started = byoc_xstrdup("2026-01-01T00:00:01.000Z");
    j.ended = byoc_xstrdup("2026-01-01T00:01:00.000Z");
    j.status = byoc_xstrdup(status);
    j.failure_reason = byoc_xstrdup_opt(failure);
    j.image = byoc_xstrdup("byoc-test/local:1");
    j.device = byoc_xstrdup("local:braket/braket.local.qubit");
    j.output_dir = byoc_xasprintf("%s/%s", tmp, name);
    char *rel = byoc_xasprintf("%s/log.txt", name);
    check_write_file(tmp, rel, log, (size_t)-1);
    free(rel);
    rel = byoc_xasprintf("%s/model.txt", name);
    check_write_file(tmp, rel, "weights\n", (size_t)-1);
    free(rel);
    byoc_err err;
    CHECK_INT(byoc_localjobs_put(NULL, &j, &err), 0);
    byoc_local_job_clear(&j);
}

static byoc_jobs_args *open_job(const char *ref)
{
    byoc_jobs_args *a = NULL;
    byoc_err err;
    CHECK_INT(byoc_jobs_open(NULL, NULL, ref, NULL, &a, &err), 0);
    CHECK(a && !a->client);
    CHECK_STR(a ? a->job : NULL, ref);
    return a;
}

static void test_status(void)
{
    byoc_jobs_args *a = open_job("local:job/job-ok");
    byoc_err warn, err;
    json_t *doc = byoc_jobs_status(a, NULL, &warn, &err);
    CHECK(doc != NULL);
    CHECK_INT(warn.kind, BYOC_OK);
    CHECK_STR(json_string_value(json_object_get(doc, "status")), "COMPLETED");
    CHECK_STR(json_string_value(json_object_get(doc, "job_arn")), "local:job/job-ok");
    json_t *loss = json_object_get(json_object_get(doc, "metrics"), "loss");
    CHECK(json_real_value(json_object_get(loss, "last")) == 0.25);
    json_decref(doc);
    byoc_jobs_args_free(a);

    a = open_job("local:job/never-ran");
    CHECK(byoc_jobs_status(a, NULL, &warn, &err) == NULL);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(strstr(err.message, "no local job never-ran") != NULL);
    byoc_jobs_args_free(a);
}

static void test_list(void)
{
    byoc_err err;
    json_t *all = byoc_jobs_local_summaries(NULL, 0, 100, &err);
    CHECK_INT(json_array_size(all), 2);
    json_decref(all);
    const char *failed[] = {"FAILED"};
    json_t *some = byoc_jobs_local_summaries(failed, 1, 100, &err);
    CHECK_INT(json_array_size(some), 1);
    CHECK_STR(json_string_value(json_object_get(json_array_get(some, 0), "job_arn")), "local:job/job-bad");
    CHECK(json_is_true(json_object_get(json_array_get(some, 0), "local")));
    json_decref(some);
}

typedef struct seen {
    byoc_buf text;
    int no_log;
} seen;

static void on_line(const byoc_log_line *l, void *ud)
{
    seen *s = ud;
    byoc_buf_append(&s->text, l->message, l->len);
    byoc_buf_putc(&s->text, '\n');
}

static void on_no_log(const char *name, const char *status, void *ud)
{
    ((seen *)ud)->no_log++;
}

static void test_logs(void)
{
    byoc_jobs_args *a = open_job("local:job/job-bad");
    seen s = {.text = BYOC_BUF_INIT};
    byoc_jobs_reader r = {.on_line = on_line, .on_no_log = on_no_log, .ud = &s};
    byoc_err err;
    CHECK_INT(byoc_jobs_logs(a, NULL, false, &r, &err), 0);
    CHECK_STR(byoc_buf_str(&s.text), "starting\nRuntimeError: failing on purpose\n");
    CHECK_INT(s.no_log, 0);
    byoc_buf_reset(&s.text);
    /* followed: the job ended FAILED, which is the verb's exit 1 */
    CHECK_INT(byoc_jobs_logs(a, NULL, true, &r, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(strstr(err.message, "job job-bad ended FAILED: RuntimeError") != NULL);
    CHECK_STR(byoc_buf_str(&s.text), "starting\nRuntimeError: failing on purpose\n");
    byoc_buf_clear(&s.text);
    byoc_jobs_args_free(a);
}

static void test_results_and_cancel(void)
{
    byoc_jobs_args *a = open_job("local:job/job-ok");
    byoc_unpacked u = {0};
    byoc_err err;
    CHECK_INT(byoc_jobs_results(a, NULL, &u, &err), 0);
    CHECK_INT(u.files.n, 1);
    CHECK_STR(u.files.n ? u.files.v[0] : NULL, "model.txt");
    byoc_unpacked_clear(&u);
    byoc_jobs_args_free(a);

    a = open_job("local:job/never-ran");
    char status[32];
    CHECK_INT(byoc_jobs_cancel(a, NULL, status, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(strstr(err.message, "no local job") != NULL);
    byoc_jobs_args_free(a);
}

int main(void)
{
    char *tmp = check_tmpdir();
    char *state = byoc_xasprintf("%s/state", tmp);
    setenv("XDG_STATE_HOME", state, 1);
    record(tmp, "job-ok", "COMPLETED", NULL, "Metrics - timestamp=1700000000.0; loss=0.25; iteration_number=1;\n");
    record(tmp, "job-bad", "FAILED", "RuntimeError: failing on purpose",
           "starting\nRuntimeError: failing on purpose\n");
    test_status();
    test_list();
    test_logs();
    test_results_and_cancel();
    check_rm_tree(tmp);
    free(state);
    free(tmp);
    return check_done();
}
