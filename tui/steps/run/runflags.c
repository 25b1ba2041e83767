#include "runflags.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/buf.h"

enum {
    OPT_IMAGE_URI = 256,
    OPT_SOURCE_MODULE,
    OPT_ENTRY_POINT,
    OPT_ROLE_ARN,
    OPT_DEVICE,
    OPT_INSTANCE_TYPE,
    OPT_INSTANCE_COUNT,
    OPT_VOLUME_GB,
    OPT_HYPERPARAMETER,
    OPT_INPUT_DATA,
    OPT_OUTPUT_S3,
    OPT_KMS_KEY,
    OPT_CHECKPOINT_S3,
    OPT_CHECKPOINT_LOCAL_PATH,
    OPT_CODE_LOCATION,
    OPT_MAX_RUNTIME,
    OPT_JOB_NAME,
    OPT_TAG,
    OPT_DISTRIBUTION,
    OPT_RESERVATION_ARN,
    OPT_COPY_CHECKPOINTS,
    OPT_WAIT,
    OPT_DRY_RUN,
    OPT_LOCAL,
    OPT_UPLOAD,
    OPT_WITH_CREDENTIALS,
    OPT_HOST_NETWORK,
    OPT_STRICT,
    OPT_SMOKE,
    OPT_NO_PREFLIGHT,
};

static const struct option OPTIONS[] = {
    {"image-uri", required_argument, NULL, OPT_IMAGE_URI},
    {"source-module", required_argument, NULL, OPT_SOURCE_MODULE},
    {"entry-point", required_argument, NULL, OPT_ENTRY_POINT},
    {"role-arn", required_argument, NULL, OPT_ROLE_ARN},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"instance-type", required_argument, NULL, OPT_INSTANCE_TYPE},
    {"instance-count", required_argument, NULL, OPT_INSTANCE_COUNT},
    {"volume-gb", required_argument, NULL, OPT_VOLUME_GB},
    {"hyperparameter", required_argument, NULL, OPT_HYPERPARAMETER},
    {"input-data", required_argument, NULL, OPT_INPUT_DATA},
    {"output-s3", required_argument, NULL, OPT_OUTPUT_S3},
    {"kms-key-id", required_argument, NULL, OPT_KMS_KEY},
    {"checkpoint-s3", required_argument, NULL, OPT_CHECKPOINT_S3},
    {"checkpoint-local-path", required_argument, NULL, OPT_CHECKPOINT_LOCAL_PATH},
    {"code-location", required_argument, NULL, OPT_CODE_LOCATION},
    {"max-runtime", required_argument, NULL, OPT_MAX_RUNTIME},
    {"job-name", required_argument, NULL, OPT_JOB_NAME},
    {"tag", required_argument, NULL, OPT_TAG},
    {"distribution", required_argument, NULL, OPT_DISTRIBUTION},
    {"reservation-arn", required_argument, NULL, OPT_RESERVATION_ARN},
    {"copy-checkpoints-from-job", required_argument, NULL, OPT_COPY_CHECKPOINTS},
    {"wait", no_argument, NULL, OPT_WAIT},
    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
    {"local", no_argument, NULL, OPT_LOCAL},
    {"upload", no_argument, NULL, OPT_UPLOAD},
    {"with-credentials", no_argument, NULL, OPT_WITH_CREDENTIALS},
    {"host-network", no_argument, NULL, OPT_HOST_NETWORK},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"smoke", no_argument, NULL, OPT_SMOKE},
    {"no-preflight", no_argument, NULL, OPT_NO_PREFLIGHT},
    {NULL, 0, NULL, 0},
};

static char **scalar_field(byoc_jobspec *s, int opt)
{
    switch (opt) {
    case OPT_IMAGE_URI: return &s->image_uri;
    case OPT_SOURCE_MODULE: return &s->source_module;
    case OPT_ENTRY_POINT: return &s->entry_point;
    case OPT_ROLE_ARN: return &s->role_arn;
    case OPT_DEVICE: return &s->device;
    case OPT_INSTANCE_TYPE: return &s->instance_type;
    case OPT_INSTANCE_COUNT: return &s->instance_count;
    case OPT_VOLUME_GB: return &s->volume_gb;
    case OPT_OUTPUT_S3: return &s->output_s3;
    case OPT_KMS_KEY: return &s->kms_key_id;
    case OPT_CHECKPOINT_S3: return &s->checkpoint_s3;
    case OPT_CHECKPOINT_LOCAL_PATH: return &s->checkpoint_local_path;
    case OPT_CODE_LOCATION: return &s->code_location;
    case OPT_MAX_RUNTIME: return &s->max_runtime;
    case OPT_JOB_NAME: return &s->job_name;
    case OPT_DISTRIBUTION: return &s->distribution;
    case OPT_RESERVATION_ARN: return &s->reservation_arn;
    case OPT_COPY_CHECKPOINTS: return &s->copy_checkpoints_from_job;
    default: return NULL;
    }
}

