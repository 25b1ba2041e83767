/* The pager every paginated listing goes through: the end, a repeated token, the page bound,
 * and the XML form (IsTruncated + a token element) the IAM and S3 listings use. */
#include <stdlib.h>
#include <string.h>

#include "aws/pager.h"
#include "aws/xml.h"
#include "check.h"

static void test_tokens(void)
{
    byoc_aws_pager p;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_aws_pager_init(&p, "SearchJobs");
    CHECK(p.token == NULL);
    CHECK_INT(byoc_aws_pager_next(&p, "a", &err), 1);
    CHECK_STR(p.token, "a");
    CHECK_INT(byoc_aws_pager_next(&p, "b", &err), 1);
    CHECK_STR(p.token, "b");
    CHECK_INT(byoc_aws_pager_next(&p, "", &err), 0);
    CHECK(p.token == NULL);
    byoc_aws_pager_clear(&p);

    byoc_aws_pager_init(&p, "ListRoles");
    CHECK_INT(byoc_aws_pager_next(&p, NULL, &err), 0);
    CHECK_INT(byoc_aws_pager_next(&p, "x", &err), 1);
    /* botocore's check: the same token twice in a row ends the listing, naming the operation */
    CHECK_INT(byoc_aws_pager_next(&p, "x", &err), -1);
    CHECK_STR(err.what, "ListRoles");
    CHECK(strstr(err.message, "same next token") != NULL);
    byoc_aws_pager_clear(&p);

    /* a token full of escapes is quoted printable and short */
    byoc_err_clear(&err);
    byoc_aws_pager_init(&p, "FilterLogEvents");
    char evil[300];
    memset(evil, 'A', sizeof evil - 1);
    evil[sizeof evil - 1] = '\0';
    memcpy(evil, "\x1b]0;PWNED\x07", 10);
    CHECK_INT(byoc_aws_pager_next(&p, evil, &err), 1);
    CHECK_INT(byoc_aws_pager_next(&p, evil, &err), -1);
    CHECK(strchr(err.message, '\x1b') == NULL && strchr(err.message, '\x07') == NULL);
    CHECK(strlen(err.message) < 200);
    byoc_aws_pager_clear(&p);
}

static void test_bound(void)
{
    byoc_aws_pager p;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_aws_pager_init(&p, "DescribeImages");
    CHECK_INT(p.max_pages, BYOC_AWS_PAGES_MAX);
    char tok[32];
    int more = 1;
    size_t pages = 0;
    while (more == 1) {
        snprintf(tok, sizeof tok, "t%zu", pages++);
        more = byoc_aws_pager_next(&p, tok, &err);
    }
    CHECK_INT(more, -1);
    CHECK_INT(pages, BYOC_AWS_PAGES_MAX);
    CHECK(strstr(err.message, "1000 pages") != NULL);
    CHECK_STR(err.what, "DescribeImages");
    byoc_aws_pager_clear(&p);

    byoc_aws_pager_init(&p, "DescribeLogStreams");
    p.max_pages = 3;
    CHECK_INT(byoc_aws_pager_next(&p, "a", &err), 1);
    CHECK_INT(byoc_aws_pager_next(&p, "b", &err), 1);
    CHECK_INT(byoc_aws_pager_next(&p, "c", &err), -1);
    CHECK(strstr(err.message, "3 pages") != NULL);
    byoc_aws_pager_clear(&p);
    /* the last page may come at the bound */
    byoc_aws_pager_init(&p, "DescribeLogStreams");
    p.max_pages = 2;
    CHECK_INT(byoc_aws_pager_next(&p, "a", &err), 1);
    CHECK_INT(byoc_aws_pager_next(&p, NULL, &err), 0);
    byoc_aws_pager_clear(&p);
}

static int next_xml(byoc_aws_pager *p, const char *xml, const char *element, byoc_err *err)
{
    byoc_aws_xml *doc = byoc_aws_xml_parse(xml, strlen(xml));
    byoc_aws_xml *root = doc ? byoc_aws_xml_root(doc) : NULL;
    int more = byoc_aws_pager_next_xml(p, byoc_aws_xml_child(root, "R") ? byoc_aws_xml_child(root, "R") : root,
                                       element, err);
    if (doc)
        byoc_aws_xml_free(doc);
    return more;
}

static void test_xml(void)
{
    byoc_aws_pager p;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_aws_pager_init(&p, "ListAttachedRolePolicies");
    CHECK_INT(next_xml(&p, "<X><R><IsTruncated>true</IsTruncated><Marker>m1</Marker></R></X>", "Marker", &err), 1);
    CHECK_STR(p.token, "m1");
    CHECK_INT(next_xml(&p, "<X><R><IsTruncated>true</IsTruncated><Marker>m1</Marker></R></X>", "Marker", &err), -1);
    CHECK_STR(err.what, "ListAttachedRolePolicies");
    byoc_aws_pager_clear(&p);

    byoc_aws_pager_init(&p, "ListObjectsV2");
    /* a marker without IsTruncated, IsTruncated without a marker, a mistyped IsTruncated: the end */
    CHECK_INT(next_xml(&p, "<X><Marker>m</Marker></X>", "Marker", &err), 0);
    CHECK_INT(next_xml(&p, "<X><IsTruncated>true</IsTruncated></X>", "NextContinuationToken", &err), 0);
    CHECK_INT(next_xml(&p, "<X><IsTruncated>yes</IsTruncated><NextContinuationToken>n</NextContinuationToken></X>",
                       "NextContinuationToken", &err),
              0);
    CHECK_INT(next_xml(&p, "<X><IsTruncated>true</IsTruncated><NextContinuationToken>n</NextContinuationToken></X>",
                       "NextContinuationToken", &err),
              1);
    CHECK_INT(byoc_aws_pager_next_xml(&p, NULL, "NextContinuationToken", &err), 0);
    byoc_aws_pager_clear(&p);
}

int main(void)
{
    test_tokens();
    test_bound();
    test_xml();
    return check_done();
}
