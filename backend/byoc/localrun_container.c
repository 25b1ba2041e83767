/* localrun_container: the container of a local run (localrun_container.h). */
#include "byoc/localrun_container.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "byoc/contract.h"
#include "byoc/jobsubmit.h"
#include "core/log.h"
#include "docker/container_files.h"
#include "docker/containers.h"

/* ---- 5. the container ---------------------------------------------------------------------------- */

static bool all_digits(const char *s) { return *s && strspn(s, "0123456789") == strlen(s); }

/* Find name (or a numeric id) in an /etc/passwd- or /etc/group-style text: field 3 and 4. */
static bool lookup_db(const char *text, const char *name, unsigned *id, unsigned *gid)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *l = byoc_xstrndup(line, len);
        char *fields[5] = {0};
        char *p = l;
        int nf = 0;
        for (char *tok; nf < 5 && (tok = strsep(&p, ":"));)
            fields[nf++] = tok;
        bool match = nf >= 3 && (strcmp(fields[0], name) == 0 || (all_digits(name) && strcmp(fields[2], name) == 0));
        if (match) {
            *id = (unsigned)strtoul(fields[2], NULL, 10);
            if (gid)
                *gid = nf >= 4 ? (unsigned)strtoul(fields[3], NULL, 10) : 0;
        }
        free(l);
        if (match)
            return true;
        line = end ? end + 1 : NULL;
    }
    return false;
}

/* The uid/gid the job runs as, so that what byoc puts in is the job's to write. */
void lr_resolve_user(run *r, const char *id)
{
    r->uid = r->gid = 0;
    if (!*r->image_user)
        return;
    char *user = byoc_xstrdup(r->image_user);
    char *group = strchr(user, ':');
    if (group)
        *group++ = '\0';
    bool resolved = true;
    if (all_digits(user) && (!group || all_digits(group))) {
        r->uid = (unsigned)strtoul(user, NULL, 10);
        r->gid = group ? (unsigned)strtoul(group, NULL, 10) : 0;
    }
    if (!all_digits(user) || !group) {
        byoc_err e;
        char *passwd = NULL;
        unsigned uid = 0, gid = 0;
        if (byoc_container_read_file(r->engine, NULL, id, "/etc/passwd", 1 << 20, &passwd, &e) > 0 &&
            lookup_db(passwd, user, &uid, &gid)) {
            r->uid = uid;
            if (!group)
                r->gid = gid;
        } else if (!all_digits(user)) {
            resolved = false;
        }
        free(passwd);
    }
    if (group && !all_digits(group)) {
        byoc_err e;
        char *groups = NULL;
        unsigned gid = 0;
        if (byoc_container_read_file(r->engine, NULL, id, "/etc/group", 1 << 20, &groups, &e) > 0 && lookup_db(groups, group, &gid, NULL))
            r->gid = gid;
        else
            resolved = false;
        free(groups);
    }
    if (!resolved)
        lr_warn(r, "the image's user '%s' is not in its /etc/passwd or /etc/group: the job's directories are root's",
             r->image_user);
    free(user);
}

/* A create cut short by a cancel may still have made the container: find it by its run label. */
static void remove_orphans(run *r, const char *run_label)
{
    json_t *filters = json_pack("{s:[s]}", "label", run_label);
    json_t *list = NULL;
    byoc_err e;
    if (byoc_containers_list(r->engine, NULL, true, filters, &list, &e) == 0) {
        size_t i;
        json_t *c;
        json_array_foreach(list, i, c) {
            const char *id = json_string_value(json_object_get(c, "Id"));
            if (id)
                byoc_container_remove(r->engine, NULL, id, true, true, &e);
        }
    }
    json_decref(list);
    json_decref(filters);
}

int lr_create_container(run *r, byoc_err *err)
{
    static const char *const cmd[] = {"train"};
    char *label = byoc_xasprintf(BYOC_LOCAL_LABEL "=%s", r->out->job_name);
    char *run_label = byoc_xasprintf(BYOC_LOCAL_LABEL ".run=%ld-%s", (long)getpid(), r->timestamp);
    const char *labels[] = {label, run_label};
    byoc_container_spec cs = {
        .image = r->out->image_id,
        .cmd = cmd,
        .n_cmd = 1,
        .env = (const char *const *)r->env.v,
        .n_env = r->env.n,
        .labels = labels,
        .n_labels = 2,
        .network_mode = r->opts->host_network ? "host" : "none",
        .working_dir = BYOC_CONTRACT_CODE_DIR, /* the SDK's LocalQuantumJob: docker exec -w /opt/ml/code/ */
    };
    byoc_task_status(r->t, "creating the container (network %s)", cs.network_mode);
    byoc_task_log(r->t, "byoc: `train` starts in " BYOC_CONTRACT_CODE_DIR ", as in LocalQuantumJob's container");
    int rc = byoc_container_create(r->engine, r->t, &cs, &r->out->container_id, err);
    if (rc != 0 && err->kind == BYOC_E_CANCELLED)
        remove_orphans(r, run_label);
    free(run_label);
    free(label);
    return rc;
}

/* The job's output: LOG events line by line, and log.txt as it comes. */
typedef struct log_sink {
    byoc_task *t;
    FILE *file;
    byoc_buf partial[3];
    struct timespec started;      /* the container started (monotonic) */
    byoc_local_run_result *out;   /* gets the time of the first line */
} log_sink;

