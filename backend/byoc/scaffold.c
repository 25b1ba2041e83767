#include "byoc/scaffold.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/adopt.h"
#include "byoc/git.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/log.h"
#include "core/str.h"
#include "core/template.h"

#ifndef BYOC_ASSETS_DIR
#define BYOC_ASSETS_DIR "assets"
#endif

#define SAGEMAKER_TRAINING_VERSION "5.1.1"
#define JULIA_RELEASE "1.10"
#define JULIA_VERSION "1.10.4"
#define RUST_VERSION "1.79.0"
#define ASSET_MAX (1u << 20)

const char *byoc_assets_dir(void)
{
    static char *found;
    const char *env = getenv("BYOC_ASSETS_DIR");
    if (env && *env)
        return env;
    if (!found) {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        char *slash = n > 0 ? (exe[n] = '\0', strrchr(exe, '/')) : NULL;
        if (slash) {
            *slash = '\0';
            char *cand = byoc_xasprintf("%s/../share/byoc/assets", exe);
            if (byoc_path_is_dir(cand))
                found = cand; /* kept for the process's life */
            else
                free(cand);
        }
        if (!found)
            found = byoc_xstrdup(BYOC_ASSETS_DIR);
    }
    return found;
}

static const char *byoc_existing_name(byoc_existing e)
{
    return e == BYOC_EXISTING_OVERWRITE ? "overwrite" : e == BYOC_EXISTING_BESIDE ? "beside" : "keep";
}

int byoc_existing_parse(const char *s, byoc_existing *out)
{
    static const byoc_existing all[] = {BYOC_EXISTING_KEEP, BYOC_EXISTING_OVERWRITE, BYOC_EXISTING_BESIDE};
    for (size_t i = 0; s && i < sizeof all / sizeof *all; i++)
        if (!strcmp(s, byoc_existing_name(all[i]))) {
            *out = all[i];
            return 0;
        }
    return -1;
}

/* The default base image of a recipe; python is the series of a Python base (NULL: the
 * prebuilt's). Caller frees. */
static char *byoc_default_base_image(byoc_recipe r, byoc_language l, bool gpu, const char *python, const char *region)
{
    if (r != BYOC_RECIPE_CUSTOM_BASE)
        return byoc_prebuilt_image_uri(region, gpu);
    if (gpu)
        return byoc_xstrdup(l == BYOC_LANG_RUST || l == BYOC_LANG_CPP ? "nvidia/cuda:12.4.1-devel-ubuntu22.04"
                                                                      : "nvidia/cuda:12.4.1-runtime-ubuntu22.04");
    switch (l) {
    case BYOC_LANG_JULIA: return byoc_xstrdup("public.ecr.aws/docker/library/julia:1.10-bookworm");
    case BYOC_LANG_RUST: return byoc_xstrdup("public.ecr.aws/docker/library/rust:1.79-slim-bookworm");
    case BYOC_LANG_CPP: return byoc_xstrdup("public.ecr.aws/docker/library/debian:bookworm-slim");
    default:
        return byoc_xasprintf("public.ecr.aws/docker/library/python:%s-slim-bookworm",
                              python && *python ? python : BYOC_PREBUILT_PYTHON);
    }
}

