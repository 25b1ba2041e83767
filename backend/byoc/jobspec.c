/* The job spec's storage: fields, lists, byoc.json round trip, problem lists. */
#include "byoc/jobspec.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/str.h"

typedef struct {
    const char *flag, *api, *key;
} field_names;

static const field_names FIELDS[BYOC_JF_COUNT] = {
    [BYOC_JF_IMAGE_URI] = {"--image-uri", "algorithmSpecification.containerImage.uri", "image_uri"},
    [BYOC_JF_SOURCE_MODULE] = {"--source-module", "algorithmSpecification.scriptModeConfig.s3Uri", "source_module"},
    [BYOC_JF_ENTRY_POINT] = {"--entry-point", "algorithmSpecification.scriptModeConfig.entryPoint", "entry_point"},
    [BYOC_JF_ROLE_ARN] = {"--role-arn", "roleArn", "role_arn"},
    [BYOC_JF_DEVICE] = {"--device", "deviceConfig.device", "device"},
    [BYOC_JF_INSTANCE_TYPE] = {"--instance-type", "instanceConfig.instanceType", "instance_type"},
    [BYOC_JF_INSTANCE_COUNT] = {"--instance-count", "instanceConfig.instanceCount", "instance_count"},
    [BYOC_JF_VOLUME_GB] = {"--volume-gb", "instanceConfig.volumeSizeInGb", "volume_gb"},
    [BYOC_JF_HYPERPARAMETER] = {"--hyperparameter", "hyperParameters", "hyperparameters"},
    [BYOC_JF_INPUT_DATA] = {"--input-data", "inputDataConfig", "input_data"},
    [BYOC_JF_OUTPUT_S3] = {"--output-s3", "outputDataConfig.s3Path", "output_s3"},
    [BYOC_JF_KMS_KEY] = {"--kms-key-id", "outputDataConfig.kmsKeyId", "kms_key_id"},
    [BYOC_JF_CHECKPOINT_S3] = {"--checkpoint-s3", "checkpointConfig.s3Uri", "checkpoint_s3"},
    [BYOC_JF_CHECKPOINT_LOCAL_PATH] = {"--checkpoint-local-path", "checkpointConfig.localPath",
                                       "checkpoint_local_path"},
    [BYOC_JF_CODE_LOCATION] = {"--code-location", "algorithmSpecification.scriptModeConfig.s3Uri", "code_location"},
    [BYOC_JF_MAX_RUNTIME] = {"--max-runtime", "stoppingCondition.maxRuntimeInSeconds", "max_runtime"},
    [BYOC_JF_JOB_NAME] = {"--job-name", "jobName", "job_name"},
    [BYOC_JF_TAG] = {"--tag", "tags", "tags"},
    [BYOC_JF_DISTRIBUTION] = {"--distribution", "hyperParameters", "distribution"},
    [BYOC_JF_RESERVATION_ARN] = {"--reservation-arn", "associations.arn", "reservation_arn"},
    [BYOC_JF_COPY_CHECKPOINTS] = {"--copy-checkpoints-from-job", "checkpointConfig.s3Uri",
                                  "copy_checkpoints_from_job"},
};

const char *byoc_job_field_flag(byoc_job_field f) { return f < BYOC_JF_COUNT ? FIELDS[f].flag : "?"; }
static const char *byoc_job_field_api(byoc_job_field f) { return f < BYOC_JF_COUNT ? FIELDS[f].api : "?"; }
static const char *byoc_job_field_key(byoc_job_field f) { return f < BYOC_JF_COUNT ? FIELDS[f].key : "?"; }

/* ---- storage -------------------------------------------------------------------- */

void byoc_jobspec_init(byoc_jobspec *s) { memset(s, 0, sizeof *s); }

static void free_kvs(byoc_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(kv[i].key);
        free(kv[i].value);
    }
    free(kv);
}

