/* The verb table: one line per verb. Each verb lives in verb_<name>.c, in its step's
 * folder (tui/steps/<step>/) or here. */
#include <stddef.h>

#include "cli.h"
#include "verbs.h"

const byoc_verb byoc_verbs[] = {
    {"tui", "", "open the terminal UI (the default on a terminal)", VERB_TUI_HELP, verb_tui},
    {"doctor", "", "check the engine, credentials, region, endpoints and terminal", VERB_DOCTOR_HELP, verb_doctor},
    {"decide", "[--scan DIR] [--no-scan] [--answer KEY=VALUE]... [--measure [--measure-base IMAGE]]", "is your own container needed, and which recipe", VERB_DECIDE_HELP, verb_decide},
    {"init", "[DIR] [--recipe extend-prebuilt|custom-base] [--language python|julia|rust|cpp] [--arch amd64|arm64] [--gpu] [--python V] [--base IMAGE] [--answer K=V]... [--existing keep|overwrite|beside|PATH=C]... [--force] [--no-git]", "scaffold a BYOC project: what decide concludes, around your code", VERB_INIT_HELP, verb_init},
    {"lint", "[DIR] [--instance-type T] [-f DOCKERFILE]", "check the Dockerfile and build context for BYOC mistakes", VERB_LINT_HELP, verb_lint},
    {"vendor", "[DIR]", "clone private dependencies into the build context with your ssh-agent", VERB_VENDOR_HELP, verb_vendor},
    {"build", "[DIR] [-t REF]... [--build-arg K=V]... [--platform P] [--no-cache] [--target T] [--no-lint] [--network MODE] [-f DOCKERFILE]", "lint and build the image on the Docker engine", VERB_BUILD_HELP, verb_build},
    {"images", "[--local [--all] | --repository NAME]", "list the local images, or an ECR repository's", VERB_IMAGES_HELP, verb_images},
    {"push", "REF --repository NAME [--tag T] [--create] [--docker-config]", "push an image to ECR with per-layer progress", VERB_PUSH_HELP, verb_push},
    {"permit", "REPOSITORY [--allow PRINCIPAL]... [--revoke PRINCIPAL]... [--dry-run] [--force] [--check ROLE_ARN]", "grant or check pull access to the image", VERB_PERMIT_HELP, verb_permit},
    {"run", "--image-uri URI --source-module PATH [--entry-point MOD[:FUNC]] [--role-arn ARN] [--device DEV] [--instance-type T] [--instance-count N] [--volume-gb N] [--hyperparameter K=V]... [--input-data CHANNEL=S3URI|PATH]... [--output-s3 URI] [--checkpoint-s3 URI] [--max-runtime SEC] [--job-name NAME] [--tag K=V]... [--wait] [--dry-run] [--no-preflight] [--local [--upload] [--with-credentials] [--host-network] [--strict]]", "create a Hybrid Job on Amazon Braket, or run it locally on the engine", VERB_RUN_HELP, verb_run},
    {"preflight", "[run flags] [--smoke]", "check the job before submitting: image, contract, code, permissions, regions", VERB_PREFLIGHT_HELP, verb_preflight},
    {"jobs", "[--status S]... [--max N] [--local]", "list the local and Hybrid Jobs, newest first", VERB_JOBS_HELP, verb_jobs},
    {"status", "JOB", "a job's status, events and metrics", VERB_STATUS_HELP, verb_status},
    {"logs", "JOB [--follow]", "a job's log from CloudWatch, all instances merged", VERB_LOGS_HELP, verb_logs},
    {"cancel", "JOB", "cancel a job", VERB_CANCEL_HELP, verb_cancel},
    {"results", "JOB [-o DIR]", "download and unpack a job's results", VERB_RESULTS_HELP, verb_results},
    {NULL, NULL, NULL, NULL, NULL},
};
