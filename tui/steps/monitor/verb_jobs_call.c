#include "verb_jobs_call.h"

typedef struct jobs_call {
    const byoc_globals *g;
    const char *ref;
    tui_jobs_verb_fn fn;
    void *ud;
} jobs_call;

static int open_and_run(byoc_task *t, void *ud, byoc_err *err)
{
    jobs_call *c = ud;
    byoc_jobs_args *a;
    if (byoc_jobs_open(c->g->profile, c->g->region, c->ref, t, &a, err) != 0)
        return -1;
    int rc = c->fn(a, t, c->ud, err);
    byoc_jobs_args_free(a);
    return rc;
}

int tui_jobs_verb_run(const byoc_globals *g, const char *name, const char *ref, tui_jobs_verb_fn fn, void *ud,
                      byoc_cli_task_printer print, byoc_err *err)
{
    jobs_call c = {g, ref, fn, ud};
    return byoc_cli_run_call(name, open_and_run, &c, print, NULL, err);
}
