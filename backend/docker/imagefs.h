/* imagefs: look at an image's files without running anything in it.
 *
 * A container is created from the image and never started (its command is a
 * path that need not exist); files are then stat'ed with
 * HEAD /containers/{id}/archive (the X-Docker-Container-Path-Stat header) and
 * read with GET /containers/{id}/archive. An image without a shell (FROM
 * scratch, one static binary) is read like any other.
 *
 *   byoc_imagefs *fs; byoc_imagefs_open(e, t, "img:tag", &fs, err);
 *   char *train = NULL; byoc_imagefs_which(fs, path_var, "train", &train, err);
 *   byoc_imagefs_close(fs);     (removes the container)
 *
 * Every call returns -1 with err when it could not look (engine error,
 * cancellation): "could not look" is never "absent". */
#ifndef BYOC_DOCKER_IMAGEFS_H
#define BYOC_DOCKER_IMAGEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

typedef struct byoc_imagefs byoc_imagefs;

typedef struct byoc_imagefs_info {
    bool exists;
    bool is_dir, is_link, is_regular;
    unsigned perm;            /* the low 12 bits of the mode */
    int64_t size;
    char link_target[1024];   /* for a link: the path it resolves to in the image (the engine follows the chain) */
} byoc_imagefs_info;

int byoc_imagefs_open(byoc_engine *e, byoc_task *t, const char *image, byoc_imagefs **out, byoc_err *err);
void byoc_imagefs_close(byoc_imagefs *fs);

/* stat: links followed; *real (may be NULL) gets the final path (malloc'd) when it exists. */
int byoc_imagefs_stat(byoc_imagefs *fs, const char *path, byoc_imagefs_info *st, char **real, byoc_err *err);
/* Up to max bytes of a regular file: 1 with *content (malloc'd, NUL-terminated, *len bytes),
 * 0 when there is no such file. */
int byoc_imagefs_read(byoc_imagefs *fs, const char *path, size_t max, char **content, size_t *len, byoc_err *err);
/* The first executable regular file `name` in the ':'-separated dirs of path_var, as the
 * shell's PATH search finds it: 1 with *found (malloc'd, the PATH entry, not its link
 * target), 0 when none. A name with '/' is looked up as it is. */
int byoc_imagefs_which(byoc_imagefs *fs, const char *path_var, const char *name, char **found, byoc_err *err);

/* The PATH docker gives a container whose image sets none. */
#define BYOC_IMAGEFS_DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

#endif
