#include "build_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/git.h"
#include "core/buf.h"
#include "docker/engine.h"
#include "docker/platforms.h"
#include "docker/images.h"

/* ---- load ---- */

static void loaded_free(void *p)
{
    tui_build_loaded *l = p;
    byoc_project_free(&l->project);
    free(l->error);
    free(l);
}

int tui_build_load_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)t;
    (void)err;
    tui_build_loaded *l = byoc_xcalloc(1, sizeof *l);
    byoc_err e;
    if (byoc_project_load(&l->project, arg, &l->found, &e) != 0) {
        char line[1024];
        l->error = byoc_xstrdup(byoc_err_format(&e, line, sizeof line));
        byoc_project_init(&l->project);
        l->found = true;
    }
    *result = l;
    *result_free = loaded_free;
    return 0;
}

/* ---- prepare ---- */

void tui_build_request_free(void *p)
{
    tui_build_request *r = p;
    free(r->project_dir);
    tui_build_settings_free(&r->settings);
    free(r);
}

static void prepared_free(void *p)
{
    tui_build_prepared *r = p;
    byoc_lint_result_free(&r->lint);
    byoc_strv_free(&r->tags);
    byoc_strv_free(&r->labels);
    free(r);
}

static void git_facts(const char *dir, const char *name, tui_build_prepared *out)
{
    byoc_git_rev rev = {0};
    byoc_err gerr;
    if (byoc_git_revision(dir, &rev, &gerr) != 0 || !rev.is_repo) {
        byoc_git_rev_free(&rev);
        return;
    }
    if (name && *name) {
        char *tag = byoc_git_image_tag(name, &rev);
        if (tag)
            byoc_strv_push_owned(&out->tags, tag);
    }
    if (!rev.unborn) {
        json_t *labels = byoc_git_labels(&rev);
        const char *k;
        json_t *v;
        json_object_foreach(labels, k, v) byoc_strv_pushf(&out->labels, "%s=%s", k, json_string_value(v));
        json_decref(labels);
        /* reproducible when SOURCE_DATE_EPOCH says when */
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        time_t when = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
        struct tm tm;
        gmtime_r(&when, &tm);
        char created[96];
        strftime(created, sizeof created, "org.opencontainers.image.created=%Y-%m-%dT%H:%M:%SZ", &tm);
        byoc_strv_push(&out->labels, created);
    }
    byoc_git_rev_free(&rev);
}

int tui_build_prepare_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_build_request *req = arg;
    byoc_project proj;
    bool found = false;
    if (byoc_project_load(&proj, req->project_dir, &found, err) != 0)
        return -1;
    tui_build_prepared *r = byoc_xcalloc(1, sizeof *r);
    if (tui_build_settings_to_project(&req->settings, &proj) && (found || req->save_new)) {
        byoc_task_status(t, "Saving byoc.json");
        if (byoc_project_save(&proj, req->project_dir, err) != 0) {
            byoc_project_free(&proj);
            prepared_free(r);
            return -1;
        }
        r->saved = true;
    }
    if (req->lint && !byoc_task_cancelled(t)) {
        byoc_task_status(t, "Linting");
        char *df = tui_build_lint_dockerfile(req->settings.dockerfile, req->project_dir);
        byoc_lint_options lo = {.dir = req->project_dir, .dockerfile = df};
        int rc = byoc_lint_project(&lo, &r->lint, err);
        free(df);
        if (rc != 0) {
            byoc_project_free(&proj);
            prepared_free(r);
            return -1;
        }
        byoc_lint_sort(&r->lint);
        r->linted = true;
    }
    if (req->git && !byoc_task_cancelled(t))
        git_facts(req->project_dir, proj.name, r);
    byoc_project_free(&proj);
    if (byoc_task_cancelled(t)) {
        prepared_free(r);
        return byoc_err_set(err, BYOC_E_CANCELLED, "build", "cancelled");
    }
    *result = r;
    *result_free = prepared_free;
    return 0;
}

/* ---- build ---- */

struct tui_build_run {
    byoc_engine *engine;
    byoc_build_job *job;
    char *platform;
};

tui_build_run *tui_build_run_new(const byoc_build_opts *o, byoc_err *err)
{
    byoc_engine *e;
    if (byoc_engine_new(&e, err) != 0)
        return NULL;
    tui_build_run *r = byoc_xcalloc(1, sizeof *r);
    r->engine = e;
    r->job = byoc_build_job_new(e, o);
    r->platform = o->platform && *o->platform ? byoc_xstrdup(o->platform) : NULL;
    return r;
}

void tui_build_run_free(void *p)
{
    tui_build_run *r = p;
    byoc_build_job_free(r->job);
    byoc_engine_free(r->engine);
    free(r->platform);
    free(r);
}

static void built_free(void *p)
{
    tui_build_built *b = p;
    free(b->image_id);
    byoc_strv_free(&b->tags);
    free(b);
}

int tui_build_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_build_run *run = arg;
    void *res = NULL;
    void (*res_free)(void *) = NULL;
    if (run->platform) { /* as `byoc build` does: a platform the engine cannot run fails at its first RUN */
        byoc_engine_info info;
        byoc_err perr;
        char w[768];
        if (byoc_engine_ping(run->engine, t, &info, &perr) == 0 &&
            byoc_platform_build_warning(run->platform, info.os, info.arch, strncmp(info.host, "unix://", 7) == 0,
                                        getenv("BYOC_BINFMT_DIR"), w, sizeof w))
            byoc_task_log(t, "warning: %s", w);
    }
    if (byoc_build_task(t, run->job, &res, &res_free, err) != 0)
        return -1;
    byoc_build_result *br = res;
    tui_build_built *b = byoc_xcalloc(1, sizeof *b);
    b->image_id = byoc_xstrdup(br->image_id);
    for (size_t i = 0; i < br->n_tags; i++)
        byoc_strv_push(&b->tags, br->tags[i]);
    if (res_free)
        res_free(res);
    b->size = -1;
    json_t *doc = NULL;
    byoc_err ierr;
    if (byoc_image_inspect(run->engine, t, b->image_id, &doc, &ierr) == 0) {
        json_t *size = json_object_get(doc, "Size");
        if (json_is_integer(size))
            b->size = json_integer_value(size);
    }
    json_decref(doc);
    *result = b;
    *result_free = built_free;
    return 0;
}
