/* tui/cli_json: a listing written page by page is, byte for byte, the document
 * byoc_cli_print_json prints when it holds the whole listing; a listing that
 * fails midway is still one JSON document, with its reason. */
#include "check.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "core/jsonout.h"

/* What byoc_cli_print_json writes for doc. */
static char *held(json_t *doc)
{
    char *s = byoc_json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    char *out = malloc(strlen(s) + 2);
    sprintf(out, "%s\n", s);
    free(s);
    return out;
}

/* items written in pages of `per` (0: no page at all), then ended with error. */
static char *streamed(json_t *items, size_t per, const json_t *error)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    byoc_json_list l;
    byoc_json_list_begin(&l, f, "jobs");
    for (size_t i = 0; per && i < json_array_size(items); i += per) {
        json_t *page = json_array();
        for (size_t k = i; k < i + per && k < json_array_size(items); k++)
            json_array_append(page, json_array_get(items, k));
        byoc_json_list_add_all(&l, page);
        json_decref(page);
    }
    byoc_json_list_end(&l, error);
    fclose(f);
    return text;
}

static json_t *job(int i)
{
    char name[64];
    snprintf(name, sizeof name, "job-%d", i);
    return json_pack("{s:s, s:s, s:s, s:o, s:s}", "job_arn", "arn:aws:braket:us-east-1:123456789012:job/x",
                     "job_name", name, "status", "COMPLETED", "created", i % 3 ? json_string("2025-01-01T00:00:00Z")
                                                                                    : json_null(),
                     "device", "arn:aws:braket:::device/quantum-simulator/amazon/sv1");
}

static void check_same(json_t *items, size_t per)
{
    json_t *doc = json_pack("{s:O}", "jobs", items);
    char *want = held(doc), *got = streamed(items, per, NULL);
    CHECK_STR(got, want);
    free(want);
    free(got);
    json_decref(doc);
}

int main(void)
{
    json_t *items = json_array();
    check_same(items, 0);                                  /* no job: {"jobs": []} */
    for (int i = 0; i < 250; i++)
        json_array_append_new(items, job(i));
    check_same(items, 100);                                /* 100, 100, 50 */
    check_same(items, 1);

    /* every string escape jansson writes, UTF-8 kept as is, other scalars, nested values */
    json_t *odd = json_array();
    json_array_append_new(odd, json_pack("{s:s, s:s, s:s}", "job_name", "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f",
                                         "status", "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80", "device", ""));
    json_array_append_new(odd, json_pack("{s:i, s:f, s:f, s:b, s:n}", "n", -42, "x", 1.5, "y", 0.03, "t", 1, "z"));
    json_array_append_new(odd, json_pack("{s:{s:[i,i]}, s:[]}", "nested", "a", 1, 2, "empty"));
    json_array_append_new(odd, json_object());
    json_array_append_new(odd, json_pack("{s:s}", "k\"ey", "v"));
    /* C1 controls (U+009B is a one-byte CSI), DEL, U+2028/9: escaped in values and keys alike */
    json_array_append_new(odd, json_pack("{s:s, s:s}", "k\xc2\x9b",
                                         "\xc2\x80\xc2\x9b" "31m\xc2\x9f\xc2\xa0 \xe2\x80\xa8\xe2\x80\xa9\x7f",
                                         "\xe2\x80\xa8", "x"));
    json_array_append_new(odd, json_string("not an object"));
    json_array_append_new(odd, json_pack("[i, {s:s}]", 1, "a", "b"));
    check_same(odd, 2);
    check_same(odd, 1);
    char *c1 = streamed(odd, 1, NULL);
    CHECK(strstr(c1, "\"\\u0080\\u009B31m\\u009F\xc2\xa0 \\u2028\\u2029\\u007F\"") != NULL);
    CHECK(strstr(c1, "\"k\\u009B\": ") != NULL);
    CHECK(strstr(c1, "\xc2\x9b") == NULL && strstr(c1, "\xe2\x80\xa8") == NULL && strchr(c1, 0x7f) == NULL);
    free(c1);
    json_decref(odd);

    /* failing after two pages: the jobs so far, then the error object; still one document */
    json_t *failure = json_pack("{s:s, s:s, s:i, s:s}", "what", "braket", "why", "SearchJobs: \"slow down\"\n",
                                "exit_code", 3, "code", "ThrottlingException");
    char *text = streamed(items, 100, failure);
    json_error_t e;
    json_t *doc = json_loads(text, 0, &e);
    CHECK(doc != NULL);
    CHECK_INT(json_array_size(json_object_get(doc, "jobs")), 250);
    CHECK(json_equal(json_object_get(doc, "error"), failure));
    CHECK_INT(json_object_size(doc), 2);
    /* laid out as the held document would be */
    char *want = held(doc);
    CHECK_STR(text, want);
    free(want);
    json_decref(doc);
    free(text);

    /* failing before the first page: nothing written (the CLI prints its error document) */
    text = streamed(items, 0, failure);
    CHECK_STR(text, "");
    free(text);
    json_decref(failure);

    json_decref(items);
    return check_done();
}
