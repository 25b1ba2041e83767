/* source.tar.gz as the SDK makes it: gzip tar, a file at the root, a
 * directory under its own name (sorted), symlinks followed, loops and broken
 * links refused. Read back with libarchive. */
#include "check.h"

#include <archive.h>
#include <archive_entry.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/source_archive.h"
#include "core/buf.h"

static char *dir;

static void write_file(const char *rel, const char *text)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
}

static void make_dir(const char *rel)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    mkdir(p, 0755);
}

static void make_link(const char *target, const char *rel)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    CHECK_INT(symlink(target, p), 0);
}

static char *path_of(const char *rel)
{
    return byoc_xasprintf("%s/%s", dir, rel);
}

/* "name[=content] name/ ..." of an archive, and whether it is a gzip tar. */
static char *listing(const char *archive_path, bool *gzip_tar)
{
    struct archive *a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_all(a);
    byoc_buf out = BYOC_BUF_INIT;
    *gzip_tar = false;
    if (archive_read_open_filename(a, archive_path, 16384) != ARCHIVE_OK) {
        archive_read_free(a);
        return byoc_xstrdup("(unreadable)");
    }
    struct archive_entry *e;
    while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
        if (out.len)
            byoc_buf_putc(&out, ' ');
        byoc_buf_puts(&out, archive_entry_pathname(e));
        mode_t type = archive_entry_filetype(e);
        if (type == AE_IFREG) {
            char buf[256];
            ssize_t n = archive_read_data(a, buf, sizeof buf - 1);
            buf[n > 0 ? n : 0] = '\0';
            byoc_buf_printf(&out, "=%s", buf);
        } else if (type == AE_IFLNK) {
            byoc_buf_puts(&out, "@symlink");
        } else if (type != AE_IFDIR) {
            byoc_buf_puts(&out, "?");
        }
        if (archive_entry_hardlink(e))
            byoc_buf_puts(&out, "@hardlink");
    }
    *gzip_tar = archive_filter_code(a, 0) == ARCHIVE_FILTER_GZIP &&
                (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR;
    archive_read_free(a);
    return byoc_buf_steal(&out);
}

static char *build(const char *rel, byoc_err *err, byoc_archive_stats *st)
{
    char *src = path_of(rel);
    char *out = NULL;
    int rc = byoc_source_archive_build(src, NULL, &out, st, err);
    free(src);
    return rc == 0 ? out : NULL;
}

static void test_single_file(void)
{
    byoc_err err;
    byoc_archive_stats st;
    char *a = build("algo.py", &err, &st);
    CHECK(a != NULL);
    if (!a)
        return;
    struct stat sb;
    CHECK_INT(stat(a, &sb), 0);
    CHECK_INT(sb.st_mode & 0777, 0600);
    bool gz;
    char *l = listing(a, &gz);
    CHECK(gz);
    CHECK_STR(l, "algo.py=print('hi')\n");
    CHECK_INT(st.files, 1);
    CHECK_INT(st.bytes_in, 12);
    CHECK_INT((long long)st.bytes_out, (long long)sb.st_size);
    free(l);
    char *tmpdir = byoc_xstrdup(a);
    *strrchr(tmpdir, '/') = '\0';
    byoc_source_archive_remove(a);
    CHECK(access(tmpdir, F_OK) != 0);
    free(tmpdir);
}

static void test_directory(void)
{
    byoc_err err;
    char *a = build("pkg", &err, NULL);
    CHECK(a != NULL);
    if (!a) {
        fprintf(stderr, "%s: %s\n", err.what, err.message);
        return;
    }
    bool gz;
    char *l = listing(a, &gz);
    CHECK(gz);
    /* Sorted by name at each level; links replaced by what they point to. */
    CHECK_STR(l, "pkg/ pkg/__init__.py= pkg/a.py=A pkg/ext/ pkg/ext/x.py=X pkg/link.py=A pkg/sub/ "
                 "pkg/sub/m.py=M");
    free(l);
    byoc_source_archive_remove(a);
}

static void test_symlinked_module(void)
{
    byoc_err err;
    char *a = build("alias.py", &err, NULL);
    CHECK(a != NULL);
    if (!a)
        return;
    bool gz;
    char *l = listing(a, &gz);
    CHECK_STR(l, "algo.py=print('hi')\n");
    free(l);
    byoc_source_archive_remove(a);
}

/* A module of "." in a git checkout: the repository's history stays home. */
static void test_vcs_left_out(void)
{
    make_dir("proj");
    make_dir("proj/.git");
    make_dir("proj/.git/objects");
    write_file("proj/.git/config", "[remote \"origin\"]\n\turl = https://user:token@example.com/r.git\n");
    write_file("proj/.git/objects/ab", "blob");
    write_file("proj/.gitignore", "build/\n");
    make_dir("proj/.hg");
    write_file("proj/.hg/store", "h");
    make_dir("proj/vendored");
    write_file("proj/vendored/.git", "gitdir: ../.git/modules/vendored\n"); /* a submodule's link */
    write_file("proj/vendored/lib.py", "L");
    write_file("proj/main.py", "M");
    byoc_err err;
    byoc_archive_stats st;
    char *a = build("proj", &err, &st);
    CHECK(a != NULL);
    if (!a)
        return;
    bool gz;
    char *l = listing(a, &gz);
    CHECK_STR(l, "proj/ proj/.gitignore=build/\n proj/main.py=M proj/vendored/ proj/vendored/lib.py=L");
    CHECK_INT(st.skipped, 3);
    free(l);
    byoc_source_archive_remove(a);
    /* named as the module itself, it is taken as asked */
    a = build("proj/.hg", &err, NULL);
    CHECK(a != NULL);
    if (!a)
        return;
    l = listing(a, &gz);
    CHECK_STR(l, ".hg/ .hg/store=h");
    free(l);
    byoc_source_archive_remove(a);
}

static void test_refusals(void)
{
    byoc_err err;
    byoc_err_clear(&err);
    CHECK(build("loop", &err, NULL) == NULL);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--source-module");
    CHECK(strstr(err.message, "symlink loop") != NULL);

    byoc_err_clear(&err);
    CHECK(build("broken", &err, NULL) == NULL);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK(strstr(err.message, "broken symlink") != NULL);

    byoc_err_clear(&err);
    CHECK(build("missing.py", &err, NULL) == NULL);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK(strstr(err.message, "not found") != NULL);

    /* A failed write leaves no file behind. */
    char *src = path_of("broken");
    char *out = path_of("out.tar.gz");
    CHECK_INT(byoc_source_archive_write(src, out, NULL, NULL, &err), -1);
    CHECK(access(out, F_OK) != 0);
    free(src);
    free(out);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

int main(void)
{
    dir = check_tmpdir();
    write_file("algo.py", "print('hi')\n");
    make_link("algo.py", "alias.py");
    make_dir("pkg");
    make_dir("pkg/sub");
    make_dir("outside");
    write_file("pkg/__init__.py", "");
    write_file("pkg/a.py", "A");
    write_file("pkg/sub/m.py", "M");
    write_file("outside/x.py", "X");
    make_link("a.py", "pkg/link.py");
    make_link("../outside", "pkg/ext");
    make_dir("loop");
    make_dir("loop/d");
    make_link("..", "loop/d/up");
    make_dir("broken");
    make_link("nowhere.py", "broken/dangling.py");

    test_single_file();
    test_directory();
    test_symlinked_module();
    test_refusals();
    test_vcs_left_out();
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
    return check_done();
}
