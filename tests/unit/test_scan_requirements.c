/* The requirements reader (byoc/requirements.h) the scanner and the lint use. */
#include <stdlib.h>
#include <string.h>

#include "byoc/requirements.h"
#include "check.h"

static const byoc_requirement *at_line(const byoc_requirements *r, int line)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->items[i].line == line)
            return &r->items[i];
    return NULL;
}

int main(void)
{
    static const char text[] =
        "# comment\n"                                                     /* 1 */
        "numpy==1.26.4  # trailing comment\n"                             /* 2 */
        "Scikit_Learn[extra]>=1.0; python_version<'3.13'\n"               /* 3 */
        "-r other.txt\n"                                                  /* 4 */
        "--extra-index-url https://pypi.org/simple\n"                     /* 5 */
        "-i https://user:tok3n@pkgs.example.com/simple\n"                 /* 6 */
        "git+ssh://git@github.com/o/r.git@v1#egg=Private_Pkg\n"           /* 7 */
        "-e git+https://github.com/o/pub.git#egg=pub\n"                   /* 8 */
        "name @ https://files.example.com/name-1.0-py3-none-any.whl\n"   /* 9 */
        "./local/pkg\n"                                                   /* 10 */
        "long-name \\\n"                                                  /* 11 */
        "   >=2.0\n"                                                      /* 12 */
        "--hash=sha256:abc\n"                                             /* 13 */
        "git@gitlab.com:o/scp.git\n"                                      /* 14 */
        "\r\n"
        "file:///opt/wheels/x.whl\n";                                     /* 16 */
    byoc_requirements r;
    byoc_requirements_parse(text, sizeof text - 1, &r);
    CHECK_INT(byoc_requirements_count(&r), 9);

    const byoc_requirement *it = at_line(&r, 2);
    CHECK(it && it->kind == BYOC_REQ_PACKAGE);
    if (it)
        CHECK_STR(it->name, "numpy");
    it = at_line(&r, 3);
    if (it)
        CHECK_STR(it->name, "scikit-learn");
    it = at_line(&r, 4);
    CHECK(it && it->kind == BYOC_REQ_INCLUDE);
    if (it)
        CHECK_STR(it->url, "other.txt");
    it = at_line(&r, 5);
    CHECK(it && it->kind == BYOC_REQ_INDEX && !it->private_source); /* PyPI itself */
    it = at_line(&r, 6);
    CHECK(it && it->kind == BYOC_REQ_INDEX && it->private_source && it->has_credentials);
    it = at_line(&r, 7);
    CHECK(it && it->kind == BYOC_REQ_VCS && it->private_source && !it->has_credentials);
    if (it) {
        CHECK_STR(it->name, "private-pkg");
        CHECK_STR(it->why_private, "fetched over SSH");
    }
    it = at_line(&r, 8);
    CHECK(it && it->kind == BYOC_REQ_VCS && !it->private_source);
    if (it)
        CHECK_STR(it->name, "pub");
    it = at_line(&r, 9);
    CHECK(it && it->kind == BYOC_REQ_URL);
    if (it)
        CHECK_STR(it->name, "name");
    it = at_line(&r, 10);
    CHECK(it && it->kind == BYOC_REQ_PATH);
    it = at_line(&r, 11);
    CHECK(it && it->kind == BYOC_REQ_PACKAGE);
    if (it)
        CHECK_STR(it->name, "long-name");
    CHECK(at_line(&r, 12) == NULL); /* continued line */
    it = at_line(&r, 13);
    CHECK(it && it->kind == BYOC_REQ_OPTION);
    it = at_line(&r, 14);
    CHECK(it && it->kind == BYOC_REQ_VCS && it->private_source);
    if (it)
        CHECK_STR(it->why_private, "scp-style git URL (SSH)");
    it = at_line(&r, 16);
    CHECK(it && it->kind == BYOC_REQ_PATH);
    byoc_requirements_clear(&r);

    byoc_requirements p = {NULL, 0};
    byoc_requirements_add_pep508(&p, "  requests[socks] (>=2.0)", 3);
    byoc_requirements_add_pep508(&p, "   ", 4);
    CHECK_INT(p.n, 1);
    CHECK_STR(p.items[0].name, "requests");
    byoc_requirements_clear(&p);

    char *n = byoc_pypi_normalize("Foo__Bar.-baz", 13);
    CHECK_STR(n, "foo-bar-baz");
    free(n);

    const char *why;
    CHECK(byoc_url_is_private("ssh://git@host/x.git", &why));
    CHECK(!byoc_url_is_private("https://github.com/o/r.git", &why));
    CHECK(byoc_url_is_private("https://me:pw@host/r.git", &why));
    CHECK_STR(why, "credentials in the URL");

    /* binary or empty input: no crash, nothing useful */
    static const char junk[] = "\0\x01\x02\xff\xfe\n\n";
    byoc_requirements_parse(junk, sizeof junk - 1, &r);
    byoc_requirements_clear(&r);
    byoc_requirements_parse("", 0, &r);
    CHECK_INT(r.n, 0);
    byoc_requirements_clear(&r);
    return check_done();
}
