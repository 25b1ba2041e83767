/* The repository policy model (backend/byoc/policy.h) and the diff used to
 * preview it: principals, grants and revocations, idempotence, foreign
 * statements kept as written and in place, lint, and malformed policies. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/policy.h"
#include "core/buf.h"
#include "core/textdiff.h"

#define ROLE "arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole"
#define ROLE2 "arn:aws:iam::210987654321:role/other"
#define USER "arn:aws:iam::123456789012:user/alice"

static byoc_policy *parse(const char *text)
{
    byoc_policy *p = NULL;
    byoc_err err;
    if (byoc_policy_parse(text, "aws", &p, &err) != 0)
        fprintf(stderr, "parse: %s\n", err.message);
    return p;
}

static char *stmt_text(const byoc_policy *p, size_t i)
{
    const json_t *st = json_object_get(byoc_policy_doc(p), "Statement");
    return json_dumps(json_is_array(st) ? json_array_get(st, i) : st, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

static void test_principals(void)
{
    byoc_err err;
    char *out;
    byoc_principal_kind kind;
    CHECK_INT(byoc_policy_principal_normalize("123456789012", "aws", "--allow", &out, &kind, &err), 0);
    CHECK_STR(out, "arn:aws:iam::123456789012:root");
    CHECK_INT(kind, BYOC_PRINCIPAL_ACCOUNT);
    free(out);
    CHECK_INT(byoc_policy_principal_normalize("123456789012", "aws-cn", "--allow", &out, &kind, &err), 0);
    CHECK_STR(out, "arn:aws-cn:iam::123456789012:root");
    free(out);
    CHECK_INT(byoc_policy_principal_normalize(ROLE, NULL, "--allow", &out, &kind, &err), 0);
    CHECK_STR(out, ROLE);
    CHECK_INT(kind, BYOC_PRINCIPAL_ROLE);
    free(out);
    CHECK_INT(byoc_policy_principal_normalize(USER, "aws", "--allow", &out, &kind, &err), 0);
    CHECK_INT(kind, BYOC_PRINCIPAL_USER);
    free(out);
    CHECK_INT(byoc_policy_principal_normalize("arn:aws:iam::123456789012:root", "aws", "--allow", &out, &kind, &err), 0);
    CHECK_INT(kind, BYOC_PRINCIPAL_ACCOUNT);
    free(out);
    CHECK_INT(byoc_policy_principal_normalize("*", "aws", "--allow", &out, &kind, &err), 0);
    CHECK_INT(kind, BYOC_PRINCIPAL_WILDCARD);
    free(out);
    const char *bad[] = {"",
                         "abc",
                         "12345678901",
                         "1234567890123",
                         "arn:aws:iam::12345:role/x",
                         "arn:aws:s3:::bucket",
                         "arn:aws:iam::123456789012:group/devs",
                         "arn:aws:iam::123456789012:role/",
                         "arn:aws:iam::123456789012:role//x",
                         "arn:aws:iam::123456789012:role/bad name",
                         "arn:aws:iam::123456789012:user/a*b",
                         "arn:aws-cn:iam::123456789012:role/x", /* wrong partition for the region */
                         "arn:aws:sts::123456789012:assumed-role/r/s"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        out = NULL;
        int rc = byoc_policy_principal_normalize(bad[i], "aws", "--allow", &out, &kind, &err);
        if (rc == 0)
            fprintf(stderr, "accepted: %s\n", bad[i]);
        CHECK_INT(rc, -1);
        CHECK_INT(err.kind, BYOC_E_USAGE);
        CHECK_STR(err.what, "--allow");
        CHECK(out == NULL);
    }
}

