/* core/task backpressure: a producer posting more events than the queue
 * holds waits for the consumer, so every event arrives, in order; batched
 * lines (byoc_task_output_text) arrive as one event; cancelling a task that
 * waits for room unblocks it at once. */
#include "check.h"
#include "core/task.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINES 50000      /* well over the queue's limit of a few thousand */

static void nap_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static atomic_int posted;

/* Until a producer waits for room in the full queue (60 s at most). Watching the
 * producer's progress instead would mistake a thread the scheduler has not run
 * for a blocked one, on a loaded machine. */
static bool wait_for_blocked_producer(byoc_evq *q)
{
    for (int i = 0; i < 6000; i++) {
        if (byoc_evq_waiting(q) > 0)
            return true;
        nap_ms(10);
    }
    return false;
}

static int line_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg, (void)result, (void)result_free, (void)err;
    for (int i = 0; i < LINES; i++) {
        byoc_task_log(t, "line %d", i);
        atomic_store(&posted, i + 1);
    }
    byoc_task_output_text(t, "a\nb\nc", 5);
    return 0;
}

/* Nobody consumes until the producer is stuck; then every line, in order. */
static void test_flood_in_order(void)
{
    atomic_store(&posted, 0);
    byoc_evq *q = byoc_evq_new();
    byoc_task *t = byoc_task_start(q, "lines", line_task, NULL, NULL);
    CHECK(wait_for_blocked_producer(q));
    CHECK(atomic_load(&posted) < LINES);
    CHECK(!byoc_task_finished(t));
    int next = 0;
    bool in_order = true, batch_ok = false, final = false;
    while (!final && byoc_evq_wait(q, 30000)) {
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_LOG && next < LINES) {
                char want[32];
                snprintf(want, sizeof want, "line %d", next++);
                in_order &= strcmp(ev.text, want) == 0;
            } else if (ev.kind == BYOC_EV_LOG) {
                batch_ok = strcmp(ev.text, "a\nb\nc") == 0;
            }
            final = ev.kind == BYOC_EV_DONE || ev.kind == BYOC_EV_ERROR;
            CHECK(ev.kind != BYOC_EV_ERROR);
            byoc_event_release(&ev);
        }
    }
    CHECK(final);
    CHECK_INT(next, LINES);
    CHECK(in_order);
    CHECK(batch_ok);
    CHECK_INT(byoc_evq_dropped(q), 0);
    byoc_task_release(t);
    byoc_evq_free(q);
}

static int endless_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg, (void)result, (void)result_free;
    for (long i = 0; !byoc_task_cancelled(t); i++) {
        byoc_task_log(t, "line %ld", i);
        atomic_store(&posted, (int)(i % 1000000000L) + 1);
    }
    byoc_err_set(err, BYOC_E_CANCELLED, "endless", "cancelled");
    return -1;
}

/* A producer blocked on a full queue ends once cancelled, without a consumer. */
static void test_cancel_unblocks(void)
{
    atomic_store(&posted, 0);
    byoc_evq *q = byoc_evq_new();
    byoc_task *t = byoc_task_start(q, "endless", endless_task, NULL, NULL);
    CHECK(wait_for_blocked_producer(q));
    CHECK(!byoc_task_finished(t));
    byoc_task_cancel(t);
    byoc_task_join(t);           /* would hang if the waiting producer were not woken */
    CHECK(byoc_task_finished(t));
    size_t logs = 0;
    bool got_error = false;
    byoc_event ev;
    while (byoc_evq_pop(q, &ev)) {
        if (ev.kind == BYOC_EV_LOG)
            logs++;
        if (ev.kind == BYOC_EV_ERROR)
            got_error = ev.err.kind == BYOC_E_CANCELLED;
        byoc_event_release(&ev);
    }
    CHECK(got_error);
    CHECK(logs > 0);
    CHECK(byoc_evq_dropped(q) >= 1);   /* the line it was waiting to post */
    byoc_task_release(t);
    byoc_evq_free(q);
}

/* Freeing the queue cancels a blocked producer too. */
static void test_free_unblocks(void)
{
    atomic_store(&posted, 0);
    byoc_evq *q = byoc_evq_new();
    byoc_task_start(q, "endless", endless_task, NULL, NULL);
    CHECK(wait_for_blocked_producer(q));
    byoc_evq_free(q);
    CHECK(true);
}

int main(void)
{
    test_flood_in_order();
    test_cancel_unblocks();
    test_free_unblocks();
    return check_done();
}
