/* .dockerignore: path cleaning, reading, matching, and the case matrix whose
 * expectations were recorded from the docker CLI 20.10 itself
 * (tests/fixtures/contexts/ignore-matrix: cases.in -> gen_expected.py -> cases.txt). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "core/buf.h"
#include "docker/context.h"
#include "docker/goregex.h"
#include "docker/ignore.h"

static void test_clean(void)
{
    static const char *cases[][2] = {
        {"", "."}, {"abc", "abc"}, {"abc/def", "abc/def"}, {"a/b/c", "a/b/c"}, {".", "."}, {"..", ".."},
        {"../..", "../.."}, {"../../abc", "../../abc"}, {"/abc", "/abc"}, {"/", "/"}, {"abc/", "abc"},
        {"abc/def/", "abc/def"}, {"a/b/c/", "a/b/c"}, {"./", "."}, {"../", ".."}, {"../../", "../.."},
        {"/abc/", "/abc"}, {"abc//def//ghi", "abc/def/ghi"}, {"//abc", "/abc"}, {"///abc", "/abc"},
        {"//abc//", "/abc"}, {"abc//", "abc"}, {"abc/./def", "abc/def"}, {"/./abc/def", "/abc/def"},
        {"abc/.", "abc"}, {"abc/def/ghi/../jkl", "abc/def/jkl"}, {"abc/def/../ghi/../jkl", "abc/jkl"},
        {"abc/def/..", "abc"}, {"abc/def/../..", "."}, {"/abc/def/../..", "/"}, {"abc/def/../../..", ".."},
        {"/abc/def/../../..", "/"}, {"abc/def/../../../ghi/jkl/../../../mno", "../../mno"},
        {"/../abc", "/abc"}, {"abc/./../def", "def"}, {"abc//./../def", "def"}, {"abc/../../././../def", "../../def"},
        {"!a/../b", "b"}, {"!", "!"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *c = byoc_path_clean(cases[i][0]);
        CHECK_STR(c, cases[i][1]);
        free(c);
    }
}

static char *joined(const byoc_strv *v)
{
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i < v->n; i++)
        byoc_buf_printf(&b, "%s%s", i ? "|" : "", v->v[i]);
    return byoc_buf_steal(&b);
}

static void test_read(void)
{
    static const struct { const char *text; const char *want; } cases[] = {
        {"a\nb\n", "a|b"},
        {"\xEF\xBB\xBF" "a\n\xEF\xBB\xBF" "b\n", "a|\xEF\xBB\xBF" "b"},
        {"# c\n #x\n  y  \n\n\t\n", "#x|y"},
        {"!a\n! b\n!/c/\n/d\n//e\n./f/../g\n", "!a|!b|!c|d|e|g"},
        {"a\r\nb\r\n", "a|b"},
        {"!\n", "!"},
        {"/\n", "/"},
        {"last", "last"},
        {"\xC2\xA0nbsp\xC2\xA0\n", "nbsp"},
        {"\xE3\x80\x80" "ideo\n", "ideo"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        byoc_err e;
        byoc_strv p = BYOC_STRV_INIT;
        CHECK_INT(byoc_ignore_read(cases[i].text, strlen(cases[i].text), &p, &e), 0);
        char *j = joined(&p);
        CHECK_STR(j, cases[i].want);
        free(j);
        byoc_strv_clear(&p);
    }
}

/* patterns separated by '\n'; each (path, excluded) pair. */
static bool excluded(const char *patterns, const char *path)
{
    byoc_err e;
    byoc_strv p = BYOC_STRV_INIT;
    byoc_ignore_read(patterns, strlen(patterns), &p, &e);
    byoc_ignore *m = byoc_ignore_new((const char *const *)p.v, p.n, &e);
    byoc_strv_clear(&p);
    if (!m) {
        fprintf(stderr, "pattern error: %s\n", e.message);
        return false;
    }
    bool r = byoc_ignore_excluded(m, path);
    byoc_ignore_free(m);
    return r;
}

