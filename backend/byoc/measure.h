/* measure: what installing a project's requirements.txt at every job start
 * costs, measured on this machine.
 *
 * The prebuilt Braket job images run `python3 -m pip install -r
 * requirements.txt` in the source directory when a job starts. byoc_measure_run
 * does the same in a throwaway container of a base image (measure_base.h: the
 * one named, else the prebuilt jobs image, pulled with the user's AWS
 * credentials when the engine lacks it, else python:<prebuilt Python>), with
 * the source directory mounted read-only at
 * /opt/ml/code, and times it. It reports the seconds, the requirements that
 * failed, and the bytes the install wrote (what a baked image would add).
 *
 * The container gets the network named (NULL: the engine's default, which
 * reaches the internet as a job does) and PIP_INDEX_URL, PIP_EXTRA_INDEX_URL,
 * PIP_TRUSTED_HOST and PIP_FIND_LINKS from byoc's environment when set.
 *
 * Results are kept in <project>/.byoc/measure.json (0600), keyed by the
 * sha256 of the requirements' content and the base image id; a run whose key
 * is stored reuses it (reused = true) unless `again`. */
#ifndef BYOC_BYOC_MEASURE_H
#define BYOC_BYOC_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "aws/clients.h"
#include "aws/config.h"
#include "byoc/decide.h"
#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"
#include "docker/engines.h"

typedef struct json_t json_t;

typedef struct byoc_measure_opts {
    const char *project_dir;    /* where .byoc/measure.json lives */
    const char *requirements;   /* NULL: <project_dir>/requirements.txt */
    const char *base;           /* NULL: the default base (above) */
    const char *network_mode;   /* NULL: the engine's default; "none" is refused */
    long timeout_seconds;       /* 0: 1800 */
    bool again;                 /* measure even when a result is stored */
    const byoc_aws_config_opts *aws; /* for pulling the prebuilt jobs image; NULL: not pulled */
    byoc_aws_clients *clients;  /* that pull's AWS client comes from here (an app's, which must outlive
                                   the run); NULL: one of its own */
    byoc_engines *engines;      /* the engine comes from here (an app's); NULL: one of its own */
} byoc_measure_opts;

typedef struct byoc_measurement {
    double install_seconds;
    long packages;              /* package-like requirement entries */
    byoc_strv failed;           /* requirements pip could not install */
    int exit_code;              /* pip's */
    int64_t size_bytes;         /* what the install wrote (SizeRw); -1 unknown */
    char *base;                 /* the image reference used */
    char *base_id;              /* its id */
    char *base_note;            /* why that base (measure_base.h), or NULL; not stored */
    char *requirements_sha256;
    char *measured_at;          /* RFC 3339, UTC */
    bool reused;                /* read from the state file */
} byoc_measurement;

void byoc_measurement_clear(byoc_measurement *m);

/* Measure (or reuse). Errors: an unreadable requirements file (USAGE), no
 * engine or no such base image locally (ENV, naming it and what to do), a
 * container that cannot reach the index (ENV), cancel (CANCELLED). Nothing is
 * stored on error. t may be NULL. */
int byoc_measure_run(byoc_task *t, const byoc_measure_opts *o, byoc_measurement *out, byoc_err *err);

/* The newest stored result for the requirements' current content (any base),
 * without an engine: 1 found, 0 none (or no readable requirements). */
int byoc_measure_lookup(const char *project_dir, const char *requirements, byoc_measurement *out);

/* What pip's output says: the requirements that failed (appended to failed),
 * and whether it could not reach an index at all. */
void byoc_pip_failures(const char *output, byoc_strv *failed, bool *no_network);

/* job.instance_count in <project_dir>/byoc.json; 0 when unknown. */
long byoc_measure_instance_count(const char *project_dir);
/* byoc.json "decide": {"install_threshold_seconds": N}; 0 when unset. */
long byoc_measure_threshold(const char *project_dir);
/* byoc.json "decide": {"measure_base": IMAGE, "measure_network": MODE}, for the opts fields the
 * caller left NULL (the TUI has no flags). Returns the strings it set, to free with free(). */
void byoc_measure_settings(const char *project_dir, byoc_measure_opts *o, char **base, char **network);

/* The figures as the rules take them (s->failed is malloc'd; caller frees). */
void byoc_measurement_startup(const byoc_measurement *m, long instance_count, long threshold, byoc_startup *s);

/* {"install_seconds", "packages", "failed": [...], "base", "base_id", "measured_at",
 * "size_bytes", "instance_count", "seconds_per_job", "reused", "exit_code"}. Caller decrefs. */
json_t *byoc_measurement_to_json(const byoc_measurement *m, long instance_count);

#endif
