/* screen_decide: the Decide step. The questions of the BYOC guide as a
 * form, pre-answered by a scan of the project (a background task), each
 * answer with its source (scanned, user, default); a verdict panel that
 * follows every change (verdict, recipe, each reason with its rule); and
 * "scaffold this", which asks where, shows the files byoc init would write,
 * asks again (No is the default), writes them on a task and says what it
 * wrote, offering to overwrite when files are in the way.
 *
 * Layout: wide content shows the answers and the verdict side by side; on
 * 80x24 one of them fills the content (Enter goes to the answers, Esc comes
 * back) and the answers keep a live verdict line at the bottom. Nothing
 * starts before the screen is first drawn. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "background.h"
#include "byoc/baked_start.h"
#include "byoc/decide.h"
#include "byoc/measure.h"
#include "byoc/scaffold.h"
#include "byoc/scan.h"
#include "core/buf.h"
#include "core/str.h"
#include "decide_model.h"
#include "flow.h"
#include "form.h"
#include "page.h"
#include "screens.h"
#include "step_page.h"
#include "steps.h"
#include "text.h"

#define WIDE_MIN 90          /* content columns for side-by-side panes */
#define SOURCE_W 8           /* the answers' source column */

typedef enum { SCAN_IDLE, SCAN_RUNNING, SCAN_DONE, SCAN_FAILED } scan_state;

/* What byoc init is asked to do (owned copies: it outlives the dialogs). */
typedef struct init_job {
    char *dir;
    char *region;
    byoc_recipe recipe;
    byoc_language language;
    byoc_arch arch;
    bool gpu;
    char python[8];
    bool private_deps;
    byoc_kv *choices;            /* per existing file: keep, overwrite or beside */
    size_t n_choices;
} init_job;

typedef struct decide_screen {
    tui_screen base;
    tui_form form;
    tui_page page;               /* the verdict panel */
    tui_page keys;               /* the keys, under the answers when side by side */
    bool page_stale;
    bool side_by_side;           /* the last layout */
    bool form_focus;
    byoc_answers base_answers;   /* defaults + what the scan found: what reset goes back to */
    byoc_answers answers;        /* + what the user said */
    byoc_decision decision;
    byoc_scan *scan;             /* the last scan, or NULL */
    scan_state state;
    char scan_error[768];
    bool started;
    uint64_t scan_task, plan_task, init_task, measure_task;
    byoc_task *measuring;        /* the measure task until its DONE/ERROR, to cancel it */
    char measure_status[256];    /* its last status line */
    byoc_measurement measured;   /* the figure the rules use (base NULL: none) */
    byoc_baked_start baked;      /* a local run's first output (job_name NULL: none) */
    init_job pending;            /* the scaffold under way (dir NULL: none) */
    byoc_strv conflicts;         /* its files that exist with other content: each gets a choice */
} decide_screen;

/* ---- tasks: the scan, the scaffold's plan, the scaffold ---- */

typedef struct scan_holder {
    byoc_scan *scan;
    byoc_measurement m;          /* a stored or new measurement (base NULL: none) */
    long instances, threshold;   /* from byoc.json */
    byoc_baked_start baked;      /* the project's timed local run (job_name NULL: none) */
} scan_holder;

static void scan_holder_free(void *p)
{
    scan_holder *h = p;
    if (h->scan) {
        byoc_scan_clear(h->scan);
        free(h->scan);
    }
    byoc_measurement_clear(&h->m);
    byoc_baked_start_clear(&h->baked);
    free(h);
}

static void read_settings(scan_holder *h, const char *dir)
{
    h->instances = byoc_measure_instance_count(dir);
    h->threshold = byoc_measure_threshold(dir);
    byoc_baked_start_lookup(dir, NULL, &h->baked);
}

static int scan_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    (void)t;
    scan_holder *h = byoc_xcalloc(1, sizeof *h);
    h->scan = byoc_xcalloc(1, sizeof *h->scan);
    if (byoc_scan_project(arg, h->scan, err) != 0) {
        free(h->scan);
        free(h);
        return -1;
    }
    if (byoc_measure_lookup(arg, NULL, &h->m) != 1)
        memset(&h->m, 0, sizeof h->m);
    read_settings(h, arg);
    *result = h;
    *rfree = scan_holder_free;
    return 0;
}

/* What the measure task needs: the project, the AWS settings (the globals outlive the task), and
 * the app's AWS clients and engine (so does the app). */
typedef struct measure_arg {
    char *dir;
    byoc_aws_config_opts aws;
    byoc_aws_clients *clients;
    byoc_engines *engines;
} measure_arg;

