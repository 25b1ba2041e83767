#include "byoc/poller.h"

#include <stdint.h>
#include <time.h>

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

bool byoc_backoff_sleep(byoc_task *t, int64_t ms)
{
    while (ms > 0) {
        if (byoc_task_cancelled(t))
            return true;
        int64_t slice = ms > 100 ? 100 : ms;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = (long)slice * 1000000L};
        nanosleep(&ts, NULL);
        ms -= slice;
    }
    return byoc_task_cancelled(t);
}
