#include "byoc/project.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/recipe.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/str.h"

#define PROJECT_MAX_BYTES (1u << 20)

void byoc_project_init(byoc_project *p)
{
    memset(p, 0, sizeof *p);
    p->dockerfile = byoc_xstrdup("Dockerfile");
    p->context = byoc_xstrdup(".");
    p->job = json_object();
    p->doc = json_object();
}

void byoc_project_clear(byoc_project *p)
{
    free(p->name);
    free(p->recipe);
    free(p->language);
    free(p->arch);
    free(p->base_image);
    free(p->dockerfile);
    free(p->context);
    for (size_t i = 0; i < p->n_tags; i++)
        free(p->tags[i]);
    free(p->tags);
    for (size_t i = 0; i < p->n_build_args; i++) {
        free(p->build_args[i].key);
        free(p->build_args[i].value);
    }
    free(p->build_args);
    json_decref(p->job);
    json_decref(p->doc);
    memset(p, 0, sizeof *p);
}

void byoc_project_set_build_arg(byoc_project *p, const char *key, const char *value)
{
    for (size_t i = 0; i < p->n_build_args; i++)
        if (strcmp(p->build_args[i].key, key) == 0) {
            byoc_str_set(&p->build_args[i].value, value);
            return;
        }
    p->build_args = byoc_xrealloc(p->build_args, (p->n_build_args + 1) * sizeof *p->build_args);
    p->build_args[p->n_build_args].key = byoc_xstrdup(key);
    p->build_args[p->n_build_args].value = byoc_xstrdup(value ? value : "");
    p->n_build_args++;
}

const char *byoc_project_build_arg(const byoc_project *p, const char *key)
{
    for (size_t i = 0; i < p->n_build_args; i++)
        if (strcmp(p->build_args[i].key, key) == 0)
            return p->build_args[i].value;
    return NULL;
}

const char *byoc_project_job_string(const byoc_project *p, const char *key)
{
    json_t *v = p->job ? json_object_get(p->job, key) : NULL;
    return json_is_string(v) ? json_string_value(v) : NULL;
}

const char *byoc_project_pushed_image(const byoc_project *p)
{
    const char *uri = p ? json_string_value(json_object_get(json_object_get(p->doc, "pushed"), "image_uri")) : NULL;
    return uri && *uri ? uri : NULL;
}

void byoc_project_set_pushed(byoc_project *p, const char *image_uri, const char *digest)
{
    json_object_set_new(p->doc, "pushed", json_pack("{s:s, s:s?}", "image_uri", image_uri, "digest", digest));
}

int byoc_project_record_push(const char *dir, const char *image_uri, const char *digest, byoc_err *err)
{
    byoc_project p;
    bool found = false;
    if (byoc_project_load(&p, dir, &found, err) != 0)
        return -1;
    int rc = 0;
    if (found) {
        byoc_project_set_pushed(&p, image_uri, digest);
        rc = byoc_project_save(&p, dir, err);
    }
    byoc_project_clear(&p);
    return rc;
}

static int bad_field(byoc_err *err, const char *key, const char *why)
{
    char what[96];
    snprintf(what, sizeof what, BYOC_PROJECT_FILE ": %s", key);
    return byoc_err_set(err, BYOC_E_USAGE, what, "%s", why);
}

/* Take an optional string member; validate it with `check` when given. */
static int take_string(json_t *doc, const char *key, char **field, int (*check)(const char *),
                       const char *why, byoc_err *err)
{
    json_t *v = json_object_get(doc, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return bad_field(err, key, "must be a string");
    if (check && check(json_string_value(v)) != 0)
        return bad_field(err, key, why);
    byoc_str_set(field, json_string_value(v));
    return 0;
}

static int check_recipe(const char *s)
{
    byoc_recipe r;
    return byoc_recipe_parse(s, &r);
}

static int check_language(const char *s)
{
    byoc_language l;
    return byoc_language_parse(s, &l);
}

static int check_arch(const char *s)
{
    byoc_arch a;
    return byoc_arch_parse(s, &a);
}

static int check_nonempty(const char *s)
{
    return *s ? 0 : -1;
}

static int parse_fields(byoc_project *p, json_t *doc, byoc_err *err)
{
    if (take_string(doc, "name", &p->name, check_nonempty, "must not be empty", err) ||
        take_string(doc, "recipe", &p->recipe, check_recipe,
                    "must be prebuilt, extend-prebuilt or custom-base", err) ||
        take_string(doc, "language", &p->language, check_language,
                    "must be python, julia, rust or cpp", err) ||
        take_string(doc, "arch", &p->arch, check_arch, "must be amd64 or arm64", err) ||
        take_string(doc, "base_image", &p->base_image, check_nonempty, "must not be empty", err) ||
        take_string(doc, "dockerfile", &p->dockerfile, check_nonempty, "must not be empty", err) ||
        take_string(doc, "context", &p->context, check_nonempty, "must not be empty", err))
        return -1;
    json_t *v = json_object_get(doc, "gpu");
    if (v && !json_is_null(v)) {
        if (!json_is_boolean(v))
            return bad_field(err, "gpu", "must be true or false");
        p->gpu = json_is_true(v);
    }
    v = json_object_get(doc, "tags");
    if (v && !json_is_null(v)) {
        if (!json_is_array(v))
            return bad_field(err, "tags", "must be a list of image references");
        size_t i;
        json_t *t;
        json_array_foreach(v, i, t) {
            if (!json_is_string(t) || !*json_string_value(t))
                return bad_field(err, "tags", "must be a list of image references");
        }
        p->tags = byoc_xcalloc(json_array_size(v) + 1, sizeof *p->tags);
        json_array_foreach(v, i, t) p->tags[p->n_tags++] = byoc_xstrdup(json_string_value(t));
    }
    v = json_object_get(doc, "build_args");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad_field(err, "build_args", "must be an object of strings");
        const char *k;
        json_t *t;
        json_object_foreach(v, k, t) {
            if (!json_is_string(t))
                return bad_field(err, "build_args", "must be an object of strings");
            byoc_project_set_build_arg(p, k, json_string_value(t));
        }
    }
    v = json_object_get(doc, "job");
    if (v && !json_is_null(v)) {
        if (!json_is_object(v))
            return bad_field(err, "job", "must be an object");
        json_decref(p->job);
        p->job = json_deep_copy(v);
    }
    return 0;
}

