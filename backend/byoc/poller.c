#include "byoc/poller.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "core/buf.h"
#include "core/log.h"

static uint64_t xorshift(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}

void byoc_backoff_init(byoc_backoff *b, int64_t base_ms, int64_t max_ms, double jitter, uint64_t seed)
{
    b->base_ms = base_ms > 0 ? base_ms : BYOC_POLL_BASE_MS;
    b->max_ms = max_ms > 0 ? max_ms : BYOC_POLL_MAX_MS;
    if (b->max_ms < b->base_ms)
        b->max_ms = b->base_ms;
    b->jitter = jitter < 0 ? BYOC_POLL_JITTER : jitter > 0.5 ? 0.5 : jitter;
    if (!seed) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)(uintptr_t)b;
    }
    b->rng = seed ? seed : 0x9e3779b97f4a7c15ULL;
    b->current_ms = 0;
}

void byoc_backoff_reset(byoc_backoff *b) { b->current_ms = 0; }

int64_t byoc_backoff_next(byoc_backoff *b, bool changed)
{
    if (changed || b->current_ms == 0)
        b->current_ms = b->base_ms;
    else
        b->current_ms = b->current_ms > b->max_ms / 2 ? b->max_ms : b->current_ms * 2;
    /* uniform in [1 - jitter, 1 + jitter) */
    double u = (double)(xorshift(&b->rng) >> 11) / (double)(1ULL << 53);
    double factor = 1.0 - b->jitter + 2.0 * b->jitter * u;
    int64_t d = (int64_t)((double)b->current_ms * factor);
    int64_t floor_ms = (int64_t)((double)b->base_ms * (1.0 - b->jitter));
    return d < floor_ms ? floor_ms : d;
}

typedef enum { SLEPT, CANCELLED, POKED } sleep_end;

/* Sleep, waking early for cancellation or a poke (which is cleared). */
static sleep_end watch_sleep(byoc_task *t, int64_t ms, atomic_int *poke)
{
    while (ms > 0) {
        if (byoc_task_cancelled(t))
            return CANCELLED;
        if (poke && atomic_exchange(poke, 0))
            return POKED;
        int64_t slice = ms > 100 ? 100 : ms;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)slice * 1000000L};
        nanosleep(&ts, NULL);
        ms -= slice;
    }
    return byoc_task_cancelled(t) ? CANCELLED : SLEPT;
}

bool byoc_backoff_sleep(byoc_task *t, int64_t ms)
{
    return watch_sleep(t, ms, NULL) == CANCELLED;
}

/* ---- watching a job ---------------------------------------------------------------- */

#define MAX_FAILURES_IN_A_ROW 5

static bool transient(const byoc_err *err)
{
    if (err->kind == BYOC_E_NET)
        return true;
    if (err->http_status == 429 || err->http_status >= 500)
        return true;
    return strstr(err->code, "Throttl") != NULL || strcmp(err->code, "TooManyRequestsException") == 0 ||
           strcmp(err->code, "ServiceUnavailableException") == 0 || strcmp(err->code, "InternalServiceException") == 0;
}

typedef struct line_relay {
    const byoc_job_watch *w;
} line_relay;

static void relay_line(const byoc_log_line *l, void *ud)
{
    const byoc_job_watch *w = ((line_relay *)ud)->w;
    if (w->metrics)
        byoc_metrics_feed(w->metrics, l->message, l->len, l->timestamp_ms);
    if (w->on_line)
        w->on_line(l, w->ud);
}

/* Read everything the source has now (several rounds when it stopped early). */
static int read_logs(const byoc_job_watch *w, byoc_task *t, bool final, size_t *lines, byoc_err *err)
{
    line_relay relay = {w};
    *lines = 0;
    int rc = 0;
    for (int rounds = 0; rounds < 1000; rounds++) {
        byoc_log_round r;
        if (byoc_log_source_poll(w->logs, t, final, relay_line, &relay, &r, err) != 0) {
            rc = -1;
            break;
        }
        *lines += r.lines;
        if (!r.more)
            break;
    }
    if (w->on_lines_read)
        w->on_lines_read(w->ud);
    return rc;
}

static bool cancelled_err(byoc_task *t, byoc_err *err)
{
    if (!byoc_task_cancelled(t))
        return false;
    byoc_err_set(err, BYOC_E_CANCELLED, "watch", "cancelled");
    return true;
}

