#include "byoc/results.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aws/s3.h"
#include "byoc/jobspec.h"
#include "core/buf.h"
#include "core/fs.h"
#include "core/log.h"
#include "core/str.h"
#include "core/strmap.h"
#include "docker/libarchive_api.h"

#define DEFAULT_MAX_BYTES (16ULL << 30)
#define DEFAULT_MAX_ENTRIES 1000000ULL
#define DEFAULT_MAX_RATIO 200ULL
/* Below this much unpacked, any ratio passes: a small archive of zeros is no bomb. */
#define RATIO_FLOOR (64ULL << 20)
#define BLOCK 65536

/* ---- paths ------------------------------------------------------------------- */

/* Normalise an archive path: drop "." and empty components. Returns the
 * relative path (malloc'd, "" for the root itself) or NULL with why set when
 * it is absolute or has a ".." component. */
static char *clean_entry_path(const char *p, const char **why)
{
    if (!p || !*p) {
        *why = "has an empty name";
        return NULL;
    }
    if (p[0] == '/') {
        *why = "has an absolute path";
        return NULL;
    }
    byoc_buf out = BYOC_BUF_INIT;
    const char *s = p;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') {
            byoc_buf_clear(&out);
            *why = "has a '..' component";
            return NULL;
        }
        if (n > 0 && !(n == 1 && s[0] == '.')) {
            if (out.len)
                byoc_buf_putc(&out, '/');
            byoc_buf_append(&out, s, n);
        }
        s += n;
        if (*s == '/')
            s++;
    }
    return byoc_buf_steal(&out);
}

/* Does a symlink at `path` (relative, clean) with `target` stay inside the root? */
static bool link_stays_inside(const char *path, const char *target)
{
    if (!target || !*target || target[0] == '/')
        return false;
    int depth = 0;
    for (const char *s = path; *s; s++)
        if (*s == '/')
            depth++;
    const char *s = target;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n == 2 && s[0] == '.' && s[1] == '.') {
            if (--depth < 0)
                return false;
        } else if (n > 0 && !(n == 1 && s[0] == '.')) {
            depth++;
        }
        s += n;
        if (*s == '/')
            s++;
    }
    return true;
}

/* What is at each path unpacked so far: a strmap from clean relative paths
 * to their kind (directories made implicitly for a deeper entry count as
 * DIR). An entry's parents are looked up prefix by prefix, so the prefixes'
 * hashes are carried forward rather than recomputed: a hostile name of
 * thousands of components would otherwise cost time quadratic in its length. */
enum { K_FILE = 1, K_DIR, K_LINK };

static int kind_at(const byoc_strmap *paths, const char *key, size_t n, uint64_t h)
{
    size_t kind = 0;
    return byoc_strmap_get(paths, key, n, h, &kind) ? (int)kind : 0;
}

static int kind_at_str(const byoc_strmap *paths, const char *key)
{
    size_t kind = 0;
    return byoc_strmap_get_str(paths, key, &kind) ? (int)kind : 0;
}

/* What the parents of path are: K_LINK or K_FILE for the first parent that is
 * no directory, else 0. */
static int parent_kind(const byoc_strmap *paths, const char *path)
{
    uint64_t h = BYOC_FNV1A_SEED;
    const char *hashed = path;
    for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
        h = byoc_fnv1a(h, hashed, (size_t)(s - hashed));
        hashed = s;
        int k = kind_at(paths, path, (size_t)(s - path), h);
        if (k == K_LINK || k == K_FILE)
            return k;
    }
    return 0;
}

/* Record path and, as directories, its parents. */
static void record(byoc_strmap *paths, const char *path, int kind)
{
    uint64_t h = BYOC_FNV1A_SEED;
    const char *hashed = path;
    for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
        h = byoc_fnv1a(h, hashed, (size_t)(s - hashed));
        hashed = s;
        if (!kind_at(paths, path, (size_t)(s - path), h))
            byoc_strmap_put(paths, path, (size_t)(s - path), h, K_DIR);
    }
    size_t n = strlen(path);
    byoc_strmap_put(paths, path, n, byoc_fnv1a(h, hashed, (size_t)(path + n - hashed)), (size_t)kind);
}

