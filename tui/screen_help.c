/* screen_help: every key and command, generated from the action table and
 * grouped by context (help.h); scrolls like a page. */
#include <stdio.h>
#include <stdlib.h>

#include "core/buf.h"
#include "help.h"
#include "page.h"
#include "screens.h"

typedef struct help_screen {
    tui_screen base;
    tui_page page;
    int built_width;
    tui_ctx first[16];           /* the contexts of the screen help was opened from */
    size_t nfirst;
} help_screen;

static void rebuild(help_screen *s, int width)
{
    if (s->built_width == width && s->page.count)
        return;
    int top = s->page.top;
    tui_page_clear(&s->page);
    tui_help h;
    tui_help_build_for(&h, width, s->first, s->nfirst);
    for (size_t i = 0; i < h.count; i++) {
        if (h.lines[i].heading)
            tui_page_heading(&s->page, h.lines[i].text);
        else
            tui_page_pre(&s->page, TUI_STY_NORMAL, h.lines[i].text);
    }
    tui_help_free(&h);
    s->built_width = width;
    s->page.top = top;
}

static void destroy(tui_screen *base)
{
    help_screen *s = (help_screen *)base;
    tui_page_free(&s->page);
    free(s);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    help_screen *s = (help_screen *)base;
    tui_rect in = {r.y, r.x + 1, r.h, r.w - 1};
    rebuild(s, in.w - 1);
    tui_page_draw(&s->page, win, in);
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    help_screen *s = (help_screen *)base;
    return tui_page_handle(&s->page, ev->action);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    (void)base;
    snprintf(buf, size, "Help: keys and commands");
}

static const tui_screen_ops ops = {
    .name = "help",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .title = title,
};

tui_screen *tui_screen_help_new(tui_app *app, const tui_ctx *first, size_t nfirst)
{
    help_screen *s = byoc_xcalloc(1, sizeof *s);
    for (size_t i = 0; i < nfirst && i < sizeof s->first / sizeof s->first[0]; i++)
        s->first[s->nfirst++] = first[i];
    tui_screen_init(&s->base, &ops, app, TUI_CTX_PAGE, -1);
    s->base.wide = true;
    tui_page_init(&s->page);
    return &s->base;
}
