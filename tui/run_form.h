/* run_form: the Run step's job form and what goes between it and a job
 * spec (byoc/jobspec.h).
 *
 * The fields come in groups (code, container, compute, data, device,
 * advanced) named in their labels, then the mode (Amazon Braket or this
 * machine). Every field's validator builds the whole spec from the form and
 * runs byoc_jobspec_validate, so the inline message is the backend's own,
 * naming the flag and API member at fault ("--job-name (jobName): ...").
 * List fields are space-separated K=V items (hyperparameters, tags) or
 * CHANNEL=LOCATION items (input data).
 *
 * The form's ud is the project directory: relative local paths in the form
 * are taken from there. */
#ifndef BYOC_TUI_RUN_FORM_H
#define BYOC_TUI_RUN_FORM_H

#include <stdbool.h>

#include "byoc/jobspec.h"
#include "core/task.h"
#include "form.h"

/* Add the fields to an initialised form; project_dir must outlive the form. */
void tui_run_form_build(tui_form *f, const char *project_dir);
/* The spec the form describes. resolve: relative local paths become
 * <project>/<path> (for running); otherwise the text is kept (for byoc.json).
 * Items that do not parse (no '=') are added to probs when it is not NULL. */
void tui_run_form_to_spec(const tui_form *f, bool resolve, byoc_jobspec *spec, byoc_job_problems *probs);
/* Fill the form from a spec (fields the spec leaves NULL are emptied). */
void tui_run_form_from_spec(tui_form *f, const byoc_jobspec *spec);
/* The mode field: true for "this machine". */
bool tui_run_form_local(const tui_form *f);
/* Validate the whole form; the number of invalid fields (focus on the first). */
size_t tui_run_form_validate(tui_form *f);

/* Task: read byoc.json's "job" from a project directory (arg: the directory,
 * malloc'd, freed with free). Result: a byoc_jobspec * (NULL when the
 * project has no byoc.json or no job), freed with tui_run_spec_free. */
int tui_run_load_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void tui_run_spec_free(void *spec);

/* Task: remember a spec in the project's byoc.json (only when the file
 * exists). arg: a tui_run_remember_args, freed with tui_run_remember_args_free. */
typedef struct tui_run_remember_args {
    char *project_dir;
    byoc_jobspec spec;
} tui_run_remember_args;
int tui_run_remember_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void tui_run_remember_args_free(void *args);

#endif