static bool dir_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *de;
    bool empty = true;
    while ((de = readdir(d))) {
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
            empty = false;
            break;
        }
    }
    closedir(d);
    return empty;
}

int byoc_results_check_dest(const char *dest, byoc_err *err)
{
    struct stat st;
    if (lstat(dest, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return byoc_err_set(err, BYOC_E_FAILED, dest, "cannot use it: %s", strerror(errno));
    }
    if (S_ISDIR(st.st_mode) && dir_is_empty(dest))
        return 0;
    return byoc_err_set(err, BYOC_E_FAILED, dest,
                        "already exists and is not an empty directory: remove it or choose another with -o DIR");
}

char *byoc_results_dest_for_job(const char *parent, const char *job_name, byoc_err *err)
{
    byoc_job_problems probs = {0};
    if (byoc_job_check_name(job_name, BYOC_JF_JOB_NAME, &probs) == 0) {
        byoc_job_problems_clear(&probs);
        return byoc_xasprintf("%s/%s", parent ? parent : ".", job_name);
    }
    /* The rule's message quotes the name through the printable pass. */
    byoc_err_set(err, BYOC_E_FAILED, "results",
                 "the service's job name %s, so it cannot name a directory: nothing was written; "
                 "choose one with -o DIR", probs.items[0].message);
    byoc_job_problems_clear(&probs);
    return NULL;
}

/* ---- unpacking ----------------------------------------------------------------- */

typedef struct unpack {
    const char *tarball;         /* names the archive in messages */
    char *tmp;                   /* the fresh directory we unpack into */
    byoc_unpack_limits lim;
    uint64_t disk_cap;           /* bytes the destination's file system can take */
    byoc_task *task;
    struct archive *in;
    char *top;                   /* strip_top: the archive's one directory */
    byoc_strmap paths;           /* kind of what is at each path unpacked so far */
    byoc_unpacked *out;
    uint64_t entries;
    uint64_t done;               /* bytes of file data unpacked so far, holes included */
} unpack;

/* A hostile name can be thousands of bytes: shown whole, it would push the
 * reason out of the error message, so a long one keeps its two ends. */
#define ENTRY_SHOWN_MAX 160

static int refuse(unpack *u, const char *entry, const char *why, byoc_err *err)
{
    size_t n = strlen(entry);
    if (n > ENTRY_SHOWN_MAX)
        return byoc_err_set(err, BYOC_E_FAILED, "results",
                            "%s: entry '%.*s...%s' (%zu bytes) %s: the archive was refused, nothing unpacked",
                            u->tarball, ENTRY_SHOWN_MAX / 2, entry, entry + n - ENTRY_SHOWN_MAX / 2, n, why);
    return byoc_err_set(err, BYOC_E_FAILED, "results", "%s: entry '%s' %s: the archive was refused, nothing unpacked",
                        u->tarball, entry, why);
}

/* A skipped entry with skip_unsafe (1), else the archive refused (-1). */
static int reject(unpack *u, const char *entry, const char *why, byoc_err *err)
{
    if (!u->lim.skip_unsafe)
        return refuse(u, entry, why, err);
    byoc_strv_push(&u->out->skipped, entry);
    byoc_strv_push(&u->out->skipped_why, why);
    return 1;
}

/* Refused when `expanded` bytes came out of too few archive bytes. */
static int check_ratio(unpack *u, uint64_t expanded, byoc_err *err)
{
    if (expanded <= RATIO_FLOOR)
        return 0;
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    la_int64_t raw = ar->archive_filter_bytes(u->in, -1);
    if (raw <= 0 || expanded / u->lim.max_ratio <= (uint64_t)raw)
        return 0;
    return byoc_err_set(err, BYOC_E_FAILED, "results",
                        "%s: %llu bytes unpacked from %lld archive bytes, more than %llu times as many (a "
                        "decompression bomb?): the archive was refused, nothing unpacked (" BYOC_RESULTS_MAX_RATIO_ENV
                        " sets the ratio)",
                        u->tarball, (unsigned long long)expanded, (long long)raw,
                        (unsigned long long)u->lim.max_ratio);
}

/* The size an entry declares, checked against the limits before any of it is written. */
static int check_size(unpack *u, const char *name, la_int64_t declared, byoc_err *err)
{
    uint64_t size = declared > 0 ? (uint64_t)declared : 0;
    uint64_t total = u->out->bytes + size;
    if (total < size || total > u->lim.max_bytes)
        return byoc_err_set(err, BYOC_E_FAILED, "results",
                            "%s: '%s' (%llu bytes) brings the files past %llu bytes in all: the archive was refused, "
                            "nothing unpacked (" BYOC_RESULTS_MAX_BYTES_ENV " sets the limit)",
                            u->tarball, name, (unsigned long long)size, (unsigned long long)u->lim.max_bytes);
    if (total > u->disk_cap)
        return byoc_err_set(err, BYOC_E_FAILED, "results",
                            "%s: '%s' (%llu bytes) brings the files to %llu bytes, more than the destination's file "
                            "system can take (%llu bytes, 95%% of its free space): the archive was refused, nothing "
                            "unpacked",
                            u->tarball, name, (unsigned long long)size, (unsigned long long)total,
                            (unsigned long long)u->disk_cap);
    u->out->bytes = total;
    return 0;
}

static int copy_data(unpack *u, struct archive *in, struct archive *out, const char *name, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    for (;;) {
        const void *buf;
        size_t size;
        la_int64_t offset;
        int r = ar->archive_read_data_block(in, &buf, &size, &offset);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r < ARCHIVE_OK)
            return byoc_err_set(err, BYOC_E_FAILED, "results", "%s: reading '%s': %s", u->tarball, name,
                                ar->archive_error_string(in));
        if (byoc_task_cancelled(u->task))
            return byoc_err_set(err, BYOC_E_CANCELLED, "results", "cancelled");
        if (offset < 0)
            return byoc_err_set(err, BYOC_E_FAILED, "results", "%s: reading '%s': a negative offset", u->tarball,
                                name);
        /* a sparse entry's holes count: the offset runs ahead of the data */
        if (check_ratio(u, u->done + (uint64_t)offset + size, err) != 0)
            return -1;
        if (ar->archive_write_data_block(out, buf, size, offset) < ARCHIVE_OK)
            return byoc_err_set(err, BYOC_E_FAILED, "results", "writing '%s': %s", name,
                                ar->archive_error_string(out));
    }
}

