/* byoc_lint_project: the lint over a whole project directory (lint.h). */
#include "byoc/lint.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/dockerfile.h"
#include "byoc/git.h"
#include "byoc/lint_base.h"
#include "byoc/lint_context.h"
#include "byoc/recipe.h"
#include "byoc/requirements.h"
#include "byoc/vendor.h"
#include "core/buf.h"
#include "core/files.h"

#define DOCKERFILE_MAX (4u * 1024u * 1024u)
#define REQUIREMENTS_MAX (1024u * 1024u)

/* Does the Dockerfile install requirements.txt into the image? */
static bool installs_requirements(const char *text)
{
    const char *p = text;
    while ((p = strstr(p, "pip"))) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char *line = byoc_xstrndup(p, n);
        bool yes = strstr(line, "install") && strstr(line, "requirements");
        free(line);
        if (yes)
            return true;
        p += 3;
    }
    return false;
}

/* Is the requirement's vendor/<name>/ in the context, not empty? */
static bool vendored(const char *ctx, const byoc_requirement *it)
{
    byoc_git_dep dep;
    if (byoc_git_parse_dep(it->text, &dep) != 0)
        return false;
    char *rel = byoc_xasprintf(BYOC_VENDOR_DIR "/%s/.", dep.name);
    char *path = byoc_path_join(ctx, rel);
    bool yes = byoc_path_is_dir(path);
    free(path);
    free(rel);
    byoc_git_dep_clear(&dep);
    return yes;
}

/* A Dockerfile that copies vendor/ needs what `byoc vendor` writes there, or its build fails. */
static void lint_vendor(const char *ctx, const char *df_rel, const char *text, byoc_lint_result *out)
{
    const char *copy = text ? strstr(text, "COPY " BYOC_VENDOR_DIR "/") : NULL;
    if (!copy || (copy > text && copy[-1] != '\n'))
        return;
    char *list = byoc_path_join(ctx, BYOC_VENDOR_DIR "/requirements.txt");
    if (!byoc_path_exists(list)) {
        int line = 1;
        for (const char *p = text; p < copy; p++)
            line += *p == '\n';
        byoc_lint_add(out, BYOC_LINT_ERROR, "vendor-missing", df_rel, line,
                      "the Dockerfile copies vendor/, which `byoc vendor` has not written yet: run it (it clones "
                      "the private dependencies of requirements.txt with your ssh-agent) before building");
    }
    free(list);
}

static void lint_requirements(const char *dir, const char *context, bool extend, const char *dockerfile_text,
                              byoc_lint_result *out)
{
    char *ctx = byoc_path_join(dir, context);
    bool installs_vendor = dockerfile_text && strstr(dockerfile_text, BYOC_VENDOR_IMAGE_DIR "/requirements.txt");
    char *rel = strcmp(context, ".") ? byoc_xasprintf("%s/requirements.txt", context) : byoc_xstrdup("requirements.txt");
    char *ctxdir = byoc_path_join(dir, context);
    char *path = byoc_path_join(ctxdir, "requirements.txt");
    free(ctxdir);
    if (!byoc_path_exists(path)) {
        free(path);
        free(rel);
        free(ctx);
        return;
    }
    char *text = NULL;
    size_t len = 0;
    byoc_err err;
    bool truncated = false;
    if (byoc_file_read(path, REQUIREMENTS_MAX, &text, &len, &truncated, &err) != 0) {
        byoc_lint_add(out, BYOC_LINT_WARNING, "requirements-invalid", rel, 0, "cannot read: %s", err.message);
    } else if (byoc_text_is_binary(text, len)) {
        byoc_lint_add(out, BYOC_LINT_WARNING, "requirements-invalid", rel, 0,
                      "binary content, not a requirements list: pip would fail on it when the job starts");
    } else {
        byoc_requirements r;
        byoc_requirements_parse(text, len, &r);
        size_t missing = 0;
        for (size_t i = 0; i < r.n; i++) {
            const byoc_requirement *it = &r.items[i];
            if (it->kind <= BYOC_REQ_PATH && !(it->name && byoc_prebuilt_has_package(it->name)))
                missing++;
            if (it->has_credentials)
                byoc_lint_add(out, BYOC_LINT_ERROR, "context-secret", rel, it->line,
                              "credentials in a URL: they travel with the source and the build context; use a "
                              "credential helper or vendor the package");
            else if (it->private_source && !(installs_vendor && vendored(ctx, it)))
                byoc_lint_add(out, BYOC_LINT_WARNING, "private-requirements", rel, it->line,
                              "a private dependency (%s): nothing in a job can fetch it at start; `byoc vendor` "
                              "clones it into vendor/ with your ssh-agent, and a Dockerfile that installs "
                              "vendor/requirements.txt (init --answer private_deps=yes) puts it in the image",
                              it->why_private);
        }
        if (extend && missing >= BYOC_FEW_PACKAGES && !installs_requirements(dockerfile_text ? dockerfile_text : ""))
            byoc_lint_add(out, BYOC_LINT_WARNING, "many-requirements", rel, 0,
                          "%zu packages the prebuilt image lacks would be installed at every job start: install "
                          "them in the image (COPY requirements.txt + RUN pip install -r requirements.txt)",
                          missing);
        byoc_requirements_clear(&r);
    }
    free(text);
    free(path);
    free(rel);
    free(ctx);
}

