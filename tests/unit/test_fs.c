/* fs: byoc_remove_tree removes files, links (never what they point at),
 * wide directories and a chain nested deeper than PATH_MAX; a missing path is
 * not an error and a plain file is unlinked. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/buf.h"
#include "core/fs.h"

static char *root;

static char *at(const char *rel)
{
    char *p = NULL;
    if (asprintf(&p, "%s/%s", root, rel) < 0)
        abort();
    return p;
}

static bool exists(const char *rel)
{
    char *p = at(rel);
    struct stat st;
    bool yes = lstat(p, &st) == 0;
    free(p);
    return yes;
}

static void put(const char *rel, const char *text)
{
    char *p = at(rel);
    FILE *f = fopen(p, "w");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
    free(p);
}

static void make_dir(const char *rel)
{
    char *p = at(rel);
    if (mkdir(p, 0700) != 0)
        abort();
    free(p);
}

/* tree/deep/d/d/.../d/leaf: deeper than PATH_MAX, made with descriptors. */
static void make_deep_chain(int levels)
{
    char *p = at("tree/deep");
    int fd = open(p, O_RDONLY | O_DIRECTORY);
    free(p);
    for (int i = 0; i < levels && fd >= 0; i++) {
        if (mkdirat(fd, "dddddddddddddddddddd", 0700) != 0)
            abort();
        int next = openat(fd, "dddddddddddddddddddd", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = next;
    }
    if (fd < 0)
        abort();
    int leaf = openat(fd, "leaf", O_WRONLY | O_CREAT, 0600);
    close(leaf);
    close(fd);
}

static void test_tree(void)
{
    make_dir("outside");
    put("outside/keep", "must survive");
    make_dir("tree");
    make_dir("tree/wide");
    for (int i = 0; i < 1500; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "tree/wide/f%04d", i);
        put(rel, "x");
    }
    make_dir("tree/wide/sub");
    make_dir("tree/wide/sub/empty");
    put("tree/wide/sub/g", "y");
    char *target = at("outside");
    char *link = at("tree/to-outside");
    CHECK_INT(symlink(target, link), 0);
    free(link);
    link = at("tree/wide/sub/to-outside-file");
    char *file = at("outside/keep");
    CHECK_INT(symlink(file, link), 0);
    free(link);
    free(file);
    free(target);
    make_dir("tree/deep");
    make_deep_chain(PATH_MAX / 20 + 50); /* 21 bytes a level: well past PATH_MAX */
    char *tree = at("tree");
    CHECK_INT(byoc_remove_tree(tree), 0);
    free(tree);
    CHECK(!exists("tree"));
    CHECK(exists("outside/keep"));
}

static void test_edges(void)
{
    char *missing = at("no-such");
    CHECK_INT(byoc_remove_tree(missing), 0);
    free(missing);
    put("plain", "z");
    char *plain = at("plain");
    CHECK_INT(byoc_remove_tree(plain), 0);
    free(plain);
    CHECK(!exists("plain"));
    make_dir("empty");
    char *empty = at("empty");
    CHECK_INT(byoc_remove_tree(empty), 0);
    free(empty);
    CHECK(!exists("empty"));
    char *dangling = at("dangling");
    CHECK_INT(symlink("/nonexistent/target", dangling), 0);
    CHECK_INT(byoc_remove_tree(dangling), 0);
    free(dangling);
    CHECK(!exists("dangling"));
}

static char *identity(const char *rel)
{
    char *p = rel ? at(rel) : NULL;
    byoc_buf b = BYOC_BUF_INIT;
    byoc_fs_identity(&b, p);
    free(p);
    return byoc_buf_steal(&b);
}

/* A file's identity changes with its content's size or its mtime, and is "-" when there is none. */
static void test_identity(void)
{
    char *none = identity(NULL), *absent = identity("no-such-file");
    CHECK_STR(none, "-");
    CHECK_STR(absent, "-");
    put("id", "one");
    char *one = identity("id"), *same = identity("id");
    CHECK_STR(one, same);
    CHECK(strcmp(one, "-") != 0);
    put("id", "three");
    char *longer = identity("id");
    CHECK(strcmp(longer, one) != 0);
    char *p = at("id");
    struct timespec ts[2] = {{1000000, 5}, {1000000, 5}};
    CHECK_INT(utimensat(AT_FDCWD, p, ts, 0), 0);
    char *touched = identity("id");
    CHECK(strcmp(touched, longer) != 0);
    CHECK(strstr(touched, " 1000000.000000005") != NULL);
    CHECK_INT(unlink(p), 0);
    free(p);
    free(none);
    free(absent);
    free(one);
    free(same);
    free(longer);
    free(touched);
}

int main(void)
{
    root = check_tmpdir();
    test_tree();
    test_edges();
    test_identity();
    char *outside = at("outside");
    CHECK_INT(byoc_remove_tree(outside), 0);
    free(outside);
    CHECK_INT(rmdir(root), 0);
    free(root);
    return check_done();
}
