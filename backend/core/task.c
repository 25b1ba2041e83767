#include "core/task.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

/* Beyond this many pending events a task posting LOG or PROGRESS waits for
 * the consumer (PROGRESS for a pending key is coalesced first); STATUS, DONE
 * and ERROR are always queued (there are few of them). A waiting producer
 * resumes once the queue is down to EVQ_RESUME, so it does not wake for every
 * single event popped. */
#define EVQ_LIMIT 4096
#define EVQ_RESUME (EVQ_LIMIT * 3 / 4)

struct byoc_task {
    byoc_evq *q;             /* NULL for a synchronous task */
    uint64_t id;
    char *name;
    byoc_task_fn fn;
    void *arg;
    void (*arg_free)(void *);
    pthread_t thread;
    bool has_thread;
    bool joined;
    pthread_mutex_t join_lock;
    atomic_bool cancel;
    atomic_bool finished;
    byoc_task *next;         /* in q->tasks */
    /* synchronous tasks: events go straight to the sink, one at a time */
    byoc_event_sink sink;
    void *sink_ud;
    pthread_mutex_t sink_lock;
};

struct byoc_evq {
    pthread_mutex_t lock;
    pthread_cond_t cond;     /* an event was queued */
    pthread_cond_t space;    /* the queue went down to EVQ_RESUME, or a task was cancelled */
    size_t waiting;          /* producers waiting on space */
    byoc_event *ring;
    size_t cap, head, len;
    int fd;                  /* eventfd, readable while len > 0 */
    uint64_t dropped;
    byoc_task *tasks;
};

static atomic_uint_fast64_t next_task_id = 1;

/* ---- events ----------------------------------------------------------------- */

void byoc_event_release(byoc_event *ev)
{
    if (!ev)
        return;
    free(ev->key);
    free(ev->text);
    free(ev->detail);
    if (ev->result && ev->result_free)
        ev->result_free(ev->result);
    ev->key = ev->text = ev->detail = NULL;
    ev->result = NULL;
    ev->result_free = NULL;
}

static bool throttled(byoc_ev_kind k)
{
    return k == BYOC_EV_LOG || k == BYOC_EV_PROGRESS || k == BYOC_EV_CHECK || k == BYOC_EV_DATA;
}

