/* The Decide screen's model: the questions as a form, the form and the
 * answers kept in step (user answers, invalid text, canonical values), the
 * verdict panel's text for a decision, and the init command it suggests. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decide_model.h"
#include "keys.h"

static bool page_has(const tui_page *p, const char *needle)
{
    for (size_t i = 0; i < p->count; i++)
        if (strstr(p->items[i].text, needle) || (p->items[i].key && strstr(p->items[i].key, needle)))
            return true;
    return false;
}

static void type(tui_form *f, const char *s)
{
    for (; *s; s++)
        tui_form_handle(f, (unsigned char)*s, TUI_ACT_NONE);
}

int main(void)
{
    tui_form f;
    tui_form_init(&f);
    tui_decide_form_build(&f);
    CHECK_INT(f.count, BYOC_Q_COUNT);
    const byoc_question *qs = byoc_questions();
    for (int i = 0; i < BYOC_Q_COUNT; i++) {
        CHECK_STR(f.fields[i].key, qs[i].key);
        CHECK_STR(tui_form_value(&f, qs[i].key), qs[i].default_value);   /* the form starts at the defaults */
        CHECK(strlen(tui_decide_label((byoc_question_id)i)) <= 18);       /* labels fit the label column */
    }
    CHECK_INT(tui_form_field(&f, "gpu")->kind, TUI_FIELD_TOGGLE);
    CHECK_INT(tui_form_field(&f, "arch")->kind, TUI_FIELD_CHOICE);
    CHECK_INT(tui_form_field(&f, "missing_packages")->kind, TUI_FIELD_NUMBER);
    CHECK_INT(tui_form_field(&f, "languages")->kind, TUI_FIELD_TEXT);

    /* the answers as a scan would leave them show in the form */
    byoc_answers base, a;
    byoc_answers_init(&base);
    byoc_err err;
    CHECK_INT(byoc_answer_set(&base, "missing_packages", "12", BYOC_SRC_SCANNED, "requirements.txt", &err), 0);
    CHECK_INT(byoc_answer_set(&base, "private_deps", "true", BYOC_SRC_SCANNED, NULL, &err), 0);
    byoc_answers_init(&a);
    for (int q = 0; q < BYOC_Q_COUNT; q++)
        byoc_answer_revert(&a, &base, (byoc_question_id)q);
    tui_decide_form_load(&f, &a, false);
    CHECK_STR(tui_form_value(&f, "missing_packages"), "12");
    CHECK_STR(tui_form_value(&f, "private_deps"), "true");
    CHECK_STR(tui_decide_source(&a, BYOC_Q_MISSING_PACKAGES), "scanned");
    CHECK_STR(tui_decide_source(&a, BYOC_Q_GPU), "default");
    CHECK_INT(tui_decide_form_apply(&f, &a), 0);                         /* nothing changed */

    byoc_decision d;
    byoc_decide(&a, &d);
    CHECK_INT(d.verdict, BYOC_VERDICT_RECOMMENDED);
    CHECK_STR(tui_decide_verdict_text(d.verdict), "BYOC is recommended");

    /* the user flips a toggle: a USER answer, the verdict moves */
    tui_form_focus(&f, BYOC_Q_GPU);
    CHECK_INT(tui_form_handle(&f, ' ', TUI_ACT_CHOICE_NEXT), TUI_FORM_HANDLED);
    CHECK_INT(tui_decide_form_apply(&f, &a), 1);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_GPU), "true");
    CHECK_STR(tui_decide_source(&a, BYOC_Q_GPU), "user");

    /* text in canonical form is one answer; a bad value keeps the old one and says why */
    tui_form_focus(&f, BYOC_Q_LANGUAGES);
    tui_form_handle(&f, TUI_KEY_CTRL('u'), TUI_ACT_KILL_LINE);
    type(&f, "rust, python");
    CHECK_INT(tui_decide_form_apply(&f, &a), 1);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_LANGUAGES), "python,rust");
    CHECK_STR(tui_decide_source(&a, BYOC_Q_LANGUAGES), "user");
    type(&f, ", cobol");
    CHECK_INT(tui_decide_form_apply(&f, &a), 0);
    CHECK(tui_form_field(&f, "languages")->msg[0] != '\0');
    CHECK(strstr(tui_form_field(&f, "languages")->msg, "cobol") != NULL);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_LANGUAGES), "python,rust");
    tui_decide_form_load(&f, &a, true);                                  /* the user is still fixing it */
    CHECK_STR(tui_form_value(&f, "languages"), "rust, python, cobol");
    tui_decide_form_load(&f, &a, false);                                 /* a reload shows the answer */
    CHECK_STR(tui_form_value(&f, "languages"), "python,rust");
    CHECK_STR(tui_form_field(&f, "languages")->msg, "");

    /* a bad Python specifier */
    tui_form_focus(&f, BYOC_Q_PYTHON_VERSION);
    type(&f, ">=3.x");
    CHECK_INT(tui_decide_form_apply(&f, &a), 0);
    CHECK(tui_form_field(&f, "python_version")->msg[0] != '\0');
    tui_form_handle(&f, TUI_KEY_CTRL('u'), TUI_ACT_KILL_LINE);
    type(&f, ">=3.10");
    CHECK_INT(tui_decide_form_apply(&f, &a), 1);
    CHECK_STR(tui_form_field(&f, "python_version")->msg, "");

    byoc_decision_clear(&d);
    byoc_decide(&a, &d);
    CHECK_INT(d.verdict, BYOC_VERDICT_REQUIRED);
    CHECK_INT(d.recipe, BYOC_RECIPE_CUSTOM_BASE);

    /* the verdict panel: verdict, recipe, each reason with its rule, what next */
    tui_page p;
    tui_page_init(&p);
    tui_decide_page_fill(&p, &d, NULL, "/proj", "s");
    CHECK(page_has(&p, "BYOC is required"));
    CHECK(page_has(&p, "custom-base: recipe 2"));
    CHECK(page_has(&p, "Recipe"));
    for (size_t i = 0; i < d.n_reasons; i++) {
        char tag[64];
        snprintf(tag, sizeof tag, "[%s] ", d.reasons[i].rule);
        CHECK(page_has(&p, tag));
    }
    CHECK(page_has(&p, "[non-python]"));
    CHECK(page_has(&p, "s scaffolds this"));
    CHECK(page_has(&p, "byoc init /proj --recipe custom-base"));
    CHECK(page_has(&p, "--gpu"));
    CHECK(!page_has(&p, "What the scan found"));                        /* no scan, no section */
    tui_page_clear(&p);

    char *cmd = tui_decide_init_command(&d, NULL);
    CHECK(strncmp(cmd, "byoc init . --recipe custom-base --language ", 44) == 0);
    free(cmd);

    /* revert: back to the scanned value and source */
    byoc_answer_revert(&a, &base, BYOC_Q_GPU);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_GPU), "false");
    CHECK_STR(tui_decide_source(&a, BYOC_Q_GPU), "default");

    /* a prebuilt verdict says there is nothing to build */
    byoc_answers plain;
    byoc_answers_init(&plain);
    byoc_decision dp;
    byoc_decide(&plain, &dp);
    tui_page_init(&p);
    tui_decide_page_fill(&p, &dp, NULL, ".", "s");
    CHECK(page_has(&p, "BYOC is not needed"));
    CHECK(page_has(&p, "Nothing to build"));
    CHECK(!page_has(&p, "scaffolds this"));
    tui_page_clear(&p);
    CHECK_INT(tui_decide_verdict_style(BYOC_VERDICT_NOT_NEEDED), TUI_STY_OK);
    byoc_decision_clear(&dp);
    byoc_answers_clear(&plain);

    byoc_decision_clear(&d);
    byoc_answers_clear(&a);
    byoc_answers_clear(&base);
    tui_form_clear(&f);
    return check_done();
}
