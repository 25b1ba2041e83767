/* build_job: the Build screen's work, as task bodies (core/task.h) with
 * their arguments and results.
 *
 *   load     read byoc.json (arg: the project directory, a string);
 *            result tui_build_loaded.
 *   prepare  save the settings into byoc.json when they changed (or, when
 *            there is no byoc.json yet, when asked to), lint the project,
 *            and read the git revision for the <name>:<short-sha>[-dirty]
 *            tag and the OCI labels, as `byoc build` does (arg:
 *            tui_build_request); result tui_build_prepared.
 *   build    connect to the engine, build (docker/build.h: LOG, STATUS
 *            and PROGRESS events as it goes), then inspect the image for its
 *            size (arg: tui_build_run, made by tui_build_run_new); result
 *            tui_build_built. */
#ifndef BYOC_TUI_BUILD_JOB_H
#define BYOC_TUI_BUILD_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "build_view.h"
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
    bool lint;               /* run the lint */
    bool git;                /* read the git revision (for a build) */
} tui_build_request;

void tui_build_request_free(void *req);

typedef struct tui_build_prepared {
    bool saved;              /* byoc.json was written */
    bool linted;
    byoc_lint_result lint;
    byoc_strv tags;          /* from git: "<name>:<short-sha>[-dirty]" */
    byoc_strv labels;        /* "KEY=VALUE" */
} tui_build_prepared;

int tui_build_prepare_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

typedef struct tui_build_run tui_build_run;
/* The build of these options (copied); fails (NULL, err) only when the
 * DOCKER_HOST is unusable. */
tui_build_run *tui_build_run_new(const byoc_build_opts *o, byoc_err *err);
void tui_build_run_free(void *run);

typedef struct tui_build_built {
    char *image_id;
    byoc_strv tags;
    int64_t size;            /* bytes, -1 when the inspect failed */
} tui_build_built;

int tui_build_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