void byoc_jobspec_clear(byoc_jobspec *s)
{
    char **strings[] = {&s->image_uri,   &s->source_module,    &s->entry_point,    &s->role_arn,
                        &s->device,      &s->instance_type,    &s->instance_count, &s->volume_gb,
                        &s->output_s3,   &s->kms_key_id,       &s->checkpoint_s3,  &s->checkpoint_local_path,
                        &s->code_location, &s->max_runtime,    &s->job_name,       &s->distribution,
                        &s->reservation_arn, &s->copy_checkpoints_from_job};
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        free(*strings[i]);
    free_kvs(s->hyperparameters, s->n_hyperparameters);
    free_kvs(s->tags, s->n_tags);
    for (size_t i = 0; i < s->n_channels; i++) {
        free(s->channels[i].name);
        free(s->channels[i].location);
        free(s->channels[i].content_type);
    }
    free(s->channels);
    memset(s, 0, sizeof *s);
}

void byoc_jobspec_set(char **field, const char *value)
{
    byoc_str_set(field, value && *value ? value : NULL);
}

static void add_kv(byoc_kv **items, size_t *n, const char *key, const char *value)
{
    *items = byoc_xrealloc(*items, (*n + 1) * sizeof **items);
    (*items)[*n].key = byoc_xstrdup(key ? key : "");
    (*items)[*n].value = byoc_xstrdup(value ? value : "");
    (*n)++;
}

void byoc_jobspec_add_hyperparameter(byoc_jobspec *s, const char *key, const char *value)
{
    add_kv(&s->hyperparameters, &s->n_hyperparameters, key, value);
}

void byoc_jobspec_add_tag(byoc_jobspec *s, const char *key, const char *value)
{
    add_kv(&s->tags, &s->n_tags, key, value);
}

void byoc_jobspec_add_channel(byoc_jobspec *s, const char *name, const char *location, const char *content_type)
{
    s->channels = byoc_xrealloc(s->channels, (s->n_channels + 1) * sizeof *s->channels);
    byoc_job_channel *c = &s->channels[s->n_channels++];
    c->name = byoc_xstrdup(name ? name : "");
    c->location = byoc_xstrdup(location ? location : "");
    c->content_type = byoc_xstrdup_opt(content_type);
}

int byoc_jobspec_split_kv(const char *text, char **key, char **value)
{
    const char *eq = strchr(text, '=');
    if (!eq)
        return -1;
    *key = byoc_xstrndup(text, (size_t)(eq - text));
    *value = byoc_xstrdup(eq + 1);
    return 0;
}

void byoc_jobspec_add_input_arg(byoc_jobspec *s, const char *text)
{
    /* "CHANNEL=LOCATION" unless what precedes '=' is itself a URI or a path. */
    const char *eq = strchr(text, '=');
    if (eq && !memchr(text, ':', (size_t)(eq - text)) && !memchr(text, '/', (size_t)(eq - text))) {
        char *name = byoc_xstrndup(text, (size_t)(eq - text));
        byoc_jobspec_add_channel(s, name, eq + 1, NULL);
        free(name);
    } else {
        byoc_jobspec_add_channel(s, BYOC_JOB_DEFAULT_CHANNEL, text, NULL);
    }
}

/* ---- byoc.json ------------------------------------------------------------------ */

typedef struct {
    byoc_job_field field;
    size_t offset;
    bool integer;   /* written as a number when it parses as one */
} scalar_field;

