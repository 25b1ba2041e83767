#include "run_form.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/project.h"
#include "core/buf.h"

typedef struct field_def {
    byoc_job_field field;
    const char *key;
    const char *label;
    const char *help;
} field_def;

static const field_def defs[] = {
    {BYOC_JF_SOURCE_MODULE, "source_module", "Code: source module", "file or directory, or s3://.../x.tar.gz"},
    {BYOC_JF_ENTRY_POINT, "entry_point", "Code: entry point", "MOD[:FUNC]; empty: the module's name"},
    {BYOC_JF_IMAGE_URI, "image_uri", "Container: image URI", "empty: the Braket base image"},
    {BYOC_JF_INSTANCE_TYPE, "instance_type", "Compute: instance type", "empty: " BYOC_JOB_DEFAULT_INSTANCE_TYPE},
    {BYOC_JF_INSTANCE_COUNT, "instance_count", "Compute: instances", "empty: 1"},
    {BYOC_JF_VOLUME_GB, "volume_gb", "Compute: volume GB", "empty: 30"},
    {BYOC_JF_MAX_RUNTIME, "max_runtime", "Compute: max runtime s", "empty: 432000 (5 days)"},
    {BYOC_JF_HYPERPARAMETER, "hyperparameters", "Data: hyperparameters", "K=V K=V ..."},
    {BYOC_JF_INPUT_DATA, "input_data", "Data: input data", "CHANNEL=S3URI|PATH ..."},
    {BYOC_JF_OUTPUT_S3, "output_s3", "Data: output S3", "empty: the default bucket"},
    {BYOC_JF_CHECKPOINT_S3, "checkpoint_s3", "Data: checkpoint S3", "empty: the default bucket"},
    {BYOC_JF_DEVICE, "device", "Device", "empty: " BYOC_JOB_DEFAULT_DEVICE " (or a device ARN)"},
    {BYOC_JF_JOB_NAME, "job_name", "Advanced: job name", "empty: braket-job-...-<time>"},
    {BYOC_JF_ROLE_ARN, "role_arn", "Advanced: role ARN", "empty: $BRAKET_JOBS_ROLE_ARN or the default role"},
    {BYOC_JF_TAG, "tags", "Advanced: tags", "K=V K=V ..."},
    {BYOC_JF_CODE_LOCATION, "code_location", "Advanced: code location", "empty: the default bucket"},
};
#define NDEFS (sizeof defs / sizeof defs[0])

static const char *const modes[] = {"Amazon Braket", "this machine (local)"};

static bool is_remote(const char *p)
{
    return strncmp(p, "s3://", 5) == 0 || strncmp(p, "https://", 8) == 0;
}

static char *resolve_path(const char *project, const char *path)
{
    if (!project || !*project || path[0] == '/' || is_remote(path))
        return byoc_xstrdup(path);
    if (strcmp(path, ".") == 0)
        return byoc_xstrdup(project);
    return byoc_xasprintf("%s/%s", project, path[0] == '.' && path[1] == '/' ? path + 2 : path);
}

static void set_text(char **field, const char *value)
{
    byoc_jobspec_set(field, value && *value ? value : NULL);
}

/* Space-separated K=V items; add(key, value) for each; problems for the rest. */
static void each_kv(const char *text, byoc_job_field f, const char *api, byoc_jobspec *s, byoc_job_problems *probs)
{
    char *copy = byoc_xstrdup(text ? text : "");
    int index = 0;
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), index++) {
        char *k = NULL, *v = NULL;
        if (byoc_jobspec_split_kv(tok, &k, &v) != 0 || !*k) {
            if (probs)
                byoc_job_problem_add(probs, f, index, api, "'%s' is not KEY=VALUE", tok);
        } else if (f == BYOC_JF_TAG) {
            byoc_jobspec_add_tag(s, k, v);
        } else {
            byoc_jobspec_add_hyperparameter(s, k, v);
        }
        free(k);
        free(v);
    }
    free(copy);
}

