/* screen_push: the Push step. A small form (source image, target
 * repository, tag, create when missing), the account's repositories to pick
 * from (Enter puts one into the form), a warning when the repository name
 * does not start with amazon-braket (a offers the prefix) unless the
 * repository policy grants the job role the pull (as Permit does; read in
 * the background, "unknown" when it cannot be read), then the push
 * with a progress bar per layer (bytes and rate) and the resulting URI and
 * digest; u puts the URI into the job form (flow.h) and goes to Run. The
 * source comes from Build or the image browser (flow.h); fields still empty
 * start from byoc.json (source, repository) and the tag from what the push
 * gives, each marked with where it came from. The push is pushflow's task
 * (byoc/pushflow.h), as `byoc push` runs it: it records the push in byoc.json
 * too, and its typed events drive the status line and the layer bars. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "action.h"
#include "aws/ecr.h"
#include "background.h"
#include "build_job.h"
#include "build_model.h"
#include "byoc/jobspec.h"
#include "byoc/permit.h"
#include "byoc/pushflow.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/utf8.h"
#include "flow.h"
#include "form.h"
#include "list.h"
#include "progress.h"
#include "push_tasks.h"
#include "screens.h"
#include "steps.h"
#include "whole.h"

#define MAX_LAYERS 64

typedef enum { P_IDLE, P_PUSHING, P_DONE, P_FAILED } push_state;

typedef struct layer_bar {
    char id[72];
    char status[64];
    tui_progress bar;
} layer_bar;

typedef struct push_screen {
    tui_screen base;
    tui_form form;
    bool form_focus;
    tui_list repos;
    uint64_t repos_task;
    uint64_t project_task;       /* reading byoc.json for the form's defaults */
    bool project_asked;
    bool repos_loaded;
    char *repos_error;
    unsigned flow_serial;
    push_state state;
    byoc_task *running;
    uint64_t running_id;
    char *status;
    char *error;
    layer_bar layers[MAX_LAYERS];
    size_t n_layers;
    char *uri, *digest;
    char **warnings;
    size_t n_warnings;
    /* Does the repository policy grant the pull? Asked for a name outside amazon-braket* */
    uint64_t grant_task;
    char *grant_repo;            /* the repository the answer, or the running check, is for */
    bool grant_known;            /* the answer for grant_repo is in */
    bool grant_stale;            /* the running check was asked before the policy may have changed */
    int grant;                   /* 1 granted, 0 not, -1 unknown (byoc_repo_pull.granted) */
    char *grant_text;            /* whom it grants, or why not / why unknown (printable) */
} push_screen;

static const tui_column repo_columns[] = {
    {"Repository", 20, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"URI", 20, 2, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
};

static bool check_repo(const tui_form *f, const tui_field *field, const char *value, char *msg, size_t msgsize,
                       void *ud)
{
    (void)f;
    (void)field;
    (void)ud;
    char why[256];
    if (byoc_ecr_repository_name_ok(value, why, sizeof why))
        return true;
    snprintf(msg, msgsize, "repository: %s", why);
    return false;
}

/* ---- repositories ---- */

static void start_repos(push_screen *s)
{
    const byoc_globals *g = tui_app_globals(s->base.app);
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "list repositories", tui_push_repos_task,
                                                 tui_push_args_new(tui_app_aws(s->base.app), g->profile, g->region),
                                                 tui_push_args_free);
    if (t)
        s->repos_task = byoc_task_id(t);
}

static void repos_listed(push_screen *s, const json_t *list)
{
    tui_list_reset(&s->repos);
    size_t i;
    const json_t *r;
    json_array_foreach(list, i, r) {
        const char *name = json_string_value(json_object_get(r, "name"));
        const char *cells[2] = {name, json_string_value(json_object_get(r, "uri"))};
        tui_list_add(&s->repos, cells, byoc_xstrdup(name ? name : ""));
    }
    s->repos_loaded = true;
    byoc_str_set(&s->repos_error, NULL);
}

