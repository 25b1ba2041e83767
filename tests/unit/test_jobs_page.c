/* byoc/jobs_page: the streaming SearchJobs reader gives what the jansson path gave (json_loadb of
 * the reply, then byoc_job_summary_json for each object in "jobs"), for ordinary, odd and hostile
 * replies alike: the same summaries, the same nextToken, the same refusals. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/jobref.h"
#include "byoc/jobs_page.h"
#include "check.h"

/* What the jansson path made of `reply`: false when json_loadb refused it. */
static bool old_path(const char *reply, size_t len, json_t **summaries, char **next)
{
    *summaries = json_array();
    *next = NULL;
    if (len == 0)
        return true;
    json_t *page = json_loadb(reply, len, 0, NULL);
    if (!page)
        return false;
    size_t i;
    json_t *j;
    json_array_foreach(json_object_get(page, "jobs"), i, j)
        if (json_is_object(j))
            json_array_append_new(*summaries, byoc_job_summary_json(j));
    const char *t = json_string_value(json_object_get(page, "nextToken"));
    *next = t ? strdup(t) : NULL;
    json_decref(page);
    return true;
}

/* Whether reply holds a control character JSON never allows raw (RFC 8259: only tab, LF and CR,
 * between tokens). jansson takes a NUL right after a number or literal for the token's end and
 * so parses "[0\0]"; the reader refuses it, as the RFC does. */
static bool has_raw_control(const char *reply, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)reply[i] < 0x20 && reply[i] != '\t' && reply[i] != '\n' && reply[i] != '\r')
            return true;
    return false;
}

static void same_as_jansson_n(const char *what, const char *reply, size_t len)
{
    json_t *want;
    char *want_next;
    bool ok = old_path(reply, len, &want, &want_next) && !has_raw_control(reply, len);
    byoc_jobs_page got;
    byoc_err err = {0};
    int rc = byoc_jobs_page_parse(reply, len, 1000, &got, &err);
    if ((rc == 0) != ok)
        fprintf(stderr, "  %s: jansson %s, jobs_page %s (%s)\n", what, ok ? "accepts" : "refuses",
                rc == 0 ? "accepts" : "refuses", err.message);
    CHECK((rc == 0) == ok);
    if (rc == 0 && ok) {
        bool equal = json_equal(want, got.summaries);
        if (!equal) {
            char *a = json_dumps(want, JSON_COMPACT), *b = json_dumps(got.summaries, JSON_COMPACT);
            fprintf(stderr, "  %s:\n    jansson  %s\n    jobs_page %s\n", what, a, b);
            free(a);
            free(b);
        }
        CHECK(equal);
        CHECK((want_next == NULL) == (got.next_token == NULL));
        if (want_next && got.next_token)
            CHECK_STR(got.next_token, want_next);
    } else if (rc != 0) {
        CHECK(strstr(err.message, "SearchJobs: the reply is not JSON") != NULL);
        CHECK(got.summaries == NULL);
    }
    byoc_jobs_page_clear(&got);
    json_decref(want);
    free(want_next);
}

static void same_as_jansson(const char *what, const char *reply)
{
    same_as_jansson_n(what, reply, strlen(reply));
}

static void test_ordinary(void)
{
    same_as_jansson("empty body", "");
    same_as_jansson("empty page", "{\"jobs\": []}");
    same_as_jansson("two jobs and a token",
                    "{\"jobs\": [{\"jobArn\": \"arn:aws:braket:us-east-1:1:job/a\", \"jobName\": \"a\", "
                    "\"status\": \"RUNNING\", \"createdAt\": \"2026-12-05T10:00:00.000Z\", "
                    "\"device\": \"arn:aws:braket:::device/quantum-simulator/amazon/sv1\", "
                    "\"tags\": {\"k\": \"v\"}, \"startedAt\": \"2026-12-05T10:01:00Z\"},"
                    "{\"jobArn\": \"arn:aws:braket:us-east-1:1:job/b\", \"jobName\": \"b\", \"status\": \"COMPLETED\", "
                    "\"createdAt\": \"2026-12-05T09:00:00.000Z\", \"device\": \"local:braket/default_simulator\"}], "
                    "\"nextToken\": \"tok-1\"}");
    same_as_jansson("escapes in strings", "{\"jobs\": [{\"jobName\": \"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\\n\"}]}");
    same_as_jansson("token first", "{\"nextToken\": \"t\", \"jobs\": [{\"jobName\": \"x\"}]}");
    same_as_jansson("top-level array", "[{\"jobs\": [{\"jobName\": \"x\"}]}]");
}

