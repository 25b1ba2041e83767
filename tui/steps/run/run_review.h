/* run_review: the page shown before a job is sent: the exact CreateJob
 * request (method, URL, body) with the resolved role, bucket, uploads and
 * warnings from a dry run, or the local run's spec, and under it the
 * preflight checks of that job (preflight_model.h) as they finish.
 *
 * The page only shows and asks: the Run screen owns the preflight task and
 * the checks (they outlive the page), and decides what y/Enter does (send,
 * or ask first when a check failed); p asks it to run the checks again; Tab
 * moves the focus (and the scroll keys) between the request and the checks;
 * q/Esc goes back to the form, and the page's closing is reported (the Run
 * screen, shown again, cancels a preflight still running). */
#ifndef BYOC_TUI_RUN_REVIEW_H
#define BYOC_TUI_RUN_REVIEW_H

#include <jansson.h>

#include "preflight_model.h"
#include "shell.h"

typedef struct tui_run_review_hooks {
    void (*send)(tui_app *a, void *ud);       /* y/Enter; the page stays until the owner pops it */
    void (*preflight)(tui_app *a, bool smoke, void *ud);  /* p; P adds the local smoke run */
    void (*closed)(void *ud);                 /* the page is being destroyed: forget it (no task calls here:
                                                 at exit the tasks are already released) */
    void *ud;
} tui_run_review_hooks;

/* plan: byoc_job_result_json of a dry run, or for local mode
 * {"local": spec json}; borrowed. checks: the owner's, drawn under the
 * request (may be NULL: no checks pane); must outlive the page. */
tui_screen *tui_run_review_new(tui_app *app, const char *title, const json_t *plan, tui_pf_view *checks,
                               const tui_run_review_hooks *hooks);

#endif
