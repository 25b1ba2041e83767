/* core/task: event order, the readiness descriptor, cancellation, floods, run_sync. */
#include "check.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/task.h"

#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool fd_readable(byoc_evq *q)
{
    struct pollfd p = {.fd = byoc_evq_fd(q), .events = POLLIN};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void nap(void)
{
    struct timespec ts = {0, 1000000L};
    nanosleep(&ts, NULL);
}

/* Pop everything until the task's final event; events go to `seen` (caller releases). */
static size_t drain_until_final(byoc_evq *q, byoc_event *seen, size_t max)
{
    size_t n = 0;
    bool final = false;
    while (!final && byoc_evq_wait(q, 30000)) {
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            final = ev.kind == BYOC_EV_DONE || ev.kind == BYOC_EV_ERROR;
            if (n < max)
                seen[n++] = ev;
            else
                byoc_event_release(&ev);
        }
    }
    return n;
}

static int ordered_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                        byoc_err *err)
{
    for (int i = 0; i < 10; i++)
        byoc_task_log(t, "line %d", i);
    byoc_task_status(t, "working on %s", (const char *)arg);
    byoc_task_progress(t, "layer", 5, 10, "half");
    *result = byoc_xstrdup("the result");
    *result_free = free;
    return 0;
}

static void test_order_and_fd(void)
{
    byoc_evq *q = byoc_evq_new();
    CHECK(q != NULL);
    CHECK(!fd_readable(q));
    CHECK(!byoc_evq_wait(q, 0));
    byoc_event seen[32];
    byoc_task *t = byoc_task_start(q, "ordered", ordered_task, byoc_xstrdup("x"), free);
    CHECK_STR(byoc_task_name(t), "ordered");
    byoc_task_join(t);
    CHECK(byoc_task_finished(t));
    CHECK(fd_readable(q));
    CHECK(byoc_evq_wait(q, 0));

    byoc_event first;
    CHECK(byoc_evq_pop(q, &first));
    CHECK(fd_readable(q)); /* still pending: level-triggered */
    CHECK_INT(first.kind, BYOC_EV_LOG);
    CHECK_STR(first.text, "line 0");
    CHECK_INT(first.task_id, byoc_task_id(t));
    byoc_event_release(&first);

    size_t n = drain_until_final(q, seen, 32);
    CHECK_INT(n, 12);
    CHECK(!fd_readable(q));
    for (int i = 1; i < 10 && (size_t)i <= n; i++) {
        char want[16];
        snprintf(want, sizeof want, "line %d", i);
        CHECK_INT(seen[i - 1].kind, BYOC_EV_LOG);
        CHECK_STR(seen[i - 1].text, want);
    }
    if (n == 12) {
        CHECK_INT(seen[9].kind, BYOC_EV_STATUS);
        CHECK_STR(seen[9].text, "working on x");
        CHECK_INT(seen[10].kind, BYOC_EV_PROGRESS);
        CHECK_STR(seen[10].key, "layer");
        CHECK_INT(seen[10].current, 5);
        CHECK_INT(seen[10].total, 10);
        CHECK_INT(seen[11].kind, BYOC_EV_DONE);
        CHECK_STR((const char *)seen[11].result, "the result");
        char *taken = seen[11].result; /* take the result: the event must not free it */
        seen[11].result = NULL;
        free(taken);
    }
    for (size_t i = 0; i < n; i++)
        byoc_event_release(&seen[i]);
    CHECK(!byoc_evq_wait(q, 10));
    byoc_task_release(t);
    byoc_evq_free(q);
}

static atomic_int args_freed;

static void count_free(void *p)
{
    atomic_fetch_add(&args_freed, 1);
    free(p);
}

static int until_cancelled(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                           byoc_err *err)
{
    byoc_task_status(t, "waiting");
    while (!byoc_task_cancelled(t))
        nap();
    /* A task that reports some other failure after a cancel still ends as cancelled. */
    return byoc_err_set(err, BYOC_E_NET, "x", "connection reset");
}

