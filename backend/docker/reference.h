/* reference: image references with the docker reference grammar
 * (distribution/reference, as the 20.10 CLI and daemon apply it).
 *
 *   reference := name [":" tag] ["@" digest]
 *   name      := [domain "/"] component ("/" component)*, at most 255 chars
 *   domain    := label ("." label)* [":" port]     (the first part is a domain
 *                only if it has "." or ":", is "localhost", or has upper case)
 *   component := [a-z0-9]+ (([_.]|__|-*) [a-z0-9]+)*
 *   tag       := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
 *   digest    := algorithm ":" hex{32,}
 * A name without a domain is on docker.io, one without a "/" there is in
 * "library/". A 64-hex string alone is an image id, not a name. */
#ifndef BYOC_DOCKER_REFERENCE_H
#define BYOC_DOCKER_REFERENCE_H

#include <stdbool.h>

#include "core/err.h"

typedef struct byoc_imageref {
    char *repository;   /* as written, without tag or digest ("myapp", "localhost:5000/x/y") */
    char *domain;       /* normalized: "docker.io" when none was written */
    char *path;         /* normalized: "library/busybox" */
    char *tag;          /* or NULL */
    char *digest;       /* or NULL */
} byoc_imageref;

/* Parse and validate; errors are BYOC_E_USAGE with what = `what` and the
 * CLI's wording ("invalid reference format", "... must be lowercase"). */
int byoc_imageref_parse(const char *s, const char *what, byoc_imageref *out, byoc_err *err);
void byoc_imageref_clear(byoc_imageref *r);

/* A reference usable as a build tag (`-t`): name[:tag], no digest. */
int byoc_imageref_check_tag(const char *s, const char *what, byoc_err *err);

/* Does s match the tag grammar alone? */
bool byoc_imageref_valid_tag(const char *tag);

#endif