static void test_match(void)
{
    static const struct { const char *pats; const char *path; bool want; } cases[] = {
        /* from docker's pkg/fileutils behaviour */
        {"**", "file", true}, {"**", "file/", true}, {"**/", "file", true}, {"**/", "file/", true},
        {"**", "/", true}, {"**/", "/", true}, {"**", "dir/file", true}, {"**/", "dir/file", true},
        {"**", "dir/file/", true}, {"**/", "dir/file/", true}, {"**/**", "dir/file", true},
        {"**/**", "dir/file/", true}, {"dir/**", "dir/file", true}, {"dir/**", "dir/file/", true},
        {"dir/**", "dir/dir2/file", true}, {"dir/**", "dir/dir2/file/", true}, {"**/dir", "dir", true},
        {"**/dir", "dir/file", false}, {"**/dir", "x/dir/file", true}, {"**/dir2/*", "dir/dir2/file", true}, {"**/dir2/*", "dir/dir2/file/", true},
        {"**/dir2/**", "dir/dir2/dir3/file", true}, {"**/dir2/**", "dir/dir2/dir3/file/", true},
        {"**file", "file", true}, {"**file", "dir/file", true}, {"**/file", "dir/file", true},
        {"**file", "dir/dir/file", true}, {"**/file", "dir/dir/file", true}, {"**/file*", "dir/dir/file", true},
        {"**/file*", "dir/dir/file.txt", true}, {"**/file*txt", "dir/dir/file.txt", true},
        {"**/file*.txt", "dir/dir/file.txt", true}, {"**/file*.txt*", "dir/dir/file.txt", true},
        {"**/**/*.txt", "dir/dir/file.txt", true}, {"**/**/*.txt2", "dir/dir/file.txt", false},
        {"**/*.txt", "file.txt", true}, {"**/**/*.txt", "file.txt", true}, {"a**/*.txt", "a/file.txt", true},
        {"a**/*.txt", "a/dir/file.txt", true}, {"a**/*.txt", "a/dir/dir/file.txt", true},
        {"a/*.txt", "a/dir/file.txt", false}, {"a/*.txt", "a/file.txt", true}, {"a/*.txt**", "a/file.txt", true},
        {"a[b-d]e", "ae", false}, {"a[b-d]e", "ace", true}, {"a[b-d]e", "aae", false}, {"a[^b-d]e", "aze", true},
        {".*", ".foo", true}, {".*", "foo", false}, {"abc.def", "abcdef", false}, {"abc.def", "abc.def", true},
        {"abc.def", "abcZdef", false}, {"abc?def", "abcZdef", true}, {"abc?def", "abcdef", false},
        {"a\\\\", "a\\", true}, {"**/foo/bar", "foo/bar", true}, {"**/foo/bar", "dir/foo/bar", true},
        {"**/foo/bar", "dir/dir2/foo/bar", true}, {"abc/**", "abc", false}, {"abc/**", "abc/def", true},
        {"abc/**", "abc/def/ghi", true}, {"**/.foo", ".foo", true}, {"**/.foo", "bar.foo", false},
        {"a(b)c/def", "a(b)c/def", false}, {"a(b)c/def", "abc/def", true},
        /* parent directories: a pattern matches everything below what it matches */
        {"foo", "foo/x/y", true}, {"f*", "foo/bar", true}, {"foo/*", "foo/bar/baz", true},
        {"foo/bar", "foo/bar2", false}, {"*/bar", "foo/bar/baz", true},
        /* order, exceptions, last match wins */
        {"*.go\n!main.go", "main.go", false}, {"*.go\n!main.go", "util.go", true},
        {"!main.go\n*.go", "main.go", true}, {"docs\n!docs/README.md", "docs/README.md", false},
        {"docs\n!docs/README.md", "docs/other", true}, {"build\n!**/keep", "build/keep", false},
        /* unicode: ? is one code point */
        {"?.txt", "\xC3\xA9.txt", true}, {"??.txt", "\xC3\xA9.txt", false},
        /* regexp syntax passed through by 20.10 */
        {"a+b", "aab", true}, {"a+b", "a+b", false}, {"x{2}", "xx", true}, {"x{2", "x{2", true},
        {"[[:digit:]]", "7", true}, {"[[:digit:]]", "a", false}, {"a|b", "abc", true}, {"a|b", "cab", true},
        {"a|b", "cba", false}, {"\\d", "5", true}, {"\\d", "d", false}, {"[\\]]", "]", true},
        {"[!a]", "!", true}, {"[!a]", "b", false}, {"[^!]", "b", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = excluded(cases[i].pats, cases[i].path);
        if (got != cases[i].want)
            check_fail(__FILE__, __LINE__, "pattern [%s] path [%s]: got %d want %d", cases[i].pats,
                       cases[i].path, got, cases[i].want);
        else
            check_passed++;
    }
}

static void test_errors(void)
{
    static const char *bad[] = {"!", "[", "a\\", "[]", "[a-]", "[-a]", "x(1", "x)", "a*+", "(+a)", "a.|)$(}+{bc", "[a-]]", "\\p{L}",
                                "[z-a]", "ab\\q"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        byoc_err e;
        byoc_err_clear(&e);
        const char *p[] = {bad[i]};
        byoc_ignore *m = byoc_ignore_new(p, 1, &e);
        if (m)
            check_fail(__FILE__, __LINE__, "pattern [%s] should be rejected", bad[i]);
        else
            check_passed++;
        CHECK_INT(e.kind, m ? BYOC_OK : BYOC_E_USAGE);
        byoc_ignore_free(m);
    }
    static const char *good[] = {"a*?", "x**", "(*a)", "[\\-a]", "(a)*", "^x", "x{,2}", "[[:alpha:]]"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        byoc_err e;
        const char *p[] = {good[i]};
        byoc_ignore *m = byoc_ignore_new(p, 1, &e);
        if (!m)
            check_fail(__FILE__, __LINE__, "pattern [%s] rejected: %s", good[i], e.message);
        else
            check_passed++;
        byoc_ignore_free(m);
    }
}

static void test_reinclude(void)
{
    const char *p[] = {"build", "!build/keep.txt", "!docs", "!**/x"};
    byoc_err e;
    byoc_ignore *m = byoc_ignore_new(p, 4, &e);
    CHECK(m != NULL);
    CHECK(byoc_ignore_dir_may_reinclude(m, "build"));
    CHECK(!byoc_ignore_dir_may_reinclude(m, "buil"));
    CHECK(!byoc_ignore_dir_may_reinclude(m, "build/keep.txt/x"));
    CHECK(byoc_ignore_dir_may_reinclude(m, "docs"));
    CHECK(!byoc_ignore_dir_may_reinclude(m, "src"));
    CHECK(byoc_ignore_dir_may_reinclude(m, "**"));
    byoc_ignore_free(m);
}

static void test_goregex(void)
{
    char why[128];
    byoc_goregex *re = byoc_goregex_compile("^[^/]*\\.txt$", why, sizeof why);
    CHECK(re != NULL);
    CHECK(byoc_goregex_match(re, "a b.txt"));
    CHECK(!byoc_goregex_match(re, "a/b.txt"));
    byoc_goregex_free(re);
    /* Go's '.' never matches a newline; a negated class does. */
    re = byoc_goregex_compile("^a.b$", why, sizeof why);
    CHECK(!byoc_goregex_match(re, "a\nb"));
    CHECK(byoc_goregex_match(re, "axb"));
    byoc_goregex_free(re);
    re = byoc_goregex_compile("^a[^x]b$", why, sizeof why);
    CHECK(byoc_goregex_match(re, "a\nb"));
    byoc_goregex_free(re);
    re = byoc_goregex_compile("^[-^\\]]+$", why, sizeof why);
    CHECK(re != NULL);
    CHECK(byoc_goregex_match(re, "-^]"));
    CHECK(!byoc_goregex_match(re, "a"));
    byoc_goregex_free(re);
    re = byoc_goregex_compile("^\\x{e9}\\x41\\101$", why, sizeof why);
    CHECK(re != NULL);
    CHECK(byoc_goregex_match(re, "\xC3\xA9" "AA"));
    byoc_goregex_free(re);
    CHECK(byoc_goregex_compile("^a**$", why, sizeof why) == NULL);
    CHECK(strstr(why, "nested") != NULL);
}

/* ---- the CLI-recorded matrix ---- */

typedef struct {
    char *name;
    byoc_buf ignore;
    byoc_buf expect;  /* '\n'-joined sorted paths, or "@error" */
} mcase;

static void make_tree(const char *root, char **tree, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *full = byoc_xasprintf("%s/%s", root, tree[i]);
        for (char *s = full + strlen(root) + 1; *s; s++) {
            if (*s == '/') {
                *s = 0;
                mkdir(full, 0755);
                *s = '/';
            }
        }
        size_t l = strlen(full);
        if (full[l - 1] != '/') {
            FILE *f = fopen(full, "w");
            if (f) {
                fprintf(f, "%s\n", tree[i]);
                fclose(f);
            }
        }
        free(full);
    }
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

typedef struct {
    char **v;
    size_t n, cap;
} strlist;

static void sl_add(strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = byoc_xstrdup(s);
}

static int sl_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect(const char *rel, const struct stat *st, void *ud)
{
    strlist *l = ud;
    /* The image also holds every parent of what was sent. */
    char *p = byoc_xstrdup(rel);
    for (char *s = p; *s; s++) {
        if (*s == '/') {
            *s = 0;
            sl_add(l, p);
            *s = '/';
        }
    }
    sl_add(l, p);
    free(p);
    return 0;
}

static void run_matrix(void)
{
    char *in_path = byoc_xasprintf("%s/tests/fixtures/contexts/ignore-matrix/cases.in", check_source_dir());
    char *out_path = byoc_xasprintf("%s/tests/fixtures/contexts/ignore-matrix/cases.txt", check_source_dir());
    char *in = check_read_file(in_path, NULL), *out = check_read_file(out_path, NULL);
    CHECK(in && out);
    if (!in || !out) {
        free(in), free(out), free(in_path), free(out_path);
        return;
    }
    /* cases.in: @tree and the .dockerignore bodies */
    char **tree = NULL;
    size_t ntree = 0;
    mcase cases[128];
    size_t ncases = 0;
    char *save, *line = in;
    enum { NONE, TREE, CASE } mode = NONE;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *next = nl ? nl + 1 : NULL;
        char head[256];
        snprintf(head, sizeof head, "%s", line);
        size_t hl = strlen(head);
        if (hl && head[hl - 1] == '\r')
            head[hl - 1] = 0;
        if (mode == NONE && strcmp(head, "@tree") == 0) {
            mode = TREE;
        } else if (mode == NONE && strncmp(head, "@case ", 6) == 0) {
            mode = CASE;
            cases[ncases].name = byoc_xstrdup(head + 6);
            cases[ncases].ignore = (byoc_buf)BYOC_BUF_INIT;
            cases[ncases].expect = (byoc_buf)BYOC_BUF_INIT;
            byoc_buf_puts(&cases[ncases].ignore, "");
        } else if (strcmp(head, "@end") == 0) {
            if (mode == CASE)
                ncases++;
            mode = NONE;
        } else if (mode == TREE) {
            tree = realloc(tree, (ntree + 1) * sizeof *tree);
            tree[ntree++] = line;
        } else if (mode == CASE) {
            byoc_buf_printf(&cases[ncases].ignore, "%s\n", line);
        }
        line = next;
    }
    /* cases.txt: expectations */
    size_t found = 0;
    for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        static mcase *cur;
        if (l[0] == '#')
            continue;
        if (strncmp(l, "@case ", 6) == 0) {
            cur = NULL;
            for (size_t i = 0; i < ncases; i++)
                if (strcmp(cases[i].name, l + 6) == 0)
                    cur = &cases[i];
            CHECK(cur != NULL);
            if (cur) {
                found++;
                byoc_buf_puts(&cur->expect, "");
            }
        } else if (strcmp(l, "@end") == 0) {
            cur = NULL;
        } else if (cur) {
            byoc_buf_printf(&cur->expect, "%s\n", strcmp(l, "@expect-error") == 0 ? "@error" : l);
        }
    }
    CHECK_INT(found, ncases);

    for (size_t i = 0; i < ncases; i++) {
        char *dir = check_tmpdir();
        make_tree(dir, tree, ntree);
        char *p = byoc_xasprintf("%s/Dockerfile", dir);
        FILE *f = fopen(p, "w");
        fputs("FROM scratch\nCOPY . /ctx/\n", f);
        fclose(f);
        free(p);
        p = byoc_xasprintf("%s/.dockerignore", dir);
        f = fopen(p, "wb");
        fwrite(cases[i].ignore.data, 1, cases[i].ignore.len, f);
        fclose(f);
        free(p);

        byoc_err e;
        byoc_context *c = NULL;
        byoc_buf got = BYOC_BUF_INIT;
        byoc_buf_puts(&got, "");
        if (byoc_context_open(dir, NULL, &c, &e) < 0) {
            byoc_buf_puts(&got, "@error\n");
        } else {
            strlist l = {0};
            byoc_context_walk(c, collect, &l, &e);
            qsort(l.v, l.n, sizeof *l.v, sl_cmp);
            for (size_t k = 0; k < l.n; k++) {
                if (strcmp(l.v[k], "Dockerfile") && strcmp(l.v[k], ".dockerignore"))
                    byoc_buf_printf(&got, "%s\n", l.v[k]);
                free(l.v[k]);
            }
            free(l.v);
            byoc_context_free(c);
        }
        if (strcmp(byoc_buf_str(&got), byoc_buf_str(&cases[i].expect)) != 0)
            check_fail(__FILE__, __LINE__, "case %s:\n--- got\n%s--- docker CLI\n%s", cases[i].name,
                       byoc_buf_str(&got), byoc_buf_str(&cases[i].expect));
        else
            check_passed++;
        byoc_buf_clear(&got);
        rm_rf(dir);
        free(dir);
    }
    for (size_t i = 0; i < ncases; i++) {
        free(cases[i].name);
        byoc_buf_clear(&cases[i].ignore);
        byoc_buf_clear(&cases[i].expect);
    }
    free(tree);
    free(in), free(out), free(in_path), free(out_path);
}

