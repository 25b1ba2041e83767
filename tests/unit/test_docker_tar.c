/* The build context: opening (paths, Dockerfile lookup, errors) and the tar
 * stream (entry order, types, modes, ownership, symlinks, hard links, long
 * and non-ASCII names through PAX, large files across chunk boundaries, the
 * end of archive), read back with libarchive and checked byte-wise. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/buf.h"
#include "docker/context.h"

static void write_file(const char *dir, const char *rel, const char *content, mode_t mode)
{
    char *p = byoc_xasprintf("%s/%s", dir, rel);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd >= 0) {
        if (write(fd, content, strlen(content)) < 0)
            perror("write");
        close(fd);
    }
    chmod(p, mode);
    free(p);
}

static void mk(const char *dir, const char *rel, mode_t mode)
{
    char *p = byoc_xasprintf("%s/%s", dir, rel);
    mkdir(p, mode);
    chmod(p, mode);
    free(p);
}

static void rm_rf(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("rm", "rm", "-rf", path, (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
}

/* Pull the whole tar through the reader in pieces of varying size. */
static byoc_buf read_tar(const byoc_context *c)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_context_tar *t = byoc_context_tar_new(c);
    static const size_t sizes[] = {1, 7, 511, 512, 4096, 65537, 3};
    char tmp[70000];
    for (size_t i = 0;; i++) {
        size_t want = sizes[i % (sizeof sizes / sizeof *sizes)];
        size_t k = byoc_context_tar_read(tmp, want, t);
        if (k == (size_t)-1) {
            check_fail(__FILE__, __LINE__, "tar read failed");
            break;
        }
        if (k == 0)
            break;
        CHECK(k <= want);
        byoc_buf_append(&b, tmp, k);
    }
    CHECK_INT(byoc_context_tar_bytes(t), b.len);
    byoc_context_tar_free(t);
    return b;
}

typedef struct {
    char name[400];
    mode_t mode;
    int64_t size;
    char link[300];
    char hardlink[300];
    uid_t uid;
    gid_t gid;
    time_t mtime;
    long mtime_nsec;
    char data[64];
} entry;

static size_t list_tar(const byoc_buf *b, entry *out, size_t max)
{
    struct archive *a = archive_read_new();
    archive_read_support_format_tar(a);
    archive_read_set_options(a, "hdrcharset=BINARY");
    CHECK_INT(archive_read_open_memory(a, b->data, b->len), ARCHIVE_OK);
    struct archive_entry *e;
    size_t n = 0;
    while (n < max && archive_read_next_header(a, &e) == ARCHIVE_OK) {
        entry *x = &out[n++];
        memset(x, 0, sizeof *x);
        snprintf(x->name, sizeof x->name, "%s", archive_entry_pathname(e));
        x->mode = archive_entry_mode(e);
        x->size = archive_entry_size(e);
        if (archive_entry_symlink(e))
            snprintf(x->link, sizeof x->link, "%s", archive_entry_symlink(e));
        if (archive_entry_hardlink(e))
            snprintf(x->hardlink, sizeof x->hardlink, "%s", archive_entry_hardlink(e));
        x->uid = (uid_t)archive_entry_uid(e);
        x->gid = (gid_t)archive_entry_gid(e);
        x->mtime = archive_entry_mtime(e);
        x->mtime_nsec = archive_entry_mtime_nsec(e);
        la_ssize_t r = archive_read_data(a, x->data, sizeof x->data - 1);
        if (r > 0)
            x->data[r] = 0;
    }
    CHECK_INT(archive_read_close(a), ARCHIVE_OK);
    archive_read_free(a);
    return n;
}

static const entry *find(const entry *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0)
            return &v[i];
    return NULL;
}

