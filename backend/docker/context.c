#include "docker/context.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/buf.h"
#include "docker/libarchive_api.h"

struct byoc_context {
    char *root;
    char *dockerfile;
    byoc_ignore *ignore;
};

/* ---- opening ---- */

static bool path_inside(const char *root, const char *path)
{
    size_t n = strlen(root);
    if (strcmp(root, "/") == 0)
        return path[0] == '/' && path[1] != 0;
    return strncmp(root, path, n) == 0 && path[n] == '/';
}

int byoc_context_open(const char *dir, const char *dockerfile, byoc_context **out, byoc_err *err)
{
    *out = NULL;
    if (!dir || !*dir)
        dir = ".";
    char *root = realpath(dir, NULL);
    if (!root)
        return byoc_err_set(err, BYOC_E_USAGE, "context", "%s: %s", dir, strerror(errno));
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        byoc_err_set(err, BYOC_E_USAGE, "context", "%s is not a directory", dir);
        free(root);
        return -1;
    }
    char *want;
    if (dockerfile && *dockerfile) {
        want = byoc_xstrdup(dockerfile);
    } else {
        want = byoc_xasprintf("%s/Dockerfile", root);
        struct stat dst;
        if (lstat(want, &dst) != 0 && errno == ENOENT) {
            char *alt = byoc_xasprintf("%s/dockerfile", root);
            if (lstat(alt, &dst) == 0) {
                free(want);
                want = alt;
            } else {
                free(alt);
            }
        }
    }
    const char *what = dockerfile && *dockerfile ? "--file" : "context";
    char *abs = realpath(want, NULL);
    if (!abs) {
        int e = errno;
        if (e == ENOENT)
            byoc_err_set(err, BYOC_E_USAGE, what, "cannot locate Dockerfile: %s", want);
        else
            byoc_err_set(err, BYOC_E_USAGE, what, "%s: %s", want, strerror(e));
        free(want);
        free(root);
        return -1;
    }
    free(want);
    if (stat(abs, &st) != 0 || !S_ISREG(st.st_mode)) {
        byoc_err_set(err, BYOC_E_USAGE, what, "%s is not a regular file", abs);
        free(abs);
        free(root);
        return -1;
    }
    if (!path_inside(root, abs)) {
        byoc_err_set(err, BYOC_E_USAGE, what, "the Dockerfile %s is outside the build context %s", abs, root);
        free(abs);
        free(root);
        return -1;
    }
    byoc_context *c = byoc_xcalloc(1, sizeof *c);
    c->root = root;
    c->dockerfile = byoc_xstrdup(abs + strlen(root) + (strcmp(root, "/") == 0 ? 0 : 1));
    free(abs);
    c->ignore = byoc_ignore_load(root, c->dockerfile, err);
    if (!c->ignore) {
        byoc_context_free(c);
        return -1;
    }
    *out = c;
    return 0;
}

void byoc_context_free(byoc_context *c)
{
    if (!c)
        return;
    free(c->root);
    free(c->dockerfile);
    byoc_ignore_free(c->ignore);
    free(c);
}

const char *byoc_context_root(const byoc_context *c) { return c->root; }
const char *byoc_context_dockerfile(const byoc_context *c) { return c->dockerfile; }
const byoc_ignore *byoc_context_ignore(const byoc_context *c) { return c->ignore; }

/* ---- the walker: filepath.Walk + TarWithOptions' decisions, as an iterator ---- */

typedef struct {
    char **names;
    size_t n, i;
    size_t rel_len;
} frame;

typedef struct {
    const byoc_context *c;
    int rootfd;
    frame *stack;
    size_t depth, cap;
    byoc_buf rel;
    bool started;
    bool strict;        /* scan: unreadable directories are errors; else they are skipped */
} walker;

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* List a directory (relative to the root; "" = root), sorted bytewise. */
static int list_dir(walker *w, const char *rel, char ***names_out, size_t *n_out)
{
    int fd = openat(w->rootfd, *rel ? rel : ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -1;
    }
    size_t n = 0, cap = 16;
    char **names = byoc_xmalloc(cap * sizeof *names);
    struct dirent *de;
    errno = 0;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        if (n == cap) {
            cap *= 2;
            names = byoc_xrealloc(names, cap * sizeof *names);
        }
        names[n++] = byoc_xstrdup(de->d_name);
    }
    int e = errno;
    closedir(d);
    if (e != 0) {
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
        errno = e;
        return -1;
    }
    qsort(names, n, sizeof *names, name_cmp);
    *names_out = names;
    *n_out = n;
    return 0;
}

