#include "byoc/localjobs.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/str.h"
#include "core/utf8.h"
#include "docker/containers.h"

#define RECORD_VERSION 1

/* ---- one job -------------------------------------------------------------------------- */

void byoc_local_job_clear(byoc_local_job *j)
{
    if (!j)
        return;
    free(j->name);
    free(j->image);
    free(j->image_id);
    free(j->device);
    free(j->status);
    free(j->created);
    free(j->started);
    free(j->ended);
    free(j->failure_reason);
    free(j->output_dir);
    free(j->container_id);
    memset(j, 0, sizeof *j);
}

void byoc_local_jobs_clear(byoc_local_jobs *l)
{
    for (size_t i = 0; i < l->n; i++)
        byoc_local_job_clear(&l->items[i]);
    free(l->items);
    l->items = NULL;
    l->n = 0;
}

void byoc_local_job_copy(byoc_local_job *dst, const byoc_local_job *src)
{
    *dst = *src;
    dst->name = byoc_xstrdup_opt(src->name);
    dst->image = byoc_xstrdup_opt(src->image);
    dst->image_id = byoc_xstrdup_opt(src->image_id);
    dst->device = byoc_xstrdup_opt(src->device);
    dst->status = byoc_xstrdup_opt(src->status);
    dst->created = byoc_xstrdup_opt(src->created);
    dst->started = byoc_xstrdup_opt(src->started);
    dst->ended = byoc_xstrdup_opt(src->ended);
    dst->failure_reason = byoc_xstrdup_opt(src->failure_reason);
    dst->output_dir = byoc_xstrdup_opt(src->output_dir);
    dst->container_id = byoc_xstrdup_opt(src->container_id);
}

char *byoc_local_job_arn(const char *name) { return byoc_xasprintf(BYOC_LOCAL_ARN_PREFIX "%s", name); }

const char *byoc_local_job_name_of(const char *s)
{
    size_t n = strlen(BYOC_LOCAL_ARN_PREFIX);
    return strncmp(s, BYOC_LOCAL_ARN_PREFIX, n) == 0 ? s + n : s;
}

void byoc_local_job_now(char *buf, size_t size)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    time_t secs = tv.tv_sec;
    gmtime_r(&secs, &tm);
    char base[24];
    strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf, size, "%s.%03dZ", base, (int)(tv.tv_usec / 1000));
}

bool byoc_local_job_stale(const byoc_local_job *j)
{
    if (!j->status || strcmp(j->status, "RUNNING") != 0)
        return false;
    if (j->pid <= 0)
        return true;
    return kill((pid_t)j->pid, 0) != 0 && errno == ESRCH;
}

static json_t *str_or_null(const char *s) { return s ? json_string(s) : json_null(); }

json_t *byoc_local_job_json(const byoc_local_job *j)
{
    char *arn = byoc_local_job_arn(j->name ? j->name : "");
    json_t *o = json_object();
    json_object_set_new(o, "job_arn", json_string(arn));
    json_object_set_new(o, "job_name", str_or_null(j->name));
    json_object_set_new(o, "status", str_or_null(j->status));
    json_object_set_new(o, "created", str_or_null(j->created));
    json_object_set_new(o, "device", str_or_null(j->device));
    json_object_set_new(o, "local", json_true());
    json_object_set_new(o, "image", str_or_null(j->image));
    json_object_set_new(o, "image_id", str_or_null(j->image_id));
    json_object_set_new(o, "started", str_or_null(j->started));
    json_object_set_new(o, "ended", str_or_null(j->ended));
    json_object_set_new(o, "exit_code", j->has_exit_code ? json_integer(j->exit_code) : json_null());
    json_object_set_new(o, "failure_reason", str_or_null(j->failure_reason));
    json_object_set_new(o, "output_dir", str_or_null(j->output_dir));
    json_object_set_new(o, "container_id", str_or_null(j->container_id));
    json_object_set_new(o, "pid", j->pid > 0 ? json_integer(j->pid) : json_null());
    json_object_set_new(o, "first_output_seconds",
                        j->has_first_output ? json_real(j->first_output_seconds) : json_null());
    free(arn);
    return o;
}

