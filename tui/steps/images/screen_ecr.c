#include "screen_ecr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background.h"
#include "core/buf.h"
#include "core/str.h"
#include "ecr_tasks.h"
#include "ecr_model.h"
#include "flow.h"
#include "images_model.h"
#include "list.h"
#include "progress.h"
#include "steps.h"

typedef enum { LOAD_IDLE, LOAD_BUSY, LOAD_OK, LOAD_FAILED } load_state;

typedef struct ecr_screen {
    tui_screen base;
    tui_list repos;
    tui_list images;
    bool in_repo;            /* the images of one repository are shown */
    bool started;
    load_state repos_state, images_state;
    char repos_error[768];
    char images_error[768];
    char *region;
    char *repo_name, *repo_uri;   /* the repository open (or last opened) */
    char *engine_note;       /* why the "local" marks are missing, or NULL */
    bool repos_stale;        /* an image was deleted: the counts changed */
    uint64_t repos_task, counts_task, images_task, delete_task;
    uint64_t platforms_task;  /* the latest read of the indexes' platforms; an older one's answer is dropped */
    bool counts_again;       /* the repositories were listed again while counting */
    char *asked_digest;      /* what the open delete dialog is about */
} ecr_screen;

static tui_ecr_args *args_for(ecr_screen *s)
{
    const byoc_globals *g = tui_app_globals(s->base.app);
    tui_ecr_args *a = tui_ecr_args_new(tui_app_aws(s->base.app), g ? g->profile : NULL, g ? g->region : NULL);
    a->engines = tui_app_engines(s->base.app);
    return a;
}

static uint64_t start(ecr_screen *s, const char *name, byoc_task_fn fn, tui_ecr_args *args, bool background)
{
    byoc_task *t = background ? tui_app_start_background_task(s->base.app, &s->base, name, fn, args, tui_ecr_args_free)
                              : tui_app_start_task(s->base.app, &s->base, name, fn, args, tui_ecr_args_free);
    if (!t) {
        tui_app_error(s->base.app, "%s: could not start a task", name);
        return 0;
    }
    return byoc_task_id(t);
}

static void list_repos(ecr_screen *s)
{
    if (s->repos_task)
        return;
    s->repos_stale = false;
    s->repos_state = LOAD_BUSY;
    s->repos.empty_text = "Listing the repositories...";
    s->repos_task = start(s, "ecr repositories", tui_ecr_repos_task, args_for(s), true);
}

/* The image counts, once the repositories are shown (a ListImages each). */
static void count_images(ecr_screen *s)
{
    if (s->counts_task) {
        s->counts_again = true;
        return;
    }
    s->counts_again = false;
    if (s->repos.nrows == 0)
        return;
    tui_ecr_args *a = args_for(s);
    a->names = byoc_xcalloc(s->repos.nrows + 1, sizeof *a->names);
    for (size_t i = 0; i < s->repos.nrows; i++)
        a->names[a->n_names++] = byoc_xstrdup(((tui_ecr_repo_entry *)s->repos.rows[i].data)->name);
    s->counts_task = start(s, "ecr counts", tui_ecr_counts_task, a, true);
}

static void list_images(ecr_screen *s)
{
    if (s->images_task || !s->repo_name)
        return;
    tui_ecr_args *a = args_for(s);
    a->repository = byoc_xstrdup(s->repo_name);
    a->uri = byoc_xstrdup(s->repo_uri ? s->repo_uri : s->repo_name);
    s->images_state = LOAD_BUSY;
    s->images.empty_text = "Listing the images...";
    s->images_task = start(s, "ecr images", tui_ecr_images_task, a, true);
}

/* Once the images are shown: the platforms of those that are indexes. */
static void read_platforms(ecr_screen *s, const tui_ecr_images_result *r)
{
    s->platforms_task = 0;
    if (tui_ecr_images_index_count(&s->images) == 0)
        return;
    tui_ecr_args *a = args_for(s);
    a->repository = byoc_xstrdup(r->repository);
    a->doc = byoc_ecr_images_json(r->uri, &r->images);
    s->platforms_task = start(s, "ecr platforms", tui_ecr_platforms_task, a, true);
}

static tui_ecr_repo_entry *selected_repo(ecr_screen *s)
{
    return tui_list_selected_data(&s->repos);
}

static tui_ecr_image_entry *selected_image(ecr_screen *s)
{
    return s->in_repo ? tui_list_selected_data(&s->images) : NULL;
}

static void open_repo(ecr_screen *s)
{
    tui_ecr_repo_entry *r = selected_repo(s);
    if (!r)
        return;
    bool same = s->repo_name && strcmp(s->repo_name, r->name) == 0;
    if (!same) {
        free(s->repo_name);
        free(s->repo_uri);
        s->repo_name = byoc_xstrdup(r->name);
        s->repo_uri = byoc_xstrdup(r->uri);
        tui_list_reset(&s->images);
        tui_list_set_filter(&s->images, "");
        s->images_error[0] = '\0';
    }
    s->in_repo = true;
    list_images(s);
}

