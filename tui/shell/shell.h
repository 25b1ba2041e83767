/* shell: what a screen is and what the app offers it. This is the header
 * the step screens are written against.
 *
 * A screen is an object (htop's Panel idea): a struct that embeds
 * tui_screen first and points to a const tui_screen_ops table. The app owns
 * the loop; a screen only draws into the rectangle it is given, reacts to
 * keys already resolved to actions through the action table, and receives
 * the events of the tasks it started. It never blocks: long work is a task
 * (core/task.h) started with tui_app_start_task.
 *
 * Adding a screen: write screen_<name>.c with
 *     typedef struct { tui_screen base; tui_list jobs; ... } monitor_screen;
 *     static const tui_screen_ops ops = {.name = "monitor", .draw = ..., .key = ...};
 *     tui_screen *tui_screen_monitor_new(tui_app *app) { ... tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP); }
 * and list the constructor in screens.h (steps) or push it with
 * tui_app_push (a detail view: q/Esc pops it).
 *
 * Key routing: the app builds the context chain [screen's contexts() (its
 * focused widget, e.g. EDIT + FORM), screen->ctx, GLOBAL], resolves the key
 * to an action row, calls ops->key(); if that returns false the app handles
 * the global actions (help, back, goto, command...). `:name` commands are
 * delivered the same way with key = 0. */
#ifndef BYOC_TUI_SHELL_H
#define BYOC_TUI_SHELL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "aws/clients.h"
#include "docker/engines.h"
#include "cli.h"
#include "core/task.h"
#include "dialog.h"
#include "draw.h"
#include "statusbar.h"

typedef struct tui_app tui_app;
typedef struct tui_screen tui_screen;

typedef struct tui_keyev {
    int key;                   /* keys.h; 0 for a `:` command */
    tui_action_id action;      /* TUI_ACT_NONE for a text key or an unbound key */
    const tui_action *row;     /* the table row matched, or NULL */
    const char *arg;           /* a `:` command's argument, or NULL */
} tui_keyev;

typedef struct tui_screen_ops {
    const char *name;          /* "build": also the `:goto` name of a step */
    /* All optional but draw. */
    void (*destroy)(tui_screen *s);                 /* free the screen (the struct too) */
    void (*enter)(tui_screen *s);                   /* now shown */
    void (*leave)(tui_screen *s);                   /* now hidden */
    void (*draw)(tui_screen *s, WINDOW *win, tui_rect r);
    bool (*key)(tui_screen *s, const tui_keyev *ev);        /* true when handled */
    void (*on_event)(tui_screen *s, const byoc_event *ev);  /* events of its tasks */
    void (*on_resize)(tui_screen *s, tui_rect r);
    /* The focus chain of its widgets, most specific first (e.g. EDIT, FORM). */
    size_t (*contexts)(tui_screen *s, tui_ctx *out, size_t max);
    /* Called every 100 ms while s->wants_tick; true to redraw. */
    bool (*tick)(tui_screen *s, uint64_t now_ms);
    /* The title of the content box ("2 Build"), or NULL for the default. */
    void (*title)(tui_screen *s, char *buf, size_t size);
} tui_screen_ops;

struct tui_screen {
    const tui_screen_ops *ops;
    tui_app *app;
    tui_ctx ctx;               /* STEP for the step screens, HELP for help... */
    int step;                  /* the step index for step screens, else -1 */
    bool dirty;                /* redraw wanted (tui_screen_dirty) */
    bool wants_tick;
    bool wide;                 /* use the whole width: the step list is hidden meanwhile */
    bool top_level;            /* shown above the steps, yet q quits here as on a step (the welcome page) */
    /* What this screen's open question is about (TUI_ABOUT_MARK), in screen
     * coordinates: set by draw (the app clears it before each draw), e.g.
     * tui_list_selected_rect() of the list whose row is asked about. */
    tui_rect about;
};

