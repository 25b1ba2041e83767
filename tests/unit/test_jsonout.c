/* core/jsonout: reals in their shortest round-trip form, everything else as jansson writes it. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/jsonout.h"

static void real_is(double v, const char *want)
{
    char buf[64];
    byoc_json_real_text(v, buf, sizeof buf);
    CHECK_STR(buf, want);
}

static void test_reals(void)
{
    real_is(0.03, "0.03");
    real_is(0.1 + 0.2, "0.30000000000000004");
    real_is(2.0, "2.0");
    real_is(-1.5, "-1.5");
    real_is(1e-7, "1e-7");
    real_is(1e20, "1e20");
    real_is(123456789.125, "123456789.125");
    real_is(5e-324, "5e-324");
    real_is(1.7976931348623157e308, "1.7976931348623157e308");
}

static void test_documents(void)
{
    /* a string that looks like a number stays as it is, keys too */
    json_t *doc = json_pack("{s:f, s:s, s:[f, i, b], s:f}", "loss", 0.03, "0.029999999999999999", "0.25",
                            "xs", 0.1, 7, 1, "q\"0.5\"", 1e-3);
    char *text = byoc_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
    CHECK_STR(text, "{\"loss\":0.03,\"0.029999999999999999\":\"0.25\",\"xs\":[0.1,7,true],\"q\\\"0.5\\\"\":0.001}");
    free(text);
    text = byoc_json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    CHECK(strstr(text, "\"loss\": 0.03,\n") != NULL);
    free(text);
    json_decref(doc);

    json_t *one = json_real(0.7);
    text = byoc_json_dumps(one, JSON_ENCODE_ANY);
    CHECK_STR(text, "0.7");
    free(text);
    json_decref(one);
}

/* --json on a terminal is as harmless as plain output: besides jansson's
 * escapes, DEL, the C1 controls (U+009B is a one-byte CSI to a terminal that
 * reads 8-bit controls) and U+2028/U+2029 are written \uXXXX, in values and
 * keys; other UTF-8 stays as it is. byoc_json_put_string writes the same bytes. */
static void test_c1_escaped(void)
{
    const char *evil = "\x1b]0;PWNED\x07\x1b[2J\xc2\x9b" "31m\xc2\x80\xc2\x9f\x7f"
                       " \xc2\xa0\xc3\xa9 \xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xa7";
    const char *want = "\"\\u001B]0;PWNED\\u0007\\u001B[2J\\u009B31m\\u0080\\u009F\\u007F \xc2\xa0\xc3\xa9 "
                       "\\u2028\\u2029\xe2\x80\xa7\"";
    json_t *doc = json_pack("{s:s}", evil, evil);
    char *text = byoc_json_dumps(doc, JSON_COMPACT);
    char *expect = malloc(2 * strlen(want) + 4);
    sprintf(expect, "{%s:%s}", want, want);
    CHECK_STR(text, expect);
    free(expect);
    free(text);
    json_decref(doc);

    byoc_buf b = BYOC_BUF_INIT;
    byoc_json_put_string(&b, evil, strlen(evil));
    CHECK_STR(byoc_buf_str(&b), want);
    byoc_buf_reset(&b);
    /* jansson's own escapes, and a NUL inside a string of known length */
    byoc_json_put_string(&b, "q\"b\\/\b\f\n\r\t\x01\0z", 13);
    CHECK_STR(byoc_buf_str(&b), "\"q\\\"b\\\\/\\b\\f\\n\\r\\t\\u0001\\u0000z\"");
    json_t *s = json_stringn("q\"b\\/\b\f\n\r\t\x01\0z", 13);
    text = byoc_json_dumps(s, JSON_ENCODE_ANY);
    CHECK_STR(text, byoc_buf_str(&b));
    free(text);
    json_decref(s);
    byoc_buf_clear(&b);
}

/* A locale whose decimal point is ',' changes neither the text nor the round trip. */
static void test_locale(void)
{
    if (!setlocale(LC_NUMERIC, "de_DE.UTF-8") && !setlocale(LC_NUMERIC, "fr_FR.UTF-8"))
        return;
    real_is(0.03, "0.03");
    setlocale(LC_NUMERIC, "C");
}

int main(void)
{
    test_reals();
    test_documents();
    test_c1_escaped();
    test_locale();
    return check_done();
}
