#include "push_tasks.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "aws/ecr.h"
#include "byoc/permit.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/strv.h"

tui_push_args *tui_push_args_new(byoc_aws_clients *clients, const char *profile, const char *region)
{
    tui_push_args *a = byoc_xcalloc(1, sizeof *a);
    a->clients = clients;
    a->profile = byoc_xstrdup_opt(profile);
    a->region = byoc_xstrdup_opt(region);
    return a;
}

void tui_push_args_free(void *args)
{
    tui_push_args *a = args;
    if (!a)
        return;
    free(a->profile);
    free(a->region);
    free(a);
}

static void json_decref_ptr(void *p)
{
    json_decref(p);
}

static int client(byoc_aws_clients *clients, const char *profile, const char *region, byoc_aws_client **c,
                  byoc_err *err)
{
    byoc_aws_config_opts o = {.profile = profile, .region = region};
    return byoc_aws_clients_get(clients, &o, c, err);
}

int tui_push_repos_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_push_args *a = arg;
    byoc_aws_client *c;
    if (client(a->clients, a->profile, a->region, &c, err) != 0)
        return -1;
    byoc_ecr_repository *repos = NULL;
    size_t n = 0;
    int rc = byoc_ecr_describe_repositories(c, t, NULL, 0, &repos, &n, err);
    byoc_aws_client_free(c);
    if (rc != 0)
        return -1;
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(list, json_pack("{s:s, s:s}", "name", repos[i].name ? repos[i].name : "", "uri",
                                              repos[i].uri ? repos[i].uri : ""));
    byoc_ecr_repositories_free(repos, n);
    *result = list;
    *result_free = json_decref_ptr;
    return 0;
}

tui_permit_args *tui_permit_args_new(byoc_aws_clients *clients, const char *profile, const char *region,
                                     const char *repository)
{
    tui_permit_args *a = byoc_xcalloc(1, sizeof *a);
    a->clients = clients;
    a->profile = byoc_xstrdup_opt(profile);
    a->region = byoc_xstrdup_opt(region);
    a->repository = byoc_xstrdup_opt(repository);
    return a;
}

void tui_permit_args_free(void *args)
{
    tui_permit_args *a = args;
    if (!a)
        return;
    free(a->profile);
    free(a->region);
    free(a->repository);
    free(a->principals);
    free(a->role);
    free(a);
}

BYOC_TASK_FREE(repo_pull_free, byoc_repo_pull, byoc_repo_pull_clear)

int tui_permit_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    tui_permit_args *a = arg;
    byoc_aws_client *c;
    if (client(a->clients, a->profile, a->region, &c, err) != 0)
        return -1;
    if (a->mode == TUI_PERMIT_GRANT) {
        byoc_repo_pull *r = byoc_xcalloc(1, sizeof *r);
        byoc_permit_repository_pull(c, t, a->repository, a->role, r);
        byoc_aws_client_free(c);
        *result = r;
        *result_free = repo_pull_free;
        return 0;
    }
    byoc_strv names = {0};
    char *copy = byoc_xstrdup(a->principals ? a->principals : "");
    for (char *save = NULL, *tok = strtok_r(copy, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save))
        byoc_strv_push(&names, tok);
    free(copy);
    byoc_permit_opts o = {.repository = a->repository, .dry_run = a->dry_run, .force = a->force};
    if (a->mode == TUI_PERMIT_ALLOW) {
        o.allow = (const char *const *)names.v;
        o.n_allow = names.n;
    } else if (a->mode == TUI_PERMIT_REVOKE) {
        o.revoke = (const char *const *)names.v;
        o.n_revoke = names.n;
    } else if (a->mode == TUI_PERMIT_VIEW) {
        o.dry_run = true;
    }
    byoc_permit_job *job = byoc_permit_job_new(c, &o, a->role);
    void *res = NULL;
    void (*res_free)(void *) = NULL;
    int rc = a->mode == TUI_PERMIT_CHECK ? byoc_permit_check_task(t, job, &res, &res_free, err)
                                         : byoc_permit_edit_task(t, job, &res, &res_free, err);
    byoc_permit_job_free(job);
    byoc_strv_clear(&names);
    byoc_aws_client_free(c);
    if (rc != 0) {
        if (res && res_free)
            res_free(res);
        return -1;
    }
    *result = res;
    *result_free = res_free;
    return 0;
}
