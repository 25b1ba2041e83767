/* sts: AWS Security Token Service (query protocol, version 2011-06-15).
 *
 * GetCallerIdentity answers who the credentials belong to (no permission
 * needed). AssumeRole / AssumeRoleWithWebIdentity return temporary
 * credentials; their secrets are registered with the redactor on receipt.
 * These take an explicit context: the credential chain uses them before any
 * client exists. The same calls on a client are sts_client.h's. */
#ifndef BYOC_AWS_STS_H
#define BYOC_AWS_STS_H

#include "aws/request.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_sts_identity {
    char account[16];
    char arn[512];
    char user_id[256];
} byoc_sts_identity;

typedef struct byoc_sts_assume_role_params {
    const char *role_arn;          /* required */
    const char *session_name;      /* NULL: "byoc-session-<epoch seconds>" */
    const char *external_id;       /* may be NULL */
    int duration_seconds;          /* 0: the service default (3600) */
    const char *web_identity_token;/* AssumeRoleWithWebIdentity only */
} byoc_sts_assume_role_params;

int byoc_sts_get_caller_identity_ctx(const byoc_aws_ctx *ctx, byoc_sts_identity *out, byoc_err *err);

/* assumed_arn (may be NULL, 512 bytes) gets the assumed-role ARN. */
int byoc_sts_assume_role_ctx(const byoc_aws_ctx *ctx, const byoc_sts_assume_role_params *p, byoc_aws_creds *out,
                             char *assumed_arn, byoc_err *err);
/* Unsigned: ctx->creds should be NULL. */
int byoc_sts_assume_role_with_web_identity_ctx(const byoc_aws_ctx *ctx, const byoc_sts_assume_role_params *p,
                                               byoc_aws_creds *out, char *assumed_arn, byoc_err *err);

#endif
