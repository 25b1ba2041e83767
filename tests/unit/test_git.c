/* byoc/git.h: revision and dirty state, tags and labels, the first commit with
 * a fallback author, and vendoring by cloning a local bare repository (file://). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <git2.h>
#include <jansson.h>

#include "byoc/git.h"
#include "check.h"

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void rm_rf(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void put(const char *dir, const char *rel, const char *text)
{
    char path[4096];
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *dir, const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    return check_read_file(path, NULL);
}

/* Commit the whole work tree on HEAD (a second commit), with libgit2 directly. */
static void commit_all(const char *dir, const char *message, git_oid *out)
{
    git_repository *repo;
    git_index *idx;
    git_oid tree_id, parent_id;
    git_tree *tree;
    git_commit *parent;
    git_signature *sig;
    CHECK_INT(git_repository_open(&repo, dir), 0);
    CHECK_INT(git_repository_index(&idx, repo), 0);
    CHECK_INT(git_index_add_all(idx, NULL, 0, NULL, NULL), 0);
    git_index_write(idx);
    git_index_write_tree(&tree_id, idx);
    git_tree_lookup(&tree, repo, &tree_id);
    git_reference_name_to_id(&parent_id, repo, "HEAD");
    git_commit_lookup(&parent, repo, &parent_id);
    git_signature_now(&sig, "t", "t@example.com");
    const git_commit *parents[] = {parent};
    CHECK_INT(git_commit_create(out, repo, "HEAD", sig, sig, NULL, message, tree, 1, parents), 0);
    git_signature_free(sig);
    git_commit_free(parent);
    git_tree_free(tree);
    git_index_free(idx);
    git_repository_free(repo);
}

static void tag(const char *dir, const char *name, const git_oid *id)
{
    git_repository *repo;
    git_object *obj;
    git_oid tag_id;
    git_repository_open(&repo, dir);
    git_object_lookup(&obj, repo, id, GIT_OBJECT_COMMIT);
    CHECK_INT(git_tag_create_lightweight(&tag_id, repo, name, obj, 0), 0);
    git_object_free(obj);
    git_repository_free(repo);
}

static void test_not_a_repo(const char *tmp)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/plain", tmp);
    mkdir(dir, 0755);
    byoc_git_rev rev;
    byoc_err err;
    CHECK_INT(byoc_git_revision(dir, &rev, &err), 0);
    CHECK(!rev.is_repo);
    CHECK(byoc_git_image_tag("amazon-braket-x", &rev) == NULL);
    json_t *labels = byoc_git_labels(&rev);
    CHECK_INT(json_object_size(labels), 0);
    json_decref(labels);
    byoc_git_rev_clear(&rev);
}

static void test_first_commit_and_revision(const char *tmp)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/proj", tmp);
    put(dir, "Dockerfile", "FROM scratch\n");
    put(dir, "algorithm/algo.py", "print(1)\n");
    put(dir, "notes.txt", "not scaffolded\n");
    const char *paths[] = {"Dockerfile", "algorithm/algo.py"};
    bool created = false;
    char sha[41];
    byoc_err err;
    CHECK_INT(byoc_git_init_commit(dir, paths, 2, "first", &created, sha, &err), 0);
    CHECK(created);
    CHECK_INT(strlen(sha), 40);

    byoc_git_rev rev;
    CHECK_INT(byoc_git_revision(dir, &rev, &err), 0);
    CHECK(rev.is_repo && !rev.unborn);
    CHECK_STR(rev.sha, sha);
    CHECK(strlen(rev.short_sha) >= 7 && !strncmp(rev.short_sha, sha, strlen(rev.short_sha)));
    CHECK(rev.dirty); /* notes.txt was not committed: untracked */
    CHECK(rev.branch != NULL);
    char *t = byoc_git_image_tag("amazon-braket-x", &rev);
    char want[128];
    snprintf(want, sizeof want, "amazon-braket-x:%s-dirty", rev.short_sha);
    CHECK_STR(t, want);
    free(t);
    byoc_git_rev_clear(&rev);

    /* one commit, with the fallback author (HOME has no git config) */
    git_repository *repo;
    git_oid head;
    git_commit *c;
    CHECK_INT(git_repository_open(&repo, dir), 0);
    git_reference_name_to_id(&head, repo, "HEAD");
    git_commit_lookup(&c, repo, &head);
    CHECK_INT(git_commit_parentcount(c), 0);
    CHECK_STR(git_commit_author(c)->name, "byoc");
    CHECK_STR(git_commit_author(c)->email, "byoc@localhost");
    git_tree *tree;
    git_commit_tree(&tree, c);
    CHECK_INT(git_tree_entrycount(tree), 2); /* Dockerfile, algorithm/ */
    git_tree_free(tree);
    git_commit_free(c);
    git_repository_free(repo);

    /* clean once everything is committed; dirty again after an edit */
    git_oid second;
    commit_all(dir, "second", &second);
    CHECK_INT(byoc_git_revision(dir, &rev, &err), 0);
    CHECK(!rev.dirty);
    t = byoc_git_image_tag("n", &rev);
    CHECK(t && strstr(t, "-dirty") == NULL);
    free(t);
    byoc_git_rev_clear(&rev);
    put(dir, "algorithm/algo.py", "print(2)\n");
    CHECK_INT(byoc_git_revision(dir, &rev, &err), 0);
    CHECK(rev.dirty);
    byoc_git_rev_clear(&rev);

    /* from a subdirectory, the same repository */
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/algorithm", dir);
    CHECK_INT(byoc_git_revision(sub, &rev, &err), 0);
    CHECK(rev.is_repo);
    byoc_git_rev_clear(&rev);

    /* init into a directory inside a work tree: nothing is created or committed */
    put(dir, "nested/x.txt", "x\n");
    char nested[4200];
    snprintf(nested, sizeof nested, "%s/nested", dir);
    const char *np[] = {"x.txt"};
    CHECK_INT(byoc_git_init_commit(nested, np, 1, "no", &created, sha, &err), 0);
    CHECK(!created);
    CHECK_STR(sha, "");

    /* origin with credentials: stripped; labels */
    CHECK_INT(git_repository_open(&repo, dir), 0);
    git_config *cfg;
    CHECK_INT(git_repository_config(&cfg, repo), 0);
    CHECK_INT(git_config_set_string(cfg, "remote.origin.url", "https://bob:s3cret@github.com/acme/algo.git"), 0);
    git_config_free(cfg);
    git_repository_free(repo);
    CHECK_INT(byoc_git_revision(dir, &rev, &err), 0);
    CHECK_STR(rev.remote_url, "https://bob@github.com/acme/algo.git");
    json_t *labels = byoc_git_labels(&rev);
    CHECK_STR(json_string_value(json_object_get(labels, "org.opencontainers.image.revision")), rev.sha);
    CHECK_STR(json_string_value(json_object_get(labels, "org.opencontainers.image.source")),
              "https://github.com/acme/algo");
    json_decref(labels);
    byoc_git_rev_clear(&rev);
}