static void test_entries(void)
{
    char *dir = check_tmpdir();
    write_file(dir, "Dockerfile", "FROM scratch\n", 0644);
    write_file(dir, "run.sh", "#!/bin/sh\n", 0755);
    write_file(dir, "secret-ish", "x", 0600);
    write_file(dir, "empty", "", 0644);
    mk(dir, "sub", 0750);
    write_file(dir, "sub/a.txt", "A", 0644);
    mk(dir, "emptydir", 0700);
    write_file(dir, "with space.txt", "s", 0644);
    write_file(dir, "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "de.txt", "u", 0644);
    write_file(dir, "-leading-dash", "d", 0644);
    char longname[201];
    memset(longname, 'n', 200);
    longname[200] = 0;
    write_file(dir, longname, "L", 0644);
    /* a long path made of directories: > 255 bytes in all */
    char deep[400] = "";
    for (int i = 0; i < 6; i++) {
        strcat(deep, i ? "/d123456789012345678901234567890123456789" : "d123456789012345678901234567890123456789");
        mk(dir, deep, 0755);
    }
    char deepfile[450];
    snprintf(deepfile, sizeof deepfile, "%s/file.txt", deep);
    write_file(dir, deepfile, "deep", 0644);
    char *p = byoc_xasprintf("%s/link-rel", dir);
    CHECK(symlink("sub/a.txt", p) == 0);
    free(p);
    p = byoc_xasprintf("%s/link-dangling-abs", dir);
    CHECK(symlink("/nonexistent/target", p) == 0);
    free(p);
    char longtarget[200];
    memset(longtarget, 't', 150);
    longtarget[150] = 0;
    p = byoc_xasprintf("%s/link-long", dir);
    CHECK(symlink(longtarget, p) == 0);
    free(p);
    p = byoc_xasprintf("%s/link-dir", dir);
    CHECK(symlink("sub", p) == 0);
    free(p);
    char *a = byoc_xasprintf("%s/hard1", dir), *b2 = byoc_xasprintf("%s/hard2", dir);
    write_file(dir, "hard1", "same inode", 0644);
    CHECK(link(a, b2) == 0);
    free(a);
    free(b2);
    p = byoc_xasprintf("%s/fifo", dir);
    CHECK(mkfifo(p, 0644) == 0);
    free(p);
    /* a socket is skipped, as the CLI skips it */
    p = byoc_xasprintf("%s/sock", dir);
    int sfd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p);
    CHECK(bind(sfd, (struct sockaddr *)&sa, sizeof sa) == 0);
    free(p);
    /* a file larger than the copy chunk */
    p = byoc_xasprintf("%s/big.bin", dir);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char block[4096];
    for (int i = 0; i < 70; i++) {
        memset(block, 'a' + i % 26, sizeof block);
        CHECK(write(fd, block, sizeof block) == (ssize_t)sizeof block);
    }
    CHECK(write(fd, "tail", 4) == 4);
    close(fd);
    free(p);

    byoc_context *c;
    byoc_err err;
    CHECK_INT(byoc_context_open(dir, NULL, &c, &err), 0);
    byoc_context_stats st;
    CHECK_INT(byoc_context_scan(c, &st, &err), 0);
    CHECK_INT(st.bytes, 70 * 4096 + 4 + strlen("FROM scratch\n") + 10 + 1 + 1 + 1 + 1 + 1 + 1 + 4 + 10 + 10);

    byoc_buf tar = read_tar(c);
    /* the end: two zero blocks, no padding beyond, 512-byte records */
    CHECK(tar.len % 512 == 0);
    CHECK(tar.len >= 1024);
    static const char zeros[1024];
    CHECK(memcmp(tar.data + tar.len - 1024, zeros, 1024) == 0);
    CHECK(tar.len < 1536 || memcmp(tar.data + tar.len - 1536, zeros, 512) != 0);
    /* USTAR headers, never GNU long-name entries */
    CHECK(memcmp(tar.data + 257, "ustar\0" "00", 8) == 0);
    for (size_t off = 0; off + 512 <= tar.len; off += 512) {
        char type = tar.data[off + 156];
        CHECK(type != 'L' && type != 'K');
    }

    entry v[64];
    size_t n = list_tar(&tar, v, 64);
    CHECK_INT(n, st.entries);
    /* lexical order, directory before its children */
    for (size_t i = 1; i < n; i++) {
        char x[401], y[401];
        if ((size_t)snprintf(x, sizeof x, "%s", v[i - 1].name) >= sizeof x ||
            (size_t)snprintf(y, sizeof y, "%s", v[i].name) >= sizeof y)
            check_fail(__FILE__, __LINE__, "a name longer than the test expects");
        size_t lx = strlen(x), ly = strlen(y);
        if (lx && x[lx - 1] == '/')
            x[lx - 1] = 0;
        if (ly && y[ly - 1] == '/')
            y[ly - 1] = 0;
        if (strcmp(x, y) >= 0)
            check_fail(__FILE__, __LINE__, "order: %s before %s", x, y);
    }
    for (size_t i = 0; i < n; i++) {
        CHECK_INT(v[i].uid, 0);
        CHECK_INT(v[i].gid, 0);
        CHECK_INT(v[i].mtime_nsec, 0);
        CHECK(v[i].name[0] != '/' && strncmp(v[i].name, "./", 2) != 0);
    }
    const entry *e;
    CHECK((e = find(v, n, "run.sh")) && (e->mode & 07777) == 0755 && S_ISREG(e->mode));
    CHECK((e = find(v, n, "secret-ish")) && (e->mode & 07777) == 0600);
    CHECK((e = find(v, n, "empty")) && e->size == 0);
    CHECK((e = find(v, n, "sub/")) && S_ISDIR(e->mode) && (e->mode & 07777) == 0750);
    CHECK((e = find(v, n, "emptydir/")) && S_ISDIR(e->mode));
    CHECK((e = find(v, n, "sub/a.txt")) && strcmp(e->data, "A") == 0);
    CHECK((e = find(v, n, "with space.txt")) && strcmp(e->data, "s") == 0);
    CHECK((e = find(v, n, "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb6" "de.txt")) && strcmp(e->data, "u") == 0);
    CHECK((e = find(v, n, "-leading-dash")) != NULL);
    CHECK((e = find(v, n, longname)) && strcmp(e->data, "L") == 0);
    CHECK((e = find(v, n, deepfile)) && strcmp(e->data, "deep") == 0);
    CHECK((e = find(v, n, "link-rel")) && S_ISLNK(e->mode) && strcmp(e->link, "sub/a.txt") == 0);
    CHECK((e = find(v, n, "link-dangling-abs")) && strcmp(e->link, "/nonexistent/target") == 0);
    CHECK((e = find(v, n, "link-long")) && strcmp(e->link, longtarget) == 0);
    CHECK((e = find(v, n, "link-dir")) && S_ISLNK(e->mode) && strcmp(e->link, "sub") == 0);
    CHECK((e = find(v, n, "hard1")) && e->size == 10 && strcmp(e->data, "same inode") == 0);
    CHECK((e = find(v, n, "hard2")) && strcmp(e->hardlink, "hard1") == 0 && e->size == 0);
    CHECK((e = find(v, n, "fifo")) && S_ISFIFO(e->mode));
    CHECK(find(v, n, "sock") == NULL);
    CHECK((e = find(v, n, "big.bin")) && e->size == 70 * 4096 + 4);
    /* names over 100 bytes and non-ASCII names travel in PAX 'x' headers */
    size_t pax = 0;
    for (size_t off = 0; off + 512 <= tar.len; off += 512)
        if (tar.data[off + 156] == 'x' && memcmp(tar.data + off + 257, "ustar", 5) == 0)
            pax++;
    CHECK(pax >= 3);

    /* the big file's content is intact */
    struct archive *ar = archive_read_new();
    archive_read_support_format_tar(ar);
    archive_read_open_memory(ar, tar.data, tar.len);
    struct archive_entry *ae;
    bool checked = false;
    while (archive_read_next_header(ar, &ae) == ARCHIVE_OK) {
        if (strcmp(archive_entry_pathname(ae), "big.bin") != 0)
            continue;
        char *buf = malloc(70 * 4096 + 4);
        CHECK(archive_read_data(ar, buf, 70 * 4096 + 4) == 70 * 4096 + 4);
        bool ok = true;
        for (int i = 0; i < 70; i++)
            for (int k = 0; k < 4096; k++)
                ok &= buf[i * 4096 + k] == 'a' + i % 26;
        CHECK(ok && memcmp(buf + 70 * 4096, "tail", 4) == 0);
        free(buf);
        checked = true;
    }
    CHECK(checked);
    archive_read_free(ar);

    byoc_buf_clear(&tar);
    byoc_context_free(c);
    close(sfd);
    rm_rf(dir);
    free(dir);
}

