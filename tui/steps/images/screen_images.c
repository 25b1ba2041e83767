#include "screen_images.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background.h"
#include "core/buf.h"
#include "core/str.h"
#include "docker/engine.h"
#include "docker/images.h"
#include "docker/reference.h"
#include "ecr_tasks.h"
#include "flow.h"
#include "images_model.h"
#include "list.h"
#include "progress.h"
#include "screen_ecr.h"
#include "steps.h"
#include "text.h"

/* The layers of the selection are fetched once it rests this long. */
#define DETAIL_DELAY_MS 250

/* ---- the engine work, on tasks ---- */

typedef enum { JOB_LIST, JOB_HISTORY, JOB_TAG, JOB_REMOVE } job_kind;

typedef struct image_job {
    byoc_engines *engines;   /* the app's (outlives the task) */
    job_kind kind;
    char *name;          /* HISTORY, TAG, REMOVE: the image (reference or id) */
    char *target;        /* TAG: the new reference */
    bool force;          /* REMOVE */
} image_job;

typedef struct image_result {
    job_kind kind;
    char *name, *target;
    byoc_image_list list;
    byoc_image_history history;
    byoc_image_removal removal;
} image_result;

static void job_free(void *p)
{
    image_job *j = p;
    free(j->name);
    free(j->target);
    free(j);
}

static void result_free(void *p)
{
    image_result *r = p;
    free(r->name);
    free(r->target);
    byoc_image_list_clear(&r->list);
    byoc_image_history_clear(&r->history);
    byoc_image_removal_clear(&r->removal);
    free(r);
}

static int image_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    const image_job *j = arg;
    byoc_engine *e;
    if (byoc_engines_get(j->engines, &e, err) < 0)
        return -1;
    image_result *r = byoc_xcalloc(1, sizeof *r);
    r->kind = j->kind;
    r->name = j->name ? byoc_xstrdup(j->name) : NULL;
    r->target = j->target ? byoc_xstrdup(j->target) : NULL;
    int rc = -1;
    switch (j->kind) {
    case JOB_LIST: rc = byoc_images_list(e, t, false, NULL, &r->list, err); break;
    case JOB_HISTORY: rc = byoc_image_history_get(e, t, j->name, &r->history, err); break;
    case JOB_TAG: rc = byoc_image_tag(e, t, j->name, j->target, err); break;
    case JOB_REMOVE: rc = byoc_image_remove(e, t, j->name, j->force, false, &r->removal, err); break;
    }
    byoc_engine_free(e);
    if (rc < 0) {
        result_free(r);
        return -1;
    }
    *result = r;
    *rfree = result_free;
    return 0;
}

/* ---- the screen ---- */

typedef enum { LIST_IDLE, LIST_LOADING, LIST_OK, LIST_FAILED } list_state;

typedef struct images_screen {
    tui_screen base;
    tui_list images;
    tui_list layers;
    bool layers_focus;
    bool started;
    list_state state;
    char error[768];
    uint64_t list_task, history_task, action_task;   /* ids of the tasks running, 0 for none */
    char *history_for;       /* the image id the running history task is about */
    char *detail_id;         /* the image id whose layers are shown */
    char detail_error[768];
    uint64_t fetch_at;       /* when to fetch the selection's layers; 0: nothing pending */
    char *select_after;      /* the ref to select once the next listing arrives */
    char *asked;             /* what the open dialog is about: the ref to delete, the id to tag */
    char *action_name;       /* what the running tag/delete is about (its ERROR carries no result) */
    job_kind action_kind;
    uint64_t pushed_task;    /* which RepoDigests ECR lists (ecr_tasks.h), 0 for none */
    bool pushed_again;       /* the listing changed while it ran: ask again when it ends */
    tui_ecr_refs pushed;     /* what ECR last confirmed */
} images_screen;

static uint64_t start_job(images_screen *s, job_kind kind, const char *name, const char *target, bool force)
{
    static const char *const names[] = {"images", "layers", "tag", "delete"};
    image_job *j = byoc_xcalloc(1, sizeof *j);
    j->engines = tui_app_engines(s->base.app);
    j->kind = kind;
    j->name = name ? byoc_xstrdup(name) : NULL;
    j->target = target ? byoc_xstrdup(target) : NULL;
    j->force = force;
    byoc_task *t;
    if (kind == JOB_LIST || kind == JOB_HISTORY)
        t = tui_app_start_background_task(s->base.app, &s->base, names[kind], image_task, j, job_free);
    else
        t = tui_app_start_task(s->base.app, &s->base, names[kind], image_task, j, job_free);
    if (!t) {
        tui_app_error(s->base.app, "%s: could not start a task", names[kind]);
        return 0;
    }
    return byoc_task_id(t);
}

