/* .dockerignore lines holding NUL bytes read as the docker CLI 20.10 reads them
 * (expectations checked against /usr/bin/docker; the live comparison is
 * tests/integration/test_docker_ignore_nul.py). A pattern that keeps a NUL after
 * cleaning never matches, so it is left out, but a bad one still refuses the file.
 * The fuzzer's input "./a/../\v\0[" was once cut at the NUL into the pattern "\v". */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "docker/ignore.h"

/* The patterns joined by '|', or "@error". Caller frees. */
static char *read_joined(const char *text, size_t len)
{
    byoc_err e;
    byoc_err_clear(&e);
    byoc_strv p = BYOC_STRV_INIT;
    if (byoc_ignore_read(text, len, &p, &e) != 0) {
        CHECK(e.kind == BYOC_E_USAGE);
        CHECK(p.n == 0 || p.v[p.n] == NULL);
        byoc_strv_clear(&p);
        return byoc_xstrdup("@error");
    }
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_puts(&b, "");
    for (size_t i = 0; i < p.n; i++)
        byoc_buf_printf(&b, "%s%s", i ? "|" : "", p.v[i]);
    byoc_strv_clear(&p);
    return byoc_buf_steal(&b);
}

#define READS(lit, want) \
    do { char *got_ = read_joined(lit, sizeof lit - 1); CHECK_STR(got_, want); free(got_); } while (0)

int main(void)
{
    READS("a.txt\0x\nb.md\n", "b.md");
    READS("*.md\n!\0\n", "*.md");
    READS("./a/../\v\0[\n", "@error");
    READS("x\0/..\nb.md\n", ".|b.md");
    READS("README\0 \\ \n", "@error");
    READS("docs/\0\nsrc\0/../a.txt\n", "a.txt");
    /* a NUL inside a class stands for other characters ([\0-b] holds 'a'): refused,
     * where the CLI would use it (the one known difference) */
    READS("[\0-b].md\n", "@error");
    READS("[^\0]\n", "@error");
    READS("x\0/[\0-b]/..\n", "");                   /* the class is not in the cleaned pattern */
    READS("\0\n", "");
    /* Unicode spaces are trimmed as Go's strings.TrimSpace trims them. */
    READS("\v\n\f\n\xc2\x85\n\xc2\xa0\n\xe3\x80\x80\nb.md\v\n", "b.md");
    return check_done();
}
