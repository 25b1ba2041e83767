/* jobspec: one Braket Hybrid Job as the user describes it, with every option
 * of the SDK's AwsQuantumJob.create, and what the SDK derives from it.
 *
 * A spec holds the form's text as given (numbers too, so a form can keep
 * "abc" and say why it is wrong); NULL means "use the SDK default". The same
 * spec serves the AWS run (jobsubmit.h), the local run and the TUI form, and
 * round-trips through byoc.json's "job" object.
 *
 *   byoc_jobspec s; byoc_jobspec_init(&s);
 *   byoc_jobspec_set(&s.image_uri, "...");  byoc_jobspec_add_hyperparameter(&s, "lr", "0.1");
 *   byoc_job_problems probs = {0};
 *   if (byoc_jobspec_validate(&s, NULL, &probs)) -> byoc_job_problems_to_err(&probs, err);
 *
 * Validation (jobspec_validate.c) names the CLI flag and the API member of
 * every problem, and the rule broken. The derived values (default name,
 * bucket, S3 layout, the CreateJob body) are in jobspec_defaults.c. */
#ifndef BYOC_BYOC_JOBSPEC_H
#define BYOC_BYOC_JOBSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/project.h"
#include "core/err.h"

typedef struct json_t json_t;

/* SDK defaults (braket/jobs/config.py) and limits. */
#define BYOC_JOB_DEFAULT_DEVICE "local:none/none"
#define BYOC_JOB_DEFAULT_INSTANCE_TYPE "ml.m5.large"
#define BYOC_JOB_DEFAULT_INSTANCE_COUNT 1
#define BYOC_JOB_DEFAULT_VOLUME_GB 30
#define BYOC_JOB_DEFAULT_MAX_RUNTIME 432000
#define BYOC_JOB_DEFAULT_CHECKPOINT_LOCAL_PATH "/opt/jobs/checkpoints"
#define BYOC_JOB_DEFAULT_CHANNEL "input"
#define BYOC_JOB_MAX_INSTANCES 5           /* developer guide */
#define BYOC_JOB_ROLE_ENV "BRAKET_JOBS_ROLE_ARN"
#define BYOC_JOB_DEFAULT_ROLE_PATH "/service-role/"
#define BYOC_JOB_DEFAULT_ROLE_PREFIX "AmazonBraketJobsExecutionRole"

/* The fields of the form. Each has a CLI flag, an API member and a byoc.json key. */
typedef enum {
    BYOC_JF_IMAGE_URI,
    BYOC_JF_SOURCE_MODULE,
    BYOC_JF_ENTRY_POINT,
    BYOC_JF_ROLE_ARN,
    BYOC_JF_DEVICE,
    BYOC_JF_INSTANCE_TYPE,
    BYOC_JF_INSTANCE_COUNT,
    BYOC_JF_VOLUME_GB,
    BYOC_JF_HYPERPARAMETER,
    BYOC_JF_INPUT_DATA,
    BYOC_JF_OUTPUT_S3,
    BYOC_JF_KMS_KEY,
    BYOC_JF_CHECKPOINT_S3,
    BYOC_JF_CHECKPOINT_LOCAL_PATH,
    BYOC_JF_CODE_LOCATION,
    BYOC_JF_MAX_RUNTIME,
    BYOC_JF_JOB_NAME,
    BYOC_JF_TAG,
    BYOC_JF_DISTRIBUTION,
    BYOC_JF_RESERVATION_ARN,
    BYOC_JF_COPY_CHECKPOINTS,
    BYOC_JF_COUNT
} byoc_job_field;

const char *byoc_job_field_flag(byoc_job_field f);  /* "--job-name" */

typedef struct byoc_job_channel {
    char *name;          /* channelName */
    char *location;      /* an S3 URI (s3:// or https://bucket.s3...) or a local path prefix */
    char *content_type;  /* may be NULL */
} byoc_job_channel;

/* Which program in the image starts the entry point; it decides what an entry point may be. */
typedef enum {
    BYOC_LAUNCHER_BRAKET = 0, /* the stock Braket launcher (prebuilt, extend-prebuilt): Python module rules */
    BYOC_LAUNCHER_BYOC,       /* byoc's (custom-base): modules, scripts, Cargo.toml, CMakeLists.txt[:T], ... */
    BYOC_LAUNCHER_UNKNOWN,    /* an image byoc did not make: only the API's constraints */
} byoc_job_launcher;

