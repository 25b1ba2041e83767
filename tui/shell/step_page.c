#include "step_page.h"

#include "hintbar.h"

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