int byoc_init_validate(const byoc_init_options *o, byoc_err *err)
{
    if (!o->dir || !*o->dir)
        return byoc_err_set(err, BYOC_E_USAGE, "init", "needs a directory");
    if (o->recipe == BYOC_RECIPE_PREBUILT)
        return byoc_err_set(err, BYOC_E_USAGE, "--recipe",
                            "prebuilt needs no Dockerfile: put requirements.txt in the source directory; "
                            "valid: extend-prebuilt, custom-base");
    if (o->recipe == BYOC_RECIPE_EXTEND_PREBUILT && o->language != BYOC_LANG_PYTHON)
        return byoc_err_set(err, BYOC_E_USAGE, "--language",
                            "extend-prebuilt (recipe 1) runs Python algorithm scripts only; use --recipe custom-base "
                            "for %s",
                            byoc_language_name(o->language));
    if (o->recipe == BYOC_RECIPE_EXTEND_PREBUILT && o->arch == BYOC_ARCH_ARM64)
        return byoc_err_set(err, BYOC_E_USAGE, "--arch",
                            "the prebuilt Braket images are amd64 only; use --recipe custom-base for arm64");
    if (o->base_image && !*o->base_image)
        return byoc_err_set(err, BYOC_E_USAGE, "--base", "must not be empty");
    if (o->python && *o->python && o->recipe == BYOC_RECIPE_EXTEND_PREBUILT &&
        strcmp(o->python, BYOC_PREBUILT_PYTHON) != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "--python",
                            "the prebuilt Braket images have Python " BYOC_PREBUILT_PYTHON
                            "; use --recipe custom-base for Python %s", o->python);
    if (o->python && *o->python &&
        (strlen(o->python) > 5 || strspn(o->python, "0123456789.") != strlen(o->python) || o->python[0] != '3'))
        return byoc_err_set(err, BYOC_E_USAGE, "--python", "'%s' is not a Python series such as 3.13", o->python);
    for (size_t i = 0; i < o->n_choices; i++) {
        byoc_existing e;
        if (byoc_existing_parse(o->choices[i].value, &e) != 0)
            return byoc_err_set(err, BYOC_E_USAGE, "--existing", "'%s' for %s: valid: keep, overwrite, beside",
                                o->choices[i].value, o->choices[i].key);
    }
    return 0;
}

static void plan_add(byoc_init_plan *p, const char *path, char *content, size_t len, unsigned mode)
{
    p->files = byoc_xrealloc(p->files, (p->n + 1) * sizeof *p->files);
    p->files[p->n++] = (byoc_init_file){byoc_xstrdup(path), content, len, mode};
}

void byoc_init_plan_clear(byoc_init_plan *plan)
{
    for (size_t i = 0; i < plan->n; i++) {
        free(plan->files[i].path);
        free(plan->files[i].content);
    }
    free(plan->files);
    free(plan->source_module);
    free(plan->entry_point);
    memset(plan, 0, sizeof *plan);
}

static int read_asset(const char *assets, const char *rel, char **text, size_t *len, byoc_err *err)
{
    char *path = byoc_path_join(assets, rel);
    int rc = byoc_file_read(path, ASSET_MAX, text, len, NULL, err);
    if (rc != 0)
        byoc_err_prefix(err, "byoc's assets (set BYOC_ASSETS_DIR)");
    free(path);
    return rc;
}

static int add_asset(byoc_init_plan *p, const char *assets, const char *rel, const char *dest, unsigned mode,
                     byoc_err *err)
{
    char *text;
    size_t len;
    if (read_asset(assets, rel, &text, &len, err) != 0)
        return -1;
    plan_add(p, dest, text, len, mode);
    return 0;
}

/* Every file under assets/<dir>, in name order, to the same relative place. */
static int add_tree(byoc_init_plan *p, const char *assets, const char *dir, const char *dest_prefix, byoc_err *err)
{
    char *abs = byoc_path_join(assets, dir);
    DIR *d = opendir(abs);
    if (!d) {
        int rc = byoc_err_set(err, BYOC_E_FAILED, abs, "byoc's assets are missing (set BYOC_ASSETS_DIR)");
        free(abs);
        return rc;
    }
    byoc_strv names = BYOC_STRV_INIT;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")))
            if (strcmp(e->d_name, "__pycache__"))
                byoc_strv_push(&names, e->d_name);
    closedir(d);
    byoc_strv_sort(&names);
    int rc = 0;
    for (size_t i = 0; i < names.n && rc == 0; i++) {
        char *rel = byoc_xasprintf("%s/%s", dir, names.v[i]);
        char *dest = *dest_prefix ? byoc_xasprintf("%s/%s", dest_prefix, names.v[i]) : byoc_xstrdup(names.v[i]);
        char *child = byoc_path_join(assets, rel);
        struct stat st;
        if (stat(child, &st) == 0 && S_ISDIR(st.st_mode))
            rc = add_tree(p, assets, rel, dest, err);
        else
            rc = add_asset(p, assets, rel, dest, (st.st_mode & 0111) ? 0755 : 0644, err);
        free(child);
        free(dest);
        free(rel);
    }
    byoc_strv_clear(&names);
    free(abs);
    return rc;
}

