/* run_review: the page shown before a job is sent: the exact CreateJob
 * request (method, URL, body) with the resolved role, bucket, uploads and
 * warnings from a dry run, or the local run's spec. y/Enter sends it (the
 * callback runs, then the page closes); q/Esc goes back to the form. */
#ifndef BYOC_TUI_RUN_REVIEW_H
#define BYOC_TUI_RUN_REVIEW_H

#include <jansson.h>

#include "shell.h"

typedef void (*tui_run_send_fn)(tui_app *a, void *ud);

/* plan: byoc_job_result_json of a dry run, or for local mode
 * {"local": spec json}; borrowed. */
tui_screen *tui_run_review_new(tui_app *app, const char *title, const json_t *plan, tui_run_send_fn send, void *ud);

#endif