static void test_cancel(void)
{
    byoc_evq *q = byoc_evq_new();
    byoc_task *t = byoc_task_start(q, "waiter", until_cancelled, byoc_xstrdup("a"), count_free);
    byoc_event ev;
    CHECK(byoc_evq_wait(q, 30000));
    CHECK(byoc_evq_pop(q, &ev));
    CHECK_INT(ev.kind, BYOC_EV_STATUS);
    byoc_event_release(&ev);
    CHECK(!byoc_task_cancelled(t));
    byoc_task_cancel(t);
    CHECK(byoc_task_cancelled(t));
    byoc_event seen[4];
    size_t n = drain_until_final(q, seen, 4);
    CHECK_INT(n, 1);
    if (n == 1) {
        CHECK_INT(seen[0].kind, BYOC_EV_ERROR);
        CHECK_INT(seen[0].err.kind, BYOC_E_CANCELLED);
    }
    for (size_t i = 0; i < n; i++)
        byoc_event_release(&seen[i]);
    byoc_task_release(t);
    CHECK_INT(atomic_load(&args_freed), 1);

    /* Freeing the queue cancels and joins what still runs. */
    byoc_task_start(q, "w1", until_cancelled, byoc_xstrdup("b"), count_free);
    byoc_task_start(q, "w2", until_cancelled, byoc_xstrdup("c"), count_free);
    byoc_evq_free(q);
    CHECK_INT(atomic_load(&args_freed), 3);

    CHECK(!byoc_task_cancelled(NULL));
    CHECK(!byoc_task_finished(NULL));
    byoc_task_log(NULL, "nothing %d", 1); /* no-ops outside a task */
    byoc_task_progress(NULL, "k", 1, 2, "x");
}

static int failing_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                        byoc_err *err)
{
    return byoc_err_set(err, BYOC_E_USAGE, "--flag", "bad value");
}

static int silent_failure(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                          byoc_err *err)
{
    return -1; /* forgot to fill err */
}

static void test_errors(void)
{
    byoc_evq *q = byoc_evq_new();
    byoc_task *a = byoc_task_start(q, "a", failing_task, NULL, NULL);
    byoc_event seen[4];
    size_t n = drain_until_final(q, seen, 4);
    CHECK_INT(n, 1);
    CHECK_INT(seen[0].kind, BYOC_EV_ERROR);
    CHECK_INT(seen[0].err.kind, BYOC_E_USAGE);
    CHECK_STR(seen[0].err.what, "--flag");
    CHECK_STR(seen[0].err.message, "bad value");
    byoc_event_release(&seen[0]);
    byoc_task *b = byoc_task_start(q, "b", silent_failure, NULL, NULL);
    n = drain_until_final(q, seen, 4);
    CHECK_INT(n, 1);
    CHECK_INT(seen[0].kind, BYOC_EV_ERROR);
    CHECK_INT(seen[0].err.kind, BYOC_E_FAILED);
    byoc_event_release(&seen[0]);
    byoc_task_release(a);
    byoc_task_release(b);
    byoc_evq_free(q);
}

#define FLOOD_LOGS 20000
#define FLOOD_PROGRESS 50000

static int flood_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                      byoc_err *err)
{
    byoc_task_progress(t, "blob", 0, FLOOD_PROGRESS, NULL);
    for (int i = 0; i < FLOOD_LOGS; i++)
        byoc_task_log(t, "log %d", i);
    for (int i = 1; i <= FLOOD_PROGRESS; i++)
        byoc_task_progress(t, "blob", i, FLOOD_PROGRESS, "pushing");
    byoc_task_progress(t, "other", 1, 1, NULL); /* a new key: waits for room if full */
    byoc_task_status(t, "pushed");
    return 0;
}

/* A producer far faster than the consumer: it waits for room instead of
 * dropping, so every line arrives, in order; PROGRESS is still coalesced. */
