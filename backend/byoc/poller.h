/* poller: how often to ask a service whether anything changed, and the job
 * watcher built on it (the backend of `byoc logs --follow` and of the jobs
 * module's watch).
 *
 * byoc_backoff: the delay before the next poll. Starts at base (2 s), doubles
 * on every poll that saw no change up to max (60 s), drops back to base on a
 * change; each delay is spread by +-jitter (20%) so many watchers never poll
 * in step. It never goes below base * (1 - jitter): nothing byoc watches is
 * polled faster than that, whatever happens.
 *
 * byoc_backoff_sleep: sleep a delay in small slices, waking early when the
 * task is cancelled.
 *
 * byoc_job_watch_run: GetJob (with QueueInfo) and a read of the job's log
 * source per tick, on the backoff (a tick that saw a status change or new log
 * lines counts as a change); after the job ends one more pause and a final
 * log read (CloudWatch lags the container), then it returns. Transient
 * failures (network, throttling, 5xx) are retried on the next tick, five in
 * a row end the watch.
 *
 * The Monitor's watch task (jobs.h) runs it with the log tail and metrics store. */
#ifndef BYOC_BYOC_POLLER_H
#define BYOC_BYOC_POLLER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "byoc/jobref.h"
#include "byoc/logtail.h"
#include "byoc/metrics.h"
#include "core/task.h"

#define BYOC_POLL_BASE_MS 2000
#define BYOC_POLL_MAX_MS 60000
#define BYOC_POLL_JITTER 0.2

typedef struct byoc_backoff {
    int64_t base_ms, max_ms;
    int64_t current_ms;           /* the undithered delay of the last answer */
    double jitter;                /* 0..0.5 */
    uint64_t rng;                 /* xorshift state; never 0 */
} byoc_backoff;

/* base_ms/max_ms <= 0: the defaults above; jitter < 0: the default. seed 0:
 * from the clock and the address of b (tests pass a fixed seed). */
void byoc_backoff_init(byoc_backoff *b, int64_t base_ms, int64_t max_ms, double jitter, uint64_t seed);
/* After a poll: the delay before the next one. */
int64_t byoc_backoff_next(byoc_backoff *b, bool changed);
/* Back to base without a poll (e.g. the user asked for a refresh). */
void byoc_backoff_reset(byoc_backoff *b);

/* Sleep ms in slices of at most 100 ms; true if the task was cancelled
 * (then it returns at once). t may be NULL. */
bool byoc_backoff_sleep(byoc_task *t, int64_t ms);

/* ---- watching a job ---------------------------------------------------------------- */

typedef struct byoc_job_watch {
    const char *job_arn;
    byoc_log_source *logs;        /* NULL: status only */
    byoc_metrics *metrics;        /* NULL: none; else fed from every log line */
    /* after every GetJob; changed: status, events, queue position or failure reason moved */
    void (*on_job)(const byoc_job_info *job, bool changed, void *ud);
    byoc_log_line_fn on_line;     /* every log line, in order; may be NULL */
    void (*on_lines_read)(void *ud);  /* after each read of the log source (a caller batching
                                         lines flushes here); may be NULL */
    void *ud;
    int64_t base_ms, max_ms;      /* 0: BYOC_POLL_BASE_MS, BYOC_POLL_MAX_MS */
    int64_t final_pause_ms;       /* pause before the last log read; 0: base_ms; < 0: none */
    bool once;                    /* one GetJob and one log read, then return */
    atomic_int *poke;             /* may be NULL; set non-zero to poll now (reset to 0 when seen) */
} byoc_job_watch;

/* final (may be NULL) gets the last GetJob (free with byoc_job_info_clear). */
int byoc_job_watch_run(byoc_aws_client *c, byoc_task *t, const byoc_job_watch *w, byoc_job_info *final,
                       byoc_err *err);

#endif
