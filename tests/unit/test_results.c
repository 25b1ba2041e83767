/* results: unpacking model.tar.gz never writes outside the destination.
 * Hostile archives are made here with libarchive: absolute paths, "..",
 * a symlink leading out and a file written through it, hard links leading
 * out, device nodes and FIFOs; a well-formed one unpacks whole. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "byoc/results.h"
#include "core/buf.h"
#include "core/fs.h"
#include "check.h"

static char *root; /* the test's temporary directory */

typedef struct spec {
    const char *path;
    char type;              /* f file, d dir, l symlink, h hardlink, c char device, p fifo */
    const char *data;       /* file contents, or the link target */
} spec;

static char *write_tarball(const char *name, const spec *entries, size_t n)
{
    char *path = NULL;
    if (asprintf(&path, "%s/%s", root, name) < 0)
        abort();
    struct archive *a = archive_write_new();
    archive_write_add_filter_gzip(a);
    archive_write_set_format_pax_restricted(a);
    archive_write_open_filename(a, path);
    for (size_t i = 0; i < n; i++) {
        const spec *s = &entries[i];
        struct archive_entry *e = archive_entry_new();
        archive_entry_set_pathname(e, s->path);
        archive_entry_set_mtime(e, 1700000000, 0);
        switch (s->type) {
        case 'f':
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, 06755); /* set-id bits must not survive */
            archive_entry_set_size(e, (la_int64_t)strlen(s->data));
            break;
        case 'd':
            archive_entry_set_filetype(e, AE_IFDIR);
            archive_entry_set_perm(e, 0755);
            break;
        case 'l':
            archive_entry_set_filetype(e, AE_IFLNK);
            archive_entry_set_perm(e, 0777);
            archive_entry_set_symlink(e, s->data);
            break;
        case 'h':
            archive_entry_set_filetype(e, AE_IFREG);
            archive_entry_set_perm(e, 0644);
            archive_entry_set_hardlink(e, s->data);
            break;
        case 'c':
            archive_entry_set_filetype(e, AE_IFCHR);
            archive_entry_set_perm(e, 0666);
            archive_entry_set_rdevmajor(e, 1);
            archive_entry_set_rdevminor(e, 3);
            break;
        case 'p':
            archive_entry_set_filetype(e, AE_IFIFO);
            archive_entry_set_perm(e, 0644);
            break;
        }
        archive_write_header(a, e);
        if (s->type == 'f')
            archive_write_data(a, s->data, strlen(s->data));
        archive_entry_free(e);
    }
    archive_write_close(a);
    archive_write_free(a);
    return path;
}

static bool exists(const char *rel)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", root, rel);
    return lstat(path, &st) == 0;
}

/* Nothing but the tarballs and what the test made may be left in root. */
static int leftovers(void)
{
    DIR *d = opendir(root);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strstr(de->d_name, ".partial-"))
            n++;
    closedir(d);
    return n;
}

/* Write entries as root/<tarname> and unpack it into root/<destname> (dest, 4096 bytes). */
static int unpack_spec(const char *tarname, const spec *entries, size_t n, const char *destname, char *dest,
                       byoc_unpacked *u, byoc_err *err)
{
    char *tar = write_tarball(tarname, entries, n);
    snprintf(dest, 4096, "%s/%s", root, destname);
    byoc_err_clear(err);
    int rc = byoc_results_unpack(tar, dest, NULL, NULL, u, err);
    unlink(tar);
    free(tar);
    return rc;
}

static void expect_refused(const char *label, const spec *entries, size_t n, const char *why, const char *outside)
{
    char dest[4096];
    byoc_unpacked u;
    byoc_err err;
    int rc = unpack_spec("hostile.tar.gz", entries, n, "out", dest, &u, &err);
    if (rc == 0) {
        check_fail(__FILE__, __LINE__, "%s: unpacked, want refused", label);
        byoc_unpacked_clear(&u);
        return;
    }
    check_passed++;
    CHECK_INT(err.kind, BYOC_E_FAILED);
    if (!strstr(err.message, why))
        check_fail(__FILE__, __LINE__, "%s: message [%s] lacks [%s]", label, err.message, why);
    else
        check_passed++;
    CHECK(!exists("out"));
    if (outside && exists(outside))
        check_fail(__FILE__, __LINE__, "%s: %s was written outside the destination", label, outside);
    CHECK_INT(leftovers(), 0);
    CHECK_INT(u.files.n, 0);
}

