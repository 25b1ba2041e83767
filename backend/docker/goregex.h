/* goregex: match with a Go (RE2 syntax) regular expression through glibc's
 * POSIX regex engine.
 *
 * The docker CLI 20.10 turns each .dockerignore pattern into a Go regexp and
 * copies characters such as `+(){}|[]` through as regexp syntax, so exact
 * parity needs Go's regexp semantics. This module translates the subset of
 * RE2 that such regexps can contain (literals, escapes, classes incl. POSIX
 * and Perl classes, `.`, anchors, groups, alternation, repetition incl. `{n,m}`
 * and non-greedy forms) into a POSIX ERE with the same match set, and runs it
 * under a UTF-8 locale so that `[^/]` matches one code point as in Go.
 * It reports the errors Go's regexp.Compile would report for that subset
 * (unbalanced parentheses, nested or argument-less repetition, bad ranges,
 * invalid escapes). Not supported (reported as errors): `(?flags)`, named
 * groups, `\p{..}`, `\Q..\E`, `\b`, octal and hex escapes. */
#ifndef BYOC_DOCKER_GOREGEX_H
#define BYOC_DOCKER_GOREGEX_H

#include <stdbool.h>

typedef struct byoc_goregex byoc_goregex;

/* Compile a Go regexp. On failure returns NULL and writes a reason into
 * why (Go-like wording, e.g. "missing closing )"). */
byoc_goregex *byoc_goregex_compile(const char *go_re, char *why, unsigned long why_size);
/* Whole-string search semantics of Go's MatchString (the regexp carries its own anchors). */
bool byoc_goregex_match(const byoc_goregex *re, const char *s);
void byoc_goregex_free(byoc_goregex *re);

/* The ERE the Go regexp became (for tests and debugging). */
const char *byoc_goregex_ere(const byoc_goregex *re);

#endif
