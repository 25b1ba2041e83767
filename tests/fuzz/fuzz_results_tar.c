/* fuzz_results_tar: unpacking a job's model.tar.gz (byoc/results.h), the one
 * place byoc writes files a remote party chose.
 *
 * Input: a mode byte (bit 0: structured entries; bit 1: skip_unsafe; bit 2:
 * strip_top, the engine's layout of one directory), then either
 *   - a raw tarball (any compression), exercising libarchive's readers; or
 *   - entries the target turns into a valid tar (checksums right, so the
 *     fuzzer spends its time on names and link targets): per entry a type
 *     byte (file, dir, symlink, hard link, FIFO, char device, block device),
 *     a permission byte (bit 0 exec, bit 1 group/other write, bit 7 set-id),
 *     the name and the link target as NUL-terminated strings,
 *     a length byte and that many content bytes.
 * Checks after every run, in a scratch tree holding the tarball, an
 * "outside" directory and the destination's parent:
 *   - nothing appeared anywhere but the destination; the parent holds the
 *     destination only on success and nothing on failure;
 *   - every symbolic link in the destination resolves inside it, following
 *     links component by component as the kernel would;
 *   - no set-id bits, no device nodes, FIFOs or sockets;
 *   - the files reported exist as regular files;
 *   - an archive with an absolute name or a ".." component, a symbolic or hard
 *     link to an absolute path, or a device node or FIFO is refused as a
 *     whole; with skip_unsafe it may be unpacked, but then with something
 *     skipped (and a reason for each). What counts is the entries as libarchive reads them back with the
 *     unpacker's formats, not as they were written: readers differ (a regular
 *     file named "a/" with data is a directory to libarchive, whose data block,
 *     all zeros, then reads as the end of the archive; GNU tar reads on). */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/results.h"
#include "core/fs.h"
#include "fuzz.h"

static char base[256];
static char tarball[300], outside[300], parent[300], dest[320];

/* core/fs's remover: a successful unpack may leave a tree deeper than PATH_MAX,
 * which nftw cannot remove (the next run would then find it in the way). */
static void remove_tree(const char *path)
{
    byoc_remove_tree(path);
}

static void cleanup(void)
{
    remove_tree(base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    fuzz_scratch_dir(base, sizeof base, "results");
    snprintf(tarball, sizeof tarball, "%s/in.tar", base);
    snprintf(outside, sizeof outside, "%s/outside", base);
    snprintf(parent, sizeof parent, "%s/work", base);
    snprintf(dest, sizeof dest, "%s/dest", parent);
    FUZZ_ASSERT(mkdir(outside, 0700) == 0);
    FUZZ_ASSERT(mkdir(parent, 0700) == 0);
    atexit(cleanup);
    return 0;
}

/* ---- building a tar from the structured input ---------------------------------- */

static la_ssize_t to_buf(struct archive *a, void *ud, const void *p, size_t n)
{
    (void)a;
    byoc_buf_append(ud, p, n);
    return (la_ssize_t)n;
}

static bool has_dotdot(const char *p)
{
    for (const char *s = p; *s;) {
        size_t n = strcspn(s, "/");
        if (n == 2 && s[0] == '.' && s[1] == '.')
            return true;
        s += n;
        if (*s == '/')
            s++;
    }
    return false;
}

static void build_tar(fuzz_in *in, byoc_buf *out)
{
    static const mode_t types[] = {AE_IFREG, AE_IFDIR, AE_IFLNK, 0 /* hard link */, AE_IFIFO, AE_IFCHR, AE_IFBLK};
    struct archive *a = archive_write_new();
    archive_write_set_format_pax_restricted(a);
    archive_write_open(a, out, NULL, to_buf, NULL);
    for (int i = 0; i < 32 && in->n > 0; i++) {
        unsigned kind = fuzz_byte(in) % (sizeof types / sizeof *types);
        unsigned mode = fuzz_byte(in);
        char *name = fuzz_str(in);
        char *target = fuzz_str(in);
        size_t len = fuzz_byte(in);
        if (len > in->n)
            len = in->n;
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, name);
        archive_entry_set_perm(e, 0644 | (mode & 1 ? 0111 : 0) | (mode & 2 ? 0022 : 0) | (mode & 0x80 ? 06000 : 0));
        if (types[kind] == 0) {
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_hardlink(e, target);
            archive_entry_set_size(e, 0);
        } else {
            archive_entry_set_filetype(e, types[kind]);
            if (types[kind] == AE_IFLNK)
                archive_entry_set_symlink(e, target);
            archive_entry_set_size(e, types[kind] == AE_IFREG ? (la_int64_t)len : 0);
        }
        archive_write_header(a, e);
        if (types[kind] == AE_IFREG && len)
            archive_write_data(a, in->p, len);
        in->p += len;
        in->n -= len;
        archive_entry_free(e);
        free(name);
        free(target);
    }
    archive_write_close(a);
    archive_write_free(a);
}

