/* app_internal: the app's state, shared by app.c (the loop), app_keys.c
 * (key and command dispatch), app_draw.c (layout and chrome) and app_api.c
 * (what shell.h offers screens). Not for screens. */
#ifndef BYOC_TUI_APP_INTERNAL_H
#define BYOC_TUI_APP_INTERNAL_H

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
    char *next_project;                 /* tui_app_open_project's directory, until it is applied */

    bool quit;
    int exit_code;
    unsigned dirty;
    int rows, cols;
    bool too_small;
};

/* app.c: the state without the terminal (tests drive it directly) */
tui_app *app_new(const byoc_globals *g);
void app_delete(tui_app *a);       /* cancels and joins running tasks */
void app_make_steps(tui_app *a);   /* a new screen for each step */
/* A directory without byoc.json that --project did not name: someone may be
 * new here, so the welcome page opens above Decide. Returns whether it did. */
bool app_welcome_if_new(tui_app *a);
/* app_draw.c */
void app_layout(tui_app *a);
void app_resize_steps(tui_app *a);   /* tell the steps their rectangle (after app_layout) */
void app_draw(tui_app *a);
tui_rect app_content_rect(const tui_app *a);
/* The content box with its border; shorter while a dialog is docked under it. */
tui_rect app_content_box(const tui_app *a);
/* Where the open dialog goes now. */
tui_dialog_place app_dialog_place(const tui_app *a);
/* What the open dialog is about, as far as the screen shown can tell:
 * NOTHING unless its asker is the screen on top. */
tui_about app_dialog_about(const tui_app *a);
/* app_keys.c */
void app_handle_key(tui_app *a, int key);
void app_request_quit(tui_app *a);
/* app_api.c */
tui_screen *app_top(const tui_app *a);
size_t app_chain(tui_app *a, tui_ctx *chain, size_t max);
void app_close_dialog(tui_app *a, tui_dialog_result r);
void app_dispatch_event(tui_app *a, byoc_event *ev);
void app_set_step(tui_app *a, int step);
void app_apply_project(tui_app *a);   /* what tui_app_open_project asked, if anything */

#endif