static void measure_arg_free(void *p)
{
    measure_arg *a = p;
    free(a->dir);
    free(a);
}

/* The measurement (measure.h) as a task: its status lines are the progress. */
static int measure_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    measure_arg *a = arg;
    scan_holder *h = byoc_xcalloc(1, sizeof *h);
    byoc_measure_opts o = {.project_dir = a->dir, .aws = &a->aws, .clients = a->clients, .engines = a->engines};
    char *base, *network;
    byoc_measure_settings(a->dir, &o, &base, &network);
    int rc = byoc_measure_run(t, &o, &h->m, err);
    free(base);
    free(network);
    if (rc != 0) {
        free(h);
        return -1;
    }
    read_settings(h, a->dir);
    *result = h;
    *rfree = scan_holder_free;
    return 0;
}

static void init_job_clear(init_job *j)
{
    free(j->dir);
    free(j->region);
    for (size_t i = 0; i < j->n_choices; i++) {
        free(j->choices[i].key);
        free(j->choices[i].value);
    }
    free(j->choices);
    memset(j, 0, sizeof *j);
}

BYOC_TASK_FREE(init_job_free, init_job, init_job_clear)

static init_job *init_job_dup(const init_job *j)
{
    init_job *c = byoc_xcalloc(1, sizeof *c);
    *c = *j;
    c->dir = byoc_xstrdup(j->dir);
    c->region = byoc_xstrdup_opt(j->region);
    c->choices = j->n_choices ? byoc_xcalloc(j->n_choices, sizeof *c->choices) : NULL;
    for (size_t i = 0; i < j->n_choices; i++) {
        c->choices[i].key = byoc_xstrdup(j->choices[i].key);
        c->choices[i].value = byoc_xstrdup(j->choices[i].value);
    }
    return c;
}

static byoc_init_options init_options(const init_job *j)
{
    return (byoc_init_options){.dir = j->dir, .recipe = j->recipe, .language = j->language, .arch = j->arch,
                               .gpu = j->gpu, .region = j->region, .git = true,
                               .python = *j->python ? j->python : NULL, .private_deps = j->private_deps,
                               .choices = j->choices, .n_choices = j->n_choices};
}

typedef struct plan_result {
    byoc_strv files, existing;
} plan_result;

static void plan_result_free(void *p)
{
    plan_result *r = p;
    byoc_strv_clear(&r->files);
    byoc_strv_clear(&r->existing);
    free(r);
}

static int plan_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    (void)t;
    byoc_init_options o = init_options(arg);
    byoc_init_plan plan = {0};
    if (byoc_init_validate(&o, err) != 0 || byoc_init_render(&o, &plan, err) != 0) {
        byoc_init_plan_clear(&plan);
        return -1;
    }
    plan_result *r = byoc_xcalloc(1, sizeof *r);
    for (size_t i = 0; i < plan.n; i++)
        byoc_strv_push(&r->files, plan.files[i].path);
    byoc_init_conflicts(o.dir, &plan, &r->existing);
    byoc_init_plan_clear(&plan);
    *result = r;
    *rfree = plan_result_free;
    return 0;
}

BYOC_TASK_FREE(init_result_free, byoc_init_result, byoc_init_result_clear)

static int init_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    (void)t;
    byoc_init_options o = init_options(arg);
    byoc_init_result *res = byoc_xcalloc(1, sizeof *res);
    if (byoc_init_project(&o, res, err) != 0) {
        init_result_free(res);
        return -1;
    }
    *result = res;
    *rfree = init_result_free;
    return 0;
}

/* ---- the model ---- */

static void recompute(decide_screen *s)
{
    byoc_decision_clear(&s->decision);
    byoc_decide(&s->answers, &s->decision);
    s->page_stale = true;
    tui_screen_dirty(&s->base);
}

/* Take h's measurement (or its absence) into the answers the rules read. */
static void take_measurement(decide_screen *s, scan_holder *h)
{
    byoc_measurement_clear(&s->measured);
    s->measured = h->m;
    memset(&h->m, 0, sizeof h->m);
    byoc_startup st = {0};
    if (s->measured.base)
        byoc_measurement_startup(&s->measured, h->instances, h->threshold, &st);
    byoc_answers_set_startup(&s->answers, &st);
    byoc_answers_set_startup(&s->base_answers, &st);
    free(st.failed);
    byoc_baked_start_clear(&s->baked);
    s->baked = h->baked;
    memset(&h->baked, 0, sizeof h->baked);
}