typedef struct byoc_jobspec {
    byoc_job_launcher launcher;   /* not in byoc.json: from the image and the project (byoc_job_launcher_in) */
    char *image_uri;              /* NULL: the Braket base image of the region */
    char *source_module;          /* local file or directory, or s3://.../x.tar.gz */
    char *entry_point;            /* MOD[:FUNC]; NULL: the source module's stem */
    char *role_arn;               /* NULL: $BRAKET_JOBS_ROLE_ARN, else the default jobs role */
    char *device;                 /* device ARN or local:<provider>/<simulator>; NULL: local:none/none */
    char *instance_type;          /* NULL: ml.m5.large */
    char *instance_count;         /* text; NULL: 1 */
    char *volume_gb;              /* text; NULL: 30 */
    byoc_kv *hyperparameters;
    size_t n_hyperparameters;
    byoc_job_channel *channels;
    size_t n_channels;
    char *output_s3;              /* outputDataConfig.s3Path; NULL: s3://<bucket>/jobs/<name>/<ts>/data */
    char *kms_key_id;             /* outputDataConfig.kmsKeyId; NULL: omitted */
    char *checkpoint_s3;          /* NULL: s3://<bucket>/jobs/<name>/<ts>/checkpoints */
    char *checkpoint_local_path;  /* NULL: /opt/jobs/checkpoints */
    char *code_location;          /* S3 prefix for source.tar.gz; NULL: s3://<bucket>/jobs/<name>/<ts>/script */
    char *max_runtime;            /* text, seconds; NULL: 432000 */
    char *job_name;               /* NULL: braket-job[-<repo>]-<ts> */
    byoc_kv *tags;
    size_t n_tags;
    char *distribution;           /* NULL or "data_parallel" */
    char *reservation_arn;        /* adds associations[RESERVATION_TIME_WINDOW_ARN] */
    char *copy_checkpoints_from_job; /* a job ARN whose checkpoints are copied first */
} byoc_jobspec;

void byoc_jobspec_init(byoc_jobspec *s);
void byoc_jobspec_clear(byoc_jobspec *s);
/* Replace a string field (copies; NULL or "" clears). */
void byoc_jobspec_set(char **field, const char *value);
void byoc_jobspec_add_hyperparameter(byoc_jobspec *s, const char *key, const char *value);
void byoc_jobspec_add_tag(byoc_jobspec *s, const char *key, const char *value);
void byoc_jobspec_add_channel(byoc_jobspec *s, const char *name, const char *location, const char *content_type);

/* Split "K=V" at the first '='. Returns -1 if there is no '='. *key and *value are malloc'd. */
int byoc_jobspec_split_kv(const char *text, char **key, char **value);
/* "CHANNEL=LOCATION" -> channel; a text without '=', or whose part before '='
 * holds ':' or '/' (a URI or path such as "s3://b/k=1"), goes to the default
 * channel "input", as the SDK does for a non-dict input_data. */
void byoc_jobspec_add_input_arg(byoc_jobspec *s, const char *text);

/* byoc.json "job" object <-> spec. Unknown keys are ignored; wrong types are
 * USAGE errors naming "byoc.json: job.<key>". */
json_t *byoc_jobspec_to_json(const byoc_jobspec *s);
int byoc_jobspec_from_json(byoc_jobspec *s, const json_t *job, byoc_err *err);
/* Where a value of the job came from (the review shows it). */
typedef enum { BYOC_JO_NONE = 0, BYOC_JO_FLAG, BYOC_JO_PROJECT, BYOC_JO_PUSH } byoc_job_origin;
const char *byoc_job_origin_name(byoc_job_origin o);  /* "", "flag", "byoc.json", "last push" */
/* {"<byoc.json key>": "<origin name>"} for every field with an origin (BYOC_JF_COUNT entries):
 * the dry run's "origins", which the TUI's review shows too. Caller decrefs. */
json_t *byoc_job_origins_json(const byoc_job_origin *origin);

