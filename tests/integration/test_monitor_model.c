/* The Monitor's model against the CLI's answer, for an AWS job (on the
 * topology's Braket stand-in, its log in moto's CloudWatch Logs) and for a
 * local job (a record in a private local-jobs.json and its log.txt).
 *
 * The Monitor side is what the screens hold after the jobs module's tasks
 * ran (byoc/jobs.h), taken in with the screens' own model code: the job
 * view's tui_job_model (its state, its description, the log lines it shows,
 * the metrics store it draws), and the table's row from the list task. The
 * CLI side is `byoc status --json`, the job's entry in `byoc jobs --json`,
 * and `byoc logs`, run as the user runs them.
 *
 * They agree on: the status, the created/started/ended times (the same ISO
 * text; the table's row holds them as epoch seconds), the device, the
 * instance count, every metric's count and last value, and the log lines.
 * Where they legitimately differ:
 *   - the instance type: the Monitor shows it (the row's "ml.m5.large", the
 *     description's instanceConfig); the CLI prints only instance_count. A
 *     local job's row says "local", which no verb prints.
 *   - the log lines: the Monitor tags every line of an AWS job with its
 *     instance ("[algo-1] text", coloured per instance); `byoc logs` tags them
 *     only when the job has several instances. Compared without the tag.
 *   - the state document: the Monitor's has no "metrics" (it draws them from
 *     its own store, fed line by line), the CLI's summarises them. */
#include "check.h"
#include "standin_jobs.h"

#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "byoc/jobs.h"
#include "byoc/localjobs.h"
#include "byoc/metrics.h"
#include "core/buf.h"
#include "job_model.h"

extern char **environ;

static char run_id[16];