static void show_image(ecr_screen *s)
{
    tui_ecr_image_entry *e = selected_image(s);
    if (!e)
        return;
    char size[32], pushed[32];
    if (e->size >= 0)
        byoc_fmt_bytes(e->size, size, sizeof size);
    else
        snprintf(size, sizeof size, "-");
    tui_ecr_time(e->pushed_at, pushed, sizeof pushed);
    const char *platforms = tui_ecr_image_platforms(e, s->platforms_task != 0);
    char *text = byoc_xasprintf("URI: %s\nDigest: %s\nTags: %s\nSize: %s (compressed)\nPushed: %s\n"
                                "Scan: %s\nFindings: %s\nOn this engine: %s%s%s",
                                e->uri, e->digest, e->tags, size, pushed, e->scan ? e->scan : "not scanned",
                                e->findings ? e->findings : "-",
                                e->local ? "yes (an image here has this digest)" : "no",
                                platforms ? "\nPlatforms (a multi-platform index): " : "", platforms ? platforms : "");
    tui_app_alert(s->base.app, "ECR image", text);
    free(text);
}

/* ---- delete ---- */

static void delete_answer(tui_app *a, bool yes, void *ud)
{
    ecr_screen *s = ud;
    if (yes && s->asked_digest && s->repo_name) {
        tui_ecr_args *args = args_for(s);
        args->repository = byoc_xstrdup(s->repo_name);
        args->digest = byoc_xstrdup(s->asked_digest);
        s->delete_task = start(s, "ecr delete", tui_ecr_delete_task, args, false);
    } else if (s->asked_digest) {
        tui_app_message(a, "Nothing deleted");
    }
    free(s->asked_digest);
    s->asked_digest = NULL;
}

static void delete_selected(ecr_screen *s)
{
    tui_ecr_image_entry *e = selected_image(s);
    if (!e) {
        tui_app_message(s->base.app, s->in_repo ? "No image selected" : "Open a repository (Enter), then select an image");
        return;
    }
    if (s->delete_task) {
        tui_app_message(s->base.app, "A delete is still running");
        return;
    }
    char id[16];
    tui_image_short_id(e->digest, id, sizeof id);
    char *text = byoc_xasprintf("Delete image %s (tags: %s) from the ECR repository %s? Every tag of this digest goes; "
                                "this cannot be undone.%s",
                                id, e->tags, s->repo_name, e->local ? " The local copy on the engine stays." : "");
    free(s->asked_digest);
    s->asked_digest = byoc_xstrdup(e->digest);
    tui_app_confirm(s->base.app, "Delete from ECR?", text, "Delete", delete_answer, s);
    tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);
    free(text);
}

static void delete_done(ecr_screen *s, const tui_ecr_delete_result *r)
{
    char id[16];
    tui_image_short_id(r->digest, id, sizeof id);
    if (r->out.n_failures) {
        const byoc_ecr_delete_failure *f = &r->out.failures[0];
        tui_app_error(s->base.app, "delete %s: %s: %s", id, f->code ? f->code : "failed",
                      f->reason ? f->reason : "ECR did not delete it");
    } else {
        tui_app_message(s->base.app, "Deleted %s from %s", id, r->repository);
    }
    s->repos_stale = true;
    if (s->repo_name && strcmp(s->repo_name, r->repository) == 0)
        list_images(s);
}

/* ---- events ---- */

static void repos_done(ecr_screen *s, const byoc_event *ev)
{
    const tui_ecr_repos_result *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
    if (!r) {
        s->repos_state = LOAD_FAILED;
        snprintf(s->repos_error, sizeof s->repos_error, "%s", ev->err.message);
        tui_list_reset(&s->repos);
        s->repos.empty_text = "(no listing)";
        return;
    }
    s->repos_state = LOAD_OK;
    s->repos_error[0] = '\0';
    free(s->region);
    s->region = r->region ? byoc_xstrdup(r->region) : NULL;
    /* keep the counts already known until they are counted again */
    size_t n_old = s->repos.nrows;
    char **names = byoc_xcalloc(n_old + 1, sizeof *names);
    long *counts = byoc_xcalloc(n_old + 1, sizeof *counts);
    for (size_t i = 0; i < n_old; i++) {
        const tui_ecr_repo_entry *e = s->repos.rows[i].data;
        names[i] = byoc_xstrdup(e->name);
        counts[i] = e->images;
    }
    tui_ecr_repos_fill(&s->repos, r->repos, r->n, NULL);
    tui_ecr_repos_set_counts(&s->repos, (const char *const *)names, counts, n_old);
    for (size_t i = 0; i < n_old; i++)
        free(names[i]);
    free(names);
    free(counts);
    s->repos.empty_text = "No repositories in this region: push an image (3 Push) to create one";
    count_images(s);
}