bool byoc_local_job_is_ref(const char *s)
{
    return s && strncmp(s, BYOC_LOCAL_ARN_PREFIX, strlen(BYOC_LOCAL_ARN_PREFIX)) == 0;
}

const char *byoc_local_job_shown_status(const byoc_local_job *j, const char **failure)
{
    bool stale = byoc_local_job_stale(j);
    if (failure)
        *failure = stale ? BYOC_LOCAL_INTERRUPTED : j->failure_reason;
    return stale ? "FAILED" : j->status;
}

json_t *byoc_local_job_summary_json(const byoc_local_job *j)
{
    json_t *full = byoc_local_job_json(j);
    json_t *o = json_object();
    static const char *const keep[] = {"job_arn", "job_name", "status", "created", "device", "local"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
        json_object_set(o, keep[i], json_object_get(full, keep[i]));
    json_object_set_new(o, "status", str_or_null(byoc_local_job_shown_status(j, NULL)));
    json_decref(full);
    return o;
}

json_t *byoc_local_job_status_json(const byoc_local_job *j, json_t *metrics)
{
    json_t *o = byoc_local_job_json(j);
    const char *failure;
    json_object_set_new(o, "status", str_or_null(byoc_local_job_shown_status(j, &failure)));
    json_object_set_new(o, "failure_reason", str_or_null(failure));
    json_object_set_new(o, "events", json_array());
    json_object_set_new(o, "metrics", metrics ? metrics : json_object());
    return o;
}

int byoc_localjobs_get(const char *path, const char *ref, byoc_local_job *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_local_jobs l = {0};
    if (byoc_localjobs_load(path, &l, err) != 0)
        return -1;
    const byoc_local_job *j = byoc_localjobs_find(&l, ref);
    int rc = 0;
    if (j)
        byoc_local_job_copy(out, j);
    else
        rc = byoc_err_set(err, BYOC_E_FAILED, "JOB", "no local job %s in the record (byoc jobs --local lists them)",
                          byoc_local_job_name_of(ref));
    byoc_local_jobs_clear(&l);
    return rc;
}

static char *get_str(const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return byoc_xstrdup_opt(v);
}

/* The reverse of byoc_local_job_json; -1 when a required member (job_name, status) is missing. */
static int byoc_local_job_from_json(const json_t *o, byoc_local_job *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(o))
        return -1;
    out->name = get_str(o, "job_name");
    out->status = get_str(o, "status");
    if (!out->name || !out->status) {
        byoc_local_job_clear(out);
        return -1;
    }
    out->image = get_str(o, "image");
    out->image_id = get_str(o, "image_id");
    out->device = get_str(o, "device");
    out->created = get_str(o, "created");
    out->started = get_str(o, "started");
    out->ended = get_str(o, "ended");
    out->failure_reason = get_str(o, "failure_reason");
    out->output_dir = get_str(o, "output_dir");
    out->container_id = get_str(o, "container_id");
    json_t *code = json_object_get(o, "exit_code");
    if (json_is_integer(code)) {
        out->has_exit_code = true;
        out->exit_code = (int)json_integer_value(code);
    }
    json_t *pid = json_object_get(o, "pid");
    out->pid = json_is_integer(pid) ? (long)json_integer_value(pid) : 0;
    /* A hostile or hand-edited record may hold anything: only a finite, sane figure is kept. */
    json_t *first = json_object_get(o, "first_output_seconds");
    double fs = json_is_number(first) ? json_number_value(first) : -1;
    out->has_first_output = fs >= 0 && fs < 1e9;
    out->first_output_seconds = out->has_first_output ? fs : 0;
    return 0;
}

json_t *byoc_local_jobs_json(const byoc_local_jobs *l)
{
    json_t *a = json_array();
    for (size_t i = 0; i < l->n; i++)
        json_array_append_new(a, byoc_local_job_json(&l->items[i]));
    return a;
}

const byoc_local_job *byoc_localjobs_find(const byoc_local_jobs *l, const char *name_or_arn)
{
    const char *name = byoc_local_job_name_of(name_or_arn);
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].name && strcmp(l->items[i].name, name) == 0)
            return &l->items[i];
    return NULL;
}

