#include "core/files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"

int byoc_file_read(const char *path, size_t max, char **data, size_t *len, bool *truncated,
                   byoc_err *err)
{
    *data = NULL;
    if (len)
        *len = 0;
    if (truncated)
        *truncated = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return byoc_err_set(err, BYOC_E_FAILED, path, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return byoc_err_set(err, BYOC_E_FAILED, path, "not a regular file");
    }
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    char chunk[16384];
    for (;;) {
        size_t want = sizeof chunk;
        if (b.len + want > max + 1)
            want = max + 1 - b.len;
        if (want == 0)
            break;
        ssize_t n = read(fd, chunk, want);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            byoc_buf_clear(&b);
            return byoc_err_set(err, BYOC_E_FAILED, path, "cannot read: %s", strerror(e));
        }
        if (n == 0)
            break;
        byoc_buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    if (b.len > max) {
        b.len = max;
        b.data[max] = '\0';
        if (truncated)
            *truncated = true;
    }
    if (len)
        *len = b.len;
    *data = byoc_buf_steal(&b);
    return 0;
}

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *p, size_t left)
{
    size_t need;
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        need = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        need = 3;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        need = 4;
    else
        return 0;
    if (left < need)
        return left == 0 ? 0 : left; /* cut at the end of a bounded read: not evidence of binary */
    for (size_t i = 1; i < need; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return need;
}

bool byoc_text_is_binary(const char *data, size_t len)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t bad = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = p[i];
        if (c == 0)
            return true;
        if (c >= 0x80) {
            size_t n = utf8_seq_len(p + i, len - i);
            if (n == 0) {
                bad++;
                i++;
            } else {
                i += n;
            }
            continue;
        }
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v')
            bad++;
        i++;
    }
    return len > 0 && bad * 20 > len; /* more than 5% junk */
}

int byoc_make_parents(const char *path, unsigned dir_mode, byoc_err *err)
{
    char *dir = byoc_xstrdup(path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        if (byoc_mkdir_p(dir, dir_mode) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, dir, "cannot create directory: %s", strerror(errno));
    }
    free(dir);
    return rc;
}

/* Give the fresh temporary file fd its mode and data, flush it to disk and close it (also on
 * failure). 0, or the errno of the first step that failed. */
static int fill_and_close(int fd, const void *data, size_t len, unsigned mode)
{
    int e = fchmod(fd, mode) != 0 ? errno : 0;
    const char *p = data;
    for (size_t left = len; e == 0 && left > 0;) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            e = errno;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    if (e == 0 && fsync(fd) != 0)
        e = errno;
    if (close(fd) != 0 && e == 0)
        e = errno;
    return e;
}

int byoc_file_write_atomic(const char *path, const void *data, size_t len, unsigned mode,
                           byoc_err *err)
{
    const char *base = byoc_path_base(path);
    char *tmp = byoc_xasprintf("%.*s.%s.XXXXXX", (int)(base - path), path, base);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return byoc_err_set(err, BYOC_E_FAILED, path, "cannot create a temporary file: %s", strerror(e));
    }
    int e = fill_and_close(fd, data, len, mode);
    if (e == 0 && rename(tmp, path) != 0)
        e = errno;
    if (e != 0) {
        unlink(tmp);
        byoc_err_set(err, BYOC_E_FAILED, path, "cannot write: %s", strerror(e));
    }
    free(tmp);
    return e == 0 ? 0 : -1;
}

