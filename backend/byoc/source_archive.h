/* source_archive: the job's source.tar.gz, as the Braket SDK makes it.
 *
 * A gzip-compressed tar holding the source module at the archive root under
 * its own name: a file "algo.py" becomes the entry "algo.py"; a directory
 * "pkg" becomes "pkg/" and everything below it, in sorted order. The module
 * path is resolved first (a symlinked module is stored under its target's
 * name), and every symlink inside is followed (tarfile dereference=True):
 * the archive holds no symlinks or hard links. A symlink loop, a broken
 * symlink or an unreadable file is an error naming the path (BYOC_E_USAGE:
 * nothing has been sent yet). Sockets are skipped, as tarfile does.
 * Unlike the SDK, version control's directories (.git, .hg, .svn, .bzr) below the
 * module are left out: a source module of "." would otherwise upload the repository's
 * whole history with every job. */
#ifndef BYOC_BYOC_SOURCE_ARCHIVE_H
#define BYOC_BYOC_SOURCE_ARCHIVE_H

#include <stdint.h>

#include "core/err.h"
#include "core/task.h"

typedef struct byoc_archive_stats {
    uint64_t files;      /* regular files stored */
    uint64_t dirs;       /* directories stored */
    uint64_t bytes_in;   /* file content bytes stored */
    uint64_t bytes_out;  /* size of the .tar.gz */
    uint64_t skipped;    /* version control entries left out */
} byoc_archive_stats;

/* Write the archive of source_module to out_path (created 0600, replaced if
 * present). t (may be NULL) gets progress (key "source.tar.gz") and is
 * checked for cancellation. stats may be NULL. */
int byoc_source_archive_write(const char *source_module, const char *out_path, byoc_task *t,
                              byoc_archive_stats *stats, byoc_err *err);

/* Write it into a fresh private temporary directory (0700 under $TMPDIR or
 * /tmp); *path gets ".../source.tar.gz" (malloc'd). Remove it with
 * byoc_source_archive_remove. */
int byoc_source_archive_build(const char *source_module, byoc_task *t, char **path, byoc_archive_stats *stats,
                              byoc_err *err);
/* Delete the file and its temporary directory; frees path. NULL is fine. */
void byoc_source_archive_remove(char *path);

#endif
