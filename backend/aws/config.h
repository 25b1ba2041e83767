/* config: the AWS config and credentials files and the settings resolved
 * from them and the environment, as the AWS CLI does it.
 *
 * Files: AWS_CONFIG_FILE (~/.aws/config) and AWS_SHARED_CREDENTIALS_FILE
 * (~/.aws/credentials), or paths given in the options. In the config file a
 * profile is `[default]` or `[profile NAME]` (a plain `[NAME]` is not a
 * profile); `[services NAME]` and `[sso-session NAME]` are their own
 * sections. In the credentials file every `[NAME]` is a profile, and its keys
 * win over the config file's for the same profile.
 *
 * Profile: --profile > AWS_DEFAULT_PROFILE > AWS_PROFILE > "default" (botocore
 * reads AWS_DEFAULT_PROFILE first). A named profile that exists in neither
 * file is an error, as in the CLI.
 * Region: --region > AWS_REGION > AWS_DEFAULT_REGION > profile `region`.
 * ca_bundle: AWS_CA_BUNDLE > profile. max_attempts / retry_mode:
 * AWS_MAX_ATTEMPTS / AWS_RETRY_MODE > profile > net/retry.h defaults.
 * Empty variables count as unset.
 *
 * A loaded config is immutable and safe to read from several threads. Secret
 * values found in the files are registered with the redactor when loaded. */
#ifndef BYOC_AWS_CONFIG_H
#define BYOC_AWS_CONFIG_H

#include <stdbool.h>

#include "aws/ini.h"
#include "core/err.h"
#include "net/retry.h"

typedef struct byoc_aws_config_opts {
    const char *profile;          /* --profile, or NULL */
    const char *region;           /* --region, or NULL */
    const char *config_file;      /* NULL: AWS_CONFIG_FILE or ~/.aws/config */
    const char *credentials_file; /* NULL: AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials */
} byoc_aws_config_opts;

typedef struct byoc_aws_config byoc_aws_config;

/* opts may be NULL. Errors: unreadable or unparsable file (BYOC_E_ENV), a named
 * profile that does not exist (BYOC_E_USAGE for --profile, else BYOC_E_ENV). */
int byoc_aws_config_load(const byoc_aws_config_opts *opts, byoc_aws_config **out, byoc_err *err);
void byoc_aws_config_free(byoc_aws_config *c);
/* The two files load() reads for opts (may be NULL), "~" expanded; malloc'd. For
 * messages about a config that did not load (a profile in neither file). */
void byoc_aws_config_files(const byoc_aws_config_opts *opts, char **config, char **credentials);

const char *byoc_aws_config_config_path(const byoc_aws_config *c);
const char *byoc_aws_config_credentials_path(const byoc_aws_config *c);

/* The profile in use and where the choice came from:
 * "--profile", "AWS_DEFAULT_PROFILE", "AWS_PROFILE" or "default". */
const char *byoc_aws_config_profile(const byoc_aws_config *c);
const char *byoc_aws_config_profile_origin(const byoc_aws_config *c);
/* true when --profile was given (the env credentials are then skipped). */
bool byoc_aws_config_profile_explicit(const byoc_aws_config *c);
bool byoc_aws_config_has_profile(const byoc_aws_config *c, const char *profile);

typedef enum {
    BYOC_AWS_FILE_ANY,         /* credentials file first, then config file */
    BYOC_AWS_FILE_CONFIG,
    BYOC_AWS_FILE_CREDENTIALS,
} byoc_aws_file;

/* A profile's key (NULL profile = the profile in use), or NULL. */
const char *byoc_aws_config_get(const byoc_aws_config *c, const char *profile, const char *key);
const char *byoc_aws_config_get_in(const byoc_aws_config *c, byoc_aws_file file, const char *profile,
                                   const char *key);
/* A sub-key of a nested profile value ("s3", "max_attempts"); malloc'd or NULL. */
char *byoc_aws_config_get_sub(const byoc_aws_config *c, const char *profile, const char *key,
                              const char *sub);
/* A key of a service in the profile's `services` section (`[services X]`,
 * `ecr =\n  endpoint_url = ...`); malloc'd or NULL. */
char *byoc_aws_config_service_get(const byoc_aws_config *c, const char *profile, const char *service_key,
                                  const char *key);
/* A key of `[sso-session NAME]`, or NULL. */
const char *byoc_aws_config_sso_session_get(const byoc_aws_config *c, const char *name, const char *key);

/* Region and its origin ("--region", "AWS_REGION", "AWS_DEFAULT_REGION",
 * "profile <name>"); NULL (origin "") when none is set. */
const char *byoc_aws_config_region(const byoc_aws_config *c, const char **origin);
/* AWS_CA_BUNDLE or profile ca_bundle, "~" expanded; NULL when unset. */
const char *byoc_aws_config_ca_bundle(const byoc_aws_config *c);
/* Retry mode and max attempts: AWS_RETRY_MODE / AWS_MAX_ATTEMPTS > the
 * profile's retry_mode / max_attempts > defaults (net/retry.h). A bad value is
 * BYOC_E_USAGE naming the variable or key. */
int byoc_aws_config_retry(const byoc_aws_config *c, byoc_retry_mode *mode, int *max_attempts, byoc_err *err);

/* Non-empty environment variable or NULL. */
const char *byoc_aws_getenv(const char *name);
/* "~/x" -> "$HOME/x"; malloc'd. */
char *byoc_aws_expand_home(const char *path);

#endif
