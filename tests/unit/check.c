#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

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
