/* screen_permit: the Permit step. Choose a repository (from the image Push
 * pushed, or typed), see its current policy, grant or revoke pull for role
 * ARNs, user ARNs or account ids with the change shown as a diff before it
 * is applied (a confirmation docked under the diff, which stays in view and
 * scrolls; No by default), a loud refusal of "*" unless
 * confirmed a second time, and the check "can the execution role pull?"
 * (byoc/permit.h). Every call is a task (push_tasks.h).
 *
 * Fields the user has not filled start from the project: the repository of
 * the last push (byoc.json "pushed"), else the project's name; the role the
 * job uses (byoc.json job.role_arn, else $BRAKET_JOBS_ROLE_ARN); each marked
 * with where it came from, as the Push form marks its defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "action.h"
#include "aws/ecr.h"
#include "background.h"
#include "build_job.h"
#include "byoc/jobspec.h"
#include "byoc/permit.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/str.h"
#include "flow.h"
#include "form.h"
#include "page.h"
#include "push_tasks.h"
#include "screens.h"
#include "steps.h"

typedef struct permit_screen {
    tui_screen base;
    tui_form form;
    bool form_focus;
    tui_page page;
    unsigned flow_serial;
    uint64_t project_task;        /* reading byoc.json for the form's defaults */
    bool project_asked;
    byoc_task *running;
    uint64_t running_id;
    tui_permit_mode mode;
    bool dry_run, force;
    char *status;
    bool pending_apply;           /* the confirmation for the diff shown is open */
} permit_screen;

static const char *member(const json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

static const char *value(permit_screen *s, const char *key)
{
    const char *v = tui_form_value(&s->form, key);
    return v ? v : "";
}

static bool wants_everyone(const char *principals)
{
    char *copy = byoc_xstrdup(principals);
    bool star = false;
    for (char *save = NULL, *tok = strtok_r(copy, " \t,", &save); tok && !star; tok = strtok_r(NULL, " \t,", &save))
        star = strcmp(tok, "*") == 0;
    free(copy);
    return star;
}

static void pre_lines(tui_page *p, tui_style sty, const char *text)
{
    char *copy = byoc_xstrdup(text);
    for (char *save = NULL, *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        tui_style st = sty;
        if (sty == TUI_STY_NORMAL && line[0] == '+' && strncmp(line, "+++", 3) != 0)
            st = TUI_STY_OK;
        else if (sty == TUI_STY_NORMAL && line[0] == '-' && strncmp(line, "---", 3) != 0)
            st = TUI_STY_ERROR;
        tui_page_pre(p, st, line);
    }
    free(copy);
}

/* ---- tasks ---- */

static void start(permit_screen *s, tui_permit_mode mode, bool dry_run, bool force)
{
    tui_app *a = s->base.app;
    if (s->running) {
        tui_app_message(a, "Busy: wait for the answer");
        return;
    }
    if (tui_form_validate(&s->form)) {
        s->form_focus = true;
        tui_app_error(a, "Fix the form first: %s", s->form.fields[s->form.focus].msg);
        return;
    }
    if ((mode == TUI_PERMIT_ALLOW || mode == TUI_PERMIT_REVOKE) && !*value(s, "principals")) {
        s->form_focus = true;
        tui_form_focus(&s->form, 1);
        tui_app_error(a, "Name a principal: a role ARN, a user ARN or a 12-digit account");
        return;
    }
    const byoc_globals *g = tui_app_globals(a);
    tui_permit_args *args = tui_permit_args_new(tui_app_aws(a), g->profile, g->region, value(s, "repository"));
    args->principals = byoc_xstrdup(value(s, "principals"));
    args->role = *value(s, "role") ? byoc_xstrdup(value(s, "role")) : NULL;
    args->mode = mode;
    args->dry_run = dry_run;
    args->force = force;
    bool looks = mode == TUI_PERMIT_VIEW || mode == TUI_PERMIT_CHECK || dry_run;
    byoc_task *t = looks ? tui_app_start_background_task(a, &s->base, "permit", tui_permit_task, args,
                                                         tui_permit_args_free)
                         : tui_app_start_task(a, &s->base, "permit", tui_permit_task, args, tui_permit_args_free);
    if (!t)
        return;
    s->running = t;
    s->running_id = byoc_task_id(t);
    s->mode = mode;
    s->dry_run = dry_run;
    s->force = force;
    byoc_str_set(&s->status,
                 mode == TUI_PERMIT_CHECK ? "checking..." : dry_run ? "computing the change..." : "applying...");
}

static void apply_answer(tui_app *a, bool yes, void *ud)
{
    (void)a;
    permit_screen *s = ud;
    s->pending_apply = false;
    if (yes)
        start(s, s->mode, false, s->force);
    else
        byoc_str_set(&s->status, "not applied");
}

static void everyone_answer(tui_app *a, bool yes, void *ud)
{
    (void)a;
    permit_screen *s = ud;
    if (yes)
        start(s, TUI_PERMIT_ALLOW, true, true);
    else
        byoc_str_set(&s->status, "refused: \"*\" was not confirmed");
}

static void allow(permit_screen *s)
{
    if (wants_everyone(value(s, "principals"))) {
        tui_app_confirm(s->base.app, "DANGER: anyone may pull",
                        "\"*\" lets EVERY AWS account pull this image: its code and anything baked into it "
                        "become public to AWS users. byoc refuses this unless you confirm. Grant pull to "
                        "everyone?",
                        "Allow everyone", everyone_answer, s);
        tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);   /* the "*" and its warning */
        return;
    }
    start(s, TUI_PERMIT_ALLOW, true, false);
}

