/* The log view: the ring's bounds (lines and bytes, oldest dropped and
 * counted), follow mode (stops on scrolling up, resumes with F/End), wrap
 * and timestamps in the row math, search with n/N wrapping around. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "keys.h"
#include "logview.h"

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");

    /* --- ring bounds --- */
    tui_logring r;
    tui_logring_init(&r, 3, 1000);
    for (int i = 0; i < 5; i++) {
        char line[16];
        snprintf(line, sizeof line, "line %d", i);
        tui_logring_push(&r, line, strlen(line), i);
    }
    CHECK_INT(tui_logring_count(&r), 3);
    CHECK_INT(r.dropped, 2);
    CHECK_STR(tui_logring_get(&r, 0)->text, "line 2");
    CHECK_STR(tui_logring_get(&r, 2)->text, "line 4");
    CHECK(tui_logring_get(&r, 3) == NULL);
    CHECK_INT(r.first_seq, 2);
    tui_logring_clear(&r);

    tui_logring_init(&r, 100, 20);                  /* the byte bound */
    tui_logring_push(&r, "0123456789", 10, 0);
    tui_logring_push(&r, "abcdefghij", 10, 0);
    CHECK_INT(r.bytes, 20);
    tui_logring_push(&r, "X", 1, 0);
    CHECK_INT(tui_logring_count(&r), 2);
    CHECK_INT(r.dropped, 1);
    CHECK_INT(r.bytes, 11);
    tui_logring_push(&r, "this line alone is longer than the whole ring", 45, 0);
    CHECK_INT(tui_logring_count(&r), 1);            /* cut to fit, everything else dropped */
    CHECK_INT(r.bytes, 20);
    CHECK_INT(strlen(tui_logring_get(&r, 0)->text), 20);
    CHECK_INT(r.dropped, 3);
    tui_logring_clear(&r);

    tui_logring_init(&r, 10, 1000);
    tui_logring_push_text(&r, "one\ntwo\n\x1b[32mthree\x1b[0m\n", 0);
    CHECK_INT(tui_logring_count(&r), 3);            /* the final newline adds no line */
    CHECK_STR(tui_logring_get(&r, 2)->text, "three");
    tui_logring_push_text(&r, "", 0);
    CHECK_INT(tui_logring_count(&r), 4);            /* an empty line is a line */
    CHECK_INT(tui_logring_find(&r, "TWO", -1, 1), 1);
    CHECK_INT(tui_logring_find(&r, "o", 1, 1), 0);   /* wraps around: after two comes one */
    CHECK_INT(tui_logring_find(&r, "o", 0, -1), 1);
    CHECK_INT(tui_logring_find(&r, "zzz", 0, 1), -1);
    tui_logring_clear(&r);

    /* --- view: follow --- */
    tui_logview v;
    tui_logview_init(&v, 1000, 1 << 20);
    tui_logview_set_size(&v, 20, 5);
    for (int i = 0; i < 50; i++) {
        char line[32];
        snprintf(line, sizeof line, "line %02d", i);
        tui_logview_append(&v, line, 1700000000 + i);
    }
    CHECK(v.follow);
    CHECK_INT(tui_logview_first_index(&v), 45);     /* the last five lines show */
    CHECK(tui_logview_at_bottom(&v));
    tui_logview_handle(&v, 'k', TUI_ACT_UP);        /* scrolling up stops following */
    CHECK(!v.follow);
    CHECK_INT(tui_logview_first_index(&v), 44);
    tui_logview_append(&v, "line 50", 0);
    CHECK_INT(tui_logview_first_index(&v), 44);     /* stays put while paused */
    CHECK(!tui_logview_at_bottom(&v));
    tui_logview_handle(&v, TUI_KEY_PGUP, TUI_ACT_PAGE_UP);
    CHECK_INT(tui_logview_first_index(&v), 40);
    tui_logview_handle(&v, 'g', TUI_ACT_TOP);
    CHECK_INT(tui_logview_first_index(&v), 0);
    tui_logview_scroll(&v, 1000);                   /* never past the last page */
    CHECK_INT(tui_logview_first_index(&v), 46);
    CHECK(!v.follow);
    tui_logview_handle(&v, 'F', TUI_ACT_FOLLOW);
    CHECK(v.follow);
    tui_logview_append(&v, "line 51", 0);
    CHECK_INT(tui_logview_first_index(&v), 47);
    char status[256];
    tui_logview_status(&v, status, sizeof status);
    CHECK(strstr(status, "follow") == status);
    CHECK(strstr(status, "52 lines") != NULL);

    /* --- wrap and timestamps change the row math --- */
    tui_logview_reset(&v);
    tui_logview_append(&v, "0123456789012345678901234567890123456789012345", 0);   /* 46 cols */
    CHECK_INT(tui_logview_line_rows(&v, 0), 1);
    tui_logview_handle(&v, 'w', TUI_ACT_WRAP);
    CHECK_INT(tui_logview_line_rows(&v, 0), 3);     /* 46 / 20 */
    tui_logview_handle(&v, 't', TUI_ACT_TIMESTAMPS);
    CHECK_INT(tui_logview_line_rows(&v, 0), 3);     /* 55 / 20 */
    char prefix[32];
    tui_logview_prefix(&v, tui_logring_get(&v.ring, 0), prefix, sizeof prefix);
    CHECK_INT(strlen(prefix), 9);                   /* "HH:MM:SS " */
    for (int i = 0; i < 3; i++)
        tui_logview_append(&v, "short", 0);
    /* rows: 3 + 1 + 1 + 1 = 6 > 5: following shows the long line from its second row */
    CHECK_INT(tui_logview_first_index(&v), 0);
    CHECK_INT(v.top_sub, 1);
    tui_logview_handle(&v, 'k', TUI_ACT_UP);
    CHECK_INT(v.top_sub, 0);
    tui_logview_status(&v, status, sizeof status);
    CHECK(strstr(status, "paused") != NULL);
    CHECK(strstr(status, "wrap time") != NULL);

    /* --- search --- */
    tui_logview_reset(&v);
    v.wrap = false;
    for (int i = 0; i < 30; i++)
        tui_logview_append(&v, i % 10 == 3 ? "ERROR: disk full" : "ok", 0);
    tui_logview_top(&v);
    CHECK(tui_logview_handle(&v, '/', TUI_ACT_SEARCH));
    tui_ctx chain[2];
    CHECK_INT(tui_logview_contexts(&v, chain), 2);
    CHECK_INT(chain[0], TUI_CTX_EDIT);
    for (const char *p = "error"; *p; p++)
        tui_logview_handle(&v, *p, TUI_ACT_NONE);
    tui_logview_handle(&v, TUI_KEY_ENTER, TUI_ACT_ACCEPT);
    CHECK(!v.searching);
    CHECK_STR(v.search, "error");
    CHECK_INT(v.match, 3);
    CHECK(!v.follow);
    tui_logview_handle(&v, 'n', TUI_ACT_NEXT_MATCH);
    CHECK_INT(v.match, 13);
    tui_logview_status(&v, status, sizeof status);
    CHECK(strstr(status, "/error 2 of 3") != NULL);
    tui_logview_handle(&v, 'n', TUI_ACT_NEXT_MATCH);
    tui_logview_handle(&v, 'n', TUI_ACT_NEXT_MATCH);  /* wraps to the first */
    CHECK_INT(v.match, 3);
    tui_logview_handle(&v, 'N', TUI_ACT_PREV_MATCH);
    CHECK_INT(v.match, 23);
    CHECK(!tui_logview_search(&v, "nowhere"));
    CHECK(strstr(v.note, "no match") != NULL);
    CHECK(tui_logview_search(&v, "DISK"));

    /* dropping old lines shifts the match */
    tui_logview_clear(&v);
    tui_logview_init(&v, 10, 1 << 20);
    tui_logview_set_size(&v, 20, 5);
    for (int i = 0; i < 10; i++)
        tui_logview_append(&v, i == 5 ? "needle" : "hay", 0);
    CHECK(tui_logview_search(&v, "needle"));
    CHECK_INT(v.match, 5);
    tui_logview_append(&v, "hay", 0);
    tui_logview_append(&v, "hay", 0);
    CHECK_INT(v.match, 3);
    CHECK_STR(tui_logring_get(&v.ring, (size_t)v.match)->text, "needle");
    tui_logview_clear(&v);
    return check_done();
}
