/* shlex: split a command line into words the way Python's shlex.split (POSIX
 * mode, no comments) does, which is how the AWS CLI splits
 * `credential_process` and `[profile "a b"]` section names. No shell is
 * involved: quotes group, backslash escapes (inside double quotes only '"' and
 * '\\'), single quotes are literal, and nothing is expanded. */
#ifndef BYOC_AWS_SHLEX_H
#define BYOC_AWS_SHLEX_H

#include "core/err.h"
#include "core/strv.h"

/* Fills *argv with the words (the caller clears it with byoc_strv_clear; empty on failure).
 * Errors (BYOC_E_USAGE): "No closing quotation", "No escaped character". */
int byoc_shlex_split(const char *s, byoc_strv *argv, byoc_err *err);

#endif