/* ---- the repository policy's pull grant ---- */

/* Ask again the next time it is drawn: Permit may have changed the policy, a push created the repository. */
static void forget_grant(push_screen *s)
{
    if (s->grant_task)
        s->grant_stale = true;
    byoc_str_set(&s->grant_repo, NULL);
    s->grant_known = false;
}

/* Read the policy of repo once per name, never while the name is being typed. */
static void check_grant(push_screen *s, const char *repo)
{
    if (s->form_focus || s->grant_task || (s->grant_repo && strcmp(s->grant_repo, repo) == 0))
        return;
    const byoc_globals *g = tui_app_globals(s->base.app);
    tui_permit_args *args = tui_permit_args_new(tui_app_aws(s->base.app), g->profile, g->region, repo);
    args->mode = TUI_PERMIT_GRANT;
    const char *role = getenv(BYOC_JOB_ROLE_ENV);
    args->role = role && *role ? byoc_xstrdup(role) : NULL;
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "repository policy", tui_permit_task, args,
                                                 tui_permit_args_free);
    if (!t)
        return;
    s->grant_task = byoc_task_id(t);
    byoc_str_set(&s->grant_repo, repo);
    s->grant_known = false;
}

static void grant_answered(push_screen *s, const byoc_event *ev)
{
    s->grant_task = 0;
    if (s->grant_stale) {          /* asked before Permit or a push: ask again */
        s->grant_stale = false;
        byoc_str_set(&s->grant_repo, NULL);
        return;
    }
    const byoc_repo_pull *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
    s->grant_known = true;
    s->grant = r ? r->granted : -1;
    const char *text = r ? (r->granted == 1 ? r->principals : r->why) : ev->err.message;
    free(s->grant_text);
    s->grant_text = byoc_printable_dup(text ? text : "");
}

/* What the name means for the job role's pull, the repository's part first (a line cut at
 * 80 columns keeps it). */
static void draw_grant(push_screen *s, WINDOW *win, int y, int x, int w, const char *repo)
{
    char buf[1024];
    tui_style sty = TUI_STY_WARN;
    bool answered = s->grant_known && s->grant_repo && strcmp(s->grant_repo, repo) == 0;
    if (!answered && s->grant_task)
        snprintf(buf, sizeof buf, "! Not amazon-braket*: checking whether its policy grants the pull");
    else if (!answered || s->grant == 0)
        snprintf(buf, sizeof buf, "! Not amazon-braket*: the default job role cannot pull it (a adds the prefix, or "
                                  "Permit)%s%s", answered ? ": " : "", answered ? s->grant_text : "");
    else if (s->grant == 1) {
        snprintf(buf, sizeof buf, "Policy grants pull to %s (the name is not amazon-braket*)", s->grant_text);
        sty = TUI_STY_OK;
    } else
        snprintf(buf, sizeof buf, "! Not amazon-braket*; pull grant unknown: %s", s->grant_text);
    tui_draw_fit(win, y, x, w, sty, buf);
}

/* ---- defaults from byoc.json ---- */

static void start_project(push_screen *s)
{
    s->project_asked = true;
    s->project_task = tui_app_read_project(s->base.app, &s->base, "byoc.json", tui_build_load_task);
}

/* The tag field holds what the push gives when no tag is asked (byoc_push_default_tag: the
 * source's tag, else latest), marked "(from source image)", once a default source is set
 * (start); while it keeps that mark it follows the source, until the user types a tag. */
static void default_tag(push_screen *s, bool start)
{
    const char *src = tui_form_value(&s->form, "source"), *tag = tui_form_value(&s->form, "tag");
    bool marked = tui_form_origin(&s->form, tui_form_field(&s->form, "tag")) != NULL;
    if (!src || !*src || !(marked || (start && (!tag || !*tag))))
        return;
    char *want = byoc_push_default_tag(src);
    if (!marked || strcmp(want, tag) != 0)
        tui_form_set_from(&s->form, "tag", want, "source image");
    free(want);
}

