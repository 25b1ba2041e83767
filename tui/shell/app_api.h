/* app_api: the app's state, and the calls on it that the app's own files
 * share beside what shell.h offers screens (app_api.c implements both). The
 * low layer of the app: it opens no screen and knows nothing of the loop
 * (app.c), the keys (app_keys.c) or the layout (app_draw.c), which sit above
 * it; flow.c keeps the flow in it. Not for screens. */
#ifndef BYOC_TUI_APP_API_H
#define BYOC_TUI_APP_API_H

#include "background.h"
#include "dialog.h"
#include "editline.h"
#include "shell.h"
#include "statusbar.h"
#include "steps.h"

#define APP_MIN_COLS 80
#define APP_MIN_ROWS 24
#define APP_MAX_STACK 8
#define APP_HISTORY 32
#define APP_TICK_MS 100

enum {
    DIRTY_TOP = 1, DIRTY_SIDEBAR = 2, DIRTY_CONTENT = 4, DIRTY_STATUS = 8, DIRTY_BOTTOM = 16,
    DIRTY_ALL = 31,
};

typedef struct app_task {
    byoc_task *task;
    tui_screen *owner;
    tui_task_event_fn on_event;         /* where the events go without an owner (background.h), or NULL */
    bool background;                    /* only reads: quitting does not ask about it (background.h) */
} app_task;

struct tui_flow;

struct tui_app {
    const byoc_globals *g;
    char *project;                      /* the project directory, absolute when it exists */
    tui_statusbar status;
    byoc_evq *q;

    tui_screen *steps[TUI_STEP_COUNT];
    int step;
    tui_screen *stack[APP_MAX_STACK];   /* screens shown above the step */
    int depth;
    bool sidebar_focus;

    bool prompting;
    tui_edit prompt;
    char prompt_info[256];              /* completion matches while prompting */
    char *history[APP_HISTORY];
    int nhistory, history_pos;

    char msg[1024];                     /* the bottom line's message until the next key */
    bool msg_error;
    char last_msg[1024];                /* ... kept after it went: the whole view shows it (whole.h) */

    bool dialog_open;
    tui_dialog dialog;
    tui_confirm_fn confirm_done;
    tui_input_fn input_done;
    void *dialog_ud;
    tui_about dialog_about;             /* what the open dialog asks about (tui_app_dialog_about) */
    tui_screen *dialog_owner;           /* the screen that marks it; NULL when it is gone */

    app_task *tasks;
    size_t ntasks, tasks_cap;

    struct tui_flow *flow;              /* what the steps hand on (flow.h), or NULL until set */
    byoc_aws_clients *aws;              /* the AWS clients the tasks share (tui_app_aws) */
    byoc_engines *engines;              /* the Docker engine they share (tui_app_engines) */
    char *next_project;                 /* tui_app_open_project's directory, until it is applied */

    bool quit;
    int exit_code;
    unsigned dirty;
    int rows, cols;
    bool too_small;
};

tui_screen *app_top(const tui_app *a);
/* The key contexts in force, innermost first (at most max). */
size_t app_chain(tui_app *a, tui_ctx *chain, size_t max);
/* What the open dialog is about, as far as the screen shown can tell:
 * NOTHING unless its asker is the screen on top. */
tui_about app_dialog_about(const tui_app *a);
void app_close_dialog(tui_app *a, tui_dialog_result r);
/* A task's event to its owner (a screen or a callback), or as a message;
 * the task is forgotten after its last event. */
void app_route_event(tui_app *a, byoc_event *ev);
void app_set_step(tui_app *a, int step);
/* Now shown: enter() and a redraw. */
void app_show(tui_screen *s);
/* Closes every screen for good, the overlays, then the steps (tui_app_open_project):
 * what a step started is cancelled, it was for the old directory. a->steps
 * points at nothing until app.c makes new steps. */
void app_close_steps(tui_app *a);

#endif