void tui_run_form_to_spec(const tui_form *f, bool resolve, byoc_jobspec *s, byoc_job_problems *probs)
{
    const char *project = f->ud;
    byoc_jobspec_init(s);
    for (size_t i = 0; i < NDEFS; i++) {
        const char *v = tui_form_value(f, defs[i].key);
        if (!v)
            continue;
        switch (defs[i].field) {
        case BYOC_JF_SOURCE_MODULE:
            if (*v) {
                char *p = resolve ? resolve_path(project, v) : byoc_xstrdup(v);
                set_text(&s->source_module, p);
                free(p);
            }
            break;
        case BYOC_JF_ENTRY_POINT: set_text(&s->entry_point, v); break;
        case BYOC_JF_IMAGE_URI: set_text(&s->image_uri, v); break;
        case BYOC_JF_INSTANCE_TYPE: set_text(&s->instance_type, v); break;
        case BYOC_JF_INSTANCE_COUNT: set_text(&s->instance_count, v); break;
        case BYOC_JF_VOLUME_GB: set_text(&s->volume_gb, v); break;
        case BYOC_JF_MAX_RUNTIME: set_text(&s->max_runtime, v); break;
        case BYOC_JF_HYPERPARAMETER: each_kv(v, BYOC_JF_HYPERPARAMETER, "hyperParameters", s, probs); break;
        case BYOC_JF_TAG: each_kv(v, BYOC_JF_TAG, "tags", s, probs); break;
        case BYOC_JF_INPUT_DATA: {
            char *copy = byoc_xstrdup(v);
            for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
                char *eq = strchr(tok, '=');
                const char *loc = eq && !memchr(tok, '/', (size_t)(eq - tok)) && !memchr(tok, ':', (size_t)(eq - tok))
                                      ? eq + 1 : tok;
                if (resolve && !is_remote(loc)) {
                    char *p = resolve_path(project, loc);
                    char *item = loc == tok ? byoc_xstrdup(p) : byoc_xasprintf("%.*s=%s", (int)(eq - tok), tok, p);
                    byoc_jobspec_add_input_arg(s, item);
                    free(item);
                    free(p);
                } else {
                    byoc_jobspec_add_input_arg(s, tok);
                }
            }
            free(copy);
            break;
        }
        case BYOC_JF_OUTPUT_S3: set_text(&s->output_s3, v); break;
        case BYOC_JF_CHECKPOINT_S3: set_text(&s->checkpoint_s3, v); break;
        case BYOC_JF_DEVICE: set_text(&s->device, v); break;
        case BYOC_JF_JOB_NAME: set_text(&s->job_name, v); break;
        case BYOC_JF_ROLE_ARN: set_text(&s->role_arn, v); break;
        case BYOC_JF_CODE_LOCATION: set_text(&s->code_location, v); break;
        default: break;
        }
    }
    s->launcher = byoc_job_launcher_in(s->image_uri, project);
}

/* The fields a local run uses; the rest it ignores with a warning. The
 * image is a local engine reference there, not an ECR URI. */
static bool local_mode_uses(byoc_job_field f)
{
    switch (f) {
    case BYOC_JF_SOURCE_MODULE:
    case BYOC_JF_ENTRY_POINT:
    case BYOC_JF_JOB_NAME:
    case BYOC_JF_DEVICE:
    case BYOC_JF_HYPERPARAMETER:
    case BYOC_JF_INPUT_DATA:
    case BYOC_JF_MAX_RUNTIME:
        return true;
    default:
        return false;
    }
}

static bool check_field(const tui_form *f, const tui_field *field, const char *value, char *msg, size_t msgsize,
                        void *ud)
{
    (void)field;
    (void)value;
    byoc_job_field jf = (byoc_job_field)(intptr_t)ud;
    if (tui_run_form_local(f) && !local_mode_uses(jf))
        return true;                /* local mode warns about these itself (localrun.h) */
    byoc_jobspec spec;
    byoc_job_problems probs = {0};
    tui_run_form_to_spec(f, true, &spec, &probs);
    byoc_jobspec_validate(&spec, NULL, &probs);
    bool ok = true;
    for (size_t i = 0; i < probs.len && ok; i++) {
        const byoc_job_problem *p = &probs.items[i];
        if (p->field != jf)
            continue;
        if (p->what[0])
            snprintf(msg, msgsize, "%s: %s", p->what, p->message);
        else
            snprintf(msg, msgsize, "%s: %s", byoc_job_field_flag(jf), p->message);
        ok = false;
    }
    byoc_job_problems_clear(&probs);
    byoc_jobspec_clear(&spec);
    return ok;
}

void tui_run_form_build(tui_form *f, const char *project_dir)
{
    f->ud = (void *)project_dir;
    for (size_t i = 0; i < NDEFS; i++) {
        size_t idx = tui_form_add_text(f, defs[i].key, defs[i].label, "", defs[i].field == BYOC_JF_SOURCE_MODULE,
                                       check_field, (void *)(intptr_t)defs[i].field);
        tui_form_set_help(f, idx, defs[i].help);
    }
    tui_form_add_choice(f, "mode", "Run on", modes, 2, 0);
}

bool tui_run_form_local(const tui_form *f)
{
    const char *m = tui_form_value(f, "mode");
    return m && strcmp(m, modes[1]) == 0;
}

size_t tui_run_form_validate(tui_form *f)
{
    return tui_form_validate(f);
}

static void join_kv(byoc_buf *b, const byoc_kv *kv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        byoc_buf_printf(b, "%s%s=%s", i ? " " : "", kv[i].key, kv[i].value ? kv[i].value : "");
}