#define SF(f, member, isint) {f, offsetof(byoc_jobspec, member), isint}
static const scalar_field SCALARS[] = {
    SF(BYOC_JF_IMAGE_URI, image_uri, false),
    SF(BYOC_JF_SOURCE_MODULE, source_module, false),
    SF(BYOC_JF_ENTRY_POINT, entry_point, false),
    SF(BYOC_JF_ROLE_ARN, role_arn, false),
    SF(BYOC_JF_DEVICE, device, false),
    SF(BYOC_JF_INSTANCE_TYPE, instance_type, false),
    SF(BYOC_JF_INSTANCE_COUNT, instance_count, true),
    SF(BYOC_JF_VOLUME_GB, volume_gb, true),
    SF(BYOC_JF_OUTPUT_S3, output_s3, false),
    SF(BYOC_JF_KMS_KEY, kms_key_id, false),
    SF(BYOC_JF_CHECKPOINT_S3, checkpoint_s3, false),
    SF(BYOC_JF_CHECKPOINT_LOCAL_PATH, checkpoint_local_path, false),
    SF(BYOC_JF_CODE_LOCATION, code_location, false),
    SF(BYOC_JF_MAX_RUNTIME, max_runtime, true),
    SF(BYOC_JF_JOB_NAME, job_name, false),
    SF(BYOC_JF_DISTRIBUTION, distribution, false),
    SF(BYOC_JF_RESERVATION_ARN, reservation_arn, false),
    SF(BYOC_JF_COPY_CHECKPOINTS, copy_checkpoints_from_job, false),
};
#undef SF

static char **scalar_slot(byoc_jobspec *s, const scalar_field *f) { return (char **)((char *)s + f->offset); }
static char *const *scalar_cslot(const byoc_jobspec *s, const scalar_field *f)
{
    return (char *const *)((const char *)s + f->offset);
}

static json_t *number_or_string(const char *v)
{
    char *end;
    long long n = strtoll(v, &end, 10);
    if (*v && *end == '\0' && (v[0] != '0' || v[1] == '\0') && v[0] != '+')
        return json_integer(n);
    return json_string(v);
}

static json_t *kvs_to_json(const byoc_kv *kv, size_t n)
{
    json_t *o = json_object();
    for (size_t i = 0; i < n; i++)
        json_object_set_new(o, kv[i].key, json_string(kv[i].value));
    return o;
}

json_t *byoc_jobspec_to_json(const byoc_jobspec *s)
{
    json_t *j = json_object();
    for (size_t i = 0; i < sizeof SCALARS / sizeof *SCALARS; i++) {
        const char *v = *scalar_cslot(s, &SCALARS[i]);
        if (v)
            json_object_set_new(j, byoc_job_field_key(SCALARS[i].field),
                                SCALARS[i].integer ? number_or_string(v) : json_string(v));
    }
    if (s->n_hyperparameters)
        json_object_set_new(j, "hyperparameters", kvs_to_json(s->hyperparameters, s->n_hyperparameters));
    if (s->n_tags)
        json_object_set_new(j, "tags", kvs_to_json(s->tags, s->n_tags));
    if (s->n_channels) {
        json_t *list = json_array();
        for (size_t i = 0; i < s->n_channels; i++) {
            json_t *c = json_object();
            json_object_set_new(c, "channel", json_string(s->channels[i].name));
            json_object_set_new(c, "location", json_string(s->channels[i].location));
            if (s->channels[i].content_type)
                json_object_set_new(c, "content_type", json_string(s->channels[i].content_type));
            json_array_append_new(list, c);
        }
        json_object_set_new(j, "input_data", list);
    }
    return j;
}

static int bad(byoc_err *err, const char *key, const char *why)
{
    return byoc_err_set(err, BYOC_E_USAGE, "byoc.json", "job.%s: %s", key, why);
}

/* A map of strings (numbers and booleans are stringified, as the SDK's str() would). */
static int kvs_from_json(const json_t *o, const char *key, byoc_jobspec *s, bool tags, byoc_err *err)
{
    if (!json_is_object(o))
        return bad(err, key, "must be an object of strings");
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v)
    {
        char *text;
        if (json_is_string(v))
            text = byoc_xstrdup(json_string_value(v));
        else if (json_is_integer(v))
            text = byoc_xasprintf("%lld", (long long)json_integer_value(v));
        else if (json_is_boolean(v))
            text = byoc_xstrdup(json_is_true(v) ? "True" : "False");
        else
            return bad(err, key, "values must be strings or numbers");
        if (tags)
            byoc_jobspec_add_tag(s, k, text);
        else
            byoc_jobspec_add_hyperparameter(s, k, text);
        free(text);
    }
    return 0;
}