static const char *language_title(byoc_language l)
{
    switch (l) {
    case BYOC_LANG_JULIA: return "Julia";
    case BYOC_LANG_RUST: return "Rust";
    case BYOC_LANG_CPP: return "C++";
    default: return "Python";
    }
}

static const char *entry_point(byoc_language l)
{
    switch (l) {
    case BYOC_LANG_JULIA: return "algorithm/algo.jl";
    case BYOC_LANG_RUST: return "algorithm/Cargo.toml";
    case BYOC_LANG_CPP: return "algorithm/CMakeLists.txt";
    default: return "algorithm.algo:main";
    }
}

/* "amazon-braket-<dir name>": the default job role may pull only amazon-braket* repositories. */
static char *project_name(const char *dir)
{
    char *real = realpath(dir, NULL);
    const char *base = byoc_path_base(real ? real : dir);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, "amazon-braket-");
    bool dash = true;
    for (const char *c = base; *c && b.len < 60; c++) {
        if (isalnum((unsigned char)*c)) {
            byoc_buf_putc(&b, (char)tolower((unsigned char)*c));
            dash = false;
        } else if (!dash) {
            byoc_buf_putc(&b, '-');
            dash = true;
        }
    }
    while (b.len && b.data[b.len - 1] == '-')
        b.data[--b.len] = '\0';
    if (!strcmp(byoc_buf_str(&b), "amazon-braket"))
        byoc_buf_puts(&b, "-job");
    free(real);
    return byoc_buf_steal(&b);
}

/* Does dir/rel hold exactly content (a regular file, not a link)? */
static bool same_content(const char *dir, const byoc_init_file *f)
{
    char *path = byoc_path_join(dir, f->path);
    struct stat st;
    bool same = false;
    if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == f->len) {
        char *text = NULL;
        size_t len = 0;
        byoc_err e;
        same = byoc_file_read(path, f->len + 1, &text, &len, NULL, &e) == 0 && len == f->len &&
               memcmp(text, f->content, len) == 0;
        free(text);
    }
    free(path);
    return same;
}

static byoc_existing choice_for(const byoc_init_options *o, const char *rel)
{
    byoc_existing e = o->force ? BYOC_EXISTING_OVERWRITE : o->existing;
    for (size_t i = 0; i < o->n_choices; i++)
        if (!strcmp(o->choices[i].key, rel))
            byoc_existing_parse(o->choices[i].value, &e);
    return e;
}

/* Where byoc's version of f goes: its own path, or <path>.byoc when the user's file is in
 * the way and its choice is "beside"; NULL when it is not written (kept, or already byoc's). */
static char *target_of(const byoc_init_options *o, const byoc_init_file *f)
{
    char *path = byoc_path_join(o->dir, f->path);
    bool exists = byoc_path_exists(path);
    free(path);
    if (!exists)
        return byoc_xstrdup(f->path);
    if (same_content(o->dir, f))
        return NULL;
    switch (choice_for(o, f->path)) {
    case BYOC_EXISTING_KEEP: return NULL;
    case BYOC_EXISTING_BESIDE: return byoc_xasprintf("%s.byoc", f->path);
    default: return byoc_xstrdup(f->path);
    }
}

