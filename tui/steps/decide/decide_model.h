/* decide_model: the Decide screen's model, without curses calls or I/O.
 *
 * The wizard's questions (byoc/decide.h) as a form: a toggle per yes/no
 * question, a choice for the CPU architecture, a number for the missing
 * packages and text for the languages and the Python version. The form and
 * a byoc_answers are kept in step: tui_decide_form_load() shows the
 * answers, tui_decide_form_apply() takes what the user changed as USER
 * answers (a field whose text is not a valid answer gets the reason as its
 * message and changes nothing). The verdict panel is a tui_page filled from
 * a decision (verdict, recipe, each reason with its rule, what to do next,
 * what the scan found). */
#ifndef BYOC_TUI_DECIDE_VIEW_H
#define BYOC_TUI_DECIDE_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/decide.h"
#include "byoc/scan.h"
#include "form.h"
#include "page.h"

/* The short label of a question ("Missing PyPI packages"). */
const char *tui_decide_label(byoc_question_id q);
/* Add one field per question, keyed by the question's key, in the wizard's order. */
void tui_decide_form_build(tui_form *f);
/* Show the answers' values in the fields and clear their messages; with
 * keep_invalid, a field showing a message keeps its text and message (the
 * user is still fixing it). */
void tui_decide_form_load(tui_form *f, const byoc_answers *a, bool keep_invalid);
/* Take every field whose value differs from the answer as a USER answer.
 * Returns how many answers changed. */
size_t tui_decide_form_apply(tui_form *f, byoc_answers *a);

/* "BYOC is not needed" / "BYOC is recommended" / "BYOC is required", and its style. */
const char *tui_decide_verdict_text(byoc_verdict v);
tui_style tui_decide_verdict_style(byoc_verdict v);
/* "byoc init DIR --recipe custom-base --language rust --arch amd64 [--gpu]". Caller frees. */
char *tui_decide_init_command(const byoc_decision *d, const char *dir);
/* The source column: "scanned", "user", "default". */
const char *tui_decide_source(const byoc_answers *a, byoc_question_id q);

/* The verdict panel, appended to p: verdict, recipe, the reasons ("[rule]
 * text"), what to do next (scaffold_key names the key that scaffolds, e.g.
 * "s"), and what the scan found (scan may be NULL). */
void tui_decide_page_fill(tui_page *p, const byoc_decision *d, const byoc_scan *scan, const char *project_dir,
                          const char *scaffold_key);

#endif
