/* screen_welcome: the first screen in a directory without byoc.json (app.c
 * opens it; `--project DIR` skips it, DIR being chosen). It says what byoc
 * does and lists the six steps, then offers three choices (welcome.h):
 *   h  start a project here: Decide, pre-answered by a scan of this
 *      directory (its path is on the page and in Decide);
 *   o  open another directory: a prompt that accepts an existing directory;
 *      byoc moves there (tui_app_open_project) and opens Decide on it;
 *   s  make a sample project: a prompt for a new (or empty) directory, then
 *      byoc init's own code writes the sample on a task, and byoc moves there.
 * It is a top-level screen: q quits and Esc only says so, as on a step; a
 * step's number leaves it for that step. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "flow.h"
#include "screens.h"
#include "steps.h"
#include "text.h"
#include "welcome.h"

#define INTRO                                                                                                      \
    "byoc takes your code to Amazon Braket Hybrid Jobs in a Docker container of your own (\"bring your own "   \
    "container\"), in six steps:"
#define SAMPLE_NOTE "a small Python job that builds without AWS credentials"

typedef struct welcome_screen {
    tui_screen base;
    tui_welcome model;
    uint64_t sample_task;        /* the sample being written, or 0 */
    char *sample_dir;            /* where (as typed, ~ expanded), while it is written */
} welcome_screen;

/* ---- the sample: byoc init's code on a task ---- */

typedef struct sample_arg {
    char *dir, *region;
} sample_arg;

static void sample_arg_free(void *p)
{
    sample_arg *a = p;
    free(a->dir);
    free(a->region);
    free(a);
}

BYOC_TASK_FREE(init_result_free, byoc_init_result, byoc_init_result_clear)

static int sample_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    (void)t;
    sample_arg *a = arg;
    byoc_init_options o = tui_welcome_sample_options(a->dir, a->region);
    byoc_init_result *res = byoc_xcalloc(1, sizeof *res);
    if (byoc_init_project(&o, res, err) != 0) {
        init_result_free(res);
        return -1;
    }
    *result = res;
    *rfree = init_result_free;
    return 0;
}

static bool check_sample(const char *value, char *msg, size_t size, void *ud)
{
    (void)ud;
    return tui_welcome_check_sample(value, msg, size);
}

static bool check_open(const char *value, char *msg, size_t size, void *ud)
{
    (void)ud;
    return tui_welcome_check_open(value, msg, size);
}

static void sample_answer(tui_app *a, bool ok, const char *value, void *ud)
{
    welcome_screen *s = ud;
    if (!ok)
        return;
    const tui_statusbar *sb = tui_app_status(a);
    const char *region = tui_status_get(sb, TUI_SB_REGION);
    sample_arg *arg = byoc_xcalloc(1, sizeof *arg);
    arg->dir = tui_welcome_path(value);
    arg->region = *region && !tui_status_fix(sb, TUI_SB_REGION) ? byoc_xstrdup(region) : NULL;
    free(s->sample_dir);
    s->sample_dir = byoc_xstrdup(arg->dir);
    byoc_task *t = tui_app_start_task(a, &s->base, "sample", sample_task, arg, sample_arg_free);
    if (!t) {
        free(s->sample_dir);
        s->sample_dir = NULL;
        return;
    }
    s->sample_task = byoc_task_id(t);
    tui_app_message(a, "Writing a sample project into %s...", s->sample_dir);
    tui_screen_dirty(&s->base);
}

static void open_answer(tui_app *a, bool ok, const char *value, void *ud)
{
    (void)ud;
    if (!ok)
        return;
    char *dir = tui_welcome_path(value);
    tui_app_open_project(a, dir);
    free(dir);
}

/* What was written and what to do with it; said once, over Decide, since
 * Decide's verdict on the sample's code (a prebuilt image would do) is not
 * what the sample is for. */
