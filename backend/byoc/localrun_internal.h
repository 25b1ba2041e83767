/* localrun_internal: what the parts of the local runner share (private to
 * backend/byoc/localrun*.c): the run's state and each part's entry points.
 *   localrun.c            orchestration: the spec, the image, status and record, the task
 *   localrun_aws.c        --upload, s3:// input channels, --with-credentials
 *   localrun_files.c      the files put into the container (source, hyperparameters, inputs)
 *   localrun_container.c  the container: user, environment, create, run with a time limit
 *   localrun_copy.c       copying the results out */
#ifndef BYOC_BYOC_LOCALRUN_INTERNAL_H
#define BYOC_BYOC_LOCALRUN_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>

#include "aws/client.h"
#include "byoc/localjobs.h"
#include "byoc/localrun.h"
#include "core/buf.h"
#include "docker/engine.h"

#define OPT_ML "/opt/ml"
#define LR_CODE_DIR "/opt/ml/code"   /* where the job program starts */
#define HP_FILE "/opt/braket/input/config/hyperparameters.json"
#define INPUT_DIR "/opt/braket/input/data"
#define RESULTS_DIR "/opt/braket/model"
#define FAILURE_FILE "/opt/ml/output/failure"
#define FAILURE_REASON_MAX 1024   /* the API's failureReason limit */
#define LINE_MAX_BYTES 65536
#define CHUNK 65536

typedef enum { ITEM_DIR, ITEM_MEM, ITEM_FILE } item_kind;

/* One entry of the tar put into the container at "/". */
typedef struct put_item {
    item_kind kind;
    char *path;          /* "opt/ml/input/config/hyperparameters.json" (dirs end in '/') */
    char *host;          /* ITEM_FILE: the file to read */
    char *data;          /* ITEM_MEM */
    size_t len;
} put_item;

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
    put_item *items;
    size_t n_items;
    byoc_strv item_dirs;         /* dir entries already listed */

    unsigned uid, gid;
    byoc_local_job record;
} run;

typedef struct run_outcome {
    bool cancelled, timed_out, start_failed;
    char *start_error;
} run_outcome;

/* localrun.c */
void lr_warn(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lr_set_str(char **dst, const char *v);
void lr_record(run *r);

/* localrun_aws.c */
bool lr_is_s3(const char *s);
bool lr_safe_relative(const char *rel);
void lr_add_env(run *r, const char *key, const char *value);
int lr_aws_phase(run *r, byoc_err *err);

/* localrun_files.c */
void lr_add_item(run *r, item_kind kind, const char *path, const char *host, const char *data, size_t len);
void lr_add_dir_chain(run *r, const char *base, const char *rel_file);
int lr_plan_files(run *r, byoc_err *err);
int lr_put_files(run *r, const char *id, byoc_err *err);

/* localrun_container.c */
int lr_read_container_file(run *r, const char *id, const char *path, size_t max, char **content, byoc_err *err);
void lr_resolve_user(run *r, const char *id);
int lr_create_container(run *r, byoc_err *err);
long lr_max_runtime(const run *r);
void lr_run_container(run *r, run_outcome *o);

/* localrun_copy.c */
void lr_copy_out(run *r, const char *ctr_path, const char *as_name);
char *lr_failure_text(run *r);
#endif
