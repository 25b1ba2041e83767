/* context: a local build context, walked and streamed as a tar the way the
 * docker CLI 20.10 sends it.
 *
 * byoc_context_open resolves the directory and the Dockerfile as
 * `docker build DIR -f FILE` does (symlinks resolved; a relative FILE is
 * relative to the current directory; default DIR/Dockerfile, else
 * DIR/dockerfile) and loads .dockerignore. The Dockerfile must lie inside the
 * context. The walk is lexical (byte order), depth first, directory before
 * its children, with .dockerignore applied (ignore.h); sockets are skipped.
 *
 * The tar is produced on demand by a pull function with the signature of
 * net/http's byoc_body_reader, so it streams into a chunked request body
 * with bounded memory (one directory listing per level of depth plus a
 * ~100 KiB of buffers), never holding the context. Entries: USTAR with PAX
 * extensions where needed (long or non-ASCII names, long link targets,
 * security.capability), uid/gid 0, mtime in whole seconds, symlinks stored
 * not followed, later links of a hard-linked inode as hard links. */
#ifndef BYOC_DOCKER_CONTEXT_H
#define BYOC_DOCKER_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "core/err.h"
#include "docker/ignore.h"

typedef struct byoc_context byoc_context;

typedef struct byoc_context_stats {
    uint64_t entries;  /* everything that goes into the tar */
    uint64_t files;    /* regular files among them */
    uint64_t bytes;    /* their content bytes */
} byoc_context_stats;

/* dir: the context directory; dockerfile: NULL for the default, else a path
 * (relative to the current directory, like `docker build -f`). Errors are
 * BYOC_E_USAGE with what "context", "--file" or ".dockerignore". */
int byoc_context_open(const char *dir, const char *dockerfile, byoc_context **out, byoc_err *err);
void byoc_context_free(byoc_context *c);

const char *byoc_context_root(const byoc_context *c);        /* absolute, symlinks resolved */
const char *byoc_context_dockerfile(const byoc_context *c);  /* context-relative, '/'-separated */
const byoc_ignore *byoc_context_ignore(const byoc_context *c);

/* Visit what the tar will hold, in tar order. Return non-zero from fn to stop
 * (that value is returned). */
typedef int (*byoc_context_visit_fn)(const char *relpath, const struct stat *st, void *ud);
int byoc_context_walk(const byoc_context *c, byoc_context_visit_fn fn, void *ud, byoc_err *err);

/* The CLI's pre-flight: every entry that will be sent can be read (an
 * unreadable file or directory is BYOC_E_USAGE naming it); fills stats. */
int byoc_context_scan(const byoc_context *c, byoc_context_stats *st, byoc_err *err);

/* ---- the tar stream ---- */
typedef struct byoc_context_tar byoc_context_tar;

byoc_context_tar *byoc_context_tar_new(const byoc_context *c);
/* A byoc_body_reader: fills up to n bytes; 0 at the end; (size_t)-1 on error
 * (then byoc_context_tar_error tells why). ud is the byoc_context_tar. */
size_t byoc_context_tar_read(char *dst, size_t n, void *ud);
int byoc_context_tar_error(const byoc_context_tar *t, byoc_err *err);
uint64_t byoc_context_tar_bytes(const byoc_context_tar *t);         /* tar bytes handed out */
uint64_t byoc_context_tar_content_bytes(const byoc_context_tar *t); /* file bytes read so far */
void byoc_context_tar_free(byoc_context_tar *t);

#endif