static void list_again(images_screen *s)
{
    if (s->list_task)
        return;
    s->list_task = start_job(s, JOB_LIST, NULL, NULL, false);
    s->state = LIST_LOADING;
    s->images.empty_text = "Listing the images...";
}

static tui_image_entry *selected(images_screen *s)
{
    return tui_list_selected_data(&s->images);
}

/* The selection moved (or the list changed): show its layers soon. */
static void selection_changed(images_screen *s)
{
    tui_image_entry *e = selected(s);
    if (!e) {
        tui_list_reset(&s->layers);
        free(s->detail_id);
        s->detail_id = NULL;
        s->fetch_at = 0;
        return;
    }
    if (s->detail_id && strcmp(s->detail_id, e->id) == 0)
        return;
    s->fetch_at = tui_now_ms() + DETAIL_DELAY_MS;
    s->base.wants_tick = true;
}

static void fetch_layers(images_screen *s)
{
    tui_image_entry *e = selected(s);
    s->fetch_at = 0;
    if (!e || s->history_task)
        return;
    if (s->detail_id && strcmp(s->detail_id, e->id) == 0)
        return;
    free(s->history_for);
    s->history_for = byoc_xstrdup(e->id);
    s->history_task = start_job(s, JOB_HISTORY, e->id, NULL, false);
    s->layers.empty_text = "Reading the layers...";
}

static bool tick(tui_screen *base, uint64_t now)
{
    images_screen *s = (images_screen *)base;
    if (!s->fetch_at) {
        base->wants_tick = false;
        return false;
    }
    if (now < s->fetch_at || s->history_task)
        return false;
    fetch_layers(s);
    base->wants_tick = s->fetch_at != 0;
    return true;
}

/* Ask ECR which of the local RepoDigests it lists (quietly: without AWS
 * credentials nothing is marked). */
static void check_pushed(images_screen *s)
{
    if (s->pushed_task) {
        s->pushed_again = true;
        return;
    }
    s->pushed_again = false;
    const byoc_globals *g = tui_app_globals(s->base.app);
    tui_ecr_args *a = tui_ecr_args_new(tui_app_aws(s->base.app), g ? g->profile : NULL, g ? g->region : NULL);
    for (size_t i = 0; i < s->images.nrows; i++) {
        const tui_image_entry *e = s->images.rows[i].data;
        for (size_t k = 0; e && k < e->n_repo_digests; k++)
            tui_ecr_refs_add(&a->refs, e->repo_digests[k]);
    }
    if (a->refs.n == 0) {
        tui_ecr_args_free(a);
        return;
    }
    byoc_task *t = tui_app_start_background_task(s->base.app, &s->base, "ecr pushed", tui_ecr_pushed_task, a,
                                                 tui_ecr_args_free);
    s->pushed_task = t ? byoc_task_id(t) : 0;
}

static void pushed_done(images_screen *s, const byoc_event *ev)
{
    s->pushed_task = 0;
    if (ev->kind == BYOC_EV_DONE && ev->result) {
        const tui_ecr_refs *confirmed = ev->result;
        tui_ecr_refs_clear(&s->pushed);
        for (size_t i = 0; i < confirmed->n; i++)
            tui_ecr_refs_add(&s->pushed, confirmed->items[i]);
        tui_images_mark_pushed(&s->images, &s->pushed);
    }
    if (s->pushed_again)
        check_pushed(s);
}

static void list_done(images_screen *s, const image_result *r)
{
    s->state = LIST_OK;
    s->error[0] = '\0';
    s->images.empty_text = "No images on this engine: build one (2 Build)";
    tui_images_fill(&s->images, &r->list);
    tui_images_mark_pushed(&s->images, &s->pushed);
    check_pushed(s);
    if (s->select_after) {
        tui_images_select_ref(&s->images, s->select_after);
        free(s->select_after);
        s->select_after = NULL;
    }
    free(s->detail_id);              /* layers may have changed with a new tag or build */
    s->detail_id = NULL;
    selection_changed(s);
}

static void history_done(images_screen *s, const image_result *r)
{
    free(s->detail_id);
    s->detail_id = byoc_xstrdup(r->name);
    s->detail_error[0] = '\0';
    tui_layers_fill(&s->layers, &r->history);
    s->layers.empty_text = "(no layers)";
    selection_changed(s);            /* the selection may have moved on meanwhile */
}