static void test_hostile(void)
{
    char abs_target[4096];
    snprintf(abs_target, sizeof abs_target, "%s/abs-evil", root);

    spec absolute[] = {{"ok.txt", 'f', "fine"}, {abs_target, 'f', "evil"}};
    expect_refused("absolute path", absolute, 2, "absolute path", "abs-evil");

    spec dotdot[] = {{"../evil", 'f', "evil"}};
    expect_refused("../", dotdot, 1, "'..' component", "evil");

    spec dotdot_mid[] = {{"a/", 'd', ""}, {"a/../../evil2", 'f', "evil"}};
    expect_refused("a/../../", dotdot_mid, 2, "'..' component", "evil2");

    spec link_out[] = {{"link", 'l', ".."}, {"link/evil3", 'f', "evil"}};
    expect_refused("symlink escaping then a file through it", link_out, 2, "symbolic link that leads outside",
                   "evil3");

    spec link_abs[] = {{"etc", 'l', "/etc"}};
    expect_refused("absolute symlink", link_abs, 1, "leads outside", NULL);

    spec link_deep[] = {{"d/", 'd', ""}, {"d/l", 'l', "../x/../../outside"}};
    expect_refused("symlink escaping after a detour", link_deep, 2, "leads outside", NULL);

    spec through_inside_link[] = {{"sub/", 'd', ""}, {"alias", 'l', "sub"}, {"alias/f", 'f', "x"}};
    expect_refused("file below an inner symlink", through_inside_link, 3, "below a symbolic link", NULL);

    spec replace_link[] = {{"t.txt", 'f', "x"}, {"l", 'l', "t.txt"}, {"l", 'f', "overwrite"}};
    expect_refused("file replacing a symlink", replace_link, 3, "replaces a symbolic link", NULL);

    /* each link alone stays inside; followed through d/a (= d), d/b leaves */
    spec chain[] = {{"d/", 'd', ""}, {"d/a", 'l', "."}, {"d/b", 'l', "a/../.."}};
    expect_refused("symlink chain escaping", chain, 3, "through other links", NULL);
    spec chain_late[] = {{"d/", 'd', ""}, {"d/b", 'l', "a/../.."}, {"d/a", 'l', "."}};
    expect_refused("symlink chain escaping, links in the other order", chain_late, 3, "through other links",
                   NULL);
    spec loop[] = {{"l1", 'l', "l2"}, {"l2", 'l', "l1"}};
    expect_refused("symlink loop", loop, 2, "loops", NULL);
    spec over_dir[] = {{"dir/", 'd', ""}, {"dir/f", 'f', "x"}, {"dir", 'l', "."}};
    expect_refused("symlink over a directory", over_dir, 3, "over something unpacked before", NULL);

    spec twice[] = {{"f", 'f', "one"}, {"f", 'f', "two"}};
    expect_refused("a file twice", twice, 2, "appears twice", NULL);
    spec dir_over_file[] = {{"d", 'f', "x"}, {"d/", 'd', ""}};
    expect_refused("a directory over a file", dir_over_file, 2, "appears twice", NULL);
    spec file_over_dir[] = {{"d/x", 'f', "x"}, {"d", 'f', "y"}};
    expect_refused("a file over an implicit directory", file_over_dir, 2, "appears twice", NULL);
    spec below_file[] = {{"f", 'f', "x"}, {"f/g", 'f', "y"}};
    expect_refused("a file below a file", below_file, 2, "below a file", NULL);

    spec hard_out[] = {{"h", 'h', "../../etc/passwd"}};
    expect_refused("hardlink escaping", hard_out, 1, "hard link", NULL);

    spec hard_abs[] = {{"h", 'h', "/etc/passwd"}};
    expect_refused("absolute hardlink", hard_abs, 1, "hard link", NULL);

    spec hard_later[] = {{"h", 'h', "later.txt"}, {"later.txt", 'f', "x"}};
    expect_refused("hardlink to a later entry", hard_later, 2, "hard link", NULL);

    spec hard_to_link[] = {{"t", 'f', "x"}, {"l", 'l', "t"}, {"h", 'h', "l"}};
    expect_refused("hardlink to a symlink", hard_to_link, 3, "hard link", NULL);

    spec device[] = {{"null", 'c', ""}};
    expect_refused("device node", device, 1, "device node", NULL);

    spec fifo[] = {{"ok.txt", 'f', "x"}, {"pipe", 'p', ""}};
    expect_refused("fifo", fifo, 2, "FIFO", NULL);
}