static bool same_key(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* ---- queue ------------------------------------------------------------------ */

byoc_evq *byoc_evq_new(void)
{
    byoc_evq *q = byoc_xcalloc(1, sizeof *q);
    q->fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (q->fd < 0) {
        free(q);
        return NULL;
    }
    pthread_mutex_init(&q->lock, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&q->cond, &ca);
    pthread_cond_init(&q->space, &ca);
    pthread_condattr_destroy(&ca);
    q->cap = 64;
    q->ring = byoc_xcalloc(q->cap, sizeof *q->ring);
    return q;
}

int byoc_evq_fd(const byoc_evq *q) { return q->fd; }

static byoc_event *ring_at(byoc_evq *q, size_t i) { return &q->ring[(q->head + i) % q->cap]; }

static void ring_grow(byoc_evq *q)
{
    byoc_event *r = byoc_xcalloc(q->cap * 2, sizeof *r);
    for (size_t i = 0; i < q->len; i++)
        r[i] = *ring_at(q, i);
    free(q->ring);
    q->ring = r;
    q->head = 0;
    q->cap *= 2;
}

static void fd_signal(byoc_evq *q)
{
    uint64_t one = 1;
    while (write(q->fd, &one, sizeof one) < 0 && errno == EINTR)
        ;
}

static void fd_drain(byoc_evq *q)
{
    uint64_t v;
    while (read(q->fd, &v, sizeof v) < 0 && errno == EINTR)
        ;
}

/* When the queue is at its limit: fold a PROGRESS into a pending one for the
 * same task and key. Returns true if ev was consumed. */
static bool coalesce_progress(byoc_evq *q, byoc_event *ev)
{
    for (size_t i = q->len; i-- > 0;) {
        byoc_event *e = ring_at(q, i);
        if (e->kind == BYOC_EV_PROGRESS && e->task_id == ev->task_id && same_key(e->key, ev->key)) {
            e->current = ev->current;
            e->total = ev->total;
            free(e->text);
            e->text = ev->text;
            ev->text = NULL;
            byoc_event_release(ev);
            return true;
        }
    }
    return false;
}

/* Takes ownership of ev's contents. Called with q->lock held; a LOG,
 * PROGRESS or CHECK of a running task (t non-NULL) waits while the queue is full, and
 * is dropped only once t is cancelled (nobody wants its output then). */
static void enqueue_locked(byoc_evq *q, byoc_task *t, byoc_event *ev)
{
    if (q->len >= EVQ_LIMIT && throttled(ev->kind)) {
        if (ev->kind == BYOC_EV_PROGRESS && coalesce_progress(q, ev))
            return;
        q->waiting++;
        while (q->len > EVQ_RESUME && !byoc_task_cancelled(t))
            pthread_cond_wait(&q->space, &q->lock);
        q->waiting--;
        if (byoc_task_cancelled(t) && q->len >= EVQ_LIMIT) {
            q->dropped++;
            byoc_event_release(ev);
            return;
        }
    }
    if (q->len == q->cap)
        ring_grow(q);
    *ring_at(q, q->len) = *ev;
    q->len++;
    if (q->len == 1)
        fd_signal(q);
    pthread_cond_broadcast(&q->cond);
}

bool byoc_evq_pop(byoc_evq *q, byoc_event *out)
{
    pthread_mutex_lock(&q->lock);
    bool got = q->len > 0;
    if (got) {
        *out = q->ring[q->head];
        memset(&q->ring[q->head], 0, sizeof q->ring[q->head]);
        q->head = (q->head + 1) % q->cap;
        q->len--;
        if (q->len == 0)
            fd_drain(q);
        if (q->waiting && q->len == EVQ_RESUME)
            pthread_cond_broadcast(&q->space);
    }
    pthread_mutex_unlock(&q->lock);
    return got;
}

bool byoc_evq_wait(byoc_evq *q, int timeout_ms)
{
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    if (timeout_ms > 0) {
        deadline.tv_sec += timeout_ms / 1000;
        deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (deadline.tv_nsec >= 1000000000L) {
            deadline.tv_sec++;
            deadline.tv_nsec -= 1000000000L;
        }
    }
    pthread_mutex_lock(&q->lock);
    while (q->len == 0 && timeout_ms != 0) {
        if (timeout_ms < 0) {
            pthread_cond_wait(&q->cond, &q->lock);
        } else if (pthread_cond_timedwait(&q->cond, &q->lock, &deadline) == ETIMEDOUT) {
            break;
        }
    }
    bool pending = q->len > 0;
    pthread_mutex_unlock(&q->lock);
    return pending;
}

uint64_t byoc_evq_dropped(const byoc_evq *q)
{
    byoc_evq *mq = (byoc_evq *)q;
    pthread_mutex_lock(&mq->lock);
    uint64_t d = mq->dropped;
    pthread_mutex_unlock(&mq->lock);
    return d;
}

size_t byoc_evq_waiting(const byoc_evq *q)
{
    byoc_evq *mq = (byoc_evq *)q;
    pthread_mutex_lock(&mq->lock);
    size_t w = mq->waiting;
    pthread_mutex_unlock(&mq->lock);
    return w;
}

static void task_free(byoc_task *t)
{
    pthread_mutex_destroy(&t->join_lock);
    pthread_mutex_destroy(&t->sink_lock);
    free(t->name);
    free(t);
}

void byoc_evq_free(byoc_evq *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    byoc_task *tasks = q->tasks;
    q->tasks = NULL;
    pthread_mutex_unlock(&q->lock);
    for (byoc_task *t = tasks; t; t = t->next)
        byoc_task_cancel(t);
    while (tasks) {
        byoc_task *next = tasks->next;
        byoc_task_join(tasks);
        task_free(tasks);
        tasks = next;
    }
    for (size_t i = 0; i < q->len; i++)
        byoc_event_release(ring_at(q, i));
    free(q->ring);
    close(q->fd);
    pthread_cond_destroy(&q->cond);
    pthread_cond_destroy(&q->space);
    pthread_mutex_destroy(&q->lock);
    free(q);
}

/* ---- tasks ------------------------------------------------------------------ */

static byoc_task *task_new(const char *name, byoc_task_fn fn, void *arg, void (*arg_free)(void *))
{
    byoc_task *t = byoc_xcalloc(1, sizeof *t);
    t->id = atomic_fetch_add(&next_task_id, 1);
    t->name = byoc_xstrdup(name ? name : "");
    t->fn = fn;
    t->arg = arg;
    t->arg_free = arg_free;
    atomic_init(&t->cancel, false);
    atomic_init(&t->finished, false);
    pthread_mutex_init(&t->join_lock, NULL);
    pthread_mutex_init(&t->sink_lock, NULL);
    return t;
}

/* Deliver an event (ownership moves): to the queue, or to a synchronous task's sink. */
static void post(byoc_task *t, byoc_event *ev, bool final)
{
    ev->task_id = t->id;
    if (!t->q) {
        pthread_mutex_lock(&t->sink_lock);
        if (t->sink)
            t->sink(ev, t->sink_ud);
        pthread_mutex_unlock(&t->sink_lock);
        byoc_event_release(ev);
        if (final)
            atomic_store(&t->finished, true);
        return;
    }
    pthread_mutex_lock(&t->q->lock);
    enqueue_locked(t->q, final ? NULL : t, ev);
    if (final)
        atomic_store(&t->finished, true);
    pthread_mutex_unlock(&t->q->lock);
}

/* Runs fn and fills in the final event. */
static int run_body(byoc_task *t, byoc_event *final, void **result, void (**result_free)(void *),
                    byoc_err *err)
{
    byoc_err_clear(err);
    *result = NULL;
    *result_free = NULL;
    int rc = t->fn(t, t->arg, result, result_free, err);
    if (t->arg_free)
        t->arg_free(t->arg);
    t->arg = NULL;
    memset(final, 0, sizeof *final);
    if (rc == 0) {
        final->kind = BYOC_EV_DONE;
        final->result = *result;
        final->result_free = *result_free;
        return 0;
    }
    if (byoc_task_cancelled(t) && err->kind != BYOC_E_CANCELLED) {
        err->kind = BYOC_E_CANCELLED;
        err->http_status = 0;
        err->code[0] = '\0';
        snprintf(err->message, sizeof err->message, "cancelled");
    } else if (err->kind == BYOC_OK) {
        byoc_err_set(err, BYOC_E_FAILED, t->name, "failed");
    }
    byoc_redact_inplace(err->message);
    final->kind = BYOC_EV_ERROR;
    final->err = *err;
    return rc;
}

static _Atomic(void (*)(void)) thread_end;

void byoc_task_set_thread_end(void (*fn)(void))
{
    atomic_store(&thread_end, fn);
}

static void *task_thread(void *p)
{
    byoc_task *t = p;
    byoc_event final;
    void *result;
    void (*result_free)(void *);
    byoc_err err;
    run_body(t, &final, &result, &result_free, &err);
    void (*end)(void) = atomic_load(&thread_end);
    if (end)
        end();
    post(t, &final, true);
    return NULL;
}

byoc_task *byoc_task_start(byoc_evq *q, const char *name, byoc_task_fn fn, void *arg,
                           void (*arg_free)(void *))
{
    byoc_task *t = task_new(name, fn, arg, arg_free);
    t->q = q;
    pthread_mutex_lock(&q->lock);
    t->next = q->tasks;
    q->tasks = t;
    pthread_mutex_unlock(&q->lock);
    /* Under join_lock: the task may finish, and its owner join it, before
     * pthread_create returns here; the join must then see has_thread. */
    pthread_mutex_lock(&t->join_lock);
    bool started = pthread_create(&t->thread, NULL, task_thread, t) == 0;
    t->has_thread = started;
    pthread_mutex_unlock(&t->join_lock);
    if (started)
        return t;
    if (arg_free)
        arg_free(arg);
    t->arg = NULL;
    byoc_event ev = {.kind = BYOC_EV_ERROR};
    byoc_err_set(&ev.err, BYOC_E_FAILED, t->name, "could not start a thread");
    post(t, &ev, true);
    return t;
}

uint64_t byoc_task_id(const byoc_task *t) { return t ? t->id : 0; }
const char *byoc_task_name(const byoc_task *t) { return t ? t->name : ""; }

void byoc_task_cancel(byoc_task *t)
{
    if (!t)
        return;
    atomic_store(&t->cancel, true);
    if (t->q) {                 /* wake it if it waits for room in the queue */
        pthread_mutex_lock(&t->q->lock);
        if (t->q->waiting)
            pthread_cond_broadcast(&t->q->space);
        pthread_mutex_unlock(&t->q->lock);
    }
}

bool byoc_task_cancelled(const byoc_task *t)
{
    return t && atomic_load(&((byoc_task *)t)->cancel);
}

bool byoc_task_finished(const byoc_task *t)
{
    return t && atomic_load(&((byoc_task *)t)->finished);
}

void byoc_task_join(byoc_task *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&t->join_lock);
    if (t->has_thread && !t->joined) {
        pthread_join(t->thread, NULL);
        t->joined = true;
    }
    pthread_mutex_unlock(&t->join_lock);
}