static char *render_project_file(const byoc_init_options *o, const char *base, const char *name,
                                 const char *dockerfile, const byoc_init_plan *plan, byoc_err *err)
{
    byoc_project p;
    bool found = false;
    if (byoc_project_load(&p, o->dir, &found, err) != 0) {
        byoc_project_clear(&p);
        byoc_project_init(&p); /* an invalid byoc.json is replaced (only with --force: it exists) */
    }
    byoc_str_set(&p.name, name);
    byoc_str_set(&p.recipe, byoc_recipe_name(o->recipe));
    byoc_str_set(&p.language, byoc_language_name(o->language));
    byoc_str_set(&p.arch, byoc_arch_name(o->arch));
    p.gpu = o->gpu;
    byoc_str_set(&p.base_image, base);
    byoc_str_set(&p.dockerfile, dockerfile);
    byoc_str_set(&p.context, ".");
    json_object_set_new(p.job, "source_module", json_string(plan->source_module));
    json_object_set_new(p.job, "entry_point", json_string(plan->entry_point));
    if (o->python && *o->python && o->language == BYOC_LANG_PYTHON)
        json_object_set_new(p.doc, "python", json_string(o->python));
    if (o->arch == BYOC_ARCH_AMD64)
        json_object_set_new(p.job, "instance_type", json_string(o->gpu ? "ml.g4dn.xlarge" : "ml.m5.large"));
    else
        json_object_del(p.job, "instance_type");
    json_t *doc = byoc_project_to_json(&p);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    byoc_project_clear(&p);
    char *out = byoc_xasprintf("%s\n", text);
    free(text);
    return out;
}