static bool numeric_flag(int opt)
{
    return opt == OPT_INSTANCE_COUNT || opt == OPT_VOLUME_GB || opt == OPT_MAX_RUNTIME;
}

static bool mode_accepted(int opt, unsigned accept)
{
    if (opt >= OPT_WAIT && opt <= OPT_STRICT)
        return accept & BYOC_RUNFLAGS_RUN_MODES;
    if (opt == OPT_SMOKE)
        return accept & BYOC_RUNFLAGS_SMOKE;
    if (opt == OPT_NO_PREFLIGHT)
        return accept & BYOC_RUNFLAGS_NO_PREFLIGHT;
    return true;
}

int byoc_runflags_parse(const char *verb, int argc, char **argv, unsigned accept, byoc_jobspec *s, byoc_runflags *f,
                        byoc_err *err)
{
    opterr = 0;
    int c, index = -1;
    while ((c = getopt_long(argc, argv, ":", OPTIONS, &index)) != -1) {
        if (c >= OPT_WAIT && !mode_accepted(c, accept))
            return byoc_cli_usage(err, verb, "unknown flag '%s' (see byoc %s --help)", argv[optind - 1], verb);
        char **field = scalar_field(s, c);
        if (field) {
            if (*field) {
                char flag[64];
                snprintf(flag, sizeof flag, "--%s", index >= 0 ? OPTIONS[index].name : "?");
                return byoc_cli_usage(err, flag, "given twice");
            }
            if (numeric_flag(c)) {
                *field = byoc_xstrdup(optarg);
            } else {
                byoc_jobspec_set(field, optarg);
                if (!*field && (c == OPT_IMAGE_URI || c == OPT_SOURCE_MODULE))
                    return byoc_cli_usage(err, c == OPT_IMAGE_URI ? "--image-uri" : "--source-module",
                                          "needs a value");
            }
            continue;
        }
        char *k, *v;
        switch (c) {
        case OPT_HYPERPARAMETER:
        case OPT_TAG:
            if (byoc_jobspec_split_kv(optarg, &k, &v) != 0)
                return byoc_cli_usage(err, c == OPT_TAG ? "--tag" : "--hyperparameter", "'%s' is not KEY=VALUE",
                                      optarg);
            if (c == OPT_TAG)
                byoc_jobspec_add_tag(s, k, v);
            else
                byoc_jobspec_add_hyperparameter(s, k, v);
            free(k);
            free(v);
            break;
        case OPT_INPUT_DATA: byoc_jobspec_add_input_arg(s, optarg); break;
        case OPT_WAIT: f->wait = true; break;
        case OPT_DRY_RUN: f->dry_run = true; break;
        case OPT_LOCAL: f->local = true; break;
        case OPT_UPLOAD: f->upload = true; break;
        case OPT_WITH_CREDENTIALS: f->with_credentials = true; break;
        case OPT_HOST_NETWORK: f->host_network = true; break;
        case OPT_STRICT: f->strict = true; break;
        case OPT_SMOKE: f->smoke = true; break;
        case OPT_NO_PREFLIGHT: f->no_preflight = true; break;
        case ':': return byoc_cli_usage(err, argv[optind - 1], "needs a value");
        default:
            return byoc_cli_usage(err, verb, "unknown flag '%s' (see byoc %s --help)", argv[optind - 1], verb);
        }
    }
    if (optind < argc)
        return byoc_cli_usage(err, verb, "takes no positional arguments (got '%s')", argv[optind]);
    if (!f->local && (f->upload || f->with_credentials || f->host_network || f->strict))
        return byoc_cli_usage(err,
                              f->upload             ? "--upload"
                              : f->with_credentials ? "--with-credentials"
                              : f->host_network     ? "--host-network"
                                                    : "--strict",
                              "only with --local");
    if (f->local && f->dry_run)
        return byoc_cli_usage(err, "--dry-run", "not with --local (a local run creates nothing on AWS)");
    if (f->project_dir) {
        byoc_project proj;
        bool found = false;
        if (byoc_project_load(&proj, f->project_dir, &found, err) != 0)
            return byoc_err_exit_code(err->kind);
        int rc = found ? byoc_jobspec_fill_defaults(s, &proj, f->project_dir, f->origin, err) : 0;
        byoc_project_clear(&proj);
        if (rc != 0)
            return byoc_err_exit_code(err->kind);
    }
    if (f->local && !s->image_uri)
        return byoc_cli_usage(err, "--image-uri", "is required: the image on the local engine to run");
    if (!s->image_uri)
        return byoc_cli_usage(err, "--image-uri", "is required: the ECR image of the job (<account>.dkr.ecr.<region>."
                                                  "amazonaws.com/<repository>:<tag>)");
    if (!s->source_module)
        return byoc_cli_usage(err, "--source-module", "is required: the Python file or directory to run");
    return 0;
}
