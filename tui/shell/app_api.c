/* app_api: the services shell.h offers screens: navigation, messages,
 * dialogs, tasks and the status values; and the calls on the app's state
 * that its other files share (app_api.h). It opens no screen: what makes
 * screens (the steps, help, the image browser) sits above, in app.c and
 * app_keys.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_api.h"
#include "core/buf.h"
#include "core/log.h"

void tui_screen_init(tui_screen *s, const tui_screen_ops *ops, tui_app *app, tui_ctx ctx, int step)
{
    memset(s, 0, sizeof *s);
    s->ops = ops;
    s->app = app;
    s->ctx = ctx;
    s->step = step;
    s->dirty = true;
}

bool tui_tick_seconds(uint64_t now_ms, uint64_t start_ms, long *shown)
{
    long secs = (long)((now_ms - start_ms) / 1000);
    if (secs == *shown)
        return false;
    *shown = secs;
    return true;
}

void tui_screen_dirty(tui_screen *s)
{
    if (s)
        s->dirty = true;
}

const byoc_globals *tui_app_globals(const tui_app *a)
{
    return a->g;
}

byoc_aws_clients *tui_app_aws(const tui_app *a)
{
    return a->aws;
}

byoc_engines *tui_app_engines(const tui_app *a)
{
    return a->engines;
}

const char *tui_app_project(const tui_app *a)
{
    return a->project;
}

tui_screen *app_top(const tui_app *a)
{
    return a->depth > 0 ? a->stack[a->depth - 1] : a->steps[a->step];
}

void app_show(tui_screen *s)
{
    if (s->ops->enter)
        s->ops->enter(s);
    s->dirty = true;
}

static void hide(tui_screen *s)
{
    if (s->ops->leave)
        s->ops->leave(s);
}

static void forget_owner(tui_app *a, tui_screen *s)
{
    for (size_t i = 0; i < a->ntasks; i++)
        if (a->tasks[i].owner == s)
            a->tasks[i].owner = NULL;
    if (a->dialog_owner == s)
        a->dialog_owner = NULL;
}

void tui_app_push(tui_app *a, tui_screen *s)
{
    if (a->depth == APP_MAX_STACK) {        /* the oldest overlay makes room */
        tui_screen *old = a->stack[0];
        hide(old);
        forget_owner(a, old);
        old->ops->destroy(old);
        memmove(a->stack, a->stack + 1, (APP_MAX_STACK - 1) * sizeof a->stack[0]);
        a->depth--;
    }
    hide(app_top(a));
    a->stack[a->depth++] = s;
    a->sidebar_focus = false;
    app_show(s);
    a->dirty = DIRTY_ALL;
}

void tui_app_pop(tui_app *a)
{
    if (a->depth == 0)
        return;
    tui_screen *s = a->stack[--a->depth];
    hide(s);
    forget_owner(a, s);
    if (s->ops->destroy)
        s->ops->destroy(s);
    app_show(app_top(a));
    a->dirty = DIRTY_ALL;
}

void app_set_step(tui_app *a, int step)
{
    if (step < 0 || step >= TUI_STEP_COUNT)
        return;
    while (a->depth > 0)
        tui_app_pop(a);
    if (step != a->step) {
        hide(a->steps[a->step]);
        a->step = step;
        app_show(a->steps[step]);
    }
    a->dirty = DIRTY_ALL;
}

void tui_app_goto_step(tui_app *a, int step)
{
    app_set_step(a, step);
    a->sidebar_focus = false;
}

void tui_app_open_project(tui_app *a, const char *dir)
{
    free(a->next_project);
    a->next_project = byoc_xstrdup(dir);
}

void app_close_steps(tui_app *a)
{
    while (a->depth > 0)
        tui_app_pop(a);
    hide(a->steps[a->step]);
    for (int i = 0; i < TUI_STEP_COUNT; i++) {
        for (size_t t = 0; t < a->ntasks; t++)   /* what a step started was for the old directory */
            if (a->tasks[t].owner == a->steps[i])
                byoc_task_cancel(a->tasks[t].task);
        forget_owner(a, a->steps[i]);
        a->steps[i]->ops->destroy(a->steps[i]);
    }
}