/* `byoc ARGS...`: its standard output (malloc'd) and exit status. */
static char *byoc(int *status, const char *a1, const char *a2, const char *a3)
{
    const char *argv[] = {"byoc", a1, a2, a3, NULL};
    int fds[2];
    if (pipe(fds) != 0)
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    int rc = posix_spawn(&pid, check_env("BYOC_BIN"), &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    byoc_buf out = BYOC_BUF_INIT;
    char buf[4096];
    ssize_t n;
    while (rc == 0 && (n = read(fds[0], buf, sizeof buf)) > 0)
        byoc_buf_append(&out, buf, (size_t)n);
    close(fds[0]);
    *status = -1;
    if (rc == 0 && waitpid(pid, status, 0) == pid && WIFEXITED(*status))
        *status = WEXITSTATUS(*status);
    byoc_buf_append(&out, "", 1);
    return byoc_buf_steal(&out);
}

static json_t *byoc_json(const char *a1, const char *a2, const char *a3)
{
    int status;
    char *out = byoc(&status, a1, a2, a3);
    CHECK_INT(status, 0);
    json_t *doc = out ? json_loads(out, 0, NULL) : NULL;
    if (!doc)
        fprintf(stderr, "byoc %s %s %s: not JSON: %s\n", a1, a2, a3 ? a3 : "", out ? out : "");
    free(out);
    return doc;
}

static const char *text(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* ---- the Monitor's side ---- */

typedef struct monitor {
    tui_job_model m;             /* the job view's model */
    char *lines[64];             /* the lines its Logs tab got */
    int nlines;
    byoc_jobs_shared *shared;    /* its metrics store */
    byoc_job_rows rows;          /* the table's rows */
} monitor;

static void on_line(const char *line, double ts, void *ud)
{
    (void)ts;
    monitor *mon = ud;
    if (mon->nlines < 64)
        mon->lines[mon->nlines++] = strdup(line);
}

/* Run the watch task on job as the job view does, until it ended; then the list task. */
static void monitor_fill(monitor *mon, byoc_aws_client *c, const char *job)
{
    byoc_evq *q = byoc_evq_new();
    mon->shared = byoc_jobs_shared_new();
    byoc_jobs_args *a = byoc_jobs_args_new(c, job);
    a->shared = byoc_jobs_shared_ref(mon->shared);
    byoc_task *t = byoc_task_start(q, "watch job", byoc_jobs_watch_task, a, byoc_jobs_args_free);
    mon->m.watching = true;
    time_t end = time(NULL) + 120;   /* a guard, not a timing check */
    while (mon->m.watching && time(NULL) < end) {
        if (!byoc_evq_wait(q, 200))
            continue;
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            tui_job_model_event(&mon->m, &ev, on_line, mon);
            byoc_event_release(&ev);
        }
    }
    CHECK(mon->m.ended);
    CHECK(!mon->m.error);
    byoc_task_release(t);

    byoc_jobs_lister *l = byoc_jobs_lister_new();
    a = byoc_jobs_args_new(c, NULL);
    a->lister = byoc_jobs_lister_ref(l);
    t = byoc_task_start(q, "list jobs", byoc_jobs_list_task, a, byoc_jobs_args_free);
    byoc_task_join(t);
    byoc_task_release(t);
    byoc_job_rows_init(&mon->rows);
    byoc_jobs_lister_take(l, &mon->rows);
    byoc_jobs_lister_unref(l);
    byoc_evq_free(q);
}

static void monitor_free(monitor *mon)
{
    tui_job_model_clear(&mon->m);
    for (int i = 0; i < mon->nlines; i++)
        free(mon->lines[i]);
    byoc_jobs_shared_unref(mon->shared);
    byoc_job_rows_clear(&mon->rows);
}

static const byoc_job_row *row_of(const monitor *mon, const char *arn)
{
    for (size_t i = 0; i < mon->rows.n; i++)
        if (strcmp(mon->rows.items[i].arn, arn) == 0)
            return &mon->rows.items[i];
    return NULL;
}

/* ---- the comparison ---- */

static double epoch(const char *iso)
{
    struct tm tm = {0};
    const char *rest = iso && *iso ? strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
    return rest ? (double)timegm(&tm) : NAN;
}

static void same_time(const char *key, const json_t *status, const json_t *model, double row)
{
    CHECK_STR(text(model, key), text(status, key));
    if (*text(status, key))
        CHECK(fabs(row - epoch(text(status, key))) < 1.0);
    else
        CHECK(isnan(row));
}

/* Both without key, or the same value (json_equal refuses two NULLs). */
static void same_member(const char *key, const json_t *status, const json_t *model)
{
    const json_t *a = json_object_get(status, key), *b = json_object_get(model, key);
    if (a || b)
        CHECK(a && b && json_equal(a, b));
}

/* What `byoc status --json` and `byoc jobs --json` say of job against what the Monitor holds. */
static void compare(const monitor *mon, const char *arn)
{
    json_t *st = byoc_json("status", "--json", arn);
    json_t *list = byoc_json("jobs", "--json", NULL);
    const json_t *model = mon->m.job;
    CHECK(st && list && model);
    if (!st || !list || !model)
        goto out;
    const byoc_job_row *row = row_of(mon, arn);
    const json_t *entry = NULL;
    size_t i;
    const json_t *j;
    json_array_foreach(json_object_get(list, "jobs"), i, j) if (strcmp(text(j, "job_arn"), arn) == 0) entry = j;
    CHECK(row && entry);
    if (!row || !entry)
        goto out;

    CHECK_STR(text(model, "status"), text(st, "status"));
    CHECK_STR(row->status, text(st, "status"));
    CHECK_STR(text(entry, "status"), text(st, "status"));
    CHECK_STR(text(model, "job_name"), text(st, "job_name"));
    CHECK_STR(row->name, text(entry, "job_name"));
    CHECK_STR(text(model, "device"), text(st, "device"));
    CHECK_STR(row->device, text(entry, "device"));
    CHECK_STR(text(entry, "created"), text(st, "created"));
    same_time("created", st, model, row->created);
    same_time("started", st, model, row->started);
    same_time("ended", st, model, row->ended);
    same_member("instance_count", st, model);
    same_member("exit_code", st, model);
    same_member("output_dir", st, model);
    CHECK_STR(text(model, "failure_reason"), text(st, "failure_reason"));

    /* every metric the CLI summarises, as the Monitor's store has it */
    const json_t *metrics = json_object_get(st, "metrics");
    CHECK(json_object_size(metrics) >= 1);
    byoc_metrics_lock(mon->shared->metrics);
    const char *name;
    const json_t *m;
    json_object_foreach((json_t *)metrics, name, m) {
        const byoc_metric_series *s = byoc_metrics_find(mon->shared->metrics, name);
        CHECK(s != NULL);
        if (!s)
            continue;
        CHECK_INT((long long)s->count, json_integer_value(json_object_get(m, "count")));
        CHECK(s->last == json_number_value(json_object_get(m, "last")));
    }
    byoc_metrics_unlock(mon->shared->metrics);

    /* the log lines, the Monitor's without their instance tag */
    int status;
    char *logs = byoc(&status, "logs", arn, NULL);
    CHECK_INT(status, 0);
    int k = 0;
    for (char *line = logs, *nl; line && *line; line = nl ? nl + 1 : NULL, k++) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        const char *shown = k < mon->nlines ? mon->lines[k] : "";
        if (shown[0] == '[' && strstr(shown, "] "))
            shown = strstr(shown, "] ") + 2;
        CHECK_STR(shown, line);
    }
    CHECK_INT(k, mon->nlines);
    free(logs);
out:
    json_decref(st);
    json_decref(list);
}

