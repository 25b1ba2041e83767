/* The container contract as data (backend/byoc/contract.h): the variables a
 * job's container gets (with and without channels and an output location)
 * and the files and directories put in, the config files' JSON. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/contract.h"

/* The value of KEY in env, or NULL. */
static const char *env_get(const byoc_strv *env, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < env->n; i++)
        if (strncmp(env->v[i], key, kl) == 0 && env->v[i][kl] == '=')
            return env->v[i] + kl + 1;
    return NULL;
}

static const byoc_put_item *item(const byoc_put_list *l, const char *path)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].path, path) == 0)
            return &l->items[i];
    return NULL;
}

static json_t *item_json(const byoc_put_list *l, const char *path)
{
    const byoc_put_item *it = item(l, path);
    if (!it || it->kind != BYOC_PUT_MEM)
        return NULL;
    return json_loadb(it->data, it->len, 0, NULL);
}

static void test_bare(void)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_contract_inputs in = {.spec = &s, .job_name = "j1", .source_uri = "file:///opt/ml/input/source/source.tar.gz",
                               .entry_point = "algo:main", .device = "local:none/none",
                               .checkpoint_dir = "/opt/jobs/checkpoints"};
    byoc_strv env = {0};
    byoc_put_list files = {0};
    byoc_contract_describe(&in, &env, &files);
    CHECK_STR(env_get(&env, "AMZN_BRAKET_SCRIPT_S3_URI"), "file:///opt/ml/input/source/source.tar.gz");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_SCRIPT_ENTRY_POINT"), "algo:main");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE"), "GZIP");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_JOB_NAME"), "j1");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_DEVICE_ARN"), "local:none/none");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_JOB_RESULTS_DIR"), "/opt/braket/model");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_CHECKPOINT_DIR"), "/opt/jobs/checkpoints");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_HP_FILE"), "/opt/braket/input/config/hyperparameters.json");
    CHECK(env_get(&env, "AMZN_BRAKET_INPUT_DIR") == NULL);   /* no channels */
    CHECK(env_get(&env, "AMZN_BRAKET_OUT_S3_BUCKET") == NULL); /* no output location */
    CHECK(env_get(&env, "AWS_DEFAULT_REGION") == NULL);
    CHECK_INT(env.n, 8);

    json_t *hp = item_json(&files, "opt/ml/input/config/hyperparameters.json");
    CHECK(hp && json_is_object(hp) && json_object_size(hp) == 0); /* always there, {} when none */
    json_decref(hp);
    json_t *rc = item_json(&files, "opt/ml/input/config/resourceconfig.json");
    CHECK_STR(json_string_value(json_object_get(rc, "current_host")), "algo-1");
    json_decref(rc);
    CHECK(item(&files, "opt/ml/input/config/inputdataconfig.json") != NULL);
    CHECK(item(&files, "opt/ml/input/data/") == NULL);
    CHECK(item(&files, "opt/ml/input/source/source.tar.gz") == NULL); /* no archive given */
    CHECK(item(&files, "opt/ml/model/") != NULL);
    CHECK(item(&files, "opt/ml/output/data/") != NULL);
    CHECK(item(&files, "opt/jobs/checkpoints/") != NULL);
    byoc_put_list_clear(&files);
    byoc_strv_clear(&env);
    byoc_jobspec_clear(&s);
}

static void test_full(void)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_add_hyperparameter(&s, "lr", "0.1");
    byoc_jobspec_add_channel(&s, "train", "data/train", "text/csv");
    byoc_jobspec_set(&s.output_s3, "s3://spec-bucket/ignored");
    byoc_contract_inputs in = {.spec = &s, .job_name = "j2", .source_uri = "s3://b/jobs/j2/1/script/source.tar.gz",
                               .entry_point = "pkg.mod", .device = "arn:aws:braket:::device/quantum-simulator/amazon/sv1",
                               .checkpoint_dir = "/ckpt", .output_s3 = "s3://out-bucket/jobs/j2/1/data/",
                               .region = "us-west-2", .source_archive = "/tmp/x/source.tar.gz"};
    byoc_strv env = {0};
    byoc_put_list files = {0};
    byoc_contract_describe(&in, &env, &files);
    CHECK_STR(env_get(&env, "AMZN_BRAKET_INPUT_DIR"), "/opt/braket/input/data");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_OUT_S3_BUCKET"), "out-bucket"); /* the run's location wins */
    CHECK_STR(env_get(&env, "AMZN_BRAKET_TASK_RESULTS_S3_URI"), "s3://out-bucket/jobs/j2/tasks");
    CHECK_STR(env_get(&env, "AMZN_BRAKET_JOB_RESULTS_S3_PATH"), "jobs/j2/1/data/j2/output");
    CHECK_STR(env_get(&env, "AWS_DEFAULT_REGION"), "us-west-2");

    json_t *hp = item_json(&files, "opt/ml/input/config/hyperparameters.json");
    CHECK_STR(json_string_value(json_object_get(hp, "lr")), "0.1");
    json_decref(hp);
    json_t *idc = item_json(&files, "opt/ml/input/config/inputdataconfig.json");
    json_t *train = json_object_get(idc, "train");
    CHECK_STR(json_string_value(json_object_get(train, "TrainingInputMode")), "File");
    CHECK_STR(json_string_value(json_object_get(train, "ContentType")), "text/csv");
    json_decref(idc);
    CHECK(item(&files, "opt/ml/input/data/") != NULL);
    const byoc_put_item *src = item(&files, "opt/ml/input/source/source.tar.gz");
    CHECK(src && src->kind == BYOC_PUT_FILE && strcmp(src->host, "/tmp/x/source.tar.gz") == 0);
    CHECK(item(&files, "ckpt/") != NULL);
    byoc_put_list_clear(&files);
    byoc_strv_clear(&env);
    byoc_jobspec_clear(&s);
}

static void test_paths(void)
{
    char *d = byoc_contract_channel_dir("train");
    CHECK_STR(d, "opt/ml/input/data/train");
    free(d);
    char *p = byoc_contract_program_path("braket_container.py");
    CHECK_STR(p, "/opt/ml/code/braket_container.py");
    free(p);
    p = byoc_contract_program_path("/usr/local/bin/launch.py");
    CHECK_STR(p, "/usr/local/bin/launch.py");
    free(p);
}

int main(void)
{
    test_bare();
    test_full();
    test_paths();
    return check_done();
}
