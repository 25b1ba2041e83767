/* shlex: split a command line into words the way Python's shlex.split (POSIX
 * mode, no comments) does, which is how the AWS CLI splits
 * `credential_process` and `[profile "a b"]` section names. No shell is
 * involved: quotes group, backslash escapes (inside double quotes only '"' and
 * '\\'), single quotes are literal, and nothing is expanded. */
#ifndef BYOC_AWS_SHLEX_H
#define BYOC_AWS_SHLEX_H

#include <stddef.h>

#include "core/err.h"

/* Fills *argv (NULL-terminated, malloc'd) and *argc. Errors (BYOC_E_USAGE):
 * "No closing quotation", "No escaped character". */
int byoc_shlex_split(const char *s, char ***argv, size_t *argc, byoc_err *err);
void byoc_shlex_free(char **argv);

#endif