/* strip_top: the path below the archive's one directory ("" for that
 * directory itself), malloc'd; NULL when path lies elsewhere. */
static char *below_top(unpack *u, char *clean)
{
    size_t n = strcspn(clean, "/");
    if (!u->top && n > 0)
        u->top = byoc_xstrndup(clean, n);
    if (!u->top || n != strlen(u->top) || strncmp(clean, u->top, n) != 0)
        return NULL;
    return byoc_xstrdup(clean + n + (clean[n] == '/'));
}

/* Check one entry and point it into the temporary directory. Returns 1 to
 * skip it (the root directory itself), 0 to write it, -1 to refuse. */
static int vet_entry(unpack *u, struct archive_entry *e, char **clean_out, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    const char *raw = ar->archive_entry_pathname(e);
    const char *why = NULL;
    char *clean = clean_entry_path(raw, &why);
    if (!clean)
        return reject(u, raw ? raw : "", why, err);
    if (u->lim.strip_top) {
        char *below = below_top(u, clean);
        free(clean);
        if (!below)
            return reject(u, raw, "lies outside the archive's directory", err);
        clean = below;
    }
    *clean_out = clean;
    /* named from the destination, as the caller will show it */
    const char *name = *clean ? clean : raw;
    mode_t type = ar->archive_entry_filetype(e);
    const char *hardlink = ar->archive_entry_hardlink(e);
    if (!*clean) {
        if (type == AE_IFDIR && !hardlink)
            return 1;
        return reject(u, raw, "names the destination itself", err);
    }
    int above = parent_kind(&u->paths, clean);
    if (above)
        return reject(u, name, above == K_LINK ? "lies below a symbolic link" : "lies below a file", err);
    int here = kind_at_str(&u->paths, clean);
    if (here == K_LINK)
        return reject(u, name, "replaces a symbolic link unpacked before it", err);
    if (here && !(here == K_DIR && type == AE_IFDIR && !hardlink))
        return reject(u, name,
                      type == AE_IFLNK && !hardlink ? "is a symbolic link over something unpacked before it"
                                                     : "appears twice in the archive",
                      err);
    if (hardlink) {
        char *target = clean_entry_path(hardlink, &why);
        if (target && u->lim.strip_top) {
            char *below = below_top(u, target);
            free(target);
            target = below;
        }
        if (!target || !*target) {
            free(target);
            return reject(u, name, "is a hard link that leaves the destination", err);
        }
        bool ok = kind_at_str(&u->paths, target) == K_FILE;
        if (ok) {
            char *full = byoc_xasprintf("%s/%s", u->tmp, target);
            ar->archive_entry_set_hardlink(e, full);
            free(full);
        }
        free(target);
        if (!ok)
            return reject(u, name, "is a hard link to something other than a file unpacked before it", err);
        return 0;
    }
    switch (type) {
    case AE_IFREG:
        return check_size(u, name, ar->archive_entry_size(e), err);
    case AE_IFDIR:
        break;
    case AE_IFLNK:
        if (!link_stays_inside(clean, ar->archive_entry_symlink(e)))
            return reject(u, name, "is a symbolic link that leads outside the destination", err);
        break;
    case AE_IFCHR:
    case AE_IFBLK:
        return reject(u, name, "is a device node", err);
    case AE_IFIFO:
        return reject(u, name, "is a FIFO", err);
    case AE_IFSOCK:
        return reject(u, name, "is a socket", err);
    default:
        return reject(u, name, "has an unknown type", err);
    }
    return 0;
}