static void test_grant_and_revoke(void)
{
    byoc_policy *p = parse(NULL);
    CHECK(p != NULL);
    CHECK_INT(byoc_policy_statement_count(p), 0);
    char note[512];
    CHECK_INT(byoc_policy_allow_pull(p, ROLE, note, sizeof note), 1);
    char *text = byoc_policy_text(p);
    CHECK_STR(text, "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"ByocPull\",\"Effect\":\"Allow\",\"Principal\":"
                    "{\"AWS\":[\"" ROLE "\"]},\"Action\":[\"ecr:BatchCheckLayerAvailability\",\"ecr:BatchGetImage\","
                    "\"ecr:GetDownloadUrlForLayer\"]}]}");
    /* Twice = once. */
    CHECK_INT(byoc_policy_allow_pull(p, ROLE, note, sizeof note), 0);
    CHECK(strstr(note, "already") != NULL && strstr(note, "ByocPull") != NULL);
    char *again = byoc_policy_text(p);
    CHECK_STR(again, text);
    free(again);
    free(text);
    CHECK(byoc_policy_grants_pull(p, ROLE, false, note, sizeof note));
    CHECK_STR(note, "ByocPull");

    /* A second principal joins byoc's statement. */
    CHECK_INT(byoc_policy_allow_pull(p, "arn:aws:iam::210987654321:root", note, sizeof note), 1);
    CHECK_INT(byoc_policy_statement_count(p), 1);
    /* Through its account root, a role of that account can pull ("broad" check only). */
    CHECK(byoc_policy_grants_pull(p, ROLE2, true, NULL, 0));
    CHECK(!byoc_policy_grants_pull(p, ROLE2, false, NULL, 0));

    CHECK_INT(byoc_policy_revoke_pull(p, ROLE, note, sizeof note), 1);
    CHECK(!byoc_policy_grants_pull(p, ROLE, false, NULL, 0));
    CHECK_INT(byoc_policy_statement_count(p), 1);
    CHECK_INT(byoc_policy_revoke_pull(p, ROLE, note, sizeof note), 0);
    CHECK(strstr(note, "nothing to revoke") != NULL);
    /* A bare account id in the policy matches its root ARN. */
    CHECK_INT(byoc_policy_revoke_pull(p, "arn:aws:iam::210987654321:root", note, sizeof note), 1);
    CHECK_INT(byoc_policy_statement_count(p), 0); /* the empty statement is gone */
    byoc_policy_free(p);
}

static const char *FOREIGN =
    "{\n"
    "  \"Statement\": [\n"
    "    {\"Action\": [\"ecr:BatchGetImage\"], \"Effect\": \"Deny\", \"Sid\": \"NoOldRole\",\n"
    "     \"Principal\": {\"AWS\": \"arn:aws:iam::123456789012:role/old\"}},\n"
    "    {\"Sid\": \"OrgRead\", \"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"ecr:BatchGetImage\",\n"
    "     \"Condition\": {\"StringEquals\": {\"aws:PrincipalOrgID\": \"o-abc\"}}},\n"
    "    {\"Effect\": \"Allow\", \"Principal\": {\"AWS\": \"123456789012\", \"Service\": \"codebuild.amazonaws.com\"},\n"
    "     \"Action\": [\"ecr:BatchGetImage\", \"ecr:GetDownloadUrlForLayer\", \"ecr:BatchCheckLayerAvailability\"]}\n"
    "  ],\n"
    "  \"Version\": \"2012-10-17\"\n"
    "}\n";

static void test_foreign_statements_kept(void)
{
    byoc_policy *p = parse(FOREIGN);
    CHECK(p != NULL);
    CHECK_INT(byoc_policy_statement_count(p), 3);
    char *before[3];
    for (size_t i = 0; i < 3; i++)
        before[i] = stmt_text(p, i);
    char note[512];
    CHECK_INT(byoc_policy_allow_pull(p, ROLE2, note, sizeof note), 1);
    CHECK_INT(byoc_policy_allow_pull(p, USER, note, sizeof note), 1);
    CHECK_INT(byoc_policy_statement_count(p), 4);
    for (size_t i = 0; i < 3; i++) {
        char *after = stmt_text(p, i);
        CHECK_STR(after, before[i]); /* same statement, same key order, same place */
        free(after);
    }
    /* Top-level key order kept too. */
    char *text = byoc_policy_text(p);
    CHECK(strncmp(text, "{\"Statement\":", 13) == 0);
    free(text);
    /* The account-wide grant (a bare id) already covers the account root. */
    CHECK_INT(byoc_policy_allow_pull(p, "arn:aws:iam::123456789012:root", note, sizeof note), 0);
    CHECK(strstr(note, "#3") != NULL);
    /* Revoking what a foreign statement grants: byoc's grant goes, the foreign one is reported. */
    CHECK_INT(byoc_policy_revoke_pull(p, "arn:aws:iam::123456789012:root", note, sizeof note), 0);
    CHECK(strstr(note, "still pull through statement #3") != NULL);
    CHECK_INT(byoc_policy_revoke_pull(p, ROLE2, note, sizeof note), 1);
    CHECK_INT(byoc_policy_revoke_pull(p, USER, note, sizeof note), 1);
    CHECK_INT(byoc_policy_statement_count(p), 3);
    for (size_t i = 0; i < 3; i++) {
        char *after = stmt_text(p, i);
        CHECK_STR(after, before[i]);
        free(after);
        free(before[i]);
    }
    /* A conditional Allow is no grant for idempotence: byoc adds its own. */
    CHECK(!byoc_policy_grants_pull(p, ROLE, false, NULL, 0));
    byoc_policy_free(p);
}

