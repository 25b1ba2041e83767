/* lint_context: the build-context rules of the lint (context-secret,
 * context-size, no-dockerignore). The walk is the build's own
 * (docker/context.h): what .dockerignore excludes is not looked at, because
 * it is not sent. */
#ifndef BYOC_BYOC_LINT_CONTEXT_H
#define BYOC_BYOC_LINT_CONTEXT_H

#include "byoc/lint.h"

/* context_dir: the context directory; dockerfile: its path (NULL: the default);
 * prefix: prepended to context-relative paths in findings ("" or "sub/"). */
void byoc_lint_context(const char *context_dir, const char *dockerfile, const char *prefix, byoc_lint_result *out);

#endif