static void vmessage(tui_app *a, bool error, const char *fmt, va_list ap)
{
    char buf[sizeof a->msg];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char *clean = byoc_redact_dup(buf);
    snprintf(a->msg, sizeof a->msg, "%s", clean);
    snprintf(a->last_msg, sizeof a->last_msg, "%s", clean);
    free(clean);
    a->msg_error = error;
    a->dirty |= DIRTY_BOTTOM;
}

void tui_app_message(tui_app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(a, false, fmt, ap);
    va_end(ap);
}

void tui_app_error(tui_app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(a, true, fmt, ap);
    va_end(ap);
}

static void open_dialog(tui_app *a)
{
    if (a->dialog_open)                 /* a newer question replaces an open one, answering no */
        app_close_dialog(a, TUI_DIALOG_NO);
    a->dialog_about = TUI_ABOUT_NOTHING;
    a->dialog_owner = NULL;
}

void tui_app_dialog_about(tui_app *a, tui_screen *s, tui_about about)
{
    if (!a->dialog_open)
        return;
    a->dialog_owner = s;
    a->dialog_about = s ? about : TUI_ABOUT_NOTHING;
    a->dirty = DIRTY_ALL;
}

tui_about app_dialog_about(const tui_app *a)
{
    if (!a->dialog_open || a->too_small || !a->dialog_owner || a->dialog_owner != app_top(a))
        return TUI_ABOUT_NOTHING;
    return a->dialog_about;
}

void tui_app_confirm(tui_app *a, const char *title, const char *text, const char *yes_label,
                     tui_confirm_fn done, void *ud)
{
    open_dialog(a);
    tui_dialog_confirm(&a->dialog, title, text, yes_label, NULL);
    a->dialog_open = true;
    a->confirm_done = done;
    a->input_done = NULL;
    a->dialog_ud = ud;
    a->dirty = DIRTY_ALL;
}

void tui_app_alert(tui_app *a, const char *title, const char *text)
{
    open_dialog(a);
    tui_dialog_message(&a->dialog, title, text);
    a->dialog_open = true;
    a->confirm_done = NULL;
    a->input_done = NULL;
    a->dialog_ud = NULL;
    a->dirty = DIRTY_ALL;
}

void tui_app_input(tui_app *a, const char *title, const char *text, const char *initial,
                   tui_input_check_fn check, void *check_ud, tui_input_fn done, void *ud)
{
    open_dialog(a);
    tui_dialog_input(&a->dialog, title, text, initial, check, check_ud);
    a->dialog_open = true;
    a->confirm_done = NULL;
    a->input_done = done;
    a->dialog_ud = ud;
    a->dirty = DIRTY_ALL;
}

void app_close_dialog(tui_app *a, tui_dialog_result r)
{
    if (!a->dialog_open)
        return;
    tui_confirm_fn confirm = a->confirm_done;
    tui_input_fn input = a->input_done;
    void *ud = a->dialog_ud;
    char *value = byoc_xstrdup(tui_edit_text(&a->dialog.input));
    a->dialog_open = false;
    a->confirm_done = NULL;
    a->input_done = NULL;
    a->dialog_owner = NULL;
    a->dialog_about = TUI_ABOUT_NOTHING;
    tui_dialog_clear(&a->dialog);
    a->dirty = DIRTY_ALL;
    /* callbacks last: they may open the next dialog */
    if (confirm)
        confirm(a, r == TUI_DIALOG_YES, ud);
    if (input)
        input(a, r == TUI_DIALOG_YES, value, ud);
    byoc_free_secret(value);
}

byoc_task *tui_app_start_task(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn, void *arg,
                              void (*arg_free)(void *))
{
    byoc_task *t = byoc_task_start(a->q, name, fn, arg, arg_free);
    if (!t)
        return NULL;
    if (a->ntasks == a->tasks_cap) {
        a->tasks_cap = a->tasks_cap ? a->tasks_cap * 2 : 8;
        a->tasks = byoc_xrealloc(a->tasks, a->tasks_cap * sizeof *a->tasks);
    }
    a->tasks[a->ntasks++] = (app_task){t, owner, NULL, false};
    a->dirty |= DIRTY_STATUS | DIRTY_SIDEBAR;   /* the sidebar lists what runs */
    return t;
}

byoc_task *tui_app_start_background_task(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn,
                                         void *arg, void (*arg_free)(void *))
{
    byoc_task *t = tui_app_start_task(a, owner, name, fn, arg, arg_free);
    if (t)
        a->tasks[a->ntasks - 1].background = true;
    return t;
}

