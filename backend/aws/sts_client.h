/* sts_client: the STS calls of sts.h on a client (aws/client.h), each with a
 * session of its own: who the credentials belong to, and AssumeRole. */
#ifndef BYOC_AWS_STS_CLIENT_H
#define BYOC_AWS_STS_CLIENT_H

#include "aws/client.h"
#include "aws/sts.h"

int byoc_sts_get_caller_identity(byoc_aws_client *c, byoc_task *t, byoc_sts_identity *out, byoc_err *err);
/* assumed_arn (may be NULL, 512 bytes) gets the assumed-role ARN. */
int byoc_sts_assume_role(byoc_aws_client *c, byoc_task *t, const byoc_sts_assume_role_params *p,
                         byoc_aws_creds *out, char *assumed_arn, byoc_err *err);

#endif
