/* sts_client: sts.h's GetCallerIdentity on a client (aws/client.h), with a
 * session of its own: who the credentials belong to. */
#ifndef BYOC_AWS_STS_CLIENT_H
#define BYOC_AWS_STS_CLIENT_H

#include "aws/client.h"
#include "aws/sts.h"

int byoc_sts_get_caller_identity(byoc_aws_client *c, byoc_task *t, byoc_sts_identity *out, byoc_err *err);

#endif