static void test_author_from_env(const char *tmp)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/authored", tmp);
    put(dir, "a.txt", "a\n");
    setenv("GIT_AUTHOR_NAME", "Ada", 1);
    setenv("GIT_AUTHOR_EMAIL", "ada@example.com", 1);
    const char *paths[] = {"a.txt"};
    byoc_err err;
    char sha[41];
    CHECK_INT(byoc_git_init_commit(dir, paths, 1, "m", NULL, sha, &err), 0);
    unsetenv("GIT_AUTHOR_NAME");
    unsetenv("GIT_AUTHOR_EMAIL");
    git_repository *repo;
    git_oid id;
    git_commit *c;
    git_repository_open(&repo, dir);
    git_oid_fromstr(&id, sha);
    CHECK_INT(git_commit_lookup(&c, repo, &id), 0);
    CHECK_STR(git_commit_author(c)->name, "Ada");
    git_commit_free(c);
    git_repository_free(repo);

    /* unborn: a repository without commits */
    char unborn[4200];
    snprintf(unborn, sizeof unborn, "%s/unborn", tmp);
    CHECK_INT(git_repository_init(&repo, unborn, 0), 0);
    git_repository_free(repo);
    byoc_git_rev rev;
    CHECK_INT(byoc_git_revision(unborn, &rev, &err), 0);
    CHECK(rev.is_repo && rev.unborn);
    CHECK(byoc_git_image_tag("n", &rev) == NULL);
    byoc_git_rev_clear(&rev);
}

/* libgit2 1.5 leaks in url.*.insteadOf rewriting: the test's own clone skips it too */
static int plain_remote(git_remote **out, git_repository *repo, const char *name, const char *url, void *payload)
{
    (void)payload;
    git_remote_create_options o;
    git_remote_create_options_init(&o, GIT_REMOTE_CREATE_OPTIONS_VERSION);
    o.repository = repo;
    o.name = name;
    o.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF;
    return git_remote_create_with_opts(out, url, &o);
}

