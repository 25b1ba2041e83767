/* Forms and the line editor: editing with cursor movement, Home/End, C-u,
 * C-w, Backspace, UTF-8; horizontal scrolling; field kinds; validation
 * (required, number range, callback) with inline messages, wrapped under
 * the field by the width (a long one across the whole width, at most
 * TUI_FORM_MSG_ROWS rows); navigation and submit. */
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

static bool long_rule(const tui_form *f, const tui_field *fl, const char *v, char *msg, size_t size, void *ud)
{
    (void)f;
    (void)fl;
    (void)ud;
    if (strcmp(v, "bad") == 0)
        snprintf(msg, size, "must match ^arn:aws[a-z-]*:iam::[0-9]{12}:role/?[A-Za-z0-9_+=,.@/-]+$ (API model "
                            "RoleArn): 'bad' (not an ARN)");
    else if (strcmp(v, "huge") == 0)
        for (size_t i = 0; i + 1 < size; i++)
            msg[i] = i % 7 == 6 ? ' ' : 'x', msg[i + 1] = '\0';
    else if (strcmp(v, "short") == 0)
        snprintf(msg, size, "too short");
    else
        return true;
    return false;
}

static void form_type(tui_form *f, const char *s)
{
    for (; *s; s++)
        tui_form_handle(f, (unsigned char)*s, TUI_ACT_NONE);
}

/* Values from elsewhere (tui_form_set_from): the mark holds while the value is unchanged, and
 * the line per origin that screens show where the inline mark does not fit. */
static void test_origins(void)
{
    tui_form f;
    tui_form_init(&f);
    tui_form_add_text(&f, "repo", "Repository", "", true, NULL, NULL);
    tui_form_add_text(&f, "ep", "Code: entry point", "", false, NULL, NULL);
    tui_form_add_text(&f, "role", "Execution role", "", false, NULL, NULL);
    tui_form_add_text(&f, "tag", "Tag", "", false, NULL, NULL);
    char buf[256];
    tui_form_origins_text(&f, buf, sizeof buf);
    CHECK_STR(buf, "");
    tui_form_set_from(&f, "repo", "amazon-braket-x", "last push");
    tui_form_set_from(&f, "ep", "julia/main.jl", "byoc.json");
    tui_form_set_from(&f, "role", "arn:aws:iam::1:role/r", "byoc.json");
    tui_form_set_value(&f, "tag", "v1");
    CHECK_STR(tui_form_origin(&f, tui_form_field(&f, "repo")), "last push");
    CHECK(tui_form_origin(&f, tui_form_field(&f, "tag")) == NULL);
    tui_form_origins_text(&f, buf, sizeof buf);
    CHECK_STR(buf, "From last push: Repository\nFrom byoc.json: entry point, Execution role");
    tui_form_set_value(&f, "role", "arn:aws:iam::1:role/mine");   /* changed: the user's own */
    CHECK(tui_form_origin(&f, tui_form_field(&f, "role")) == NULL);
    tui_form_origins_text(&f, buf, sizeof buf);
    CHECK_STR(buf, "From last push: Repository\nFrom byoc.json: entry point");
    tui_form_set_value(&f, "role", "arn:aws:iam::1:role/r");      /* back to what it brought: marked again */
    tui_form_set_from(&f, "repo", "amazon-braket-x", NULL);       /* no origin: no mark */
    tui_form_origins_text(&f, buf, sizeof buf);
    CHECK_STR(buf, "From byoc.json: entry point, Execution role");
    tui_form_clear(&f);
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
    tui_edit_clear(&e);

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
    tui_form_clear(&f);

    /* messages wrap under their field; the lines count them at the form's width */
    tui_form_init(&f);
    size_t role = tui_form_add_text(&f, "role", "Role ARN", "bad", false, long_rule, NULL);
    tui_form_add_text(&f, "next", "Next", "", false, NULL, NULL);
    CHECK(!tui_form_validate_field(&f, role));
    CHECK(strstr(f.fields[role].msg, "(not an ARN)") != NULL);   /* kept whole, not cut at 160 bytes */
    CHECK_INT(tui_form_lines(&f), 3);                             /* no width yet: one row per message */
    int dx, w;
    int rows = tui_form_msg_box(&f, role, 60, &dx, &w);
    CHECK_INT(dx, 2);                                             /* too long for the value column */
    CHECK_INT(w, 58);
    CHECK(rows >= 2 && rows <= TUI_FORM_MSG_ROWS);
    CHECK_INT(tui_form_lines_at(&f, 60), 2 + rows);
    CHECK_INT(tui_form_field_lines(&f, role), 1 + rows);
    CHECK_INT(tui_form_lines_at(&f, 200), 3);                     /* wide: one row */
    CHECK_INT(tui_form_msg_box(&f, 1, 60, &dx, &w), 0);            /* no message, no rows */
    tui_form_set_value(&f, "role", "short");
    tui_form_validate_field(&f, role);
    CHECK_INT(tui_form_msg_box(&f, role, 60, &dx, &w), 1);
    CHECK_INT(dx, tui_form_label_columns(&f, 60) + 1);            /* a short one stays under the value */
    tui_form_set_value(&f, "role", "huge");
    tui_form_validate_field(&f, role);
    CHECK_INT(tui_form_msg_box(&f, role, 60, &dx, &w), TUI_FORM_MSG_ROWS);   /* capped: the rest is cut */
    /* the focus and its whole message stay in view */
    tui_form_lines_at(&f, 60);
    tui_form_focus(&f, 1);
    tui_form_scroll(&f, 3);
    CHECK_INT(f.top, 1 + TUI_FORM_MSG_ROWS + 1 - 3);
    tui_form_focus(&f, role);
    tui_form_scroll(&f, 3);                                       /* taller than the room: the field shows */
    CHECK_INT(f.top, 0);
    tui_form_clear(&f);
    test_origins();
    return check_done();
}
