/* screen_help: every key and command, generated from the action table and
 * grouped by context (help.h); scrolls like a page. `/` filters it as the
 * lists are filtered (filter.h): the keys whose key, command or description
 * contain the text, live while it is typed; Enter keeps it, Esc clears it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "filter.h"
#include "help.h"
#include "page.h"
#include "screens.h"

typedef struct help_screen {
    tui_screen base;
    tui_page page;
    int built_width;
    char *built_filter;          /* the filter the page was built with */
    size_t shown, actions;       /* of the last build, for "n of m" */
    tui_ctx first[16];           /* the contexts of the screen help was opened from */
    size_t nfirst;
    tui_edit filter;
    bool filtering;              /* the filter is being typed */
} help_screen;

static void rebuild(help_screen *s, int width)
{
    const char *filter = tui_edit_text(&s->filter);
    if (s->built_width == width && s->page.count && strcmp(s->built_filter, filter) == 0)
        return;
    int top = strcmp(s->built_filter, filter) == 0 ? s->page.top : 0;
    tui_page_reset(&s->page);
    tui_help h;
    tui_help_build_filtered(&h, width, s->first, s->nfirst, filter);
    for (size_t i = 0; i < h.count; i++) {
        if (h.lines[i].heading)
            tui_page_heading(&s->page, h.lines[i].text);
        else
            tui_page_pre(&s->page, TUI_STY_NORMAL, h.lines[i].text);
    }
    s->shown = h.shown;
    s->actions = h.actions;
    tui_help_clear(&h);
    s->built_width = width;
    free(s->built_filter);
    s->built_filter = byoc_xstrdup(filter);
    s->page.top = top;
}

static void destroy(tui_screen *base)
{
    help_screen *s = (help_screen *)base;
    tui_page_clear(&s->page);
    tui_edit_clear(&s->filter);
    free(s->built_filter);
    free(s);
}

static void draw(tui_screen *base, WINDOW *win, tui_rect r)
{
    help_screen *s = (help_screen *)base;
    tui_rect in = {r.y, r.x + 1, r.h, r.w - 1};
    bool footer = (s->filtering || tui_edit_text(&s->filter)[0]) && in.h >= 3;
    if (footer)
        in.h--;
    rebuild(s, in.w - 1);
    tui_page_draw(&s->page, win, in);
    if (footer) {
        char count[64];
        snprintf(count, sizeof count, " %zu of %zu ", s->shown, s->actions);
        tui_filter_draw(win, in.y + in.h, r.x, r.w, &s->filter, s->filtering, tui_edit_text(&s->filter), count);
    }
}

static bool key(tui_screen *base, const tui_keyev *ev)
{
    help_screen *s = (help_screen *)base;
    if (s->filtering && tui_filter_key(&s->filter, &s->filtering, ev->key, ev->action))
        return true;
    if (ev->action == TUI_ACT_FILTER) {
        s->filtering = true;
        return true;
    }
    return tui_page_handle(&s->page, ev->action);
}

static size_t contexts(tui_screen *base, tui_ctx *out, size_t max)
{
    help_screen *s = (help_screen *)base;
    size_t n = 0;
    if (max < 2)
        return 0;
    if (s->filtering)
        out[n++] = TUI_CTX_EDIT;        /* typed text, not keys; movement still scrolls */
    out[n++] = TUI_CTX_PAGE;
    return n;
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
    .contexts = contexts,
    .title = title,
};

tui_screen *tui_screen_help_new(tui_app *app, const tui_ctx *first, size_t nfirst)
{
    help_screen *s = byoc_xcalloc(1, sizeof *s);
    for (size_t i = 0; i < nfirst && i < sizeof s->first / sizeof s->first[0]; i++)
        s->first[s->nfirst++] = first[i];
    tui_screen_init(&s->base, &ops, app, TUI_CTX_HELP, -1);
    s->base.wide = true;
    tui_page_init(&s->page);
    tui_edit_init(&s->filter, "");
    s->filter.max_len = 256;
    s->built_filter = byoc_xstrdup("");
    return &s->base;
}
