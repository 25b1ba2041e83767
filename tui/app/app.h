/* app: the interactive TUI. byoc_tui_run() takes over the terminal, runs
 * the screens until the user quits (or a signal ends it) and always gives
 * the terminal back as it found it. Refuses terminals without cursor
 * addressing (TERM=dumb) with exit code 3. */
#ifndef BYOC_TUI_APP_H
#define BYOC_TUI_APP_H

#include "cli.h"
#include "shell.h"

int byoc_tui_run(const byoc_globals *g);   /* returns the process exit code */

/* The state without the terminal (tests drive it directly). */
tui_app *app_new(const byoc_globals *g);
void app_delete(tui_app *a);       /* cancels and joins running tasks */
/* A directory without byoc.json that --project did not name: someone may be
 * new here, so the welcome page opens above Decide. Returns whether it did. */
bool app_welcome_if_new(tui_app *a);
/* A key, or a task's event; then the project tui_app_open_project asked for, if any. */
void app_handle_key(tui_app *a, int key);
void app_dispatch_event(tui_app *a, byoc_event *ev);

#endif
