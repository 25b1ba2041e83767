/* runflags: the flags of `byoc run` (the job form on the command line),
 * parsed into a job spec, for every verb that takes them (`run`, `preflight`).
 * Which of the mode flags a verb accepts is chosen by the caller. */
#ifndef BYOC_TUI_RUNFLAGS_H
#define BYOC_TUI_RUNFLAGS_H
#include <stdbool.h>
#include "byoc/jobspec.h"
#include "core/err.h"

typedef struct byoc_runflags {
    bool wait, dry_run;
    bool local, upload, with_credentials, host_network;
    bool strict;               /* run --local: exit 1 when results were not copied whole */
    bool smoke;                /* preflight: --smoke */
    bool no_preflight;         /* run: --no-preflight */
    const char *project_dir;   /* in: the project whose byoc.json gives the defaults (NULL: none) */
    byoc_job_origin origin[BYOC_JF_COUNT]; /* out: where each field's value came from */
} byoc_runflags;

/* Accept these mode flags besides the job's fields (a bit set). */
enum {
    BYOC_RUNFLAGS_RUN_MODES = 1,   /* --wait --dry-run --local --upload --with-credentials --host-network --strict */
    BYOC_RUNFLAGS_SMOKE = 2,       /* --smoke */
    BYOC_RUNFLAGS_NO_PREFLIGHT = 4 /* --no-preflight */
};

/* Parse argv (argv[0] = verb) into spec and f, then fill what the flags leave
 * open from f->project_dir's byoc.json and last push. Returns 0, or the usage exit
 * code (2) with err set, naming the flag. An image URI and a source module are
 * required (from a flag or the project). */
int byoc_runflags_parse(const char *verb, int argc, char **argv, unsigned accept, byoc_jobspec *spec,
                        byoc_runflags *f, byoc_err *err);
#endif