static void measure(decide_screen *s)
{
    if (s->measuring) {
        byoc_task_cancel(s->measuring);
        snprintf(s->measure_status, sizeof s->measure_status, "cancelling");
        s->page_stale = true;
        return;
    }
    const byoc_globals *g = tui_app_globals(s->base.app);
    measure_arg *a = byoc_xcalloc(1, sizeof *a);
    a->dir = byoc_xstrdup(tui_app_project(s->base.app));
    a->aws = (byoc_aws_config_opts){.profile = g->profile, .region = g->region};
    a->clients = tui_app_aws(s->base.app);
    a->engines = tui_app_engines(s->base.app);
    byoc_task *t = tui_app_start_task(s->base.app, &s->base, "measure", measure_task, a, measure_arg_free);
    if (!t)
        return;
    s->measuring = t;
    s->measure_task = byoc_task_id(t);
    snprintf(s->measure_status, sizeof s->measure_status, "starting");
    s->page_stale = true;
    tui_app_message(s->base.app, "Measuring pip install -r requirements.txt (m again cancels)");
}

static void measure_ended(decide_screen *s, const byoc_event *ev)
{
    s->measure_task = 0;
    s->measuring = NULL;
    s->measure_status[0] = '\0';
    if (ev->kind == BYOC_EV_DONE) {
        take_measurement(s, ev->result);
        recompute(s);
        tui_app_message(s->base.app, "Installing requirements.txt took %.0f s%s", s->measured.install_seconds,
                        s->measured.reused ? " (measured before, reused)" : "");
    } else if (ev->err.kind == BYOC_E_CANCELLED) {
        tui_app_message(s->base.app, "Measurement cancelled; nothing changed");
    } else {
        char line[1024];
        tui_app_alert(s->base.app, "Measure", byoc_err_format(&ev->err, line, sizeof line));
    }
    s->page_stale = true;
}

static void start_scan(decide_screen *s)
{
    if (s->scan_task)
        return;
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "scan", scan_task,
                                                 byoc_xstrdup(tui_app_project(s->base.app)), free);
    if (!t) {
        tui_app_error(s->base.app, "scan: could not start a task");
        return;
    }
    s->scan_task = byoc_task_id(t);
    s->state = SCAN_RUNNING;
    s->page_stale = true;
}

static void scan_done(decide_screen *s, scan_holder *h)
{
    if (s->scan) {
        byoc_scan_clear(s->scan);
        free(s->scan);
    }
    s->scan = h->scan;
    h->scan = NULL;
    s->state = SCAN_DONE;
    byoc_answers_clear(&s->base_answers);
    byoc_answers_init(&s->base_answers);
    byoc_scan_apply(s->scan, &s->base_answers);
    take_measurement(s, h);
    /* the scan's answers, with the user's over them */
    for (int q = 0; q < BYOC_Q_COUNT; q++)
        if (s->answers.a[q].source != BYOC_SRC_USER)
            byoc_answer_revert(&s->answers, &s->base_answers, (byoc_question_id)q);
    tui_decide_form_load(&s->form, &s->answers, true);
    recompute(s);
}

/* The form changed: take what the user said; keep the fields in canonical form
 * except the one being typed in. */
static void form_changed(decide_screen *s, bool focus_moved)
{
    if (tui_decide_form_apply(&s->form, &s->answers))
        recompute(s);
    if (focus_moved)
        tui_decide_form_load(&s->form, &s->answers, true);
    s->page_stale = true;
}

static void reset_focused(decide_screen *s)
{
    if (s->form.count == 0)
        return;
    tui_field *fl = &s->form.fields[s->form.focus];
    const byoc_question *q = byoc_question_find(fl->key);
    if (!q)
        return;
    byoc_answer_revert(&s->answers, &s->base_answers, q->id);
    fl->msg[0] = '\0';
    tui_form_set_value(&s->form, fl->key, byoc_answer_str(&s->answers, q->id));
    recompute(s);
    tui_app_message(s->base.app, "%s: back to the %s value", tui_decide_label(q->id),
                    tui_decide_source(&s->answers, q->id));
}

/* ---- scaffold this ---- */

static void start_init(decide_screen *s)
{
    byoc_task *t = tui_app_start_task(s->base.app, &s->base, "scaffold", init_task, init_job_dup(&s->pending),
                                      init_job_free);
    if (t)
        s->init_task = byoc_task_id(t);
}

static bool check_choice(const char *value, char *msg, size_t size, void *ud)
{
    (void)ud;
    byoc_existing e;
    if (byoc_existing_parse(value, &e) == 0)
        return true;
    snprintf(msg, size, "keep, overwrite or beside");
    return false;
}

