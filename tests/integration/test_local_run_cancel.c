/* Cancelling a local job from elsewhere, as the Monitor does (byoc_local_job_cancel,
 * backend/byoc/localjobs.h), against the test engine:
 *   - a live `byoc run --local` (another process): it gets SIGTERM and does what Ctrl-C does
 *     (exit 1, CANCELLED recorded, no container left);
 *   - a stale record (its byoc process is gone, its container still runs), cancelled through
 *     the jobs module's cancel task on an engine holder as the Monitor's: the container is
 *     killed and removed here and the record says CANCELLED;
 *   - a job that ended, or one this process runs, is refused. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "byoc/jobs.h"
#include "byoc/localjobs.h"
#include "byoc/localrun.h"
#include "check.h"
#include "core/buf.h"
#include "docker/build.h"
#include "docker/containers.h"
#include "docker/engine.h"
#include "docker/images.h"

static char *g_tmp;
static char g_image[64];

static void write_file(const char *path, const char *content)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
}

static void rm_rf(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", path, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
}

static void nap(void)
{
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
}

/* An image whose own entry point prints a line and sleeps (it ignores `train`). */
static int build_image(byoc_engine *e)
{
    char *ctx = byoc_xasprintf("%s/ctx", g_tmp);
    mkdir(ctx, 0700);
    char *df = byoc_xasprintf("%s/Dockerfile", ctx);
    write_file(df, "FROM byoc-test/busybox:1\nENTRYPOINT [\"sh\", \"-c\", \"echo READY; exec sleep 600\", \"sh\"]\n");
    snprintf(g_image, sizeof g_image, "byoc-test/local-cancel:%ld", (long)getpid());
    const char *tags[] = {g_image};
    byoc_build_opts o = {.context_dir = ctx, .tags = tags, .n_tags = 1, .network = "none"};
    byoc_build_result res;
    byoc_err err;
    int rc = byoc_build_run(e, NULL, &o, &res, &err);
    if (rc == 0)
        byoc_build_result_clear(&res);
    else
        fprintf(stderr, "build: %s\n", err.message);
    free(df);
    free(ctx);
    return rc;
}

static const byoc_local_job *wait_for(byoc_local_jobs *l, const char *name, bool started)
{
    for (int i = 0; i < 1200; i++) {
        byoc_err err;
        byoc_local_jobs_clear(l);
        if (byoc_localjobs_load(NULL, l, &err) == 0) {
            const byoc_local_job *j = byoc_localjobs_find(l, name);
            if (j && (!started || j->started))
                return j;
        }
        nap();
    }
    return NULL;
}

static size_t labelled(byoc_engine *e, const char *name)
{
    char *label = byoc_xasprintf(BYOC_LOCAL_LABEL "=%s", name);
    json_t *filters = json_pack("{s:[s]}", "label", label);
    json_t *list = NULL;
    byoc_err err;
    size_t n = byoc_containers_list(e, NULL, true, filters, &list, &err) == 0 ? json_array_size(list) : 999;
    json_decref(list);
    json_decref(filters);
    free(label);
    return n;
}

static void test_live(byoc_engine *e)
{
    char *src = byoc_xasprintf("%s/algo.py", g_tmp);
    write_file(src, "print('unused: the image has its own entry point')\n");
    char *out = byoc_xasprintf("%s/out", g_tmp);
    mkdir(out, 0700);
    char name[64];
    snprintf(name, sizeof name, "cancel-live-%ld", (long)getpid());
    char *err_path = byoc_xasprintf("%s/stderr.txt", g_tmp);
    pid_t pid = fork();
    if (pid == 0) {
        if (chdir(out) != 0)
            _exit(126);
        int devnull = open("/dev/null", O_RDWR);
        int errfd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(errfd, 2);
        execl(check_env("BYOC_BIN"), "byoc", "run", "--local", "--image-uri", g_image, "--source-module", src,
              "--job-name", name, (char *)NULL);
        _exit(127);
    }
    byoc_local_jobs l = {0};
    const byoc_local_job *j = wait_for(&l, name, true);
    CHECK(j != NULL);
    if (!j) {
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        free(err_path);
        free(out);
        free(src);
        return;
    }
    CHECK_STR(j->status, "RUNNING");
    CHECK_INT(j->pid, pid);
    CHECK(!byoc_local_job_stale(j));
    CHECK_INT(labelled(e, name), 1);

    char status[16];
    byoc_err err;
    CHECK_INT(byoc_local_job_cancel(e, NULL, j, status, &err), 0);
    CHECK_STR(status, "CANCELLING");
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
    char *stderr_text = check_read_file(err_path, NULL);
    CHECK(stderr_text && strstr(stderr_text, "was cancelled") != NULL);
    CHECK(stderr_text && !strstr(stderr_text, "Sanitizer") && !strstr(stderr_text, "runtime error:"));
    free(stderr_text);
    j = wait_for(&l, name, false);
    CHECK(j && strcmp(j->status, "CANCELLED") == 0);
    CHECK(j && j->ended != NULL && j->pid == 0);
    CHECK_INT(labelled(e, name), 0);
    char *log = j ? byoc_local_job_log_path(j) : NULL;
    char *text = log ? check_read_file(log, NULL) : NULL;
    CHECK(text && strstr(text, "READY") != NULL);

    /* it ended: nothing to cancel */
    if (j) {
        CHECK(byoc_local_job_cancel(e, NULL, j, status, &err) != 0);
        CHECK_INT(err.kind, BYOC_E_FAILED);
        CHECK(strstr(err.message, "already ended") != NULL);
    }
    free(text);
    free(log);
    byoc_local_jobs_clear(&l);
    free(err_path);
    free(out);
    free(src);
}