static int unpack_entries(unpack *u, struct archive *in, struct archive *out, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    for (;;) {
        struct archive_entry *e;
        int r = ar->archive_read_next_header(in, &e);
        if (r == ARCHIVE_EOF)
            return 0;
        if (r < ARCHIVE_WARN)
            return byoc_err_set(err, BYOC_E_FAILED, "results", "%s: not a readable archive: %s", u->tarball,
                                ar->archive_error_string(in));
        if (++u->entries > u->lim.max_entries)
            return byoc_err_set(err, BYOC_E_FAILED, "results", "%s: more than %llu entries: refused", u->tarball,
                                (unsigned long long)u->lim.max_entries);
        char *clean = NULL;
        int v = vet_entry(u, e, &clean, err);
        if (v != 0) {
            free(clean);
            if (v < 0)
                return -1;
            continue;
        }
        bool is_file = ar->archive_entry_filetype(e) == AE_IFREG || ar->archive_entry_hardlink(e);
        bool is_link = ar->archive_entry_filetype(e) == AE_IFLNK && !ar->archive_entry_hardlink(e);
        char *full = byoc_xasprintf("%s/%s", u->tmp, clean);
        ar->archive_entry_set_pathname(e, full);
        free(full);
        int w = ar->archive_write_header(out, e);
        if (w < ARCHIVE_WARN) {
            int rc = byoc_err_set(err, BYOC_E_FAILED, "results", "%s: cannot unpack '%s': %s", u->tarball, clean,
                                  ar->archive_error_string(out));
            free(clean);
            return rc;
        }
        la_int64_t declared = ar->archive_entry_size(e);
        if (is_file && declared > 0 && !ar->archive_entry_hardlink(e)) {
            /* a trailing hole has no data block: the declared size is what the file takes */
            if (copy_data(u, in, out, clean, err) != 0 || check_ratio(u, u->done + (uint64_t)declared, err) != 0) {
                free(clean);
                return -1;
            }
            u->done += (uint64_t)declared;
        }
        if (ar->archive_write_finish_entry(out) < ARCHIVE_WARN) {
            int rc = byoc_err_set(err, BYOC_E_FAILED, "results", "%s: cannot finish '%s': %s", u->tarball, clean,
                                  ar->archive_error_string(out));
            free(clean);
            return rc;
        }
        record(&u->paths, clean, is_link ? K_LINK : is_file ? K_FILE : K_DIR);
        if (is_link)
            byoc_strv_push_owned(&u->out->links, clean);
        else if (is_file)
            byoc_strv_push_owned(&u->out->files, clean);
        else
            free(clean);
    }
}

