/* push_tasks: the Push and Permit steps' backend work as tasks for
 * tui_app_start_task. Each task takes its AWS client for the profile and
 * region it is given from the app's pool (tui_app_aws; NULL: a client of its
 * own), which outlives the app's tasks. (The push itself is
 * byoc/pushflow.h's task, byoc_push_task, as `byoc push` runs it.)
 *
 *   repos   DescribeRepositories, every page. DONE result: json_t * array
 *           of {"name", "uri"}.
 *   permit  byoc_permit_run (byoc/permit.h): view (no change), allow or
 *           revoke the given principals, as a dry run or for real.
 *           DONE result: a byoc_permit_result *.
 *   check   byoc_permit_check_pull: can the role pull? DONE result: a
 *           byoc_pull_check *.
 *   grant   byoc_permit_repository_pull: does the repository policy alone
 *           let the role (or, without one, anyone) pull? DONE result: a
 *           byoc_repo_pull * (an unreadable policy is its "unknown", not an
 *           error). */
#ifndef BYOC_TUI_PUSH_TASKS_H
#define BYOC_TUI_PUSH_TASKS_H

#include <stdbool.h>

#include "aws/clients.h"
#include "core/task.h"

typedef struct tui_push_args {
    byoc_aws_clients *clients;    /* borrowed, or NULL */
    char *profile, *region;
} tui_push_args;

tui_push_args *tui_push_args_new(byoc_aws_clients *clients, const char *profile, const char *region);
void tui_push_args_free(void *args);

typedef enum { TUI_PERMIT_VIEW, TUI_PERMIT_ALLOW, TUI_PERMIT_REVOKE, TUI_PERMIT_CHECK, TUI_PERMIT_GRANT } tui_permit_mode;

typedef struct tui_permit_args {
    byoc_aws_clients *clients;    /* borrowed, or NULL */
    char *profile, *region;
    char *repository;
    char *principals;             /* space-separated: role/user ARNs, account ids, or "*" */
    char *role;                   /* CHECK: the role ARN; GRANT: it, or NULL */
    tui_permit_mode mode;
    bool dry_run, force;
} tui_permit_args;

tui_permit_args *tui_permit_args_new(byoc_aws_clients *clients, const char *profile, const char *region,
                                     const char *repository);
void tui_permit_args_free(void *args);
int tui_permit_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

int tui_push_repos_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
