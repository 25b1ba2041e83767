/* credentials: the AWS credential chain, resolved as the AWS CLI resolves it.
 *
 * Order (first that applies wins):
 *   1. env                      AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY
 *                               (+ AWS_SESSION_TOKEN); skipped when --profile was given
 *   2. assume-role              profile role_arn + source_profile (chains, cycles
 *                               detected) or credential_source = Environment;
 *                               STS AssumeRole (role_session_name, external_id,
 *                               duration_seconds honoured)
 *   3. web-identity             profile role_arn + web_identity_token_file, or
 *                               AWS_WEB_IDENTITY_TOKEN_FILE + AWS_ROLE_ARN
 *                               (+ AWS_ROLE_SESSION_NAME); STS AssumeRoleWithWebIdentity
 *   4. shared-credentials-file  aws_access_key_id/aws_secret_access_key in [NAME]
 *   5. credential-process       credential_process, run without a shell
 *                               (aws/credprocess.h)
 *   6. config-file              static keys in the config file's profile
 * Not supported, each with an error naming it when a profile or the
 * environment asks for it: SSO (sso_session / sso_start_url: use
 * `credential_process = aws configure export-credentials --profile P --format
 * process`), mfa_serial (needs an interactive code), credential_source
 * Ec2InstanceMetadata / EcsContainer, container credentials
 * (AWS_CONTAINER_CREDENTIALS_*), EC2 instance metadata (IMDS).
 *
 * Every secret read or received is registered with byoc_secret_register. */
#ifndef BYOC_AWS_CREDENTIALS_H
#define BYOC_AWS_CREDENTIALS_H

#include <time.h>

#include "aws/config.h"
#include "aws/request.h"
#include "core/err.h"
#include "core/task.h"

/* Where credentials came from, for `doctor` and messages. No secrets. */
typedef struct byoc_aws_creds_info {
    char source[32];       /* "env", "assume-role", "web-identity", "shared-credentials-file",
                              "credential-process", "config-file" */
    char profile[128];     /* the profile that supplied them ("" for env) */
    char detail[320];      /* assume-role/web-identity: the role ARN; else "" */
    time_t expiration;     /* 0: none */
} byoc_aws_creds_info;

/* "env" or "profile dev (assume-role)": for messages. */
void byoc_aws_creds_info_origin(const byoc_aws_creds_info *info, char *buf, size_t n);

/* What the chain's own STS calls need besides the config. */
typedef struct byoc_aws_chain_opts {
    const char *region;    /* STS region; NULL: the global endpoint */
    const char *ca_bundle;
    byoc_retry_mode retry_mode;
    int max_attempts;
    byoc_task *task;
} byoc_aws_chain_opts;

/* Resolve once. Errors: nothing found, an unusable profile or a failing
 * credential process (BYOC_E_ENV); STS failures keep request.h's kinds.
 * info may be NULL. */
int byoc_aws_credentials_resolve(const byoc_aws_config *cfg, const byoc_aws_chain_opts *opts,
                                 byoc_aws_creds *out, byoc_aws_creds_info *info, byoc_err *err);

/* A thread-safe cache around the chain: resolves on first use and again when
 * temporary credentials are within 15 minutes of expiring (keeping the old
 * ones if a refresh fails while they are still valid for over a minute). */
typedef struct byoc_aws_creds_provider byoc_aws_creds_provider;

/* cfg must outlive the provider; opts is copied (its task is ignored). */
byoc_aws_creds_provider *byoc_aws_creds_provider_new(const byoc_aws_config *cfg, const byoc_aws_chain_opts *opts);
void byoc_aws_creds_provider_free(byoc_aws_creds_provider *p);
/* A copy of the current credentials (free with byoc_aws_creds_clear); info may be NULL. */
int byoc_aws_creds_provider_get(byoc_aws_creds_provider *p, byoc_task *task, byoc_aws_creds *out,
                                byoc_aws_creds_info *info, byoc_err *err);

#endif