/* The project's defaults under what s already has: each field s leaves unset from byoc.json's
 * "job", the image from the project's last push (byoc.json "pushed": {"image_uri"}) when the
 * job names none. A relative source module of byoc.json is taken relative to project_dir.
 * origin (BYOC_JF_COUNT entries, may be NULL) says FLAG for what s had, PROJECT or PUSH for
 * what was filled. A malformed "job" fails as byoc_jobspec_from_json does. */
int byoc_jobspec_fill_defaults(byoc_jobspec *s, const byoc_project *p, const char *project_dir,
                               byoc_job_origin *origin, byoc_err *err);

/* Remember the form in the project (p->job is replaced) / fill the spec from it. A value whose
 * origin (BYOC_JF_COUNT entries, may be NULL) is the last push is not kept: the next push is
 * the next default. */
void byoc_jobspec_remember(const byoc_jobspec *s, const byoc_job_origin *origin, byoc_project *p);
int byoc_jobspec_recall(byoc_jobspec *s, const byoc_project *p, byoc_err *err);

/* ---- problems ------------------------------------------------------------------ */

typedef struct byoc_job_problem {
    byoc_job_field field;
    int index;            /* the item of a list field (hyperparameter, channel, tag), else -1 */
    char what[128];       /* "--job-name (jobName)" */
    char message[640];    /* "must match ...: 'my_job' has '_'" */
} byoc_job_problem;

typedef struct byoc_job_problems {
    byoc_job_problem *items;
    size_t len, cap;
} byoc_job_problems;