/* byoc.json names the image (its tags, else <name>:latest as Build tags it) and the repository
 * (its name): they fill the fields the user has not filled, marked "(from byoc.json)". */
static void project_loaded(push_screen *s, const tui_build_loaded *l)
{
    if (!l->found || l->error)
        return;
    const char *name = l->project.name;
    const char *repo = tui_form_value(&s->form, "repository");
    if (name && (!repo || !*repo) && byoc_ecr_repository_name_ok(name, NULL, 0))
        tui_form_set_from(&s->form, "repository", name, "byoc.json");
    const char *src = tui_form_value(&s->form, "source");
    if (src && *src)
        return;
    if (l->project.n_tags) {
        tui_form_set_from(&s->form, "source", l->project.tags[0], "byoc.json");
    } else if (name) {
        char *tag = tui_build_default_tag(name, tui_app_project(s->base.app));
        tui_form_set_from(&s->form, "source", tag, "byoc.json");
        free(tag);
    }
    default_tag(s, true);
}

/* ---- push ---- */

static layer_bar *layer(push_screen *s, const char *id)
{
    for (size_t i = 0; i < s->n_layers; i++)
        if (strcmp(s->layers[i].id, id) == 0)
            return &s->layers[i];
    if (s->n_layers == MAX_LAYERS)
        return NULL;
    layer_bar *l = &s->layers[s->n_layers++];
    snprintf(l->id, sizeof l->id, "%s", id);
    char label[96];
    snprintf(label, sizeof label, "%.12s", id);
    tui_progress_init(&l->bar, label, true);
    return l;
}

static void start_push(push_screen *s)
{
    tui_app *a = s->base.app;
    if (s->running) {
        tui_app_message(a, "A push is running");
        return;
    }
    if (tui_form_validate(&s->form)) {
        s->form_focus = true;
        tui_app_error(a, "Fix the form first: %s", s->form.fields[s->form.focus].msg);
        return;
    }
    const byoc_globals *g = tui_app_globals(a);
    const char *tag = tui_form_value(&s->form, "tag");
    byoc_push_opts o = {
        .source = tui_form_value(&s->form, "source"),
        .repository = tui_form_value(&s->form, "repository"),
        .tag = tag && *tag ? tag : NULL,
        .create = strcmp(tui_form_value(&s->form, "create"), "true") == 0,
        .project_dir = tui_app_project(a),
    };
    byoc_push_job *job = byoc_push_job_new(tui_app_aws(a), tui_app_engines(a), g->profile, g->region, &o);
    byoc_task *t = tui_app_start_task(a, &s->base, "push", byoc_push_task, job, byoc_push_job_free);
    if (!t) {
        tui_app_error(a, "could not start a task");
        return;
    }
    s->running = t;
    s->running_id = byoc_task_id(t);
    s->state = P_PUSHING;
    s->n_layers = 0;
    byoc_str_set(&s->error, NULL);
    byoc_str_set(&s->status, "starting");
    s->base.wants_tick = true;
}

