#include "logview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "keys.h"
#include "text.h"

void tui_logview_init(tui_logview *v, size_t max_lines, size_t max_bytes)
{
    memset(v, 0, sizeof *v);
    tui_logring_init(&v->ring, max_lines, max_bytes);
    v->follow = true;
    v->width = 80;
    v->height = 20;
    v->match = -1;
    tui_edit_init(&v->search_edit, "");
    v->search_edit.max_len = 256;
}

void tui_logview_clear(tui_logview *v)
{
    tui_logring_clear(&v->ring);
    tui_edit_clear(&v->search_edit);
    free(v->search);
    memset(v, 0, sizeof *v);
}

void tui_logview_reset(tui_logview *v)
{
    size_t ml = v->ring.max_lines, mb = v->ring.max_bytes;
    tui_logring_clear(&v->ring);
    tui_logring_init(&v->ring, ml, mb);
    tui_logring_set_needle(&v->ring, v->search);
    v->top_seq = 0;
    v->top_sub = 0;
    v->match = -1;
}

void tui_logview_set_size(tui_logview *v, int width, int height)
{
    v->width = width > 1 ? width : 1;
    v->height = height > 1 ? height : 1;
}

void tui_logview_prefix(const tui_logview *v, const tui_log_line *l, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!v->timestamps || size < 10)
        return;
    time_t t = (time_t)l->ts;
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, size, "%H:%M:%S ", &tm);
}

int tui_logview_line_rows(const tui_logview *v, size_t i)
{
    if (!v->wrap)
        return 1;
    const tui_log_line *l = tui_logring_get(&v->ring, i);
    if (!l)
        return 1;
    int w = tui_text_width(l->text) + (v->timestamps ? 9 : 0);
    int rows = (w + v->width - 1) / v->width;
    return rows > 0 ? rows : 1;
}

/* Position as (line index, row within it). */
typedef struct {
    long line;
    int sub;
} pos;

static pos bottom_pos(const tui_logview *v)
{
    long n = (long)v->ring.count;
    int remaining = v->height;
    for (long i = n - 1; i >= 0; i--) {
        int r = tui_logview_line_rows(v, (size_t)i);
        if (r >= remaining)
            return (pos){i, r - remaining};
        remaining -= r;
    }
    return (pos){0, 0};
}

static int pos_cmp(pos a, pos b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return a.sub < b.sub ? -1 : a.sub > b.sub;
}

static pos current(const tui_logview *v)
{
    long line = v->top_seq < v->ring.first_seq ? 0 : (long)(v->top_seq - v->ring.first_seq);
    int sub = v->top_seq < v->ring.first_seq ? 0 : v->top_sub;
    if (line >= (long)v->ring.count)
        line = v->ring.count ? (long)v->ring.count - 1 : 0;
    int rows = tui_logview_line_rows(v, (size_t)line);
    if (sub >= rows)
        sub = rows - 1;
    return (pos){line, sub};
}

static void set_pos(tui_logview *v, pos p)
{
    pos b = bottom_pos(v);
    if (pos_cmp(p, b) > 0)
        p = b;
    if (p.line < 0)
        p = (pos){0, 0};
    v->top_seq = v->ring.first_seq + (uint64_t)p.line;
    v->top_sub = p.sub;
}

size_t tui_logview_first_index(tui_logview *v)
{
    if (v->follow)
        set_pos(v, bottom_pos(v));
    else
        set_pos(v, current(v));
    return (size_t)current(v).line;
}

bool tui_logview_at_bottom(const tui_logview *v)
{
    if (v->follow)
        return true;
    return pos_cmp(current(v), bottom_pos(v)) >= 0;
}

void tui_logview_scroll(tui_logview *v, long rows)
{
    pos p = v->follow ? bottom_pos(v) : current(v);
    if (rows < 0)
        v->follow = false;
    while (rows < 0) {
        if (p.sub > 0) {
            p.sub--;
        } else if (p.line > 0) {
            p.line--;
            p.sub = tui_logview_line_rows(v, (size_t)p.line) - 1;
        } else {
            break;
        }
        rows++;
    }
    while (rows > 0) {
        if (p.sub + 1 < tui_logview_line_rows(v, (size_t)p.line))
            p.sub++;
        else if (p.line + 1 < (long)v->ring.count)
            p = (pos){p.line + 1, 0};
        else
            break;
        rows--;
    }
    set_pos(v, p);
}

void tui_logview_top(tui_logview *v)
{
    v->follow = false;
    set_pos(v, (pos){0, 0});
}

static void tui_logview_bottom(tui_logview *v)
{
    v->follow = true;
    set_pos(v, bottom_pos(v));
}

static void show_line(tui_logview *v, long line)
{
    v->follow = false;
    long above = v->height / 3;
    pos p = {line, 0};
    while (above-- > 0 && p.line > 0)
        p.line--;
    set_pos(v, p);
}

static void set_search(tui_logview *v, const char *needle)
{
    free(v->search);
    v->search = needle && *needle ? byoc_xstrdup(needle) : NULL;
    v->match = -1;
    tui_logring_set_needle(&v->ring, v->search);
}

/* The rank of match i (1-based); from, the previous match, and dir let a
 * step to the next one cost nothing. */
