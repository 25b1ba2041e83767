/* screen_whole: the `whole` action's view (whole.h): every text the screen
 * below drew cut, in full, wrapped to the width, each under its title, then
 * the last message. A page: it scrolls, rewraps on resize, q or Esc goes
 * back. The texts are copied when it opens: the screen below keeps changing. */
#include <stdio.h>
#include <stdlib.h>

#include "core/buf.h"
#include "page.h"
#include "screens.h"
#include "whole.h"

typedef struct whole_screen {
    tui_screen base;
    tui_page page;
} whole_screen;

static void destroy(tui_screen *base)
{
    whole_screen *s = (whole_screen *)base;
    tui_page_clear(&s->page);
    free(s);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    whole_screen *s = (whole_screen *)base;
    tui_page_draw(&s->page, win, (tui_rect){r.y, r.x + 1, r.h, r.w - 1});
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    whole_screen *s = (whole_screen *)base;
    return tui_page_handle(&s->page, ev->action);
}

static void title(tui_screen *base, char *buf, size_t size)
{
    (void)base;
    snprintf(buf, size, "Whole text");
}

static void section(tui_page *p, const char *heading, const char *text, tui_style sty)
{
    tui_page_heading(p, heading);
    tui_page_text(p, sty, text);
    tui_page_blank(p);
}

static const tui_screen_ops ops = {
    .name = "whole",
    .destroy = destroy,
    .draw = draw,
    .key = key,
    .title = title,
};

tui_screen *tui_screen_whole_new(tui_app *app, const char *last_message)
{
    whole_screen *s = byoc_xcalloc(1, sizeof *s);
    tui_screen_init(&s->base, &ops, app, TUI_CTX_PAGE, -1);
    s->base.wide = true;
    tui_page_init(&s->page);
    size_t n = tui_whole_count();
    bool last = last_message && *last_message && !tui_whole_has(last_message);
    tui_page_text(&s->page, TUI_STY_DIM,
                  n || last ? "What the screen cut, whole. q or Esc goes back."
                            : "Nothing on the screen is cut, and there has been no message yet. q or Esc goes back.");
    tui_page_blank(&s->page);
    for (size_t i = 0; i < n; i++) {
        const char *t, *text;
        if (tui_whole_get(i, &t, &text))
            section(&s->page, t, text, TUI_STY_NORMAL);
    }
    if (last)
        section(&s->page, "The last message", last_message, TUI_STY_NORMAL);
    return &s->base;
}