/* ---- the two jobs ---- */

static void test_aws_job(byoc_aws_client *c)
{
    char name[64], stream[160];
    snprintf(name, sizeof name, "model%s-aws", run_id);
    char *arn = create_logged_job(c, name, run_id, stream, sizeof stream);
    if (!arn)
        return;
    put_lines(c, stream, 0, 8, now_ms() - 600000);
    set_status(name, "COMPLETED");

    monitor mon = {0};
    monitor_fill(&mon, c, arn);
    CHECK_INT(mon.nlines, 8);
    const byoc_job_row *row = row_of(&mon, arn);
    /* the instance type: the Monitor's alone (the CLI prints only the count) */
    CHECK(row && strcmp(row->instance, "ml.m5.large") == 0);
    CHECK_STR(text(json_object_get(mon.m.config, "instanceConfig"), "instanceType"), "ml.m5.large");
    compare(&mon, arn);
    monitor_free(&mon);
    free(arn);
}

static void test_local_job(byoc_aws_client *c, const char *dir)
{
    char name[64], out[512], log[600];
    snprintf(name, sizeof name, "model%s-local", run_id);
    snprintf(out, sizeof out, "%s/%s", dir, name);
    CHECK_INT(mkdir(out, 0700), 0);
    snprintf(log, sizeof log, "%s/log.txt", out);
    FILE *f = fopen(log, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int i = 0; i < 8; i++) {
        if (i % 2)
            fprintf(f, "Metrics - timestamp=%d; loss=%d; iteration_number=%d;\n", 1700000000 + i, 100 - i, i);
        else
            fprintf(f, "line %d\n", i);
    }
    fclose(f);
    byoc_local_job job = {
        .name = name,
        .image = "byoc-test/model:1",
        .device = "local:none/none",
        .status = "COMPLETED",
        .created = "2026-01-02T03:04:05.000Z",
        .started = "2026-01-02T03:04:06.000Z",
        .ended = "2026-01-02T03:05:07.000Z",
        .has_exit_code = true,
        .exit_code = 0,
        .output_dir = out,
    };
    byoc_err err;
    CHECK_INT(byoc_localjobs_put(NULL, &job, &err), 0);

    char *arn = byoc_local_job_arn(name);
    monitor mon = {0};
    monitor_fill(&mon, c, arn);
    CHECK_INT(mon.nlines, 8);
    const byoc_job_row *row = row_of(&mon, arn);
    CHECK(row && row->local && strcmp(row->instance, "local") == 0);   /* the Monitor's alone */
    compare(&mon, arn);
    monitor_free(&mon);
    free(arn);
}

int main(void)
{
    check_env("BYOC_TEST_ACCOUNT");
    check_env("BYOC_BIN");
    snprintf(run_id, sizeof run_id, "%lx", (unsigned long)time(NULL) ^ (unsigned long)getpid());
    /* a private local jobs record, for this process and the byoc it runs */
    char *dir = check_tmpdir();
    char state[512];
    snprintf(state, sizeof state, "%s/state", dir);
    CHECK_INT(mkdir(state, 0700), 0);
    setenv("XDG_STATE_HOME", state, 1);
    byoc_http_global_init();
    byoc_aws_client *c;
    byoc_err err;
    if (byoc_aws_client_new(NULL, &c, &err) != 0) {
        print_err("client", &err);
        return 1;
    }
    test_aws_job(c);
    test_local_job(c, dir);
    byoc_aws_client_free(c);
    byoc_http_global_cleanup();
    check_rm_tree(dir);
    free(dir);
    return check_done();
}
