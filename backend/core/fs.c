#include "core/fs.h"
#include "core/buf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* One directory being emptied: the names it held when entered, and the next
 * one to remove. Names are read once per directory; going back to the parent
 * resumes its list, so the walk is linear in the number of entries. */
typedef struct level {
    char **names;
    size_t n, next;
} level;

/* The entries of the directory open at fd other than . and .. (fd stays open). */
static void list_dir(int fd, level *out)
{
    memset(out, 0, sizeof *out);
    int dup_fd = dup(fd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    size_t cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            out->names = byoc_xrealloc(out->names, cap * sizeof *out->names);
        }
        out->names[out->n++] = byoc_xstrdup(de->d_name);
    }
    closedir(d);
}

static void level_clear(level *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
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
    /* Depth-first with one descriptor (a tree may nest deeper than PATH_MAX and
     * than the descriptor limit): down into a subdirectory by name, back up
     * through "..", where the emptied child is removed by the name we came by. */
    level *stack = byoc_xmalloc(sizeof *stack);
    size_t depth = 1, cap = 1;
    list_dir(fd, &stack[0]);
    int first_errno = 0;
    while (depth) {
        level *top = &stack[depth - 1];
        if (top->next < top->n) {
            const char *name = top->names[top->next++];
            if (unlinkat(fd, name, 0) == 0)
                continue;
            int unlink_errno = errno, child = -1;
            if (unlink_errno == EISDIR || unlink_errno == EPERM) /* EPERM: POSIX's word for a directory */
                child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0) {
                if (!first_errno)
                    first_errno = unlink_errno == EISDIR ? errno : unlink_errno;
                continue;
            }
            close(fd);
            fd = child;
            if (depth == cap) {
                cap *= 2;
                stack = byoc_xrealloc(stack, cap * sizeof *stack);
            }
            list_dir(fd, &stack[depth++]);
            continue;
        }
        level_clear(top);
        if (--depth == 0)
            break;
        int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(fd);
        fd = parent;
        if (fd < 0) {
            first_errno = errno;
            while (depth)
                level_clear(&stack[--depth]);
            break;
        }
        level *up = &stack[depth - 1];
        if (unlinkat(fd, up->names[up->next - 1], AT_REMOVEDIR) != 0 && !first_errno)
            first_errno = errno;
    }
    free(stack);
    if (fd >= 0)
        close(fd);
    if (!first_errno && rmdir(path) != 0)
        first_errno = errno;
    if (first_errno) {
        errno = first_errno;
        return -1;
    }
    return 0;
}

uint64_t byoc_fs_space_cap(const char *path)
{
    struct statvfs sv;
    if (statvfs(path, &sv) != 0)
        return UINT64_MAX;
    uint64_t avail = (uint64_t)sv.f_bavail * (uint64_t)(sv.f_frsize ? sv.f_frsize : sv.f_bsize);
    return avail - avail / 20;
}

void byoc_fs_identity(byoc_buf *b, const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0)
        byoc_buf_putc(b, '-');
    else
        byoc_buf_printf(b, "%llu %llu %lld %lld.%09ld", (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                        (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}