/* The Dockerfile and .dockerignore are sent even when ignored. */
static void test_build_files_kept(void)
{
    char *dir = check_tmpdir();
    char *tree[] = {"sub/Dockerfile.app", "sub/x", "y"};
    make_tree(dir, tree, 3);
    char *p = byoc_xasprintf("%s/.dockerignore", dir);
    FILE *f = fopen(p, "w");
    fputs("sub\n.dockerignore\ny\n", f);
    fclose(f);
    free(p);
    char *df = byoc_xasprintf("%s/sub/Dockerfile.app", dir);
    byoc_context *c;
    byoc_err e;
    CHECK(byoc_context_open(dir, df, &c, &e) == 0);
    CHECK_STR(byoc_context_dockerfile(c), "sub/Dockerfile.app");
    strlist l = {0};
    byoc_context_walk(c, collect, &l, &e);
    qsort(l.v, l.n, sizeof *l.v, sl_cmp);
    byoc_buf got = BYOC_BUF_INIT;
    for (size_t k = 0; k < l.n; k++) {
        byoc_buf_printf(&got, "%s ", l.v[k]);
        free(l.v[k]);
    }
    free(l.v);
    CHECK_STR(byoc_buf_str(&got), ".dockerignore sub sub/Dockerfile.app ");
    byoc_buf_clear(&got);
    byoc_context_free(c);
    free(df);
    rm_rf(dir);
    free(dir);
}

int main(void)
{
    test_clean();
    test_read();
    test_match();
    test_errors();
    test_reinclude();
    test_goregex();
    test_build_files_kept();
    run_matrix();
    return check_done();
}
