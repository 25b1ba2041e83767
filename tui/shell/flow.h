/* flow: what one step hands to the next during a session, held by the app.
 *
 *   image        the local image to push: a reference ("repo:tag") or, for an
 *                untagged image, its id. Set by Build ("push this") and by the
 *                image browser; read by Push.
 *   image_id     that image's id ("sha256:..."), when known.
 *   image_uri    what Push pushed ("<registry>/<repository>:<tag>"), and
 *   image_digest its digest ("sha256:..."). Set by Push; read by Permit and Run.
 *   job_arn      the job Run created. Set by Run; read by Monitor.
 *
 * Every setter copies its strings and bumps `serial`, so a screen can tell
 * in enter() that something new was handed to it. Fields are NULL until set.
 * Only the UI thread touches it. */
#ifndef BYOC_TUI_FLOW_H
#define BYOC_TUI_FLOW_H

#include "shell.h"

typedef struct tui_flow {
    char *image;
    char *image_id;
    char *image_uri;
    char *image_digest;
    char *job_arn;
    unsigned serial;
} tui_flow;

/* The app's flow state (never NULL). */
const tui_flow *tui_flow_get(tui_app *a);
/* NULL arguments clear the field. */
void tui_flow_set_image(tui_app *a, const char *ref, const char *id);
void tui_flow_set_pushed(tui_app *a, const char *uri, const char *digest);
void tui_flow_set_job(tui_app *a, const char *job_arn);
/* For the app when it ends. */
void tui_flow_free(tui_flow *f);

#endif
