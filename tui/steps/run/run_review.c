#include "run_review.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/jobspec.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "page.h"
#include "progress.h"

typedef struct review_screen {
    tui_screen base;
    tui_page page;
    char *title;
    tui_pf_view *checks;       /* the owner's, or NULL */
    tui_run_review_hooks hooks;
    bool checks_focus;         /* Tab: the scroll keys go to the checks */
    long shown_secs;           /* of the running checks, for the tick */
} review_screen;

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* One PRE line per line of the pretty-printed JSON. */
static void pre_json(tui_page *p, const json_t *j)
{
    char *text = byoc_json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        tui_page_pre(p, TUI_STY_NORMAL, line);
    free(text);
}

/* Where the values the user did not type came from, as the dry run's "origins" says. */
static void origins(tui_page *p, const json_t *plan)
{
    const json_t *o = json_object_get(plan, "origins");
    for (byoc_job_origin k = BYOC_JO_PROJECT; k <= BYOC_JO_PUSH; k++) {
        const char *name = byoc_job_origin_name(k);
        byoc_buf b = BYOC_BUF_INIT;
        const char *key;
        const json_t *v;
        json_object_foreach((json_t *)o, key, v) {
            if (json_is_string(v) && strcmp(json_string_value(v), name) == 0)
                byoc_buf_printf(&b, "%s%s", b.len ? ", " : "", key);
        }
        char label[32];
        snprintf(label, sizeof label, "From %s", name);
        if (b.len)
            tui_page_kv(p, label, byoc_buf_str(&b));
        byoc_buf_clear(&b);
    }
}

static void fill(tui_page *p, const json_t *plan)
{
    const json_t *local = json_object_get(plan, "local");
    if (local) {
        tui_page_heading(p, "Run on this machine");
        tui_page_text(p, TUI_STY_NORMAL,
                      "The job container runs on the local Docker engine under the Braket container contract, "
                      "with this job:");
        origins(p, plan);
        pre_json(p, local);
        tui_page_blank(p);
        tui_page_text(p, TUI_STY_DIM,
                      "y or Enter runs it (asks first when a preflight check failed); p runs the checks again, P "
                      "with a smoke run; Tab scrolls the checks; q or Esc goes back to the form.");
        return;
    }
    const json_t *cj = json_object_get(plan, "create_job");
    tui_page_heading(p, "CreateJob request");
    tui_page_kv(p, "Job name", str(plan, "job_name"));
    tui_page_kv(p, "Region", str(plan, "region"));
    tui_page_kv(p, "Account", str(plan, "account"));
    char role[512];
    /* a role the form took from byoc.json reaches the request as the spec's ("--role-arn") */
    const char *role_from = str(json_object_get(plan, "origins"), "role_arn");
    snprintf(role, sizeof role, "%s (from %s)", str(plan, "role_arn"), *role_from ? role_from : str(plan, "role_origin"));
    tui_page_kv(p, "Role", role);
    origins(p, plan);
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
                  "y or Enter sends it (the clientToken is fresh on sending; asks first when a preflight check "
                  "failed); p runs the checks again, P with a local smoke run; Tab scrolls the checks; q or Esc goes "
                  "back to the form.");
}

/* The checks get about two fifths of the height (at 80x24: a summary line and 7 rows). */
static int checks_height(int h)
{
    int c = h >= 30 ? h / 2 : h * 2 / 5;
    return c < 4 ? (h >= 8 ? 4 : 0) : c;
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    review_screen *s = (review_screen *)base;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int ch = s->checks ? checks_height(r.h) : 0;
    tui_rect in = {r.y, r.x + 1, r.h - ch, r.w - 1};
    tui_page_layout(&s->page, in.w);
    tui_page_set_height(&s->page, in.h);
    tui_page_draw(&s->page, win, in);
    if (ch > 0)
        tui_pf_view_draw(s->checks, win, (tui_rect){r.y + r.h - ch, r.x, ch, r.w}, s->checks_focus, tui_now_ms());
    base->wants_tick = s->checks && s->checks->state == TUI_PF_RUNNING;
}

static bool tick(tui_screen *base, uint64_t now)
{
    review_screen *s = (review_screen *)base;
    if (!s->checks || s->checks->state != TUI_PF_RUNNING) {
        base->wants_tick = false;
        return true;
    }
    return tui_tick_seconds(now, s->checks->started_ms, &s->shown_secs);
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    review_screen *s = (review_screen *)base;
    switch (ev->action) {
    case TUI_ACT_SEND:
        s->checks_focus = s->checks != NULL;    /* if it asks, it asks about the checks: they scroll meanwhile */
        tui_screen_dirty(base);
        s->hooks.send(base->app, s->hooks.ud);  /* may pop (free) s */
        return true;
    case TUI_ACT_PREFLIGHT:
    case TUI_ACT_PREFLIGHT_SMOKE:
        if (s->hooks.preflight)
            s->hooks.preflight(base->app, ev->action == TUI_ACT_PREFLIGHT_SMOKE, s->hooks.ud);
        return true;
    case TUI_ACT_NEXT_TAB:
        s->checks_focus = s->checks && !s->checks_focus;
        tui_screen_dirty(base);
        return true;
    default: break;
    }
    if (s->checks_focus)
        return tui_pf_view_handle(s->checks, ev->action);
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
    if (s->hooks.closed)
        s->hooks.closed(s->hooks.ud);
    tui_page_clear(&s->page);
    free(s->title);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "review",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .contexts = contexts,
    .tick = tick,
    .title = title,
};

tui_screen *tui_run_review_new(tui_app *app, const char *title_text, const json_t *plan, tui_pf_view *checks,
                               const tui_run_review_hooks *hooks)
{
    review_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_REVIEW, -1);
    s->base.wide = true;          /* image URIs and ARNs are long */
    tui_page_init(&s->page);
    s->title = byoc_xstrdup(title_text);
    s->checks = checks;
    s->hooks = *hooks;
    s->shown_secs = -1;
    fill(&s->page, plan);
    return &s->base;
}