/* ---- the file ---------------------------------------------------------------------------- */

char *byoc_localjobs_default_path(void)
{
    char *dir = byoc_state_dir();
    char *path = byoc_xasprintf("%s/" BYOC_LOCALJOBS_FILE, dir);
    free(dir);
    return path;
}

static int cmp_newest_first(const void *a, const void *b)
{
    const byoc_local_job *x = a, *y = b;
    /* ISO 8601 UTC of one width sorts as text */
    return strcmp(y->created ? y->created : "", x->created ? x->created : "");
}

static int parse_record(const char *path, const char *text, size_t len, byoc_local_jobs *out, byoc_err *err)
{
    json_error_t je;
    json_t *doc = json_loadb(text, len, 0, &je);
    json_t *jobs = json_object_get(doc, "jobs");
    if (!doc || !json_is_array(jobs)) {
        json_decref(doc);
        return byoc_err_set(err, BYOC_E_FAILED, path, "not byoc's local job record%s%s (move it away to start afresh)",
                            doc ? "" : ": ", doc ? "" : je.text);
    }
    out->items = byoc_xcalloc(json_array_size(jobs) + 1, sizeof *out->items);
    size_t i;
    json_t *o;
    json_array_foreach(jobs, i, o) {
        if (byoc_local_job_from_json(o, &out->items[out->n]) == 0)
            out->n++;
    }
    json_decref(doc);
    qsort(out->items, out->n, sizeof *out->items, cmp_newest_first);
    return 0;
}

/* Reads the file unless its identity (device, inode, size, mtime) equals
 * *stamp (stamp may be NULL); *unchanged says it was skipped. */
static int read_file_stamped(const char *path, byoc_buf *b, bool *missing, byoc_localjobs_stamp *stamp,
                             bool *unchanged, byoc_err *err)
{
    *missing = false;
    *unchanged = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT) {
            *missing = true;
            if (stamp) {
                *unchanged = stamp->valid && stamp->ino == 0;
                memset(stamp, 0, sizeof *stamp);
                stamp->valid = true;
            }
            return 0;
        }
        return byoc_err_set(err, BYOC_E_ENV, path, "cannot read: %s", strerror(errno));
    }
    if (stamp) {
        struct stat st;
        if (fstat(fd, &st) == 0) {
            byoc_localjobs_stamp now = {.valid = true,
                                        .dev = (unsigned long long)st.st_dev,
                                        .ino = (unsigned long long)st.st_ino,
                                        .size = (long long)st.st_size,
                                        .mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec};
            if (stamp->valid && stamp->dev == now.dev && stamp->ino == now.ino && stamp->size == now.size &&
                stamp->mtime_ns == now.mtime_ns) {
                close(fd);
                *unchanged = true;
                return 0;
            }
            *stamp = now;
        } else {
            stamp->valid = false;
        }
    }
    char chunk[8192];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            if (stamp)
                stamp->valid = false;
            return byoc_err_set(err, BYOC_E_ENV, path, "cannot read: %s", strerror(e));
        }
        if (n == 0)
            break;
        byoc_buf_append(b, chunk, (size_t)n);
    }
    close(fd);
    return 0;
}

static int read_file(const char *path, byoc_buf *b, bool *missing, byoc_err *err)
{
    bool unchanged;
    return read_file_stamped(path, b, missing, NULL, &unchanged, err);
}

int byoc_localjobs_load_changed(const char *path, byoc_localjobs_stamp *stamp, byoc_local_jobs *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    char *def = path ? NULL : byoc_localjobs_default_path();
    const char *p = path ? path : def;
    byoc_buf b = BYOC_BUF_INIT;
    bool missing, unchanged;
    int rc = read_file_stamped(p, &b, &missing, stamp, &unchanged, err);
    if (rc == 0 && !missing && !unchanged) {
        rc = parse_record(p, byoc_buf_str(&b), b.len, out, err);
        if (rc != 0 && stamp)
            stamp->valid = false;
    }
    byoc_buf_clear(&b);
    free(def);
    if (rc != 0)
        return -1;
    return unchanged ? 1 : 0;
}