static void test_vendor(const char *tmp)
{
    /* an upstream repository with two commits and a tag, then a bare clone of it */
    char up[4096], bare[4096], url[4200], dest[4200];
    snprintf(up, sizeof up, "%s/upstream", tmp);
    put(up, "setup.py", "# v1\n");
    const char *paths[] = {"setup.py"};
    char sha[41];
    byoc_err err;
    CHECK_INT(byoc_git_init_commit(up, paths, 1, "v1", NULL, sha, &err), 0);
    git_oid v1;
    git_oid_fromstr(&v1, sha);
    tag(up, "v1.0", &v1);
    put(up, "setup.py", "# v2\n");
    put(up, "pkg/__init__.py", "\n");
    git_oid v2;
    commit_all(up, "v2", &v2);

    snprintf(bare, sizeof bare, "%s/upstream.git", tmp);
    git_clone_options co;
    git_clone_options_init(&co, GIT_CLONE_OPTIONS_VERSION);
    co.bare = 1;
    co.remote_cb = plain_remote;
    git_repository *b;
    char up_url[4200];
    snprintf(up_url, sizeof up_url, "file://%s", up);
    CHECK_INT(git_clone(&b, up_url, bare, &co), 0);
    CHECK(git_repository_is_bare(b));
    git_repository_free(b);
    snprintf(url, sizeof url, "file://%s", bare);

    /* the default branch */
    snprintf(dest, sizeof dest, "%s/ctx/vendor/upstream", tmp);
    CHECK_INT(byoc_git_vendor(url, NULL, dest, false, NULL, &err), 0);
    char *text = slurp(dest, "setup.py");
    CHECK_STR(text, "# v2\n");
    free(text);
    char dotgit[4300];
    snprintf(dotgit, sizeof dotgit, "%s/.git", dest);
    CHECK(access(dotgit, F_OK) != 0); /* no repository data in the build context */

    /* not into a directory that has files */
    CHECK_INT(byoc_git_vendor(url, NULL, dest, false, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    rm_rf(dest);

    /* a tag, kept .git */
    CHECK_INT(byoc_git_vendor(url, "v1.0", dest, true, NULL, &err), 0);
    text = slurp(dest, "setup.py");
    CHECK_STR(text, "# v1\n");
    free(text);
    CHECK(access(dotgit, F_OK) == 0);
    rm_rf(dest);

    /* a commit id */
    char v2s[41];
    git_oid_tostr(v2s, sizeof v2s, &v2);
    CHECK_INT(byoc_git_vendor(url, v2s, dest, false, NULL, &err), 0);
    text = slurp(dest, "pkg/__init__.py");
    CHECK(text != NULL);
    free(text);
    rm_rf(dest);

    /* a ref that does not exist: an error, and nothing left behind */
    CHECK_INT(byoc_git_vendor(url, "no-such-ref", dest, false, NULL, &err), -1);
    CHECK(strstr(err.message, "no such") != NULL);
    CHECK(access(dest, F_OK) != 0);

    /* a repository that does not exist */
    char missing[4300];
    snprintf(missing, sizeof missing, "file://%s/nope.git", tmp);
    CHECK_INT(byoc_git_vendor(missing, NULL, dest, false, NULL, &err), -1);
    CHECK_INT(err.kind, BYOC_E_FAILED);
    CHECK(access(dest, F_OK) != 0);
}

static void test_parse_dep(void)
{
    byoc_git_dep d;
    CHECK_INT(byoc_git_parse_dep("git+ssh://git@github.com/acme/quantum-core.git@v1.2#egg=quantum_core", &d), 0);
    CHECK_STR(d.url, "ssh://git@github.com/acme/quantum-core.git");
    CHECK_STR(d.ref, "v1.2");
    CHECK_STR(d.name, "quantum-core");
    byoc_git_dep_clear(&d);
    CHECK_INT(byoc_git_parse_dep("Acme_Lib @ git+ssh://git@gitlab.com/acme/lib.git", &d), 0);
    CHECK_STR(d.url, "ssh://git@gitlab.com/acme/lib.git");
    CHECK(d.ref == NULL);
    CHECK_STR(d.name, "acme-lib");
    byoc_git_dep_clear(&d);
    CHECK_INT(byoc_git_parse_dep("git@github.com:acme/tools.git", &d), 0);
    CHECK_STR(d.url, "git@github.com:acme/tools.git");
    CHECK_STR(d.name, "tools");
    byoc_git_dep_clear(&d);
    CHECK_INT(byoc_git_parse_dep("-e git+file:///srv/repos/x.git@main", &d), 0);
    CHECK_STR(d.url, "file:///srv/repos/x.git");
    CHECK_STR(d.ref, "main");
    byoc_git_dep_clear(&d);
    CHECK_INT(byoc_git_parse_dep("numpy==1.0", &d), -1);
    CHECK_INT(byoc_git_parse_dep("https://example.com/x.whl", &d), -1);

    char *u = byoc_git_source_url("git@github.com:acme/algo.git");
    CHECK_STR(u, "https://github.com/acme/algo");
    free(u);
    u = byoc_git_source_url("ssh://git@gitlab.example.com:2222/team/algo.git");
    CHECK_STR(u, "https://gitlab.example.com/team/algo");
    free(u);
    u = byoc_git_source_url("https://user:tok@github.com/acme/algo");
    CHECK_STR(u, "https://github.com/acme/algo");
    free(u);
    CHECK(byoc_git_source_url(NULL) == NULL);
}

int main(void)
{
    char *tmp = check_tmpdir();
    char home[4200];
    snprintf(home, sizeof home, "%s/home", tmp);
    mkdir(home, 0700);
    setenv("HOME", home, 1); /* no ~/.gitconfig: the fallback author */
    setenv("XDG_CONFIG_HOME", home, 1);
    unsetenv("GIT_AUTHOR_NAME");
    unsetenv("GIT_AUTHOR_EMAIL");
    git_libgit2_init(); /* keep libgit2 initialised once so HOME is read now */
    test_not_a_repo(tmp);
    test_first_commit_and_revision(tmp);
    test_author_from_env(tmp);
    test_vendor(tmp);
    test_parse_dep();
    git_libgit2_shutdown();
    rm_rf(tmp);
    free(tmp);
    return check_done();
}
