/* contract: the Braket container contract as data — the environment and the
 * files a job's container is given when it starts (section 2 of the Braket
 * reference: the AMZN_BRAKET_ variables, the JSON files in /opt/ml/input/config, the
 * input channel, model, output and checkpoint directories), worked out from
 * the job's spec and what the run has settled (name, source URI, device...).
 * Pure: it reads no file and talks to nothing, so a local run (localrun.h)
 * and the preflight checks that judge an image against the contract describe
 * one and the same container. What needs the file system or S3 (the contents
 * of the input channels, the source archive itself) is the caller's. */
#ifndef BYOC_BYOC_CONTRACT_H
#define BYOC_BYOC_CONTRACT_H

#include "byoc/jobspec.h"
#include "core/strv.h"
#include "docker/container_files.h"

#define BYOC_CONTRACT_OPT_ML "/opt/ml"
#define BYOC_CONTRACT_CODE_DIR "/opt/ml/code"     /* where `train` starts SAGEMAKER_PROGRAM */
#define BYOC_CONTRACT_MODEL_DIR "/opt/ml/model"   /* the results the platform keeps */
#define BYOC_CONTRACT_FAILURE_FILE "/opt/ml/output/failure"
#define BYOC_CONTRACT_SOURCE_DIR "/opt/ml/input/source" /* byoc's: where source.tar.gz goes without upload */
/* The job sees /opt/braket, a link to /opt/ml its launcher makes. */
#define BYOC_CONTRACT_HP_FILE "/opt/braket/input/config/hyperparameters.json"
#define BYOC_CONTRACT_INPUT_DIR "/opt/braket/input/data"
#define BYOC_CONTRACT_RESULTS_DIR "/opt/braket/model"

/* What the contract is worked out from; strings are borrowed. */
typedef struct byoc_contract_inputs {
    const byoc_jobspec *spec;     /* hyperparameters, input channels, output S3 path */
    const char *job_name;
    const char *source_uri;       /* AMZN_BRAKET_SCRIPT_S3_URI */
    const char *entry_point;
    const char *device;
    const char *checkpoint_dir;   /* absolute and normalised */
    const char *output_s3;        /* the output location when known (upload), else NULL: the spec's */
    const char *region;           /* AWS_DEFAULT_REGION, or NULL: none */
    const char *source_archive;   /* a host file put in at BYOC_CONTRACT_SOURCE_DIR/source.tar.gz, or NULL */
} byoc_contract_inputs;

/* Append the container's variables ("K=V") to env and its files to files
 * (paths relative to "/", the tar put in at "/"): the config directory with
 * hyperparameters.json (always; {} when none), resourceconfig.json and
 * inputdataconfig.json (what sagemaker-training's `train` reads), the source
 * archive, the input data directory when there are channels, and the empty
 * model, output and checkpoint directories. */
void byoc_contract_describe(const byoc_contract_inputs *in, byoc_strv *env, byoc_put_list *files);

/* "opt/ml/input/data/<channel>" (relative to "/", as in the put list); malloc'd. */
char *byoc_contract_channel_dir(const char *channel);

/* Where `train` looks for SAGEMAKER_PROGRAM: program itself when absolute,
 * else BYOC_CONTRACT_CODE_DIR/<program>; malloc'd. */
char *byoc_contract_program_path(const char *program);

#endif