static void test_missing_and_mistyped(void)
{
    same_as_jansson("no members", "{\"jobs\": [{}]}");
    same_as_jansson("mistyped members",
                    "{\"jobs\": [{\"jobArn\": 1, \"jobName\": null, \"status\": true, \"createdAt\": [\"x\"], "
                    "\"device\": {\"a\": \"b\"}}]}");
    same_as_jansson("entries that are not objects", "{\"jobs\": [1, \"two\", null, [3], {\"jobName\": \"ok\"}, false]}");
    same_as_jansson("jobs not an array", "{\"jobs\": {\"jobName\": \"x\"}, \"nextToken\": 5}");
    same_as_jansson("nextToken mistyped", "{\"jobs\": [], \"nextToken\": {\"t\": \"x\"}}");
    same_as_jansson("nested jobs keys ignored", "{\"other\": {\"jobs\": [{\"jobName\": \"no\"}], \"nextToken\": \"no\"}}");
    same_as_jansson("deep member inside a job", "{\"jobs\": [{\"x\": {\"jobName\": \"inner\"}, \"jobName\": \"outer\"}]}");
    same_as_jansson("repeated member: the last counts", "{\"jobs\": [{\"jobName\": \"a\", \"jobName\": \"b\"}]}");
    same_as_jansson("repeated jobs: the last counts", "{\"jobs\": [{\"jobName\": \"a\"}], \"jobs\": [{\"jobName\": \"b\"}]}");
    same_as_jansson("repeated token", "{\"nextToken\": \"a\", \"nextToken\": \"b\"}");
    same_as_jansson("big numbers", "{\"jobs\": [{\"jobName\": \"n\", \"x\": 123456789012345678901234567890, \"y\": -1.5e999}]}");
}

static void test_refused(void)
{
    same_as_jansson("not JSON", "<html>Service Unavailable</html>");
    same_as_jansson("truncated", "{\"jobs\": [{\"jobName\": \"a\"");
    same_as_jansson("trailing data", "{\"jobs\": []} {\"jobs\": []}");
    same_as_jansson("a scalar", "\"jobs\"");
    same_as_jansson("whitespace only", "   ");
    same_as_jansson("NUL escape", "{\"jobs\": [{\"jobName\": \"a\\u0000b\"}]}");
    same_as_jansson("NUL escape in a key", "{\"jo\\u0000bs\": []}");
    same_as_jansson_n("raw NUL", "{\"jobs\": [{\"jobName\": \"a\0b\"}]}", 28);
    same_as_jansson_n("raw NUL after a number", "{\"jobs\": [0\0, {\"status\": \"\"}]}", 30);
    same_as_jansson("form feed between tokens", "{\"jobs\":\f[]}");
    same_as_jansson("control character", "{\"jobs\": [{\"jobName\": \"a\x01\"}]}");
    same_as_jansson("invalid UTF-8", "{\"jobs\": [{\"jobName\": \"\xff\xfe\"}]}");
    same_as_jansson("lone surrogate", "{\"jobs\": [{\"jobName\": \"\\ud800\"}]}");
    /* yajl lets these through; jansson does not (found by fuzz.jobs_page) */
    same_as_jansson("overlong UTF-8", "{\"jobs\": [{}, {\"joTtatus\": \"RUNN\xc0\xb1G\"}]}");
    same_as_jansson("encoded surrogate", "{\"jobs\": [{\"jobName\": \"\xed\xa0\x80\"}]}");
    same_as_jansson("past U+10FFFF", "{\"jobs\": [{\"jobName\": \"\xf4\x90\x80\x80\"}]}");
    same_as_jansson("cut sequence", "{\"jobs\": [{\"jobName\": \"\xe2\x82\"}]}");
    same_as_jansson("valid 4-byte", "{\"jobs\": [{\"jobName\": \"\xf0\x9f\x98\x80\"}]}");

    /* nesting: jansson refuses past 2048 levels; so does the reader */
    for (int depth = 2040; depth <= 2056; depth += 8) {
        size_t n = (size_t)depth * 2 + 16;
        char *deep = malloc(n);
        size_t k = 0;
        k += (size_t)sprintf(deep, "{\"jobs\": ");
        for (int i = 0; i < depth - 1; i++)
            deep[k++] = '[';
        for (int i = 0; i < depth - 1; i++)
            deep[k++] = ']';
        deep[k++] = '}';
        char what[32];
        snprintf(what, sizeof what, "depth %d", depth);
        same_as_jansson_n(what, deep, k);
        free(deep);
    }
}

static void test_max(void)
{
    const char *reply = "{\"jobs\": [{\"jobName\": \"a\"}, {\"jobName\": \"b\"}, 7, {\"jobName\": \"c\"}], \"nextToken\": \"t\"}";
    byoc_jobs_page p;
    CHECK_INT(byoc_jobs_page_parse(reply, strlen(reply), 2, &p, NULL), 0);
    CHECK_INT(json_array_size(p.summaries), 2);
    CHECK_INT(p.seen, 3);
    CHECK_STR(p.next_token, "t");
    CHECK_STR(json_string_value(json_object_get(json_array_get(p.summaries, 1), "job_name")), "b");
    byoc_jobs_page_clear(&p);
}

int main(void)
{
    test_ordinary();
    test_missing_and_mistyped();
    test_refused();
    test_max();
    return check_done();
}
