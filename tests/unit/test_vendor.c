/* byoc/vendor.h without a network (every URL is 127.0.0.1 port 1, where nothing listens): which
 * requirements are vendored, the list written for the image (continuation lines, comments, other lines kept), a vendor/<name>/ already there kept,
 * a vendor/ that is a link refused, nothing written when nothing is private. Cloning itself is
 * test_git's (file://) and integration test_vendor_ssh's (an sshd and ssh-agent on loopback). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/vendor.h"
#include "check.h"

static void put(const char *dir, const char *rel, const char *text)
{
    check_write_file(dir, rel, text, (size_t)-1);
}

static char *slurp(const char *dir, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#define REQS                                                                     \
    "numpy>=1.26  # public\n"                                                    \
    "git+ssh://git@127.0.0.1:1/acme/qutil.git@v1.2#egg=qutil\n"                   \
    "-e git+ssh://git@127.0.0.1:1/team/\\\n"                                     \
    "solver.git#egg=solver\n"                                                  \
    "https://files.example.com/tools-1.0.tar.gz\n"                               \
    "scipy\n"

static void test_count(void)
{
    CHECK_INT((int)byoc_vendor_private_count(REQS, strlen(REQS)), 2);
    const char *none = "numpy\ngit+https://github.com/public/x.git#egg=x\n";
    CHECK_INT((int)byoc_vendor_private_count(none, strlen(none)), 0);
}

static void test_kept_and_list(void)
{
    char *dir = check_tmpdir();
    put(dir, "requirements.txt", REQS);
    put(dir, "vendor/qutil/setup.py", "# vendored before\n");
    put(dir, "vendor/solver/pyproject.toml", "[project]\nname = \"solver\"\n");
    byoc_vendor_result r;
    byoc_err err;
    CHECK_INT(byoc_vendor_project(dir, NULL, &r, &err), 0);
    CHECK_INT((int)r.vendored.n, 0);
    CHECK_INT((int)r.kept.n, 2);
    CHECK(r.kept.n == 2 && !strcmp(r.kept.v[0], "qutil") && !strcmp(r.kept.v[1], "solver"));
    CHECK_STR(r.requirements, "vendor/requirements.txt");
    const char *list = slurp(dir, "vendor/requirements.txt");
    CHECK(list && strstr(list, "# Written by `byoc vendor`"));
    CHECK(list && strstr(list, "\nnumpy>=1.26  # public\n/opt/byoc/vendor/qutil\n/opt/byoc/vendor/solver\n"
                               "https://files.example.com/tools-1.0.tar.gz\nscipy\n"));
    CHECK(list && !strstr(list, "ssh://") && !strstr(list, "solver.git"));
    byoc_vendor_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

static void test_nothing_private(void)
{
    char *dir = check_tmpdir();
    byoc_vendor_result r;
    byoc_err err;
    CHECK_INT(byoc_vendor_project(dir, NULL, &r, &err), 0); /* no requirements.txt */
    CHECK(r.requirements == NULL);
    byoc_vendor_result_clear(&r);
    put(dir, "requirements.txt", "numpy\n--index-url https://me:tok@pypi.example.com/simple\n");
    CHECK_INT(byoc_vendor_project(dir, NULL, &r, &err), 0);
    CHECK(r.requirements == NULL && r.vendored.n == 0);
    CHECK(r.skipped.n == 1 && strstr(r.skipped.v[0], "requirements.txt:2") && !strstr(r.skipped.v[0], "tok"));
    struct stat st;
    CHECK(stat(dir, &st) == 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/vendor", dir);
    CHECK(access(path, F_OK) != 0); /* nothing written */
    byoc_vendor_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

static void test_link_refused(void)
{
    char *dir = check_tmpdir();
    char *elsewhere = check_tmpdir();
    put(dir, "requirements.txt", "git+ssh://git@127.0.0.1:1/acme/qutil.git#egg=qutil\n");
    char link[4096];
    snprintf(link, sizeof link, "%s/vendor", dir);
    CHECK(symlink(elsewhere, link) == 0);
    byoc_vendor_result r;
    byoc_err err;
    CHECK_INT(byoc_vendor_project(dir, NULL, &r, &err), -1);
    CHECK(strstr(err.message, "link") || strstr(err.what, "vendor"));
    char inside[4096];
    snprintf(inside, sizeof inside, "%s/requirements.txt", elsewhere);
    CHECK(access(inside, F_OK) != 0); /* nothing written through the link */
    byoc_vendor_result_clear(&r);
    check_rm_tree(dir);
    check_rm_tree(elsewhere);
    free(dir);
    free(elsewhere);
}

int main(void)
{
    test_count();
    test_kept_and_list();
    test_nothing_private();
    test_link_refused();
    return check_done();
}