static void test_good_archive(void)
{
    const char *results = "{\"braketSchemaHeader\": {\"name\": \"braket.jobs_data.persisted_job_data\", "
                          "\"version\": \"1\"}, \"dataDictionary\": {\"energy\": -0.2, \"converged\": true}, "
                          "\"dataFormat\": \"plaintext\"}";
    spec good[] = {
        {"./", 'd', ""},
        {"./sub/", 'd', ""},
        {"./results.json", 'f', results},
        {"./sub/", 'd', ""},
        {"./sub/data.bin", 'f', "0123456789"},
        {"./sub/again.bin", 'h', "sub/data.bin"},
        {"./latest", 'l', "sub/data.bin"},
        {"./sub/up", 'l', "../results.json"},
    };
    char *tar = write_tarball("model.tar.gz", good, sizeof good / sizeof *good);
    char dest[4096];
    snprintf(dest, sizeof dest, "%s/job-1", root);
    mkdir(dest, 0755); /* an empty directory is accepted */
    byoc_unpacked u;
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_results_unpack(tar, dest, NULL, NULL, &u, &err);
    if (rc)
        fprintf(stderr, "unpack: %s\n", err.message);
    CHECK_INT(rc, 0);
    CHECK_STR(u.dir, dest);
    CHECK_INT(u.files.n, 3);
    CHECK(byoc_strv_contains(&u.files, "results.json"));
    CHECK(byoc_strv_contains(&u.files, "sub/data.bin"));
    CHECK(byoc_strv_contains(&u.files, "sub/again.bin"));
    CHECK_INT(u.bytes, strlen(results) + 10);
    char path[4096 + 64];
    struct stat st;
    snprintf(path, sizeof path, "%s/sub/data.bin", dest);
    CHECK(stat(path, &st) == 0 && st.st_size == 10);
    CHECK((st.st_mode & 06000) == 0);
    snprintf(path, sizeof path, "%s/latest", dest);
    CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_INT(leftovers(), 0);

    json_t *data = NULL;
    CHECK_INT(byoc_results_read_json(dest, &data, &err), 0);
    CHECK(json_is_object(data));
    CHECK(json_real_value(json_object_get(data, "energy")) == -0.2);
    CHECK(json_is_true(json_object_get(data, "converged")));
    json_decref(data);
    byoc_unpacked_clear(&u);

    /* a second unpack into the same place is refused before anything happens */
    byoc_err_clear(&err);
    CHECK(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "already exists") != NULL);
    CHECK_INT(byoc_results_check_dest(dest, &err), -1);
    unlink(tar);
    free(tar);
}

static void test_limits_and_garbage(void)
{
    spec big[] = {{"a.bin", 'f', "0123456789"}, {"b.bin", 'f', "0123456789"}};
    char *tar = write_tarball("big.tar.gz", big, 2);
    char dest[4096];
    snprintf(dest, sizeof dest, "%s/limited", root);
    byoc_unpacked u;
    byoc_err err;
    byoc_unpack_limits by_bytes = {.max_bytes = 15};
    CHECK(byoc_results_unpack(tar, dest, &by_bytes, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "past 15 bytes") && strstr(err.message, "BYOC_RESULTS_MAX_BYTES"));
    setenv("BYOC_RESULTS_MAX_BYTES", "15", 1);
    CHECK(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "past 15 bytes") != NULL);
    setenv("BYOC_RESULTS_MAX_BYTES", "1x", 1);
    CHECK(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err) != 0);
    CHECK_STR(err.what, "BYOC_RESULTS_MAX_BYTES");
    setenv("BYOC_RESULTS_MAX_BYTES", "1k", 1);
    CHECK_INT(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err), 0);
    byoc_unpacked_clear(&u);
    byoc_remove_tree(dest);
    unsetenv("BYOC_RESULTS_MAX_BYTES");
    byoc_unpack_limits by_entries = {.max_entries = 1};
    CHECK(byoc_results_unpack(tar, dest, &by_entries, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "entries") != NULL);
    CHECK(!exists("limited"));
    unlink(tar);
    free(tar);

    char garbage[4096];
    snprintf(garbage, sizeof garbage, "%s/garbage.tar.gz", root);
    FILE *f = fopen(garbage, "w");
    fputs("this is not an archive at all, not even close\n", f);
    fclose(f);
    CHECK(byoc_results_unpack(garbage, dest, NULL, NULL, &u, &err) != 0);
    CHECK(!exists("limited"));
    CHECK_INT(leftovers(), 0);
    unlink(garbage);

    json_t *none = (json_t *)1;
    CHECK_INT(byoc_results_read_json(root, &none, &err), 0);
    CHECK(none == NULL);
}

