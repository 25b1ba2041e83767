#include "step_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "hintbar.h"
#include "steps.h"

void tui_step_page_keys(tui_page *page, tui_screen *s)
{
    tui_ctx chain[8];
    size_t n = 0;
    if (s->ops->contexts)
        n = s->ops->contexts(s, chain, 6);
    chain[n++] = s->ctx;
    chain[n++] = TUI_CTX_GLOBAL;
    tui_hint hints[24];
    size_t count = tui_hints_collect(chain, n, hints, 24);
    for (size_t i = 0; i < count; i++)
        tui_page_kv(page, hints[i].keys, hints[i].row->help);
}

void tui_step_page_fill(tui_page *page, tui_screen *s, const tui_step_text *text)
{
    tui_page_clear(page);
    tui_page_text(page, TUI_STY_LABEL_FOCUS, tui_step_purpose(s->step));
    tui_page_blank(page);
    tui_page_heading(page, "What it does");
    tui_page_text(page, TUI_STY_NORMAL, text->does);
    tui_page_blank(page);
    tui_page_heading(page, "What it needs");
    const byoc_globals *g = tui_app_globals(s->app);
    const tui_statusbar *sb = tui_app_status(s->app);
    for (const char *const *n = text->needs; n && *n; n++) {
        /* %P project, %A profile, %R region, %E engine */
        byoc_buf b = BYOC_BUF_INIT;
        for (const char *p = *n; *p; p++) {
            if (p[0] != '%' || !p[1]) {
                byoc_buf_putc(&b, *p);
                continue;
            }
            switch (*++p) {
            case 'P': byoc_buf_puts(&b, g && g->project_dir ? g->project_dir : "."); break;
            case 'A': byoc_buf_puts(&b, tui_status_get(sb, TUI_SB_PROFILE)); break;
            case 'R': byoc_buf_puts(&b, tui_status_get(sb, TUI_SB_REGION)); break;
            case 'E': byoc_buf_puts(&b, tui_status_get(sb, TUI_SB_ENGINE)); break;
            default: byoc_buf_putc(&b, '%'); byoc_buf_putc(&b, *p); break;
            }
        }
        tui_page_bullet(page, byoc_buf_str(&b));
        byoc_buf_free(&b);
    }
    if (text->cli) {
        tui_page_blank(page);
        tui_page_heading(page, "From the command line");
        tui_page_text(page, TUI_STY_NORMAL, text->cli);
    }
    tui_page_blank(page);
    tui_page_heading(page, "Keys");
    tui_step_page_keys(page, s);
}

tui_screen *tui_info_screen_new(tui_app *app, const tui_screen_ops *ops, int step, const tui_step_text *text)
{
    tui_info_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, ops, app, TUI_CTX_STEP, step);
    tui_page_init(&s->page);
    s->text = text;
    return &s->base;
}

void tui_info_screen_destroy(tui_screen *base)
{
    tui_info_screen *s = (tui_info_screen *)base;
    tui_page_free(&s->page);
    free(s);
}

void tui_info_screen_enter(tui_screen *base)
{
    tui_info_screen *s = (tui_info_screen *)base;
    int top = s->page.top;
    tui_step_page_fill(&s->page, base, s->text);   /* the status values may have changed */
    s->page.top = top;
    tui_screen_dirty(base);
}

void tui_info_screen_draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    tui_info_screen *s = (tui_info_screen *)base;
    if (s->page.count == 0)
        tui_step_page_fill(&s->page, base, s->text);
    tui_rect in = {r.y, r.x + 1, r.h, r.w - 1};    /* a margin from the border */
    tui_page_draw(&s->page, win, in);
}

size_t tui_info_screen_contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    (void)base;
    if (max < 1)
        return 0;
    out[0] = TUI_CTX_PAGE;
    return 1;
}

bool tui_info_screen_key(tui_screen *base, const tui_keyev *ev)
{
    tui_info_screen *s = (tui_info_screen *)base;
    return tui_page_handle(&s->page, ev->action);
}