static void test_shapes(void)
{
    char note[512];
    /* A single Statement object becomes an array with it first. */
    byoc_policy *p = parse("{\"Version\":\"2012-10-17\",\"Statement\":{\"Sid\":\"One\",\"Effect\":\"Deny\","
                           "\"Principal\":\"*\",\"Action\":\"ecr:DeleteRepository\"}}");
    CHECK_INT(byoc_policy_allow_pull(p, ROLE, note, sizeof note), 1);
    char *text = byoc_policy_text(p);
    CHECK(strstr(text, "\"Statement\":[{\"Sid\":\"One\"") != NULL);
    CHECK(strstr(text, "\"Sid\":\"ByocPull\"") != NULL);
    free(text);
    byoc_policy_free(p);

    /* A foreign statement already called ByocPull (not byoc's shape): byoc takes ByocPull2. */
    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"ByocPull\",\"Effect\":\"Allow\","
              "\"Principal\":{\"AWS\":\"" USER "\"},\"Action\":\"ecr:*\"}]}");
    CHECK_INT(byoc_policy_allow_pull(p, ROLE, note, sizeof note), 1);
    text = byoc_policy_text(p);
    CHECK(strstr(text, "\"Sid\":\"ByocPull2\"") != NULL);
    free(text);
    CHECK_INT(byoc_policy_revoke_pull(p, USER, note, sizeof note), 0); /* not byoc's to edit */
    CHECK(strstr(note, "ByocPull") != NULL);
    byoc_policy_free(p);

    /* byoc's statement written with a single principal string. */
    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"ByocPull\",\"Effect\":\"Allow\","
              "\"Principal\":{\"AWS\":\"" USER "\"},\"Action\":[\"ecr:BatchGetImage\","
              "\"ecr:GetDownloadUrlForLayer\",\"ecr:BatchCheckLayerAvailability\"]}]}");
    CHECK_INT(byoc_policy_allow_pull(p, ROLE, note, sizeof note), 1);
    CHECK_INT(byoc_policy_statement_count(p), 1);
    text = byoc_policy_text(p);
    CHECK(strstr(text, "\"AWS\":[\"" USER "\",\"" ROLE "\"]") != NULL);
    free(text);
    byoc_policy_free(p);
}

static size_t findings(const byoc_policy *p, byoc_policy_severity sev, const char *needle)
{
    byoc_policy_lint l;
    byoc_policy_lint_run(p, &l);
    size_t n = 0;
    for (size_t i = 0; i < l.n; i++)
        if (l.items[i].severity == sev && (!needle || strstr(l.items[i].message, needle)))
            n++;
    byoc_policy_lint_clear(&l);
    return n;
}

