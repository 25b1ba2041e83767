/* What the new screens rely on in the app: the flow state steps hand on
 * (flow.h), background tasks that quitting does not ask about
 * (background.h), the image browser from any step (i, :images), the Decide
 * and Build screens' keys, and the status bar's engine text (status_feed.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "app_api.h"
#include "background.h"
#include "check.h"
#include "core/buf.h"
#include "flow.h"
#include "keys.h"
#include "status_feed.h"

static int waiter(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)arg;
    (void)result;
    (void)result_free;
    for (int i = 0; i < 3000 && !byoc_task_cancelled(t); i++)   /* 30 s at most */
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    return byoc_err_set(err, BYOC_E_CANCELLED, "wait", "cancelled");
}

static void drain(tui_app *a)
{
    for (int i = 0; i < 200 && a->ntasks > 0; i++) {
        byoc_evq_wait(a->q, 100);
        byoc_event ev;
        while (byoc_evq_pop(a->q, &ev)) {
            app_dispatch_event(a, &ev);
            byoc_event_release(&ev);
        }
    }
}

static void command(tui_app *a, const char *line)
{
    app_handle_key(a, ':');
    for (const char *p = line; *p; p++)
        app_handle_key(a, (unsigned char)*p);
    app_handle_key(a, TUI_KEY_ENTER);
}

int main(void)
{
    /* no engine answers here: the browser's listing must fail fast, not find a real one */
    setenv("DOCKER_HOST", "unix:///nonexistent/byoc-test.sock", 1);
    byoc_globals g = {.project_dir = "."};
    tui_app *a = app_new(&g);

    /* the flow state */
    const tui_flow *f = tui_flow_get(a);
    CHECK(f != NULL);
    CHECK(f->image == NULL && f->image_uri == NULL && f->job_arn == NULL);
    unsigned serial = f->serial;
    char ref[] = "app:1";
    tui_flow_set_image(a, ref, "sha256:abc");
    ref[0] = 'X';                                        /* the flow keeps its own copy */
    CHECK_STR(tui_flow_get(a)->image, "app:1");
    CHECK_STR(tui_flow_get(a)->image_id, "sha256:abc");
    CHECK(tui_flow_get(a)->serial != serial);
    tui_flow_set_pushed(a, "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1", "sha256:def");
    tui_flow_set_job(a, "arn:aws:braket:us-east-1:123456789012:job/j1");
    CHECK_STR(tui_flow_get(a)->image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/app:1");
    CHECK_STR(tui_flow_get(a)->image_digest, "sha256:def");
    CHECK_STR(tui_flow_get(a)->job_arn, "arn:aws:braket:us-east-1:123456789012:job/j1");
    tui_flow_set_image(a, NULL, NULL);
    CHECK(tui_flow_get(a)->image == NULL);
    char *cwd = realpath(".", NULL);
    CHECK_STR(tui_app_project(a), cwd);
    free(cwd);

    /* a background task does not hold up quitting */
    CHECK(tui_app_start_background_task(a, NULL, "scan", waiter, NULL, NULL) != NULL);
    app_handle_key(a, 'q');
    CHECK(a->quit);
    CHECK(!a->dialog_open);
    a->quit = false;
    /* a task that changes things does, and only it is named */
    CHECK(tui_app_start_task(a, NULL, "build", waiter, NULL, NULL) != NULL);
    app_handle_key(a, 'q');
    CHECK(!a->quit);
    CHECK(a->dialog_open);
    CHECK(strstr(a->dialog.text, "1 task is still running (build)") != NULL);
    app_handle_key(a, TUI_KEY_ENTER);                    /* No, the default */
    CHECK(!a->quit);
    for (size_t i = 0; i < a->ntasks; i++)
        byoc_task_cancel(a->tasks[i].task);
    drain(a);
    CHECK_INT(tui_app_running_tasks(a), 0);

    /* the image browser from any step, once */
    app_handle_key(a, '4');
    app_handle_key(a, 'i');
    CHECK_STR(app_top(a)->ops->name, "images");
    CHECK(app_top(a)->wide);
    app_handle_key(a, 'i');
    CHECK_INT(a->depth, 1);
    drain(a);                                            /* the listing fails: no engine */
    CHECK_INT(tui_app_running_tasks(a), 0);
    app_handle_key(a, 'd');                              /* nothing selected: nothing asked */
    CHECK(!a->dialog_open);
    app_handle_key(a, TUI_KEY_ESC);
    CHECK_INT(a->depth, 0);
    CHECK_INT(a->step, TUI_STEP_PERMIT);
    command(a, "images");
    CHECK_STR(app_top(a)->ops->name, "images");
    app_handle_key(a, 'q');
    CHECK_INT(a->depth, 0);
    drain(a);

    /* Decide: Enter goes into the answers (Tab moves there), Esc comes back (Tab is the sidebar's) */
    app_handle_key(a, '1');
    app_handle_key(a, TUI_KEY_ENTER);
    app_handle_key(a, TUI_KEY_TAB);
    CHECK(!a->sidebar_focus);
    app_handle_key(a, TUI_KEY_ESC);
    app_handle_key(a, TUI_KEY_TAB);
    CHECK(a->sidebar_focus);
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(!a->sidebar_focus);

    /* Build: nothing to push, nothing to cancel yet; the settings open and close */
    app_handle_key(a, '2');
    app_handle_key(a, 'p');
    CHECK(strstr(a->msg, "Build an image first") != NULL);
    CHECK_INT(a->step, TUI_STEP_BUILD);
    app_handle_key(a, 'c');
    CHECK(strstr(a->msg, "Nothing runs") != NULL);
    app_handle_key(a, 'e');
    app_handle_key(a, '3');                              /* typed into the Context field, not a step */
    CHECK_INT(a->step, TUI_STEP_BUILD);
    app_handle_key(a, TUI_KEY_ESC);
    app_handle_key(a, '3');
    CHECK_INT(a->step, TUI_STEP_PUSH);

    /* the engine in the status bar */
    char buf[128];
    byoc_engine_info info;
    memset(&info, 0, sizeof info);
    strcpy(info.server_version, "20.10.24");
    byoc_err err;
    byoc_err_clear(&err);
    tui_status_engine_text(0, false, &info, &err, buf, sizeof buf);
    CHECK_STR(buf, "20.10.24");
    byoc_err_set(&err, BYOC_E_ENV, "engine", "no Docker engine at unix:///x: refused");
    tui_status_engine_text(-1, false, &info, &err, buf, sizeof buf);
    CHECK_STR(buf, "none (start dockerd)");
    tui_status_engine_text(-1, true, &info, &err, buf, sizeof buf);
    CHECK_STR(buf, "unusable DOCKER_HOST");
    byoc_err_set(&err, BYOC_E_FAILED, "engine", "boom");
    err.http_status = 500;
    tui_status_engine_text(-1, false, &info, &err, buf, sizeof buf);
    CHECK_STR(buf, "error (HTTP 500)");

    app_delete(a);
    return check_done();
}
