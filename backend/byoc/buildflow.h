/* buildflow: the Build step, for `byoc build` and the Build screen alike.
 *
 *   plan   pure: byoc.json (the project) + the flags (or the screen's form)
 *          + the git facts -> the build options: the context directory and
 *          Dockerfile, the tags with <name>:<short-sha>[-dirty], the build
 *          args (byoc.json's, then the flags'), the OCI labels (revision,
 *          source, and created at SOURCE_DATE_EPOCH, else now)
 *   run    on the engine: connect, warn about a platform the engine can
 *          neither run nor emulate, build (docker/build.h's events on the
 *          task), inspect the image for its size (buildflow_run.c)
 *   task   the lint (byoc/lint.h), then the run, as a core/task.h task; its
 *          events read as typed build events with byoc_build_event_decode.
 *          The lint's findings come as events and in the result; its errors
 *          stop the flow before the engine is touched (the result says so:
 *          lint_stopped), so `byoc build` can answer them with exit code 2
 *          before a missing engine's 3, and the Build screen list them. */
#ifndef BYOC_BYOC_BUILDFLOW_H
#define BYOC_BYOC_BUILDFLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "byoc/git.h"
#include "byoc/lint.h"
#include "byoc/project.h"
#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"
#include "docker/build.h"
#include "docker/engine.h"
#include "docker/engines.h"

/* What git and the environment say about the project's source. */
typedef struct byoc_build_git_facts {
    byoc_git_rev rev;                /* rev.is_repo false: not in a work tree (or git could not tell) */
    char *source_date_epoch;         /* $SOURCE_DATE_EPOCH, or NULL */
    time_t now;                      /* the creation time without SOURCE_DATE_EPOCH */
} byoc_build_git_facts;

/* Read the revision of the repository holding dir, $SOURCE_DATE_EPOCH and the time. */
void byoc_build_git_facts_read(const char *dir, byoc_build_git_facts *out);
void byoc_build_git_facts_clear(byoc_build_git_facts *g);

/* What the caller asks for on top of byoc.json. Strings are borrowed. */
typedef struct byoc_build_flags {
    const char *context;             /* NULL: byoc.json's ("." unset); relative: from the project directory */
    const char *dockerfile;          /* NULL or "": byoc.json's when it names one, else <context>/Dockerfile */
    bool dockerfile_from_cwd;        /* a relative dockerfile is from the current directory (-f), as given */
    const char *const *tags;         /* none: byoc.json's */
    size_t n_tags;
    const char *const *build_args;   /* "KEY=VALUE" or "KEY", after byoc.json's (the later one of a key wins) */
    size_t n_build_args;
    bool replace_project;            /* the tags, build args and Dockerfile above are all there is, even when
                                        empty (the Build screen's form holds byoc.json's already) */
    const char *const *labels;       /* "KEY=VALUE", before the git labels */
    size_t n_labels;
    const char *target, *platform, *network;
    bool no_cache, pull;
} byoc_build_flags;

/* Pure checks of the flags as `byoc build` checks them (tags, build args,
 * labels, target, platform, network): BYOC_E_USAGE naming the flag. */
int byoc_build_flags_check(const byoc_build_flags *f, byoc_err *err);

/* The build, worked out. opts points into the plan's own strings. */
typedef struct byoc_build_plan {
    byoc_build_opts opts;
    char *context_dir;
    char *dockerfile;                /* NULL: <context>/Dockerfile */
    byoc_strv tags, build_args, labels;
    char *git_tag;                   /* "<name>:<short-sha>[-dirty]" (among the tags too), or NULL */
    bool has_created;                /* the created label is set (a commit exists) */
    time_t created;                  /* SOURCE_DATE_EPOCH, else the facts' now */
    char *target, *platform, *network;
} byoc_build_plan;

/* Pure. project_dir resolves byoc.json's relative paths (NULL or "": as
 * they are); git may be NULL (no git facts: no git tag, no labels). */
void byoc_build_plan_make(const byoc_project *proj, const char *project_dir, const byoc_build_flags *flags,
                          const byoc_build_git_facts *git, byoc_build_plan *out);