void byoc_task_release(byoc_task *t)
{
    if (!t)
        return;
    byoc_task_join(t);
    if (t->q) {
        pthread_mutex_lock(&t->q->lock);
        for (byoc_task **pp = &t->q->tasks; *pp; pp = &(*pp)->next) {
            if (*pp == t) {
                *pp = t->next;
                break;
            }
        }
        pthread_mutex_unlock(&t->q->lock);
    }
    task_free(t);
}

/* ---- posting from inside a task ------------------------------------------------- */

/* redact, then (unless verbatim) one printable line: see task.h */
static char *clean(char *text, bool verbatim)
{
    byoc_redact_inplace(text);
    if (!verbatim)
        byoc_printable_inplace(text);
    return text;
}

static char *clean_dup(const char *s)
{
    return s ? clean(byoc_xstrdup(s), false) : NULL;
}

static void post_text(byoc_task *t, byoc_ev_kind kind, bool verbatim, const char *fmt, va_list ap)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    byoc_event ev = {.kind = kind, .text = clean(byoc_buf_steal(&b), verbatim), .verbatim = verbatim};
    post(t, &ev, false);
}

void byoc_task_log(byoc_task *t, const char *fmt, ...)
{
    if (!t)
        return;
    va_list ap;
    va_start(ap, fmt);
    post_text(t, BYOC_EV_LOG, false, fmt, ap);
    va_end(ap);
}