static void set_match(tui_logview *v, long i, long from, int dir)
{
    size_t nth;
    size_t prev = v->match >= 0 ? v->match_nth - (size_t)(v->ring.hits_dropped - v->match_hits_dropped) : 0;
    if (from >= 0 && v->match == from && dir > 0)
        nth = i > from ? prev + 1 : 1;
    else if (from >= 0 && v->match == from && dir < 0)
        nth = i < from ? prev - 1 : v->ring.hits;
    else
        nth = tui_logring_hits_upto(&v->ring, (size_t)i);
    v->match = i;
    v->match_nth = nth;
    v->match_hits_dropped = v->ring.hits_dropped;
}

bool tui_logview_search(tui_logview *v, const char *needle)
{
    set_search(v, needle);
    v->note[0] = '\0';
    if (!v->search)
        return false;
    long from = (long)tui_logview_first_index(v) - 1;
    long i = tui_logring_find(&v->ring, v->search, from, 1);
    if (i < 0) {
        snprintf(v->note, sizeof v->note, "no match for \"%s\"", v->search);
        return false;
    }
    set_match(v, i, -1, 1);
    show_line(v, i);
    return true;
}

bool tui_logview_next_match(tui_logview *v, int dir)
{
    v->note[0] = '\0';
    if (!v->search) {
        snprintf(v->note, sizeof v->note, "no search: press / first");
        return false;
    }
    long from = v->match >= 0 ? v->match : (long)tui_logview_first_index(v) - (dir > 0 ? 1 : 0);
    long i = tui_logring_find(&v->ring, v->search, from, dir);
    if (i < 0) {
        snprintf(v->note, sizeof v->note, "no match for \"%s\"", v->search);
        return false;
    }
    set_match(v, i, from, dir);
    show_line(v, i);
    return true;
}

void tui_logview_append(tui_logview *v, const char *text, double ts)
{
    uint64_t dropped = v->ring.dropped;
    tui_logring_push_text(&v->ring, text, ts);
    if (v->match >= 0) {                /* the match index shifts when old lines go */
        v->match -= (long)(v->ring.dropped - dropped);
        if (v->match < 0)
            v->match = -1;
    }
    if (v->follow)
        set_pos(v, bottom_pos(v));
}

bool tui_logview_handle(tui_logview *v, int key, tui_action_id act)
{
    if (v->searching) {
        if (act == TUI_ACT_ACCEPT) {
            v->searching = false;
            tui_logview_search(v, tui_edit_text(&v->search_edit));
            return true;
        }
        if (act == TUI_ACT_CANCEL) {
            v->searching = false;
            return true;
        }
        return tui_edit_key(&v->search_edit, key, act);
    }
    switch (act) {
    case TUI_ACT_UP: tui_logview_scroll(v, -1); return true;
    case TUI_ACT_DOWN: tui_logview_scroll(v, 1); return true;
    case TUI_ACT_PAGE_UP: tui_logview_scroll(v, -(v->height > 1 ? v->height - 1 : 1)); return true;
    case TUI_ACT_PAGE_DOWN: tui_logview_scroll(v, v->height > 1 ? v->height - 1 : 1); return true;
    case TUI_ACT_TOP: tui_logview_top(v); return true;
    case TUI_ACT_BOTTOM:
    case TUI_ACT_FOLLOW: tui_logview_bottom(v); return true;
    case TUI_ACT_WRAP: {
        size_t first = tui_logview_first_index(v);
        v->wrap = !v->wrap;
        if (!v->follow)
            set_pos(v, (pos){(long)first, 0});
        return true;
    }
    case TUI_ACT_TIMESTAMPS: v->timestamps = !v->timestamps; return true;
    case TUI_ACT_SEARCH:
        v->searching = true;
        tui_edit_set(&v->search_edit, v->search ? v->search : "");
        return true;
    case TUI_ACT_NEXT_MATCH: tui_logview_next_match(v, 1); return true;
    case TUI_ACT_PREV_MATCH: tui_logview_next_match(v, -1); return true;
    default: return false;
    }
}

size_t tui_logview_contexts(const tui_logview *v, tui_ctx *out)
{
    size_t n = 0;
    if (v->searching)
        out[n++] = TUI_CTX_EDIT;
    out[n++] = TUI_CTX_LOG;
    return n;
}

void tui_logview_status(const tui_logview *v, char *buf, size_t size)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, v->follow ? "follow" : "paused (F follows)");
    if (v->wrap)
        byoc_buf_puts(&b, " wrap");
    if (v->timestamps)
        byoc_buf_puts(&b, " time");
    byoc_buf_printf(&b, "  %zu lines", v->ring.count);
    if (v->ring.dropped)
        byoc_buf_printf(&b, " (%llu dropped)", (unsigned long long)v->ring.dropped);
    if (v->search) {
        size_t nth = v->match >= 0 ? v->match_nth - (size_t)(v->ring.hits_dropped - v->match_hits_dropped) : 0;
        byoc_buf_printf(&b, "  /%s %zu of %zu", v->search, nth, v->ring.hits);
    }
    if (v->note[0])
        byoc_buf_printf(&b, "  %s", v->note);
    snprintf(buf, size, "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
}
