#include "check.h"

#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

int check_passed, check_failed;

void check_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    check_failed++;
    fprintf(stderr, "FAIL %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int check_done(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed ? 1 : 0;
}

char *check_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *p = malloc(cap);
    size_t r;
    while ((r = fread(p + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0)
            p = realloc(p, cap *= 2);
    }
    fclose(f);
    p[n] = '\0';
    if (len)
        *len = n;
    return p;
}

const char *check_source_dir(void)
{
    const char *s = getenv("BYOC_SOURCE_DIR");
    return s ? s : ".";
}

const char *check_fixture_dir(void)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/tests/fixtures", check_source_dir());
    return buf;
}

const char *check_env(const char *name)
{
    const char *v = getenv(name);
    if (!v || !*v) {
        fprintf(stderr, "environment variable %s is not set (run through tests/topology/with-env.sh)\n", name);
        exit(1);
    }
    return v;
}

char *check_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/byoc-test-XXXXXX", t && *t ? t : "/tmp");
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

void check_write_file(const char *dir, const char *rel, const char *text, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "wb");
    if (!f) {
        check_fail(__FILE__, __LINE__, "cannot write %s", path);
        return;
    }
    fwrite(text, 1, len == (size_t)-1 ? strlen(text) : len, f);
    fclose(f);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

void check_rm_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