int byoc_jobspec_from_json(byoc_jobspec *s, const json_t *job, byoc_err *err)
{
    byoc_jobspec_init(s);
    if (!job)
        return 0;
    if (!json_is_object(job))
        return byoc_err_set(err, BYOC_E_USAGE, "byoc.json", "job: must be an object");
    for (size_t i = 0; i < sizeof SCALARS / sizeof *SCALARS; i++) {
        const char *key = byoc_job_field_key(SCALARS[i].field);
        json_t *v = json_object_get(job, key);
        if (!v || json_is_null(v))
            continue;
        if (json_is_string(v)) {
            byoc_jobspec_set(scalar_slot(s, &SCALARS[i]), json_string_value(v));
        } else if (SCALARS[i].integer && json_is_integer(v)) {
            char *t = byoc_xasprintf("%lld", (long long)json_integer_value(v));
            byoc_jobspec_set(scalar_slot(s, &SCALARS[i]), t);
            free(t);
        } else {
            byoc_jobspec_clear(s);
            return bad(err, key, SCALARS[i].integer ? "must be a number or a string" : "must be a string");
        }
    }
    json_t *v;
    if ((v = json_object_get(job, "hyperparameters")) && kvs_from_json(v, "hyperparameters", s, false, err))
        goto fail;
    if ((v = json_object_get(job, "tags")) && kvs_from_json(v, "tags", s, true, err))
        goto fail;
    if ((v = json_object_get(job, "input_data"))) {
        if (!json_is_array(v)) {
            bad(err, "input_data", "must be a list of {\"channel\", \"location\"}");
            goto fail;
        }
        size_t i;
        json_t *c;
        json_array_foreach(v, i, c)
        {
            const char *name = json_string_value(json_object_get(c, "channel"));
            const char *loc = json_string_value(json_object_get(c, "location"));
            json_t *ct = json_object_get(c, "content_type");
            if (!name || !loc || (ct && !json_is_string(ct))) {
                bad(err, "input_data", "each item needs string \"channel\" and \"location\"");
                goto fail;
            }
            byoc_jobspec_add_channel(s, name, loc, json_string_value(ct));
        }
    }
    return 0;
fail:
    byoc_jobspec_clear(s);
    return -1;
}

const char *byoc_job_origin_name(byoc_job_origin o)
{
    switch (o) {
    case BYOC_JO_FLAG: return "flag";
    case BYOC_JO_PROJECT: return BYOC_PROJECT_FILE;
    case BYOC_JO_PUSH: return "last push";
    default: return "";
    }
}

json_t *byoc_job_origins_json(const byoc_job_origin *origin)
{
    json_t *o = json_object();
    for (int i = 0; i < BYOC_JF_COUNT; i++)
        if (origin[i] != BYOC_JO_NONE)
            json_object_set_new(o, byoc_job_field_key((byoc_job_field)i), json_string(byoc_job_origin_name(origin[i])));
    return o;
}

