/* jobsubmit: run a job spec on Amazon Braket, as AwsQuantumJob.create does.
 *
 *   1. validate the spec locally (jobspec.h): any problem -> BYOC_E_USAGE, nothing sent
 *   2. resolve, read-only: region (a regional device ARN moves the job to its
 *      region; a region-less QPU is searched in the other Braket regions),
 *      account (STS GetCallerIdentity), the device (GetDevice), the role
 *      (--role-arn, $BRAKET_JOBS_ROLE_ARN, else the first
 *      /service-role/AmazonBraketJobsExecutionRole* from IAM ListRoles), the
 *      image (an optional hook, e.g. ECR DescribeImages)
 *   3. derive: timestamp, name, default bucket amazon-braket-<region>-<account>,
 *      S3 layout jobs/<name>/<ts>/{script,data,checkpoints}, a UUID4
 *      clientToken; check the derived values; build source.tar.gz locally
 *   -- a dry run stops here and returns the plan --
 *   4. ensure the default bucket (created with the region's location
 *      constraint, public access blocked, Braket's bucket policy), upload
 *      local input data, the source archive (multipart above a threshold) or
 *      copy an S3 source module, copy checkpoints of an earlier job
 *   5. CreateJob (retried with the same clientToken), GetJob for the status
 *   6. with wait: GetJob until COMPLETED, FAILED or CANCELLED, logging status
 *      changes and events; FAILED/CANCELLED is BYOC_E_FAILED with the reason
 *
 * The plan is plain data so the CLI can print it and the TUI can show it.
 * byoc_job_submit_task_fn runs the whole thing as a core/task.h task. */
#ifndef BYOC_BYOC_JOBSUBMIT_H
#define BYOC_BYOC_JOBSUBMIT_H

#include <stdbool.h>
#include <stdint.h>

#include "aws/clients.h"
#include "aws/config.h"
#include "aws/s3.h"
#include "byoc/jobspec.h"
#include "core/err.h"
#include "core/task.h"

/* An image check: 0 when the image exists; 1 when it could not be verified
 * (note says why: the run goes on and the note becomes a warning); -1 with
 * err when it does not exist (BYOC_E_USAGE naming --image-uri) or the check
 * itself failed. aws: the options the run uses (profile, files), so a hook
 * can reach the image's own region; account: the caller's account.
 * byoc_ecr_image_check (imagecheck.h) is the one byoc uses. */
typedef int (*byoc_job_image_check_fn)(void *ud, byoc_task *t, const byoc_aws_config_opts *aws, const char *account,
                                       const char *image_uri, char *note, size_t note_size, byoc_err *err);

typedef struct byoc_job_submit_opts {
    byoc_aws_config_opts aws;      /* profile, region, config files */
    byoc_aws_clients *clients;     /* where the clients for aws come from (aws/clients.h); NULL: made here */
    bool dry_run;                  /* stop after step 3 */
    bool wait;                     /* step 6 */
    long poll_ms;                  /* 0: $BYOC_JOB_POLL_MS, else 5000 (the SDK's 5 s) */
    const byoc_s3_upload_opts *upload;    /* NULL: defaults (16 MiB parts, $BYOC_S3_* overrides) */
    byoc_job_image_check_fn image_check;  /* NULL: the image is not checked */
    void *image_check_ud;
    const char *role_env;          /* value of BRAKET_JOBS_ROLE_ARN; NULL: the environment */
    const char *timestamp;         /* the reviewed plan's (its S3 layout and default name); NULL: now */
} byoc_job_submit_opts;

typedef struct byoc_job_transfer {
    char *kind;     /* "source" (the archive), "input" (a local input file), "copy" (S3 to S3) */
    char *from;     /* local path or s3:// URI */
    char *to;       /* s3:// URI */
    int64_t size;   /* bytes, -1 when not known */
} byoc_job_transfer;

typedef struct byoc_job_plan {
    char *region;
    char *account;
    char *bucket;                /* the default bucket */
    long bucket_status;          /* HeadBucket: 200 exists, 404 will be created */
    char *timestamp;
    char *job_name;
    char *client_token;
    char *role_arn;
    char *role_origin;           /* "--role-arn", "BRAKET_JOBS_ROLE_ARN", "IAM ListRoles" */
    char *image_uri;
    char *endpoint;              /* the Braket endpoint URL */
    json_t *request;             /* the CreateJob body */
    byoc_job_transfer *transfers;
    size_t n_transfers;
    char **warnings;
    size_t n_warnings;
    char *archive_path;          /* the built source.tar.gz (removed by byoc_job_plan_free) */
} byoc_job_plan;

typedef struct byoc_job_result {
    byoc_job_plan plan;
    char *job_arn;               /* NULL on a dry run */
    char *status;                /* the last status seen ("DRY_RUN" on a dry run) */
    char *failure_reason;
    json_t *job;                 /* the last GetJob reply, or NULL */
    byoc_job_problems problems;  /* validation problems (also in err) */
} byoc_job_result;

void byoc_job_result_clear(byoc_job_result *r);

/* The whole run. out is always initialised (free it even on failure). t may be NULL. */
int byoc_job_submit(const byoc_jobspec *spec, const byoc_job_submit_opts *opts, byoc_task *t, byoc_job_result *out,
                    byoc_err *err);

/* {"job_arn", "job_name", "status"[, "failure_reason"]}, plus for a dry run
 * {"region", "account", "bucket": {"name", "exists"}, "role_arn", "role_origin",
 *  "create_job": {"method", "url", "body"}, "transfers": [{"kind", "from", "to", "size"}], "warnings"}. */
json_t *byoc_job_result_json(const byoc_job_result *r);

/* The default bucket, as step 4 treats it: HEAD it, and when it is missing
 * create it in region, block public access and put Braket's bucket policy
 * (jobsubmit.c's check and create say how each answer is taken). */
int byoc_job_ensure_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region, byoc_err *err);

/* A task around byoc_job_submit: arg is a byoc_job_submit_args (freed with
 * byoc_job_submit_args_free), the result a byoc_job_result* (freed by the task). */
typedef struct byoc_job_submit_args {
    byoc_jobspec spec;             /* owned */
    byoc_job_submit_opts opts;     /* its strings must outlive the task */
    char timestamp[32];            /* storage for opts.timestamp, owned with the args */
} byoc_job_submit_args;

int byoc_job_submit_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void byoc_job_submit_args_free(void *args);

#endif