int byoc_init_render(const byoc_init_options *o, byoc_init_plan *plan, byoc_err *err)
{
    memset(plan, 0, sizeof *plan);
    if (byoc_init_validate(o, err) != 0)
        return -1;
    const char *assets = o->assets_dir ? o->assets_dir : byoc_assets_dir();
    char *base = o->base_image ? byoc_xstrdup(o->base_image)
                               : byoc_default_base_image(o->recipe, o->language, o->gpu, o->python, o->region);
    byoc_adopt ad;
    byoc_adopt_find(o->dir, o->language, &ad);
    plan->adopted = ad.found;
    plan->source_module = byoc_xstrdup(ad.found ? ad.source_module : "algorithm");
    plan->entry_point = byoc_xstrdup(ad.found ? ad.entry_point : entry_point(o->language));
    /* The manifests the Dockerfile reads: the user's where they are, else the sample's. */
    const char *requirements = ad.found ? (ad.requirements ? ad.requirements : "") : "requirements.txt";
    char *name = project_name(o->dir);
    char *platform = byoc_xasprintf("linux/%s", byoc_arch_name(o->arch));
    bool arm = o->arch == BYOC_ARCH_ARM64;
    byoc_kv vars[] = {
        {"NAME", name},
        {"BASE_IMAGE", base},
        {"PLATFORM", platform},
        {"ARCH", (char *)byoc_arch_name(o->arch)},
        {"GPU", o->gpu ? "true" : "false"},
        {"VARIANT", o->gpu ? "CUDA" : "CPU"},
        {"LANGUAGE", (char *)byoc_language_name(o->language)},
        {"LANGUAGE_TITLE", (char *)language_title(o->language)},
        {"SAGEMAKER_TRAINING_VERSION", SAGEMAKER_TRAINING_VERSION},
        {"JULIA_RELEASE", JULIA_RELEASE},
        {"JULIA_VERSION", JULIA_VERSION},
        {"JULIA_ARCH_DIR", arm ? "aarch64" : "x64"},
        {"JULIA_ARCH", arm ? "aarch64" : "x86_64"},
        {"RUST_VERSION", RUST_VERSION},
        {"PYTHON", o->python && *o->python ? (char *)o->python : BYOC_PREBUILT_PYTHON},
        {"PYTHON_CHOSEN", o->python && *o->python && strcmp(o->python, BYOC_PREBUILT_PYTHON) ? "true" : "false"},
        {"PRIVATE_DEPS", o->private_deps ? "true" : "false"},
        {"REQUIREMENTS", (char *)requirements},
        {"PYPROJECT", ad.found && ad.pyproject && !ad.requirements ? ad.pyproject : ""},
        {"CARGO_TOML", ad.found && ad.cargo_toml ? ad.cargo_toml : "algorithm/Cargo.toml"},
        {"CARGO_LOCK", ad.found && ad.cargo_lock ? ad.cargo_lock : ""},
        {"JULIA_PROJECT", ad.found && ad.julia_project ? ad.julia_project : "algorithm/Project.toml"},
        {"JULIA_MANIFEST", ad.found && ad.julia_manifest ? ad.julia_manifest : ""},
    };
    char *partials = byoc_path_join(assets, "recipes/partials");
    byoc_template_vars tv = {vars, sizeof vars / sizeof *vars, partials};
    char *tmpl_rel = o->recipe == BYOC_RECIPE_EXTEND_PREBUILT
                         ? byoc_xstrdup("recipes/extend-prebuilt/Dockerfile.tmpl")
                         : byoc_xasprintf("recipes/custom-base/Dockerfile.%s.tmpl", byoc_language_name(o->language));
    char *tmpl = NULL, *dockerfile = NULL;
    size_t tlen;
    int rc = read_asset(assets, tmpl_rel, &tmpl, &tlen, err);
    if (rc == 0)
        rc = byoc_template_render(tmpl_rel, tmpl, &tv, &dockerfile, err);
    if (rc == 0) {
        plan_add(plan, "Dockerfile", dockerfile, strlen(dockerfile), 0644);
        rc = add_asset(plan, assets, "dockerignore.tmpl", ".dockerignore", 0644, err);
    }
    if (rc == 0)
        rc = add_asset(plan, assets, "gitignore.tmpl", ".gitignore", 0644, err);
    if (rc == 0 && o->recipe == BYOC_RECIPE_CUSTOM_BASE) {
        rc = add_asset(plan, assets, "entrypoint/byoc_container.py", "byoc/byoc_container.py", 0755, err);
        if (rc == 0)
            rc = add_asset(plan, assets, "entrypoint/train", "byoc/train", 0755, err);
        if (rc == 0)
            rc = add_asset(plan, assets, "entrypoint/install-packages", "byoc/install-packages", 0755, err);
    }
    if (rc == 0 && !ad.found) {
        char *samples = byoc_xasprintf("samples/%s", byoc_language_name(o->language));
        rc = add_tree(plan, assets, samples, "", err);
        free(samples);
    }
    if (rc == 0) {
        /* byoc.json names the Dockerfile byoc writes: Dockerfile.byoc when it goes beside the user's */
        char *df = plan->n && !strcmp(plan->files[0].path, "Dockerfile") ? target_of(o, &plan->files[0]) : NULL;
        char *pf = render_project_file(o, base, name, df && strcmp(df, "Dockerfile") ? df : "Dockerfile", plan, err);
        free(df);
        plan_add(plan, BYOC_PROJECT_FILE, pf, strlen(pf), 0600);
    }
    free(tmpl);
    free(tmpl_rel);
    free(partials);
    free(platform);
    free(name);
    free(base);
    byoc_adopt_clear(&ad);
    if (rc != 0)
        byoc_init_plan_clear(plan);
    return rc;
}

void byoc_init_conflicts(const char *dir, const byoc_init_plan *plan, byoc_strv *out)
{
    for (size_t i = 0; i < plan->n; i++) {
        char *p = byoc_path_join(dir, plan->files[i].path);
        if (byoc_path_exists(p) && !same_content(dir, &plan->files[i]))
            byoc_strv_push(out, plan->files[i].path);
        free(p);
    }
}

void byoc_init_result_clear(byoc_init_result *res)
{
    byoc_strv_clear(&res->files);
    byoc_strv_clear(&res->kept);
    byoc_strv_clear(&res->beside);
    free(res->source_module);
    free(res->entry_point);
    free(res->git_note);
    memset(res, 0, sizeof *res);
}