void tui_screen_init(tui_screen *s, const tui_screen_ops *ops, tui_app *app, tui_ctx ctx, int step);
void tui_screen_dirty(tui_screen *s);
/* For a tick that shows the whole seconds since start_ms: true (redraw) when they differ from
 * *shown, which then holds them. */
bool tui_tick_seconds(uint64_t now_ms, uint64_t start_ms, long *shown);

/* --- the app, as screens see it ------------------------------------------- */
const byoc_globals *tui_app_globals(const tui_app *a);
/* The app's AWS clients, one per profile and region, shared by its tasks
 * (aws/clients.h): hand it to a task's arguments and take a client from it in
 * the task. It outlives every task of the app (they are joined before it goes). */
byoc_aws_clients *tui_app_aws(const tui_app *a);
/* The app's Docker engine holder (docker/engines.h), shared by its tasks the
 * same way: a task takes an engine from it, made afresh when DOCKER_HOST or
 * the TLS settings changed. It outlives every task of the app. */
byoc_engines *tui_app_engines(const tui_app *a);
/* The project directory the app works on (absolute when it exists). */
const char *tui_app_project(const tui_app *a);
/* Show s above the current screen (q/Esc pops it); the app owns it then. */
void tui_app_push(tui_app *a, tui_screen *s);
void tui_app_pop(tui_app *a);
void tui_app_goto_step(tui_app *a, int step);
/* Work in dir from now on: byoc moves there (chdir), the screens above the
 * steps close, every step starts afresh on it and Decide shows. Done once the
 * key or event being handled is over; an error is a message. */
void tui_app_open_project(tui_app *a, const char *dir);
/* A one-line message at the bottom until the next key. */
void tui_app_message(tui_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tui_app_error(tui_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Dialogs: the callback runs once, when the dialog closes. */
typedef void (*tui_confirm_fn)(tui_app *a, bool yes, void *ud);
typedef void (*tui_input_fn)(tui_app *a, bool ok, const char *value, void *ud);
void tui_app_confirm(tui_app *a, const char *title, const char *text, const char *yes_label,
                     tui_confirm_fn done, void *ud);
void tui_app_alert(tui_app *a, const char *title, const char *text);
void tui_app_input(tui_app *a, const char *title, const char *text, const char *initial,
                   tui_input_check_fn check, void *check_ud, tui_input_fn done, void *ud);
/* Say what the dialog just opened asks about, so that it does not cover it
 * (dialog.h): MARK is what s marks in s->about while drawing; PANE is all of
 * s's content, which then keeps the page keys (they scroll it while the
 * question is open: s->ops->key gets them). Only while s is on top;
 * otherwise, and without this call, the dialog is centred. */
void tui_app_dialog_about(tui_app *a, tui_screen *s, tui_about about);
/* Start a task whose events go to owner->ops->on_event (owner NULL: the app
 * shows its status and errors as messages). The task is released after its
 * DONE/ERROR event was delivered; do not keep the handle past that event. */
byoc_task *tui_app_start_task(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn, void *arg,
                              void (*arg_free)(void *));
size_t tui_app_running_tasks(const tui_app *a);
/* Cancel the app's task with this id (byoc_task_id), if it still is one: a no-op after its
 * DONE/ERROR event was delivered, and while the app closes (its tasks are cancelled, joined and
 * released before the screens are destroyed). A screen's destroy cancels its tasks so, never
 * through a handle it kept. */
void tui_app_cancel_task(tui_app *a, uint64_t id);
/* The status bar's profile / region / engine (e.g. from the doctor). */
void tui_app_set_status(tui_app *a, tui_sb_field f, const char *value);
const tui_statusbar *tui_app_status(const tui_app *a);
/* For a problem with its fix (statusbar.h: tui_status_region_missing...):
 * change the bar, then say so with tui_app_status_changed. */
tui_statusbar *tui_app_status_edit(tui_app *a);
void tui_app_status_changed(tui_app *a);
/* Redraw everything on the next loop turn. */
void tui_app_redraw(tui_app *a);

#endif