/* ---- checks ------------------------------------------------------------------------ */

/* Must the unpacker refuse the archive at path? Read as results.c reads it
 * (every filter, tar and GNU tar), up to the end or the first unreadable
 * header: an entry read before that with an absolute or ".." name, a link to
 * an absolute path (or a hard link with a ".." target), or a device or FIFO. */
static bool must_refuse(const char *path)
{
    struct archive *a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    bool refuse = false;
    if (archive_read_open_filename(a, path, 10240) == ARCHIVE_OK) {
        struct archive_entry *e;
        while (!refuse && archive_read_next_header(a, &e) >= ARCHIVE_WARN) {
            const char *name = archive_entry_pathname(e);
            const char *hard = archive_entry_hardlink(e);
            const char *sym = archive_entry_filetype(e) == AE_IFLNK ? archive_entry_symlink(e) : NULL;
            mode_t type = archive_entry_filetype(e);
            refuse = (name && (name[0] == '/' || has_dotdot(name))) || (hard && (hard[0] == '/' || has_dotdot(hard))) ||
                     (!hard && sym && sym[0] == '/') ||
                     (!hard && (type == AE_IFIFO || type == AE_IFCHR || type == AE_IFBLK));
        }
    }
    archive_read_free(a);
    return refuse;
}

static size_t dir_entries(const char *path, char names[][64], size_t max)
{
    DIR *d = opendir(path);
    FUZZ_ASSERT(d != NULL);
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (n < max)
            snprintf(names[n], 64, "%.63s", de->d_name);
        n++;
    }
    closedir(d);
    return n;
}

/* lstat and readlink of root/rel without building the full path: an archive may
 * nest entries deeper than PATH_MAX (the unpacker handles that), where the joined
 * path fails with ENAMETOOLONG. Walks with O_PATH descriptors, never following a
 * symbolic link; st or link (of link_size) is filled. 0 (or the link's length), or -1. */
static ssize_t look_below(const char *root, const char *rel, struct stat *st, char *link, size_t link_size)
{
    int dir = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return -1;
    char *copy = byoc_xstrdup(rel), *save = NULL, *next;
    char *comp = strtok_r(copy, "/", &save);
    ssize_t rc = -1;
    while (comp) {
        next = strtok_r(NULL, "/", &save);
        if (!next) {
            rc = st ? fstatat(dir, comp, st, AT_SYMLINK_NOFOLLOW) : link ? readlinkat(dir, comp, link, link_size) : -1;
            break;
        }
        int sub = openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(dir);
        dir = sub;
        if (dir < 0)
            break;
        comp = next;
    }
    if (dir >= 0)
        close(dir);
    free(copy);
    return rc;
}

static int lstat_below(const char *root, const char *rel, struct stat *st)
{
    char unused[1];
    return (int)look_below(root, rel, st, unused, sizeof unused);
}

/* Does relpath (inside root) resolve inside root, links followed as the kernel does?
 * Components that do not exist are taken lexically (the kernel would fail there).
 * Each level walked keeps an O_PATH descriptor (-1 where nothing is there), so a
 * step is one readlinkat and one openat. */