static void ask_next(decide_screen *s);

static void choice_answer(tui_app *a, bool ok, const char *value, void *ud)
{
    decide_screen *s = ud;
    if (!ok) {
        tui_app_message(a, "Nothing written");
        init_job_clear(&s->pending);
        return;
    }
    init_job *j = &s->pending;
    j->choices = byoc_xrealloc(j->choices, (j->n_choices + 1) * sizeof *j->choices);
    j->choices[j->n_choices].key = byoc_xstrdup(s->conflicts.v[j->n_choices]);
    j->choices[j->n_choices++].value = byoc_xstrdup(value);
    ask_next(s);
}

/* One question per file that exists with other content; then the scaffold. */
static void ask_next(decide_screen *s)
{
    size_t i = s->pending.n_choices;
    if (i >= s->conflicts.n) {
        start_init(s);
        return;
    }
    const char *f = s->conflicts.v[i];
    char title[96], *text = byoc_xasprintf("%s exists and differs from byoc's (%zu of %zu). keep: yours stays; "
                                           "overwrite: byoc's replaces it; beside: byoc's goes to %s.byoc",
                                           f, i + 1, s->conflicts.n, f);
    snprintf(title, sizeof title, "%.60s exists", f);
    tui_app_input(s->base.app, title, text, "keep", check_choice, NULL, choice_answer, s);
    free(text);
}

static void write_answer(tui_app *a, bool yes, void *ud)
{
    decide_screen *s = ud;
    if (yes) {
        ask_next(s);
    } else {
        tui_app_message(a, "Nothing written");
        init_job_clear(&s->pending);
    }
}

static void join_list(byoc_buf *b, const byoc_strv *v, size_t max)
{
    for (size_t i = 0; i < v->n && i < max; i++)
        byoc_buf_printf(b, "%s%s", i ? ", " : "", v->v[i]);
    if (v->n > max)
        byoc_buf_printf(b, " and %zu more", v->n - max);
}

static void plan_done(decide_screen *s, const plan_result *r)
{
    byoc_strv_clear(&s->conflicts);
    for (size_t i = 0; i < r->existing.n; i++)
        byoc_strv_push(&s->conflicts, r->existing.v[i]);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "Into %s (%s, %s%s%s, %s%s): ", s->pending.dir, byoc_recipe_name(s->pending.recipe),
                    byoc_language_name(s->pending.language), *s->pending.python ? " " : "", s->pending.python,
                    byoc_arch_name(s->pending.arch), s->pending.gpu ? ", CUDA" : "");
    join_list(&b, &r->files, 12);
    byoc_buf_puts(&b, ". ");
    if (r->existing.n) {
        byoc_buf_printf(&b, "%zu exist%s already (", r->existing.n, r->existing.n == 1 ? "s" : "");
        join_list(&b, &r->existing, 6);
        byoc_buf_puts(&b, ") with other content: you choose for each (keep, overwrite, beside).");
    } else {
        byoc_buf_puts(&b, "Then a git repository with one commit, unless the directory is in one already.");
    }
    char title[64];
    snprintf(title, sizeof title, "Write %zu files?", r->files.n);
    tui_app_confirm(s->base.app, title, byoc_buf_str(&b), "Write", write_answer, s);
    byoc_buf_clear(&b);
}

static void init_done(decide_screen *s, const byoc_init_result *res)
{
    byoc_buf b = BYOC_BUF_INIT;
    if (res->files.n) {
        byoc_buf_printf(&b, "Wrote %zu file%s into %s: ", res->files.n, res->files.n == 1 ? "" : "s",
                        s->pending.dir);
        join_list(&b, &res->files, 12);
        byoc_buf_puts(&b, ". ");
    } else {
        byoc_buf_printf(&b, "Wrote nothing into %s. ", s->pending.dir);
    }
    if (res->kept.n) {
        byoc_buf_puts(&b, "Kept yours: ");
        join_list(&b, &res->kept, 6);
        byoc_buf_puts(&b, ". ");
    }
    if (res->adopted)
        byoc_buf_printf(&b, "The job runs your code: source module %s, entry point %s. ", res->source_module,
                        res->entry_point);
    if (res->git_created)
        byoc_buf_printf(&b, "git: a new repository, first commit %.12s. ", res->commit);
    else if (res->git_note)
        byoc_buf_printf(&b, "git: %s. ", res->git_note);
    byoc_buf_puts(&b, "Next: 2 Build lints and builds it.");
    tui_app_alert(s->base.app, "Scaffolded", byoc_buf_str(&b));
    tui_app_message(s->base.app, "Scaffolded %s into %s", byoc_recipe_name(s->pending.recipe), s->pending.dir);
    byoc_buf_clear(&b);
    if (strcmp(s->pending.dir, tui_app_project(s->base.app)) == 0)
        start_scan(s);                   /* the project has a Dockerfile and byoc.json now */
    init_job_clear(&s->pending);
}