static void images_done(ecr_screen *s, const byoc_event *ev)
{
    const tui_ecr_images_result *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
    if (r && (!s->repo_name || strcmp(r->repository, s->repo_name) != 0)) {
        list_images(s);              /* another repository was opened meanwhile */
        return;
    }
    if (!r) {
        s->images_state = LOAD_FAILED;
        snprintf(s->images_error, sizeof s->images_error, "%s", ev->err.message);
        tui_list_reset(&s->images);
        s->images.empty_text = "(no listing)";
        return;
    }
    s->images_state = LOAD_OK;
    s->images_error[0] = '\0';
    free(s->engine_note);
    s->engine_note = r->engine_error ? byoc_xstrdup(r->engine_error) : NULL;
    tui_ecr_images_fill(&s->images, r->uri, &r->images, &r->local);
    s->images.empty_text = "No images in this repository";
    read_platforms(s, r);
}

static void platforms_done(ecr_screen *s, const byoc_event *ev)
{
    const tui_ecr_platforms_result *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
    if (r && s->repo_name && strcmp(r->repository, s->repo_name) == 0)
        tui_ecr_images_set_platforms(&s->images, (const char *const *)r->digests, (const char *const *)r->texts,
                                     r->n);
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    ecr_screen *s = (ecr_screen *)base;
    if (ev->kind != BYOC_EV_DONE && ev->kind != BYOC_EV_ERROR)
        return;
    if (ev->task_id == s->repos_task) {
        s->repos_task = 0;
        repos_done(s, ev);
    } else if (ev->task_id == s->counts_task) {
        s->counts_task = 0;
        const tui_ecr_counts_result *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
        if (r)
            tui_ecr_repos_set_counts(&s->repos, (const char *const *)r->names, r->counts, r->n);
        if (s->counts_again)
            count_images(s);
    } else if (ev->task_id == s->images_task) {
        s->images_task = 0;
        images_done(s, ev);
    } else if (ev->task_id == s->platforms_task) {
        s->platforms_task = 0;
        platforms_done(s, ev);
    } else if (ev->task_id == s->delete_task) {
        s->delete_task = 0;
        if (ev->kind == BYOC_EV_DONE)
            delete_done(s, ev->result);
        else
            tui_app_error(base->app, "delete: %s", ev->err.message);
    }
    tui_screen_dirty(base);
}

/* ---- keys ---- */

