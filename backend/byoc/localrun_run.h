/* localrun_run: the state of one local run (localrun.h), shared by its parts
 * (private to backend/byoc/localrun*.c), and the small helpers every part uses.
 * It uses none of the parts; they use it:
 *   localrun.c            orchestration: the spec, the image, status, the task
 *   localrun_aws.c        --upload, s3:// input channels, --with-credentials
 *   localrun_files.c      the files put into the container (source, hyperparameters, inputs)
 *   localrun_container.c  the container: user, environment, create, run with a time limit
 *   localrun_copy.c       copying the results out
 * Below it: localrun_result.h (the run's options and result) and docker/container_files.h. */
#ifndef BYOC_BYOC_LOCALRUN_RUN_H
#define BYOC_BYOC_LOCALRUN_RUN_H
#include <stdbool.h>
#include <stddef.h>

#include "aws/client.h"
#include "byoc/localjobs.h"
#include "byoc/localrun_result.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/task.h"
#include "docker/container_files.h"
#include "docker/engine.h"

#define FAILURE_REASON_MAX 1024   /* the API's failureReason limit */
#define LINE_MAX_BYTES 65536

typedef struct run {
    const byoc_jobspec *spec;
    const byoc_local_run_opts *opts;
    byoc_task *t;
    byoc_local_run_result *out;

    char timestamp[32];
    char created[32];
    char *device;
    char *entry_point;
    char *checkpoint_dir;        /* absolute, normalised */
    bool created_outdir;

    byoc_engine *engine;
    bool own_engine;
    char *program;               /* the image's SAGEMAKER_PROGRAM, or NULL */
    bool has_entrypoint;
    char *image_user;            /* Config.User */

    char *archive_path;          /* source.tar.gz built here */
    char *stage_dir;             /* downloads of s3:// channels */
    byoc_aws_client *aws;
    char *region;
    char *output_s3;             /* known output location (upload or --output-s3), else NULL */

    byoc_strv env;               /* "K=V" for the container; may hold secrets */
    byoc_put_list files;         /* the tar put into the container at "/" */

    unsigned uid, gid;
    byoc_local_job record;
} run;

void lr_warn(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* local-jobs.json gets the run as it stands (RUNNING until out->status is set). */
void lr_record(run *r);
void lr_add_env(run *r, const char *key, const char *value);
bool lr_is_s3(const char *s);
/* A relative path of plain parts: no "", "." or "..". */
bool lr_safe_relative(const char *rel);
#endif
