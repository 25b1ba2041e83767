/* aws/xml: AWS XML replies read with expat into a tree of elements. */
#include <stdlib.h>
#include <string.h>

#include "aws/xml.h"
#include "check.h"

static void test_reply_shapes(void)
{
    /* An STS reply: default namespace, whitespace between elements. */
    const char *sts = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                      "<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">\n"
                      "  <GetCallerIdentityResult>\n"
                      "    <Arn>arn:aws:iam::123456789012:user/u</Arn>\n"
                      "    <UserId>AIDA</UserId>\n"
                      "    <Account>123456789012</Account>\n"
                      "  </GetCallerIdentityResult>\n"
                      "  <ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata>\n"
                      "</GetCallerIdentityResponse>\n";
    byoc_aws_xml *doc = byoc_aws_xml_parse(sts, strlen(sts));
    CHECK(doc != NULL);
    byoc_aws_xml *root = byoc_aws_xml_root(doc);
    CHECK(root != NULL);
    CHECK_STR(root ? root->name : NULL, "GetCallerIdentityResponse");
    char *s = byoc_aws_xml_text(root, "GetCallerIdentityResult/Account");
    CHECK_STR(s, "123456789012");
    free(s);
    s = byoc_aws_xml_text(doc, "GetCallerIdentityResponse/ResponseMetadata/RequestId");
    CHECK_STR(s, "r-1");
    free(s);
    CHECK(byoc_aws_xml_text(root, "GetCallerIdentityResult/Nope") == NULL);
    byoc_aws_xml *rid = byoc_aws_xml_find(root, "RequestId");
    CHECK(rid != NULL);
    /* Children are elements only: three under the result, whatever the whitespace. */
    int n = 0;
    for (byoc_aws_xml *c = byoc_aws_xml_child(root, "GetCallerIdentityResult")->children; c; c = c->next)
        n++;
    CHECK_INT(n, 3);
    byoc_aws_xml_free(doc);

    /* Prefixed names are read by their local name; empty elements have empty text. */
    const char *prefixed = "<s:Envelope xmlns:s=\"urn:s\"><s:Body><Key></Key><Size/></s:Body></s:Envelope>";
    doc = byoc_aws_xml_parse(prefixed, strlen(prefixed));
    s = byoc_aws_xml_text(byoc_aws_xml_root(doc), "Body/Key");
    CHECK_STR(s, "");
    free(s);
    s = byoc_aws_xml_text(byoc_aws_xml_root(doc), "Body/Size");
    CHECK_STR(s, "");
    free(s);
    byoc_aws_xml_free(doc);
}

static void test_text(void)
{
    /* Entities, character references, CDATA, and mixed content in document order. */
    const char *xml = "<r><m>a &lt;b&gt; &amp; &#x263A;<![CDATA[<raw>]]></m><mix>one<i>two</i>three<i>four</i></mix></r>";
    byoc_aws_xml *doc = byoc_aws_xml_parse(xml, strlen(xml));
    char *s = byoc_aws_xml_text(byoc_aws_xml_root(doc), "m");
    CHECK_STR(s, "a <b> & \xe2\x98\xba<raw>");
    free(s);
    s = byoc_aws_xml_text(byoc_aws_xml_root(doc), "mix");
    CHECK_STR(s, "onetwothreefour");
    free(s);
    s = byoc_aws_xml_content(byoc_aws_xml_root(doc));
    CHECK_STR(s, "a <b> & \xe2\x98\xba<raw>onetwothreefour");
    free(s);
    byoc_aws_xml_free(doc);
}

static void test_refused(void)
{
    CHECK(byoc_aws_xml_parse(NULL, 0) == NULL);
    CHECK(byoc_aws_xml_parse("", 0) == NULL);
    CHECK(byoc_aws_xml_parse("not xml", 7) == NULL);
    CHECK(byoc_aws_xml_parse("<a><b></a>", 10) == NULL);
    CHECK(byoc_aws_xml_parse("<a/><b/>", 8) == NULL);
    /* No DTD at all: neither external entities nor internal ones (entity bombs). */
    const char *ext = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>";
    CHECK(byoc_aws_xml_parse(ext, strlen(ext)) == NULL);
    const char *bomb = "<!DOCTYPE r [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><r>&b;</r>";
    CHECK(byoc_aws_xml_parse(bomb, strlen(bomb)) == NULL);
    CHECK(byoc_aws_xml_parse("<r>&undefined;</r>", 18) == NULL);

    /* Nesting is bounded. */
    size_t deep = BYOC_AWS_XML_MAX_DEPTH + 1;
    char *open_close = malloc(deep * 7 + 1);
    char *p = open_close;
    for (size_t i = 0; i < deep; i++)
        p += sprintf(p, "<a>");
    for (size_t i = 0; i < deep; i++)
        p += sprintf(p, "</a>");
    CHECK(byoc_aws_xml_parse(open_close, strlen(open_close)) == NULL);
    /* ...and one level less is fine. */
    byoc_aws_xml *doc = byoc_aws_xml_parse(open_close + 3, strlen(open_close) - 7);
    CHECK(doc != NULL);
    byoc_aws_xml_free(doc);
    free(open_close);
}

int main(void)
{
    test_reply_shapes();
    test_text();
    test_refused();
    return check_done();
}
