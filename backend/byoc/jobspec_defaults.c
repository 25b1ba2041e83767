/* What the SDK derives from a job spec: the timestamp, the idempotency token,
 * the default name, bucket and S3 layout, and the CreateJob body itself
 * (amazon-braket-sdk-python: braket/jobs/quantum_job_creation.py, config.py). */
#include "byoc/jobspec.h"

#include <jansson.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/braket.h"
#include "byoc/jobspec_files.h"
#include "core/buf.h"

void byoc_job_timestamp(char *buf, size_t size)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long long ms = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    snprintf(buf, size, "%lld", ms);
}

int byoc_job_client_token(char *buf, size_t size)
{
    unsigned char b[16];
    if (size < 37 || RAND_bytes(b, sizeof b) != 1)
        return -1;
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
    snprintf(buf, size, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
             b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 0;
}

char *byoc_job_default_name(const char *image_uri, const char *timestamp)
{
    static const char MARK[] = "/amazon-braket-";
    const size_t ml = sizeof MARK - 1;
    if (!image_uri)
        return byoc_xasprintf("braket-job-default-%s", timestamp);
    /* re.search("/amazon-braket-(.*)-jobs:") : leftmost start, greedy '.' (no newline). */
    const char *start = strstr(image_uri, MARK);
    if (start) {
        const char *from = start + ml;
        size_t line = strcspn(from, "\n");
        const char *best = NULL;
        for (const char *p = from; (p = strstr(p, "-jobs:")) && p + 6 <= from + line; p++)
            best = p;
        if (best)
            return byoc_xasprintf("braket-job-%.*s-%s", (int)(best - from), from, timestamp);
        /* re.search("/amazon-braket-([^:/]*)") */
        size_t n = strcspn(from, ":/");
        return byoc_xasprintf("braket-job-%.*s-%s", (int)n, from, timestamp);
    }
    return byoc_xasprintf("braket-job-%s", timestamp);
}

char *byoc_job_default_bucket(const char *region, const char *account)
{
    return byoc_xasprintf("amazon-braket-%s-%s", region, account);
}

char *byoc_job_base_image(const char *region)
{
    static const char *const SUPPORTED[] = {"us-east-1", "us-west-1", "us-west-2", "eu-west-2", "eu-north-1", NULL};
    for (const char *const *r = SUPPORTED; *r; r++)
        if (region && strcmp(*r, region) == 0)
            return byoc_xasprintf("292282985366.dkr.ecr.%s.amazonaws.com/amazon-braket-base-jobs:latest", region);
    return NULL;
}

char *byoc_job_device_region(const char *device)
{
    if (!device || strncmp(device, "arn:", 4) != 0)
        return byoc_xstrdup("");
    return byoc_braket_arn_region(device);
}

char *byoc_job_default_s3(const byoc_job_resolved *r, const char *leaf)
{
    return byoc_xasprintf("s3://%s/jobs/%s/%s/%s", r->bucket, r->job_name, r->timestamp, leaf);
}

char *byoc_job_channel_s3_prefix(const byoc_job_resolved *r, const char *channel, const char *local_path)
{
    char *name = byoc_job_path_name(local_path);
    char *uri = byoc_xasprintf("s3://%s/jobs/%s/%s/data/%s/%s", r->bucket, r->job_name, r->timestamp, channel, name);
    free(name);
    return uri;
}

char *byoc_job_code_location(const byoc_jobspec *s, const byoc_job_resolved *r)
{
    return s->code_location ? byoc_xstrdup(s->code_location) : byoc_job_default_s3(r, "script");
}

static long long number_or(const char *text, long long fallback)
{
    return text ? strtoll(text, NULL, 10) : fallback;
}

json_t *byoc_job_create_request(const byoc_jobspec *s, const byoc_job_resolved *r)
{
    json_t *req = json_object();
    json_object_set_new(req, "jobName", json_string(r->job_name));
    json_object_set_new(req, "roleArn", json_string(r->role_arn));

    char *code = byoc_job_code_location(s, r);
    char *entry = byoc_job_entry_point(s);
    json_t *script = json_object();
    json_object_set_new(script, "entryPoint", json_string(entry));
    char *script_uri = byoc_xasprintf("%s/source.tar.gz", code);
    json_object_set_new(script, "s3Uri", json_string(script_uri));
    json_object_set_new(script, "compressionType", json_string("GZIP"));
    json_t *algo = json_object();
    json_object_set_new(algo, "scriptModeConfig", script);
    json_t *image = json_object();
    json_object_set_new(image, "uri", json_string(r->image_uri));
    json_object_set_new(algo, "containerImage", image);
    json_object_set_new(req, "algorithmSpecification", algo);
    free(script_uri);
    free(entry);
    free(code);

    json_t *inputs = json_array();
    for (size_t i = 0; i < s->n_channels; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "channelName", json_string(s->channels[i].name));
        json_t *src = json_object();
        json_object_set_new(src, "s3Uri", json_string(r->channel_uris[i]));
        json_t *ds = json_object();
        json_object_set_new(ds, "s3DataSource", src);
        json_object_set_new(c, "dataSource", ds);
        if (s->channels[i].content_type)
            json_object_set_new(c, "contentType", json_string(s->channels[i].content_type));
        json_array_append_new(inputs, c);
    }
    json_object_set_new(req, "inputDataConfig", inputs);

    const char *instance_type = s->instance_type ? s->instance_type : BYOC_JOB_DEFAULT_INSTANCE_TYPE;
    json_t *inst = json_object();
    json_object_set_new(inst, "instanceType", json_string(instance_type));
    json_object_set_new(inst, "volumeSizeInGb", json_integer(number_or(s->volume_gb, BYOC_JOB_DEFAULT_VOLUME_GB)));
    json_object_set_new(inst, "instanceCount",
                        json_integer(number_or(s->instance_count, BYOC_JOB_DEFAULT_INSTANCE_COUNT)));
    json_object_set_new(req, "instanceConfig", inst);

    json_t *output = json_object();
    char *out_path = s->output_s3 ? byoc_xstrdup(s->output_s3) : byoc_job_default_s3(r, "data");
    json_object_set_new(output, "s3Path", json_string(out_path));
    if (s->kms_key_id)
        json_object_set_new(output, "kmsKeyId", json_string(s->kms_key_id));
    json_object_set_new(req, "outputDataConfig", output);
    free(out_path);

    json_t *ckpt = json_object();
    json_object_set_new(ckpt, "localPath", json_string(s->checkpoint_local_path ? s->checkpoint_local_path
                                                                                : BYOC_JOB_DEFAULT_CHECKPOINT_LOCAL_PATH));
    char *ckpt_uri = s->checkpoint_s3 ? byoc_xstrdup(s->checkpoint_s3) : byoc_job_default_s3(r, "checkpoints");
    json_object_set_new(ckpt, "s3Uri", json_string(ckpt_uri));
    json_object_set_new(req, "checkpointConfig", ckpt);
    free(ckpt_uri);

    json_t *dev = json_object();
    json_object_set_new(dev, "device", json_string(s->device ? s->device : BYOC_JOB_DEFAULT_DEVICE));
    json_object_set_new(req, "deviceConfig", dev);

    json_t *hp = json_object();
    for (size_t i = 0; i < s->n_hyperparameters; i++)
        json_object_set_new(hp, s->hyperparameters[i].key, json_string(s->hyperparameters[i].value));
    if (s->distribution && strcmp(s->distribution, "data_parallel") == 0) {
        json_object_set_new(hp, "sagemaker_distributed_dataparallel_enabled", json_string("true"));
        json_object_set_new(hp, "sagemaker_instance_type", json_string(instance_type));
    }
    json_object_set_new(req, "hyperParameters", hp);

    json_t *stop = json_object();
    json_object_set_new(stop, "maxRuntimeInSeconds",
                        json_integer(number_or(s->max_runtime, BYOC_JOB_DEFAULT_MAX_RUNTIME)));
    json_object_set_new(req, "stoppingCondition", stop);

    json_t *tags = json_object();
    for (size_t i = 0; i < s->n_tags; i++)
        json_object_set_new(tags, s->tags[i].key, json_string(s->tags[i].value));
    json_object_set_new(req, "tags", tags);

    if (s->reservation_arn) {
        json_t *a = json_object();
        json_object_set_new(a, "arn", json_string(s->reservation_arn));
        json_object_set_new(a, "type", json_string("RESERVATION_TIME_WINDOW_ARN"));
        json_t *list = json_array();
        json_array_append_new(list, a);
        json_object_set_new(req, "associations", list);
    }
    json_object_set_new(req, "clientToken", json_string(r->client_token));
    return req;
}