static void sample_written(tui_app *a, const char *dir, const byoc_init_result *res)
{
    char *abs = realpath(dir, NULL);     /* "./byoc-sample" would mean nothing once byoc moved there */
    if (abs)
        dir = abs;
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "Wrote %zu files into %s:", res->files.n, dir);
    for (size_t i = 0; i < res->files.n && i < 12; i++)
        byoc_buf_printf(&b, "%s %s", i ? "," : "", res->files.v[i]);
    byoc_buf_puts(&b, ". ");
    if (res->git_created)
        byoc_buf_printf(&b, "git: a new repository, first commit %.12s. ", res->commit);
    char kb[16], kr[16], kp[16], kq[16], km[16];
    byoc_buf_printf(&b,
                    "Its code needs nothing a prebuilt image lacks, so Decide finds BYOC not needed; the sample has "
                    "its own container anyway, to try the flow: %s Build builds it, %s Run runs it locally or as "
                    "a Hybrid Job (after %s Push and %s Permit), %s Monitor follows it.",
                    tui_action_step_key(TUI_STEP_BUILD, kb, sizeof kb), tui_action_step_key(TUI_STEP_RUN, kr, sizeof kr),
                    tui_action_step_key(TUI_STEP_PUSH, kp, sizeof kp),
                    tui_action_step_key(TUI_STEP_PERMIT, kq, sizeof kq),
                    tui_action_step_key(TUI_STEP_MONITOR, km, sizeof km));
    tui_app_alert(a, "Sample project", byoc_buf_str(&b));
    tui_app_message(a, "Working in the sample project: %s", dir);
    byoc_buf_clear(&b);
    free(abs);
}

static void sample_done(welcome_screen *s, const byoc_event *ev)
{
    tui_app *a = s->base.app;
    char *dir = s->sample_dir;
    s->sample_dir = NULL;
    s->sample_task = 0;
    if (ev->kind == BYOC_EV_ERROR) {
        char line[1024];
        tui_app_alert(a, "Sample project", byoc_err_format(&ev->err, line, sizeof line));
    } else {
        sample_written(a, dir, ev->result);
        tui_app_open_project(a, dir);       /* this page closes once the event is handled */
    }
    free(dir);
}

static void on_event(tui_screen *base, const byoc_event *ev)
{
    welcome_screen *s = (welcome_screen *)base;
    if (ev->task_id == s->sample_task && (ev->kind == BYOC_EV_DONE || ev->kind == BYOC_EV_ERROR))
        sample_done(s, ev);
    tui_screen_dirty(base);
}

/* ---- the choices ---- */

static void choose(welcome_screen *s, int choice)
{
    tui_app *a = s->base.app;
    if (s->sample_task) {
        tui_app_message(a, "The sample project is being written; a moment");
        return;
    }
    switch (choice) {
    case TUI_WELCOME_HERE:
        tui_app_pop(a);                  /* s is gone: Decide is under this page and scans when shown */
        return;
    case TUI_WELCOME_OPEN:
        tui_app_input(a, "Open another directory",
                      "Which directory should byoc work in? It must exist (~ is your home); byoc moves there "
                      "and Decide scans it.",
                      "~/", check_open, NULL, open_answer, s);
        return;
    case TUI_WELCOME_SAMPLE: {
        char *dir = tui_welcome_sample_default();
        tui_app_input(a, "Make a sample project",
                      "A small Python job: byoc's sample algorithm, a Dockerfile on a public Python base (it "
                      "builds without AWS credentials), byoc.json and a git repository, as byoc init writes "
                      "them. Into which new directory?",
                      dir, check_sample, NULL, sample_answer, s);
        free(dir);
        return;
    }
    default:
        return;
    }
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    welcome_screen *s = (welcome_screen *)base;
    int chosen;
    if (!tui_welcome_key(&s->model, ev->action, &chosen))
        return false;
    tui_screen_dirty(base);
    if (chosen >= 0)
        choose(s, chosen);               /* last: HERE frees s */
    return true;
}

/* ---- drawing ---- */

struct wrap_draw {
    WINDOW *win;
    int y, x, w, left;
};

static void wrap_line(const char *start, size_t n, void *ud)
{
    struct wrap_draw *d = ud;
    if (d->left <= 0)
        return;
    tui_draw_ntext(d->win, d->y++, d->x, d->w, TUI_STY_NORMAL, start, n);
    d->left--;
}

static int intro_lines(int w)
{
    return tui_text_wrap(INTRO, w, NULL, NULL);
}

