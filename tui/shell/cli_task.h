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
#endif
