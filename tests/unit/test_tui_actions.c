/* The action table: it parses, no two actions share a key in one context,
 * lookups walk the context chain, commands resolve by name or prefix, and
 * help (and its `/` filter), hints (chosen by priority, the `whole` key
 * while something is cut) and completion are generated from it. */
#include <stdlib.h>
#include <string.h>

#include "action.h"
#include "check.h"
#include "cmdline.h"
#include "help.h"
#include "hintbar.h"
#include "keys.h"
#include "steps.h"

static void count_name(const char *name, void *ud)
{
    (void)name;
    (*(int *)ud)++;
}

int main(void)
{
    char msg[256] = "";
    int rc = tui_actions_check(msg, sizeof msg);
    if (rc != 0)
        fprintf(stderr, "table: %s\n", msg);
    CHECK_INT(rc, 0);

    /* the property itself, asserted directly: no key twice in one context */
    size_t n;
    const tui_action *t = tui_actions(&n);
    CHECK(n > 40);
    for (size_t i = 0; i < n; i++) {
        CHECK(tui_action_keys(i)[0] != 0 || t[i].keys[0] == '\0');
        CHECK(t[i].help && t[i].help[0]);
        for (size_t j = i + 1; j < n; j++) {
            if (t[i].ctx != t[j].ctx)
                continue;
            for (const int *a = tui_action_keys(i); *a; a++)
                for (const int *b = tui_action_keys(j); *b; b++)
                    if (*a == *b) {
                        char k[24];
                        check_fail(__FILE__, __LINE__, "key %s bound twice in %s: %s and %s",
                                   tui_key_name(*a, k, sizeof k), tui_ctx_title(t[i].ctx), t[i].name, t[j].name);
                    }
        }
    }

    /* the key a message names: the row's first one-character key, else its first key */
    char ak[16];
    CHECK_STR(tui_action_key(TUI_CTX_BUILD, TUI_ACT_BUILD, ak, sizeof ak), "b");
    CHECK_STR(tui_action_key(TUI_CTX_RUN, TUI_ACT_OPEN, ak, sizeof ak), "e");      /* "Enter e" */
    CHECK_STR(tui_action_key(TUI_CTX_REVIEW, TUI_ACT_SEND, ak, sizeof ak), "y");   /* "y Enter" */
    CHECK_STR(tui_action_key(TUI_CTX_DECIDE, TUI_ACT_OPEN, ak, sizeof ak), "Enter");
    CHECK_STR(tui_action_key(TUI_CTX_GLOBAL, TUI_ACT_QUIT, ak, sizeof ak), "C-c");
    /* a step's key is its place among the goto row's keys */
    CHECK_STR(tui_action_step_key(0, ak, sizeof ak), "1");
    CHECK_STR(tui_action_step_key(5, ak, sizeof ak), "6");
    CHECK_STR(tui_action_step_key(6, ak, sizeof ak), "?");
    CHECK_STR(tui_action_step_key(-1, ak, sizeof ak), "?");
    CHECK_STR(tui_action_key(TUI_CTX_WELCOME, TUI_ACT_BUILD, ak, sizeof ak), "b"); /* another context's row */
    CHECK_STR(tui_action_key(TUI_CTX_BUILD, TUI_ACT_NONE, ak, sizeof ak), "?");

    /* keys */
    CHECK_INT(tui_key_parse("q"), 'q');
    CHECK_INT(tui_key_parse("C-u"), 21);
    CHECK_INT(tui_key_parse("Esc"), TUI_KEY_ESC);
    CHECK_INT(tui_key_parse("S-Tab"), TUI_KEY_BTAB);
    CHECK_INT(tui_key_parse("F1"), TUI_KEY_F(1));
    CHECK_INT(tui_key_parse("PgDn"), TUI_KEY_PGDN);
    CHECK_INT(tui_key_parse("nope"), -1);
    CHECK_INT(tui_key_parse("F13"), -1);
    char kn[24];
    CHECK_STR(tui_key_name(21, kn, sizeof kn), "C-u");
    CHECK_STR(tui_key_name(TUI_KEY_ENTER, kn, sizeof kn), "Enter");
    CHECK_STR(tui_key_name(' ', kn, sizeof kn), "Space");
    CHECK(tui_key_is_text('a'));
    CHECK(!tui_key_is_text(TUI_KEY_UP));
    CHECK(!tui_key_is_text(27));

    /* lookups along a chain */
    tui_ctx step_chain[] = {TUI_CTX_STEP, TUI_CTX_GLOBAL};
    const tui_action *a = tui_action_lookup(step_chain, 2, 'q');
    CHECK(a && a->id == TUI_ACT_BACK);
    a = tui_action_lookup(step_chain, 2, '3');
    CHECK(a && a->id == TUI_ACT_GOTO);
    a = tui_action_lookup(step_chain, 2, TUI_KEY_TAB);
    CHECK(a && a->id == TUI_ACT_SIDEBAR);
    tui_ctx form_chain[] = {TUI_CTX_EDIT, TUI_CTX_FORM, TUI_CTX_STEP, TUI_CTX_GLOBAL};
    CHECK(tui_action_lookup(form_chain, 4, 'q') == NULL);          /* text, not "back" */
    a = tui_action_lookup(form_chain, 4, TUI_KEY_TAB);
    CHECK(a && a->id == TUI_ACT_NEXT_FIELD);                        /* the form shadows the step */
    a = tui_action_lookup(form_chain, 4, TUI_KEY_LEFT);
    CHECK(a && a->id == TUI_ACT_CURSOR_LEFT);
    a = tui_action_lookup(form_chain, 4, TUI_KEY_CTRL('c'));
    CHECK(a && a->id == TUI_ACT_QUIT);                              /* global still reachable */
    tui_ctx dialog_chain[] = {TUI_CTX_DIALOG};
    a = tui_action_lookup(dialog_chain, 1, 'y');
    CHECK(a && a->id == TUI_ACT_YES);
    CHECK(tui_action_lookup(dialog_chain, 1, '1') == NULL);         /* no goto inside a dialog */

    /* commands */
    bool amb;
    a = tui_action_by_name("quit", &amb);
    CHECK(a && a->id == TUI_ACT_QUIT);
    a = tui_action_by_name("he", &amb);
    CHECK(a && a->id == TUI_ACT_HELP);
    CHECK(tui_action_by_name("p", &amb) == NULL);                   /* page-up, prev-step... */
    CHECK(amb);
    CHECK(tui_action_by_name("zzz", &amb) == NULL);
    CHECK(!amb);
    char keys[64];
    CHECK_STR(tui_action_keys_text(tui_action_get(TUI_ACT_BACK), keys, sizeof keys), "q, Esc");
    CHECK_STR(tui_action_keys_text(tui_action_get(TUI_ACT_GOTO), keys, sizeof keys), "1-6");
    int count = 0;
    CHECK_INT(tui_action_complete("go", count_name, &count), 1);
    count = 0;
    CHECK(tui_action_complete("", count_name, &count) > 30);

    tui_command cmd;
    CHECK_INT(tui_cmd_parse("goto monitor", &cmd, msg, sizeof msg), TUI_CMD_OK);
    CHECK_INT(cmd.step, TUI_STEP_MONITOR);
    CHECK_INT(tui_cmd_parse(":goto 2", &cmd, msg, sizeof msg), TUI_CMD_OK);
    CHECK_INT(cmd.step, TUI_STEP_BUILD);
    CHECK_INT(tui_cmd_parse("  quit  ", &cmd, msg, sizeof msg), TUI_CMD_OK);
    CHECK(cmd.action->id == TUI_ACT_QUIT);
    CHECK_INT(tui_cmd_parse("frobnicate", &cmd, msg, sizeof msg), TUI_CMD_UNKNOWN);
    CHECK(strstr(msg, "unknown command: frobnicate") != NULL);
    CHECK_INT(tui_cmd_parse("goto", &cmd, msg, sizeof msg), TUI_CMD_BAD_ARG);
    CHECK_INT(tui_cmd_parse("goto nowhere", &cmd, msg, sizeof msg), TUI_CMD_BAD_ARG);
    CHECK_INT(tui_cmd_parse("goto p", &cmd, msg, sizeof msg), TUI_CMD_BAD_ARG);   /* push or permit */
    CHECK_INT(tui_cmd_parse("quit now", &cmd, msg, sizeof msg), TUI_CMD_BAD_ARG);
    CHECK_INT(tui_cmd_parse("   ", &cmd, msg, sizeof msg), TUI_CMD_EMPTY);
    CHECK_INT(tui_step_find("PERMIT"), TUI_STEP_PERMIT);
    CHECK_INT(tui_step_find("mon"), TUI_STEP_MONITOR);

    char line[128], matches[256];
    snprintf(line, sizeof line, "go");
    CHECK_INT(tui_cmd_complete(line, sizeof line, matches, sizeof matches), 1);
    CHECK_STR(line, "goto ");
    snprintf(line, sizeof line, "goto pe");
    CHECK_INT(tui_cmd_complete(line, sizeof line, matches, sizeof matches), 1);
    CHECK_STR(line, "goto permit");
    snprintf(line, sizeof line, "goto p");
    CHECK_INT(tui_cmd_complete(line, sizeof line, matches, sizeof matches), 2);
    CHECK_STR(matches, "push permit");
    snprintf(line, sizeof line, "prev");
    CHECK_INT(tui_cmd_complete(line, sizeof line, matches, sizeof matches), 3);
    CHECK_STR(line, "prev-");                                        /* longest common prefix */
    snprintf(line, sizeof line, "xyz");
    CHECK_INT(tui_cmd_complete(line, sizeof line, matches, sizeof matches), 0);
    CHECK_STR(line, "xyz");

    /* help: every context has a section and every action's help text appears */
    tui_help h;
    tui_help_build(&h, 100);
    int headings = 0;
    for (size_t i = 0; i < h.count; i++)
        headings += h.lines[i].heading;
    CHECK_INT(headings, TUI_CTX_COUNT);
    for (size_t i = 0; i < n; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, ":%s", t[i].name);
        CHECK(tui_help_find(&h, needle, 0) >= 0);
    }
    CHECK(tui_help_find(&h, "Go to a step", 0) >= 0);
    CHECK(tui_help_find(&h, "no such text anywhere", 0) < 0);
    for (size_t i = 0; i < h.count; i++)
        CHECK(!h.lines[i].heading || strlen(h.lines[i].text) > 0);
    tui_help_clear(&h);
    /* opened from a screen: its contexts first, in chain order, then the global keys, then the rest */
    const tui_ctx permit_chain[] = {TUI_CTX_LIST, TUI_CTX_PERMIT, TUI_CTX_STEP, TUI_CTX_GLOBAL};
    tui_help_build_for(&h, 100, permit_chain, 4);
    const char *seen[TUI_CTX_COUNT];
    int nseen = 0;
    for (size_t i = 0; i < h.count && nseen < TUI_CTX_COUNT; i++)
        if (h.lines[i].heading)
            seen[nseen++] = h.lines[i].text;
    CHECK_INT(nseen, TUI_CTX_COUNT);
    CHECK_STR(seen[0], tui_ctx_title(TUI_CTX_LIST));
    CHECK_STR(seen[1], tui_ctx_title(TUI_CTX_PERMIT));
    CHECK_STR(seen[2], tui_ctx_title(TUI_CTX_STEP));
    CHECK_STR(seen[3], tui_ctx_title(TUI_CTX_GLOBAL));
    CHECK_STR(seen[TUI_CTX_COUNT - 1], tui_ctx_title(TUI_CTX_DIALOG));
    tui_help_clear(&h);
    tui_help_build(&h, 40);                                          /* narrow: wraps, never wider */
    for (size_t i = 0; i < h.count; i++)
        if ((int)strlen(h.lines[i].text) > 40 && !strchr(h.lines[i].text, ','))
            check_fail(__FILE__, __LINE__, "help line wider than 40: %s", h.lines[i].text);
    tui_help_clear(&h);

    /* hints: the focused context first, shadowed keys left out, help kept */
    tui_hint hints[32];
    size_t nh = tui_hints_collect(form_chain, 4, hints, 32);
    CHECK(nh > 3);
    CHECK_STR(hints[0].label, "accept");                             /* EDIT's first-ranked */
    bool has_sidebar = false, has_help = false;
    for (size_t i = 0; i < nh; i++) {
        has_sidebar |= strcmp(hints[i].label, "sidebar") == 0;
        has_help |= strcmp(hints[i].label, "help") == 0;
    }
    CHECK(!has_sidebar);           /* Tab and Left belong to the form here */
    CHECK(has_help);
    char text[256];
    nh = tui_hints_collect(step_chain, 2, hints, 32);
    tui_hints_text(hints, nh, 20, text, sizeof text);
    CHECK(strstr(text, "? help") != NULL);                            /* kept even when narrow */
    CHECK((int)strlen(text) <= 20);
    tui_hints_text(hints, nh, 200, text, sizeof text);
    CHECK(strstr(text, "1-6 steps") != NULL);
    CHECK(strstr(text, "q back") != NULL);

    /* the Metrics tab: choosing the metric and the x axis fit the 80-column hint bar, and
     * there [ and ] choose the metric instead of the step */
    const tui_ctx metrics_chain[] = {TUI_CTX_METRICS, TUI_CTX_JOB, TUI_CTX_JOB, TUI_CTX_GLOBAL};
    nh = tui_hints_collect(metrics_chain, 4, hints, 32);
    tui_hints_text(hints, nh, 80, text, sizeof text);
    CHECK(strstr(text, "] next metric") != NULL);
    CHECK(strstr(text, "[ prev metric") != NULL);
    CHECK(strstr(text, "x x-axis") != NULL);
    CHECK(strstr(text, "Tab tab") != NULL);
    CHECK(strstr(text, "? help") != NULL);
    CHECK_INT(tui_action_lookup(metrics_chain, 4, ']')->id, TUI_ACT_METRIC_NEXT);
    CHECK_INT(tui_action_lookup(metrics_chain, 4, '[')->id, TUI_ACT_METRIC_PREV);
    CHECK_INT(tui_action_lookup(metrics_chain + 1, 3, ']')->id, TUI_ACT_NEXT_STEP);   /* other tabs */

    /* the whole key: v everywhere, C-o too (v is text in a field); hinted only while something is cut */
    a = tui_action_lookup(step_chain, 2, 'v');
    CHECK(a && a->id == TUI_ACT_WHOLE);
    CHECK(tui_action_lookup(form_chain, 4, 'v') == NULL);
    a = tui_action_lookup(form_chain, 4, TUI_KEY_CTRL('o'));
    CHECK(a && a->id == TUI_ACT_WHOLE);
    nh = tui_hints_for(step_chain, 2, false, hints, 32);
    for (size_t i = 0; i < nh; i++)
        CHECK(hints[i].row->id != TUI_ACT_WHOLE);
    nh = tui_hints_for(step_chain, 2, true, hints, 32);
    CHECK(nh > 1 && strcmp(hints[0].keys, "v") == 0 && strcmp(hints[0].label, "whole") == 0);
    nh = tui_hints_for(form_chain, 4, true, hints, 32);
    CHECK(nh > 1 && strcmp(hints[0].keys, "C-o") == 0);
    nh = tui_hints_for(dialog_chain, 1, true, hints, 32);            /* no key reaches it in a dialog */
    for (size_t i = 0; i < nh; i++)
        CHECK(hints[i].row->id != TUI_ACT_WHOLE);
    /* by priority: at 80 columns the Build step keeps the log's w wrap beside its own keys, and
     * the whole key and help when something is cut */
    const tui_ctx build_chain[] = {TUI_CTX_BUILD, TUI_CTX_LOG, TUI_CTX_STEP, TUI_CTX_GLOBAL};
    for (int cut = 0; cut < 2; cut++) {
        nh = tui_hints_for(build_chain, 4, cut, hints, 32);
        size_t used = tui_hints_text(hints, nh, 79, text, sizeof text);
        CHECK(used < nh);                                             /* not everything fits */
        CHECK((int)strlen(text) <= 79);
        CHECK(strstr(text, "b build") != NULL);
        CHECK(strstr(text, "w wrap") != NULL);
        CHECK(strstr(text, "? help") != NULL);
        CHECK((strstr(text, "v whole") != NULL) == (cut == 1));
        CHECK(strstr(text, "i images") == NULL);                     /* a 5th rank loses to a 2nd */
        /* drawn in chain order: the step's keys before the log's */
        CHECK(strstr(text, "b build") < strstr(text, "w wrap"));
    }

    /* help's filter: key, command or description, case-insensitive; headings only where rows match */
    tui_help_build_filtered(&h, 100, NULL, 0, "WRAP");
    CHECK(h.shown > 0 && h.shown < h.actions);
    CHECK(tui_help_find(&h, ":wrap", 0) >= 0);
    CHECK(tui_help_find(&h, ":allow", 0) < 0);
    CHECK(tui_help_find(&h, tui_ctx_title(TUI_CTX_PERMIT), 0) < 0);
    CHECK(tui_help_find(&h, tui_ctx_title(TUI_CTX_LOG), 0) >= 0);
    tui_help_clear(&h);
    tui_help_build_filtered(&h, 100, NULL, 0, "c-o");                 /* a key name */
    CHECK(tui_help_find(&h, ":whole", 0) >= 0);
    tui_help_clear(&h);
    tui_help_build_filtered(&h, 100, NULL, 0, ":next-step");           /* a command */
    CHECK_INT(h.shown, 1);
    tui_help_clear(&h);
    tui_help_build_filtered(&h, 100, NULL, 0, "no such words");
    CHECK_INT(h.shown, 0);
    CHECK(tui_help_find(&h, "No key, command or description matches", 0) >= 0);
    tui_help_clear(&h);
    tui_help_build_filtered(&h, 100, NULL, 0, "");
    CHECK_INT(h.shown, h.actions);
    CHECK_INT(h.actions, n);
    tui_help_clear(&h);
    CHECK(tui_help_row_matches(tui_action_get(TUI_ACT_QUIT), "c-C"));
    CHECK(!tui_help_row_matches(tui_action_get(TUI_ACT_QUIT), "wrap"));
    /* `/` in help filters; the help screen's own context */
    const tui_ctx help_chain[] = {TUI_CTX_PAGE, TUI_CTX_HELP, TUI_CTX_GLOBAL};
    a = tui_action_lookup(help_chain, 3, '/');
    CHECK(a && a->id == TUI_ACT_FILTER);
    return check_done();
}