static void remove_done(images_screen *s, const image_result *r)
{
    if (r->removal.n_deleted)
        tui_app_message(s->base.app, "Deleted %s (%zu layer%s removed)", r->name, r->removal.n_deleted,
                        r->removal.n_deleted == 1 ? "" : "s");
    else
        tui_app_message(s->base.app, "Untagged %s (the image stays: other tags use it)", r->name);
    list_again(s);
}

static void start_action(images_screen *s, job_kind kind, const char *name, const char *target, bool force)
{
    free(s->action_name);
    s->action_name = byoc_xstrdup(name);
    s->action_kind = kind;
    s->action_task = start_job(s, kind, name, target, force);
}

static void forget_asked(images_screen *s)
{
    free(s->asked);
    s->asked = NULL;
}

static void force_answer(tui_app *a, bool yes, void *ud)
{
    images_screen *s = ud;
    (void)a;
    if (yes && s->asked)
        start_action(s, JOB_REMOVE, s->asked, NULL, true);
    forget_asked(s);
}

static void action_failed(images_screen *s, const byoc_event *ev)
{
    if (s->action_kind == JOB_REMOVE && ev->err.http_status == 409 && s->action_name) {
        forget_asked(s);
        s->asked = byoc_xstrdup(s->action_name);
        char *text = byoc_xasprintf("The engine refused: %s. Force the delete of %s? Containers made from "
                                    "the image keep running.", ev->err.message, s->asked);
        tui_app_confirm(s->base.app, "Force delete?", text, "Force delete", force_answer, s);
        tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);
        free(text);
        return;
    }
    tui_app_error(s->base.app, "%s: %s", s->action_kind == JOB_TAG ? "tag" : "delete", ev->err.message);
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    images_screen *s = (images_screen *)base;
    if (ev->kind != BYOC_EV_DONE && ev->kind != BYOC_EV_ERROR)
        return;
    if (ev->task_id == s->pushed_task) {
        pushed_done(s, ev);
        tui_screen_dirty(base);
        return;
    }
    const image_result *r = ev->kind == BYOC_EV_DONE ? ev->result : NULL;
    if (ev->task_id == s->list_task) {
        s->list_task = 0;
        if (r) {
            list_done(s, r);
        } else {
            s->state = LIST_FAILED;
            snprintf(s->error, sizeof s->error, "%s", ev->err.message);
            tui_list_reset(&s->images);
            s->images.empty_text = "(no listing)";
        }
    } else if (ev->task_id == s->history_task) {
        s->history_task = 0;
        if (r) {
            history_done(s, r);
        } else {
            free(s->detail_id);
            s->detail_id = s->history_for ? byoc_xstrdup(s->history_for) : NULL;
            tui_list_reset(&s->layers);
            snprintf(s->detail_error, sizeof s->detail_error, "%s", ev->err.message);
            s->layers.empty_text = "(layers unavailable)";
        }
    } else if (ev->task_id == s->action_task) {
        s->action_task = 0;
        if (r && r->kind == JOB_TAG) {
            char id[16];
            tui_image_short_id(r->name, id, sizeof id);
            tui_app_message(base->app, "Tagged %s as %s", id, r->target);
            free(s->select_after);
            s->select_after = byoc_xstrdup(r->target);
            if (!strchr(strrchr(r->target, '/') ? strrchr(r->target, '/') : r->target, ':')) {
                free(s->select_after);
                s->select_after = byoc_xasprintf("%s:latest", r->target);
            }
            list_again(s);
        } else if (r && r->kind == JOB_REMOVE) {
            remove_done(s, r);
        } else {
            action_failed(s, ev);
        }
    }
    tui_screen_dirty(base);
}

/* ---- tag and delete ---- */

static bool check_tag(const char *value, char *msg, size_t size, void *ud)
{
    (void)ud;
    byoc_err err;
    if (byoc_imageref_check_tag(value, "tag", &err) == 0)
        return true;
    snprintf(msg, size, "%s", err.message);
    return false;
}

static void tag_answer(tui_app *a, bool ok, const char *value, void *ud)
{
    images_screen *s = ud;
    (void)a;
    if (ok && s->asked && *value)
        start_action(s, JOB_TAG, s->asked, value, false);
    forget_asked(s);
}