#define MAX_LINK_HOPS 40

/* Where a walk below root stands: a descriptor on the deepest directory that
 * exists, and how many names below it do not (taken lexically: nothing below
 * them can be a link). One descriptor whatever the depth: a chain of links can
 * lead thousands of levels down, past PATH_MAX for a joined path and past the
 * descriptor limit for one descriptor a level. */
typedef struct walk {
    int fd;
    size_t depth;   /* levels below root */
    size_t missing; /* of which the innermost this many do not exist */
} walk;

static void walk_down(walk *w, const char *name)
{
    w->depth++;
    if (w->missing) {
        w->missing++;
        return;
    }
    int child = openat(w->fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child < 0) {
        w->missing = 1;
        return;
    }
    close(w->fd);
    w->fd = child;
}

/* Up one level; false when that leaves root or the parent cannot be opened. */
static bool walk_up(walk *w)
{
    if (w->depth == 0)
        return false;
    w->depth--;
    if (w->missing) {
        w->missing--;
        return true;
    }
    /* a directory entered by name with O_NOFOLLOW: its ".." is the level above */
    int parent = openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (parent < 0)
        return false;
    close(w->fd);
    w->fd = parent;
    return true;
}

/* The link name in the directory the walk stands in: its length, or -1. */
static ssize_t walk_readlink(const walk *w, const char *name, char *target, size_t size)
{
    return w->missing ? -1 : readlinkat(w->fd, name, target, size);
}

/* Does the symlink at rel (inside root) resolve inside root when followed as
 * the kernel does, component by component, through other links? Each link
 * passed its own lexical check, but "a/.." after a link "a" is physical: a
 * chain of links can leave where no single one does. Loops are refused too. */
bool byoc_results_link_inside(const char *root, const char *rel)
{
    walk w = {.fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)};
    if (w.fd < 0)
        return false;
    byoc_buf todo = BYOC_BUF_INIT; /* path components still to walk */
    char target[4096];
    /* the link's own directory components are real directories: walk them first, then the target */
    const char *slash = strrchr(rel, '/');
    if (slash)
        byoc_buf_append(&todo, rel, (size_t)(slash - rel));
    byoc_buf_puts(&todo, "");
    bool inside = true, target_queued = false;
    int hops = 0;
    size_t pos = 0;
    for (;;) {
        if (pos >= todo.len) {
            if (target_queued)
                break;
            /* now the link itself, read from the directory just walked */
            ssize_t n = walk_readlink(&w, slash ? slash + 1 : rel, target, sizeof target - 1);
            if (n <= 0) {
                inside = false;
                break;
            }
            target[n] = '\0';
            byoc_buf_clear(&todo);
            byoc_buf_puts(&todo, target);
            pos = 0;
            target_queued = true;
            continue;
        }
        const char *c = todo.data + pos;
        const char *e = memchr(c, '/', todo.len - pos);
        size_t len = e ? (size_t)(e - c) : todo.len - pos;
        pos += len + (e ? 1 : 0);
        if (len == 0 || (len == 1 && c[0] == '.'))
            continue;
        if (len == 2 && c[0] == '.' && c[1] == '.') {
            if (!walk_up(&w)) {
                inside = false;
                break;
            }
            continue;
        }
        char *comp = byoc_xstrndup(c, len);
        ssize_t n = walk_readlink(&w, comp, target, sizeof target - 1);
        if (n < 0) { /* a directory, a file, or nothing yet: a plain component */
            walk_down(&w, comp);
            free(comp);
            continue;
        }
        free(comp);
        target[n] = '\0';
        if (target[0] == '/' || ++hops > MAX_LINK_HOPS) {
            inside = false;
            break;
        }
        byoc_buf rest = BYOC_BUF_INIT;
        byoc_buf_puts(&rest, target);
        if (pos < todo.len) {
            byoc_buf_putc(&rest, '/');
            byoc_buf_append(&rest, todo.data + pos, todo.len - pos);
        }
        byoc_buf_clear(&todo);
        todo = rest;
        pos = 0;
    }
    byoc_buf_clear(&todo);
    close(w.fd);
    return inside;
}

