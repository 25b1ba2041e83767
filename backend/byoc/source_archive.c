#include "byoc/source_archive.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/log.h"
#include "docker/libarchive_api.h"

#define WHAT "--source-module"

typedef struct {
    struct archive *a;
    byoc_task *task;
    byoc_archive_stats stats;
    /* directories on the current path, to catch symlink loops */
    struct {
        dev_t dev;
        ino_t ino;
    } stack[512];
    int depth;
    char buf[64 * 1024];
} writer;

static int archive_fail(writer *w, const char *path, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    return byoc_err_set(err, BYOC_E_FAILED, WHAT, "cannot write the source archive at %s: %s", path,
                        ar->archive_error_string(w->a) ? ar->archive_error_string(w->a) : "unknown error");
}

static int write_header(writer *w, const char *arcname, const struct stat *st, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    struct archive_entry *e = ar->archive_entry_new();
    ar->archive_entry_copy_stat(e, st);
    ar->archive_entry_set_pathname(e, arcname);
    ar->archive_entry_set_nlink(e, 1);
    if (!S_ISREG(st->st_mode))
        ar->archive_entry_set_size(e, 0);
    int r = ar->archive_write_header(w->a, e);
    ar->archive_entry_free(e);
    if (r < ARCHIVE_WARN)
        return archive_fail(w, arcname, err);
    return 0;
}

static int add_file(writer *w, const char *path, const char *arcname, const struct stat *st, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "cannot read %s: %s", path, strerror(errno));
    if (write_header(w, arcname, st, err) != 0) {
        close(fd);
        return -1;
    }
    int64_t left = (int64_t)st->st_size;
    while (left > 0) {
        ssize_t n = read(fd, w->buf, left < (int64_t)sizeof w->buf ? (size_t)left : sizeof w->buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = errno;
            close(fd);
            return byoc_err_set(err, BYOC_E_USAGE, WHAT, "cannot read %s: %s", path,
                                n == 0 ? "the file shrank while it was being archived" : strerror(e));
        }
        if (ar->archive_write_data(w->a, w->buf, (size_t)n) < 0) {
            close(fd);
            return archive_fail(w, arcname, err);
        }
        left -= n;
        w->stats.bytes_in += (uint64_t)n;
    }
    close(fd);
    w->stats.files++;
    byoc_task_progress(w->task, "source.tar.gz", (int64_t)w->stats.bytes_in, -1, arcname);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted entry names of a directory, as tarfile's sorted(os.listdir()). */
static int list_dir(const char *path, char ***names, size_t *n, byoc_err *err)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(path);
    if (!d)
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "cannot read directory %s: %s", path, strerror(errno));
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 32;
            *names = byoc_xrealloc(*names, cap * sizeof **names);
        }
        (*names)[(*n)++] = byoc_xstrdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, by_name);
    return 0;
}

/* Version control's own directories (a ".git" file too: a worktree's or a submodule's link to
 * one): history, not the job's code, often larger than the code, and it may hold credentials
 * in a remote URL. They are left out below the module, as `docker build` contexts commonly
 * leave .git out; a module named .git itself is taken as asked. */
static bool vcs_entry(const char *name)
{
    static const char *const vcs[] = {".git", ".hg", ".svn", ".bzr", NULL};
    for (const char *const *v = vcs; *v; v++)
        if (strcmp(name, *v) == 0)
            return true;
    return false;
}