static void test_stale(byoc_engine *e)
{
    char name[64];
    snprintf(name, sizeof name, "cancel-stale-%ld", (long)getpid());
    char *label = byoc_xasprintf(BYOC_LOCAL_LABEL "=%s", name);
    const char *labels[] = {label};
    byoc_container_spec cs = {.image = g_image, .labels = labels, .n_labels = 1, .network_mode = "none"};
    char *id = NULL;
    byoc_err err;
    CHECK_INT(byoc_container_create(e, NULL, &cs, &id, &err), 0);
    CHECK_INT(byoc_container_start(e, NULL, id, &err), 0);

    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0);
    byoc_local_job rec = {0};
    rec.name = byoc_xstrdup(name);
    rec.status = byoc_xstrdup("RUNNING");
    char now[32];
    byoc_local_job_now(now, sizeof now);
    rec.created = byoc_xstrdup(now);
    rec.container_id = byoc_xstrdup(id ? id : "none");
    rec.pid = (long)gone; /* the byoc that ran it was killed */
    CHECK_INT(byoc_localjobs_put(NULL, &rec, &err), 0);

    byoc_local_jobs l = {0};
    const byoc_local_job *j = wait_for(&l, name, false);
    CHECK(j && byoc_local_job_stale(j));
    char status[16];
    if (j) {
        /* as the Monitor cancels it: the jobs module's cancel task, on the app's engine */
        byoc_engines *holder = byoc_engines_new();
        unsigned long before = byoc_engine_count_made();
        char *ref = byoc_xasprintf("local:job/%s", name);
        byoc_jobs_args *a = byoc_jobs_args_pooled(NULL, holder, NULL, NULL, ref);
        void *result = NULL;
        void (*result_free)(void *) = NULL;
        CHECK_INT(byoc_task_run_sync("cancel job", byoc_jobs_cancel_task, a, &result, &result_free, &err, NULL, NULL),
                  0);
        CHECK(result && strcmp(result, "CANCELLED") == 0);
        if (result_free)
            result_free(result);
        CHECK_INT(byoc_engines_made(holder), 1);
        CHECK_INT(byoc_engine_count_made() - before, 1);   /* the holder's, and no other */
        byoc_jobs_args_free(a);
        byoc_engines_free(holder);
        free(ref);
    }
    json_t *doc = NULL;
    CHECK(byoc_container_inspect(e, NULL, id, &doc, &err) != 0 && err.http_status == 404);
    json_decref(doc);
    j = wait_for(&l, name, false);
    CHECK(j && strcmp(j->status, "CANCELLED") == 0 && j->ended && j->pid == 0);

    /* a job this very process runs is its task's to cancel */
    free(rec.status);
    rec.status = byoc_xstrdup("RUNNING");
    rec.pid = (long)getpid();
    CHECK(byoc_local_job_cancel(e, NULL, &rec, status, &err) != 0);
    CHECK_INT(err.kind, BYOC_E_USAGE);

    byoc_local_jobs_clear(&l);
    byoc_local_job_clear(&rec);
    free(id);
    free(label);
}

int main(void)
{
    check_env("DOCKER_HOST");
    check_env("BYOC_BIN");
    g_tmp = check_tmpdir();
    char *state = byoc_xasprintf("%s/state", g_tmp);
    setenv("XDG_STATE_HOME", state, 1);
    byoc_engine *e = NULL;
    byoc_err err;
    CHECK_INT(byoc_engine_new(&e, &err), 0);
    if (e && build_image(e) == 0) {
        test_stale(e);
        test_live(e);
        byoc_image_remove(e, NULL, g_image, true, false, NULL, &err);
    } else {
        CHECK(!"the test image was built");
    }
    byoc_engine_free(e);
    rm_rf(g_tmp);
    free(state);
    free(g_tmp);
    return check_done();
}
