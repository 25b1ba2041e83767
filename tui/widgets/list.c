#include "list.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "filter.h"
#include "keys.h"
#include "text.h"

/* Rows, columns or sort changed: the view is rebuilt from all rows. */
static void mark_stale(tui_list *l)
{
    l->stale = true;
    l->narrowing = false;
}

void tui_list_init(tui_list *l, const tui_column *cols, size_t ncols)
{
    memset(l, 0, sizeof *l);
    l->cols = byoc_xcalloc(ncols ? ncols : 1, sizeof *cols);
    memcpy(l->cols, cols, ncols * sizeof *cols);
    l->ncols = ncols;
    l->sel = -1;
    l->sort_col = -1;
    l->height = 1;
    l->filter = byoc_xstrdup("");
    tui_edit_init(&l->filter_edit, "");
    l->filter_edit.max_len = 256;
}

static void free_rows(tui_list *l)
{
    for (size_t r = 0; r < l->nrows; r++) {
        for (size_t c = 0; c < l->ncols; c++)
            free(l->rows[r].cells[c]);
        free(l->rows[r].cells);
        if (l->data_free && l->rows[r].data)
            l->data_free(l->rows[r].data);
    }
    l->nrows = 0;
}

void tui_list_clear(tui_list *l)
{
    free_rows(l);
    free(l->rows);
    free(l->view);
    free(l->cols);
    free(l->filter);
    tui_edit_clear(&l->filter_edit);
    memset(l, 0, sizeof *l);
}

size_t tui_list_add(tui_list *l, const char *const *cells, void *data)
{
    if (l->nrows == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->rows = byoc_xrealloc(l->rows, l->cap * sizeof *l->rows);
    }
    tui_list_row *row = &l->rows[l->nrows];
    row->cells = byoc_xcalloc(l->ncols ? l->ncols : 1, sizeof *row->cells);
    for (size_t c = 0; c < l->ncols; c++) {
        const char *s = cells && cells[c] ? cells[c] : "";
        row->cells[c] = tui_text_sanitize(s, strlen(s));
    }
    row->data = data;
    mark_stale(l);
    return l->nrows++;
}

void tui_list_set_cell(tui_list *l, size_t row, size_t col, const char *text)
{
    if (row >= l->nrows || col >= l->ncols)
        return;
    free(l->rows[row].cells[col]);
    l->rows[row].cells[col] = tui_text_sanitize(text ? text : "", text ? strlen(text) : 0);
    mark_stale(l);
}

void tui_list_reset(tui_list *l)
{
    free_rows(l);
    l->nview = 0;
    l->sel = -1;
    l->top = 0;
    mark_stale(l);
}

double tui_list_number_key(const char *s)
{
    while (*s == ' ')
        s++;
    char *end;
    double v = strtod(s, &end);
    if (end == s || isnan(v))
        return -1e300;
    while (*end == ' ')
        end++;
    static const struct {
        const char *unit;
        double mult;
    } units[] = {
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
        {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
        {"ms", 1e-3}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}, {"d", 86400.0},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].unit);
        if (strncmp(end, units[i].unit, n) == 0 && !isalpha((unsigned char)end[n]))
            return v * units[i].mult;
    }
    return v;
}

static int compare_rows(const void *a, const void *b, void *ud)
{
    const tui_list *l = ud;
    size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
    int c = 0;
    if (l->sort_col >= 0) {
        const char *x = l->rows[ra].cells[l->sort_col], *y = l->rows[rb].cells[l->sort_col];
        if (l->cols[l->sort_col].sort == TUI_SORT_NUMBER) {
            double dx = tui_list_number_key(x), dy = tui_list_number_key(y);
            c = dx < dy ? -1 : dx > dy ? 1 : 0;
        } else {
            c = strcasecmp(x, y);
            if (c == 0)
                c = strcmp(x, y);
        }
        if (l->sort_desc)
            c = -c;
    }
    if (c == 0)                         /* stable: insertion order breaks ties */
        c = ra < rb ? -1 : ra > rb ? 1 : 0;
    return c;
}

static bool row_matches(const tui_list *l, size_t r)
{
    if (!l->filter[0])
        return true;
    for (size_t c = 0; c < l->ncols; c++)
        if (tui_text_casestr(l->rows[r].cells[c], l->filter))
            return true;
    return false;
}

