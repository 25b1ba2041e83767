#include "byoc/poller.h"

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
            byoc_job_info_clear(&last);
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
        byoc_job_info_clear(&last);
    if (final && !have_last)
        memset(final, 0, sizeof *final);
    return rc;
}