static void init_failed(decide_screen *s, const byoc_err *err)
{
    char line[1024];
    tui_app_alert(s->base.app, "Scaffold failed", byoc_err_format(err, line, sizeof line));
    init_job_clear(&s->pending);
}

static bool check_dir(const char *value, char *msg, size_t size, void *ud)
{
    (void)ud;
    if (*value)
        return true;
    snprintf(msg, size, "a directory, please");
    return false;
}

static void dir_answer(tui_app *a, bool ok, const char *value, void *ud)
{
    decide_screen *s = ud;
    if (!ok) {
        init_job_clear(&s->pending);
        return;
    }
    free(s->pending.dir);
    s->pending.dir = byoc_xstrdup(value);
    byoc_task *t = tui_app_start_background_task(a, &s->base, "plan", plan_task, init_job_dup(&s->pending),
                                                 init_job_free);
    if (t)
        s->plan_task = byoc_task_id(t);
}

static void scaffold(decide_screen *s)
{
    tui_app *a = s->base.app;
    if (s->pending.dir || s->plan_task || s->init_task) {
        tui_app_message(a, "A scaffold is under way");
        return;
    }
    const byoc_decision *d = &s->decision;
    if (d->recipe == BYOC_RECIPE_PREBUILT) {
        tui_app_alert(a, "Nothing to scaffold",
                      "The verdict is a prebuilt image: no Dockerfile is needed. List the packages in "
                      "requirements.txt in the source directory and create the job in 5 Run. Change an "
                      "answer if you want your own container anyway.");
        return;
    }
    init_job_clear(&s->pending);
    s->pending.recipe = d->recipe;
    s->pending.language = d->language;
    s->pending.arch = d->arch;
    s->pending.gpu = d->gpu;
    snprintf(s->pending.python, sizeof s->pending.python, "%s", d->python);
    s->pending.private_deps = d->private_deps;
    const char *region = tui_status_get(tui_app_status(a), TUI_SB_REGION);
    bool known = *region && !tui_status_fix(tui_app_status(a), TUI_SB_REGION);
    s->pending.region = known ? byoc_xstrdup(region) : NULL;
    char *text = byoc_xasprintf("%s for %s%s%s on %s%s. Into which directory? (made if missing)",
                                byoc_recipe_name(d->recipe), byoc_language_name(d->language),
                                *d->python ? " " : "", d->python, byoc_arch_name(d->arch),
                                d->gpu ? " with CUDA" : "");
    s->pending.dir = byoc_xstrdup("");    /* marks the scaffold as under way */
    tui_app_input(a, "Scaffold this", text, tui_app_project(a), check_dir, NULL, dir_answer, s);
    free(text);
}

/* ---- events ---- */

static void on_event(tui_screen *base, const byoc_event *ev)
{
    decide_screen *s = (decide_screen *)base;
    if (ev->task_id == s->measure_task && s->measure_task) {
        if (ev->kind == BYOC_EV_STATUS && ev->text) {
            snprintf(s->measure_status, sizeof s->measure_status, "%s", ev->text);
            s->page_stale = true;
        } else if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR) {
            measure_ended(s, ev);
        }
        tui_screen_dirty(base);
        return;
    }
    if (ev->kind != BYOC_EV_DONE && ev->kind != BYOC_EV_ERROR)
        return;
    bool ok = ev->kind == BYOC_EV_DONE;
    if (ev->task_id == s->scan_task) {
        s->scan_task = 0;
        if (ok) {
            scan_done(s, ev->result);
        } else {
            s->state = SCAN_FAILED;
            snprintf(s->scan_error, sizeof s->scan_error, "%s", ev->err.message);
            recompute(s);
        }
    } else if (ev->task_id == s->plan_task) {
        s->plan_task = 0;
        if (ok) {
            plan_done(s, ev->result);
        } else {
            char line[1024];
            tui_app_alert(base->app, "Scaffold", byoc_err_format(&ev->err, line, sizeof line));
            init_job_clear(&s->pending);
        }
    } else if (ev->task_id == s->init_task) {
        s->init_task = 0;
        if (ok)
            init_done(s, ev->result);
        else
            init_failed(s, &ev->err);
    }
    tui_screen_dirty(base);
}

/* ---- keys ---- */

