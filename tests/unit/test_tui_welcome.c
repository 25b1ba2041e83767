/* The welcome page (issue 19 point 1): its model (choices from the action
 * table, the selection, what the two prompts accept, the sample's options),
 * and the app with it, without a terminal: it opens only in a directory
 * without byoc.json that --project did not name; q/Esc treat it as the top
 * level; h shows Decide; o moves byoc to another directory; s writes the
 * sample with byoc init's code and opens it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "app_api.h"
#include "check.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/fs.h"
#include "core/log.h"
#include "flow.h"
#include "keys.h"
#include "welcome.h"

static void touch(const char *dir, const char *name, const char *text)
{
    char *p = byoc_path_join(dir, name);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    free(p);
}

static char *sub(const char *dir, const char *name)
{
    char *p = byoc_path_join(dir, name);
    CHECK(byoc_mkdir_p(p, 0755) == 0);
    return p;
}

static bool exists_in(const char *dir, const char *name)
{
    char *p = byoc_path_join(dir, name);
    bool e = byoc_path_exists(p);
    free(p);
    return e;
}

static void keys(tui_app *a, const char *s)
{
    for (; *s; s++)
        app_handle_key(a, (unsigned char)*s);
}

static void drain(tui_app *a)
{
    for (int i = 0; i < 600 && a->ntasks > 0; i++) {
        byoc_evq_wait(a->q, 100);
        byoc_event ev;
        while (byoc_evq_pop(a->q, &ev)) {
            app_dispatch_event(a, &ev);
            byoc_event_release(&ev);
        }
    }
}

static char *real(const char *p)
{
    char *r = realpath(p, NULL);
    return r ? r : byoc_xstrdup(p);
}

static void model(const char *tmp)
{
    /* each choice is an action of the table, with a key in the welcome context */
    for (int c = 0; c < TUI_WELCOME_COUNT; c++) {
        const tui_action *row = tui_action_get(tui_welcome_action(c));
        CHECK(row != NULL);
        if (!row)
            continue;
        CHECK_INT(row->ctx, TUI_CTX_WELCOME);
        tui_ctx chain[] = {TUI_CTX_WELCOME, TUI_CTX_GLOBAL};
        CHECK(tui_action_lookup(chain, 2, tui_action_keys(row - tui_actions(NULL))[0]) == row);
        CHECK(*tui_welcome_label(c));
    }
    tui_welcome w = {0};
    int chosen;
    CHECK(tui_welcome_key(&w, TUI_ACT_UP, &chosen));
    CHECK_INT(w.sel, 0);
    CHECK_INT(chosen, -1);
    CHECK(tui_welcome_key(&w, TUI_ACT_DOWN, &chosen));
    CHECK(tui_welcome_key(&w, TUI_ACT_DOWN, &chosen));
    CHECK(tui_welcome_key(&w, TUI_ACT_DOWN, &chosen));
    CHECK_INT(w.sel, TUI_WELCOME_SAMPLE);             /* stops at the last */
    CHECK(tui_welcome_key(&w, TUI_ACT_OPEN, &chosen));
    CHECK_INT(chosen, TUI_WELCOME_SAMPLE);
    CHECK(tui_welcome_key(&w, TUI_ACT_START_HERE, &chosen));
    CHECK_INT(chosen, TUI_WELCOME_HERE);
    CHECK_INT(w.sel, TUI_WELCOME_HERE);
    CHECK(tui_welcome_key(&w, TUI_ACT_OPEN_DIR, &chosen));
    CHECK_INT(chosen, TUI_WELCOME_OPEN);
    CHECK(!tui_welcome_key(&w, TUI_ACT_HELP, &chosen));

    /* typed paths */
    char *p = tui_welcome_path("  ~/x/y ");
    char *want = byoc_xasprintf("%s/x/y", getenv("HOME"));
    CHECK_STR(p, want);
    free(p);
    free(want);
    p = tui_welcome_path("~user/x");                  /* only the caller's own home */
    CHECK_STR(p, "~user/x");
    free(p);
    CHECK(tui_welcome_path("   ") == NULL);

    /* open: an existing directory */
    char msg[160];
    char *file = byoc_path_join(tmp, "file");
    touch(tmp, "file", "x");
    CHECK(tui_welcome_check_open(tmp, msg, sizeof msg));
    CHECK(!tui_welcome_check_open(file, msg, sizeof msg));
    CHECK_STR(msg, "not a directory");
    char *missing = byoc_path_join(tmp, "missing");
    CHECK(!tui_welcome_check_open(missing, msg, sizeof msg));
    CHECK_STR(msg, "no such directory");
    CHECK(!tui_welcome_check_open("", msg, sizeof msg));

    /* sample: a new or empty directory; never a file or a directory with something in it */
    CHECK(tui_welcome_check_sample(missing, msg, sizeof msg));
    char *empty = sub(tmp, "empty");
    CHECK(tui_welcome_check_sample(empty, msg, sizeof msg));
    CHECK(!tui_welcome_check_sample(tmp, msg, sizeof msg));
    CHECK(strstr(msg, "not empty") != NULL);
    CHECK(!tui_welcome_check_sample(file, msg, sizeof msg));
    CHECK(!tui_welcome_check_sample("", msg, sizeof msg));

    /* the sample: recipe 2 in Python, a git repository */
    byoc_init_options o = tui_welcome_sample_options("d", NULL);
    CHECK_INT(o.recipe, BYOC_RECIPE_CUSTOM_BASE);
    CHECK_INT(o.language, BYOC_LANG_PYTHON);
    CHECK(o.git);
    free(file);
    free(missing);
    free(empty);
}