static void test_flood(void)
{
    byoc_evq *q = byoc_evq_new();
    byoc_task *t = byoc_task_start(q, "flood", flood_task, NULL, NULL);
    size_t logs = 0, done = 0, status = 0, other = 0, progress = 0;
    int64_t last_blob = -1;
    int last_log = -1;
    bool logs_in_order = true, final = false;
    while (!final && byoc_evq_wait(q, 30000)) {
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_LOG) {
                int i = atoi(ev.text + 4);
                logs_in_order &= i == last_log + 1;
                last_log = i;
                logs++;
            } else if (ev.kind == BYOC_EV_PROGRESS) {
                progress++;
                if (strcmp(ev.key, "blob") == 0)
                    last_blob = ev.current;
                else
                    other++;
            } else if (ev.kind == BYOC_EV_STATUS) {
                status++;
            } else if (ev.kind == BYOC_EV_DONE) {
                done++;
                final = true;
            }
            byoc_event_release(&ev);
        }
        nap(); /* a slow consumer */
    }
    CHECK_INT(done, 1);
    CHECK_INT(status, 1);
    CHECK_INT(logs, FLOOD_LOGS);
    CHECK(logs_in_order);
    CHECK_INT(last_blob, FLOOD_PROGRESS);
    CHECK(progress >= 2 && progress <= FLOOD_PROGRESS + 2);
    CHECK_INT(other, 1);
    CHECK_INT(byoc_evq_dropped(q), 0);
    CHECK(!fd_readable(q));
    byoc_task_release(t);
    byoc_evq_free(q);
}

static int numbered_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                         byoc_err *err)
{
    for (int i = 0; i < 500; i++)
        byoc_task_log(t, "%d", i);
    return 0;
}

static void test_many_tasks(void)
{
    enum { N = 8 };
    byoc_evq *q = byoc_evq_new();
    byoc_task *tasks[N];
    for (int i = 0; i < N; i++)
        tasks[i] = byoc_task_start(q, "n", numbered_task, NULL, NULL);
    int next[N] = {0}, done = 0;
    bool in_order = true, all_known = true;
    while (done < N && byoc_evq_wait(q, 30000)) {
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            int k = -1;
            for (int i = 0; i < N; i++)
                if (byoc_task_id(tasks[i]) == ev.task_id)
                    k = i;
            all_known &= k >= 0;
            if (ev.kind == BYOC_EV_LOG && k >= 0)
                in_order &= atoi(ev.text) == next[k]++;
            if (ev.kind == BYOC_EV_DONE)
                done++;
            byoc_event_release(&ev);
        }
    }
    CHECK_INT(done, N);
    CHECK(all_known);
    CHECK(in_order);
    for (int i = 0; i < N; i++)
        CHECK_INT(next[i], 500);
    for (int i = 0; i < N; i++)
        byoc_task_release(tasks[i]);
    byoc_evq_free(q);
}

static int secret_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *),
                       byoc_err *err)
{
    byoc_task_log(t, "key=%s", "wJalrXUtnFEMI/K7MDENG");
    byoc_task_progress(t, "wJalrXUtnFEMI/K7MDENG", 1, 2, "with wJalrXUtnFEMI/K7MDENG");
    byoc_task_check(t, "check wJalrXUtnFEMI/K7MDENG", 2, "found wJalrXUtnFEMI/K7MDENG",
                    "rotate wJalrXUtnFEMI/K7MDENG");
    byoc_task_check(t, "plain", 0, "fine", "");
    return byoc_err_set(err, BYOC_E_FAILED, "x", "token %s rejected", "wJalrXUtnFEMI/K7MDENG");
}

typedef struct collected {
    byoc_buf text;
    int count;
    byoc_ev_kind last;
} collected;

static void collect(const byoc_event *ev, void *ud)
{
    collected *c = ud;
    c->count++;
    c->last = ev->kind;
    byoc_buf_printf(&c->text, "%d:%s:%s|", (int)ev->kind, ev->key ? ev->key : "",
                    ev->kind == BYOC_EV_ERROR ? ev->err.message : ev->text ? ev->text : "");
    if (ev->kind == BYOC_EV_CHECK)
        byoc_buf_printf(&c->text, "%lld:%s|", (long long)ev->current, ev->detail ? ev->detail : "(none)");
}