static bool resolves_inside(const char *root, const char *relpath)
{
    enum { MAX_DEPTH = 64 };
    int fds[MAX_DEPTH + 1];
    fds[0] = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    FUZZ_ASSERT(fds[0] >= 0);
    int depth = 0, hops = 0;
    byoc_buf todo = BYOC_BUF_INIT;
    byoc_buf_puts(&todo, relpath);
    bool inside = true;
    size_t pos = 0;
    while (pos < todo.len) {
        const char *c = todo.data + pos;
        const char *slash = memchr(c, '/', todo.len - pos);
        size_t n = slash ? (size_t)(slash - c) : todo.len - pos;
        pos += n + (slash ? 1 : 0);
        char comp[256];
        snprintf(comp, sizeof comp, "%.*s", (int)(n < 255 ? n : 255), c);
        if (!comp[0] || !strcmp(comp, "."))
            continue;
        if (!strcmp(comp, "..")) {
            if (depth == 0) {
                inside = false;
                break;
            }
            if (fds[depth] >= 0)
                close(fds[depth]);
            depth--;
            continue;
        }
        if (depth == MAX_DEPTH)
            break;
        int dir = fds[depth];
        char target[4096];
        ssize_t tl = dir >= 0 ? readlinkat(dir, comp, target, sizeof target - 1) : -1;
        if (tl < 0) { /* not a link (or absent): a plain component */
            fds[++depth] = dir >= 0 ? openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
            continue;
        }
        target[tl] = '\0';
        if (target[0] == '/') {
            inside = false;
            break;
        }
        if (++hops > 40)
            break; /* a loop: the kernel gives ELOOP, nothing escapes */
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
    for (int i = 0; i <= depth; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    byoc_buf_clear(&todo);
    return inside;
}

static const char *walk_root;

static int check_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    struct stat deep;
    if (flag == FTW_NS) {               /* beyond PATH_MAX: look without the full path */
        const char *rel = path + strlen(walk_root);
        while (*rel == '/')
            rel++;
        FUZZ_ASSERT(lstat_below(walk_root, rel, &deep) == 0);
        st = &deep;
    }
    FUZZ_ASSERT(!(st->st_mode & (S_ISUID | S_ISGID)));
    FUZZ_ASSERT(S_ISREG(st->st_mode) || S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode));
    if (S_ISLNK(st->st_mode)) {
        const char *rel = path + strlen(walk_root);
        while (*rel == '/')
            rel++;
        if (!resolves_inside(walk_root, rel)) {
            char target[4096];
            ssize_t n = readlink(path, target, sizeof target - 1);
            target[n < 0 ? 0 : n] = '\0';
            fprintf(stderr, "symbolic link %s -> %s resolves outside the destination\n", rel, target);
            FUZZ_ASSERT(!"a symbolic link escapes the destination");
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned mode = fuzz_byte(&in);
    byoc_buf tar = BYOC_BUF_INIT;
    if (mode & 1)
        build_tar(&in, &tar);
    else
        byoc_buf_append(&tar, in.p, in.n);
    int fd = open(tarball, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    FUZZ_ASSERT(fd >= 0);
    if (tar.len)
        FUZZ_ASSERT(write(fd, tar.data, tar.len) == (ssize_t)tar.len);
    close(fd);
    byoc_buf_clear(&tar);

    byoc_unpack_limits lim = {.max_bytes = 1 << 20, .max_entries = 64, .skip_unsafe = mode & 2, .strip_top = mode & 4};
    byoc_unpacked out;
    byoc_err err;
    byoc_err_clear(&err);
    bool refuse = must_refuse(tarball);
    int rc = byoc_results_unpack(tarball, dest, &lim, NULL, &out, &err);

    char names[4][64];
    FUZZ_ASSERT(dir_entries(outside, names, 4) == 0);
    size_t nb = dir_entries(base, names, 4);
    FUZZ_ASSERT(nb == 3);
    size_t np = dir_entries(parent, names, 4);
    bool noticed = rc == 0 && lim.skip_unsafe && out.skipped.n > 0;
    if (rc == 0 && refuse && !noticed)
        fprintf(stderr, "an archive with an absolute or '..' name, an absolute link or a device was accepted\n");
    FUZZ_ASSERT(!(rc == 0 && refuse && !noticed));
    if (rc == 0) {
        FUZZ_ASSERT(out.skipped.n == out.skipped_why.n);
        FUZZ_ASSERT(lim.skip_unsafe || out.skipped.n == 0);
        FUZZ_ASSERT(np == 1 && strcmp(names[0], "dest") == 0);
        FUZZ_ASSERT(out.dir && strcmp(out.dir, dest) == 0);
        walk_root = dest;
        nftw(dest, check_one, 16, FTW_PHYS);
        for (size_t i = 0; i < out.files.n; i++) {
            struct stat st;
            FUZZ_ASSERT(lstat_below(dest, out.files.v[i], &st) == 0 && S_ISREG(st.st_mode));
        }
        json_t *j = NULL;
        byoc_err_clear(&err);
        byoc_results_read_json(dest, &j, &err);
        json_decref(j);
        byoc_unpacked_clear(&out);
    } else {
        if (np != 0)
            fprintf(stderr, "left behind after a refusal: %s\n", names[0]);
        FUZZ_ASSERT(np == 0);
        FUZZ_ASSERT(err.kind != BYOC_OK && err.message[0]);
    }
    remove_tree(dest);
    return 0;
}
