/* The app without a terminal: keys and `:` commands move between the steps,
 * the sidebar and help; unknown commands and keys say so; task events reach
 * the screen that started the task (or become messages); quitting while a
 * task runs asks first and defaults to No; closing cancels running tasks;
 * a task is cancelled by its id, and a screen destroyed as the app closes
 * sees no task of the app (its tasks were released: no handle to touch). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "app_api.h"
#include "app_draw.h"
#include "check.h"
#include "core/buf.h"
#include "keys.h"

typedef struct probe {
    tui_screen base;
    int downs, status, logs, progress, done, errors;
    int *destroyed;
    size_t *seen;                /* set: destroy records the app's tasks and cancels its own by id */
    uint64_t task;
} probe;

static void probe_destroy(tui_screen *s)
{
    probe *p = (probe *)s;
    (*p->destroyed)++;
    if (p->seen) {
        *p->seen = tui_app_running_tasks(p->base.app);
        tui_app_cancel_task(p->base.app, p->task);
    }
    free(p);
}

static void probe_draw(tui_screen *s, WINDOW *w, tui_rect r)
{
    (void)s; (void)w; (void)r;
}

static bool probe_key(tui_screen *s, const tui_keyev *ev)
{
    probe *p = (probe *)s;
    if (ev->action == TUI_ACT_DOWN) {
        p->downs++;
        return true;
    }
    return false;
}

static void probe_event(tui_screen *s, const byoc_event *ev)
{
    probe *p = (probe *)s;
    switch (ev->kind) {
    case BYOC_EV_STATUS: p->status++; break;
    case BYOC_EV_LOG: p->logs++; break;
    case BYOC_EV_PROGRESS: p->progress++; break;
    case BYOC_EV_DONE: p->done++; break;
    case BYOC_EV_ERROR: p->errors++; break;
    case BYOC_EV_CHECK:
    case BYOC_EV_DATA: break;
    }
}

static size_t probe_contexts(tui_screen *s, tui_ctx *out, size_t max)
{
    (void)s; (void)max;
    out[0] = TUI_CTX_LIST;
    return 1;
}

static const tui_screen_ops probe_ops = {
    .name = "probe", .destroy = probe_destroy, .draw = probe_draw, .key = probe_key,
    .on_event = probe_event, .contexts = probe_contexts,
};

static int chatty(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg; (void)err;
    byoc_task_status(t, "working");
    for (int i = 0; i < 3; i++)
        byoc_task_log(t, "line %d", i);
    byoc_task_progress(t, "layer", 5, 10, NULL);
    *result = byoc_xstrdup("ok");
    *result_free = free;
    return 0;
}

static int failing(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)t; (void)arg; (void)result; (void)result_free;
    return byoc_err_set(err, BYOC_E_FAILED, "push", "registry said no");
}

static int waiter(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg; (void)result; (void)result_free;
    for (int i = 0; i < 3000 && !byoc_task_cancelled(t); i++)   /* 30 s at most */
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    return byoc_err_set(err, BYOC_E_CANCELLED, "wait", "cancelled");
}

/* Deliver events until no task of the app runs (or the queue stays quiet). */
static void drain(tui_app *a, size_t until_tasks)
{
    for (int i = 0; i < 200 && a->ntasks > until_tasks; i++) {
        byoc_evq_wait(a->q, 100);
        byoc_event ev;
        while (byoc_evq_pop(a->q, &ev)) {
            app_dispatch_event(a, &ev);
            byoc_event_release(&ev);
        }
    }
}

static void keys(tui_app *a, const char *s)
{
    for (; *s; s++)
        app_handle_key(a, (unsigned char)*s);
}

static void command(tui_app *a, const char *line)
{
    app_handle_key(a, ':');
    keys(a, line);
    app_handle_key(a, TUI_KEY_ENTER);
}

