/* localjobs: the record of local-mode jobs (backend/byoc/localjobs.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "byoc/localjobs.h"
#include "check.h"
#include "core/buf.h"

static byoc_local_job make_job(const char *name, const char *created, const char *status)
{
    byoc_local_job j = {0};
    j.name = byoc_xstrdup(name);
    j.created = byoc_xstrdup(created);
    j.status = byoc_xstrdup(status);
    j.image = byoc_xstrdup("byoc-test/local:1");
    j.device = byoc_xstrdup("local:braket/braket.local.qubit");
    j.output_dir = byoc_xasprintf("/tmp/out/%s", name);
    return j;
}

static int file_mode(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (int)(st.st_mode & 07777) : -1;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

static void test_round_trip(const char *tmp)
{
    char *path = byoc_xasprintf("%s/state/byoc/local-jobs.json", tmp);
    byoc_err err;
    byoc_err_clear(&err);
    byoc_local_jobs l;
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0); /* missing file: empty */
    CHECK_INT(l.n, 0);
    byoc_local_jobs_clear(&l);

    byoc_local_job a = make_job("job-a", "2026-01-01T00:00:00.000Z", "RUNNING");
    a.container_id = byoc_xstrdup("abc123");
    a.pid = (long)getpid();
    CHECK_INT(byoc_localjobs_put(path, &a, &err), 0);
    byoc_local_job b = make_job("job-b", "2026-01-02T00:00:00.000Z", "FAILED");
    b.has_exit_code = true;
    b.exit_code = 1;
    b.failure_reason = byoc_xstrdup("RuntimeError: failing on purpose");
    b.ended = byoc_xstrdup("2026-01-02T00:01:00.000Z");
    CHECK_INT(byoc_localjobs_put(path, &b, &err), 0);

    CHECK_INT(file_mode(path), 0600);
    char *dir = byoc_xasprintf("%s/state/byoc", tmp);
    CHECK_INT(file_mode(dir), 0700);
    CHECK_INT(count_entries(dir), 2); /* the record and its lock; no temporary left */

    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, 2);
    CHECK_STR(l.items[0].name, "job-b"); /* newest first */
    CHECK_STR(l.items[1].name, "job-a");
    CHECK(l.items[0].has_exit_code && l.items[0].exit_code == 1);
    CHECK_STR(l.items[0].failure_reason, "RuntimeError: failing on purpose");
    CHECK(!l.items[1].has_exit_code);
    CHECK_STR(l.items[1].container_id, "abc123");
    CHECK(!byoc_local_job_stale(&l.items[1])); /* this process is alive */
    const byoc_local_job *f = byoc_localjobs_find(&l, "local:job/job-a");
    CHECK(f && strcmp(f->name, "job-a") == 0);
    CHECK(byoc_localjobs_find(&l, "job-b") == &l.items[0]);
    CHECK(byoc_localjobs_find(&l, "nope") == NULL);

    json_t *arr = byoc_local_jobs_json(&l);
    json_t *first = json_array_get(arr, 0);
    CHECK_STR(json_string_value(json_object_get(first, "job_arn")), "local:job/job-b");
    CHECK_STR(json_string_value(json_object_get(first, "status")), "FAILED");
    CHECK_STR(json_string_value(json_object_get(first, "device")), "local:braket/braket.local.qubit");
    CHECK(json_is_true(json_object_get(first, "local")));
    CHECK_INT(json_integer_value(json_object_get(first, "exit_code")), 1);
    CHECK(json_is_null(json_object_get(json_array_get(arr, 1), "exit_code")));
    json_decref(arr);
    byoc_local_jobs_clear(&l);

    /* the same name replaces the record */
    free(a.status);
    a.status = byoc_xstrdup("CANCELLED");
    a.pid = 0;
    a.has_exit_code = true;
    a.exit_code = 137;
    CHECK_INT(byoc_localjobs_put(path, &a, &err), 0);
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, 2);
    f = byoc_localjobs_find(&l, "job-a");
    CHECK(f && strcmp(f->status, "CANCELLED") == 0 && f->exit_code == 137);
    byoc_local_jobs_clear(&l);

    bool found = false;
    CHECK_INT(byoc_localjobs_remove(path, "local:job/job-b", &found, &err), 0);
    CHECK(found);
    CHECK_INT(byoc_localjobs_remove(path, "job-b", &found, &err), 0);
    CHECK(!found);
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, 1);
    byoc_local_jobs_clear(&l);

    byoc_local_job_clear(&a);
    byoc_local_job_clear(&b);
    free(dir);
    free(path);
}

static void test_default_path(const char *tmp)
{
    char *state = byoc_xasprintf("%s/xdg", tmp);
    setenv("XDG_STATE_HOME", state, 1);
    char *p = byoc_localjobs_default_path();
    char *want = byoc_xasprintf("%s/byoc/local-jobs.json", state);
    CHECK_STR(p, want);
    byoc_err err;
    byoc_local_job j = make_job("job-default", "2026-02-01T00:00:00.000Z", "COMPLETED");
    CHECK_INT(byoc_localjobs_put(NULL, &j, &err), 0);
    CHECK_INT(file_mode(want), 0600);
    byoc_local_jobs l;
    CHECK_INT(byoc_localjobs_load(NULL, &l, &err), 0);
    CHECK_INT(l.n, 1);
    byoc_local_jobs_clear(&l);
    byoc_local_job_clear(&j);
    free(want);
    free(p);
    free(state);
}