static void test_open_errors(void)
{
    char *dir = check_tmpdir();
    byoc_context *c = NULL;
    byoc_err err;

    char *missing = byoc_xasprintf("%s/nope", dir);
    CHECK_INT(byoc_context_open(missing, NULL, &c, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "context");
    free(missing);

    write_file(dir, "file", "x", 0644);
    char *file = byoc_xasprintf("%s/file", dir);
    CHECK_INT(byoc_context_open(file, NULL, &c, &err), -1);
    CHECK(strstr(err.message, "not a directory") != NULL);

    /* no Dockerfile */
    CHECK_INT(byoc_context_open(dir, NULL, &c, &err), -1);
    CHECK(strstr(err.message, "cannot locate Dockerfile") != NULL);

    /* lower-case dockerfile is the fallback */
    write_file(dir, "dockerfile", "FROM scratch\n", 0644);
    CHECK_INT(byoc_context_open(dir, NULL, &c, &err), 0);
    CHECK_STR(byoc_context_dockerfile(c), "dockerfile");
    byoc_context_free(c);

    /* -f outside the context */
    mk(dir, "ctx", 0755);
    char *ctx = byoc_xasprintf("%s/ctx", dir), *outside = byoc_xasprintf("%s/dockerfile", dir);
    CHECK_INT(byoc_context_open(ctx, outside, &c, &err), -1);
    CHECK_STR(err.what, "--file");
    CHECK(strstr(err.message, "outside the build context") != NULL);
    /* -f that is a directory */
    CHECK_INT(byoc_context_open(dir, ctx, &c, &err), -1);
    CHECK_STR(err.what, "--file");
    /* -f relative to the current directory, and through a symlink inside */
    write_file(dir, "ctx/Build.df", "FROM scratch\n", 0644);
    char *lnk = byoc_xasprintf("%s/ctx/df-link", dir);
    CHECK(symlink("Build.df", lnk) == 0);
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(dir) == 0);
    CHECK_INT(byoc_context_open("ctx", "ctx/df-link", &c, &err), 0);
    CHECK_STR(byoc_context_dockerfile(c), "Build.df");
    byoc_context_free(c);
    CHECK(chdir(cwd) == 0);
    /* a bad .dockerignore pattern */
    write_file(dir, "ctx/.dockerignore", "ok\n[\n", 0644);
    char *df = byoc_xasprintf("%s/ctx/Build.df", dir);
    CHECK_INT(byoc_context_open(ctx, df, &c, &err), -1);
    CHECK_STR(err.what, ".dockerignore");
    free(df);
    free(lnk);
    free(ctx);
    free(outside);
    free(file);
    rm_rf(dir);
    free(dir);
}

/* As a non-root user, an unreadable file fails the scan (root reads anything). */
static void test_unreadable(void)
{
    if (geteuid() == 0)
        return;
    char *dir = check_tmpdir();
    write_file(dir, "Dockerfile", "FROM scratch\n", 0644);
    write_file(dir, "locked", "x", 0000);
    byoc_context *c;
    byoc_err err;
    CHECK_INT(byoc_context_open(dir, NULL, &c, &err), 0);
    byoc_context_stats st;
    CHECK_INT(byoc_context_scan(c, &st, &err), -1);
    CHECK(strstr(err.message, "no permission to read") != NULL);
    byoc_context_free(c);
    rm_rf(dir);
    free(dir);
}

int main(void)
{
    test_entries();
    test_open_errors();
    test_unreadable();
    return check_done();
}
