/* The notes of cut texts (whole.h): one area's notes go when it is
 * redrawn, the others stay; a text is noted once; the message area comes
 * first; tui_whole_fit notes only what it cut, with the fuller text when
 * given. */
#include <curses.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "whole.h"

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    const char *title, *text;

    CHECK_INT(tui_whole_count(), 0);
    tui_whole_begin(TUI_WHOLE_CONTENT);
    tui_whole_note("Build", "Failed at step 2/3: the command returned 3");
    tui_whole_note("Again", "Failed at step 2/3: the command returned 3");   /* once */
    tui_whole_note("Empty", "");
    tui_whole_note("Run", "Ready: e edits the form, s reviews the request before sending");
    CHECK_INT(tui_whole_count(), 2);
    tui_whole_begin(TUI_WHOLE_MESSAGE);
    tui_whole_note("Message", "unknown command: a long one");
    CHECK_INT(tui_whole_count(), 3);
    CHECK(tui_whole_get(0, &title, &text));                 /* the message first */
    CHECK_STR(title, "Message");
    CHECK(tui_whole_get(1, &title, &text));
    CHECK_STR(title, "Build");
    CHECK(tui_whole_get(2, &title, &text));
    CHECK_STR(text, "Ready: e edits the form, s reviews the request before sending");
    CHECK(!tui_whole_get(3, &title, &text));
    CHECK(tui_whole_has("unknown command: a long one"));
    CHECK(!tui_whole_has("something else"));
    tui_whole_begin(TUI_WHOLE_CONTENT);                      /* the content is redrawn: its notes go */
    CHECK_INT(tui_whole_count(), 1);
    CHECK(tui_whole_get(0, &title, &text));
    CHECK_STR(title, "Message");
    for (int i = 0; i < 40; i++) {                           /* bounded */
        char t[32];
        snprintf(t, sizeof t, "text %d", i);
        tui_whole_note("Many", t);
    }
    CHECK(tui_whole_count() < 40);
    tui_whole_clear();
    CHECK_INT(tui_whole_count(), 0);

    /* tui_whole_fit: a text that fits is not noted; a cut one is, or the fuller text given */
    WINDOW *win = NULL;           /* no terminal here: curses refuses a NULL window, the notes are checked */
    tui_whole_begin(TUI_WHOLE_CONTENT);
    CHECK_INT(tui_whole_fit(win, 0, 0, 20, TUI_STY_NORMAL, "Short", "fits", NULL), 4);
    CHECK_INT(tui_whole_count(), 0);
    CHECK_INT(tui_whole_fit(win, 1, 0, 10, TUI_STY_NORMAL, "Long", "this line is longer than ten", NULL), 10);
    CHECK(tui_whole_has("this line is longer than ten"));
    tui_whole_fit(win, 2, 0, 10, TUI_STY_NORMAL, "Failed", "Failed at step 2/3", "Failed at step 2/3\nStep 2/3 : RUN x");
    CHECK(tui_whole_has("Failed at step 2/3\nStep 2/3 : RUN x"));
    CHECK(!tui_whole_has("Failed at step 2/3"));
    tui_whole_clear();

    return check_done();
}