static int add_path(writer *w, const char *path, const char *arcname, byoc_err *err)
{
    if (byoc_task_cancelled(w->task))
        return byoc_err_set(err, BYOC_E_CANCELLED, WHAT, "cancelled while archiving");
    struct stat st;
    if (stat(path, &st) != 0) {
        struct stat lst;
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            return byoc_err_set(err, BYOC_E_USAGE, WHAT, "broken symlink in the source module: %s", path);
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "cannot read %s: %s", path, strerror(errno));
    }
    if (S_ISREG(st.st_mode))
        return add_file(w, path, arcname, &st, err);
    if (S_ISSOCK(st.st_mode)) {
        byoc_log(BYOC_LOG_INFO, "source archive: skipping socket %s", path);
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return write_header(w, arcname, &st, err); /* fifo or device node: header only, as tarfile */

    for (int i = 0; i < w->depth; i++)
        if (w->stack[i].dev == st.st_dev && w->stack[i].ino == st.st_ino)
            return byoc_err_set(err, BYOC_E_USAGE, WHAT,
                                "symlink loop in the source module: %s leads back to a directory above it", path);
    if (w->depth >= (int)(sizeof w->stack / sizeof *w->stack))
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "directories nested too deeply at %s", path);
    if (write_header(w, arcname, &st, err) != 0)
        return -1;
    w->stats.dirs++;
    char **names;
    size_t n;
    if (list_dir(path, &names, &n, err) != 0)
        return -1;
    w->stack[w->depth].dev = st.st_dev;
    w->stack[w->depth].ino = st.st_ino;
    w->depth++;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0 && vcs_entry(names[i])) {
            byoc_log(BYOC_LOG_INFO, "source archive: leaving out %s/%s", path, names[i]);
            w->stats.skipped++;
        } else if (rc == 0) {
            char *child = byoc_xasprintf("%s/%s", path, names[i]);
            char *child_arc = byoc_xasprintf("%s/%s", arcname, names[i]);
            rc = add_path(w, child, child_arc, err);
            free(child);
            free(child_arc);
        }
        free(names[i]);
    }
    free(names);
    w->depth--;
    return rc;
}

int byoc_source_archive_write(const char *source_module, const char *out_path, byoc_task *t,
                              byoc_archive_stats *stats, byoc_err *err)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    const byoc_archive_api *ar = byoc_archive_api_get(err);
    if (!ar)
        return -1;
    char *real = realpath(source_module, NULL);
    if (!real)
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "source module not found: %s (%s)", source_module,
                            strerror(errno));
    const char *name = strrchr(real, '/') + 1;
    if (!*name) {
        free(real);
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "the source module cannot be the root directory");
    }
    int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        int e = errno;
        free(real);
        return byoc_err_set(err, BYOC_E_FAILED, WHAT, "cannot create %s: %s", out_path, strerror(e));
    }
    writer *w = byoc_xcalloc(1, sizeof *w);
    w->task = t;
    w->a = ar->archive_write_new();
    int rc = 0;
    if (ar->archive_write_set_format_pax_restricted(w->a) != ARCHIVE_OK ||
        ar->archive_write_add_filter_gzip(w->a) != ARCHIVE_OK ||
        ar->archive_write_set_filter_option(w->a, "gzip", "compression-level", "9") < ARCHIVE_WARN ||
        ar->archive_write_open_fd(w->a, fd) != ARCHIVE_OK) {
        rc = archive_fail(w, out_path, err);
    } else {
        rc = add_path(w, real, name, err);
        if (ar->archive_write_close(w->a) != ARCHIVE_OK && rc == 0)
            rc = archive_fail(w, out_path, err);
    }
    ar->archive_write_free(w->a);
    struct stat st;
    if (fstat(fd, &st) == 0)
        w->stats.bytes_out = (uint64_t)st.st_size;
    if (close(fd) != 0 && rc == 0)
        rc = byoc_err_set(err, BYOC_E_FAILED, WHAT, "cannot write %s: %s", out_path, strerror(errno));
    if (rc == 0 && stats)
        *stats = w->stats;
    if (rc != 0)
        unlink(out_path);
    free(w);
    free(real);
    return rc;
}

int byoc_source_archive_build(const char *source_module, byoc_task *t, char **path, byoc_archive_stats *stats,
                              byoc_err *err)
{
    *path = NULL;
    const char *tmp = getenv("TMPDIR");
    char *dir = byoc_xasprintf("%s/byoc-source-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        int e = errno;
        free(dir);
        return byoc_err_set(err, BYOC_E_ENV, WHAT, "cannot create a temporary directory: %s", strerror(e));
    }
    char *file = byoc_xasprintf("%s/source.tar.gz", dir);
    int rc = byoc_source_archive_write(source_module, file, t, stats, err);
    if (rc != 0) {
        rmdir(dir);
        free(file);
    } else {
        *path = file;
    }
    free(dir);
    return rc;
}

void byoc_source_archive_remove(char *path)
{
    if (!path)
        return;
    unlink(path);
    char *slash = strrchr(path, '/');
    if (slash) {
        *slash = '\0';
        rmdir(path);
    }
    free(path);
}