int byoc_localjobs_load(const char *path, byoc_local_jobs *out, byoc_err *err)
{
    return byoc_localjobs_load_changed(path, NULL, out, err) < 0 ? -1 : 0;
}

static char *parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return byoc_xstrdup(".");
    if (slash == path)
        return byoc_xstrdup("/");
    return byoc_xstrndup(path, (size_t)(slash - path));
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int write_record(const char *path, const byoc_local_jobs *l, byoc_err *err)
{
    json_t *doc = json_object();
    json_object_set_new(doc, "version", json_integer(RECORD_VERSION));
    json_t *jobs = json_array();
    for (size_t i = 0; i < l->n && i < BYOC_LOCALJOBS_MAX; i++)
        json_array_append_new(jobs, byoc_local_job_json(&l->items[i]));
    json_object_set_new(doc, "jobs", jobs);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);

    char *tmp = byoc_xasprintf("%s.XXXXXX", path);
    int fd = mkstemp(tmp); /* 0600 */
    int rc = 0;
    if (fd < 0) {
        rc = byoc_err_set(err, BYOC_E_ENV, path, "cannot write: %s", strerror(errno));
    } else {
        fchmod(fd, 0600);
        if (write_all(fd, text, strlen(text)) != 0 || write_all(fd, "\n", 1) != 0 || fsync(fd) != 0) {
            rc = byoc_err_set(err, BYOC_E_ENV, path, "cannot write: %s", strerror(errno));
            close(fd);
        } else if (close(fd) != 0 || rename(tmp, path) != 0) {
            rc = byoc_err_set(err, BYOC_E_ENV, path, "cannot replace: %s", strerror(errno));
        }
        if (rc != 0)
            unlink(tmp);
    }
    if (rc == 0) {
        char *dir = parent_dir(path);
        int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
        free(dir);
    }
    free(tmp);
    free(text);
    return rc;
}

/* Run change(l, ud) on the record under its lock and write the result. */
typedef void (*record_change)(byoc_local_jobs *l, void *ud);

static int change_record(const char *path, record_change change, void *ud, byoc_err *err)
{
    char *def = path ? NULL : byoc_localjobs_default_path();
    const char *p = path ? path : def;
    char *dir = parent_dir(p);
    int rc = 0;
    if (byoc_mkdir_p(dir, 0700) != 0)
        rc = byoc_err_set(err, BYOC_E_ENV, dir, "cannot create: %s", strerror(errno));
    char *lock_path = byoc_xasprintf("%s.lock", p);
    int lock = -1;
    if (rc == 0) {
        lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (lock < 0)
            rc = byoc_err_set(err, BYOC_E_ENV, lock_path, "cannot open: %s", strerror(errno));
        else
            while (flock(lock, LOCK_EX) != 0 && errno == EINTR) {
            }
    }
    byoc_local_jobs l = {0};
    if (rc == 0) {
        byoc_buf b = BYOC_BUF_INIT;
        bool missing;
        rc = read_file(p, &b, &missing, err);
        if (rc == 0 && !missing && parse_record(p, byoc_buf_str(&b), b.len, &l, err) != 0) {
            /* A record we cannot read must not stop a job from being recorded: keep it aside. */
            char *aside = byoc_xasprintf("%s.unreadable", p);
            byoc_log(BYOC_LOG_WARN, "%s: %s; moved to %s", p, err->message, aside);
            rename(p, aside);
            free(aside);
            byoc_err_clear(err);
            rc = 0;
        }
        byoc_buf_clear(&b);
    }
    if (rc == 0) {
        change(&l, ud);
        qsort(l.items, l.n, sizeof *l.items, cmp_newest_first);
        rc = write_record(p, &l, err);
    }
    byoc_local_jobs_clear(&l);
    if (lock >= 0)
        close(lock); /* releases the flock */
    free(lock_path);
    free(dir);
    free(def);
    return rc;
}

