#include "core/fs.h"
#include "core/buf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first entry of the directory open at fd other than . and .., malloc'd; NULL if empty. */
static char *first_entry(int fd)
{
    int dup_fd = dup(fd);
    if (dup_fd < 0)
        return NULL;
    DIR *d = fdopendir(dup_fd);
    if (!d) {
        close(dup_fd);
        return NULL;
    }
    rewinddir(d);
    char *name = NULL;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            name = byoc_xstrdup(de->d_name);
            break;
        }
    closedir(d);
    return name;
}

int byoc_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    /* Depth-first with one descriptor: go down into the first subdirectory,
     * unlink files, and when a directory is empty go up through ".." and remove it. */
    size_t depth = 0;
    int rc = 0, first_errno = 0;
    for (;;) {
        char *name = first_entry(fd);
        if (name) {
            if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
                int child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child >= 0) {
                    close(fd);
                    fd = child;
                    depth++;
                    free(name);
                    continue;
                }
            }
            if (unlinkat(fd, name, 0) != 0 && unlinkat(fd, name, AT_REMOVEDIR) != 0) {
                /* Cannot make progress here: stop rather than loop. */
                first_errno = errno;
                free(name);
                rc = -1;
                break;
            }
            free(name);
            continue;
        }
        if (depth == 0)
            break;
        /* This directory is empty: find its name from the parent, then remove it. */
        struct stat self;
        fstat(fd, &self);
        int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        if (parent < 0)
            return -1;
        fd = parent;
        depth--;
        int pd = dup(fd);
        DIR *d = pd >= 0 ? fdopendir(pd) : NULL;
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (de->d_ino == self.st_ino && strcmp(de->d_name, "..") != 0 && strcmp(de->d_name, ".") != 0) {
                unlinkat(fd, de->d_name, AT_REMOVEDIR);
                break;
            }
        if (d)
            closedir(d);
        else if (pd >= 0)
            close(pd);
    }
    close(fd);
    if (rc == 0 && rmdir(path) != 0)
        return -1;
    if (rc != 0)
        errno = first_errno;
    return rc;
}