int byoc_job_watch_run(byoc_aws_client *c, byoc_task *t, const byoc_job_watch *w, byoc_job_info *final,
                       byoc_err *err)
{
    byoc_backoff b;
    byoc_backoff_init(&b, w->base_ms, w->max_ms, -1, 0);
    byoc_job_info last;
    memset(&last, 0, sizeof last);
    bool have_last = false;
    int job_failures = 0, log_failures = 0;
    int rc = 0;
    for (;;) {
        bool changed = false;
        byoc_job_info now;
        if (byoc_job_get(c, t, w->job_arn, &now, err) != 0) {
            if (cancelled_err(t, err) || !transient(err) || ++job_failures >= MAX_FAILURES_IN_A_ROW || w->once) {
                rc = -1;
                break;
            }
            byoc_log(BYOC_LOG_INFO, "watch: GetJob failed (%s); trying again", err->message);
            byoc_err_clear(err);
        } else {
            job_failures = 0;
            changed = !have_last || byoc_job_info_changed(&last, &now);
            byoc_job_info_free(&last);
            last = now;
            have_last = true;
            if (w->on_job)
                w->on_job(&last, changed, w->ud);
        }
        bool ended = have_last && byoc_braket_status_terminal(last.status);
        if (w->logs) {
            size_t lines = 0;
            if (read_logs(w, t, false, &lines, err) == 0) {
                log_failures = 0;
            } else {
                if (cancelled_err(t, err) || !transient(err) || ++log_failures >= MAX_FAILURES_IN_A_ROW || w->once) {
                    rc = -1;
                    break;
                }
                byoc_log(BYOC_LOG_INFO, "watch: reading the log failed (%s); trying again", err->message);
                byoc_err_clear(err);
                ended = false; /* read again before finishing */
            }
            changed |= lines > 0;
        }
        if (w->once)
            break;
        if (ended) {
            if (w->logs) {
                int64_t pause = w->final_pause_ms ? w->final_pause_ms : b.base_ms;
                size_t lines;
                if ((pause > 0 && watch_sleep(t, pause, NULL) == CANCELLED) ||
                    read_logs(w, t, true, &lines, err) != 0) {
                    if (!cancelled_err(t, err) && !err->message[0])
                        byoc_err_set(err, BYOC_E_FAILED, "logs", "the last log read failed");
                    rc = -1;
                }
            }
            break;
        }
        if (watch_sleep(t, byoc_backoff_next(&b, changed), w->poke) == POKED)
            byoc_backoff_reset(&b);
        if (cancelled_err(t, err)) {
            rc = -1;
            break;
        }
    }
    if (final && have_last)
        *final = last;
    else
        byoc_job_info_free(&last);
    if (final && !have_last)
        memset(final, 0, sizeof *final);
    return rc;
}

/* ---- the monitor task ----------------------------------------------------------------- */

struct byoc_job_monitor {
    byoc_aws_client *client;
    char *arn;
    byoc_log_source *logs;
    byoc_metrics *metrics;
    pthread_mutex_t lock;
    byoc_job_info latest;          /* guarded by lock */
    bool have_latest;
    atomic_int poke;
    byoc_task *task;               /* the running watch, for posting */
};

byoc_job_monitor *byoc_job_monitor_new(byoc_aws_client *c, const char *job_arn, byoc_log_source *logs)
{
    byoc_job_monitor *m = byoc_xcalloc(1, sizeof *m);
    m->client = c;
    m->arn = byoc_xstrdup(job_arn);
    m->logs = logs;
    m->metrics = byoc_metrics_new(0, 0);
    pthread_mutex_init(&m->lock, NULL);
    atomic_init(&m->poke, 0);
    return m;
}

void byoc_job_monitor_free(byoc_job_monitor *m)
{
    if (!m)
        return;
    byoc_log_source_free(m->logs);
    byoc_metrics_free(m->metrics);
    byoc_job_info_free(&m->latest);
    pthread_mutex_destroy(&m->lock);
    free(m->arn);
    free(m);
}

bool byoc_job_monitor_snapshot(byoc_job_monitor *m, byoc_job_info *out)
{
    pthread_mutex_lock(&m->lock);
    bool have = m->have_latest;
    if (have)
        byoc_job_info_copy(out, &m->latest);
    else
        memset(out, 0, sizeof *out);
    pthread_mutex_unlock(&m->lock);
    return have;
}

byoc_metrics *byoc_job_monitor_metrics(byoc_job_monitor *m) { return m->metrics; }

void byoc_job_monitor_poke(byoc_job_monitor *m) { atomic_store(&m->poke, 1); }

static void monitor_on_job(const byoc_job_info *job, bool changed, void *ud)
{
    byoc_job_monitor *m = ud;
    pthread_mutex_lock(&m->lock);
    byoc_job_info_free(&m->latest);
    byoc_job_info_copy(&m->latest, job);
    m->have_latest = true;
    pthread_mutex_unlock(&m->lock);
    if (!changed)
        return;
    byoc_job_info shown;
    byoc_job_info_printable(&shown, job);
    if (shown.queue_position[0] && strcmp(job->status, "QUEUED") == 0)
        byoc_task_status(m->task, "%s (position %s)", shown.status, shown.queue_position);
    else
        byoc_task_status(m->task, "%s", shown.status);
    byoc_job_info_free(&shown);
}

static void monitor_on_line(const byoc_log_line *l, void *ud)
{
    byoc_job_monitor *m = ud;
    pthread_mutex_lock(&m->lock);
    bool several = m->latest.instance_count > 1;
    pthread_mutex_unlock(&m->lock);
    if (several && l->instance && *l->instance)
        byoc_task_output(m->task, "[%s] %.*s", l->instance, (int)l->len, l->message);
    else
        byoc_task_output(m->task, "%.*s", (int)l->len, l->message);
}

static void free_info(void *p)
{
    byoc_job_info_free(p);
    free(p);
}

static int monitor_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_job_monitor *m = arg;
    m->task = t;
    byoc_job_watch w = {.job_arn = m->arn,
                        .logs = m->logs,
                        .metrics = m->metrics,
                        .on_job = monitor_on_job,
                        .on_line = monitor_on_line,
                        .ud = m,
                        .poke = &m->poke};
    byoc_job_info *final = byoc_xcalloc(1, sizeof *final);
    if (byoc_job_watch_run(m->client, t, &w, final, err) != 0) {
        free_info(final);
        return -1;
    }
    *result = final;
    *result_free = free_info;
    return 0;
}

byoc_task *byoc_job_monitor_start(byoc_job_monitor *m, byoc_evq *q)
{
    return byoc_task_start(q, "monitor", monitor_task, m, NULL);
}