static void clamp(tui_list *l)
{
    if (l->nview == 0) {
        l->sel = -1;
        l->top = 0;
        return;
    }
    if (l->sel < 0)
        l->sel = 0;
    if ((size_t)l->sel >= l->nview)
        l->sel = (long)l->nview - 1;
    size_t h = l->height > 0 ? (size_t)l->height : 1;
    if ((size_t)l->sel < l->top)
        l->top = (size_t)l->sel;
    if ((size_t)l->sel >= l->top + h)
        l->top = (size_t)l->sel - h + 1;
    size_t max_top = l->nview > h ? l->nview - h : 0;
    if (l->top > max_top)
        l->top = max_top;
}

/* Keep the view positions whose rows still match (the view stays sorted). */
static void narrow_view(tui_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->nview; i++)
        if (row_matches(l, l->view[i]))
            l->view[n++] = l->view[i];
    l->nview = n;
}

static void rebuild_view(tui_list *l)
{
    free(l->view);
    l->view = byoc_xcalloc(l->nrows ? l->nrows : 1, sizeof *l->view);
    l->nview = 0;
    for (size_t r = 0; r < l->nrows; r++)
        if (row_matches(l, r))
            l->view[l->nview++] = r;
    qsort_r(l->view, l->nview, sizeof *l->view, compare_rows, l);
}

/* Recomputed when read, not when changed: keys typed into the filter within
 * one frame cost one pass, and a filter that only grew scans just the rows
 * still shown. */
static void refresh_view(tui_list *l)
{
    if (!l->stale)
        return;
    long keep = (l->sel >= 0 && (size_t)l->sel < l->nview) ? (long)l->view[l->sel] : -1;
    if (l->narrowing)
        narrow_view(l);
    else
        rebuild_view(l);
    l->stale = false;
    l->narrowing = false;
    l->sel = l->nview ? 0 : -1;
    for (size_t i = 0; keep >= 0 && i < l->nview; i++)
        if (l->view[i] == (size_t)keep) {
            l->sel = (long)i;
            break;
        }
    clamp(l);
}

void tui_list_set_filter(tui_list *l, const char *text)
{
    text = text ? text : "";
    if (strcmp(text, l->filter) == 0)
        return;
    /* every row matching the new filter matched the old one it contains */
    bool narrows = tui_text_casestr(text, l->filter) != NULL;
    l->narrowing = l->stale ? l->narrowing && narrows : narrows;
    l->stale = true;
    free(l->filter);
    l->filter = byoc_xstrdup(text);
}

void tui_list_sort_by(tui_list *l, int col, bool desc)
{
    if (col >= (int)l->ncols)
        col = -1;
    l->sort_col = col;
    l->sort_desc = desc;
    mark_stale(l);
    refresh_view(l);
}

void tui_list_sort_next(tui_list *l)
{
    int c = l->sort_col;
    for (size_t tries = 0; tries <= l->ncols; tries++) {
        c++;
        if (c >= (int)l->ncols) {
            c = -1;
            break;
        }
        if (l->cols[c].sort != TUI_SORT_NONE)
            break;
    }
    tui_list_sort_by(l, c, false);
}

size_t tui_list_visible(tui_list *l)
{
    refresh_view(l);
    return l->nview;
}

long tui_list_view_row(tui_list *l, size_t i)
{
    refresh_view(l);
    return i < l->nview ? (long)l->view[i] : -1;
}

void tui_list_count_text(tui_list *l, char *buf, size_t size)
{
    refresh_view(l);
    if (l->filter[0])
        snprintf(buf, size, "%zu of %zu", l->nview, l->nrows);
    else
        snprintf(buf, size, "%zu", l->nrows);
}

void tui_list_set_height(tui_list *l, int height)
{
    l->height = height > 0 ? height : 1;
    refresh_view(l);
    clamp(l);
}

void tui_list_move(tui_list *l, long delta)
{
    refresh_view(l);
    if (l->nview == 0)
        return;
    long s = l->sel + delta;
    if (s < 0)
        s = 0;
    if (s >= (long)l->nview)
        s = (long)l->nview - 1;
    l->sel = s;
    clamp(l);
}

void tui_list_page(tui_list *l, int pages)
{
    refresh_view(l);
    if (l->nview == 0)
        return;
    long h = l->height > 0 ? l->height : 1;
    long top = (long)l->top + pages * h;
    long max_top = (long)l->nview > h ? (long)l->nview - h : 0;
    if (top < 0)
        top = 0;
    if (top > max_top)
        top = max_top;
    long s = l->sel + pages * h;
    l->top = (size_t)top;
    if (s < 0)
        s = 0;
    if (s >= (long)l->nview)
        s = (long)l->nview - 1;
    l->sel = s;
    clamp(l);
}