/* Removing a link that fails can only take others inside (what led out
 * through it now ends at a missing name), so one pass is enough. */
static int check_links(unpack *u, byoc_err *err)
{
    byoc_strv kept = BYOC_STRV_INIT;
    int rc = 0;
    for (size_t i = 0; i < u->out->links.n; i++) {
        const char *rel = u->out->links.v[i];
        if (byoc_results_link_inside(u->tmp, rel)) {
            byoc_strv_push(&kept, rel);
            continue;
        }
        rc = reject(u, rel, "is a symbolic link that leads outside the destination (through other links) or loops",
                    err);
        if (rc < 0)
            break;
        rc = 0;
        char *full = byoc_xasprintf("%s/%s", u->tmp, rel);
        if (unlink(full) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, "results", "%s: cannot remove: %s", full, strerror(errno));
        free(full);
        if (rc != 0)
            break;
    }
    byoc_strv_clear(&u->out->links);
    u->out->links = kept;
    return rc;
}

/* A limit from the environment: a count with an optional k, M, G or T (powers of 1024). */
static int env_limit(const char *name, uint64_t fallback, uint64_t *out, byoc_err *err)
{
    const char *v = getenv(name);
    *out = fallback;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: break;
    }
    if (errno || end == v || *end || v[0] == '-' || n == 0 || n > (UINT64_MAX >> shift))
        return byoc_err_set(err, BYOC_E_USAGE, name, "'%s' is not a positive whole number (k, M, G or T may follow)",
                            v);
    *out = (uint64_t)n << shift;
    return 0;
}