void byoc_task_output(byoc_task *t, const char *fmt, ...)
{
    if (!t)
        return;
    va_list ap;
    va_start(ap, fmt);
    post_text(t, BYOC_EV_LOG, true, fmt, ap);
    va_end(ap);
}

void byoc_task_output_text(byoc_task *t, const char *text, size_t len)
{
    if (!t)
        return;
    byoc_event ev = {.kind = BYOC_EV_LOG, .text = clean(byoc_xstrndup(text, len), true), .verbatim = true};
    post(t, &ev, false);
}

void byoc_task_status(byoc_task *t, const char *fmt, ...)
{
    if (!t)
        return;
    va_list ap;
    va_start(ap, fmt);
    post_text(t, BYOC_EV_STATUS, false, fmt, ap);
    va_end(ap);
}

void byoc_task_progress(byoc_task *t, const char *key, int64_t current, int64_t total,
                        const char *text)
{
    if (!t)
        return;
    byoc_event ev = {
        .kind = BYOC_EV_PROGRESS,
        .key = clean_dup(key),
        .text = clean_dup(text),
        .current = current,
        .total = total,
    };
    post(t, &ev, false);
}

void byoc_task_check(byoc_task *t, const char *name, int status, const char *finding, const char *fix)
{
    if (!t)
        return;
    byoc_event ev = {
        .kind = BYOC_EV_CHECK,
        .key = clean_dup(name),
        .text = clean_dup(finding),
        .detail = fix && *fix ? clean_dup(fix) : NULL,
        .current = status,
    };
    post(t, &ev, false);
}

void byoc_task_data(byoc_task *t, int what, void *data, void (*data_free)(void *))
{
    if (!t) {
        if (data && data_free)
            data_free(data);
        return;
    }
    byoc_event ev = {.kind = BYOC_EV_DATA, .current = what, .result = data, .result_free = data_free};
    post(t, &ev, false);
}

int byoc_task_run_sync(const char *name, byoc_task_fn fn, void *arg, void **result,
                       void (**result_free)(void *), byoc_err *err, byoc_event_sink sink, void *ud)
{
    byoc_task *t = task_new(name, fn, arg, NULL);
    t->sink = sink;
    t->sink_ud = ud;
    void *res;
    void (*res_free)(void *);
    byoc_err local;
    byoc_err *e = err ? err : &local;
    byoc_event final;
    int rc = run_body(t, &final, &res, &res_free, e);
    /* The sink sees the final event too, but the result belongs to the caller. */
    final.result_free = NULL;
    post(t, &final, true);
    if (result) {
        *result = res;
        if (result_free)
            *result_free = res_free;
    } else if (res && res_free) {
        res_free(res);
    }
    task_free(t);
    return rc;
}