static void test_stale(void)
{
    byoc_local_job j = make_job("job-stale", "2026-01-01T00:00:00.000Z", "RUNNING");
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    j.pid = (long)child; /* reaped: no such process now (pids are not reused this fast in practice) */
    CHECK(byoc_local_job_stale(&j));
    j.pid = 0;
    CHECK(byoc_local_job_stale(&j));
    free(j.status);
    j.status = byoc_xstrdup("COMPLETED");
    CHECK(!byoc_local_job_stale(&j));
    byoc_local_job_clear(&j);
}

static void test_unreadable_record(const char *tmp)
{
    char *path = byoc_xasprintf("%s/bad/local-jobs.json", tmp);
    char *dir = byoc_xasprintf("%s/bad", tmp);
    mkdir(dir, 0700);
    FILE *fp = fopen(path, "w");
    fputs("{not json", fp);
    fclose(fp);
    byoc_err err;
    byoc_err_clear(&err);
    byoc_local_jobs l;
    CHECK(byoc_localjobs_load(path, &l, &err) != 0);
    CHECK(strstr(err.message, "not byoc's local job record") != NULL);
    /* recording still works; the old file is kept aside */
    byoc_local_job j = make_job("job-x", "2026-01-01T00:00:00.000Z", "COMPLETED");
    CHECK_INT(byoc_localjobs_put(path, &j, &err), 0);
    char *aside = byoc_xasprintf("%s.unreadable", path);
    CHECK(access(aside, F_OK) == 0);
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, 1);
    byoc_local_jobs_clear(&l);
    byoc_local_job_clear(&j);
    free(aside);
    free(dir);
    free(path);
}

static void test_limit(const char *tmp)
{
    char *path = byoc_xasprintf("%s/limit.json", tmp);
    json_t *jobs = json_array();
    for (int i = 0; i < BYOC_LOCALJOBS_MAX + 5; i++) {
        char name[32], created[40];
        snprintf(name, sizeof name, "job-%04d", i);
        snprintf(created, sizeof created, "2025-01-01T00:%02d:%02d.000Z", i / 60 % 60, i % 60);
        byoc_local_job j = make_job(name, created, "COMPLETED");
        /* distinct, ordered times: */
        free(j.created);
        j.created = byoc_xasprintf("2025-01-%02dT%02d:%02d:00.000Z", 1 + i / 1440, i / 60 % 24, i % 60);
        json_array_append_new(jobs, byoc_local_job_json(&j));
        byoc_local_job_clear(&j);
    }
    json_t *doc = json_pack("{s:i,s:o}", "version", 1, "jobs", jobs);
    json_dump_file(doc, path, 0);
    json_decref(doc);
    byoc_err err;
    byoc_local_job newest = make_job("job-newest", "2030-01-01T00:00:00.000Z", "COMPLETED");
    CHECK_INT(byoc_localjobs_put(path, &newest, &err), 0);
    byoc_local_jobs l;
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, BYOC_LOCALJOBS_MAX);
    CHECK_STR(l.items[0].name, "job-newest");
    CHECK(byoc_localjobs_find(&l, "job-0000") == NULL); /* the oldest went */
    CHECK(byoc_localjobs_find(&l, "job-1004") != NULL);
    byoc_local_jobs_clear(&l);
    byoc_local_job_clear(&newest);
    free(path);
}

/* Several processes recording at once: every job lands (the flock serialises them). */
static void test_concurrent(const char *tmp)
{
    char *path = byoc_xasprintf("%s/conc/local-jobs.json", tmp);
    enum { PROCS = 6, EACH = 15 };
    pid_t pids[PROCS];
    for (int p = 0; p < PROCS; p++) {
        pids[p] = fork();
        if (pids[p] == 0) {
            int bad = 0;
            for (int i = 0; i < EACH; i++) {
                char name[32], created[40];
                snprintf(name, sizeof name, "p%d-j%d", p, i);
                snprintf(created, sizeof created, "2026-03-01T00:%02d:%02d.000Z", p, i);
                byoc_local_job j = make_job(name, created, "COMPLETED");
                byoc_err err;
                bad += byoc_localjobs_put(path, &j, &err) != 0;
                byoc_local_job_clear(&j);
            }
            free(path); /* the child's copy: leak checkers look at children too */
            _exit(bad ? 1 : 0);
        }
    }
    int ok = 1;
    for (int p = 0; p < PROCS; p++) {
        int status = 0;
        waitpid(pids[p], &status, 0);
        ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    CHECK(ok);
    byoc_err err;
    byoc_local_jobs l;
    CHECK_INT(byoc_localjobs_load(path, &l, &err), 0);
    CHECK_INT(l.n, PROCS * EACH);
    byoc_local_jobs_clear(&l);
    free(path);
}

static void test_names(void)
{
    char *arn = byoc_local_job_arn("my-job");
    CHECK_STR(arn, "local:job/my-job");
    CHECK_STR(byoc_local_job_name_of(arn), "my-job");
    CHECK_STR(byoc_local_job_name_of("my-job"), "my-job");
    free(arn);
    char now[32];
    byoc_local_job_now(now, sizeof now);
    CHECK_INT(strlen(now), 24);
    CHECK(now[10] == 'T' && now[19] == '.' && now[23] == 'Z');
}

int main(void)
{
    char *tmp = check_tmpdir();
    test_names();
    test_round_trip(tmp);
    test_default_path(tmp);
    test_stale();
    test_unreadable_record(tmp);
    test_limit(tmp);
    test_concurrent(tmp);
    char *argv[] = {"rm", "-rf", tmp, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execvp("rm", argv);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    free(tmp);
    return check_done();
}
