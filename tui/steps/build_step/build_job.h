/* build_job: the Build screen's work, as task bodies (core/task.h) with
 * their arguments and results.
 *
 *   load     read byoc.json (arg: the project directory, a string);
 *            result tui_build_loaded.
 *   prepare  save the settings into byoc.json when they changed (or, when
 *            there is no byoc.json yet, when asked to), lint the project
 *            when the lint alone is asked for (a build's lint is the build
 *            flow's, byoc_build_flow_task), and plan the build (byoc/buildflow.h: the settings, and for a
 *            build the git revision's tag and the OCI labels, as `byoc
 *            build` does) (arg: tui_build_request); result
 *            tui_build_prepared.
 * The build itself is byoc_build_flow_task. */
#ifndef BYOC_TUI_BUILD_JOB_H
#define BYOC_TUI_BUILD_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "build_model.h"
#include "byoc/buildflow.h"
#include "byoc/lint.h"
#include "byoc/project.h"
#include "core/task.h"

typedef struct tui_build_loaded {
    byoc_project project;
    bool found;              /* byoc.json exists */
    char *error;             /* byoc.json is invalid: why (the project holds the defaults) */
} tui_build_loaded;

int tui_build_load_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

typedef struct tui_build_request {
    char *project_dir;
    tui_build_settings settings;
    bool save_new;           /* write byoc.json even when it does not exist yet */
    bool lint;               /* run the lint (the lint alone: a build lints in its flow) */
    bool git;                /* read the git revision (for a build) */
} tui_build_request;

void tui_build_request_free(void *req);

typedef struct tui_build_prepared {
    bool saved;              /* byoc.json was written */
    bool linted;
    byoc_lint_result lint;
    byoc_build_plan plan;    /* the build of the settings */
} tui_build_prepared;

int tui_build_prepare_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