static void show_policy(permit_screen *s, const byoc_permit_result *r)
{
    tui_page *p = &s->page;
    tui_page_reset(p);
    p->top = 0;
    tui_page_kv(p, "Repository", r->repository ? r->repository : "");
    for (size_t i = 0; i < r->n_warnings; i++)
        tui_page_text(p, TUI_STY_WARN, r->warnings[i]);
    if (s->mode == TUI_PERMIT_VIEW || !r->changed) {
        tui_page_heading(p, s->mode == TUI_PERMIT_VIEW ? "Current policy" : "Policy (unchanged)");
        if (!r->policy) {
            tui_page_text(p, TUI_STY_DIM, "(no repository policy: only this account's own principals may pull)");
        } else {
            char *text = byoc_json_dumps(r->policy, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
            pre_lines(p, TUI_STY_NORMAL, text ? text : "");
            free(text);
        }
        return;
    }
    tui_page_heading(p, s->dry_run ? "The change (not applied yet)" : r->deleted ? "Applied: policy deleted"
                                                                                  : "Applied");
    pre_lines(p, TUI_STY_NORMAL, r->diff ? r->diff : "");
}

static void show_check(permit_screen *s, const byoc_pull_check *c)
{
    tui_page *p = &s->page;
    tui_page_reset(p);
    p->top = 0;
    tui_page_heading(p, "Can the execution role pull?");
    tui_page_kv(p, "Role", c->role_arn ? c->role_arn : "");
    tui_page_kv(p, "Repository", c->repository ? c->repository : "");
    tui_page_text(p, c->can_pull ? TUI_STY_OK : TUI_STY_ERROR,
                  c->can_pull ? "YES: the role can pull this image" : "NO: the role cannot pull this image");
    if (c->reason)
        tui_page_kv(p, "Why", c->reason);
    size_t i;
    const json_t *ch;
    json_array_foreach(c->checks, i, ch) {
        char *line = byoc_xasprintf("%s: %s", member(ch, "result"),
                                    member(ch, "detail"));
        tui_page_kv(p, member(ch, "method"), line);
        free(line);
    }
}

static void project_loaded(permit_screen *s, const tui_build_loaded *l);

static void on_event(tui_screen *base, const byoc_event *ev)
{
    permit_screen *s = (permit_screen *)base;
    if (s->project_task && ev->task_id == s->project_task) {
        if (ev->kind == BYOC_EV_DONE)
            project_loaded(s, ev->result);
        if (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR)
            s->project_task = 0;
        tui_screen_dirty(base);
        return;
    }
    if (!s->running || ev->task_id != s->running_id)
        return;
    if (ev->kind == BYOC_EV_STATUS && ev->text)
        byoc_str_set(&s->status, ev->text);
    if (ev->kind == BYOC_EV_DONE) {
        s->running = NULL;
        if (s->mode == TUI_PERMIT_CHECK) {
            show_check(s, ev->result);
            byoc_str_set(&s->status, "checked");
        } else {
            const byoc_permit_result *r = ev->result;
            show_policy(s, r);
            if (s->dry_run && r->changed && s->mode != TUI_PERMIT_VIEW) {
                byoc_str_set(&s->status, "review the diff");
                s->pending_apply = true;
                s->form_focus = false;      /* the scroll keys go to the diff meanwhile */
                tui_app_confirm(base->app, "Apply the policy change?",
                                "The diff above is the whole change to the repository policy; it scrolls "
                                "while this question is open. Apply it?",
                                "Apply", apply_answer, s);
                tui_app_dialog_about(base->app, base, TUI_ABOUT_PANE);
            } else {
                byoc_str_set(&s->status, s->mode == TUI_PERMIT_VIEW ? "current policy"
                                         : r->sent                  ? "applied"
                                                                    : "nothing to change");
            }
        }
    } else if (ev->kind == BYOC_EV_ERROR) {
        s->running = NULL;
        char *line = byoc_xasprintf("error: %s%s%s", ev->err.what[0] ? ev->err.what : "",
                                    ev->err.what[0] ? ": " : "", ev->err.message);
        byoc_str_set(&s->status, line);
        free(line);
    }
    tui_screen_dirty(base);
}

/* The repository of "<registry>/<repository>:<tag>" or "...@sha256:...". */
static char *repository_of(const char *uri)
{
    const char *slash = strchr(uri, '/');
    if (!slash)
        return NULL;
    const char *start = slash + 1;
    size_t len = strcspn(start, ":@");
    return len ? byoc_xasprintf("%.*s", (int)len, start) : NULL;
}

/* ---- defaults from byoc.json ---- */

/* A field the user has not filled: empty, or still the default it was given. */
static bool open_field(permit_screen *s, const char *key)
{
    return !*value(s, key) || tui_form_origin(&s->form, tui_form_field(&s->form, key));
}

static void project_loaded(permit_screen *s, const tui_build_loaded *l)
{
    if (!l->found || l->error)
        return;
    const byoc_project *p = &l->project;
    if (open_field(s, "repository")) {
        const char *pushed = byoc_project_pushed_image(p);
        char *repo = pushed ? repository_of(pushed) : NULL;
        if (repo)
            tui_form_set_from(&s->form, "repository", repo, byoc_job_origin_name(BYOC_JO_PUSH));
        else if (p->name && byoc_ecr_repository_name_ok(p->name, NULL, 0))
            tui_form_set_from(&s->form, "repository", p->name, BYOC_PROJECT_FILE);
        free(repo);
    }
    const char *role = byoc_project_job_string(p, "role_arn");
    if (role && *role && open_field(s, "role"))   /* the job's own role before the environment's, as run takes it */
        tui_form_set_from(&s->form, "role", role, BYOC_PROJECT_FILE);
}

/* ---- keys ---- */

static bool key(tui_screen *base, const tui_keyev *ev)
{
    permit_screen *s = (permit_screen *)base;
    if (s->form_focus) {
        if (ev->action == TUI_ACT_CANCEL || ev->action == TUI_ACT_BACK) {
            s->form_focus = false;
            return true;
        }
        tui_form_result r = tui_form_handle(&s->form, ev->key, ev->action);
        if (r == TUI_FORM_SUBMIT) {
            s->form_focus = false;
            start(s, TUI_PERMIT_VIEW, true, false);
        }
        return r != TUI_FORM_IGNORED;
    }
    switch (ev->action) {
    case TUI_ACT_OPEN: s->form_focus = true; return true;
    case TUI_ACT_ALLOW: allow(s); return true;
    case TUI_ACT_REVOKE: start(s, TUI_PERMIT_REVOKE, true, false); return true;
    case TUI_ACT_CHECK_PULL:
        if (!*value(s, "role")) {
            s->form_focus = true;
            tui_form_focus(&s->form, 2);
            tui_app_error(base->app, "Name the execution role to check (a role ARN)");
            return true;
        }
        start(s, TUI_PERMIT_CHECK, true, false);
        return true;
    case TUI_ACT_REFRESH: start(s, TUI_PERMIT_VIEW, true, false); return true;
    default: return tui_page_handle(&s->page, ev->action);
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    permit_screen *s = (permit_screen *)base;
    if (max < 4)
        return 0;
    if (s->form_focus)
        return tui_form_contexts(&s->form, out);
    out[0] = TUI_CTX_PERMIT;
    out[1] = TUI_CTX_PAGE;
    return 2;
}

/* ---- drawing ---- */

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    permit_screen *s = (permit_screen *)base;
    if (!s->project_asked) {
        s->project_asked = true;
        s->project_task = tui_app_read_project(base->app, base, "byoc.json", tui_build_load_task);
    }
    if (r.h < 10 || r.w < 30)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int x = r.x + 1, w = r.w - 1, y = r.y;
    tui_draw_fit(win, y++, x, w, TUI_STY_LABEL_FOCUS, tui_step_purpose(base->step));
    int fh = tui_form_lines(&s->form);
    tui_form_draw(&s->form, win, (tui_rect){y, x, fh, w}, s->form_focus);
    int form_y = y;
    y += fh;
    char from[512];       /* an ARN leaves no room for the inline mark */
    tui_form_origins_text(&s->form, from, sizeof from);
    for (char *save = NULL, *line = strtok_r(from, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        tui_draw_fit(win, y++, x, w, TUI_STY_DIM, line);
    if (wants_everyone(value(s, "principals"))) {
        tui_draw_fit(win, y++, x, w, TUI_STY_ERROR, "!! \"*\" = every AWS account can pull: refused unless confirmed");
        base->about = (tui_rect){form_y, r.x, y - form_y, r.w};  /* the "*" and the warning: what a asks about */
    }
    char keys[5][16], ready[96];
    snprintf(ready, sizeof ready, "%s edits; %s shows the policy; %s allows, %s revokes; %s checks the role",
             tui_action_key(TUI_CTX_PERMIT, TUI_ACT_OPEN, keys[0], sizeof keys[0]),
             tui_action_key(TUI_CTX_PERMIT, TUI_ACT_REFRESH, keys[1], sizeof keys[1]),
             tui_action_key(TUI_CTX_PERMIT, TUI_ACT_ALLOW, keys[2], sizeof keys[2]),
             tui_action_key(TUI_CTX_PERMIT, TUI_ACT_REVOKE, keys[3], sizeof keys[3]),
             tui_action_key(TUI_CTX_PERMIT, TUI_ACT_CHECK_PULL, keys[4], sizeof keys[4]));
    const char *st = s->status ? s->status : ready;
    tui_draw_fit(win, y++, x, w, strncmp(st, "error", 5) == 0 ? TUI_STY_ERROR : TUI_STY_DIM, st);
    tui_draw_hline(win, y++, r.x, r.w, s->form_focus ? TUI_STY_BORDER : TUI_STY_BORDER_FOCUS);
    tui_rect pane = {y, r.x + 1, r.y + r.h - y, r.w - 1};
    if (pane.h < 1)
        return;
    tui_page_layout(&s->page, pane.w);
    tui_page_set_height(&s->page, pane.h);
    tui_page_draw(&s->page, win, pane);
}

static void enter(tui_screen *base)
{
    permit_screen *s = (permit_screen *)base;
    const tui_flow *f = tui_flow_get(base->app);
    if (f->serial != s->flow_serial) {
        s->flow_serial = f->serial;
        char *repo = f->image_uri ? repository_of(f->image_uri) : NULL;
        if (repo && strcmp(repo, value(s, "repository")) != 0) {
            tui_form_set_value(&s->form, "repository", repo);
            start(s, TUI_PERMIT_VIEW, true, false);
        }
        free(repo);
    }
    /* Push may have written byoc.json since: read it again while a field it fills is open */
    if (!s->project_task && (open_field(s, "repository") || open_field(s, "role")))
        s->project_asked = false;
    tui_screen_dirty(base);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    permit_screen *s = (permit_screen *)base;
    snprintf(buf, size, "4 Permit%s%s", *value(s, "repository") ? ": " : "", value(s, "repository"));
}

static void destroy(tui_screen *base)
{
    permit_screen *s = (permit_screen *)base;
    tui_form_clear(&s->form);
    tui_page_clear(&s->page);
    free(s->status);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "permit",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .title = title,
};

tui_screen *tui_screen_permit_new(tui_app *app)
{
    permit_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_STEP, TUI_STEP_PERMIT);
    tui_form_init(&s->form);
    tui_form_add_text(&s->form, "repository", "Repository", "", true, NULL, NULL);
    size_t pi = tui_form_add_text(&s->form, "principals", "Principals", "", false, NULL, NULL);
    tui_form_set_help(&s->form, pi, "role ARN, user ARN or 12-digit account; several: space-separated");
    size_t ri = tui_form_add_text(&s->form, "role", "Execution role", "", false, NULL, NULL);
    tui_form_set_help(&s->form, ri, "the job's role ARN, for k (can it pull?)");
    const char *role = getenv(BYOC_JOB_ROLE_ENV);
    if (role && *role)
        tui_form_set_from(&s->form, "role", role, "$" BYOC_JOB_ROLE_ENV);
    tui_page_init(&s->page);
    return &s->base;
}