static void pushed(push_screen *s, const byoc_push_result *r)
{
    tui_app *a = s->base.app;
    s->state = P_DONE;
    byoc_str_set(&s->uri, r->image_uri);
    byoc_str_set(&s->digest, r->digest);
    for (size_t i = 0; i < s->n_layers; i++)
        tui_progress_finish(&s->layers[i].bar);
    for (size_t i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    s->n_warnings = r->n_warnings;
    s->warnings = byoc_xcalloc(r->n_warnings + 1, sizeof *s->warnings);
    for (size_t i = 0; i < r->n_warnings; i++)
        s->warnings[i] = byoc_xstrdup(r->warnings[i]);
    tui_flow_set_pushed(a, r->image_uri, r->digest);
    s->flow_serial = tui_flow_get(a)->serial;
    tui_app_message(a, "Pushed %s", r->image_uri);
    start_repos(s);
    forget_grant(s);
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    push_screen *s = (push_screen *)base;
    if (s->project_task && ev->task_id == s->project_task) {
        if (ev->kind == BYOC_EV_DONE)
            project_loaded(s, ev->result);
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            s->project_task = 0;
        tui_screen_dirty(base);
        return;
    }
    if (s->grant_task && ev->task_id == s->grant_task) {
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            grant_answered(s, ev);
        tui_screen_dirty(base);
        return;
    }
    if (ev->task_id == s->repos_task) {
        if (ev->kind == BYOC_EV_DONE)
            repos_listed(s, ev->result);
        else if (ev->kind == BYOC_EV_ERROR)
            byoc_str_set(&s->repos_error, ev->err.message);
        tui_screen_dirty(base);
        return;
    }
    byoc_push_event pe;
    if (!s->running || ev->task_id != s->running_id || !byoc_push_event_from(ev, &pe))
        return;
    switch (pe.kind) {
    case BYOC_PUSH_EV_STEP: byoc_str_set(&s->status, pe.text); break;
    case BYOC_PUSH_EV_WARNING: tui_app_message(base->app, "warning: %s", pe.text ? pe.text : ""); break;
    case BYOC_PUSH_EV_LAYER: {
        layer_bar *l = layer(s, pe.layer);
        if (l) {
            snprintf(l->status, sizeof l->status, "%s", pe.text ? pe.text : "");
            if (pe.total > 0 || pe.current > 0)
                tui_progress_update(&l->bar, pe.current, pe.total, tui_now_ms());
        }
        break;
    }
    case BYOC_PUSH_EV_DONE:
        s->running = NULL;
        pushed(s, pe.result);
        break;
    case BYOC_PUSH_EV_FAILED:
        s->running = NULL;
        s->state = P_FAILED;
        byoc_str_set(&s->error, pe.err->kind == BYOC_E_CANCELLED ? "cancelled" : pe.err->message);
        break;
    case BYOC_PUSH_EV_NOTE:        /* the engine's own lines: the layer bars say it */
    case BYOC_PUSH_EV_REPOSITORY:
    case BYOC_PUSH_EV_LOGIN:
    case BYOC_PUSH_EV_DIGEST:
        break;
    }
    tui_screen_dirty(base);
}

static bool tick(tui_screen *base, uint64_t now)
{
    (void)now;
    push_screen *s = (push_screen *)base;
    if (!s->running)
        base->wants_tick = false;
    return s->running != NULL;
}

/* ---- keys ---- */

static void braket_prefix(push_screen *s)
{
    const char *repo = tui_form_value(&s->form, "repository");
    if (!repo || !*repo || byoc_push_braket_name_ok(repo)) {
        tui_app_message(s->base.app, "The repository name is fine for the default job role");
        return;
    }
    char *name = byoc_push_braket_name_suggestion(repo);
    if (!name) {
        tui_app_error(s->base.app, "amazon-braket-%s is not a valid repository name", repo);
        return;
    }
    tui_form_set_value(&s->form, "repository", name);
    tui_form_validate_field(&s->form, 1);
    free(name);
}

static void use_in_job(push_screen *s)
{
    tui_app *a = s->base.app;
    if (!s->uri) {
        tui_app_message(a, "Push an image first (p)");
        return;
    }
    tui_flow_set_pushed(a, s->uri, s->digest);
    s->flow_serial = tui_flow_get(a)->serial;
    tui_app_goto_step(a, TUI_STEP_RUN);
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    push_screen *s = (push_screen *)base;
    if (s->form_focus) {
        if (ev->action == TUI_ACT_CANCEL || ev->action == TUI_ACT_BACK) {
            s->form_focus = false;
            return true;
        }
        tui_form_result r = tui_form_handle(&s->form, ev->key, ev->action);
        default_tag(s, false);
        if (r == TUI_FORM_SUBMIT) {
            s->form_focus = false;
            start_push(s);
        }
        return r != TUI_FORM_IGNORED;
    }
    if (ev->action == TUI_ACT_OPEN && ev->row && ev->row->ctx == TUI_CTX_LIST) {
        const char *name = tui_list_selected_data(&s->repos);
        if (name) {
            tui_form_set_value(&s->form, "repository", name);
            tui_form_validate_field(&s->form, 1);
            tui_app_message(base->app, "Repository: %s", name);
        }
        return true;
    }
    if (tui_list_handle(&s->repos, ev->key, ev->action))
        return true;
    switch (ev->action) {
    case TUI_ACT_OPEN: s->form_focus = true; return true;
    case TUI_ACT_PUSH_THIS: start_push(s); return true;
    case TUI_ACT_USE_IN_JOB: use_in_job(s); return true;
    case TUI_ACT_BRAKET_PREFIX: braket_prefix(s); return true;
    case TUI_ACT_REFRESH:
        start_repos(s);
        forget_grant(s);
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    push_screen *s = (push_screen *)base;
    if (max < 4)
        return 0;
    if (s->form_focus)
        return tui_form_contexts(&s->form, out);
    size_t n = tui_list_contexts(&s->repos, out);
    if (!s->repos.filtering)
        out[n++] = TUI_CTX_PUSH;
    return n;
}

/* ---- drawing ---- */

static void draw_layers(push_screen *s, WINDOW *win, tui_rect r)
{
    uint64_t now = tui_now_ms();
    int y = r.y;
    size_t first = s->n_layers > (size_t)r.h ? s->n_layers - (size_t)r.h : 0;
    for (size_t i = first; i < s->n_layers && y < r.y + r.h; i++, y++) {
        layer_bar *l = &s->layers[i];
        int sw = 18;
        tui_draw_fit(win, y, r.x + 1, sw, TUI_STY_DIM, l->status);
        tui_progress_draw(&l->bar, win, y, r.x + 1 + sw + 1, r.w - sw - 3, now);
    }
    if (s->n_layers == 0)
        tui_draw_fit(win, r.y, r.x + 1, r.w - 1, TUI_STY_DIM, "(waiting for the engine)");
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    push_screen *s = (push_screen *)base;
    if (!s->repos_task)
        start_repos(s);
    if (!s->project_asked)
        start_project(s);
    if (r.h < 10 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int x = r.x + 1, w = r.w - 1, y = r.y;
    tui_draw_fit(win, y++, x, w, TUI_STY_LABEL_FOCUS, tui_step_purpose(base->step));
    int fh = tui_form_lines_at(&s->form, w);
    tui_form_draw(&s->form, win, (tui_rect){y, x, fh, w}, s->form_focus);
    y += fh;
    const char *repo = tui_form_value(&s->form, "repository");
    if (repo && *repo && !byoc_push_braket_name_ok(repo)) {
        check_grant(s, repo);
        draw_grant(s, win, y++, x, w, repo);
    }
    char buf[1024];
    tui_style sty = TUI_STY_NORMAL;
    switch (s->state) {
    case P_IDLE: {
        char p[16], e[16];
        snprintf(buf, sizeof buf, "Ready: %s pushes, %s edits, Enter on a repository picks it",
                 tui_action_key(TUI_CTX_PUSH, TUI_ACT_PUSH_THIS, p, sizeof p),
                 tui_action_key(TUI_CTX_PUSH, TUI_ACT_OPEN, e, sizeof e));
        sty = TUI_STY_DIM;
        break;
    }
    case P_PUSHING: snprintf(buf, sizeof buf, "Pushing: %s", s->status ? s->status : ""); sty = TUI_STY_LABEL_FOCUS; break;
    case P_DONE: {
        char k[16];
        snprintf(buf, sizeof buf, "Pushed: %s puts this URI into the job form",
                 tui_action_key(TUI_CTX_PUSH, TUI_ACT_USE_IN_JOB, k, sizeof k));
        sty = TUI_STY_OK;
        break;
    }
    case P_FAILED: snprintf(buf, sizeof buf, "Failed: %s", s->error ? s->error : ""); sty = TUI_STY_ERROR; break;
    }
    tui_whole_fit(win, y++, x, w, sty, "Push", buf, NULL);
    if (s->state == P_DONE && s->uri)
        tui_whole_fit(win, y++, x, w, TUI_STY_OK, "The pushed image", s->uri, NULL);
    if (s->state == P_DONE && s->digest) {
        snprintf(buf, sizeof buf, "Digest %s", s->digest);
        tui_draw_fit(win, y++, x, w, TUI_STY_NORMAL, buf);
    }
    bool show_layers = s->state != P_IDLE && s->n_layers;
    tui_draw_hline(win, y, r.x, r.w, s->form_focus ? TUI_STY_BORDER : TUI_STY_BORDER_FOCUS);
    tui_draw_fit(win, y, r.x + 2, r.w - 4, TUI_STY_HEADING,
                 show_layers || s->state == P_PUSHING ? " Layers " : " Repositories (Enter picks) ");
    y++;
    tui_rect pane = {y, r.x, r.y + r.h - y, r.w};
    if (pane.h < 1)
        return;
    if (show_layers || s->state == P_PUSHING)
        draw_layers(s, win, pane);
    else if (s->repos_error)
        tui_whole_fit(win, pane.y, x, w, TUI_STY_ERROR, "Listing the repositories failed", s->repos_error, NULL);
    else
        tui_list_draw(&s->repos, win, pane, !s->form_focus);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    push_screen *s = (push_screen *)base;
    const char *st[] = {"", ": pushing", ": pushed", ": failed"};
    snprintf(buf, size, "3 Push%s", st[s->state]);
}

static void enter(tui_screen *base)
{
    push_screen *s = (push_screen *)base;
    const tui_flow *f = tui_flow_get(base->app);
    if (f->serial != s->flow_serial) {
        s->flow_serial = f->serial;
        if (f->image) {
            tui_form_set_value(&s->form, "source", f->image);
            default_tag(s, true);
        }
    }
    /* Decide may have written byoc.json since: read it again while a field it fills is empty */
    const char *repo = tui_form_value(&s->form, "repository"), *src = tui_form_value(&s->form, "source");
    if (!s->project_task && (!repo || !*repo || !src || !*src))
        s->project_asked = false;
    forget_grant(s); /* back from Permit, say: the policy may grant the pull now */
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    push_screen *s = (push_screen *)base;
    tui_form_clear(&s->form);
    tui_list_clear(&s->repos);
    free(s->repos_error);
    free(s->status);
    free(s->error);
    free(s->uri);
    free(s->digest);
    free(s->grant_repo);
    free(s->grant_text);
    for (size_t i = 0; i < s->n_warnings; i++)
        free(s->warnings[i]);
    free(s->warnings);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "push",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_push_new(tui_app *app)
{
    push_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_PUSH);
    s->base.wide = true;         /* an image URI is ~75 columns */
    tui_form_init(&s->form);
    tui_form_add_text(&s->form, "source", "Source image", "", true, NULL, NULL);
    tui_form_add_text(&s->form, "repository", "Repository", "", true, check_repo, NULL);
    size_t tag = tui_form_add_text(&s->form, "tag", "Tag", "", false, NULL, NULL);
    tui_form_set_help(&s->form, tag, "empty: the source's tag, else latest");  /* what default_tag fills */
    tui_form_add_toggle(&s->form, "create", "Create if missing", true);
    tui_list_init(&s->repos, repo_columns, 2);
    s->repos.data_free = free;
    s->repos.empty_text = "No repositories yet: type a name, Create if missing is on";
    return &s->base;
}
