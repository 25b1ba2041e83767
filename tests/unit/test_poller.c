/* poller: the backoff doubles on quiet polls up to the cap, resets on a
 * change, stays within its jitter band and never under its floor; the
 * cancellable sleep returns at once for a cancelled task. */
#include <stdlib.h>

#include "byoc/poller.h"
#include "check.h"

static void test_no_jitter_sequence(void)
{
    byoc_backoff b;
    byoc_backoff_init(&b, 2000, 60000, 0.0, 42);
    const long want[] = {2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000};
    CHECK_INT(byoc_backoff_next(&b, true), 2000);
    for (size_t i = 1; i < sizeof want / sizeof *want; i++)
        CHECK_INT(byoc_backoff_next(&b, false), want[i]);
    CHECK_INT(byoc_backoff_next(&b, true), 2000); /* a change resets */
    CHECK_INT(byoc_backoff_next(&b, false), 4000);
    byoc_backoff_reset(&b);
    CHECK_INT(byoc_backoff_next(&b, false), 2000); /* first answer after a reset is the base */
}

static void test_defaults(void)
{
    byoc_backoff b;
    byoc_backoff_init(&b, 0, 0, -1, 7);
    CHECK_INT(b.base_ms, BYOC_POLL_BASE_MS);
    CHECK_INT(b.max_ms, BYOC_POLL_MAX_MS);
    CHECK(b.jitter == BYOC_POLL_JITTER);
    byoc_backoff_init(&b, 5000, 1000, 0.9, 7); /* max below base, jitter over the limit */
    CHECK_INT(b.max_ms, 5000);
    CHECK(b.jitter == 0.5);
}

static void test_jitter_band(void)
{
    byoc_backoff b;
    byoc_backoff_init(&b, 2000, 60000, 0.2, 12345);
    int below = 0, above = 0;
    for (int round = 0; round < 200; round++) {
        bool changed = round % 9 == 0;
        int64_t d = byoc_backoff_next(&b, changed);
        int64_t c = b.current_ms;
        CHECK(d >= (int64_t)(c * 0.8) - 1 && d <= (int64_t)(c * 1.2) + 1);
        CHECK(d >= 1600); /* never faster than base * (1 - jitter) */
        CHECK(d <= 72000);
        if (d < c)
            below++;
        if (d > c)
            above++;
    }
    CHECK(below > 20 && above > 20);
    /* two watchers started together drift apart */
    byoc_backoff x, y;
    byoc_backoff_init(&x, 2000, 60000, 0.2, 1);
    byoc_backoff_init(&y, 2000, 60000, 0.2, 2);
    int differ = 0;
    for (int i = 0; i < 10; i++)
        differ += byoc_backoff_next(&x, false) != byoc_backoff_next(&y, false);
    CHECK(differ >= 8);
}

static int cancel_then_sleep(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    int *out = arg;
    out[0] = byoc_backoff_sleep(t, 1); /* not cancelled yet: sleeps 1 ms */
    byoc_task_cancel(t);
    out[1] = byoc_backoff_sleep(t, 3600 * 1000); /* would be an hour; returns at once */
    *result = NULL;
    return 0;
}

static void test_sleep_cancel(void)
{
    int out[2] = {-1, -1};
    byoc_err err;
    byoc_err_clear(&err);
    CHECK_INT(byoc_task_run_sync("sleep", cancel_then_sleep, out, NULL, NULL, &err, NULL, NULL), 0);
    CHECK_INT(out[0], 0);
    CHECK_INT(out[1], 1);
    CHECK(!byoc_backoff_sleep(NULL, 0));
}

int main(void)
{
    test_no_jitter_sequence();
    test_defaults();
    test_jitter_band();
    test_sleep_cancel();
    return check_done();
}
