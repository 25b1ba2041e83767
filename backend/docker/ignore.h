/* ignore: .dockerignore with exactly the docker CLI 20.10 semantics.
 *
 * Reading (buildkit's dockerignore.ReadAll): drop a UTF-8 BOM, skip lines
 * whose first byte is '#', trim, skip blanks, a leading '!' marks an
 * exception, clean the path (Go filepath.Clean) and drop one leading '/'.
 * Matching (docker/docker pkg/fileutils): each pattern becomes an anchored
 * Go regexp (`*` = `[^/]*`, `?` = `[^/]`, `**` = any depth); a pattern that
 * misses a path is retried on the path's leading directories cut to the
 * pattern's component count; all patterns run in order and the last match
 * wins (an exception re-includes). A directory that is excluded can only be
 * skipped whole when no exception's text starts with "<dir>/".
 * The Dockerfile and .dockerignore are always kept (the CLI appends
 * "!.dockerignore" and "!<Dockerfile>" when they match). */
#ifndef BYOC_DOCKER_IGNORE_H
#define BYOC_DOCKER_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"
#include "core/strv.h"

typedef struct byoc_ignore byoc_ignore;

/* Split .dockerignore text into its patterns (exceptions keep their '!'),
 * appended to *out (the caller clears it with byoc_strv_clear). Fails on an over-long line, and, as the docker CLI
 * does, on a pattern with bad syntax or a NUL byte (a NUL inside a [class] is refused
 * even where the CLI would build). */
int byoc_ignore_read(const char *text, size_t len, byoc_strv *out, byoc_err *err);

/* Build a matcher from patterns (as byoc_ignore_read returns them). Bad
 * patterns (a lone "!", a syntax error for Go's filepath.Match, a regexp
 * that does not compile) fail with BYOC_E_USAGE naming the pattern. */
byoc_ignore *byoc_ignore_new(const char *const *patterns, size_t n, byoc_err *err);

/* Read <context_dir>/.dockerignore (absent = no patterns) and keep the
 * Dockerfile (context-relative, '/'-separated) and .dockerignore as the CLI does. */
byoc_ignore *byoc_ignore_load(const char *context_dir, const char *rel_dockerfile, byoc_err *err);

void byoc_ignore_free(byoc_ignore *m);

/* Is this context-relative, '/'-separated, clean path excluded? "." never is. */
bool byoc_ignore_excluded(const byoc_ignore *m, const char *relpath);

/* For an excluded directory: may an exception re-include something inside it
 * (then its children must be visited, though the directory itself is not sent)? */
bool byoc_ignore_dir_may_reinclude(const byoc_ignore *m, const char *reldir);

size_t byoc_ignore_count(const byoc_ignore *m);

/* Go's path.Clean on a '/'-separated path; caller frees. */
char *byoc_path_clean(const char *path);

#endif
