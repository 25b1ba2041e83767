/* buildflow_run: the Build step's run on the engine, as a plain call and as
 * a task, and the task's events read as typed build events (buildflow.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/buildflow.h"
#include "core/buf.h"
#include "docker/context.h"
#include "docker/images.h"
#include "docker/platforms.h"

void byoc_build_flow_result_clear(byoc_build_flow_result *r)
{
    free(r->image_id);
    byoc_strv_free(&r->tags);
    memset(r, 0, sizeof *r);
}

/* A build for a platform the engine can neither run nor emulate fails at its first RUN step
 * with "exec format error": say so, and the fix, before sending the context. */
static void warn_platform(byoc_engine *engine, byoc_task *t, const char *platform)
{
    byoc_engine_info info;
    byoc_err perr;
    char w[768];
    if (byoc_engine_ping(engine, t, &info, &perr) == 0 &&
        byoc_platform_build_warning(platform, info.os, info.arch, strncmp(info.host, "unix://", 7) == 0,
                                    getenv("BYOC_BINFMT_DIR"), w, sizeof w))
        byoc_task_log(t, "warning: %s", w);
}

int byoc_build_flow_run(byoc_engine *e, byoc_task *t, const byoc_build_opts *o, byoc_build_flow_result *out,
                        byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (byoc_engine_connect(e, t, err) < 0)
        return -1;
    if (o->platform && *o->platform)
        warn_platform(e, t, o->platform);
    byoc_build_result br = {0};
    if (byoc_build_run(e, t, o, &br, err) < 0)
        return -1;
    out->image_id = byoc_xstrdup(br.image_id);
    for (size_t i = 0; i < br.n_tags; i++)
        byoc_strv_push(&out->tags, br.tags[i]);
    byoc_build_result_free(&br);
    out->size = -1;
    json_t *doc = NULL;
    byoc_err ierr;
    if (byoc_image_inspect(e, t, out->image_id, &doc, &ierr) == 0) {
        json_t *size = json_object_get(doc, "Size");
        if (json_is_integer(size))
            out->size = json_integer_value(size);
    }
    json_decref(doc);
    return 0;
}

/* The Dockerfile to lint, relative to the project directory, when it lies inside it. */
static char *dockerfile_for_lint(const char *project_dir, const char *dockerfile)
{
    char *root = realpath(project_dir, NULL), *df = realpath(dockerfile, NULL);
    char *rel = NULL;
    if (root && df && strncmp(df, root, strlen(root)) == 0 && df[strlen(root)] == '/')
        rel = byoc_xstrdup(df + strlen(root) + 1);
    free(root);
    free(df);
    return rel;
}

int byoc_build_plan_check(const byoc_build_plan *p, const char *project_dir, char **lint_dockerfile, byoc_err *err)
{
    *lint_dockerfile = NULL;
    const byoc_build_opts *o = &p->opts;
    byoc_context *ctx = NULL;
    if (byoc_build_validate(o, err) < 0 || byoc_context_open(o->context_dir, o->dockerfile, &ctx, err) < 0)
        return -1;
    char *df_rel = dockerfile_for_lint(project_dir, o->dockerfile ? o->dockerfile : "");
    if (!df_rel) {
        char *abs = byoc_xasprintf("%s/%s", byoc_context_root(ctx), byoc_context_dockerfile(ctx));
        df_rel = dockerfile_for_lint(project_dir, abs);
        free(abs);
    }
    byoc_context_free(ctx);
    *lint_dockerfile = df_rel;
    return 0;
}

/* ---- as a task ---- */

struct byoc_build_flow_job {
    byoc_engine *engine;
    byoc_build_job *build;   /* the options' copy */
};

byoc_build_flow_job *byoc_build_flow_job_new(const byoc_build_plan *p, byoc_err *err)
{
    byoc_engine *e;
    if (byoc_engine_new(&e, err) != 0)
        return NULL;
    byoc_build_flow_job *j = byoc_xcalloc(1, sizeof *j);
    j->engine = e;
    j->build = byoc_build_job_new(e, &p->opts);
    return j;
}

void byoc_build_flow_job_free(void *job)
{
    byoc_build_flow_job *j = job;
    if (!j)
        return;
    byoc_build_job_free(j->build);
    byoc_engine_free(j->engine);
    free(j);
}

static void result_free(void *p)
{
    byoc_build_flow_result_clear(p);
    free(p);
}

int byoc_build_flow_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    byoc_build_flow_job *j = arg;
    byoc_build_flow_result *r = byoc_xcalloc(1, sizeof *r);
    if (byoc_build_flow_run(j->engine, t, byoc_build_job_opts(j->build), r, err) < 0) {
        result_free(r);
        return -1;
    }
    *result = r;
    *rfree = result_free;
    return 0;
}

void byoc_build_event_decode(const byoc_event *ev, byoc_build_event *out)
{
    memset(out, 0, sizeof *out);
    out->kind = BYOC_BUILD_EV_OTHER;
    out->text = ev->text;
    out->key = ev->key;
    out->current = ev->current;
    out->total = ev->total;
    out->verbatim = ev->verbatim;
    switch (ev->kind) {
    case BYOC_EV_LOG:
        out->kind = ev->text && byoc_build_parse_step(ev->text, &out->step, &out->steps) ? BYOC_BUILD_EV_STEP
                                                                                         : BYOC_BUILD_EV_LOG;
        break;
    case BYOC_EV_PROGRESS: out->kind = BYOC_BUILD_EV_PROGRESS; break;
    case BYOC_EV_STATUS: out->kind = BYOC_BUILD_EV_STATUS; break;
    case BYOC_EV_ERROR:
        out->kind = BYOC_BUILD_EV_ERROR;
        out->err = &ev->err;
        break;
    case BYOC_EV_DONE:
        out->kind = BYOC_BUILD_EV_IMAGE;
        out->image = ev->result;
        break;
    case BYOC_EV_CHECK:
    case BYOC_EV_DATA: break;
    }
}
