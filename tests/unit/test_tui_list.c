/* The list model: filter ("n of m"; its keys, which help shares), sort
 * (text, numeric with units, stable, reversed), selection kept across
 * changes, scroll math, column layout. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filter.h"
#include "keys.h"
#include "list.h"

static const tui_column cols[] = {
    {"Repository", 10, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Tag", 8, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Size", 9, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
};

static const char *cell(tui_list *l, size_t view_index, size_t col)
{
    long r = tui_list_view_row(l, view_index);
    return r < 0 ? "(none)" : l->rows[r].cells[col];
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    tui_list l;
    tui_list_init(&l, cols, 3);
    CHECK_INT(tui_list_visible(&l), 0);
    CHECK_INT(tui_list_selected(&l), -1);
    tui_list_move(&l, 1);                                    /* harmless when empty */

    tui_list_add(&l, (const char *[]){"braket-base", "latest", "1.5 GiB"}, NULL);
    tui_list_add(&l, (const char *[]){"amazon-braket-algo", "v2", "300 MiB"}, NULL);
    tui_list_add(&l, (const char *[]){"Amazon-braket-algo", "v1", "2 GiB"}, NULL);
    tui_list_add(&l, (const char *[]){"scratch", "dev", "900 KiB"}, NULL);
    tui_list_add(&l, (const char *[]){"busybox\x1b[1m", NULL, "1 MB"}, NULL);
    CHECK_INT(tui_list_visible(&l), 5);
    CHECK_STR(l.rows[4].cells[0], "busybox");                /* escapes never reach the screen */
    CHECK_STR(l.rows[4].cells[1], "");
    CHECK_INT(tui_list_selected(&l), 0);

    char count[32];
    tui_list_count_text(&l, count, sizeof count);
    CHECK_STR(count, "5");
    tui_list_set_filter(&l, "BRAKET");
    CHECK_INT(tui_list_visible(&l), 3);
    tui_list_count_text(&l, count, sizeof count);
    CHECK_STR(count, "3 of 5");
    tui_list_set_filter(&l, "v1");                            /* any column */
    CHECK_INT(tui_list_visible(&l), 1);
    CHECK_STR(cell(&l, 0, 1), "v1");
    tui_list_set_filter(&l, "nothing");
    CHECK_INT(tui_list_visible(&l), 0);
    CHECK_INT(tui_list_selected(&l), -1);
    tui_list_set_filter(&l, "");
    CHECK_INT(tui_list_visible(&l), 5);

    /* text sort: case-insensitive, stable (insertion order breaks ties) */
    tui_list_sort_by(&l, 0, false);
    CHECK_STR(cell(&l, 0, 1), "v1");                          /* equal ignoring case: "A" < "a" decides */
    CHECK_STR(cell(&l, 1, 1), "v2");
    CHECK_STR(cell(&l, 4, 0), "scratch");
    tui_list_sort_by(&l, 0, true);
    CHECK_STR(cell(&l, 0, 0), "scratch");
    /* numeric sort with units */
    tui_list_sort_by(&l, 2, false);
    CHECK_STR(cell(&l, 0, 2), "900 KiB");
    CHECK_STR(cell(&l, 1, 2), "1 MB");
    CHECK_STR(cell(&l, 2, 2), "300 MiB");
    CHECK_STR(cell(&l, 3, 2), "1.5 GiB");
    CHECK_STR(cell(&l, 4, 2), "2 GiB");
    CHECK(tui_list_number_key("1.5 GiB") == 1.5 * 1073741824.0);
    CHECK(tui_list_number_key("n/a") < -1e299);
    /* sort cycling: next sortable column, then back to insertion order */
    tui_list_sort_by(&l, -1, false);
    tui_list_sort_next(&l);
    CHECK_INT(l.sort_col, 0);
    tui_list_sort_next(&l);
    tui_list_sort_next(&l);
    CHECK_INT(l.sort_col, 2);
    tui_list_sort_next(&l);
    CHECK_INT(l.sort_col, -1);
    CHECK_STR(cell(&l, 0, 0), "braket-base");

    /* the selection follows its row through sorting and filtering */
    tui_list_select_row(&l, 3);                               /* scratch */
    tui_list_sort_by(&l, 2, false);
    CHECK_INT(tui_list_selected(&l), 3);
    tui_list_set_filter(&l, "a");                             /* scratch still matches */
    CHECK_INT(tui_list_selected(&l), 3);
    tui_list_set_filter(&l, "");

    /* typing narrows the shown rows (keeping sort order); deleting widens again;
     * several keys before the next read, and a row added meanwhile, still count */
    tui_list_sort_by(&l, 2, true);                            /* size, largest first */
    tui_list_set_filter(&l, "b");                             /* "KiB" and "MB" too */
    CHECK_INT(tui_list_visible(&l), 5);
    tui_list_set_filter(&l, "br");
    tui_list_set_filter(&l, "bra");
    CHECK_INT(tui_list_visible(&l), 3);
    CHECK_STR(cell(&l, 0, 2), "2 GiB");
    CHECK_STR(cell(&l, 2, 2), "300 MiB");
    tui_list_set_filter(&l, "braket-");
    CHECK_INT(tui_list_visible(&l), 3);
    tui_list_set_filter(&l, "braket-b");
    CHECK_INT(tui_list_visible(&l), 1);
    tui_list_set_filter(&l, "braket-");                       /* widening rebuilds */
    CHECK_INT(tui_list_visible(&l), 3);
    tui_list_set_filter(&l, "braket-a");
    tui_list_add(&l, (const char *[]){"braket-algo-new", "v3", "5 GiB"}, NULL);
    tui_list_set_filter(&l, "braket-al");
    CHECK_INT(tui_list_visible(&l), 3);
    CHECK_STR(cell(&l, 0, 0), "braket-algo-new");
    tui_list_set_filter(&l, "BRAKET-ALGO-N");                 /* case changes still narrow */
    CHECK_INT(tui_list_visible(&l), 1);
    tui_list_set_filter(&l, "");
    tui_list_sort_by(&l, -1, false);

    /* scrolling: 100 rows, 10 on screen */
    tui_list_reset(&l);
    tui_list_sort_by(&l, -1, false);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof name, "row%03d", i);
        tui_list_add(&l, (const char *[]){name, "t", "1"}, (void *)(long)(i + 1));
    }
    tui_list_set_height(&l, 10);
    CHECK_INT(l.sel, 0);
    CHECK_INT(l.top, 0);
    tui_list_move(&l, 9);
    CHECK_INT(l.top, 0);
    tui_list_move(&l, 1);                                     /* one past the page: scrolls one */
    CHECK_INT(l.sel, 10);
    CHECK_INT(l.top, 1);
    tui_list_page(&l, 1);
    CHECK_INT(l.sel, 20);
    CHECK_INT(l.top, 11);
    tui_list_end(&l);
    CHECK_INT(l.sel, 99);
    CHECK_INT(l.top, 90);
    tui_list_page(&l, 1);                                     /* clamped at the end */
    CHECK_INT(l.sel, 99);
    CHECK_INT(l.top, 90);
    tui_list_page(&l, -1);
    CHECK_INT(l.sel, 89);
    CHECK_INT(l.top, 80);
    tui_list_home(&l);
    CHECK_INT(l.sel, 0);
    CHECK_INT(l.top, 0);
    tui_list_move(&l, -5);
    CHECK_INT(l.sel, 0);
    CHECK(tui_list_selected_data(&l) == (void *)1L);
    tui_list_end(&l);
    tui_list_set_height(&l, 30);                              /* a taller window shows more */
    CHECK_INT(l.top, 70);
    /* where the selected row is drawn (under the header): what a question about it must not cover */
    tui_rect drawn = {5, 2, 32, 40};                          /* 30 rows between the header and the footer */
    tui_rect at = tui_list_selected_rect(&l, drawn);
    CHECK_INT(at.y, 5 + 1 + 29);
    CHECK_INT(at.h, 1);
    CHECK_INT(at.x, 2);
    CHECK_INT(at.w, 40);
    tui_list_home(&l);
    CHECK_INT(tui_list_selected_rect(&l, drawn).y, 6);
    l.top = 1;                                                /* scrolled past it: not shown */
    CHECK_INT(tui_list_selected_rect(&l, drawn).h, 0);
    l.top = 0;

    /* keys through actions, and typing a filter */
    tui_list_home(&l);
    CHECK(tui_list_handle(&l, 'j', TUI_ACT_DOWN));
    CHECK_INT(l.sel, 1);
    CHECK(tui_list_handle(&l, '/', TUI_ACT_FILTER));
    tui_ctx chain[2];
    CHECK_INT(tui_list_contexts(&l, chain), 2);
    CHECK_INT(chain[0], TUI_CTX_EDIT);
    CHECK(tui_list_handle(&l, '0', TUI_ACT_NONE));
    CHECK(tui_list_handle(&l, '9', TUI_ACT_NONE));
    CHECK_STR(l.filter, "09");
    tui_list_count_text(&l, count, sizeof count);
    CHECK_STR(count, "11 of 100");                            /* row009 and row090..row099 */
    CHECK(tui_list_handle(&l, 0, TUI_ACT_DELETE_BACK));
    CHECK_STR(l.filter, "0");
    CHECK(tui_list_handle(&l, TUI_KEY_DOWN, TUI_ACT_DOWN));   /* moving still works while typing */
    CHECK(!tui_list_handle(&l, TUI_KEY_CTRL('c'), TUI_ACT_QUIT));
    CHECK(tui_list_handle(&l, TUI_KEY_ENTER, TUI_ACT_ACCEPT));
    CHECK(!l.filtering);
    CHECK_STR(l.filter, "0");
    CHECK_INT(tui_list_contexts(&l, chain), 1);
    tui_list_handle(&l, '/', TUI_ACT_FILTER);
    CHECK(tui_list_handle(&l, TUI_KEY_ESC, TUI_ACT_CANCEL));  /* Esc clears the filter */
    CHECK_STR(l.filter, "");
    CHECK_INT(tui_list_visible(&l), 100);
    CHECK(tui_list_handle(&l, 's', TUI_ACT_SORT));
    CHECK_INT(l.sort_col, 0);
    CHECK(tui_list_handle(&l, 'S', TUI_ACT_REVERSE));
    CHECK(l.sort_desc);
    CHECK(!tui_list_handle(&l, TUI_KEY_ENTER, TUI_ACT_OPEN));  /* open is the screen's */
    tui_list_clear(&l);

    /* column layout */
    int w[3];
    tui_list_layout(cols, 3, 80, w);                          /* flex takes the rest */
    CHECK_INT(w[1], 8);
    CHECK_INT(w[2], 9);
    CHECK_INT(w[0] + w[1] + w[2] + 2, 80);
    static const tui_column two_flex[] = {
        {"a", 4, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT}, {"b", 4, 3, TUI_ALIGN_LEFT, TUI_SORT_TEXT}};
    tui_list_layout(two_flex, 2, 41, w);
    CHECK_INT(w[0] + w[1] + 1, 41);
    CHECK_INT(w[0], 4 + 32 / 4);
    tui_list_layout(cols, 3, 20, w);                          /* narrow: shrinks from the right */
    CHECK_INT(w[0], 10);
    CHECK_INT(w[1], 9);                                       /* the hidden column's separator too */
    CHECK_INT(w[2], 0);
    tui_list_layout(cols, 3, 5, w);
    CHECK_INT(w[0], 5);
    CHECK_INT(w[1] + w[2], 0);
    /* the filter's keys, shared with help (filter.h): Enter keeps the text, Esc clears it */
    tui_edit e;
    tui_edit_init(&e, "");
    bool typing = true;
    CHECK(tui_filter_key(&e, &typing, 'w', TUI_ACT_NONE));
    CHECK(tui_filter_key(&e, &typing, 'r', TUI_ACT_NONE));
    CHECK_STR(tui_edit_text(&e), "wr");
    CHECK(tui_filter_key(&e, &typing, TUI_KEY_BACKSPACE, TUI_ACT_DELETE_BACK));
    CHECK_STR(tui_edit_text(&e), "w");
    CHECK(!tui_filter_key(&e, &typing, TUI_KEY_DOWN, TUI_ACT_DOWN));   /* movement is the owner's */
    CHECK(typing);
    CHECK(tui_filter_key(&e, &typing, TUI_KEY_ENTER, TUI_ACT_ACCEPT));
    CHECK(!typing);
    CHECK_STR(tui_edit_text(&e), "w");                                  /* Enter keeps */
    typing = true;
    CHECK(tui_filter_key(&e, &typing, TUI_KEY_ESC, TUI_ACT_CANCEL));
    CHECK(!typing);
    CHECK_STR(tui_edit_text(&e), "");                                   /* Esc clears */
    tui_edit_clear(&e);
    return check_done();
}
