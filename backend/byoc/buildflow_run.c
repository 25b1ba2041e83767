/* buildflow_run: the Build step's run on the engine, as a plain call and as
 * a task, and the task's events read as typed build events (buildflow.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/buildflow.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/utf8.h"
#include "docker/context.h"
#include "docker/images.h"
#include "docker/platforms.h"

void byoc_build_flow_result_clear(byoc_build_flow_result *r)
{
    free(r->image_id);
    byoc_strv_clear(&r->tags);
    byoc_lint_result_clear(&r->lint);
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
    byoc_build_result_clear(&br);
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
    byoc_build_job *build;   /* the options' copy */
    char *lint_dir;          /* NULL: no lint */
    char *lint_dockerfile;
    byoc_engines *engines;   /* the app's, or NULL */
};

byoc_build_flow_job *byoc_build_flow_job_new(byoc_engines *engines, const byoc_build_plan *p, const char *lint_dir,
                                             const char *lint_dockerfile)
{
    byoc_build_flow_job *j = byoc_xcalloc(1, sizeof *j);
    j->engines = engines;
    j->build = byoc_build_job_new(NULL, &p->opts); /* the engine is the task's, made after the lint */
    j->lint_dir = byoc_xstrdup_opt(lint_dir);
    j->lint_dockerfile = byoc_xstrdup_opt(lint_dockerfile);
    return j;
}

void byoc_build_flow_job_free(void *job)
{
    byoc_build_flow_job *j = job;
    if (!j)
        return;
    byoc_build_job_free(j->build);
    free(j->lint_dir);
    free(j->lint_dockerfile);
    free(j);
}

BYOC_TASK_FREE(result_free, byoc_build_flow_result, byoc_build_flow_result_clear)

/* ---- the lint step, and its findings on the task's wire (BYOC_EV_DATA, byoc_build_data) ---- */

static void finding_free(void *p)
{
    byoc_finding *f = p;
    free(f->file);
    free(f->message);
    free(f);
}

/* A copy for the event: the project's file names and what the lint quotes of its files are
 * outside text, made printable here once for every reader. */
static byoc_finding *finding_copy(const byoc_finding *from)
{
    byoc_finding *f = byoc_xcalloc(1, sizeof *f);
    f->severity = from->severity;
    f->rule = from->rule;
    f->file = byoc_printable_dup(from->file);
    f->message = byoc_printable_dup(from->message);
    f->line = from->line;
    return f;
}

static int lint_step(byoc_task *t, const byoc_build_flow_job *j, byoc_lint_result *out, byoc_err *err)
{
    byoc_task_status(t, "Linting");
    byoc_lint_options lo = {.dir = j->lint_dir, .dockerfile = j->lint_dockerfile};
    if (byoc_lint_project(&lo, out, err) != 0)
        return -1;
    byoc_lint_sort(out);
    for (size_t i = 0; i < out->n; i++)
        byoc_task_data(t, BYOC_BUILD_DATA_FINDING, finding_copy(&out->items[i]), finding_free);
    size_t *errors = byoc_xmalloc(sizeof *errors);
    *errors = out->n_errors;
    byoc_task_data(t, BYOC_BUILD_DATA_LINTED, errors, free);
    return 0;
}

int byoc_build_flow_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    byoc_build_flow_job *j = arg;
    byoc_lint_result lint = {0};
    if (j->lint_dir && lint_step(t, j, &lint, err) < 0) {
        byoc_lint_result_clear(&lint);
        return -1;
    }
    byoc_build_flow_result *r = byoc_xcalloc(1, sizeof *r);
    int rc = 0;
    if (lint.n_errors) {
        r->lint_stopped = true;
        r->size = -1;
    } else {
        byoc_engine *engine = NULL;
        rc = byoc_engines_get(j->engines, &engine, err);
        if (rc == 0)
            rc = byoc_build_flow_run(engine, t, byoc_build_job_opts(j->build), r, err);
        byoc_engine_free(engine);
    }
    r->linted = j->lint_dir != NULL;
    r->lint = lint;
    if (rc < 0) {
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
    case BYOC_EV_CHECK: break;
    case BYOC_EV_DATA:
        out->current = out->total = 0;
        if (ev->current == BYOC_BUILD_DATA_FINDING && ev->result) {
            const byoc_finding *f = ev->result;
            out->kind = BYOC_BUILD_EV_LINT;
            out->severity = f->severity;
            out->rule = f->rule;
            out->file = f->file ? f->file : "";
            out->line = f->line;
            out->text = f->message;
        } else if (ev->current == BYOC_BUILD_DATA_LINTED && ev->result) {
            out->kind = BYOC_BUILD_EV_LINTED;
            out->current = (int64_t)*(const size_t *)ev->result;
        }
        break;
    }
}