static int write_plan(const byoc_init_options *o, const byoc_init_plan *plan, byoc_init_result *res, byoc_err *err)
{
    for (size_t i = 0; i < plan->n; i++) {
        const byoc_init_file *f = &plan->files[i];
        char *rel = target_of(o, f);
        if (!rel) {
            if (!same_content(o->dir, f)) /* the user's file, kept (byoc's own needs no mention) */
                byoc_strv_push(&res->kept, f->path);
            continue;
        }
        if (strcmp(rel, f->path))
            byoc_strv_push(&res->beside, rel);
        int rc = byoc_file_write_below(o->dir, rel, f->content, f->len, f->mode, 0755, err);
        if (rc == 0)
            byoc_strv_push(&res->files, rel);
        free(rel);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int byoc_init_project(const byoc_init_options *o, byoc_init_result *res, byoc_err *err)
{
    memset(res, 0, sizeof *res);
    if (byoc_init_validate(o, err) != 0)
        return -1;
    if (byoc_path_exists(o->dir) && !byoc_path_is_dir(o->dir))
        return byoc_err_set(err, BYOC_E_USAGE, o->dir, "exists and is not a directory");
    byoc_init_plan plan;
    if (byoc_init_render(o, &plan, err) != 0)
        return -1;
    res->adopted = plan.adopted;
    res->source_module = byoc_xstrdup(plan.source_module);
    res->entry_point = byoc_xstrdup(plan.entry_point);
    int rc = 0;
    /* a directory of the project that is a link would take the files elsewhere: refused before anything is written */
    for (size_t i = 0; rc == 0 && byoc_path_exists(o->dir) && i < plan.n; i++)
        rc = byoc_path_check_below(o->dir, plan.files[i].path, err);
    if (rc != 0) {
        byoc_err why = *err;
        byoc_err_set(err, BYOC_E_USAGE, why.what, "%s; nothing was written", why.message);
    }
    if (rc == 0 && byoc_mkdir_p(o->dir, 0755) != 0)
        rc = byoc_err_set(err, BYOC_E_FAILED, o->dir, "cannot create the directory");
    if (rc == 0)
        rc = write_plan(o, &plan, res, err);
    if (rc == 0 && o->git && !res->files.n)
        res->git_note = byoc_xstrdup("nothing was written: nothing to commit");
    if (rc == 0 && o->git && res->files.n) {
        bool created = false;
        rc = byoc_git_init_commit(o->dir, (const char *const *)res->files.v, res->files.n,
                                  "Scaffold a BYOC project for Amazon Braket Hybrid Jobs (byoc init)", &created,
                                  res->commit, err);
        res->git_created = created;
        if (rc == 0 && !created)
            res->git_note = byoc_xstrdup("the directory is already in a git repository: nothing was committed");
    }
    byoc_init_plan_clear(&plan);
    return rc;
}

json_t *byoc_init_result_to_json(const byoc_init_result *res)
{
    json_t *files = json_array();
    for (size_t i = 0; i < res->files.n; i++)
        json_array_append_new(files, json_string(res->files.v[i]));
    json_t *git = json_pack("{s:b, s:o, s:o}", "created", res->git_created, "commit",
                            res->commit[0] ? json_string(res->commit) : json_null(), "note",
                            res->git_note ? json_string(res->git_note) : json_null());
    json_t *kept = json_array(), *beside = json_array();
    for (size_t i = 0; i < res->kept.n; i++)
        json_array_append_new(kept, json_string(res->kept.v[i]));
    for (size_t i = 0; i < res->beside.n; i++)
        json_array_append_new(beside, json_string(res->beside.v[i]));
    return json_pack("{s:o, s:o, s:o, s:b, s:s?, s:s?, s:o}", "files", files, "kept", kept, "beside", beside,
                     "adopted", res->adopted, "source_module", res->source_module, "entry_point", res->entry_point,
                     "git", git);
}
