/* permit: the Permit step — who may pull the image.
 *
 * Edit: read the repository policy, grant or revoke pull for named
 * principals through the policy model (policy.h), lint the result, show the
 * change as a unified diff of the pretty-printed policy, and send it
 * (SetRepositoryPolicy, or DeleteRepositoryPolicy when no statement is left).
 * Nothing is sent when: a principal is malformed, "*" is asked for without
 * force, the existing policy is not valid JSON, the result has blocking lint
 * findings without force, the policy does not change, or on a dry run. A
 * principal IAM does not know yet (a role created seconds ago) is retried a
 * few times while IAM propagates it.
 *
 * Check: can a job's execution role pull from the repository? Answered, in
 * order of authority, by IAM SimulatePrincipalPolicy (identity policies plus
 * the repository policy; needs iam:SimulatePrincipalPolicy, which the caller
 * may lack), else by the repository policy (a grant naming the role or its
 * account), else by the name rule of the managed AmazonBraketJobsExecutionPolicy
 * (pull only from repository/amazon-braket*; ListAttachedRolePolicies says
 * whether the role has it, when the caller may ask). Every method tried is
 * reported with what it said. */
#ifndef BYOC_BYOC_PERMIT_H
#define BYOC_BYOC_PERMIT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_permit_opts {
    const char *repository;
    const char *const *allow;      /* principals to grant pull to */
    size_t n_allow;
    const char *const *revoke;     /* principals to revoke */
    size_t n_revoke;
    bool dry_run;                  /* compute and diff, send nothing */
    bool force;                    /* allow "*" and blocking lint findings */
} byoc_permit_opts;

typedef struct byoc_permit_result {
    char *repository;
    bool had_policy;
    json_t *old_policy;            /* the policy before, or NULL */
    json_t *policy;                /* the policy after (= before when unchanged), or NULL for none */
    char *diff;                    /* unified diff of the pretty-printed policies, "" when unchanged */
    char **warnings;
    size_t n_warnings;
    char **added;                  /* principals granted by this run (normalised) */
    size_t n_added;
    char **revoked;
    size_t n_revoked;
    bool changed;
    bool sent;                     /* SetRepositoryPolicy or DeleteRepositoryPolicy was called */
    bool deleted;                  /* the policy was deleted (no statement left) */
} byoc_permit_result;

int byoc_permit_run(byoc_aws_client *c, byoc_task *t, const byoc_permit_opts *o, byoc_permit_result *out,
                    byoc_err *err);

/* {"repository", "policy", "warnings", "changed", "sent", "added", "revoked", "diff"?}. */
json_t *byoc_permit_result_json(const byoc_permit_result *r, bool with_diff);

typedef struct byoc_pull_check {
    char *role_arn;
    char *repository;
    char *repository_arn;
    bool can_pull;
    char *method;                  /* which method answered: "iam-simulation", "repository-policy", "name-rule" */
    char *reason;                  /* one line for people */
    json_t *checks;                /* [{"method", "result", "detail"}] for every method tried */
} byoc_pull_check;

void byoc_pull_check_clear(byoc_pull_check *c);

/* role_arn must be an IAM role ARN (BYOC_E_USAGE otherwise, nothing sent). */
int byoc_permit_check_pull(byoc_aws_client *c, byoc_task *t, const char *repository, const char *role_arn,
                           byoc_pull_check *out, byoc_err *err);

/* {"role_arn", "repository", "can_pull", "method", "reason", "checks"}. */
json_t *byoc_pull_check_json(const byoc_pull_check *c);

/* What the repository policy alone says about pulling (no IAM, no name rule), as the Push step
 * shows it next to its amazon-braket* warning once Permit may have granted the pull:
 * granted 1 when an unconditional Allow statement grants every pull action to the role (itself
 * or its account; role NULL or not a role ARN: to anyone, and principals lists whom), 0 when
 * none does (no policy, or no repository yet: the push creates it without one), -1 when the
 * policy could not be read or is not valid (why says so). Never fails. */
typedef struct byoc_repo_pull {
    int granted;
    char *principals;              /* ", "-joined, when granted */
    char *why;                     /* when not granted or unknown */
} byoc_repo_pull;

void byoc_permit_repository_pull(byoc_aws_client *c, byoc_task *t, const char *repository, const char *role,
                                 byoc_repo_pull *out);
void byoc_repo_pull_clear(byoc_repo_pull *p);

/* As tasks: a deep copy of the options (and the role to check) bound to a borrowed client.
 * byoc_permit_edit_task's result is a byoc_permit_result*, byoc_permit_check_task's a
 * byoc_pull_check*; each is set on failure too (with what was learnt) and freed by its result_free. */
typedef struct byoc_permit_job byoc_permit_job;
byoc_permit_job *byoc_permit_job_new(byoc_aws_client *c, const byoc_permit_opts *o, const char *check_role);
void byoc_permit_job_free(void *job);
int byoc_permit_edit_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
int byoc_permit_check_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);

#endif