static bool form_key(decide_screen *s, const tui_keyev *ev)
{
    if (ev->action == TUI_ACT_CANCEL || ev->action == TUI_ACT_BACK) {
        form_changed(s, true);
        s->form_focus = false;
        s->page_stale = true;
        return true;
    }
    size_t before = s->form.focus;
    tui_form_result r = tui_form_handle(&s->form, ev->key, ev->action);
    if (r == TUI_FORM_IGNORED)
        return false;
    form_changed(s, s->form.focus != before || r == TUI_FORM_SUBMIT);
    if (r == TUI_FORM_SUBMIT) {
        s->form_focus = false;
        s->page_stale = true;
    }
    return true;
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    decide_screen *s = (decide_screen *)base;
    if (s->form_focus && form_key(s, ev))
        return true;
    switch (ev->action) {
    case TUI_ACT_OPEN:
        if (!s->form_focus) {
            s->form_focus = true;
            s->page_stale = true;
        }
        return true;
    case TUI_ACT_SCAFFOLD: scaffold(s); return true;
    case TUI_ACT_MEASURE: measure(s); return true;
    case TUI_ACT_REFRESH:
        start_scan(s);
        tui_app_message(base->app, "Scanning %s again", tui_app_project(base->app));
        return true;
    case TUI_ACT_RESET:
        if (s->form_focus)
            reset_focused(s);
        else
            tui_app_message(base->app, "Enter goes to the answers; C-r there resets the one in focus");
        return true;
    default:
        break;
    }
    if (!s->form_focus)
        return tui_page_handle(&s->page, ev->action);
    return false;
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    decide_screen *s = (decide_screen *)base;
    if (max < 4)
        return 0;
    size_t n = 0;
    if (s->form_focus) {
        n = tui_form_contexts(&s->form, out);
        out[n++] = TUI_CTX_DECIDE;
    } else {
        out[n++] = TUI_CTX_DECIDE;
        out[n++] = TUI_CTX_PAGE;
    }
    return n;
}

/* ---- drawing ---- */

static void fill_page(decide_screen *s)
{
    int top = s->page.top;
    tui_page_reset(&s->page);
    switch (s->state) {
    case SCAN_IDLE:
    case SCAN_RUNNING: {
        char *line = byoc_xasprintf("Scanning %s...", tui_app_project(s->base.app));
        tui_page_text(&s->page, TUI_STY_DIM, line);
        free(line);
        break;
    }
    case SCAN_FAILED: {
        char k[16];
        char *line = byoc_xasprintf("The scan failed: %s. Answer the questions yourself (Enter), or %s to scan "
                                    "again.", s->scan_error, tui_action_key(TUI_CTX_DECIDE, TUI_ACT_REFRESH, k, sizeof k));
        tui_page_text(&s->page, TUI_STY_ERROR, line);
        free(line);
        tui_page_blank(&s->page);
    }
        __attribute__((fallthrough));
    case SCAN_DONE:
        tui_decide_page_fill(&s->page, &s->decision, s->scan, tui_app_project(s->base.app), "s");
        break;
    }
    tui_page_blank(&s->page);
    tui_page_heading(&s->page, "Start-up cost");
    if (s->measuring) {
        char *line = byoc_xasprintf("Measuring: %s (m cancels)", s->measure_status);
        tui_page_text(&s->page, TUI_STY_DIM, line);
        free(line);
    } else if (s->measured.base) {
        char *line = byoc_xasprintf("pip install -r requirements.txt took %.1f s in %s, measured at %s%s; "
                                    "%zu failed; a baked image adds %.1f MB.",
                                    s->measured.install_seconds, s->measured.base,
                                    s->measured.measured_at ? s->measured.measured_at : "?",
                                    s->measured.reused ? ", reused" : "", s->measured.failed.n,
                                    s->measured.size_bytes > 0 ? (double)s->measured.size_bytes / 1e6 : 0.0);
        tui_page_text(&s->page, TUI_STY_NORMAL, line);
        free(line);
        if (s->measured.base_note) {
            line = byoc_xasprintf("Base: %s.", s->measured.base_note);
            tui_page_text(&s->page, TUI_STY_DIM, line);
            free(line);
        }
    } else {
        char k[16], line[96];
        snprintf(line, sizeof line, "Not measured: %s times pip install -r requirements.txt in a throwaway container.",
                 tui_action_key(TUI_CTX_DECIDE, TUI_ACT_MEASURE, k, sizeof k));
        tui_page_text(&s->page, TUI_STY_DIM, line);
    }
    if (!s->measuring) {
        char *line = byoc_baked_start_text(s->baked.job_name ? &s->baked : NULL);
        line[0] = (char)toupper((unsigned char)line[0]);
        tui_page_text(&s->page, s->baked.job_name ? TUI_STY_NORMAL : TUI_STY_DIM, line);
        free(line);
    }
    tui_page_reset(&s->keys);
    if (s->side_by_side) {
        tui_step_page_keys(&s->keys, &s->base);
    } else {
        tui_page_blank(&s->page);
        tui_page_heading(&s->page, "Keys");
        tui_step_page_keys(&s->page, &s->base);
    }
    s->page.top = top;
    s->page_stale = false;
}