static void test_s3_uri(void)
{
    char *u = byoc_results_s3_uri("s3://bucket/jobs/j/1700/data");
    CHECK_STR(u, "s3://bucket/jobs/j/1700/data/output/model.tar.gz");
    free(u);
    u = byoc_results_s3_uri("s3://bucket/out/");
    CHECK_STR(u, "s3://bucket/out/output/model.tar.gz");
    free(u);
}

static int rm_rf(const char *dir)
{
    char *argv[] = {"rm", "-rf", (char *)dir, NULL};
    pid_t pid = fork();
    if (pid == 0) {
        execvp("rm", argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

/* Unpack entries into a scratch destination that is removed again: the number
 * of files unpacked, or -1 (a check fails, naming label and the reason). */
static long expect_unpacked(const char *label, const spec *entries, size_t n)
{
    char dest[4096];
    byoc_unpacked u;
    byoc_err err;
    long files = -1;
    if (unpack_spec("accepted.tar.gz", entries, n, "accepted", dest, &u, &err) != 0) {
        check_fail(__FILE__, __LINE__, "%s: refused, want unpacked: %s", label, err.message);
    } else {
        check_passed++;
        files = (long)u.files.n;
        byoc_unpacked_clear(&u);
    }
    byoc_remove_tree(dest);
    return files;
}

/* Links inside a tree nested deeper than PATH_MAX are followed with directory
 * descriptors: a harmless one there is accepted, and a chain that leaves only
 * physically ("a" is ".", so "a/.." is one level above where it reads) is refused. */
static void test_deep_links(void)
{
    enum { DEPTH = 400 };
    byoc_buf deep = BYOC_BUF_INIT, up = BYOC_BUF_INIT;
    for (int i = 0; i < DEPTH; i++)
        byoc_buf_puts(&deep, i ? "/dddddddddd" : "dddddddddd");
    byoc_buf_puts(&up, "a/..");
    for (int i = 0; i < DEPTH; i++)
        byoc_buf_puts(&up, "/..");
    char a[4500], f[4500], c[4500], b[4500];
    snprintf(a, sizeof a, "%s/a", deep.data);
    snprintf(f, sizeof f, "%s/f", deep.data);
    snprintf(c, sizeof c, "%s/c", deep.data);
    snprintf(b, sizeof b, "%s/b", deep.data);

    spec fine[] = {{a, 'l', "."}, {f, 'f', "x"}, {c, 'l', "a/f"}};
    CHECK_INT(expect_unpacked("harmless links below PATH_MAX's depth", fine, 3), 1);

    spec escape[] = {{a, 'l', "."}, {b, 'l', up.data}};
    expect_refused("symlink chain escaping below PATH_MAX's depth", escape, 2, "through other links", NULL);
    byoc_buf_clear(&deep);
    byoc_buf_clear(&up);
}

/* Links 100 levels down, with the descriptor limit lowered to 40 (a walk that
 * held a descriptor a level would run out and have to refuse): a chain that
 * stays inside is accepted, and one that climbs back to root and one ".." more
 * is refused. */
static void test_links_past_descriptor_limit(void)
{
    enum { DEPTH = 100 };
    byoc_buf down = BYOC_BUF_INIT, climb = BYOC_BUF_INIT;
    for (int i = 0; i < DEPTH; i++) {
        byoc_buf_puts(&down, i ? "/d" : "d");
        byoc_buf_puts(&climb, i ? "/.." : "..");
    }
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a", down.data);
    snprintf(b, sizeof b, "%s/b", down.data);
    struct rlimit old, low;
    CHECK_INT(getrlimit(RLIMIT_NOFILE, &old), 0);
    low = old;
    low.rlim_cur = 40;
    CHECK_INT(setrlimit(RLIMIT_NOFILE, &low), 0);

    spec inside[] = {{"p", 'l', down.data}, {b, 'l', "../.."}, {"s", 'l', "p/b/d"}};
    expect_unpacked("a chain staying inside 100 levels down", inside, 3);

    spec escape[] = {{"p", 'l', down.data}, {a, 'l', climb.data}, {"s", 'l', "p/a/.."}};
    expect_refused("symlink chain escaping 100 levels down", escape, 3, "through other links", NULL);
    CHECK_INT(setrlimit(RLIMIT_NOFILE, &old), 0);
    byoc_buf_clear(&down);
    byoc_buf_clear(&climb);
}

/* The engine's archive of /opt/ml/model: everything below "model/". With
 * strip_top the links are judged from model's contents (where they end up),
 * so "up1 -> ../x" leads out; with skip_unsafe what is refused is skipped and
 * named, the rest unpacked. */
static void test_engine_layout(void)
{
    spec model[] = {
        {"model/", 'd', ""},
        {"model/good.txt", 'f', "good"},
        {"model/up1", 'l', "../x"},
        {"model/sub/", 'd', ""},
        {"model/sub/up2", 'l', "../../x"},
        {"model/sub/deep.txt", 'f', "deep"},
        {"model/sub/fine", 'l', "../good.txt"},
        {"model/pipe", 'p', ""},
        {"model/null", 'c', ""},
        {"model/hard", 'h', "model/good.txt"},
        {"other/evil", 'f', "evil"},
    };
    char *tar = write_tarball("engine.tar", model, sizeof model / sizeof *model);
    char dest[4096];
    snprintf(dest, sizeof dest, "%s/engine", root);
    byoc_unpacked u;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_unpack_limits strict = {.strip_top = true};
    CHECK(byoc_results_unpack(tar, dest, &strict, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "'up1'") && strstr(err.message, "leads outside"));
    CHECK(!exists("engine"));

    byoc_unpack_limits skip = {.strip_top = true, .skip_unsafe = true};
    int rc = byoc_results_unpack(tar, dest, &skip, NULL, &u, &err);
    if (rc)
        fprintf(stderr, "unpack: %s\n", err.message);
    CHECK_INT(rc, 0);
    CHECK_INT(u.files.n, 3);
    CHECK(byoc_strv_contains(&u.files, "good.txt") && byoc_strv_contains(&u.files, "sub/deep.txt"));
    CHECK(byoc_strv_contains(&u.files, "hard"));
    CHECK_INT(u.skipped.n, 5);
    CHECK_INT(u.skipped_why.n, 5);
    const char *want[] = {"up1", "sub/up2", "pipe", "null", "other/evil"};
    for (size_t i = 0; i < 5; i++)
        CHECK(byoc_strv_contains(&u.skipped, want[i]));
    CHECK(u.links.n == 1 && strcmp(u.links.v[0], "sub/fine") == 0);
    CHECK(exists("engine/good.txt") && exists("engine/sub/fine") && exists("engine/hard"));
    CHECK(!exists("engine/up1") && !exists("engine/sub/up2") && !exists("engine/pipe") && !exists("engine/null"));
    CHECK(!exists("engine/other") && !exists("engine/model"));
    CHECK(byoc_results_link_inside(dest, "sub/fine"));
    byoc_unpacked_clear(&u);
    byoc_remove_tree(dest);

    /* a chain that leads out only through another link: removed after the fact, and named */
    spec chain[] = {{"model/", 'd', ""}, {"model/d/", 'd', ""}, {"model/d/a", 'l', "."}, {"model/d/b", 'l', "a/../.."}};
    unlink(tar);
    free(tar);
    tar = write_tarball("engine.tar", chain, 4);
    CHECK_INT(byoc_results_unpack(tar, dest, &skip, NULL, &u, &err), 0);
    CHECK(u.skipped.n == 1 && strcmp(u.skipped.v[0], "d/b") == 0);
    CHECK(strstr(u.skipped_why.v[0], "through other links") != NULL);
    CHECK(!exists("engine/d/b") && exists("engine/d/a"));
    byoc_unpacked_clear(&u);
    byoc_remove_tree(dest);
    CHECK_INT(leftovers(), 0);
    unlink(tar);
    free(tar);
}

/* A tar (no compression) of one file: `data` bytes of zeros with "end" after
 * them, declared `size` bytes long; with `hole` the zeros are a sparse hole
 * (pax sparse map: a few bytes stand for any size). */
static char *zeros_tarball(const char *name, la_int64_t size, bool hole, bool gzip)
{
    char *path = NULL;
    if (asprintf(&path, "%s/%s", root, name) < 0)
        abort();
    struct archive *a = archive_write_new();
    if (gzip)
        archive_write_add_filter_gzip(a);
    archive_write_set_format_pax(a);
    archive_write_open_filename(a, path);
    struct archive_entry *e = archive_entry_new();
    archive_entry_set_pathname(e, "zeros.bin");
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, size);
    if (hole)
        archive_entry_sparse_add_entry(e, size - 3, 3);
    archive_write_header(a, e);
    static char block[65536];
    la_int64_t left = hole ? 0 : size - 3;
    while (left > 0) {
        size_t n = left < (la_int64_t)sizeof block ? (size_t)left : sizeof block;
        archive_write_data(a, block, n);
        left -= (la_int64_t)n;
    }
    archive_write_data(a, "end", 3);
    archive_entry_free(e);
    archive_write_close(a);
    archive_write_free(a);
    return path;
}

/* Bombs: a hole of 1 GiB in a few hundred bytes is past the ratio; a file
 * declared larger than the free disk is refused before its data; zeros the
 * archive carries are written as holes. */
static void test_bombs_and_holes(void)
{
    char dest[4096];
    snprintf(dest, sizeof dest, "%s/bomb", root);
    byoc_unpacked u;
    byoc_err err;
    byoc_err_clear(&err);

    char *tar = zeros_tarball("hole.tar", 1LL << 30, true, false);
    CHECK(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "decompression bomb") && strstr(err.message, "BYOC_RESULTS_MAX_RATIO"));
    CHECK(!exists("bomb"));
    byoc_unpack_limits loose = {.max_ratio = 1ULL << 40};
    CHECK_INT(byoc_results_unpack(tar, dest, &loose, NULL, &u, &err), 0);
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/zeros.bin", dest);
    CHECK(stat(path, &st) == 0 && st.st_size == (1LL << 30) && st.st_blocks * 512LL < (1LL << 20));
    byoc_unpacked_clear(&u);
    byoc_remove_tree(dest);
    unlink(tar);
    free(tar);

    tar = zeros_tarball("huge.tar", 1LL << 60, true, false);
    byoc_unpack_limits no_cap = {.max_bytes = UINT64_MAX, .max_ratio = UINT64_MAX};
    CHECK(byoc_results_unpack(tar, dest, &no_cap, NULL, &u, &err) != 0);
    CHECK(strstr(err.message, "free space") != NULL);
    CHECK(!exists("bomb"));
    unlink(tar);
    free(tar);

    /* what the engine sends for a sparse file: its zeros, in full */
    tar = zeros_tarball("zeros.tar", 4 << 20, false, false);
    CHECK_INT(byoc_results_unpack(tar, dest, NULL, NULL, &u, &err), 0);
    CHECK(stat(path, &st) == 0 && st.st_size == (4 << 20) && st.st_blocks * 512LL < (1 << 20));
    byoc_unpacked_clear(&u);
    byoc_remove_tree(dest);
    CHECK_INT(leftovers(), 0);
    unlink(tar);
    free(tar);
}

int main(void)
{
    root = check_tmpdir();
    test_hostile();
    test_deep_links();
    test_links_past_descriptor_limit();
    test_good_archive();
    test_limits_and_garbage();
    test_engine_layout();
    test_bombs_and_holes();
    test_s3_uri();
    rm_rf(root);
    free(root);
    return check_done();
}