static mode_t current_umask(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

static int unpack_from(const char *tarball, int fd, const char *dest, const byoc_unpack_limits *lim, byoc_task *t,
                       byoc_unpacked *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    const byoc_archive_api *ar = byoc_archive_api_get(err);
    if (!ar)
        return -1;
    if (byoc_results_check_dest(dest, err) != 0)
        return -1;
    unpack u = {.tarball = tarball, .task = t, .out = out};
    if (lim)
        u.lim = *lim;
    u.lim.max_entries = lim && lim->max_entries ? lim->max_entries : DEFAULT_MAX_ENTRIES;
    if ((!u.lim.max_bytes && env_limit(BYOC_RESULTS_MAX_BYTES_ENV, DEFAULT_MAX_BYTES, &u.lim.max_bytes, err) != 0) ||
        (!u.lim.max_ratio && env_limit(BYOC_RESULTS_MAX_RATIO_ENV, DEFAULT_MAX_RATIO, &u.lim.max_ratio, err) != 0))
        return -1;

    char *dest_copy = byoc_xstrdup(dest);
    char *base_copy = byoc_xstrdup(dest);
    const char *parent = dirname(dest_copy);
    u.disk_cap = byoc_fs_space_cap(parent);
    u.tmp = byoc_xasprintf("%s/.%s.partial-XXXXXX", parent, basename(base_copy));
    free(dest_copy);
    free(base_copy);
    if (!mkdtemp(u.tmp)) {
        int rc = byoc_err_set(err, BYOC_E_FAILED, dest, "cannot create a directory beside it: %s", strerror(errno));
        free(u.tmp);
        return rc;
    }
    /* A canonical path (no "..", no symlinks) for libarchive's guards. */
    char *real = realpath(u.tmp, NULL);
    if (real) {
        free(u.tmp);
        u.tmp = byoc_xstrdup(real);
        free(real);
    }

    struct archive *in = ar->archive_read_new();
    u.in = in;
    ar->archive_read_support_filter_all(in);
    ar->archive_read_support_format_tar(in);
    ar->archive_read_support_format_gnutar(in);
    struct archive *wr = ar->archive_write_disk_new();
    /* Our own checks above decide; libarchive's guards stay on as a second line.
     * (Not NOABSOLUTEPATHS: the paths we hand it are absolute by design.) */
    ar->archive_write_disk_set_options(wr, ARCHIVE_EXTRACT_TIME | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
                                           ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SPARSE);
    int rc;
    if ((fd < 0 ? ar->archive_read_open_filename(in, tarball, BLOCK) : ar->archive_read_open_fd(in, fd, BLOCK)) !=
        ARCHIVE_OK)
        rc = byoc_err_set(err, BYOC_E_FAILED, "results", "%s: cannot open: %s", tarball, ar->archive_error_string(in));
    else
        rc = unpack_entries(&u, in, wr, err);
    ar->archive_read_free(in);
    if (ar->archive_write_free(wr) != ARCHIVE_OK && rc == 0)
        rc = byoc_err_set(err, BYOC_E_FAILED, "results", "%s: unpacking did not complete", tarball);
    if (rc == 0)
        rc = check_links(&u, err);

    if (rc == 0) {
        chmod(u.tmp, 0777 & ~current_umask());
        struct stat st;
        if (lstat(dest, &st) == 0 && S_ISDIR(st.st_mode))
            rmdir(dest); /* empty, as checked */
        if (rename(u.tmp, dest) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, dest, "cannot move the results into place: %s", strerror(errno));
    }
    if (rc != 0) {
        byoc_remove_tree(u.tmp);
        byoc_unpacked_clear(out);
    } else {
        out->dir = byoc_xstrdup(dest);
    }
    byoc_strmap_clear(&u.paths);
    free(u.top);
    free(u.tmp);
    return rc;
}

int byoc_results_unpack(const char *tarball, const char *dest, const byoc_unpack_limits *lim, byoc_task *t,
                        byoc_unpacked *out, byoc_err *err)
{
    return unpack_from(tarball, -1, dest, lim, t, out, err);
}

int byoc_results_unpack_fd(int fd, const char *name, const char *dest, const byoc_unpack_limits *lim,
                           byoc_task *t, byoc_unpacked *out, byoc_err *err)
{
    return unpack_from(name, fd, dest, lim, t, out, err);
}

void byoc_unpacked_clear(byoc_unpacked *u)
{
    if (!u)
        return;
    free(u->dir);
    byoc_strv_clear(&u->files);
    byoc_strv_clear(&u->links);
    byoc_strv_clear(&u->skipped);
    byoc_strv_clear(&u->skipped_why);
    memset(u, 0, sizeof *u);
}

/* ---- results.json and the S3 key ------------------------------------------------- */

char *byoc_results_s3_uri(const char *s3_path)
{
    size_t n = strlen(s3_path);
    while (n > 0 && s3_path[n - 1] == '/')
        n--;
    return byoc_xasprintf("%.*s/output/" BYOC_RESULTS_TARBALL, (int)n, s3_path);
}

int byoc_results_read_json(const char *dir, json_t **out, byoc_err *err)
{
    *out = NULL;
    char *path = byoc_xasprintf("%s/" BYOC_RESULTS_JSON, dir);
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(path);
        return 0;
    }
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc) {
        int rc = byoc_err_set(err, BYOC_E_FAILED, path, "is not JSON (line %d: %s)", je.line, je.text);
        free(path);
        return rc;
    }
    free(path);
    json_t *data = json_object_get(doc, "dataDictionary");
    if (json_is_object(data) && json_object_get(doc, "braketSchemaHeader")) {
        *out = json_incref(data);
        json_decref(doc);
    } else {
        *out = doc;
    }
    return 0;
}