static void tag_selected(images_screen *s)
{
    tui_image_entry *e = selected(s);
    if (!e) {
        tui_app_message(s->base.app, "No image selected");
        return;
    }
    char id[16];
    tui_image_short_id(e->id, id, sizeof id);
    char *text = byoc_xasprintf("New reference for %s (image %s), as repository[:tag]:", e->ref, id);
    const char *initial = strcmp(e->repository, "<none>") != 0 ? e->repository : "";
    char *init = *initial ? byoc_xasprintf("%s:", initial) : byoc_xstrdup("");
    forget_asked(s);
    s->asked = byoc_xstrdup(e->id);
    tui_app_input(s->base.app, "Tag image", text, init, check_tag, NULL, tag_answer, s);
    tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);
    free(init);
    free(text);
}

static void delete_answer(tui_app *a, bool yes, void *ud)
{
    images_screen *s = ud;
    (void)a;
    if (yes && s->asked)
        start_action(s, JOB_REMOVE, s->asked, NULL, false);
    forget_asked(s);
}

static void delete_selected(images_screen *s)
{
    tui_image_entry *e = selected(s);
    if (!e) {
        tui_app_message(s->base.app, "No image selected");
        return;
    }
    char id[16], size[32];
    tui_image_short_id(e->id, id, sizeof id);
    byoc_fmt_bytes(e->size, size, sizeof size);
    char *text;
    if (strcmp(e->ref, e->id) != 0 && e->image_refs > 1)
        text = byoc_xasprintf("Remove the tag %s? Image %s stays: %zu other tag%s use it.", e->ref, id,
                              e->image_refs - 1, e->image_refs == 2 ? "" : "s");
    else
        text = byoc_xasprintf("Delete %s? This is the image's last tag: image %s (%s) and the layers no other "
                              "image uses are deleted from the engine.", e->ref, id, size);
    forget_asked(s);
    s->asked = byoc_xstrdup(e->ref);
    tui_app_confirm(s->base.app, "Delete image?", text, "Delete", delete_answer, s);
    tui_app_dialog_about(s->base.app, &s->base, TUI_ABOUT_MARK);
    free(text);
}

static void push_selected(images_screen *s)
{
    tui_image_entry *e = selected(s);
    if (!e) {
        tui_app_message(s->base.app, "No image selected");
        return;
    }
    tui_app *a = s->base.app;
    char *ref = byoc_xstrdup(e->ref), *id = byoc_xstrdup(e->id);
    tui_flow_set_image(a, ref, id);
    tui_app_goto_step(a, TUI_STEP_PUSH);     /* pops this screen: s is gone */
    tui_app_message(a, "Push: %s selected", ref);
    free(ref);
    free(id);
}

/* ---- keys ---- */

static bool key(tui_screen *base, const tui_keyev *ev)
{
    images_screen *s = (images_screen *)base;
    tui_list *focus = s->layers_focus ? &s->layers : &s->images;
    if (tui_list_handle(focus, ev->key, ev->action)) {
        if (!s->layers_focus)
            selection_changed(s);
        return true;
    }
    switch (ev->action) {
    case TUI_ACT_OPEN:
        if (s->layers_focus) {
            const char *cmd = tui_list_selected_data(&s->layers);
            if (cmd)
                tui_app_alert(base->app, "Layer: created by", cmd);
        } else if (selected(s)) {
            s->layers_focus = true;
            fetch_layers(s);
        }
        return true;
    case TUI_ACT_BACK:
    case TUI_ACT_CANCEL:
        if (s->layers_focus) {
            s->layers_focus = false;
            return true;
        }
        return false;
    case TUI_ACT_REFRESH: list_again(s); return true;
    case TUI_ACT_TAG: tag_selected(s); return true;
    case TUI_ACT_REMOVE: delete_selected(s); return true;
    case TUI_ACT_PUSH_THIS: push_selected(s); return true;
    case TUI_ACT_IMAGES: return true;          /* already here */
    case TUI_ACT_IMAGE_SOURCE:
        s->layers_focus = false;
        tui_app_push(base->app, tui_screen_ecr_new(base->app));
        return true;
    default: return false;
    }
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    images_screen *s = (images_screen *)base;
    if (max < 3)
        return 0;
    return tui_list_contexts(s->layers_focus ? &s->layers : &s->images, out);   /* then IMAGES (ctx) */
}

/* ---- drawing ---- */