static const char *str_at(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    return json_string_value(v);
}

size_t byoc_job_check_request(const json_t *req, const byoc_jobspec *s, byoc_job_problems *out)
{
    size_t before = out->len;
    const char *name = json_string_value(json_object_get(req, "jobName"));
    if (!s->job_name && name) {
        byoc_job_problems tmp = {0};
        if (byoc_job_check_name(name, BYOC_JF_JOB_NAME, &tmp))
            byoc_job_problem_add(out, BYOC_JF_JOB_NAME, -1, NULL,
                                 "the default name made from the image repository is not valid (%s): give --job-name",
                                 tmp.items[0].message);
        byoc_job_problems_clear(&tmp);
    }
    const char *script = str_at(json_object_get(req, "algorithmSpecification"), "scriptModeConfig", "s3Uri");
    if (script)
        byoc_job_check_s3_path(script, s->code_location ? BYOC_JF_CODE_LOCATION : BYOC_JF_SOURCE_MODULE, -1,
                               "algorithmSpecification.scriptModeConfig.s3Uri", out);
    const char *o = str_at(req, "outputDataConfig", "s3Path");
    if (o)
        byoc_job_check_s3_path(o, BYOC_JF_OUTPUT_S3, -1, NULL, out);
    const char *c = str_at(req, "checkpointConfig", "s3Uri");
    if (c)
        byoc_job_check_s3_path(c, BYOC_JF_CHECKPOINT_S3, -1, NULL, out);
    size_t i;
    json_t *ch;
    json_array_foreach(json_object_get(req, "inputDataConfig"), i, ch)
    {
        char api[96];
        snprintf(api, sizeof api, "inputDataConfig[%zu].dataSource.s3DataSource.s3Uri", i);
        const char *u = str_at(json_object_get(ch, "dataSource"), "s3DataSource", "s3Uri");
        if (u)
            byoc_job_check_s3_path(u, BYOC_JF_INPUT_DATA, (int)i, api, out);
    }
    if (json_object_size(json_object_get(req, "hyperParameters")) > 100)
        byoc_job_problem_add(out, BYOC_JF_HYPERPARAMETER, -1, NULL,
                             "at most 100 hyperparameters (API model HyperParameters): %zu after --distribution",
                             json_object_size(json_object_get(req, "hyperParameters")));
    return out->len - before;
}
