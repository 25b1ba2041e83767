/* tokens: recognises text that looks like a credential (AWS access key ids,
 * GitHub/GitLab/Slack tokens, PEM private keys) and file names that usually
 * hold one (id_rsa, .env, .netrc, .aws/credentials, ...). Used by the lint to
 * keep secrets out of images; it reports what and where, never the value. */
#ifndef BYOC_BYOC_TOKENS_H
#define BYOC_BYOC_TOKENS_H

#include <stdbool.h>
#include <stddef.h>

/* The first credential-looking token in s[0..len): returns a static
 * description ("an AWS access key id") and sets *offset, or NULL. */
const char *byoc_token_find(const char *s, size_t len, size_t *offset);

/* Does a path (relative, '/'-separated) name a file or directory that holds
 * keys or credentials? Returns a static description or NULL. */
const char *byoc_secret_path(const char *relpath);

/* Does a variable name suggest a secret value (PASSWORD, TOKEN, SECRET, ...)? */
bool byoc_secret_var_name(const char *name);

#endif