static void test_lint(void)
{
    byoc_policy *p = parse(NULL);
    char note[256];
    byoc_policy_allow_pull(p, ROLE, note, sizeof note);
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, NULL), 0);
    CHECK_INT(findings(p, BYOC_POLICY_WARN, NULL), 0);
    byoc_policy_free(p);

    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\","
              "\"Action\":[\"ecr:BatchGetImage\"]}]}");
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, "Principal \"*\""), 1);
    byoc_policy_free(p);
    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":[\"" ROLE
              "\",\"*\"]},\"Action\":\"ecr:BatchGetImage\"}]}");
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, "Principal \"*\""), 1);
    byoc_policy_free(p);
    p = parse(FOREIGN);
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, NULL), 0);
    CHECK_INT(findings(p, BYOC_POLICY_WARN, "with a Condition"), 1);
    byoc_policy_free(p);
    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"W\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" ROLE
              "\"},\"Action\":[\"ecr:*\",\"ecr:Batch?etImage\"]}]}");
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, "wildcard action"), 2);
    byoc_policy_free(p);
    p = parse("{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" ROLE
              "\"},\"Action\":\"ecr:BatchGetImage\",\"Resource\":\"*\"}]}");
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, "no Resource"), 1);
    byoc_policy_free(p);
    p = parse("{\"Statement\":[{\"Sid\":\"S\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"not-an-arn\"},"
              "\"Action\":\"ecr:BatchGetImage\"},{\"Sid\":\"S\",\"Effect\":\"Deny\",\"Principal\":{\"AWS\":\"" ROLE
              "\"},\"Action\":\"ecr:PutImage\"},{\"Effect\":\"Maybe\",\"Principal\":\"*\",\"Action\":\"x\"}]}");
    CHECK_INT(findings(p, BYOC_POLICY_WARN, "not-an-arn"), 1);
    CHECK_INT(findings(p, BYOC_POLICY_WARN, "no Version"), 1);
    CHECK_INT(findings(p, BYOC_POLICY_WARN, "used twice"), 1);
    CHECK_INT(findings(p, BYOC_POLICY_BLOCK, "Effect"), 1);
    byoc_policy_free(p);
    /* Too long for ECR. */
    byoc_policy *big = parse(NULL);
    for (int i = 0; i < 200; i++) {
        char arn[96];
        snprintf(arn, sizeof arn, "arn:aws:iam::123456789012:role/a-rather-long-role-name-number-%03d", i);
        byoc_policy_allow_pull(big, arn, note, sizeof note);
    }
    CHECK_INT(findings(big, BYOC_POLICY_BLOCK, "characters"), 1);
    byoc_policy_free(big);
}

static void test_invalid(void)
{
    const char *bad[] = {"{", "[]", "\"x\"", "{\"Statement\": \"x\"}", "{\"Statement\": [1]}",
                         "{\"Version\":\"2012-10-17\",\"Version\":\"2008-10-17\",\"Statement\":[]}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        byoc_policy *p = (byoc_policy *)1;
        byoc_err err;
        CHECK_INT(byoc_policy_parse(bad[i], "aws", &p, &err), -1);
        CHECK(p == NULL);
        CHECK(strstr(err.message, "not valid") != NULL);
        CHECK(strstr(err.message, "nothing was changed") != NULL);
    }
}

static void test_diff(void)
{
    char *d = byoc_unified_diff("a\nb\nc\n", "a\nb\nc\n", "old", "new", 3);
    CHECK_STR(d, "");
    free(d);
    d = byoc_unified_diff("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nb\nC\nd\ne\nf\ng\nh\nI\n", "old", "new", 1);
    CHECK_STR(d, "--- old\n+++ new\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n@@ -8,1 +8,2 @@\n h\n+I\n");
    free(d);
    d = byoc_unified_diff("", "x\ny\n", "old", "new", 3);
    CHECK_STR(d, "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n");
    free(d);
    d = byoc_unified_diff("x\n", NULL, "old", "new", 3);
    CHECK_STR(d, "--- old\n+++ new\n@@ -1,1 +0,0 @@\n-x\n");
    free(d);

    /* A policy edit reads as lines added at the end of the statement list. */
    byoc_policy *p = parse(FOREIGN);
    char *a = byoc_policy_pretty(p);
    char note[256];
    byoc_policy_allow_pull(p, ROLE, note, sizeof note);
    char *b = byoc_policy_pretty(p);
    d = byoc_unified_diff(a, b, "old", "new", 3);
    CHECK(strstr(d, "+      \"Sid\": \"ByocPull\",\n") != NULL);
    CHECK(strstr(d, "-      \"Sid\"") == NULL);
    free(d);
    free(a);
    free(b);
    byoc_policy_free(p);
}

