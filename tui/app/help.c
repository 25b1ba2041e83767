#include "help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "core/buf.h"
#include "text.h"

#define KEYS_MAX 16
#define CMD_MAX 15

static void add(tui_help *h, size_t *cap, bool heading, char *text)
{
    if (h->count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        h->lines = byoc_xrealloc(h->lines, *cap * sizeof h->lines[0]);
    }
    h->lines[h->count].heading = heading;
    h->lines[h->count].text = text;
    h->count++;
}

/* Pad s with spaces to `cols` display columns (never cuts). */
static void pad_to(byoc_buf *b, const char *s, int cols)
{
    byoc_buf_puts(b, s);
    for (int w = tui_text_width(s); w < cols; w++)
        byoc_buf_putc(b, ' ');
}

struct wrap_ctx {
    tui_help *h;
    size_t *cap;
    const char *first_prefix;   /* the keys and command columns, for the first line */
    int indent;
    bool first;
};

static void wrap_line(const char *start, size_t n, void *ud)
{
    struct wrap_ctx *w = ud;
    byoc_buf b = BYOC_BUF_INIT;
    if (w->first)
        byoc_buf_puts(&b, w->first_prefix);
    else
        for (int i = 0; i < w->indent; i++)
            byoc_buf_putc(&b, ' ');
    byoc_buf_append(&b, start, n);
    add(w->h, w->cap, false, byoc_buf_steal(&b));
    w->first = false;
}

static void add_wrapped(tui_help *h, size_t *cap, const char *text, int width)
{
    struct wrap_ctx w = {h, cap, "", 0, true};
    tui_text_wrap(text, width > 10 ? width : 10, wrap_line, &w);
}

void tui_help_build(tui_help *h, int width) { tui_help_build_for(h, width, NULL, 0); }

static void command_text(const tui_action *a, char *buf, size_t size)
{
    snprintf(buf, size, ":%s%s%s", a->name, a->arg ? " " : "", a->arg ? a->arg : "");
}

bool tui_help_row_matches(const tui_action *a, const char *filter)
{
    if (!filter || !*filter)
        return true;
    char keys[96], cmd[64];
    tui_action_keys_text(a, keys, sizeof keys);
    command_text(a, cmd, sizeof cmd);
    return tui_text_casestr(keys, filter) || tui_text_casestr(cmd, filter) || tui_text_casestr(a->help, filter);
}

void tui_help_build_for(tui_help *h, int width, const tui_ctx *first, size_t nfirst)
{
    tui_help_build_filtered(h, width, first, nfirst, NULL);
}

void tui_help_build_filtered(tui_help *h, int width, const tui_ctx *first, size_t nfirst, const char *filter)
{
    size_t cap = 0, n;
    const tui_action *t = tui_actions(&n);
    h->lines = NULL;
    h->count = 0;
    h->actions = n;
    h->shown = 0;
    for (size_t i = 0; i < n; i++)
        h->shown += tui_help_row_matches(&t[i], filter);
    bool filtered = filter && *filter;

    int keys_w = 0, cmd_w = 0;
    for (size_t i = 0; i < n; i++) {
        char keys[96], cmd[64];
        tui_action_keys_text(&t[i], keys, sizeof keys);
        command_text(&t[i], cmd, sizeof cmd);
        if (tui_text_width(keys) > keys_w)
            keys_w = tui_text_width(keys);
        if (tui_text_width(cmd) > cmd_w)
            cmd_w = tui_text_width(cmd);
    }
    if (keys_w > KEYS_MAX)
        keys_w = KEYS_MAX;
    if (cmd_w > CMD_MAX)
        cmd_w = CMD_MAX;

    char intro[320];
    if (filtered)
        snprintf(intro, sizeof intro,
                 h->shown ? "The keys and commands matching \"%.200s\" (/ changes the filter, Esc clears it)."
                          : "No key, command or description matches \"%.200s\" (/ changes the filter, Esc "
                            "clears it).",
                 filter);
    add_wrapped(h, &cap, filtered ? intro : nfirst ? "The keys of the screen you came from first, then the global ones, then "
                                  "the rest. Every action has keys and a command: press the keys, or type : "
                                  "and the command (Tab completes it). / filters them; q or Esc goes back."
                                : "Every action has keys and a command: press the keys, or type : and the "
                                  "command (Tab completes it). / filters them; q or Esc goes back; q on the top level quits.",
                width);

    /* The order: the contexts of the screen help was opened from (most specific first), then
     * the global keys, then every other context in table order. */
    int order[TUI_CTX_COUNT];
    bool placed[TUI_CTX_COUNT] = {false};
    size_t norder = 0;
    for (size_t i = 0; i < nfirst; i++)
        if ((int)first[i] >= 0 && first[i] < TUI_CTX_COUNT && first[i] != TUI_CTX_GLOBAL && !placed[first[i]])
            placed[first[i]] = true, order[norder++] = first[i];
    if (!placed[TUI_CTX_GLOBAL])
        placed[TUI_CTX_GLOBAL] = true, order[norder++] = TUI_CTX_GLOBAL;
    for (int c = 0; c < TUI_CTX_COUNT; c++)
        if (!placed[c])
            order[norder++] = c;

    for (size_t k = 0; k < norder; k++) {
        int ctx = order[k];
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            if ((int)t[i].ctx != ctx || !tui_help_row_matches(&t[i], filter))
                continue;
            if (!any) {
                add(h, &cap, false, byoc_xstrdup(""));
                add(h, &cap, true, byoc_xstrdup(tui_ctx_title((tui_ctx)ctx)));
                any = true;
            }
            char keys[96], cmd[64];
            tui_action_keys_text(&t[i], keys, sizeof keys);
            command_text(&t[i], cmd, sizeof cmd);
            byoc_buf b = BYOC_BUF_INIT;
            byoc_buf_puts(&b, "  ");
            if (tui_text_width(keys) > keys_w) {   /* a long key list gets a line of its own */
                byoc_buf_puts(&b, keys);
                add(h, &cap, false, byoc_buf_steal(&b));
                byoc_buf_puts(&b, "  ");
                pad_to(&b, "", keys_w);
            } else {
                pad_to(&b, keys, keys_w);
            }
            byoc_buf_puts(&b, " ");
            pad_to(&b, cmd, cmd_w);
            byoc_buf_puts(&b, " ");
            int indent = 2 + keys_w + 1 + cmd_w + 1;
            if (width - indent < 24) {       /* too narrow: help on its own lines */
                add(h, &cap, false, byoc_xstrdup(byoc_buf_str(&b)));
                byoc_buf_reset(&b);
                byoc_buf_puts(&b, "      ");
                indent = 6;
            }
            struct wrap_ctx w = {h, &cap, byoc_buf_str(&b), indent, true};
            tui_text_wrap(t[i].help, width - indent, wrap_line, &w);
            byoc_buf_clear(&b);
        }
    }
}

void tui_help_clear(tui_help *h)
{
    for (size_t i = 0; i < h->count; i++)
        free(h->lines[i].text);
    free(h->lines);
    h->lines = NULL;
    h->count = 0;
}

long tui_help_find(const tui_help *h, const char *needle, size_t from)
{
    if (!needle || !*needle || h->count == 0)
        return -1;
    for (size_t k = 1; k <= h->count; k++) {
        size_t i = (from + k) % h->count;
        if (tui_text_casestr(h->lines[i].text, needle))
            return (long)i;
    }
    return -1;
}
