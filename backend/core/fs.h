/* fs: file-system helpers shared by the modules that unpack or stage trees. */
#ifndef BYOC_CORE_FS_H
#define BYOC_CORE_FS_H

#include <stdint.h>

#include "core/buf.h"

/* Remove path and, if it is a directory, everything below it. Never follows
 * symlinks, and works on trees deeper than PATH_MAX (it walks with directory
 * descriptors and keeps only one open at a time). Returns 0, or -1 if
 * something could not be removed (errno of the first failure). */
int byoc_remove_tree(const char *path);

/* What byoc lets itself write on the file system that holds path: 95% of the
 * space free there (the rest stays for everything else on it); UINT64_MAX
 * when it cannot tell (the caller's other limits still hold). */
uint64_t byoc_fs_space_cap(const char *path);

/* A file's identity, what tells one version of it from the next without
 * reading it: "<dev> <inode> <size> <mtime s>.<ns>", or "-" when it cannot be
 * stat'ed (absent, unreadable, NULL), appended to b. Holders of something made
 * from files (aws/clients.h, docker/engines.h) keep it to know when to remake. */
void byoc_fs_identity(byoc_buf *b, const char *path);

#endif
