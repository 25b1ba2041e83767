#include "cli_task.h"

#include <signal.h>
#include <stdbool.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

int byoc_cli_run_task(const char *name, byoc_task_fn fn, void *arg, void (*arg_free)(void *),
                      byoc_cli_task_printer print, void *ud, void **result, byoc_err *err)
{
    byoc_evq *q = byoc_evq_new();
    struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
    sigemptyset(&sa.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    byoc_task *t = byoc_task_start(q, name, fn, arg, arg_free);
    bool done = false, cancel_sent = false;
    int rc = -1;
    while (!done) {
        if (interrupted && !cancel_sent) {
            cancel_sent = true;
            byoc_task_cancel(t);
        }
        byoc_evq_wait(q, 200);
        byoc_event ev;
        while (byoc_evq_pop(q, &ev)) {
            if (ev.kind == BYOC_EV_DONE) {
                if (result) {
                    *result = ev.result;
                    ev.result = NULL;
                }
                rc = 0;
                done = true;
            } else if (ev.kind == BYOC_EV_ERROR) {
                *err = ev.err;
                done = true;
            } else if (print) {
                print(ud, &ev);
            }
            byoc_event_release(&ev);
        }
    }
    byoc_task_release(t);
    byoc_evq_free(q);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

typedef struct call {
    byoc_cli_call_fn fn;
    void *ud;
} call;

static int call_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)result;
    (void)result_free;
    call *c = arg;
    return c->fn(t, c->ud, err) == 0 ? 0 : -1;
}

int byoc_cli_run_call(const char *name, byoc_cli_call_fn fn, void *call_ud, byoc_cli_task_printer print, void *ud,
                      byoc_err *err)
{
    call c = {fn, call_ud};
    return byoc_cli_run_task(name, call_task, &c, NULL, print, ud, NULL, err);
}