static tui_style source_style(byoc_answer_source src)
{
    switch (src) {
    case BYOC_SRC_USER: return TUI_STY_KEY;
    case BYOC_SRC_SCANNED: return TUI_STY_OK;
    default: return TUI_STY_DIM;
    }
}

struct wrap_draw {
    WINDOW *win;
    int y, x, w, left;
    tui_style sty;
};

static void wrap_line(const char *start, size_t n, void *ud)
{
    struct wrap_draw *d = ud;
    if (d->left <= 0)
        return;
    tui_draw_ntext(d->win, d->y++, d->x, d->w, d->sty, start, n);
    d->left--;
}

/* Wrapped text in at most `lines` lines; returns the lines used. */
static int draw_wrapped(WINDOW *win, int y, int x, int w, int lines, tui_style sty, const char *text)
{
    struct wrap_draw d = {win, y, x, w, lines, sty};
    tui_text_wrap(text, w, wrap_line, &d);
    return lines - d.left;
}

/* The answers: the form with a source column, then the focused question in
 * full. Returns the first row left free below. */
static int draw_answers(decide_screen *s, WINDOW *win, tui_rect r, bool focused)
{
    if (r.h <= 0 || r.w <= SOURCE_W + 10)
        return r.y + r.h;
    int detail = r.h >= 16 ? 5 : r.h >= 12 ? 3 : 0;
    int form_h = tui_form_lines_at(&s->form, r.w - SOURCE_W - 1);
    if (form_h > r.h - detail)
        form_h = r.h - detail;
    tui_rect fr = {r.y, r.x, form_h, r.w - SOURCE_W - 1};
    tui_form_draw(&s->form, win, fr, focused);
    int line = 0;
    for (size_t i = 0; i < s->form.count; i++) {
        const tui_field *fl = &s->form.fields[i];
        int y = fr.y + line - s->form.top;
        line += tui_form_field_lines(&s->form, i);
        if (y < fr.y || y >= fr.y + fr.h)
            continue;
        const byoc_question *q = byoc_question_find(fl->key);
        if (q)
            tui_draw_text(win, y, fr.x + fr.w + 1, SOURCE_W, source_style(s->answers.a[q->id].source),
                          tui_decide_source(&s->answers, q->id));
    }
    if (detail == 0 || s->form.count == 0)
        return fr.y + fr.h;
    const byoc_question *q = byoc_question_find(s->form.fields[s->form.focus].key);
    if (!q)
        return fr.y + fr.h;
    int y = fr.y + fr.h + 1, end = r.y + r.h;
    y += draw_wrapped(win, y, r.x, r.w, end - y, TUI_STY_LABEL_FOCUS, q->prompt);
    y += draw_wrapped(win, y, r.x, r.w, end - y, TUI_STY_DIM, q->help);
    const byoc_answer *ans = &s->answers.a[q->id];
    if (ans->evidence && y < end) {
        char *from = byoc_xasprintf("%s: %s", byoc_answer_source_name(ans->source), ans->evidence);
        tui_draw_fit(win, y++, r.x, r.w, TUI_STY_NORMAL, from);
        free(from);
    }
    return y;
}

static void draw_verdict(decide_screen *s, WINDOW *win, tui_rect r)
{
    if (r.h < 2)
        return;
    if (s->page_stale)
        fill_page(s);
    tui_rect pr = {r.y, r.x, r.h - 1, r.w};
    tui_page_draw(&s->page, win, pr);
    tui_draw_fit(win, r.y + r.h - 1, r.x, r.w, TUI_STY_DIM,
                 "What it needs: only the project directory");
}

