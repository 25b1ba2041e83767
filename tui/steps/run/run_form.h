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
/* Fill the form from a spec (fields the spec leaves NULL are emptied). origin (BYOC_JF_COUNT
 * entries, may be NULL): a value from byoc.json or the last push is marked so in the form
 * ("(from last push)") while it is unchanged. */
void tui_run_form_from_spec(tui_form *f, const byoc_jobspec *spec, const byoc_job_origin *origin);
/* The origins the form still shows, back as the job spec's (BYOC_JF_COUNT entries). */
void tui_run_form_origins(const tui_form *f, byoc_job_origin *origin);
/* The mode field: true for "this machine". */
bool tui_run_form_local(const tui_form *f);
/* Validate the whole form; the number of invalid fields (focus on the first). */
size_t tui_run_form_validate(tui_form *f);

/* Task: the job's defaults from a project directory's byoc.json, as `byoc run` takes them
 * (byoc_jobspec_fill_defaults: "job", and the image of the last push). arg: the directory,
 * malloc'd, freed with free. Result: a tui_run_loaded * (NULL when the project has no
 * byoc.json), freed with tui_run_loaded_free. */
typedef struct tui_run_loaded {
    byoc_jobspec spec;
    byoc_job_origin origin[BYOC_JF_COUNT];
} tui_run_loaded;
int tui_run_load_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

/* Task: remember a spec in the project's byoc.json (only when the file
 * exists). arg: a tui_run_remember_args, freed with tui_run_remember_args_free. */
typedef struct tui_run_remember_args {
    char *project_dir;
    byoc_jobspec spec;
    byoc_job_origin origin[BYOC_JF_COUNT];   /* the form's (tui_run_form_origins): the last push is not kept */
} tui_run_remember_args;
int tui_run_remember_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void tui_run_remember_args_free(void *args);

#endif