int byoc_jobspec_fill_defaults(byoc_jobspec *s, const byoc_project *p, const char *project_dir,
                               byoc_job_origin *origin, byoc_err *err)
{
    for (int i = 0; origin && i < BYOC_JF_COUNT; i++)
        origin[i] = BYOC_JO_NONE; /* a list nobody set, or a field without a slot here, has none */
    byoc_jobspec def;
    if (byoc_jobspec_from_json(&def, p->job, err) != 0)
        return -1;
    for (size_t i = 0; i < sizeof SCALARS / sizeof *SCALARS; i++) {
        char **mine = scalar_slot(s, &SCALARS[i]), **theirs = scalar_slot(&def, &SCALARS[i]);
        byoc_job_origin o = BYOC_JO_NONE;
        if (*mine) {
            o = BYOC_JO_FLAG;
        } else if (*theirs) {
            *mine = *theirs;
            *theirs = NULL;
            o = BYOC_JO_PROJECT;
        }
        if (origin)
            origin[SCALARS[i].field] = o;
    }
    if (s->source_module && origin && origin[BYOC_JF_SOURCE_MODULE] == BYOC_JO_PROJECT && project_dir &&
        strcmp(project_dir, ".") != 0 && s->source_module[0] != '/' && !strstr(s->source_module, "://")) {
        char *abs = strcmp(s->source_module, ".") ? byoc_xasprintf("%s/%s", project_dir, s->source_module)
                                                  : byoc_xstrdup(project_dir);
        free(s->source_module);
        s->source_module = abs;
    }
    if (!s->image_uri) {
        const char *pushed = byoc_project_pushed_image(p);
        if (pushed) {
            s->image_uri = byoc_xstrdup(pushed);
            if (origin)
                origin[BYOC_JF_IMAGE_URI] = BYOC_JO_PUSH;
        }
    }
#define TAKE_LIST(items, n, field)                                                                              \
    do {                                                                                                    \
        if (!s->n && def.n) {                                                                               \
            s->items = def.items;                                                                           \
            s->n = def.n;                                                                                   \
            def.items = NULL;                                                                               \
            def.n = 0;                                                                                      \
            if (origin)                                                                                     \
                origin[field] = BYOC_JO_PROJECT;                                                            \
        } else if (s->n && origin) {                                                                        \
            origin[field] = BYOC_JO_FLAG;                                                                   \
        }                                                                                                   \
    } while (0)
    TAKE_LIST(hyperparameters, n_hyperparameters, BYOC_JF_HYPERPARAMETER);
    TAKE_LIST(tags, n_tags, BYOC_JF_TAG);
    TAKE_LIST(channels, n_channels, BYOC_JF_INPUT_DATA);
#undef TAKE_LIST
    byoc_jobspec_clear(&def);
    return 0;
}

void byoc_jobspec_remember(const byoc_jobspec *s, const byoc_job_origin *origin, byoc_project *p)
{
    json_decref(p->job);
    p->job = byoc_jobspec_to_json(s);
    for (int i = 0; origin && i < BYOC_JF_COUNT; i++)
        if (origin[i] == BYOC_JO_PUSH)   /* kept as "job" it would shadow every later push */
            json_object_del(p->job, byoc_job_field_key((byoc_job_field)i));
}

int byoc_jobspec_recall(byoc_jobspec *s, const byoc_project *p, byoc_err *err)
{
    return byoc_jobspec_from_json(s, p->job, err);
}

/* ---- problems ------------------------------------------------------------------- */

void byoc_job_problems_clear(byoc_job_problems *p)
{
    free(p->items);
    memset(p, 0, sizeof *p);
}

void byoc_job_problem_add(byoc_job_problems *p, byoc_job_field f, int index, const char *api_member,
                          const char *fmt, ...)
{
    if (p->len == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 8;
        p->items = byoc_xrealloc(p->items, p->cap * sizeof *p->items);
    }
    byoc_job_problem *it = &p->items[p->len++];
    memset(it, 0, sizeof *it);
    it->field = f;
    it->index = index;
    snprintf(it->what, sizeof it->what, "%s (%s)", byoc_job_field_flag(f),
             api_member ? api_member : byoc_job_field_api(f));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->message, sizeof it->message, fmt, ap);
    va_end(ap);
}

int byoc_job_problems_to_err(const byoc_job_problems *p, byoc_err *err)
{
    if (!p->len)
        return byoc_err_set(err, BYOC_E_USAGE, "run", "invalid job");
    return byoc_err_set(err, BYOC_E_USAGE, p->items[0].what, "%s", p->items[0].message);
}