static void test_redaction_and_sync(void)
{
    byoc_secret_register("wJalrXUtnFEMI/K7MDENG");
    collected c = {BYOC_BUF_INIT, 0, 0};
    byoc_err err;
    void *result = (void *)1;
    void (*result_free)(void *) = NULL;
    int rc = byoc_task_run_sync("secret", secret_task, NULL, &result, &result_free, &err, collect, &c);
    CHECK_INT(rc, -1);
    CHECK(result == NULL);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK_STR(err.message, "token *** rejected");
    CHECK_INT(c.count, 5);
    CHECK_INT(c.last, BYOC_EV_ERROR);
    CHECK(strstr(byoc_buf_str(&c.text), "wJalr") == NULL);
    CHECK_STR(byoc_buf_str(&c.text), "0::key=***|1:***:with ***|5:check ***:found ***|2:rotate ***|"
                                     "5:plain:fine|0:(none)|4::token *** rejected|");
    byoc_buf_clear(&c.text);
    byoc_secret_clear_all();

    c = (collected){BYOC_BUF_INIT, 0, 0};
    rc = byoc_task_run_sync("ordered", ordered_task, "y", &result, &result_free, &err, collect, &c);
    CHECK_INT(rc, 0);
    CHECK_STR((const char *)result, "the result");
    CHECK(result_free == free);
    if (result_free)
        result_free(result);
    CHECK_INT(c.count, 13);
    CHECK_INT(c.last, BYOC_EV_DONE);
    byoc_buf_clear(&c.text);

    /* No sink, result not wanted: it is freed for us. */
    rc = byoc_task_run_sync("ordered", ordered_task, "z", NULL, NULL, NULL, NULL, NULL);
    CHECK_INT(rc, 0);
}

/* Every message a task posts quotes outside text somewhere (a service's field,
 * an engine's status, a file name): it arrives printable, whichever printer
 * shows it. Only the job's and the build's own output keeps its bytes. */
#define EVIL "\x1b]0;PWNED\x07\x1b[2J\xc2\x9b" "31m\x07"

static int hostile_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg;
    (void)err;
    *result = NULL;
    *result_free = NULL;
    byoc_task_log(t, "created %s", "arn" EVIL);
    byoc_task_status(t, "device is ONLINE%s\nnext", EVIL);
    byoc_task_progress(t, "layer" EVIL, 1, 2, "Pushing" EVIL);
    byoc_task_check(t, "image" EVIL, 1, "found" EVIL, "fix" EVIL);
    byoc_task_output(t, "job line %s", EVIL);
    byoc_task_output_text(t, "a" EVIL "\nb", strlen("a" EVIL "\nb"));
    return 0;
}

static void test_printable_events(void)
{
    collected c = {BYOC_BUF_INIT, 0, 0};
    byoc_err err;
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    CHECK_INT(byoc_task_run_sync("hostile", hostile_task, NULL, &result, &result_free, &err, collect, &c), 0);
    CHECK_STR(byoc_buf_str(&c.text), "0::created arn?31m?|2::device is ONLINE?31m? next|1:layer?31m?:Pushing?31m?|"
                                     "5:image?31m?:found?31m?|1:fix?31m?|"
                                     "0::job line " EVIL "|0::a" EVIL "\nb|3::|");
    byoc_buf_clear(&c.text);
}

static void note_verbatim(const byoc_event *ev, void *ud)
{
    byoc_buf *b = ud;
    if (ev->kind == BYOC_EV_LOG)
        byoc_buf_putc(b, ev->verbatim ? 'V' : 'p');
}

static void test_verbatim_flag(void)
{
    byoc_buf b = BYOC_BUF_INIT;
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_task_run_sync("hostile", hostile_task, NULL, &result, &result_free, NULL, note_verbatim, &b);
    CHECK_STR(byoc_buf_str(&b), "pVV");
    byoc_buf_clear(&b);
}

int main(void)
{
    test_order_and_fd();
    test_cancel();
    test_errors();
    test_flood();
    test_many_tasks();
    test_redaction_and_sync();
    test_printable_events();
    test_verbatim_flag();
    return check_done();
}