static void emit_line(log_sink *ls, byoc_buf *b)
{
    if (!ls->out->has_first_output) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        ls->out->has_first_output = true;
        ls->out->first_output_seconds = (double)(now.tv_sec - ls->started.tv_sec) +
                                        (double)(now.tv_nsec - ls->started.tv_nsec) / 1e9;
    }
    byoc_buf_puts(b, "");
    byoc_redact_inplace(b->data);
    byoc_task_output(ls->t, "%s", b->data);
    if (ls->file) {
        fputs(b->data, ls->file);
        fputc('\n', ls->file);
        fflush(ls->file);
    }
    byoc_buf_reset(b);
}

static int on_output(int stream, const char *p, size_t n, void *ud)
{
    log_sink *ls = ud;
    byoc_buf *b = &ls->partial[stream == BYOC_STREAM_STDERR ? 2 : 1];
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl - p) : n;
        byoc_buf_append(b, p, take);
        if (nl || b->len >= LINE_MAX_BYTES)
            emit_line(ls, b);
        take += nl ? 1 : 0;
        p += take;
        n -= take;
    }
    return 0;
}

/* Kills the container when the max runtime has passed. */
typedef struct watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, fired;
    long seconds;
    byoc_engine *engine;
    const char *id;
} watchdog;

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += w->seconds;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        if (pthread_cond_timedwait(&w->cv, &w->mu, &deadline) == ETIMEDOUT && !w->stop) {
            w->fired = true;
            pthread_mutex_unlock(&w->mu);
            byoc_err e;
            byoc_container_kill(w->engine, NULL, w->id, "KILL", &e);
            return NULL;
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

long lr_max_runtime(const run *r)
{
    long v = r->spec->max_runtime ? strtol(r->spec->max_runtime, NULL, 10) : 0;
    return v > 0 ? v : BYOC_JOB_DEFAULT_MAX_RUNTIME;
}

static void stop_container(run *r, const char *id, run_outcome *o)
{
    byoc_err e;
    byoc_task_status(r->t, "stopping the container");
    byoc_container_kill(r->engine, NULL, id, "KILL", &e);
    int64_t code;
    if (byoc_container_wait(r->engine, NULL, id, "not-running", &code, &e) == 0) {
        r->out->has_exit_code = true;
        r->out->exit_code = (int)code;
    }
    o->cancelled = true;
}

void lr_run_container(run *r, run_outcome *o)
{
    const char *id = r->out->container_id;
    byoc_err e;
    byoc_err_clear(&e);
    log_sink ls = {.t = r->t, .out = r->out};
    clock_gettime(CLOCK_MONOTONIC, &ls.started);
    if (byoc_container_start(r->engine, r->t, id, &e) != 0) {
        if (e.kind == BYOC_E_CANCELLED || byoc_task_cancelled(r->t)) {
            stop_container(r, id, o);
            return;
        }
        o->start_failed = true;
        o->start_error = byoc_xstrdup(e.message);
        return;
    }
    char started[32];
    byoc_local_job_now(started, sizeof started);
    byoc_str_set(&r->record.started, started);
    lr_record(r);
    byoc_task_status(r->t, "RUNNING");

    watchdog w = {.seconds = lr_max_runtime(r), .engine = r->engine, .id = id};
    pthread_mutex_init(&w.mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w.cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_t th;
    bool dog = pthread_create(&th, NULL, watchdog_main, &w) == 0;

    int fd = open(r->out->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666);
    ls.file = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!ls.file) {
        if (fd >= 0)
            close(fd);
        lr_warn(r, "cannot write %s: %s", r->out->log_path, strerror(errno));
    }
    byoc_logs_opts lo = {.follow = true, .tty = 0};
    if (byoc_container_logs(r->engine, r->t, id, &lo, on_output, &ls, &e) != 0 && e.kind != BYOC_E_CANCELLED &&
        !byoc_task_cancelled(r->t))
        lr_warn(r, "the job's output stopped: %s", e.message);
    for (int s = 1; s <= 2; s++) {
        if (ls.partial[s].len)
            emit_line(&ls, &ls.partial[s]);
        byoc_buf_clear(&ls.partial[s]);
    }
    int64_t code = 0;
    int wrc = byoc_task_cancelled(r->t) ? -1 : byoc_container_wait(r->engine, r->t, id, "not-running", &code, &e);
    if (wrc == 0) {
        r->out->has_exit_code = true;
        r->out->exit_code = (int)code;
    } else if (byoc_task_cancelled(r->t) || e.kind == BYOC_E_CANCELLED) {
        stop_container(r, id, o);
    } else {
        lr_warn(r, "waiting for the container: %s", e.message);
        stop_container(r, id, o);
        o->cancelled = false;
    }
    if (dog) {
        pthread_mutex_lock(&w.mu);
        w.stop = true;
        pthread_cond_signal(&w.cv);
        pthread_mutex_unlock(&w.mu);
        pthread_join(th, NULL);
    }
    o->timed_out = w.fired && !o->cancelled;
    pthread_cond_destroy(&w.cv);
    pthread_mutex_destroy(&w.mu);
    if (o->timed_out)
        byoc_task_log(r->t, "the job ran longer than its max runtime (%ld s): stopped", w.seconds);
    if (ls.file) {
        if (o->cancelled)
            fputs("byoc: the job was cancelled; the container was stopped\n", ls.file);
        else if (r->out->has_exit_code && r->out->exit_code != 0) /* the SDK's run_log ends so */
            fprintf(ls.file, "Process exited with code: %d\n", r->out->exit_code);
        fclose(ls.file);
    }
}