static const char *job_instance_type(const byoc_project *p)
{
    const char *t = byoc_project_job_string(p, "instance_type");
    return t ? t : byoc_project_job_string(p, "instanceType");
}

int byoc_lint_project(const byoc_lint_options *o, byoc_lint_result *out, byoc_err *err)
{
    const char *dir = o->dir && *o->dir ? o->dir : ".";
    if (!byoc_path_is_dir(dir))
        return byoc_err_set(err, BYOC_E_USAGE, "lint", "%s is not a directory", dir);
    byoc_project proj;
    if (byoc_project_load(&proj, dir, NULL, err) != 0)
        return -1;
    const char *df_rel = o->dockerfile && *o->dockerfile ? o->dockerfile : proj.dockerfile;
    char *df_path = byoc_path_join(dir, df_rel);
    char *ctx_path = byoc_path_join(dir, proj.context);
    char *text = NULL;
    size_t len = 0;
    bool have_df = false;
    if (!byoc_path_exists(df_path)) {
        byoc_lint_add(out, BYOC_LINT_ERROR, "dockerfile-missing", df_rel, 0,
                      "no Dockerfile: create one with `byoc init` or set \"dockerfile\" in " BYOC_PROJECT_FILE);
    } else {
        bool truncated = false;
        byoc_err rerr;
        if (byoc_file_read(df_path, DOCKERFILE_MAX, &text, &len, &truncated, &rerr) != 0)
            byoc_lint_add(out, BYOC_LINT_ERROR, "dockerfile-unreadable", df_rel, 0, "%s", rerr.message);
        else if (truncated)
            byoc_lint_add(out, BYOC_LINT_ERROR, "dockerfile-unreadable", df_rel, 0,
                          "larger than %u bytes: not a Dockerfile", DOCKERFILE_MAX);
        else
            have_df = true;
    }
    bool extend = proj.recipe && !strcmp(proj.recipe, "extend-prebuilt");
    if (have_df) {
        byoc_lint_config cfg = {
            .recipe = proj.recipe,
            .arch = proj.arch,
            .gpu = proj.gpu,
            .instance_type = o->instance_type && *o->instance_type ? o->instance_type : job_instance_type(&proj),
            .context_dir = ctx_path,
            .dockerfile_name = df_rel,
            .build_args = proj.build_args,
            .n_build_args = proj.n_build_args,
        };
        byoc_lint_dockerfile(text, len, &cfg, out);
        byoc_dockerfile df;
        byoc_df_options opts = {proj.build_args, proj.n_build_args, proj.arch};
        byoc_dockerfile_parse(text, len, &opts, &df);
        const char *root = df.n_stages ? byoc_df_stage_root_image(&df, (int)df.n_stages - 1) : NULL;
        if (root && *root && !strchr(root, '$')) {
            extend = byoc_image_is_prebuilt(root);
            byoc_lint_base(dir, &proj, root, text, df_rel, df.stages[df.n_stages - 1].line, proj.context, out);
        }
        byoc_dockerfile_clear(&df);
    }
    lint_requirements(dir, proj.context, extend, text, out);
    if (have_df)
        lint_vendor(ctx_path, df_rel, text, out);
    if (byoc_path_is_dir(ctx_path) && have_df) {
        char *prefix = strcmp(proj.context, ".") ? byoc_xasprintf("%s/", proj.context) : byoc_xstrdup("");
        byoc_lint_context(ctx_path, df_path, prefix, out);
        free(prefix);
    } else if (!byoc_path_is_dir(ctx_path)) {
        byoc_lint_add(out, BYOC_LINT_ERROR, "context-size", proj.context, 0,
                      "the build context %s is not a directory (\"context\" in " BYOC_PROJECT_FILE ")", proj.context);
    }
    byoc_lint_sort(out);
    free(text);
    free(df_path);
    free(ctx_path);
    byoc_project_clear(&proj);
    return 0;
}

BYOC_TASK_FREE(lint_result_free, byoc_lint_result, byoc_lint_result_clear)

int byoc_lint_task(byoc_task *t, void *options, void **result, void (**result_free)(void *), byoc_err *err)
{
    const byoc_lint_options *o = options;
    byoc_task_status(t, "linting %s", o->dir ? o->dir : ".");
    byoc_lint_result *r = byoc_xcalloc(1, sizeof *r);
    if (byoc_lint_project(o, r, err) != 0) {
        lint_result_free(r);
        return -1;
    }
    *result = r;
    *result_free = lint_result_free;
    return 0;
}
