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

    char msg[256];
    bool msg_error;

    bool dialog_open;
    tui_dialog dialog;
    tui_confirm_fn confirm_done;
    tui_input_fn input_done;
    void *dialog_ud;

    app_task *tasks;
    size_t ntasks, tasks_cap;

    struct tui_flow *flow;              /* what the steps hand on (flow.h), or NULL until set */

    bool quit;
    int exit_code;
    unsigned dirty;
    int rows, cols;
    bool too_small;
};

/* app.c: the state without the terminal (tests drive it directly) */
tui_app *app_new(const byoc_globals *g);
void app_delete(tui_app *a);       /* cancels and joins running tasks */
/* app_draw.c */
void app_layout(tui_app *a);
void app_draw(tui_app *a);
tui_rect app_content_rect(const tui_app *a);
/* app_keys.c */
void app_handle_key(tui_app *a, int key);
void app_request_quit(tui_app *a);
/* app_api.c */
tui_screen *app_top(const tui_app *a);
size_t app_chain(tui_app *a, tui_ctx *chain, size_t max);
void app_close_dialog(tui_app *a, tui_dialog_result r);
void app_dispatch_event(tui_app *a, byoc_event *ev);
void app_set_step(tui_app *a, int step);

#endif
