#include "run_review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "page.h"

typedef struct review_screen {
    tui_screen base;
    tui_page page;
    char *title;
    tui_run_send_fn send;
    void *ud;
} review_screen;

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* One PRE line per line of the pretty-printed JSON. */
static void pre_json(tui_page *p, const json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        tui_page_pre(p, TUI_STY_NORMAL, line);
    free(text);
}

static void fill(tui_page *p, const json_t *plan)
{
    const json_t *local = json_object_get(plan, "local");
    if (local) {
        tui_page_heading(p, "Run on this machine");
        tui_page_text(p, TUI_STY_NORMAL,
                      "The job container runs on the local Docker engine under the Braket container contract, "
                      "with this job:");
        pre_json(p, local);
        tui_page_blank(p);
        tui_page_text(p, TUI_STY_DIM, "y or Enter runs it; q or Esc goes back to the form.");
        return;
    }
    const json_t *cj = json_object_get(plan, "create_job");
    tui_page_heading(p, "CreateJob request");
    tui_page_kv(p, "Job name", str(plan, "job_name"));
    tui_page_kv(p, "Region", str(plan, "region"));
    tui_page_kv(p, "Account", str(plan, "account"));
    char role[512];
    snprintf(role, sizeof role, "%s (from %s)", str(plan, "role_arn"), str(plan, "role_origin"));
    tui_page_kv(p, "Role", role);
    const json_t *bucket = json_object_get(plan, "bucket");
    if (bucket) {
        char b[256];
        snprintf(b, sizeof b, "%s (%s)", str(bucket, "name"),
                 json_is_true(json_object_get(bucket, "exists")) ? "exists" : "will be created");
        tui_page_kv(p, "Bucket", b);
    }
    const json_t *transfers = json_object_get(plan, "transfers");
    size_t i;
    const json_t *tr;
    json_array_foreach(transfers, i, tr) {
        char line[1024];
        snprintf(line, sizeof line, "%s %s -> %s", str(tr, "kind"), str(tr, "from"), str(tr, "to"));
        tui_page_kv(p, i == 0 ? "Uploads" : "", line);
    }
    const json_t *w;
    json_array_foreach(json_object_get(plan, "warnings"), i, w) tui_page_text(p, TUI_STY_WARN, json_string_value(w));
    tui_page_blank(p);
    char req[1024];
    snprintf(req, sizeof req, "%s %s", str(cj, "method"), str(cj, "url"));
    tui_page_pre(p, TUI_STY_HEADING, req);
    pre_json(p, json_object_get(cj, "body"));
    tui_page_blank(p);
    tui_page_text(p, TUI_STY_DIM,
                  "y or Enter sends it (the clientToken is fresh on sending); q or Esc goes back to the form.");
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    review_screen *s = (review_screen *)base;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    tui_rect in = {r.y, r.x + 1, r.h, r.w - 1};
    tui_page_layout(&s->page, in.w);
    tui_page_set_height(&s->page, in.h);
    tui_page_draw(&s->page, win, in);
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    review_screen *s = (review_screen *)base;
    if (ev->action == TUI_ACT_SEND) {
        tui_run_send_fn send = s->send;
        void *ud = s->ud;
        tui_app *a = base->app;
        tui_app_pop(a);             /* frees s */
        send(a, ud);
        return true;
    }
    return tui_page_handle(&s->page, ev->action);
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    (void)base;
    if (max < 2)
        return 0;
    out[0] = TUI_CTX_REVIEW;
    out[1] = TUI_CTX_PAGE;
    return 2;
}

static void title(tui_screen *base, char *buf, size_t size)
{
    snprintf(buf, size, "%s", ((review_screen *)base)->title);
}

static void destroy(tui_screen *base)
{
    review_screen *s = (review_screen *)base;
    tui_page_free(&s->page);
    free(s->title);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "review",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .contexts = contexts,
    .title = title,
};

tui_screen *tui_run_review_new(tui_app *app, const char *title_text, const json_t *plan, tui_run_send_fn send,
                               void *ud)
{
    review_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_REVIEW, -1);
    tui_page_init(&s->page);
    s->title = byoc_xstrdup(title_text);
    s->send = send;
    s->ud = ud;
    fill(&s->page, plan);
    return &s->base;
}