static void push_frame(walker *w, char **names, size_t n)
{
    if (w->depth == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 16;
        w->stack = byoc_xrealloc(w->stack, w->cap * sizeof *w->stack);
    }
    w->stack[w->depth++] = (frame){names, n, 0, w->rel.len};
}

static void pop_frame(walker *w)
{
    frame *f = &w->stack[--w->depth];
    for (size_t i = f->i; i < f->n; i++)
        free(f->names[i]);
    free(f->names);
}

static int walker_init(walker *w, const byoc_context *c, bool strict, byoc_err *err)
{
    memset(w, 0, sizeof *w);
    w->c = c;
    w->strict = strict;
    w->rootfd = open(c->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (w->rootfd < 0)
        return byoc_err_set(err, BYOC_E_USAGE, "context", "%s: %s", c->root, strerror(errno));
    byoc_buf_puts(&w->rel, "");
    return 0;
}

static void walker_clear(walker *w)
{
    while (w->depth > 0)
        pop_frame(w);
    free(w->stack);
    byoc_buf_clear(&w->rel);
    if (w->rootfd >= 0)
        close(w->rootfd);
}

/* Next entry to send: 1 (w->rel.data, *st), 0 at the end, -1 on error. */
static int walker_next(walker *w, struct stat *st, byoc_err *err)
{
    if (!w->started) {
        w->started = true;
        char **names;
        size_t n;
        if (list_dir(w, "", &names, &n) < 0)
            return byoc_err_set(err, BYOC_E_USAGE, "context", "cannot read %s: %s", w->c->root, strerror(errno));
        push_frame(w, names, n);
    }
    while (w->depth > 0) {
        frame *f = &w->stack[w->depth - 1];
        if (f->i == f->n) {
            pop_frame(w);
            continue;
        }
        char *name = f->names[f->i];
        f->names[f->i++] = NULL;
        w->rel.len = f->rel_len;
        if (f->rel_len > 0)
            byoc_buf_putc(&w->rel, '/');
        byoc_buf_puts(&w->rel, name);
        free(name);
        const char *rel = w->rel.data;
        if (fstatat(w->rootfd, rel, st, AT_SYMLINK_NOFOLLOW) != 0) {
            if (w->strict)
                return byoc_err_set(err, BYOC_E_USAGE, "context", "can't stat '%s/%s': %s", w->c->root, rel,
                                    strerror(errno));
            continue;
        }
        bool excluded = byoc_ignore_excluded(w->c->ignore, rel);
        if (S_ISDIR(st->st_mode)) {
            if (excluded && !byoc_ignore_dir_may_reinclude(w->c->ignore, rel))
                continue;
            char **names;
            size_t n;
            if (list_dir(w, rel, &names, &n) < 0) {
                if (w->strict)
                    return byoc_err_set(err, BYOC_E_USAGE, "context", "can't read directory '%s/%s': %s",
                                        w->c->root, rel, strerror(errno));
                continue;
            }
            push_frame(w, names, n);
            if (excluded)
                continue; /* its children are visited, the directory itself is not sent */
            return 1;
        }
        if (excluded || S_ISSOCK(st->st_mode))
            continue;
        return 1;
    }
    return 0;
}

int byoc_context_walk(const byoc_context *c, byoc_context_visit_fn fn, void *ud, byoc_err *err)
{
    walker w;
    if (walker_init(&w, c, false, err) < 0)
        return -1;
    struct stat st;
    int r;
    while ((r = walker_next(&w, &st, err)) == 1) {
        int stop = fn(w.rel.data, &st, ud);
        if (stop) {
            walker_clear(&w);
            return stop;
        }
    }
    walker_clear(&w);
    return r;
}

int byoc_context_scan(const byoc_context *c, byoc_context_stats *stats, byoc_err *err)
{
    memset(stats, 0, sizeof *stats);
    walker w;
    if (walker_init(&w, c, true, err) < 0)
        return -1;
    struct stat st;
    int r;
    while ((r = walker_next(&w, &st, err)) == 1) {
        stats->entries++;
        if (S_ISREG(st.st_mode)) {
            stats->files++;
            stats->bytes += (uint64_t)st.st_size;
            if (faccessat(w.rootfd, w.rel.data, R_OK, AT_EACCESS) != 0) {
                byoc_err_set(err, BYOC_E_USAGE, "context", "no permission to read from '%s/%s'", c->root,
                             w.rel.data);
                r = -1;
                break;
            }
        }
    }
    walker_clear(&w);
    return r < 0 ? -1 : 0;
}

/* ---- the tar stream ---- */

/* File data is copied in pieces of this size; with libarchive's 10 KiB block
 * the output buffer never holds more than IO_CHUNK + 20 KiB. */
#define IO_CHUNK (32 * 1024)
#define OUT_RESERVE (IO_CHUNK + 20 * 1024)

struct byoc_context_tar {
    walker w;
    struct archive *a;
    struct archive_entry_linkresolver *links;
    byoc_buf out;
    size_t out_pos;
    int fd;                 /* file whose data is being copied, or -1 */
    int64_t remaining;
    enum { T_NEXT, T_DATA, T_DONE, T_FAILED } state;
    byoc_err err;
    char *io;
    uint64_t produced, content;
};

static la_ssize_t tar_sink(struct archive *a, void *ud, const void *p, size_t n)
{
    byoc_context_tar *t = ud;
    if (t->out_pos == t->out.len) {
        t->out.len = 0;
        t->out_pos = 0;
    }
    byoc_buf_append(&t->out, p, n);
    return (la_ssize_t)n;
}

byoc_context_tar *byoc_context_tar_new(const byoc_context *c)
{
    byoc_context_tar *t = byoc_xcalloc(1, sizeof *t);
    t->fd = -1;
    t->io = byoc_xmalloc(IO_CHUNK);
    byoc_buf_reserve(&t->out, OUT_RESERVE);
    const byoc_archive_api *ar = NULL;
    if (walker_init(&t->w, c, false, &t->err) < 0 || !(ar = byoc_archive_api_get(&t->err))) {
        t->state = T_FAILED;
        return t;
    }
    t->a = ar->archive_write_new();
    /* USTAR, with a PAX header only for what USTAR cannot hold (long or
     * non-ASCII names, long link targets, xattrs). */
    ar->archive_write_set_format_pax_restricted(t->a);
    ar->archive_write_set_bytes_in_last_block(t->a, 1);
    if (ar->archive_write_open2(t->a, t, NULL, tar_sink, NULL, NULL) != ARCHIVE_OK) {
        byoc_err_set(&t->err, BYOC_E_FAILED, "context", "tar: %s", ar->archive_error_string(t->a));
        t->state = T_FAILED;
        return t;
    }
    t->links = ar->archive_entry_linkresolver_new();
    ar->archive_entry_linkresolver_set_strategy(t->links, ar->archive_format(t->a));
    return t;
}

static void add_capability(const byoc_context_tar *t, struct archive_entry *e, const char *rel)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by byoc_context_tar_new */
    char *path = byoc_xasprintf("%s/%s", t->w.c->root, rel);
    char val[256];
    ssize_t n = lgetxattr(path, "security.capability", val, sizeof val);
    if (n > 0)
        ar->archive_entry_xattr_add_entry(e, "security.capability", val, (size_t)n);
    free(path);
}

