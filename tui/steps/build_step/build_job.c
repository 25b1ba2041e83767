#include "build_job.h"

#include <stdlib.h>

#include "core/buf.h"

/* ---- load ---- */

static void loaded_free(void *p)
{
    tui_build_loaded *l = p;
    byoc_project_clear(&l->project);
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
    tui_build_settings_clear(&r->settings);
    free(r);
}

static void prepared_free(void *p)
{
    tui_build_prepared *r = p;
    byoc_lint_result_clear(&r->lint);
    byoc_build_plan_clear(&r->plan);
    free(r);
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
            byoc_project_clear(&proj);
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
            byoc_project_clear(&proj);
            prepared_free(r);
            return -1;
        }
        byoc_lint_sort(&r->lint);
        r->linted = true;
    }
    byoc_build_git_facts git = {0};
    if (req->git && !byoc_task_cancelled(t))
        byoc_build_git_facts_read(req->project_dir, &git);
    byoc_build_flags flags;
    tui_build_flags_of(&req->settings, &flags);
    byoc_build_plan_make(&proj, req->project_dir, &flags, req->git ? &git : NULL, &r->plan);
    byoc_build_git_facts_clear(&git);
    byoc_project_clear(&proj);
    if (byoc_task_cancelled(t)) {
        prepared_free(r);
        return byoc_err_set(err, BYOC_E_CANCELLED, "build", "cancelled");
    }
    *result = r;
    *result_free = prepared_free;
    return 0;
}