static tui_app *open_on(byoc_globals *g, const char *dir)
{
    g->project_dir = dir;
    tui_app *a = app_new(g);
    app_welcome_if_new(a);
    return a;
}

int main(void)
{
    char *tmp = check_tmpdir();
    char start[PATH_MAX];
    CHECK(getcwd(start, sizeof start) != NULL);
    model(tmp);

    byoc_globals g = {.project_dir = "."};
    char *here = sub(tmp, "here"), *code = sub(tmp, "code"), *known = sub(tmp, "known");
    touch(code, "main.py", "print('hello')\n");
    touch(known, "byoc.json", "{}\n");

    /* byoc.json, or a directory named with --project: straight to Decide */
    tui_app *a = open_on(&g, known);
    CHECK_STR(app_top(a)->ops->name, "decide");
    app_delete(a);
    g.project_set = true;
    a = open_on(&g, here);
    CHECK_STR(app_top(a)->ops->name, "decide");
    app_delete(a);
    g.project_set = false;

    /* no byoc.json: the welcome page, at the top level */
    a = open_on(&g, here);
    CHECK_STR(app_top(a)->ops->name, "welcome");
    CHECK(app_top(a)->top_level && app_top(a)->wide);
    app_handle_key(a, TUI_KEY_ESC);                   /* Esc says how to quit, stays */
    CHECK_STR(app_top(a)->ops->name, "welcome");
    CHECK(strstr(a->msg, "q quits") != NULL);
    app_handle_key(a, 'j');
    app_handle_key(a, 'k');
    app_handle_key(a, 'h');                           /* start here: Decide on this directory */
    CHECK_STR(app_top(a)->ops->name, "decide");
    CHECK_INT(a->depth, 0);
    app_handle_key(a, 'q');
    CHECK(a->quit);
    app_delete(a);

    a = open_on(&g, here);
    app_handle_key(a, 'q');                           /* q quits from the welcome page */
    CHECK(a->quit);
    app_delete(a);
    a = open_on(&g, here);
    app_handle_key(a, '2');                           /* a step's number leaves it */
    CHECK_INT(a->step, TUI_STEP_BUILD);
    CHECK_INT(a->depth, 0);
    app_delete(a);

    /* open another directory: refused until it exists, then byoc works there */
    a = open_on(&g, here);
    app_handle_key(a, 'o');
    CHECK(a->dialog_open);
    app_handle_key(a, TUI_KEY_CTRL('u'));
    keys(a, tmp);
    keys(a, "/nope");
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(a->dialog_open);                            /* still asking */
    CHECK(strstr(a->dialog.msg, "no such directory") != NULL);
    app_handle_key(a, TUI_KEY_CTRL('u'));
    keys(a, code);
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(!a->dialog_open);
    char *code_real = real(code);
    CHECK_STR(tui_app_project(a), code_real);
    char cwd[PATH_MAX];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_STR(cwd, code_real);
    CHECK_STR(app_top(a)->ops->name, "decide");
    CHECK_INT(a->depth, 0);
    app_delete(a);

    /* the sample: its default name, then refused over a non-empty directory, then written and opened */
    CHECK(chdir(here) == 0);
    char *taken = sub(here, "byoc-sample");
    touch(taken, "keep.txt", "mine\n");
    a = open_on(&g, here);
    app_handle_key(a, 's');
    CHECK(a->dialog_open);
    CHECK_STR(tui_edit_text(&a->dialog.input), "./byoc-sample-2");   /* the first free name */
    app_handle_key(a, TUI_KEY_CTRL('u'));
    keys(a, "byoc-sample");
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(a->dialog_open);
    CHECK(strstr(a->dialog.msg, "not empty") != NULL);
    app_handle_key(a, TUI_KEY_CTRL('u'));
    keys(a, "./my-sample");
    app_handle_key(a, TUI_KEY_ENTER);
    CHECK(!a->dialog_open);
    CHECK_INT(tui_app_running_tasks(a), 1);
    drain(a);
    char *sample = byoc_path_join(here, "my-sample");
    char *sample_real = real(sample);
    CHECK_STR(tui_app_project(a), sample_real);
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_STR(cwd, sample_real);
    CHECK_STR(app_top(a)->ops->name, "decide");
    CHECK(a->dialog_open);                            /* what was written, over Decide */
    CHECK(strstr(a->dialog.text, "byoc.json") != NULL);
    CHECK(strstr(a->dialog.text, sample_real) != NULL);
    for (const char *f = "byoc.json\0Dockerfile\0algorithm/algo.py\0requirements.txt\0.git\0"; *f; f += strlen(f) + 1)
        CHECK(exists_in(sample, f));
    CHECK(!exists_in(taken, "byoc.json"));            /* the refused directory is untouched */
    app_delete(a);

    CHECK(chdir(start) == 0);
    free(sample);
    free(sample_real);
    free(taken);
    free(code_real);
    free(here);
    free(code);
    free(known);
    CHECK(byoc_remove_tree(tmp) == 0);
    free(tmp);
    return check_done();
}