static void draw_detail_line(images_screen *s, WINDOW *win, int y, int x, int w)
{
    tui_image_entry *e = selected(s);
    tui_draw_blank(win, y, x, w, TUI_STY_NORMAL);
    if (!e)
        return;
    char size[32], created[32];
    byoc_fmt_bytes(e->size, size, sizeof size);
    tui_image_time(e->created, created, sizeof created);
    char id[16];
    tui_image_short_id(e->id, id, sizeof id);
    char *line = byoc_xasprintf("ID %s  %s  created %s  %zu tag%s%s%s", id, size, created, e->image_refs,
                                e->image_refs == 1 ? "" : "s", e->digest ? "  digest " : "",
                                e->digest ? e->digest : "");
    tui_draw_fit(win, y, x, w, TUI_STY_NORMAL, line);
    free(line);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    images_screen *s = (images_screen *)base;
    if (r.h < 6 || r.w < 10)
        return;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    /* the header: where the images come from and what is happening */
    char count[64];
    tui_list_count_text(&s->images, count, sizeof count);
    char head[1024];
    switch (s->state) {
    case LIST_LOADING: snprintf(head, sizeof head, "Local images on the Docker engine  (listing...)"); break;
    case LIST_FAILED: snprintf(head, sizeof head, "Local images: %s", s->error); break;
    default: snprintf(head, sizeof head, "Local images on the Docker engine  %s", count); break;
    }
    tui_draw_fit(win, r.y, r.x, r.w, s->state == LIST_FAILED ? TUI_STY_ERROR : TUI_STY_LABEL_FOCUS, head);

    int rest = r.h - 1;
    int list_h = rest / 2 + 1;
    if (list_h < 4)
        list_h = rest;
    tui_rect lr = {r.y + 1, r.x, list_h, r.w};
    tui_list_draw(&s->images, win, lr, !s->layers_focus);
    base->about = tui_list_selected_rect(&s->images, lr);  /* the image d and t ask about */

    int dy = lr.y + lr.h;
    int dh = r.y + r.h - dy;
    if (dh < 3)
        return;
    /* a rule with the title of the detail pane */
    tui_image_entry *e = selected(s);
    tui_draw_hline(win, dy, r.x, r.w, s->layers_focus ? TUI_STY_BORDER_FOCUS : TUI_STY_BORDER);
    char *title = byoc_xasprintf(" Layers of %s ", e ? e->ref : "(nothing selected)");
    tui_draw_fit(win, dy, r.x + 2, r.w - 4, TUI_STY_HEADING, title);
    free(title);
    draw_detail_line(s, win, dy + 1, r.x, r.w);
    tui_rect yr = {dy + 2, r.x, dh - 2, r.w};
    if (s->detail_error[0] && e && s->detail_id && strcmp(s->detail_id, e->id) == 0) {
        tui_draw_fill(win, yr, TUI_STY_NORMAL);
        tui_draw_fit(win, yr.y, yr.x, yr.w, TUI_STY_ERROR, s->detail_error);
        return;
    }
    if (e && (!s->detail_id || strcmp(s->detail_id, e->id) != 0)) {
        tui_list_reset(&s->layers);     /* what is shown belongs to another image */
        s->layers.empty_text = "Reading the layers...";
    }
    tui_list_draw(&s->layers, win, yr, s->layers_focus);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    (void)base;
    snprintf(buf, size, "Images: local engine");
}

static void enter(tui_screen *base)
{
    images_screen *s = (images_screen *)base;
    if (!s->started) {
        s->started = true;
        list_again(s);
    } else if (s->state == LIST_OK) {
        check_pushed(s);             /* back from ECR: something may have been deleted there */
    }
    tui_screen_dirty(base);
}

static void destroy(tui_screen *base)
{
    images_screen *s = (images_screen *)base;
    tui_list_clear(&s->images);
    tui_list_clear(&s->layers);
    free(s->history_for);
    free(s->detail_id);
    free(s->select_after);
    free(s->asked);
    free(s->action_name);
    tui_ecr_refs_clear(&s->pushed);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "images",
    .destroy = destroy,
    .enter = enter,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_screen_images_new(tui_app *app)
{
    images_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_IMAGES, -1);
    s->base.wide = true;
    tui_list_init(&s->images, tui_images_columns, 6);
    s->images.data_free = tui_image_entry_free;
    s->images.empty_text = "Listing the images...";
    tui_list_init(&s->layers, tui_layers_columns, 3);
    s->layers.data_free = free;
    s->layers.empty_text = "Select an image to see its layers";
    return &s->base;
}
