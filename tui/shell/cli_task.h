/* cli_task: run one core/task.h task for a CLI verb, in the foreground: its
 * events go to a printer as they come, and Ctrl-C (SIGINT, SIGTERM) cancels it. */
#ifndef BYOC_TUI_CLI_TASK_H
#define BYOC_TUI_CLI_TASK_H
#include "core/err.h"
#include "core/task.h"

/* Called for every event but DONE and ERROR. */
typedef void (*byoc_cli_task_printer)(void *ud, const byoc_event *ev);

/* Start fn(arg) (arg freed with arg_free, which may be NULL, when the task
 * ends) and wait for it. Returns 0 when it ended DONE, with its result in
 * *result when result is not NULL (the caller frees it; else it is released),
 * or -1 with err set from its ERROR event (a cancelled task's kind is
 * BYOC_E_CANCELLED). */
int byoc_cli_run_task(const char *name, byoc_task_fn fn, void *arg, void (*arg_free)(void *),
                      byoc_cli_task_printer print, void *ud, void **result, byoc_err *err);

/* A plain call (t for its cancellation and events) run the same way: fn(t, call_ud, err) on a
 * task's thread while this one waits, Ctrl-C cancelling it, its events to print (may be NULL).
 * call_ud stays the caller's. Returns fn's answer: 0, or -1 with err (BYOC_E_CANCELLED after
 * Ctrl-C, when fn noticed). */
typedef int (*byoc_cli_call_fn)(byoc_task *t, void *call_ud, byoc_err *err);
int byoc_cli_run_call(const char *name, byoc_cli_call_fn fn, void *call_ud, byoc_cli_task_printer print, void *ud,
                      byoc_err *err);
#endif
