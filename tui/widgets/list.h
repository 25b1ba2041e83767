/* list: a scrolling table with columns, selection, sorting and a `/` filter.
 *
 * The model (this header's first part, list.c) is pure: rows of text cells,
 * the visible view after filtering (case-insensitive substring over all
 * cells) and sorting (by a column, text or numeric with size units,
 * stable), the selection and the scroll position, and the column width
 * layout (fixed and flex columns, shrinking from the right when narrow).
 * Drawing and key handling for the screen are in list_draw.c.
 *
 * Usage from a screen:
 *     static const tui_column cols[] = {{"Name", 12, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT}, ...};
 *     tui_list_init(&s->list, cols, 3);
 *     tui_list_add(&s->list, (const char *[]){"a", "b", "c"}, data);
 *     in key():  if (tui_list_handle(&s->list, ev->key, ev->action)) ...
 *     in draw(): tui_list_draw(&s->list, win, rect, focused);
 *     focus contexts: tui_list_contexts(&s->list, chain) (EDIT first while the filter is typed). */
#ifndef BYOC_TUI_LIST_H
#define BYOC_TUI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"
#include "draw.h"
#include "editline.h"

typedef enum { TUI_ALIGN_LEFT, TUI_ALIGN_RIGHT } tui_align;
typedef enum {
    TUI_SORT_TEXT,      /* case-insensitive */
    TUI_SORT_NUMBER,    /* leading number with an optional unit: "1.5 GiB", "20 MB", "3s" */
    TUI_SORT_NONE,      /* the column is not offered by `sort` */
} tui_sort_kind;

typedef struct tui_column {
    const char *title;
    int width;          /* fixed width, or the minimum width of a flex column */
    int flex;           /* 0: fixed; > 0: weight in sharing the remaining width */
    tui_align align;
    tui_sort_kind sort;
} tui_column;

typedef struct tui_list_row {
    char **cells;       /* sanitized copies */
    void *data;
} tui_list_row;

typedef struct tui_list {
    tui_column *cols;
    size_t ncols;
    tui_list_row *rows;
    size_t nrows, cap;
    size_t *view;       /* row indices, filtered and sorted */
    size_t nview;
    long sel;           /* index into view; -1 when the view is empty */
    size_t top;         /* first view index shown */
    int height;         /* data rows on screen */
    char *filter;       /* "" for none */
    int sort_col;       /* -1: insertion order */
    bool sort_desc;
    bool stale;         /* view needs recomputing */
    bool narrowing;     /* only the filter grew since the view was right: refilter the view */
    bool filtering;     /* the filter is being typed */
    tui_edit filter_edit;
    const char *empty_text;     /* shown when there are no rows at all */
    void (*data_free)(void *);  /* frees row data on reset/clear, or NULL */
} tui_list;

void tui_list_init(tui_list *l, const tui_column *cols, size_t ncols);
/* Release rows, columns and filter: the list needs tui_list_init before its next use. */
void tui_list_clear(tui_list *l);
/* Append a row (ncols cells, NULL cells are ""); returns its row index. */
size_t tui_list_add(tui_list *l, const char *const *cells, void *data);
void tui_list_set_cell(tui_list *l, size_t row, size_t col, const char *text);
/* Remove all rows (keeps columns, filter and sort). */
void tui_list_reset(tui_list *l);

void tui_list_set_filter(tui_list *l, const char *text);
/* Sort by col (-1: insertion order). */
void tui_list_sort_by(tui_list *l, int col, bool desc);
/* Next sortable column (after the last: back to insertion order). */
void tui_list_sort_next(tui_list *l);

/* Rows visible after the filter, and all rows. */
size_t tui_list_visible(tui_list *l);
/* Row index (into rows) shown at view position i, or -1. */
long tui_list_view_row(tui_list *l, size_t i);
/* "3 of 10" while a filter is set, else "10". */
void tui_list_count_text(tui_list *l, char *buf, size_t size);

void tui_list_set_height(tui_list *l, int height);
void tui_list_move(tui_list *l, long delta);
void tui_list_page(tui_list *l, int pages);
void tui_list_home(tui_list *l);
void tui_list_end(tui_list *l);
/* The selected row index into rows, or -1; its data. */
long tui_list_selected(tui_list *l);
void *tui_list_selected_data(tui_list *l);
/* Select the view position showing row; false if it is filtered out. */
bool tui_list_select_row(tui_list *l, size_t row);

/* Actions: up, down, page-up/down, top, bottom, sort, reverse, filter (which
 * starts typing the filter); while filtering: text keys and edit actions,
 * accept keeps the filter, cancel clears it. Returns true when handled.
 * `open` is left to the screen. */
bool tui_list_handle(tui_list *l, int key, tui_action_id act);
/* The focus contexts for action lookup, most specific first, into out
 * (room for 2): EDIT while the filter is typed, then LIST. Returns the count. */
size_t tui_list_contexts(const tui_list *l, tui_ctx *out);

/* Column layout: widths for `width` columns of screen, one space between
 * columns. Fixed columns get their width, flex columns share the rest by
 * weight (at least their minimum); when too narrow, columns shrink from the
 * right (to 0 = hidden). */
void tui_list_layout(const tui_column *cols, size_t ncols, int width, int *widths);
/* The numeric sort key of a cell ("1.5 GiB" -> 1610612736); NaN-free: cells
 * without a number give -1e300 (sorted first ascending). */
double tui_list_number_key(const char *s);

/* Drawing (list_draw.c). rect: where; focused: selection in the focus style.
 * A header line, the rows, and a footer line with the filter and "n of m"
 * while a filter is set or typed. Sets the list's height. */
void tui_list_draw(tui_list *l, WINDOW *win, tui_rect rect, bool focused);
/* Where tui_list_draw(l, .., rect, ..) put the selected row (h 0 when it
 * shows none): what a question about the selection must not cover. */
tui_rect tui_list_selected_rect(const tui_list *l, tui_rect rect);

#endif
