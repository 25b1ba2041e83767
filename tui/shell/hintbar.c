#include "hintbar.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "text.h"

static const char *label_of(const tui_action *a)
{
    return a->hint_label ? a->hint_label : a->name;
}

/* The hint for table row i, shown with the first of its keys that really reaches it through
 * the chain; false when none does (another context shadows them all). */
static bool hint_for_row(const tui_ctx *chain, size_t n, size_t i, tui_hint *out)
{
    const tui_action *t = tui_actions(NULL);
    const int *key = tui_action_keys(i);
    while (*key && tui_action_lookup(chain, n, *key) != &t[i])
        key++;
    if (!*key)
        return false;
    if (t[i].keys_label && key == tui_action_keys(i))
        snprintf(out->keys, sizeof out->keys, "%s", t[i].keys_label);
    else
        tui_key_name(*key, out->keys, sizeof out->keys);
    out->label = label_of(&t[i]);
    out->row = &t[i];
    return true;
}

size_t tui_hints_collect(const tui_ctx *chain, size_t n, tui_hint *out, size_t max)
{
    size_t count, got = 0;
    const tui_action *t = tui_actions(&count);
    for (size_t c = 0; c < n; c++) {
        for (int rank = 1; rank <= 9; rank++) {
            for (size_t i = 0; i < count && got < max; i++) {
                if (t[i].ctx != chain[c] || t[i].hint != rank)
                    continue;
                bool dup = false;
                for (size_t k = 0; k < got && !dup; k++)
                    dup = strcmp(out[k].label, label_of(&t[i])) == 0;
                if (!dup && hint_for_row(chain, n, i, &out[got]))
                    got++;
            }
        }
    }
    return got;
}

bool tui_hints_whole(const tui_ctx *chain, size_t n, tui_hint *out)
{
    size_t count;
    const tui_action *t = tui_actions(&count);
    for (size_t i = 0; i < count; i++)
        if (t[i].id == TUI_ACT_WHOLE)
            return hint_for_row(chain, n, i, out);
    return false;
}

size_t tui_hints_for(const tui_ctx *chain, size_t n, bool cut, tui_hint *out, size_t max)
{
    size_t got = 0;
    if (cut && max > 0 && tui_hints_whole(chain, n, &out[0]))
        got = 1;
    return got + tui_hints_collect(chain, n, out + got, max - got);
}

static int hint_width(const tui_hint *h)
{
    return tui_text_width(h->keys) + 1 + tui_text_width(h->label);
}

static bool kept(const tui_hint *h)
{
    return h->row && (h->row->id == TUI_ACT_HELP || h->row->id == TUI_ACT_WHOLE);
}

static int rank_of(const tui_hint *h)
{
    return h->row && h->row->hint > 0 ? h->row->hint : 10;
}

size_t tui_hints_choose(const tui_hint *h, size_t n, int width, bool *use)
{
    /* the kept hints first; each hint but the last drawn takes two more columns of gap */
    int left = width + 2;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        use[i] = kept(&h[i]) && hint_width(&h[i]) + 2 <= left;
        if (use[i]) {
            left -= hint_width(&h[i]) + 2;
            used++;
        }
    }
    /* then by rank, a tie to the earlier (more specific) context */
    for (int rank = 1; rank <= 10; rank++)
        for (size_t i = 0; i < n; i++) {
            if (use[i] || kept(&h[i]) || rank_of(&h[i]) != rank)
                continue;
            int w = hint_width(&h[i]) + 2;
            if (w <= left) {
                use[i] = true;
                left -= w;
                used++;
            }
        }
    return used;
}

size_t tui_hints_text(const tui_hint *h, size_t n, int width, char *buf, size_t size)
{
    bool use[64];
    if (n > 64)
        n = 64;
    size_t used = tui_hints_choose(h, n, width, use);
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (!use[i])
            continue;
        int w = snprintf(buf + len, size - len, "%s%s %s", len ? "  " : "", h[i].keys, h[i].label);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
    return used;
}