void tui_list_home(tui_list *l)
{
    tui_list_move(l, -(long)l->nrows - 1);
}

void tui_list_end(tui_list *l)
{
    tui_list_move(l, (long)l->nrows + 1);
}

long tui_list_selected(tui_list *l)
{
    refresh_view(l);
    return l->sel >= 0 ? (long)l->view[l->sel] : -1;
}

void *tui_list_selected_data(tui_list *l)
{
    long r = tui_list_selected(l);
    return r >= 0 ? l->rows[r].data : NULL;
}

bool tui_list_select_row(tui_list *l, size_t row)
{
    refresh_view(l);
    for (size_t i = 0; i < l->nview; i++)
        if (l->view[i] == row) {
            l->sel = (long)i;
            clamp(l);
            return true;
        }
    return false;
}

size_t tui_list_contexts(const tui_list *l, tui_ctx *out)
{
    size_t n = 0;
    if (l->filtering)
        out[n++] = TUI_CTX_EDIT;
    out[n++] = TUI_CTX_LIST;
    return n;
}

bool tui_list_handle(tui_list *l, int key, tui_action_id act)
{
    if (l->filtering) {
        if (tui_filter_key(&l->filter_edit, &l->filtering, key, act)) {
            if (strcmp(tui_edit_text(&l->filter_edit), l->filter) != 0)
                tui_list_set_filter(l, tui_edit_text(&l->filter_edit));
            return true;
        }
        /* movement keeps working while the filter is typed; the rest is not for the list */
        if (act != TUI_ACT_UP && act != TUI_ACT_DOWN && act != TUI_ACT_PAGE_UP && act != TUI_ACT_PAGE_DOWN)
            return false;
    }
    switch (act) {
    case TUI_ACT_UP: tui_list_move(l, -1); return true;
    case TUI_ACT_DOWN: tui_list_move(l, 1); return true;
    case TUI_ACT_PAGE_UP: tui_list_page(l, -1); return true;
    case TUI_ACT_PAGE_DOWN: tui_list_page(l, 1); return true;
    case TUI_ACT_TOP: tui_list_home(l); return true;
    case TUI_ACT_BOTTOM: tui_list_end(l); return true;
    case TUI_ACT_SORT: tui_list_sort_next(l); return true;
    case TUI_ACT_REVERSE: tui_list_sort_by(l, l->sort_col, !l->sort_desc); return true;
    case TUI_ACT_FILTER:
        l->filtering = true;
        tui_edit_set(&l->filter_edit, l->filter);
        return true;
    default:
        return false;
    }
}

void tui_list_layout(const tui_column *cols, size_t ncols, int width, int *widths)
{
    if (ncols == 0)
        return;
    int avail = width - (int)(ncols - 1);   /* one space between columns */
    int fixed = 0, flex_total = 0;
    for (size_t c = 0; c < ncols; c++) {
        widths[c] = cols[c].width > 0 ? cols[c].width : 0;
        fixed += widths[c];
        flex_total += cols[c].flex > 0 ? cols[c].flex : 0;
    }
    if (avail < 0)
        avail = 0;
    if (fixed <= avail) {
        int extra = avail - fixed, given = 0;
        long last_flex = -1;
        for (size_t c = 0; c < ncols; c++)
            if (cols[c].flex > 0) {
                int add = flex_total ? extra * cols[c].flex / flex_total : 0;
                widths[c] += add;
                given += add;
                last_flex = (long)c;
            }
        if (last_flex >= 0)
            widths[last_flex] += extra - given;   /* rounding remainder */
        return;
    }
    /* too narrow: shrink from the right; a hidden column also frees its separator */
    int over = fixed - avail;
    for (long c = (long)ncols - 1; c >= 0 && over > 0; c--) {
        int take = widths[c] < over ? widths[c] : over;
        widths[c] -= take;
        over -= take;
        if (widths[c] == 0 && c > 0)
            over -= 1;
    }
    if (over < 0) {                     /* freed separators gave room back */
        for (size_t c = 0; c < ncols; c++)
            if (widths[c] > 0) {
                long last = (long)c;
                for (size_t d = c + 1; d < ncols; d++)
                    if (widths[d] > 0)
                        last = (long)d;
                widths[last] += -over;
                break;
            }
    }
}