/* The steps, one a line with their purpose; or one line when the page is short. */
static int draw_steps(WINDOW *win, int y, int x, int w, bool one_line)
{
    if (one_line) {
        byoc_buf b = BYOC_BUF_INIT;
        for (int i = 0; i < TUI_STEP_COUNT; i++) {
            char k[16];
            byoc_buf_printf(&b, "  %s %s", tui_action_step_key(i, k, sizeof k), tui_step_title(i));
        }
        tui_draw_fit(win, y, x, w, TUI_STY_LABEL_FOCUS, byoc_buf_str(&b));
        byoc_buf_clear(&b);
        return 1;
    }
    for (int i = 0; i < TUI_STEP_COUNT; i++) {
        char head[48], k[16];
        snprintf(head, sizeof head, "  %s %s", tui_action_step_key(i, k, sizeof k), tui_step_title(i));
        tui_draw_text(win, y + i, x, w, TUI_STY_LABEL_FOCUS, head);
        if (w > 14)
            tui_draw_fit(win, y + i, x + 13, w - 13, TUI_STY_NORMAL, tui_step_purpose(i));
    }
    return TUI_STEP_COUNT;
}

/* One choice: marker, its key (from the action table), its label; a note under it. */
static int draw_choice(welcome_screen *s, WINDOW *win, int y, int x, int w, int c, const char *note)
{
    bool sel = s->model.sel == c;
    tui_style sty = sel ? TUI_STY_SELECTED : TUI_STY_NORMAL;
    char keys[32], line[160];
    const tui_action *row = tui_action_get(tui_welcome_action(c));
    tui_action_keys_text(row, keys, sizeof keys);
    snprintf(line, sizeof line, " %-3s %s ", keys, tui_welcome_label(c));
    tui_draw_text(win, y, x, 2, TUI_STY_KEY, sel ? tui_glyph()->marker : " ");
    tui_draw_fit(win, y, x + 2, w - 2, sty, line);
    if (!note)
        return 1;
    int nx = x + 7 + tui_draw_fit(win, y + 1, x + 7, w - 7, TUI_STY_DIM, note);
    if (c == TUI_WELCOME_HERE)           /* the directory the scan will answer for */
        tui_draw_path(win, y + 1, nx, x + w - nx, TUI_STY_NORMAL, tui_app_project(s->base.app));
    return 2;
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    welcome_screen *s = (welcome_screen *)base;
    tui_draw_fill(win, r, TUI_STY_NORMAL);
    int x = r.x + 1, w = r.w - 2, end = r.y + r.h;
    if (w < 20 || r.h < 8)
        return;
    int intro = intro_lines(w);
    /* intro, steps, blank, question, blank, five lines of choices */
    bool short_page = intro + TUI_STEP_COUNT + 8 > r.h;
    struct wrap_draw d = {win, r.y, x, w, end - r.y};
    tui_text_wrap(INTRO, w, wrap_line, &d);
    int y = d.y;
    y += draw_steps(win, y, x, w, short_page);
    y += 1;
    if (y < end)
        tui_draw_fit(win, y++, x, w, TUI_STY_HEADING, "No byoc.json here yet. Where do you want to start?");
    y += !short_page;

    const char *sample_note = s->sample_dir ? "writing it..." : SAMPLE_NOTE;
    const char *notes[TUI_WELCOME_COUNT] = {"this directory: ", NULL, sample_note};
    for (int c = 0; c < TUI_WELCOME_COUNT && y < end; c++)
        y += draw_choice(s, win, y, x, w, c, y + 1 < end ? notes[c] : NULL);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    (void)base;
    snprintf(buf, size, "Welcome to byoc");
}

static void destroy(tui_screen *base)
{
    welcome_screen *s = (welcome_screen *)base;
    free(s->sample_dir);
    free(s);
}

static const tui_screen_ops ops = {
    .name = "welcome",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .on_event = on_event,
    .title = title,
};

tui_screen *tui_screen_welcome_new(tui_app *app)
{
    welcome_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_WELCOME, -1);
    s->base.wide = true;
    s->base.top_level = true;
    return &s->base;
}