/* Why the name at dirfd/name cannot be walked into: a link, or not a directory. */
static int refuse_component(int dirfd, const char *root, const char *rel, size_t n, int e, byoc_err *err)
{
    char *shown = byoc_xasprintf("%s/%.*s", root, (int)n, rel);
    struct stat st;
    int rc;
    if (fstatat(dirfd, byoc_path_base(shown), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        rc = byoc_err_set(err, BYOC_E_FAILED, shown, "is a symbolic link: byoc does not write through one");
    else if (e == ENOTDIR || e == ELOOP)
        rc = byoc_err_set(err, BYOC_E_FAILED, shown, "is not a directory");
    else
        rc = byoc_err_set(err, BYOC_E_FAILED, shown, "cannot open: %s", strerror(e));
    free(shown);
    return rc;
}

/* Walk rel's directories below root (making missing ones when dir_mode is not
 * 0) without following links. Returns a descriptor on the last directory, -2
 * when check-only met a missing one (nothing below it can be a link), or -1. */
static int walk_below(const char *root, const char *rel, unsigned dir_mode, bool make, byoc_err *err)
{
    int fd = open(root, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return byoc_err_set(err, BYOC_E_FAILED, root, "cannot open: %s", strerror(errno));
    const char *s = rel;
    for (const char *slash; (slash = strchr(s, '/'));) {
        size_t n = (size_t)(slash - s);
        if (n == 0 || (n == 1 && s[0] == '.')) {
            s = slash + 1;
            continue;
        }
        char *name = byoc_xstrndup(s, n);
        int child = openat(fd, name, O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0 && errno == ENOENT && make) {
            if (mkdirat(fd, name, dir_mode) != 0 && errno != EEXIST) {
                int e = errno;
                char *shown = byoc_xasprintf("%s/%.*s", root, (int)(slash - rel), rel);
                byoc_err_set(err, BYOC_E_FAILED, shown, "cannot create directory: %s", strerror(e));
                free(shown);
                free(name);
                close(fd);
                return -1;
            }
            child = openat(fd, name, O_DIRECTORY | O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        }
        int e = errno;
        free(name);
        if (child < 0 && e == ENOENT && !make) {
            close(fd);
            return -2;
        }
        if (child < 0) {
            refuse_component(fd, root, rel, (size_t)(slash - rel), e, err);
            close(fd);
            return -1;
        }
        close(fd);
        fd = child;
        s = slash + 1;
    }
    return fd;
}

int byoc_path_check_below(const char *root, const char *rel, byoc_err *err)
{
    int fd = walk_below(root, rel, 0, false, err);
    if (fd == -1)
        return -1;
    if (fd >= 0)
        close(fd);
    return 0;
}

int byoc_file_write_below(const char *root, const char *rel, const void *data, size_t len, unsigned mode,
                          unsigned dir_mode, byoc_err *err)
{
    int dfd = walk_below(root, rel, dir_mode, true, err);
    if (dfd < 0)
        return -1;
    char *path = byoc_path_join(root, rel);
    const char *base = byoc_path_base(rel);
    char *tmp = NULL;
    int fd = -1;
    for (unsigned i = 0; fd < 0 && i < 100; i++) {
        free(tmp);
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        tmp = byoc_xasprintf(".%s.%ld.%ld%u", base, (long)getpid(), (long)ts.tv_nsec, i);
        fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        int e = errno;
        byoc_err_set(err, BYOC_E_FAILED, path, "cannot create a temporary file: %s", strerror(e));
        free(tmp);
        free(path);
        close(dfd);
        return -1;
    }
    int e = fill_and_close(fd, data, len, mode);
    if (e == 0 && renameat(dfd, tmp, dfd, base) != 0)
        e = errno;
    if (e != 0) {
        unlinkat(dfd, tmp, 0);
        byoc_err_set(err, BYOC_E_FAILED, path, "cannot write: %s", strerror(e));
    }
    close(dfd);
    free(tmp);
    free(path);
    return e == 0 ? 0 : -1;
}

char *byoc_path_join(const char *a, const char *b)
{
    if (!a || !*a || (b && b[0] == '/'))
        return byoc_xstrdup(b ? b : "");
    if (!b || !*b)
        return byoc_xstrdup(a);
    size_t n = strlen(a);
    while (n > 1 && a[n - 1] == '/')
        n--;
    while (b[0] == '.' && b[1] == '/')
        b += 2;
    if (strcmp(b, ".") == 0)
        return byoc_xstrndup(a, n);
    return byoc_xasprintf("%.*s%s%s", (int)n, a, a[n - 1] == '/' ? "" : "/", b);
}

bool byoc_path_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

bool byoc_path_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *byoc_path_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}