void byoc_job_problems_clear(byoc_job_problems *p);
void byoc_job_problem_add(byoc_job_problems *p, byoc_job_field f, int index, const char *api_member,
                          const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Fill err (kind USAGE) from the first problem; "(and N more)" is not added:
 * callers list the rest if they wish. Returns -1. */
int byoc_job_problems_to_err(const byoc_job_problems *p, byoc_err *err);

/* ---- validation (jobspec_validate.c) ------------------------------------------------ */

typedef struct byoc_job_validate_opts {
    const char *role_env;   /* the value of BRAKET_JOBS_ROLE_ARN to check when role_arn is NULL;
                               NULL: read the environment */
    bool skip_files;        /* do not look at the file system (source, entry point, local inputs) */
} byoc_job_validate_opts;

/* Check every field against the Braket API model (patterns, lengths, ranges,
 * enums), the developer guide's limits, the SDK's rules, and the file system
 * (source module exists, entry point resolves inside it, local input data
 * matches files). Adds one problem per fault. opts may be NULL. Returns the
 * number of problems added. */
size_t byoc_jobspec_validate(const byoc_jobspec *s, const byoc_job_validate_opts *opts, byoc_job_problems *out);

/* The single-value rules, for forms that check a field as it is typed and for
 * values derived later (a default job name, a resolved role). Each adds
 * problems for field f (index -1) and returns how many. */
size_t byoc_job_check_name(const char *name, byoc_job_field f, byoc_job_problems *out);
size_t byoc_job_check_role_arn(const char *arn, byoc_job_field f, const char *what_override, byoc_job_problems *out);
size_t byoc_job_check_s3_path(const char *uri, byoc_job_field f, int index, const char *api_member,
                              byoc_job_problems *out);

/* True for a string that matches the API's S3Path pattern and the SDK's
 * parse_s3_uri (s3://bucket/key or https://bucket.s3.<...>/key). */
bool byoc_job_is_s3_uri(const char *s);

/* The launcher of the image the job will use: none given is the project's last push (byoc.json
 * "pushed", run's default), and with no push either, the project's own image for a custom-base
 * project (BYOC) or else the Braket base image (BRAKET). A Braket prebuilt image
 * (amazon-braket-*-jobs of Braket's account) -> BRAKET; any other image by the project's recipe:
 * custom-base -> BYOC, prebuilt or extend-prebuilt -> BRAKET; no project or no recipe -> UNKNOWN.
 * p may be NULL; _in reads byoc.json from project_dir. */
byoc_job_launcher byoc_job_launcher_for(const char *image_uri, const byoc_project *p);
byoc_job_launcher byoc_job_launcher_in(const char *image_uri, const char *project_dir);
const char *byoc_job_launcher_name(byoc_job_launcher l);   /* "byoc's launcher" */

/* What the launcher will start. kind: "Python module", "Python script", "Julia script",
 * "Cargo project", "CMake project", "C++ source", "Rust source", "shell script",
 * "executable", "path in the image", "file" (an S3 source: not looked at), "as given" (unknown launcher). */
typedef struct byoc_entry_point_check {
    const char *kind;
    char *path;            /* the local file or directory it names, or NULL */
    char note[300];        /* what could not be checked here, or "" */
} byoc_entry_point_check;

/* The entry point under launcher l: 0 with *out filled, or -1 with why.
 * source_module NULL: its form only (an S3 source, or no file access). Free out
 * with byoc_entry_point_check_clear either way. */
int byoc_job_check_entry_point(byoc_job_launcher l, const char *source_module, const char *entry,
                               byoc_entry_point_check *out, char *why, size_t why_size);
void byoc_entry_point_check_clear(byoc_entry_point_check *c);

/* The entry point's module path resolved inside the (local) source module:
 * 0 with *resolved (malloc'd, e.g. "/abs/pkg/sub/mod.py" or ".../pkg/") or -1 with why. */
int byoc_job_resolve_entry_point(const char *source_module, const char *entry_point, char **resolved,
                                 char *why, size_t why_size);

/* The valid instance types (new model), NULL-terminated. */
extern const char *const byoc_job_instance_types[];

/* ---- derived values (jobspec_defaults.c) ------------------------------------------ */

/* Epoch milliseconds as a decimal string (13 digits today). buf >= 24. */
void byoc_job_timestamp(char *buf, size_t size);
/* A fresh UUID4 from OpenSSL RAND_bytes; buf >= 37. 0, or -1 if the RNG failed. */
int byoc_job_client_token(char *buf, size_t size);
/* The SDK's default name: braket-job-default-<ts> with no image; braket-job-<X>-<ts> when the
 * URI contains "/amazon-braket-<X>-jobs:"; braket-job-<Y>-<ts> when it contains
 * "/amazon-braket-<Y>" (Y up to ':' or '/'); else braket-job-<ts>. malloc'd; may be invalid (too long). */
char *byoc_job_default_name(const char *image_uri, const char *timestamp);
/* amazon-braket-<region>-<account>; malloc'd. */
char *byoc_job_default_bucket(const char *region, const char *account);
/* The Braket base image for a region (292282985366.dkr.ecr.<region>.amazonaws.com/amazon-braket-base-jobs:latest),
 * or NULL for a region the SDK does not support. malloc'd. */
char *byoc_job_base_image(const char *region);
/* The region of a device ARN (field 3): malloc'd "" for region-less ARNs and local: devices. */
char *byoc_job_device_region(const char *device);

/* Everything the CreateJob body needs besides the spec: the resolved values. */
typedef struct byoc_job_resolved {
    const char *region;
    const char *bucket;          /* the default bucket (for defaulted S3 locations) */
    const char *timestamp;
    const char *job_name;        /* spec's or default */
    const char *role_arn;
    const char *client_token;
    const char *image_uri;       /* spec's or the base image */
    const char *const *channel_uris; /* per spec channel: its S3 URI (local paths already mapped) */
} byoc_job_resolved;

/* s3://<bucket>/jobs/<name>/<ts>/<leaf>, malloc'd. */
char *byoc_job_default_s3(const byoc_job_resolved *r, const char *leaf);
/* The S3 prefix a local channel's files go under: s3://<bucket>/jobs/<name>/<ts>/data/<channel>/<basename>. */
char *byoc_job_channel_s3_prefix(const byoc_job_resolved *r, const char *channel, const char *local_path);
/* The code location (spec's, or the default .../script) without a trailing '/'. */
char *byoc_job_code_location(const byoc_jobspec *s, const byoc_job_resolved *r);
/* The entry point sent: the spec's, else the source module's stem. */
char *byoc_job_entry_point(const byoc_jobspec *s);

/* The CreateJob request body exactly as the SDK (with botocore's clientToken)
 * would send it. The spec must have passed validation. Caller decrefs. */
json_t *byoc_job_create_request(const byoc_jobspec *s, const byoc_job_resolved *r);

/* Checks of derived values: the final name, S3 URI lengths, the hyperparameter
 * count after distribution. Adds problems; returns how many. */
size_t byoc_job_check_request(const json_t *request, const byoc_jobspec *s, byoc_job_problems *out);

#endif
