#include "hintbar.h"

#include <stdio.h>
#include <string.h>

#include "keys.h"
#include "text.h"

static const char *label_of(const tui_action *a)
{
    return a->hint_label ? a->hint_label : a->name;
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
                /* shown with the first of its keys that really reaches it through this chain */
                const int *key = tui_action_keys(i);
                while (*key && tui_action_lookup(chain, n, *key) != &t[i])
                    key++;
                if (!*key)
                    continue;
                bool dup = false;
                for (size_t k = 0; k < got && !dup; k++)
                    dup = strcmp(out[k].label, label_of(&t[i])) == 0;
                if (dup)
                    continue;
                if (t[i].keys_label && key == tui_action_keys(i))
                    snprintf(out[got].keys, sizeof out[got].keys, "%s", t[i].keys_label);
                else
                    tui_key_name(*key, out[got].keys, sizeof out[got].keys);
                out[got].label = label_of(&t[i]);
                out[got].row = &t[i];
                got++;
            }
        }
    }
    return got;
}

static int hint_width(const tui_hint *h)
{
    return tui_text_width(h->keys) + 1 + tui_text_width(h->label);
}

size_t tui_hints_choose(const tui_hint *h, size_t n, int width, bool *use)
{
    long help = -1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(h[i].label, "help") == 0)
            help = (long)i;
    int left = width;
    if (help >= 0)
        left -= hint_width(&h[help]);
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        use[i] = false;
        if ((long)i == help)
            continue;
        int w = hint_width(&h[i]) + 2;
        if (w <= left) {
            use[i] = true;
            left -= w;
            used++;
        }
    }
    if (help >= 0 && left >= 0) {
        use[help] = true;
        used++;
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