/* A Sid or a principal longer than a finding holds is cut on a character
 * boundary: cut mid-character, the finding was invalid UTF-8 and permit --json
 * silently lost the warning ("warnings": []) that stderr showed. */
static void test_lint_long_utf8(void)
{
    char sid[120], principal[400], text[1200];
    memset(sid, 'a', 78);
    strcpy(sid + 78, "\xc3\xa9"); /* 78 + 2 bytes: statement[80] holds 79 */
    memset(principal, 'p', 300);
    strcpy(principal + 300, "\xe2\x9c\x93\xe2\x9c\x93");
    snprintf(text, sizeof text, "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"%s\",\"Effect\":\"Allow\","
             "\"Principal\":{\"AWS\":\"%s\"},\"Action\":\"ecr:BatchGetImage\"}]}", sid, principal);
    byoc_policy *p = parse(text);
    byoc_policy_lint l;
    byoc_policy_lint_run(p, &l);
    CHECK_INT(l.n, 1);
    for (size_t i = 0; i < l.n; i++) {
        CHECK_INT(strlen(l.items[i].statement), 78);
        json_t *j = json_pack("{s:s, s:s}", "statement", l.items[i].statement, "message", l.items[i].message);
        CHECK(j != NULL); /* json_pack refuses invalid UTF-8 */
        json_decref(j);
    }
    byoc_policy_lint_clear(&l);
    byoc_policy_free(p);
}

/* Whom a policy lets pull, as the Push step reports it: every principal of an unconditional
 * Allow of all three pull actions, once each, accounts as root ARNs; nothing else counts. */
static void test_pull_principals(void)
{
    byoc_policy *p = parse(
        "{\"Version\": \"2012-10-17\", \"Statement\": ["
        "{\"Sid\": \"Pull\", \"Effect\": \"Allow\", \"Principal\": {\"AWS\": [\"" ROLE "\", \"210987654321\"]},"
        " \"Action\": [\"ecr:BatchCheckLayerAvailability\", \"ecr:BatchGetImage\", \"ecr:GetDownloadUrlForLayer\"]},"
        "{\"Sid\": \"Again\", \"Effect\": \"Allow\", \"Principal\": {\"AWS\": \"" ROLE "\"}, \"Action\": \"ecr:*\"},"
        "{\"Sid\": \"Half\", \"Effect\": \"Allow\", \"Principal\": {\"AWS\": \"" USER "\"}, \"Action\": \"ecr:BatchGetImage\"},"
        "{\"Sid\": \"Cond\", \"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"ecr:*\","
        " \"Condition\": {\"StringEquals\": {\"aws:PrincipalOrgID\": \"o-1\"}}},"
        "{\"Sid\": \"Deny\", \"Effect\": \"Deny\", \"Principal\": {\"AWS\": \"" ROLE2 "\"}, \"Action\": \"ecr:*\"}]}");
    CHECK(p != NULL);
    byoc_strv who = BYOC_STRV_INIT;
    byoc_policy_pull_principals(p, &who);
    CHECK_INT(who.n, 2);
    CHECK(who.n == 2 && !strcmp(who.v[0], ROLE) && !strcmp(who.v[1], "arn:aws:iam::210987654321:root"));
    byoc_strv_clear(&who);
    byoc_policy_free(p);

    p = parse("{\"Statement\": {\"Effect\": \"Allow\", \"Principal\": \"*\", \"Action\": \"ecr:*\"}}");
    byoc_policy_pull_principals(p, &who);
    CHECK(who.n == 1 && !strcmp(who.v[0], "*"));
    byoc_strv_clear(&who);
    byoc_policy_free(p);

    p = parse(NULL); /* no policy: no one */
    byoc_policy_pull_principals(p, &who);
    CHECK_INT(who.n, 0);
    byoc_strv_clear(&who);
    byoc_policy_free(p);
}

int main(void)
{
    test_pull_principals();
    test_principals();
    test_grant_and_revoke();
    test_foreign_statements_kept();
    test_shapes();
    test_lint();
    test_lint_long_utf8();
    test_invalid();
    test_diff();
    return check_done();
}