/* A field's text as the form shows it (lists space-separated). */
static void field_text(const byoc_jobspec *s, byoc_job_field f, byoc_buf *b)
{
    const char *v = NULL;
    switch (f) {
    case BYOC_JF_SOURCE_MODULE: v = s->source_module; break;
    case BYOC_JF_ENTRY_POINT: v = s->entry_point; break;
    case BYOC_JF_IMAGE_URI: v = s->image_uri; break;
    case BYOC_JF_INSTANCE_TYPE: v = s->instance_type; break;
    case BYOC_JF_INSTANCE_COUNT: v = s->instance_count; break;
    case BYOC_JF_VOLUME_GB: v = s->volume_gb; break;
    case BYOC_JF_MAX_RUNTIME: v = s->max_runtime; break;
    case BYOC_JF_OUTPUT_S3: v = s->output_s3; break;
    case BYOC_JF_CHECKPOINT_S3: v = s->checkpoint_s3; break;
    case BYOC_JF_DEVICE: v = s->device; break;
    case BYOC_JF_JOB_NAME: v = s->job_name; break;
    case BYOC_JF_ROLE_ARN: v = s->role_arn; break;
    case BYOC_JF_CODE_LOCATION: v = s->code_location; break;
    case BYOC_JF_HYPERPARAMETER: join_kv(b, s->hyperparameters, s->n_hyperparameters); return;
    case BYOC_JF_TAG: join_kv(b, s->tags, s->n_tags); return;
    case BYOC_JF_INPUT_DATA:
        for (size_t i = 0; i < s->n_channels; i++)
            byoc_buf_printf(b, "%s%s=%s", i ? " " : "", s->channels[i].name, s->channels[i].location);
        return;
    default: return;
    }
    byoc_buf_puts(b, v ? v : "");
}

void tui_run_form_from_spec(tui_form *f, const byoc_jobspec *s, const byoc_job_origin *origin)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i < NDEFS; i++) {
        byoc_buf_reset(&b);
        field_text(s, defs[i].field, &b);
        byoc_job_origin o = origin ? origin[defs[i].field] : BYOC_JO_NONE;
        bool marked = b.len && (o == BYOC_JO_PROJECT || o == BYOC_JO_PUSH);
        tui_form_set_from(f, defs[i].key, byoc_buf_str(&b), marked ? byoc_job_origin_name(o) : NULL);
    }
    byoc_buf_clear(&b);
}

void tui_run_form_origins(const tui_form *f, byoc_job_origin *origin)
{
    for (int i = 0; i < BYOC_JF_COUNT; i++)
        origin[i] = BYOC_JO_NONE;
    for (size_t i = 0; i < NDEFS; i++) {
        const tui_field *fl = tui_form_field((tui_form *)f, defs[i].key);
        const char *o = fl ? tui_form_origin(f, fl) : NULL;
        for (byoc_job_origin k = BYOC_JO_PROJECT; o && k <= BYOC_JO_PUSH; k++)
            if (strcmp(o, byoc_job_origin_name(k)) == 0)
                origin[defs[i].field] = k;
    }
}

/* ---- byoc.json ---- */

static void tui_run_loaded_free(void *loaded)
{
    tui_run_loaded *l = loaded;
    if (!l)
        return;
    byoc_jobspec_clear(&l->spec);
    free(l);
}

/* The job spec's defaults exactly as `byoc run` takes them (byoc_jobspec_fill_defaults), so
 * the form and the CLI cannot drift; the source module stays as byoc.json writes it (the form
 * takes relative paths from the project itself). */
int tui_run_load_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)t;
    byoc_project p;
    bool found = false;
    if (byoc_project_load(&p, arg, &found, err) != 0)
        return -1;
    *result_free = tui_run_loaded_free;
    *result = NULL;
    if (!found) {
        byoc_project_clear(&p);
        return 0;
    }
    tui_run_loaded *l = byoc_xcalloc(1, sizeof *l);
    byoc_jobspec_init(&l->spec);
    int rc = byoc_jobspec_fill_defaults(&l->spec, &p, NULL, l->origin, err);
    byoc_project_clear(&p);
    if (rc != 0) {
        tui_run_loaded_free(l);
        return -1;
    }
    *result = l;
    return 0;
}

int tui_run_remember_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)t;
    (void)result;
    (void)result_free;
    tui_run_remember_args *a = arg;
    byoc_project p;
    bool found = false;
    if (byoc_project_load(&p, a->project_dir, &found, err) != 0)
        return -1;
    int rc = 0;
    if (found) {
        byoc_jobspec_remember(&a->spec, a->origin, &p);
        rc = byoc_project_save(&p, a->project_dir, err);
    }
    byoc_project_clear(&p);
    return rc;
}

void tui_run_remember_args_free(void *args)
{
    tui_run_remember_args *a = args;
    if (!a)
        return;
    free(a->project_dir);
    byoc_jobspec_clear(&a->spec);
    free(a);
}
