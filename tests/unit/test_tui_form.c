/* Forms and the line editor: editing with cursor movement, Home/End, C-u,
 * C-w, Backspace, UTF-8; horizontal scrolling; field kinds; validation
 * (required, number range, callback) with inline messages; navigation and
 * submit. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "editline.h"
#include "form.h"
#include "keys.h"

static void type(tui_edit *e, const char *s)
{
    for (; *s; s++)
        tui_edit_key(e, (unsigned char)*s, TUI_ACT_NONE);
}

static bool no_spaces(const tui_form *f, const tui_field *fl, const char *v, char *msg, size_t size, void *ud)
{
    (void)f;
    (void)fl;
    (*(int *)ud)++;
    if (strchr(v, ' ')) {
        snprintf(msg, size, "no spaces allowed");
        return false;
    }
    return true;
}

static void form_type(tui_form *f, const char *s)
{
    for (; *s; s++)
        tui_form_handle(f, (unsigned char)*s, TUI_ACT_NONE);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");

    /* --- the line editor --- */
    tui_edit e;
    tui_edit_init(&e, "hello");
    CHECK_INT(e.cursor, 5);
    tui_edit_action(&e, TUI_ACT_LINE_START);
    type(&e, ">");
    CHECK_STR(tui_edit_text(&e), ">hello");
    tui_edit_action(&e, TUI_ACT_LINE_END);
    tui_edit_action(&e, TUI_ACT_CURSOR_LEFT);
    tui_edit_action(&e, TUI_ACT_DELETE_BACK);
    CHECK_STR(tui_edit_text(&e), ">helo");
    tui_edit_action(&e, TUI_ACT_DELETE);
    CHECK_STR(tui_edit_text(&e), ">hel");
    tui_edit_action(&e, TUI_ACT_DELETE);                      /* at the end: nothing */
    CHECK_STR(tui_edit_text(&e), ">hel");
    tui_edit_key(&e, 0xE9, TUI_ACT_NONE);                     /* é, two bytes */
    CHECK_STR(tui_edit_text(&e), ">hel\xc3\xa9");
    CHECK_INT(tui_edit_cursor_col(&e), 5);
    tui_edit_action(&e, TUI_ACT_CURSOR_LEFT);                 /* over the whole character */
    CHECK_INT(e.cursor, 4);
    tui_edit_action(&e, TUI_ACT_CURSOR_RIGHT);
    tui_edit_action(&e, TUI_ACT_DELETE_BACK);
    CHECK_STR(tui_edit_text(&e), ">hel");
    type(&e, " world  foo");
    tui_edit_action(&e, TUI_ACT_KILL_WORD);
    CHECK_STR(tui_edit_text(&e), ">hel world  ");
    tui_edit_action(&e, TUI_ACT_KILL_WORD);
    CHECK_STR(tui_edit_text(&e), ">hel ");
    tui_edit_action(&e, TUI_ACT_CURSOR_LEFT);
    tui_edit_action(&e, TUI_ACT_KILL_LINE);                   /* C-u: start..cursor */
    CHECK_STR(tui_edit_text(&e), " ");
    CHECK_INT(e.cursor, 0);
    CHECK(!tui_edit_key(&e, TUI_KEY_CTRL('x'), TUI_ACT_NONE));  /* control keys are not text */
    CHECK(!tui_edit_action(&e, TUI_ACT_HELP));
    e.max_len = 4;
    tui_edit_set(&e, "");
    type(&e, "abcdef");
    CHECK_STR(tui_edit_text(&e), "abcd");

    /* horizontal scrolling keeps the cursor in the field */
    e.max_len = 0;
    tui_edit_set(&e, "0123456789abcdefghij");
    int cx;
    size_t start = tui_edit_view(&e, 10, &cx);
    CHECK_INT(cx, 9);
    CHECK_STR(tui_edit_text(&e) + start, "bcdefghij");
    tui_edit_action(&e, TUI_ACT_LINE_START);
    start = tui_edit_view(&e, 10, &cx);
    CHECK_INT(start, 0);
    CHECK_INT(cx, 0);
    for (int i = 0; i < 12; i++)
        tui_edit_action(&e, TUI_ACT_CURSOR_RIGHT);
    start = tui_edit_view(&e, 10, &cx);
    CHECK(cx >= 0 && cx < 10);
    CHECK_INT(start + (size_t)cx, 12);
    tui_edit_set(&e, "short");                                /* shrinking text scrolls back */
    start = tui_edit_view(&e, 10, &cx);
    CHECK_INT(start, 0);
    CHECK_INT(cx, 5);
    tui_edit_free(&e);

    /* --- forms --- */
    int calls = 0;
    tui_form f;
    tui_form_init(&f);
    size_t name = tui_form_add_text(&f, "job_name", "Job name", "", true, no_spaces, &calls);
    tui_form_add_choice(&f, "arch", "Architecture", (const char *[]){"amd64", "arm64"}, 2, 0);
    size_t count = tui_form_add_number(&f, "count", "Instance count", 1, 1, 10, true);
    tui_form_add_toggle(&f, "local", "Run locally", false);
    tui_form_add_text(&f, "note", "Note", "", false, NULL, NULL);
    CHECK_INT(f.count, 5);
    CHECK_INT(f.label_width, 14);

    tui_ctx chain[3];
    CHECK_INT(tui_form_contexts(&f, chain), 2);
    CHECK_INT(chain[0], TUI_CTX_EDIT);
    CHECK_INT(chain[1], TUI_CTX_FORM);

    /* submitting an empty required field: refused, message inline, focus there */
    tui_form_focus(&f, 3);
    CHECK_INT(tui_form_handle(&f, TUI_KEY_CTRL('s'), TUI_ACT_SUBMIT), TUI_FORM_INVALID);
    CHECK_INT(f.focus, name);
    CHECK_STR(f.fields[name].msg, "required");
    CHECK_INT(tui_form_lines(&f), 6);                         /* the message takes a line */
    CHECK_INT(calls, 0);                                      /* the callback runs after the built-ins */
    form_type(&f, "my job");
    CHECK_STR(f.fields[name].msg, "no spaces allowed");       /* re-checked live once shown */
    CHECK(calls > 0);
    tui_form_handle(&f, 0, TUI_ACT_DELETE_BACK);
    tui_form_handle(&f, 0, TUI_ACT_DELETE_BACK);
    tui_form_handle(&f, 0, TUI_ACT_DELETE_BACK);
    tui_form_handle(&f, 0, TUI_ACT_DELETE_BACK);
    form_type(&f, "-job");
    CHECK_STR(tui_form_value(&f, "job_name"), "my-job");
    CHECK_STR(f.fields[name].msg, "");
    CHECK_INT(tui_form_lines(&f), 5);

    /* navigation */
    CHECK_INT(tui_form_handle(&f, TUI_KEY_TAB, TUI_ACT_NEXT_FIELD), TUI_FORM_HANDLED);
    CHECK_INT(f.focus, 1);
    CHECK_INT(tui_form_contexts(&f, chain), 2);
    CHECK_INT(chain[0], TUI_CTX_CHOICE);
    CHECK_INT(tui_form_handle(&f, 'l', TUI_ACT_CHOICE_NEXT), TUI_FORM_HANDLED);
    CHECK_STR(tui_form_value(&f, "arch"), "arm64");
    tui_form_handle(&f, 'l', TUI_ACT_CHOICE_NEXT);           /* wraps */
    CHECK_STR(tui_form_value(&f, "arch"), "amd64");
    tui_form_handle(&f, 'h', TUI_ACT_CHOICE_PREV);
    CHECK_STR(tui_form_value(&f, "arch"), "arm64");
    CHECK_INT(tui_form_handle(&f, 'x', TUI_ACT_NONE), TUI_FORM_IGNORED);   /* no text in a choice */
    tui_form_handle(&f, TUI_KEY_ENTER, TUI_ACT_ACCEPT);       /* Enter: next field */
    CHECK_INT(f.focus, count);

    /* number field: digits only, range checked */
    tui_form_handle(&f, 0, TUI_ACT_DELETE_BACK);
    form_type(&f, "1x2");
    CHECK_STR(tui_form_value(&f, "count"), "12");
    CHECK(!tui_form_validate_field(&f, count));
    CHECK_STR(f.fields[count].msg, "must be between 1 and 10");
    tui_form_handle(&f, 0, TUI_ACT_LINE_START);
    form_type(&f, "-");
    CHECK_STR(tui_form_value(&f, "count"), "-12");
    tui_form_handle(&f, 0, TUI_ACT_LINE_START);
    form_type(&f, "-");                                       /* a second '-' is refused */
    tui_form_handle(&f, 0, TUI_ACT_LINE_END);
    form_type(&f, "-");                                       /* and so is one after a digit */
    CHECK_STR(tui_form_value(&f, "count"), "-12");
    tui_form_set_value(&f, "count", "4");
    CHECK(tui_form_validate_field(&f, count));
    CHECK_STR(f.fields[count].msg, "");

    tui_form_handle(&f, TUI_KEY_DOWN, TUI_ACT_NEXT_FIELD);
    tui_form_handle(&f, ' ', TUI_ACT_CHOICE_NEXT);            /* a toggle flips */
    CHECK_STR(tui_form_value(&f, "local"), "true");
    tui_form_handle(&f, TUI_KEY_UP, TUI_ACT_PREV_FIELD);
    CHECK_INT(f.focus, count);
    tui_form_handle(&f, TUI_KEY_TAB, TUI_ACT_NEXT_FIELD);
    tui_form_handle(&f, TUI_KEY_TAB, TUI_ACT_NEXT_FIELD);
    tui_form_handle(&f, TUI_KEY_TAB, TUI_ACT_NEXT_FIELD);     /* stays on the last */
    CHECK_INT(f.focus, 4);
    /* Enter on the last field submits; an empty optional field is fine */
    CHECK_INT(tui_form_handle(&f, TUI_KEY_ENTER, TUI_ACT_ACCEPT), TUI_FORM_SUBMIT);
    CHECK(tui_form_set_value(&f, "local", "off"));
    CHECK_STR(tui_form_value(&f, "local"), "false");
    CHECK(!tui_form_set_value(&f, "local", "maybe"));
    CHECK(!tui_form_set_value(&f, "arch", "sparc"));
    CHECK(tui_form_value(&f, "missing") == NULL);

    /* vertical scrolling keeps the focus visible */
    tui_form_focus(&f, 4);
    tui_form_scroll(&f, 2);
    CHECK_INT(f.top, 3);
    tui_form_focus(&f, 0);
    tui_form_scroll(&f, 2);
    CHECK_INT(f.top, 0);
    tui_form_free(&f);
    return check_done();
}