void byoc_build_plan_clear(byoc_build_plan *p);

/* ---- the run (buildflow_run.c) ---- */

/* Check the plan before anything is sent: the options (BYOC_E_USAGE naming
 * the flag) and the context with its Dockerfile. *lint_dockerfile gets the
 * Dockerfile relative to project_dir when it lies inside it, for the lint
 * (NULL otherwise; caller frees). */
int byoc_build_plan_check(const byoc_build_plan *p, const char *project_dir, char **lint_dockerfile, byoc_err *err);

typedef struct byoc_build_flow_result {
    char *image_id;                  /* "sha256:..." (NULL when the lint stopped the flow) */
    byoc_strv tags;                  /* as the engine reported them tagged */
    int64_t size;                    /* bytes; -1 when the inspect failed */
    bool linted;                     /* the task linted first: lint holds its findings, sorted */
    byoc_lint_result lint;
    bool lint_stopped;               /* the lint found errors: nothing was sent to the engine */
} byoc_build_flow_result;

void byoc_build_flow_result_clear(byoc_build_flow_result *r);

/* Connect, warn about the platform, build, inspect: the plain call. Events
 * go to t (may be NULL), which also cancels. out is filled on success. */
int byoc_build_flow_run(byoc_engine *e, byoc_task *t, const byoc_build_opts *o, byoc_build_flow_result *out,
                        byoc_err *err);

/* As a task: a copy of the plan's options and of the lint's (lint_dir NULL:
 * no lint; lint_dockerfile relative to it, NULL: byoc.json's); once the lint
 * has passed the task takes its engine from engines (an app's, which must
 * outlive the task; NULL: an engine of its own from DOCKER_HOST). */
typedef struct byoc_build_flow_job byoc_build_flow_job;
byoc_build_flow_job *byoc_build_flow_job_new(byoc_engines *engines, const byoc_build_plan *p, const char *lint_dir,
                                             const char *lint_dockerfile);
void byoc_build_flow_job_free(void *job);
/* byoc_task_fn: arg a byoc_build_flow_job; the result a byoc_build_flow_result *. */
int byoc_build_flow_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

/* What the task's BYOC_EV_DATA events carry (the event's `current`). */
typedef enum byoc_build_data {
    BYOC_BUILD_DATA_FINDING = 1,     /* byoc_finding *: a lint finding, its file and message printable */
    BYOC_BUILD_DATA_LINTED,          /* size_t *: the lint is over, with this many errors */
} byoc_build_data;

/* The task's events, typed. STEP is a log line that starts a step
 * ("Step 3/9 : RUN make"): print it as a LOG. */
typedef enum {
    BYOC_BUILD_EV_LOG,               /* text (verbatim: the build's own output) */
    BYOC_BUILD_EV_STEP,              /* text, step of steps */
    BYOC_BUILD_EV_PROGRESS,          /* key "context" (bytes sent), "steps", or a layer id; current of total */
    BYOC_BUILD_EV_STATUS,            /* text */
    BYOC_BUILD_EV_ERROR,             /* err */
    BYOC_BUILD_EV_IMAGE,             /* image: the build's result (lint_stopped: no image) */
    BYOC_BUILD_EV_LINT,              /* a lint finding: severity, rule, file, line, text the message */
    BYOC_BUILD_EV_LINTED,            /* the lint is over: current its errors */
    BYOC_BUILD_EV_OTHER,
} byoc_build_ev_kind;

typedef struct byoc_build_event {
    byoc_build_ev_kind kind;
    const char *text;
    bool verbatim;
    const char *key;
    int64_t current, total;
    int step, steps;
    const byoc_err *err;
    const byoc_build_flow_result *image;
    byoc_lint_severity severity;     /* LINT */
    const char *rule, *file;
    int line;
} byoc_build_event;

/* Read a task event of byoc_build_flow_task; the pointers are the event's. */
void byoc_build_event_decode(const byoc_event *ev, byoc_build_event *out);

#endif
