/* iam: the AWS Identity and Access Management calls byoc needs (query
 * protocol, version 2010-05-08, global endpoint signed for us-east-1),
 * through an aws/client.h client. ListRoles finds the Braket jobs execution
 * role the way the SDK's get_default_jobs_role() does. */
#ifndef BYOC_AWS_IAM_H
#define BYOC_AWS_IAM_H

#include <stddef.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_iam_role {
    char *name;
    char *arn;
    char *path;
} byoc_iam_role;

/* ListRoles, every page, in the service's order. path_prefix may be NULL. */
int byoc_iam_list_roles(byoc_aws_client *c, byoc_task *t, const char *path_prefix, byoc_iam_role **out, size_t *n,
                        byoc_err *err);
void byoc_iam_roles_free(byoc_iam_role *roles, size_t n);

/* The first role under path_prefix whose name starts with name_prefix,
 * reading page by page and stopping at the first match (the SDK's
 * get_default_jobs_role() with "/service-role/" and
 * "AmazonBraketJobsExecutionRole"). *arn is malloc'd, or NULL when no role
 * matches (then 0 is returned: not finding one is the caller's to judge). */
int byoc_iam_find_role(byoc_aws_client *c, byoc_task *t, const char *path_prefix, const char *name_prefix,
                       char **arn, byoc_err *err);

#endif