static int tar_fail(byoc_context_tar *t, const char *fmt, const char *arg)
{
    byoc_err_set(&t->err, BYOC_E_FAILED, "context", fmt, arg);
    t->state = T_FAILED;
    return -1;
}

/* Produce the next piece of output: a header, a chunk of data, or the end. */
static int tar_step(byoc_context_tar *t)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by byoc_context_tar_new */
    if (t->state == T_DATA) {
        size_t want = t->remaining < IO_CHUNK ? (size_t)t->remaining : IO_CHUNK;
        ssize_t got = want ? read(t->fd, t->io, want) : 0;
        if (got < 0) {
            if (errno == EINTR)
                return 0;
            return tar_fail(t, "reading a context file: %s", strerror(errno));
        }
        if (got > 0) {
            if (ar->archive_write_data(t->a, t->io, (size_t)got) < 0)
                return tar_fail(t, "tar: %s", ar->archive_error_string(t->a));
            t->remaining -= got;
            t->content += (uint64_t)got;
        }
        if (got == 0 || t->remaining == 0) {
            /* A file that shrank meanwhile is padded with zeros by libarchive. */
            close(t->fd);
            t->fd = -1;
            if (ar->archive_write_finish_entry(t->a) != ARCHIVE_OK)
                return tar_fail(t, "tar: %s", ar->archive_error_string(t->a));
            t->state = T_NEXT;
        }
        return 0;
    }
    struct stat st;
    int r = walker_next(&t->w, &st, &t->err);
    if (r < 0) {
        t->state = T_FAILED;
        return -1;
    }
    if (r == 0) {
        if (ar->archive_write_close(t->a) != ARCHIVE_OK)
            return tar_fail(t, "tar: %s", ar->archive_error_string(t->a));
        t->state = T_DONE;
        return 0;
    }
    const char *rel = t->w.rel.data;
    int fd = -1;
    char target[PATH_MAX + 1];
    ssize_t tlen = 0;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        fd = openat(t->w.rootfd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            return 0;   /* vanished or unreadable since the walk: left out */
    } else if (S_ISLNK(st.st_mode)) {
        tlen = readlinkat(t->w.rootfd, rel, target, sizeof target - 1);
        if (tlen < 0)
            return 0;
        target[tlen] = 0;
    }
    struct archive_entry *e = ar->archive_entry_new2(t->a);
    ar->archive_entry_copy_stat(e, &st);
    if (S_ISDIR(st.st_mode)) {
        char *dirname = byoc_xasprintf("%s/", rel);
        ar->archive_entry_copy_pathname(e, dirname);
        free(dirname);
    } else {
        ar->archive_entry_copy_pathname(e, rel);
    }
    ar->archive_entry_set_uid(e, 0);
    ar->archive_entry_set_gid(e, 0);
    ar->archive_entry_set_mtime(e, st.st_mtime, 0);
    ar->archive_entry_unset_atime(e);
    ar->archive_entry_unset_ctime(e);
    ar->archive_entry_unset_birthtime(e);
    if (S_ISLNK(st.st_mode))
        ar->archive_entry_copy_symlink(e, target);
    add_capability(t, e, rel);
    if (S_ISDIR(st.st_mode))
        ar->archive_entry_set_nlink(e, 1); /* directories never become hard links */
    struct archive_entry *spare = NULL;
    ar->archive_entry_linkify(t->links, &e, &spare);
    if (spare)
        ar->archive_entry_free(spare);
    int64_t size = ar->archive_entry_size(e);
    /* ARCHIVE_WARN: a name that does not convert to UTF-8 in this locale went
     * out as raw bytes (PAX hdrcharset=BINARY), which is what the engine reads. */
    if (ar->archive_write_header(t->a, e) < ARCHIVE_WARN) {
        ar->archive_entry_free(e);
        if (fd >= 0)
            close(fd);
        return tar_fail(t, "tar: %s", ar->archive_error_string(t->a));
    }
    ar->archive_entry_free(e);
    if (fd >= 0 && size > 0) {
        t->fd = fd;
        t->remaining = size;
        t->state = T_DATA;
    } else {
        if (fd >= 0)
            close(fd);
        ar->archive_write_finish_entry(t->a);
    }
    return 0;
}