static void use_in_job(ecr_screen *s)
{
    tui_ecr_image_entry *e = selected_image(s);
    if (!e) {
        tui_app_message(s->base.app, "Open a repository (Enter), then select an image");
        return;
    }
    tui_app *a = s->base.app;
    char *uri = byoc_xstrdup(e->uri), *digest = byoc_xstrdup(e->digest);
    tui_flow_set_pushed(a, uri, digest);
    tui_app_goto_step(a, TUI_STEP_RUN);     /* pops this screen: s is gone */
    free(uri);
    free(digest);
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    ecr_screen *s = (ecr_screen *)base;
    if (tui_list_handle(s->in_repo ? &s->images : &s->repos, ev->key, ev->action))
        return true;
    switch (ev->action) {
    case TUI_ACT_OPEN:
        if (s->in_repo)
            show_image(s);
        else
            open_repo(s);
        return true;
    case TUI_ACT_BACK:
    case TUI_ACT_CANCEL:
        if (!s->in_repo)
            return false;          /* the app pops: back to the local images */
        s->in_repo = false;
        if (s->repos_stale)
            list_repos(s);
        return true;
    case TUI_ACT_REFRESH:
        if (s->in_repo)
            list_images(s);
        else
            list_repos(s);
        return true;
    case TUI_ACT_REMOVE: delete_selected(s); return true;
    case TUI_ACT_USE_IN_JOB: use_in_job(s); return true;
    case TUI_ACT_IMAGE_SOURCE:
    case TUI_ACT_IMAGES:
        tui_app_pop(base->app);    /* s is gone */
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    ecr_screen *s = (ecr_screen *)base;
    if (max < 3)
        return 0;
    return tui_list_contexts(s->in_repo ? &s->images : &s->repos, out);   /* then ECR (ctx) */
}

/* ---- drawing ---- */

static void header(ecr_screen *s, char *buf, size_t size)
{
    char count[64];
    if (!s->in_repo) {
        tui_list_count_text(&s->repos, count, sizeof count);
        const char *where = s->region ? s->region : "this region";
        switch (s->repos_state) {
        case LOAD_FAILED: snprintf(buf, size, "ECR: %s", s->repos_error); break;
        case LOAD_OK: snprintf(buf, size, "ECR repositories in %s  %s", where, count); break;
        default: snprintf(buf, size, "ECR repositories  (listing...)"); break;
        }
        return;
    }
    tui_list_count_text(&s->images, count, sizeof count);
    switch (s->images_state) {
    case LOAD_FAILED: snprintf(buf, size, "ECR %s: %s", s->repo_name, s->images_error); break;
    case LOAD_OK:
        snprintf(buf, size, "ECR %s  %s image%s, %zu local%s", s->repo_name, count,
                 strcmp(count, "1") == 0 ? "" : "s", tui_ecr_images_local_count(&s->images),
                 s->images_task ? "  (listing...)" : "");
        break;
    default: snprintf(buf, size, "ECR %s  (listing...)", s->repo_name); break;
    }
}

static void detail_lines(ecr_screen *s, WINDOW *win, int y, int x, int w, int h)
{
    char *one = NULL, *two = NULL;
    if (!s->in_repo) {
        tui_ecr_repo_entry *r = selected_repo(s);
        if (r) {
            one = byoc_xstrdup(r->uri);
            two = byoc_xasprintf("tags %s, scan on push %s%s", r->mutability, r->scan_on_push ? "on" : "off",
                                 "  (Enter: its images)");
        }
    } else {
        tui_ecr_image_entry *e = selected_image(s);
        if (e) {
            /* an index's platforms first: what the row cannot say, and they fit at 80 columns */
            const char *platforms = tui_ecr_image_platforms(e, s->platforms_task != 0);
            one = byoc_xstrdup(e->uri);
            two = byoc_xasprintf("%s%s%sscan %s%s%s  %s", platforms ? "platforms: " : "", platforms ? platforms : "",
                                 platforms ? "  " : "", e->scan ? e->scan : "-", e->findings ? ": " : "",
                                 e->findings ? e->findings : "", e->digest);
        } else if (s->engine_note) {
            two = byoc_xasprintf("local marks unavailable: %s", s->engine_note);
        }
    }
    if (h > 0) {
        tui_draw_blank(win, y, x, w, TUI_STY_NORMAL);
        if (one)
            tui_draw_fit(win, y, x, w, TUI_STY_NORMAL, one);
    }
    if (h > 1) {
        tui_draw_blank(win, y + 1, x, w, TUI_STY_NORMAL);
        if (two)
            tui_draw_fit(win, y + 1, x, w, TUI_STY_NORMAL, two);
    }
    free(one);
    free(two);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    ecr_screen *s = (ecr_screen *)base;
    if (r.h < 4 || r.w < 10)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    char head[1024];
    header(s, head, sizeof head);
    bool failed = s->in_repo ? s->images_state == LOAD_FAILED : s->repos_state == LOAD_FAILED;
    tui_draw_fit(win, r.y, r.x, r.w, failed ? TUI_STY_ERROR : TUI_STY_LABEL_FOCUS, head);
    int detail_h = r.h >= 10 ? 2 : 0;
    tui_rect lr = {r.y + 1, r.x, r.h - 1 - detail_h - (detail_h ? 1 : 0), r.w};
    tui_list_draw(s->in_repo ? &s->images : &s->repos, win, lr, true);
    base->about = tui_list_selected_rect(s->in_repo ? &s->images : &s->repos, lr);   /* what d deletes */
    if (!detail_h)
        return;
    int dy = lr.y + lr.h;
    tui_draw_hline(win, dy, r.x, r.w, TUI_STY_BORDER);
    detail_lines(s, win, dy + 1, r.x, r.w, detail_h);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    ecr_screen *s = (ecr_screen *)base;
    if (s->in_repo && s->repo_name)
        snprintf(buf, size, "Images: ECR %s", s->repo_name);
    else
        snprintf(buf, size, "Images: Amazon ECR");
}

static void enter(tui_screen *base)
{
    ecr_screen *s = (ecr_screen *)base;
    if (!s->started) {
        s->started = true;
        list_repos(s);
    }
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    ecr_screen *s = (ecr_screen *)base;
    tui_list_clear(&s->repos);
    tui_list_clear(&s->images);
    free(s->region);
    free(s->repo_name);
    free(s->repo_uri);
    free(s->engine_note);
    free(s->asked_digest);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "ecr",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .title = title,
};

tui_screen *tui_screen_ecr_new(tui_app *app)
{
    ecr_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_ECR, -1);
    s->base.wide = true;
    tui_list_init(&s->repos, tui_ecr_repo_columns, 6);
    s->repos.data_free = tui_ecr_repo_entry_free;
    s->repos.empty_text = "Listing the repositories...";
    tui_list_init(&s->images, tui_ecr_image_columns, 6);
    s->images.data_free = tui_ecr_image_entry_free;
    s->images.empty_text = "Open a repository to see its images";
    return &s->base;
}
