/* localrun_result: what a local run (localrun.h) is given and gives back: its
 * options, its result and the result as JSON, and the label it gives the
 * container. Apart from the run so that its
 * parts (localrun_*.c) can fill a result without depending on the run's top. */
#ifndef BYOC_BYOC_LOCALRUN_RESULT_H
#define BYOC_BYOC_LOCALRUN_RESULT_H

#include <jansson.h>
#include <stdbool.h>

#include "aws/clients.h"
#include "aws/config.h"
#include "byoc/jobspec.h"
#include "core/strv.h"
#include "docker/engine.h"

#define BYOC_LOCAL_LABEL "byoc.local-job"               /* container label: the job name */

typedef struct byoc_local_run_opts {
    byoc_aws_config_opts aws;   /* profile/region for upload, S3 inputs and with_credentials */
    bool upload;                /* source.tar.gz to S3 as the SDK does (needs AWS credentials) */
    bool with_credentials;      /* pass AWS_ACCESS_KEY_ID/SECRET/SESSION_TOKEN and AWS_DEFAULT_REGION in */
    bool host_network;          /* network "host"; default "none" */
    const char *output_parent;  /* where <job-name>/ is made; NULL: the current directory */
    const char *jobs_file;      /* the local job record; NULL: localjobs.h's default */
    byoc_engine *engine;        /* NULL: one from the environment (DOCKER_HOST) */
    byoc_aws_clients *clients;  /* the AWS client comes from here (an app's, which must outlive the
                                   run); NULL: one of its own */
    const byoc_job_origin *origin; /* where each field came from (BYOC_JF_COUNT entries), or NULL:
                                      a field byoc.json gave is meant for the AWS run, so local mode
                                      leaves it unused without a warning */
} byoc_local_run_opts;

typedef struct byoc_local_run_result {
    char *job_name;
    char *job_arn;              /* local:job/<name> */
    char *image;                /* as given */
    char *image_id;
    char *container_id;         /* removed by the time the run returns */
    char *status;               /* COMPLETED, FAILED, CANCELLED; NULL if the container never existed */
    bool has_exit_code;
    int exit_code;
    char *failure_reason;
    char *output_dir;           /* absolute <output_parent>/<job-name> */
    char *log_path;             /* <output_dir>/log.txt */
    char *source_uri;           /* AMZN_BRAKET_SCRIPT_S3_URI as given to the job */
    bool has_first_output;      /* the container printed a line */
    double first_output_seconds; /* from its start to that first line */
    byoc_strv warnings;         /* also sent as LOG events "warning: ..." */
    byoc_strv not_copied;       /* container paths of what step 6 could not copy (each also a warning) */
    byoc_job_problems problems; /* validation problems (the first is also in err) */
} byoc_local_run_result;

void byoc_local_run_result_clear(byoc_local_run_result *r);

/* {"job_arn", "job_name", "status", "output_dir", "exit_code" (null if none), "failure_reason"
 * (only when there is one), "image", "log", "source_uri", "first_output_seconds" (null if none),
 * "warnings", "not_copied"}. */
json_t *byoc_local_run_result_json(const byoc_local_run_result *r);

#endif