int byoc_project_parse(byoc_project *p, const char *text, size_t len, byoc_err *err)
{
    memset(p, 0, sizeof *p);
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc)
        return byoc_err_set(err, BYOC_E_USAGE, BYOC_PROJECT_FILE, "line %d: %s", je.line, je.text);
    if (!json_is_object(doc)) {
        json_decref(doc);
        return byoc_err_set(err, BYOC_E_USAGE, BYOC_PROJECT_FILE, "must be a JSON object");
    }
    byoc_project_init(p);
    json_decref(p->doc);
    p->doc = doc;
    if (parse_fields(p, doc, err) != 0) {
        byoc_project_clear(p);
        return -1;
    }
    return 0;
}

int byoc_project_load(byoc_project *p, const char *dir, bool *found, byoc_err *err)
{
    if (found)
        *found = false;
    char *path = byoc_path_join(dir, BYOC_PROJECT_FILE);
    if (!byoc_path_exists(path)) {
        free(path);
        byoc_project_init(p);
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    bool truncated = false;
    int rc = byoc_file_read(path, PROJECT_MAX_BYTES, &text, &len, &truncated, err);
    if (rc == 0 && truncated)
        rc = byoc_err_set(err, BYOC_E_USAGE, path, "larger than %u bytes", PROJECT_MAX_BYTES);
    if (rc == 0) {
        rc = byoc_project_parse(p, text, len, err);
        if (rc == 0 && found)
            *found = true;
    } else {
        memset(p, 0, sizeof *p);
    }
    free(text);
    free(path);
    return rc;
}

static void put_string(json_t *doc, const char *key, const char *v)
{
    if (v)
        json_object_set_new(doc, key, json_string(v));
    else
        json_object_del(doc, key);
}

json_t *byoc_project_to_json(const byoc_project *p)
{
    json_t *doc = json_deep_copy(p->doc);
    if (!doc)
        doc = json_object();
    put_string(doc, "name", p->name);
    put_string(doc, "recipe", p->recipe);
    put_string(doc, "language", p->language);
    put_string(doc, "arch", p->arch);
    json_object_set_new(doc, "gpu", json_boolean(p->gpu));
    put_string(doc, "base_image", p->base_image);
    put_string(doc, "dockerfile", p->dockerfile);
    put_string(doc, "context", p->context);
    json_t *tags = json_array();
    for (size_t i = 0; i < p->n_tags; i++)
        json_array_append_new(tags, json_string(p->tags[i]));
    json_object_set_new(doc, "tags", tags);
    json_t *args = json_object();
    for (size_t i = 0; i < p->n_build_args; i++)
        json_object_set_new(args, p->build_args[i].key, json_string(p->build_args[i].value));
    json_object_set_new(doc, "build_args", args);
    json_object_set_new(doc, "job", p->job ? json_deep_copy(p->job) : json_object());
    return doc;
}

int byoc_project_save(const byoc_project *p, const char *dir, byoc_err *err)
{
    json_t *doc = byoc_project_to_json(p);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    size_t len = strlen(text);
    char *withnl = byoc_xasprintf("%s\n", text);
    free(text);
    char *path = byoc_path_join(dir, BYOC_PROJECT_FILE);
    int rc = byoc_file_write_atomic(path, withnl, len + 1, 0600, err);
    free(path);
    free(withnl);
    return rc;
}