/* ---- download ------------------------------------------------------------------- */

/* The archive alone may be no larger than what it may unpack to: a bomb, or a
 * stream that never ends, stops at that bound (and the free disk) rather than
 * filling the disk before the unpacker's checks see an entry. */
static int get_to_file(byoc_aws_client *c, byoc_task *t, const char *uri, const char *path, byoc_err *err)
{
    byoc_s3_get_limit lim = {.setting = BYOC_RESULTS_MAX_BYTES_ENV};
    if (env_limit(BYOC_RESULTS_MAX_BYTES_ENV, DEFAULT_MAX_BYTES, &lim.max_bytes, err) != 0)
        return -1;
    char *bucket, *key;
    if (byoc_s3_parse_uri(uri, &bucket, &key) != 0)
        return byoc_err_set(err, BYOC_E_FAILED, "outputDataConfig.s3Path", "'%s' is not an S3 URI", uri);
    int rc = byoc_s3_get_object_to_file(c, t, bucket, key, path, &lim, err);
    free(bucket);
    free(key);
    return rc;
}

static bool no_such_key(const byoc_err *err)
{
    return strcmp(err->code, "NoSuchKey") == 0;
}

int byoc_results_fetch(byoc_aws_client *c, byoc_task *t, const char *job_name, const char *s3_path,
                       const char *dest, byoc_unpacked *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!s3_path || !*s3_path)
        return byoc_err_set(err, BYOC_E_FAILED, "results", "the job has no outputDataConfig.s3Path");
    if (byoc_results_check_dest(dest, err) != 0)
        return -1;
    char *dest_copy = byoc_xstrdup(dest);
    char *base_copy = byoc_xstrdup(dest);
    const char *parent = dirname(dest_copy);
    /* The Monitor's d fetches into <project>/results/<job>: the first time, results/ is not there yet. */
    if (byoc_mkdir_p(parent, 0755) != 0) {
        int rc = byoc_err_set(err, BYOC_E_FAILED, dest, "cannot create its directory %s: %s", parent, strerror(errno));
        free(dest_copy);
        free(base_copy);
        return rc;
    }
    char *tmp = byoc_xasprintf("%s/.%s.model-XXXXXX.tar.gz", parent, basename(base_copy));
    free(dest_copy);
    free(base_copy);
    int fd = mkstemps(tmp, 7);
    if (fd < 0) {
        int rc = byoc_err_set(err, BYOC_E_FAILED, dest, "cannot create a file beside it: %s", strerror(errno));
        free(tmp);
        return rc;
    }
    close(fd);

    char *uri = byoc_results_s3_uri(s3_path);
    byoc_task_status(t, "downloading %s", uri);
    int rc = get_to_file(c, t, uri, tmp, err);
    if (rc != 0 && no_such_key(err)) {
        /* SageMaker's layout, <s3Path>/<jobName>/output/model.tar.gz */
        size_t n = strlen(s3_path);
        while (n > 0 && s3_path[n - 1] == '/')
            n--;
        char *alt = byoc_xasprintf("%.*s/%s/output/" BYOC_RESULTS_TARBALL, (int)n, s3_path, job_name);
        byoc_err alt_err;
        byoc_err_clear(&alt_err);
        if (get_to_file(c, t, alt, tmp, &alt_err) == 0) {
            rc = 0;
            byoc_err_clear(err);
        } else if (no_such_key(&alt_err)) {
            byoc_err_set(err, BYOC_E_FAILED, "results",
                         "no results at %s: the job wrote nothing to /opt/ml/model, or has not finished", uri);
            snprintf(err->code, sizeof err->code, "NoSuchKey");
            err->http_status = 404;
        } else {
            *err = alt_err;
        }
        free(alt);
    }
    if (rc == 0) {
        byoc_task_status(t, "unpacking into %s", dest);
        rc = byoc_results_unpack(tmp, dest, NULL, t, out, err);
    }
    unlink(tmp);
    free(tmp);
    free(uri);
    return rc;
}

