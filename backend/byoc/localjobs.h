/* localjobs: the record of jobs run in local mode (localrun.h), so the
 * Monitor step can list them beside the jobs of Amazon Braket.
 *
 * One JSON file, $XDG_STATE_HOME/byoc/local-jobs.json (else
 * ~/.local/state/byoc/local-jobs.json): {"version": 1, "jobs": [...]}, each
 * job in the shape byoc_local_job_json gives. The file is 0600 in a 0700
 * directory, replaced atomically (a temporary file beside it, fsync,
 * rename), and changed under an flock on "<file>.lock" so that several byoc
 * processes can record jobs at once. Readers need no lock. At most
 * BYOC_LOCALJOBS_MAX jobs are kept (the oldest go first).
 *
 * A job's ARN is "local:job/<name>" (the Braket SDK's LocalQuantumJob form;
 * jobref.h recognises it); the name is the key: recording a job of the same
 * name replaces the earlier record. */
#ifndef BYOC_BYOC_LOCALJOBS_H
#define BYOC_BYOC_LOCALJOBS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/err.h"
#include "docker/engine.h"
#include "docker/engines.h"

#define BYOC_LOCALJOBS_FILE "local-jobs.json"
#define BYOC_LOCALJOBS_MAX 1000
#define BYOC_LOCAL_ARN_PREFIX "local:job/"

typedef struct byoc_local_job {
    char *name;            /* the job name (the key) */
    char *image;           /* the image as the user named it */
    char *image_id;        /* "sha256:..." or NULL */
    char *device;          /* AMZN_BRAKET_DEVICE_ARN given to the job */
    char *status;          /* RUNNING, COMPLETED, FAILED or CANCELLED */
    char *created;         /* ISO 8601 UTC with milliseconds, as the service writes times */
    char *started;         /* the container started; NULL if it never did */
    char *ended;           /* NULL while RUNNING */
    bool has_exit_code;
    int exit_code;         /* the container's exit status */
    char *failure_reason;  /* NULL when none */
    char *output_dir;      /* absolute path of <job-name>/ (model, log.txt, checkpoints/) */
    char *container_id;    /* removed once the job ended */
    long pid;              /* the byoc process running it; 0 once ended */
    /* Seconds from the container's start to its first line of output (what a
     * baked image costs before the job's code speaks), when there was output. */
    bool has_first_output;
    double first_output_seconds;
} byoc_local_job;

typedef struct byoc_local_jobs {
    byoc_local_job *items; /* newest first (by created) */
    size_t n;
} byoc_local_jobs;

void byoc_local_job_clear(byoc_local_job *j);
void byoc_local_jobs_clear(byoc_local_jobs *l);
void byoc_local_job_copy(byoc_local_job *dst, const byoc_local_job *src);

/* True when s is "local:job/<name>" (a JOB argument naming a local job). */
bool byoc_local_job_is_ref(const char *s);
/* "local:job/<name>", malloc'd. */
char *byoc_local_job_arn(const char *name);
/* The name in "local:job/<name>", or s itself when it is not such an ARN (points into s). */
const char *byoc_local_job_name_of(const char *s);
/* ISO 8601 UTC with milliseconds ("2026-12-02T10:11:12.345Z") of now; buf >= 32. */
void byoc_local_job_now(char *buf, size_t size);

/* The default record file, malloc'd. */
char *byoc_localjobs_default_path(void);

/* Read the record (path NULL: the default). A missing file is an empty list.
 * A file that is not the record's JSON is BYOC_E_FAILED naming it. */
int byoc_localjobs_load(const char *path, byoc_local_jobs *out, byoc_err *err);
/* What a load saw of the file, to skip reading it again while it is unchanged. */
typedef struct byoc_localjobs_stamp {
    bool valid;
    unsigned long long dev, ino;   /* ino 0: the file was missing */
    long long size, mtime_ns;
} byoc_localjobs_stamp;

/* byoc_localjobs_load, but only when the file changed (device, inode, size or
 * mtime) since *stamp (zeroed at first; NULL: always), which is then updated: returns 0
 * with *out loaded (a missing file: empty), 1 when unchanged (*out empty),
 * -1 on error. For pollers of the record: a 10,000-job record is parsed once. */
