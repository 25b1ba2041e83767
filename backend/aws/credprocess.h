/* credprocess: credentials from an external command (`credential_process`).
 *
 * The command line is split like the AWS CLI splits it (aws/shlex.h) and run
 * with fork/execvp: no shell. stdout must be JSON
 *   {"Version": 1, "AccessKeyId": "...", "SecretAccessKey": "...",
 *    "SessionToken": "..."?, "Expiration": "ISO 8601"?}
 * stderr is captured for the error message. A non-zero exit, bad JSON, a
 * Version other than 1 or a missing key is an error (BYOC_E_ENV) that names
 * the profile and the program (never its arguments or output secrets).
 * Nothing times the process out (the AWS CLI does not either: a helper may be
 * waiting for a login); cancelling the task instead stops the wait and kills
 * the process (BYOC_E_CANCELLED). */
#ifndef BYOC_AWS_CREDPROCESS_H
#define BYOC_AWS_CREDPROCESS_H

#include "aws/request.h"
#include "core/err.h"
#include "core/task.h"

/* task may be NULL: then only the process's end ends the wait. */
int byoc_aws_credential_process(const char *profile, const char *command_line, byoc_task *task,
                                byoc_aws_creds *out, byoc_err *err);

/* Parse the JSON a credential process printed (exposed for tests). */
int byoc_aws_credential_process_parse(const char *profile, const char *json, byoc_aws_creds *out,
                                      byoc_err *err);

#endif