size_t byoc_context_tar_read(char *dst, size_t n, void *ud)
{
    byoc_context_tar *t = ud;
    /* Fill the caller's buffer as far as the archive goes: fewer, larger chunks. */
    size_t done = 0;
    while (done < n) {
        if (t->out_pos == t->out.len) {
            if (t->state == T_DONE)
                break;
            if (t->state == T_FAILED || tar_step(t) < 0)
                return done ? done : (size_t)-1;
            continue;
        }
        size_t avail = t->out.len - t->out_pos;
        size_t k = avail < n - done ? avail : n - done;
        memcpy(dst + done, t->out.data + t->out_pos, k);
        t->out_pos += k;
        done += k;
    }
    t->produced += done;
    return done;
}

int byoc_context_tar_error(const byoc_context_tar *t, byoc_err *err)
{
    if (t->state != T_FAILED)
        return 0;
    if (err)
        *err = t->err;
    return -1;
}

uint64_t byoc_context_tar_bytes(const byoc_context_tar *t) { return t->produced; }
uint64_t byoc_context_tar_content_bytes(const byoc_context_tar *t) { return t->content; }

void byoc_context_tar_free(byoc_context_tar *t)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded if t->a or t->links is set */
    if (!t)
        return;
    if (t->fd >= 0)
        close(t->fd);
    if (t->a)
        ar->archive_write_free(t->a);
    if (t->links)
        ar->archive_entry_linkresolver_free(t->links);
    walker_clear(&t->w);
    byoc_buf_clear(&t->out);
    free(t->io);
    free(t);
}