int byoc_localjobs_load_changed(const char *path, byoc_localjobs_stamp *stamp, byoc_local_jobs *out, byoc_err *err);
/* Insert or replace (by name) one job, then write the file. */
int byoc_localjobs_put(const char *path, const byoc_local_job *job, byoc_err *err);
/* Forget a job by name or ARN; *found (may be NULL) says whether it was there. */
int byoc_localjobs_remove(const char *path, const char *name_or_arn, bool *found, byoc_err *err);

/* A job by name or "local:job/<name>", or NULL. */
const byoc_local_job *byoc_localjobs_find(const byoc_local_jobs *l, const char *name_or_arn);

/* RUNNING, but the byoc process that ran it is gone (killed before it could
 * record the end): the Monitor shows such a job as interrupted. */
bool byoc_local_job_stale(const byoc_local_job *j);

/* The status the Monitor and the verbs show: the record's, except that a
 * stale RUNNING job is FAILED with BYOC_LOCAL_INTERRUPTED as its reason.
 * *failure (may be NULL) gets the reason to show (NULL when none). */
#define BYOC_LOCAL_INTERRUPTED "interrupted: the byoc that ran it is gone"
const char *byoc_local_job_shown_status(const byoc_local_job *j, const char **failure);

/* The job in the record at path (NULL: the default) named by ref (its name or
 * "local:job/<name>"), copied into *out; BYOC_E_FAILED "no local job" when it
 * is not there. */
int byoc_localjobs_get(const char *path, const char *ref, byoc_local_job *out, byoc_err *err);

/* <output_dir>/log.txt (written as the job runs: the Monitor's log tail), malloc'd; NULL without an output dir. */
char *byoc_local_job_log_path(const byoc_local_job *j);

/* What `byoc results` gives for an ended local job (localjobs_results.c):
 * the files `run --local` copied out of /opt/ml/model, in place in its
 * output directory (out->dir), regular files only, relative to it and sorted;
 * log.txt and checkpoints/ are left out (not results), and so is anything
 * that is not a plain file or directory (never followed). A RUNNING job is
 * BYOC_E_FAILED (results come when it ends); at most BYOC_LOCAL_RESULTS_MAX
 * files are listed. */
#define BYOC_LOCAL_RESULTS_MAX 100000
struct byoc_unpacked;
int byoc_local_job_results(const byoc_local_job *j, struct byoc_unpacked *out, byoc_err *err);

/* Cancel a RUNNING local job from another place than the one running it (the
 * Monitor): the byoc process that runs it gets SIGTERM and does what Ctrl-C
 * does (stop the container, copy what exists, record CANCELLED); *status (>= 16
 * bytes) = "CANCELLING". When that process is gone (a stale record) the
 * container is killed and removed here and the record says CANCELLED;
 * *status = "CANCELLED". A job that already ended is BYOC_E_FAILED ("already
 * ended"); a job this very process runs is BYOC_E_USAGE (cancel its task). */
int byoc_local_job_cancel(byoc_engine *e, const char *path, const byoc_local_job *j, char *status, byoc_err *err);

/* byoc_local_job_cancel for a job named by ref ("local:job/<name>" or its
 * name) in the record at path (NULL: the default), on the engine from engines
 * (an app's; NULL: one of its own for DOCKER_HOST). A job not in the record is
 * BYOC_E_FAILED ("no local job"). */
int byoc_local_job_cancel_ref(byoc_engines *engines, const char *path, const char *ref, char *status, byoc_err *err);

/* {"job_arn", "job_name", "status", "created", "device", "local": true, "image", "image_id",
 *  "started", "ended", "exit_code", "failure_reason", "output_dir", "container_id", "pid"}
 * (absent values are null); the first five are what `byoc jobs --json` prints per job. */
json_t *byoc_local_job_json(const byoc_local_job *j);
/* What `byoc jobs --json` prints for a local job: the five members above
 * with the shown status, and "local": true. */
json_t *byoc_local_job_summary_json(const byoc_local_job *j);
/* What `byoc status --json` prints for a local job: byoc_local_job_json with
 * the shown status and failure reason, "events": [] (a local run has no
 * service events) and "metrics" (taken; NULL: {}). */
json_t *byoc_local_job_status_json(const byoc_local_job *j, json_t *metrics);
/* A JSON array of byoc_local_job_json. */
json_t *byoc_local_jobs_json(const byoc_local_jobs *l);

#endif
