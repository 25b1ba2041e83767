/* contract: the container contract as data (contract.h). */
#include "byoc/contract.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "aws/s3.h"
#include "core/buf.h"

static void add_json(byoc_put_list *files, const char *path, json_t *doc)
{
    char *text = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    byoc_put_list_add(files, BYOC_PUT_MEM, path, NULL, text, strlen(text));
    free(text);
    json_decref(doc);
}

static json_t *resource_config(void)
{
    return json_pack("{s:s, s:s, s:s, s:[s], s:[{s:s, s:s, s:[s]}], s:s}", "current_host", "algo-1",
                     "current_instance_type", "local", "current_group_name", "homogeneousCluster", "hosts", "algo-1",
                     "instance_groups", "instance_group_name", "homogeneousCluster", "instance_type", "local", "hosts",
                     "algo-1", "network_interface_name", "eth0");
}

static void add_env(byoc_strv *env, const char *key, const char *value)
{
    byoc_strv_push_owned(env, byoc_xasprintf("%s=%s", key, value));
}

static void job_env(const byoc_contract_inputs *in, byoc_strv *env)
{
    const byoc_jobspec *s = in->spec;
    add_env(env, "AMZN_BRAKET_SCRIPT_S3_URI", in->source_uri);
    add_env(env, "AMZN_BRAKET_SCRIPT_ENTRY_POINT", in->entry_point);
    add_env(env, "AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE", "GZIP");
    add_env(env, "AMZN_BRAKET_JOB_NAME", in->job_name);
    add_env(env, "AMZN_BRAKET_DEVICE_ARN", in->device);
    add_env(env, "AMZN_BRAKET_JOB_RESULTS_DIR", BYOC_CONTRACT_RESULTS_DIR);
    add_env(env, "AMZN_BRAKET_CHECKPOINT_DIR", in->checkpoint_dir);
    add_env(env, "AMZN_BRAKET_HP_FILE", BYOC_CONTRACT_HP_FILE);
    if (s->n_channels)
        add_env(env, "AMZN_BRAKET_INPUT_DIR", BYOC_CONTRACT_INPUT_DIR);
    const char *out = in->output_s3 ? in->output_s3 : s->output_s3;
    char *bucket = NULL, *key = NULL;
    if (out && byoc_s3_parse_uri(out, &bucket, &key) == 0) {
        size_t kl = strlen(key);
        while (kl && key[kl - 1] == '/')
            key[--kl] = '\0';
        add_env(env, "AMZN_BRAKET_OUT_S3_BUCKET", bucket);
        char *tasks = byoc_xasprintf("s3://%s/jobs/%s/tasks", bucket, in->job_name);
        add_env(env, "AMZN_BRAKET_TASK_RESULTS_S3_URI", tasks);
        free(tasks);
        char *results = byoc_xasprintf("%s/%s/output", key, in->job_name);
        add_env(env, "AMZN_BRAKET_JOB_RESULTS_S3_PATH", results);
        free(results);
    }
    free(bucket);
    free(key);
    if (in->region)
        add_env(env, "AWS_DEFAULT_REGION", in->region);
}

static void job_files(const byoc_contract_inputs *in, byoc_put_list *files)
{
    const byoc_jobspec *s = in->spec;
    byoc_put_list_add_dir(files, "opt/ml/input");
    byoc_put_list_add_dir(files, "opt/ml/input/config");
    json_t *hps = json_object();
    for (size_t i = 0; i < s->n_hyperparameters; i++)
        json_object_set_new(hps, s->hyperparameters[i].key, json_string(s->hyperparameters[i].value));
    add_json(files, "opt/ml/input/config/hyperparameters.json", hps);
    add_json(files, "opt/ml/input/config/resourceconfig.json", resource_config());
    json_t *channels = json_object();
    for (size_t i = 0; i < s->n_channels; i++) {
        json_t *ch = json_pack("{s:s, s:s, s:s}", "TrainingInputMode", "File", "S3DistributionType", "FullyReplicated",
                               "RecordWrapperType", "None");
        if (s->channels[i].content_type)
            json_object_set_new(ch, "ContentType", json_string(s->channels[i].content_type));
        json_object_set_new(channels, s->channels[i].name, ch);
    }
    add_json(files, "opt/ml/input/config/inputdataconfig.json", channels);
    if (in->source_archive) {
        byoc_put_list_add_dir(files, &BYOC_CONTRACT_SOURCE_DIR[1]);
        byoc_put_list_add(files, BYOC_PUT_FILE, &BYOC_CONTRACT_SOURCE_DIR "/source.tar.gz"[1], in->source_archive,
                          NULL, 0);
    }
    if (s->n_channels)
        byoc_put_list_add_dir(files, "opt/ml/input/data");
    byoc_put_list_add_dir(files, "opt/ml/model");
    byoc_put_list_add_dir(files, "opt/ml/output");
    byoc_put_list_add_dir(files, "opt/ml/output/data");
    byoc_put_list_add_dir(files, in->checkpoint_dir + 1);
}

void byoc_contract_describe(const byoc_contract_inputs *in, byoc_strv *env, byoc_put_list *files)
{
    job_env(in, env);
    job_files(in, files);
}

char *byoc_contract_channel_dir(const char *channel) { return byoc_xasprintf("opt/ml/input/data/%s", channel); }

char *byoc_contract_program_path(const char *program)
{
    return program[0] == '/' ? byoc_xstrdup(program) : byoc_xasprintf(BYOC_CONTRACT_CODE_DIR "/%s", program);
}