static void put_job(byoc_local_jobs *l, void *ud)
{
    const byoc_local_job *job = ud;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].name && strcmp(l->items[i].name, job->name) == 0) {
            byoc_local_job_clear(&l->items[i]);
            byoc_local_job_copy(&l->items[i], job);
            return;
        }
    }
    l->items = byoc_xrealloc(l->items, (l->n + 1) * sizeof *l->items);
    byoc_local_job_copy(&l->items[l->n++], job);
}

int byoc_localjobs_put(const char *path, const byoc_local_job *job, byoc_err *err)
{
    if (!job->name || !*job->name || !job->status)
        return byoc_err_set(err, BYOC_E_USAGE, "local job", "a recorded job needs a name and a status");
    return change_record(path, put_job, (void *)job, err);
}

typedef struct {
    const char *name;
    bool found;
} remove_arg;

static void remove_job(byoc_local_jobs *l, void *ud)
{
    remove_arg *a = ud;
    for (size_t i = 0; i < l->n; i++) {
        if (l->items[i].name && strcmp(l->items[i].name, a->name) == 0) {
            byoc_local_job_clear(&l->items[i]);
            memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
            l->n--;
            a->found = true;
            return;
        }
    }
}

int byoc_localjobs_remove(const char *path, const char *name_or_arn, bool *found, byoc_err *err)
{
    remove_arg a = {.name = byoc_local_job_name_of(name_or_arn)};
    int rc = change_record(path, remove_job, &a, err);
    if (found)
        *found = a.found;
    return rc;
}

/* ---- the Monitor's actions ----------------------------------------------------------------- */

char *byoc_local_job_log_path(const byoc_local_job *j)
{
    return j->output_dir ? byoc_xasprintf("%s/log.txt", j->output_dir) : NULL;
}

int byoc_local_job_cancel(byoc_engine *e, const char *path, const byoc_local_job *j, char *status, byoc_err *err)
{
    byoc_utf8_copy(status, 16, j->status);
    if (!j->status || strcmp(j->status, "RUNNING") != 0)
        return byoc_err_set(err, BYOC_E_FAILED, "JOB", "local job %s already ended (%s): nothing to cancel", j->name,
                            j->status ? j->status : "?");
    if (j->pid == (long)getpid())
        return byoc_err_set(err, BYOC_E_USAGE, "JOB", "local job %s runs in this process: cancel its task", j->name);
    if (!byoc_local_job_stale(j)) {
        if (kill((pid_t)j->pid, SIGTERM) != 0)
            return byoc_err_set(err, BYOC_E_FAILED, "JOB", "cannot signal the byoc process %ld running %s: %s", j->pid,
                                j->name, strerror(errno));
        snprintf(status, 16, "CANCELLING");
        return 0;
    }
    if (j->container_id) {
        byoc_err ke;
        byoc_container_kill(e, NULL, j->container_id, "KILL", &ke);
        if (byoc_container_remove(e, NULL, j->container_id, true, true, err) != 0 && err->http_status != 404)
            return -1;
    }
    byoc_local_job done;
    byoc_local_job_copy(&done, j);
    free(done.status);
    done.status = byoc_xstrdup("CANCELLED");
    char now[32];
    byoc_local_job_now(now, sizeof now);
    free(done.ended);
    done.ended = byoc_xstrdup(now);
    done.pid = 0;
    free(done.failure_reason);
    done.failure_reason = NULL;
    int rc = byoc_localjobs_put(path, &done, err);
    byoc_local_job_clear(&done);
    if (rc == 0)
        snprintf(status, 16, "CANCELLED");
    return rc;
}

int byoc_local_job_cancel_ref(byoc_engines *engines, const char *path, const char *ref, char *status, byoc_err *err)
{
    snprintf(status, 16, "%s", "");
    byoc_local_job j;
    if (byoc_localjobs_get(path, ref, &j, err) != 0)
        return -1;
    byoc_engine *e = NULL;
    int rc = byoc_engines_get(engines, &e, err);
    if (rc == 0)
        rc = byoc_local_job_cancel(e, path, &j, status, err);
    byoc_engine_free(e);
    byoc_local_job_clear(&j);
    return rc;
}