/* The verdict in two lines, under the answers on a narrow screen. */
static void draw_strip(decide_screen *s, WINDOW *win, tui_rect r)
{
    tui_draw_hline(win, r.y, r.x, r.w, TUI_STY_BORDER);
    if (s->state == SCAN_RUNNING || s->state == SCAN_IDLE) {
        tui_draw_fit(win, r.y + 1, r.x, r.w, TUI_STY_DIM, "Scanning...");
        return;
    }
    const byoc_decision *d = &s->decision;
    int x = r.x + tui_draw_text(win, r.y + 1, r.x, r.w, tui_decide_verdict_style(d->verdict),
                                tui_decide_verdict_text(d->verdict));
    char *rest = byoc_xasprintf(": %s", byoc_recipe_name(d->recipe));
    tui_draw_fit(win, r.y + 1, x, r.x + r.w - x, TUI_STY_NORMAL, rest);
    free(rest);
    if (d->n_reasons && r.h >= 3) {
        char *why = byoc_xasprintf("[%s] %s", d->reasons[0].rule, d->reasons[0].text);
        tui_draw_fit(win, r.y + 2, r.x, r.w, TUI_STY_DIM, why);
        free(why);
    }
}

/* What the scan answers for: "this directory: /path". */
static void draw_directory(WINDOW *win, int y, int x, int w, const char *dir)
{
    static const char label[] = "this directory: ";
    int lw = (int)sizeof label - 1;
    if (w <= lw + 8)
        return;
    tui_draw_text(win, y, x, lw, TUI_STY_DIM, label);
    tui_draw_path(win, y, x + lw, w - lw, TUI_STY_NORMAL, dir);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    decide_screen *s = (decide_screen *)base;
    if (!s->started) {
        s->started = true;
        start_scan(s);
    }
    if (r.h < 6 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    tui_draw_fit(win, r.y, r.x + 1, r.w - 1, TUI_STY_LABEL_FOCUS, tui_step_purpose(base->step));
    draw_directory(win, r.y + 1, r.x + 1, r.w - 1, tui_app_project(base->app));
    tui_rect body = {r.y + 2, r.x + 1, r.h - 2, r.w - 1};
    bool side = r.w >= WIDE_MIN;
    if (side != s->side_by_side) {
        s->side_by_side = side;
        s->page_stale = true;
    }
    if (side) {
        int lw = body.w * 11 / 20;
        tui_draw_vline(win, body.y, body.x + lw, body.h, TUI_STY_BORDER);
        draw_verdict(s, win, (tui_rect){body.y, body.x + lw + 2, body.h, body.w - lw - 2});
        int y = draw_answers(s, win, (tui_rect){body.y, body.x, body.h, lw - 1}, s->form_focus) + 1;
        int left = body.y + body.h - y;
        if (left >= 3) {
            tui_draw_text(win, y, body.x, lw - 1, TUI_STY_HEADING, "Keys");
            tui_page_draw(&s->keys, win, (tui_rect){y + 1, body.x, left - 1, lw - 1});
        }
    } else if (s->form_focus) {
        draw_answers(s, win, (tui_rect){body.y, body.x, body.h - 3, body.w}, true);
        draw_strip(s, win, (tui_rect){body.y + body.h - 3, body.x, 3, body.w});
    } else {
        draw_verdict(s, win, body);
    }
}

static void title(tui_screen *base, char *buf, size_t size)
{
    decide_screen *s = (decide_screen *)base;
    if (s->state == SCAN_DONE || s->state == SCAN_FAILED)
        snprintf(buf, size, "1 Decide: %s (%s)", tui_decide_verdict_text(s->decision.verdict),
                 byoc_recipe_name(s->decision.recipe));
    else
        snprintf(buf, size, "1 Decide");
}

static void enter(tui_screen *base)
{
    decide_screen *s = (decide_screen *)base;
    s->page_stale = true;                /* the keys and the status values may have changed */
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    decide_screen *s = (decide_screen *)base;
    tui_form_clear(&s->form);
    tui_page_clear(&s->page);
    tui_page_clear(&s->keys);
    byoc_answers_clear(&s->base_answers);
    byoc_answers_clear(&s->answers);
    byoc_decision_clear(&s->decision);
    if (s->scan) {
        byoc_scan_clear(s->scan);
        free(s->scan);
    }
    byoc_measurement_clear(&s->measured);
    byoc_baked_start_clear(&s->baked);
    init_job_clear(&s->pending);
    byoc_strv_clear(&s->conflicts);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "decide",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .title = title,
};

tui_screen *tui_screen_decide_new(tui_app *app)
{
    decide_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_DECIDE);
    tui_form_init(&s->form);
    tui_decide_form_build(&s->form);
    tui_page_init(&s->page);
    tui_page_init(&s->keys);
    byoc_answers_init(&s->base_answers);
    byoc_answers_init(&s->answers);
    byoc_decide(&s->answers, &s->decision);
    s->page_stale = true;
    return &s->base;
}
