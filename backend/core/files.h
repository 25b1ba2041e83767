/* files: the file-system helpers the modules share: bounded reads,
 * binary detection, atomic writes with a mode, path joining. */
#ifndef BYOC_CORE_FILES_H
#define BYOC_CORE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/err.h"

/* Read at most `max` bytes of a file into a NUL-terminated malloc'd buffer.
 * *truncated (may be NULL) says whether the file was longer. On failure
 * (missing, unreadable, a directory) fills err (kind FAILED, what = path). */
int byoc_file_read(const char *path, size_t max, char **data, size_t *len, bool *truncated,
                   byoc_err *err);

/* True if the bytes do not look like text: a NUL byte, or many bytes that are
 * neither printable ASCII, common whitespace nor part of valid UTF-8. */
bool byoc_text_is_binary(const char *data, size_t len);

/* Write via a temporary file in the same directory, fsync, rename: readers see
 * the old or the new content, never a mix. The file gets `mode` (e.g. 0600). */
int byoc_file_write_atomic(const char *path, const void *data, size_t len, unsigned mode,
                           byoc_err *err);

/* Create or replace root/rel without following a symbolic link anywhere
 * below root: each directory of rel is opened with O_NOFOLLOW (made with
 * dir_mode when missing) and the file is written as byoc_file_write_atomic
 * does, beside its final name, so a link at the name itself is replaced, not
 * followed. A link or a file where rel needs a directory is refused, naming
 * it. rel is relative and has no ".." component. */
int byoc_file_write_below(const char *root, const char *rel, const void *data, size_t len, unsigned mode,
                          unsigned dir_mode, byoc_err *err);

/* 0 when every directory of rel below root is a directory or missing (not a
 * symbolic link, not a file); else -1 naming the first that is not. */
int byoc_path_check_below(const char *root, const char *rel, byoc_err *err);

/* Create the parent directories of `path` (mode dir_mode) as needed. */
int byoc_make_parents(const char *path, unsigned dir_mode, byoc_err *err);

/* "a" + "/" + "b" (b absolute -> b; a empty -> b). Caller frees. */
char *byoc_path_join(const char *a, const char *b);

bool byoc_path_exists(const char *path);   /* lstat succeeds */
bool byoc_path_is_dir(const char *path);   /* stat says directory */

/* The last path component (points into path). */
const char *byoc_path_base(const char *path);

#endif
