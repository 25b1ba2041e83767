/* job_model: what the Monitor's job view knows of one job, fed by the jobs
 * module's watch task (byoc/jobs.h) and kept apart from its drawing, so a
 * test can hold it beside the CLI's answer.
 *
 * Its log lines go to the caller as they come ("[algo-1] text" when the
 * record names its source), with their time in epoch seconds. */
#ifndef BYOC_TUI_JOB_MODEL_H
#define BYOC_TUI_JOB_MODEL_H

#include <jansson.h>
#include <stdbool.h>

#include "core/task.h"

typedef struct tui_job_model {
    json_t *job;                 /* the latest state (BYOC_JOBS_STATUS), NULL before the first */
    json_t *config;              /* the GetJob reply (BYOC_JOBS_DESCRIBED), NULL for a local job */
    bool watching;               /* the watch runs: no DONE/ERROR event yet */
    bool ended;                  /* the watch ended with the job */
    char *error;                 /* why the watch failed (not when cancelled) */
} tui_job_model;

typedef void (*tui_job_line_fn)(const char *line, double ts, void *ud);

/* Take in a watch task's event. Returns true when the job's state or description changed. */
bool tui_job_model_event(tui_job_model *m, const byoc_event *ev, tui_job_line_fn on_line, void *ud);
void tui_job_model_clear(tui_job_model *m);

#endif