int main(void)
{
    byoc_globals g = {.project_dir = "."};
    tui_app *a = app_new(&g);
    CHECK_INT(a->step, TUI_STEP_DECIDE);
    CHECK_STR(app_top(a)->ops->name, "decide");

    /* steps by number, ] and [ */
    app_handle_key(a, '3');
    CHECK_INT(a->step, TUI_STEP_PUSH);
    app_handle_key(a, ']');
    CHECK_INT(a->step, TUI_STEP_PERMIT);
    app_handle_key(a, '[');
    app_handle_key(a, '[');
    CHECK_INT(a->step, TUI_STEP_BUILD);

    /* the sidebar */
    app_handle_key(a, TUI_KEY_TAB);
    CHECK(a->sidebar_focus);
    app_handle_key(a, TUI_KEY_DOWN);
    app_handle_key(a, 'j');
    CHECK_INT(a->step, TUI_STEP_PERMIT);
    app_handle_key(a, 'G');
    CHECK_INT(a->step, TUI_STEP_MONITOR);
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(!a->sidebar_focus);

    /* commands */
    command(a, "goto decide");
    CHECK_INT(a->step, TUI_STEP_DECIDE);
    CHECK(!a->prompting);
    command(a, "frob");
    CHECK(strstr(a->msg, "unknown command: frob") != NULL);
    CHECK(a->msg_error);
    app_handle_key(a, 'x');                          /* the next key clears it... */
    CHECK(strstr(a->msg, "x does nothing here") != NULL);   /* ...and says what x did */
    app_handle_key(a, ':');
    keys(a, "goto pe");
    app_handle_key(a, TUI_KEY_TAB);
    CHECK_STR(tui_edit_text(&a->prompt), "goto permit");
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK_INT(a->step, TUI_STEP_PERMIT);
    app_handle_key(a, ':');
    app_handle_key(a, TUI_KEY_UP);                   /* history */
    CHECK_STR(tui_edit_text(&a->prompt), "goto permit");
    app_handle_key(a, TUI_KEY_ESC);
    CHECK(!a->prompting);
    CHECK_INT(a->step, TUI_STEP_PERMIT);
    app_handle_key(a, 'q');                          /* prompt closed, nothing runs: q quits at once */
    CHECK(a->quit);
    CHECK(!a->dialog_open);
    a->quit = false;

    /* help is a screen on top; q and Esc take it away */
    app_handle_key(a, '?');
    CHECK_STR(app_top(a)->ops->name, "help");
    CHECK(app_top(a)->wide);
    app_handle_key(a, '?');                          /* not twice */
    CHECK_INT(a->depth, 1);
    app_handle_key(a, TUI_KEY_ESC);
    CHECK_INT(a->depth, 0);
    command(a, "help");
    CHECK_INT(a->depth, 1);
    app_handle_key(a, '5');                          /* goto closes what is on top */
    CHECK_INT(a->depth, 0);
    CHECK_INT(a->step, TUI_STEP_RUN);
    app_handle_key(a, TUI_KEY_ESC);                  /* Esc on the top level does not quit */
    CHECK(!a->quit);

    /* a screen of our own: its keys first, its tasks' events to it */
    int destroyed = 0;
    probe *p = byoc_xcalloc(1, sizeof *p);
    p->destroyed = &destroyed;
    tui_screen_init(&p->base, &probe_ops, a, TUI_CTX_STEP, -1);
    tui_app_push(a, &p->base);
    app_handle_key(a, 'j');
    app_handle_key(a, TUI_KEY_DOWN);
    CHECK_INT(p->downs, 2);
    command(a, "down");                              /* a command reaches the screen too */
    CHECK_INT(p->downs, 3);
    CHECK(tui_app_start_task(a, &p->base, "chatty", chatty, NULL, NULL) != NULL);
    CHECK_INT(tui_app_running_tasks(a), 1);
    drain(a, 0);
    CHECK_INT(tui_app_running_tasks(a), 0);
    CHECK_INT(p->status, 1);
    CHECK_INT(p->logs, 3);
    CHECK_INT(p->progress, 1);
    CHECK_INT(p->done, 1);

    /* a task is cancelled by its id; another id cancels nothing */
    byoc_task *w = tui_app_start_task(a, &p->base, "waiter", waiter, NULL, NULL);
    CHECK(w != NULL);
    tui_app_cancel_task(a, byoc_task_id(w) + 1000);
    tui_app_cancel_task(a, 0);
    CHECK(!byoc_task_cancelled(w));
    tui_app_cancel_task(a, byoc_task_id(w));
    CHECK(byoc_task_cancelled(w));
    drain(a, 0);
    CHECK_INT(p->errors, 1);
    tui_app_cancel_task(a, 1);                       /* after its end: nothing to find, nothing touched */

    /* a task nobody owns: its error becomes a message */
    a->msg[0] = '\0';
    tui_app_start_task(a, NULL, "push", failing, NULL, NULL);
    drain(a, 0);
    CHECK(strstr(a->msg, "push: registry said no") != NULL);
    CHECK(a->msg_error);

    /* a question about the screen's content docks under it: the content box
     * gives up the rows, the page keys still scroll the content, y/n answer */
    a->rows = 24;
    a->cols = 80;
    tui_rect full = app_content_rect(a);
    tui_app_confirm(a, "Apply?", "The diff above is the change. Apply it?", "Apply", NULL, NULL);
    tui_app_dialog_about(a, &p->base, TUI_ABOUT_PANE);
    tui_dialog_place at = app_dialog_place(a);
    CHECK_INT(at.form, TUI_PLACE_DOCKED);
    tui_rect shrunk = app_content_rect(a);
    CHECK_INT(shrunk.h, full.h - at.cut);
    CHECK(shrunk.y + shrunk.h < at.box.y);                    /* nothing of the content under the box */
    tui_ctx dchain[8];
    size_t dn = app_chain(a, dchain, 8);
    CHECK_INT(dn, 2);
    CHECK_INT(dchain[1], TUI_CTX_PAGE);
    int downs = p->downs;
    app_handle_key(a, TUI_KEY_DOWN);
    app_handle_key(a, 'j');
    CHECK_INT(p->downs, downs + 2);
    CHECK(a->dialog_open);
    app_handle_key(a, 'n');
    CHECK(!a->dialog_open);
    CHECK_INT(app_content_rect(a).h, full.h);                 /* the rows come back */
    /* about a region the screen marks: beside it, and the page keys stay with the dialog */
    tui_app_confirm(a, "Cancel job", "Cancel job x?", "Cancel job", NULL, NULL);
    tui_app_dialog_about(a, &p->base, TUI_ABOUT_MARK);
    p->base.about = (tui_rect){20, 18, 1, 62};
    at = app_dialog_place(a);
    CHECK_INT(at.form, TUI_PLACE_BESIDE);
    CHECK(at.box.y + at.box.h <= 20);
    app_handle_key(a, TUI_KEY_DOWN);                          /* not a scrolling question: no key for the screen */
    CHECK_INT(p->downs, downs + 2);
    CHECK_INT(app_dialog_about(a), TUI_ABOUT_MARK);
    app_handle_key(a, TUI_KEY_ESC);
    CHECK(!a->dialog_open);
    CHECK_INT(app_dialog_about(a), TUI_ABOUT_NOTHING);
    a->rows = a->cols = 0;

    /* a popped screen's task goes on, its events no longer reach the screen */
    tui_app_start_task(a, &p->base, "waiter", waiter, NULL, NULL);
    app_handle_key(a, 'q');
    CHECK_INT(destroyed, 1);
    CHECK_INT(a->depth, 0);
    CHECK_INT(a->tasks[0].owner == NULL, 1);

    /* quitting while it runs asks, and No is the default */
    app_handle_key(a, 'q');
    CHECK(!a->quit);
    CHECK(a->dialog_open);
    CHECK(strstr(a->dialog.text, "1 task is still running (waiter)") != NULL);
    app_handle_key(a, '3');                          /* the dialog has the keys now */
    CHECK_INT(a->step, TUI_STEP_RUN);
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(!a->dialog_open);
    CHECK(!a->quit);
    app_handle_key(a, TUI_KEY_CTRL('c'));
    CHECK(a->dialog_open);
    app_handle_key(a, TUI_KEY_ESC);
    CHECK(!a->quit);
    app_handle_key(a, 'q');
    app_handle_key(a, TUI_KEY_TAB);                  /* to the Quit button */
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(a->quit);
    a->quit = false;
    app_handle_key(a, 'q');
    app_handle_key(a, 'y');
    CHECK(a->quit);

    /* status values (the lead's doctor sets them later) */
    tui_app_set_status(a, TUI_SB_ENGINE, "docker 24.0 via unix socket");
    CHECK_STR(tui_status_get(tui_app_status(a), TUI_SB_ENGINE), "docker 24.0 via unix socket");

    /* closing with a screen whose task still runs (a job's watch in Monitor): the app
     * cancels, joins and releases its tasks, then destroys the screens, which find none */
    int destroyed2 = 0;
    size_t seen = 99;
    probe *last = byoc_xcalloc(1, sizeof *last);
    last->destroyed = &destroyed2;
    last->seen = &seen;
    tui_screen_init(&last->base, &probe_ops, a, TUI_CTX_STEP, -1);
    tui_app_push(a, &last->base);
    byoc_task *lt = tui_app_start_task(a, &last->base, "watch", waiter, NULL, NULL);
    CHECK(lt != NULL);
    last->task = lt ? byoc_task_id(lt) : 0;
    app_delete(a);                                   /* cancels and joins the waiters */
    CHECK_INT(destroyed2, 1);
    CHECK_INT(seen, 0);
    return check_done();
}