byoc_task *tui_app_start_background_feed(tui_app *a, const char *name, byoc_task_fn fn, void *arg,
                                         void (*arg_free)(void *), tui_task_event_fn on_event)
{
    byoc_task *t = tui_app_start_background_task(a, NULL, name, fn, arg, arg_free);
    if (t)
        a->tasks[a->ntasks - 1].on_event = on_event;
    return t;
}

uint64_t tui_app_read_project(tui_app *a, tui_screen *owner, const char *name, byoc_task_fn fn)
{
    byoc_task *t = tui_app_start_background_task(a, owner, name, fn, byoc_xstrdup(tui_app_project(a)), free);
    return t ? byoc_task_id(t) : 0;
}

size_t tui_app_running_tasks(const tui_app *a)
{
    return a->ntasks;
}

void tui_app_cancel_task(tui_app *a, uint64_t id)
{
    for (size_t i = 0; id && i < a->ntasks; i++)
        if (byoc_task_id(a->tasks[i].task) == id)
            byoc_task_cancel(a->tasks[i].task);
}

void tui_app_set_status(tui_app *a, tui_sb_field f, const char *value)
{
    tui_status_set(&a->status, f, value);
    tui_app_status_changed(a);
}

tui_statusbar *tui_app_status_edit(tui_app *a)
{
    return &a->status;
}

void tui_app_status_changed(tui_app *a)
{
    a->dirty |= DIRTY_STATUS;
    tui_screen *top = app_top(a);
    if (top && top->ops->enter && top->step >= 0)
        top->ops->enter(top);           /* step pages show these values */
}

const tui_statusbar *tui_app_status(const tui_app *a)
{
    return &a->status;
}

void tui_app_redraw(tui_app *a)
{
    a->dirty = DIRTY_ALL;
    clearok(curscr, TRUE);
}

void app_route_event(tui_app *a, byoc_event *ev)
{
    size_t i = 0;
    while (i < a->ntasks && byoc_task_id(a->tasks[i].task) != ev->task_id)
        i++;
    app_task *rec = i < a->ntasks ? &a->tasks[i] : NULL;
    tui_screen *owner = rec ? rec->owner : NULL;
    if (owner && owner->ops->on_event) {
        owner->ops->on_event(owner, ev);
        if (owner == app_top(a))
            a->dirty |= DIRTY_CONTENT;
    } else if (rec && rec->on_event) {
        rec->on_event(a, ev);
    } else if (rec) {
        const char *name = byoc_task_name(rec->task);
        if (ev->kind == BYOC_EV_STATUS && ev->text)
            tui_app_message(a, "%s: %s", name, ev->text);
        else if (ev->kind == BYOC_EV_ERROR)
            tui_app_error(a, "%s: %s", name, ev->err.message);
        else if (ev->kind == BYOC_EV_DONE)
            tui_app_message(a, "%s: done", name);
    }
    if (rec && (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)) {
        byoc_task_release(rec->task);
        a->tasks[i] = a->tasks[--a->ntasks];
        a->dirty |= DIRTY_STATUS | DIRTY_SIDEBAR;
    }
}

/* The key contexts in force, innermost first: a dialog, a prompt, the sidebar or the
 * top screen (with its own), then the global keys. */
size_t app_chain(tui_app *a, tui_ctx *chain, size_t max)
{
    size_t n = 0;
    if (a->dialog_open) {
        n = tui_dialog_contexts(&a->dialog, chain);
        if (app_dialog_about(a) == TUI_ABOUT_PANE)
            chain[n++] = TUI_CTX_PAGE;  /* the content asked about still scrolls */
        return n;
    }
    if (a->prompting) {
        chain[n++] = TUI_CTX_PROMPT;
        chain[n++] = TUI_CTX_EDIT;
        return n;
    }
    if (a->sidebar_focus && a->depth == 0) {
        chain[n++] = TUI_CTX_SIDEBAR;
        chain[n++] = TUI_CTX_GLOBAL;
        return n;
    }
    tui_screen *s = app_top(a);
    if (s->ops->contexts)
        n = s->ops->contexts(s, chain, max - 2);
    chain[n++] = s->ctx;
    chain[n++] = TUI_CTX_GLOBAL;
    return n;
}
