/* iam_simulate: asking IAM what a principal may do (query protocol,
 * 2010-05-08): SimulatePrincipalPolicy, and ListAttachedRolePolicies for the
 * managed policies of a role. Both need IAM read permissions the caller may
 * lack; callers treat a failure as "IAM cannot tell" and say so. The
 * simulation is tried once (no retries): a refusal or an unsupported
 * endpoint should not cost the user several backoffs. */
#ifndef BYOC_AWS_IAM_SIMULATE_H
#define BYOC_AWS_IAM_SIMULATE_H

#include <stddef.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"

typedef struct byoc_iam_eval {
    char *action;     /* EvalActionName */
    char *resource;   /* EvalResourceName */
    char *decision;   /* "allowed", "explicitDeny", "implicitDeny" */
} byoc_iam_eval;

void byoc_iam_evals_free(byoc_iam_eval *v, size_t n);

/* SimulatePrincipalPolicy for source_arn (a role or user ARN) over actions x
 * resources, every page. resource_policy (may be NULL): a resource-based
 * policy to include in the evaluation. */
int byoc_iam_simulate_principal_policy(byoc_aws_client *c, byoc_task *t, const char *source_arn,
                                       const char *const *actions, size_t n_actions, const char *const *resources,
                                       size_t n_resources, const char *resource_policy, byoc_iam_eval **out,
                                       size_t *n, byoc_err *err);

/* The ARNs of the managed policies attached to a role (every page) into *arns, empty on entry (cleared by the
 * caller with byoc_strv_clear; left empty on failure). */
int byoc_iam_list_attached_role_policies(byoc_aws_client *c, byoc_task *t, const char *role_name, byoc_strv *arns,
                                         byoc_err *err);

#endif
