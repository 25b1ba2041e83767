/* poller: how often to ask a service whether anything changed, and a job
 * watcher built on it.
 *
 * byoc_backoff: the delay before the next poll. Starts at base (2 s), doubles
 * on every poll that saw no change up to max (60 s), drops back to base on a
 * change; each delay is spread by +-jitter (20%) so many watchers never poll
 * in step. It never goes below base * (1 - jitter): nothing byoc watches is
 * polled faster than that, whatever happens.
 *
 * byoc_backoff_sleep: sleep a delay in small slices, waking early when the
 * task is cancelled. */
#ifndef BYOC_BYOC_POLLER_H
#define BYOC_BYOC_POLLER_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
