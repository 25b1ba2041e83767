/* core/jsonnum: JSON numbers to int64_t. Reals beyond int64_t's range (a fuzzer
 * found "ingestionTime": 100e100 in a CloudWatch Logs page) are refused, never cast. */
#include <jansson.h>
#include <stdint.h>

#include "check.h"
#include "core/jsonnum.h"

static int64_t from_text(const char *text, int64_t fallback)
{
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
    CHECK(j != NULL);
    int64_t n = byoc_json_int64_or(j, fallback);
    json_decref(j);
    return n;
}

int main(void)
{
    CHECK_INT(from_text("42", -1), 42);
    CHECK_INT(from_text("-42", -1), -42);
    CHECK_INT(from_text("9223372036854775807", -1), INT64_MAX);
    CHECK_INT(from_text("-9223372036854775808", -1), INT64_MIN);
    CHECK_INT(from_text("1.9", -1), 1);
    CHECK_INT(from_text("-1.9", -1), -1);
    CHECK_INT(from_text("1.7e12", -1), 1700000000000LL);
    CHECK_INT(from_text("-9223372036854775808.0", -1), INT64_MIN);

    /* Out of range: refused, the fallback comes back. */
    CHECK_INT(from_text("100e100", -1), -1);
    CHECK_INT(from_text("-100e100", 7), 7);
    CHECK_INT(from_text("9223372036854775808.0", 0), 0); /* 2^63 */
    CHECK_INT(from_text("1e19", 0), 0);
    CHECK_INT(from_text("1e308", 0), 0);

    /* Not a number. */
    CHECK_INT(from_text("\"12\"", -1), -1);
    CHECK_INT(from_text("null", -1), -1);
    CHECK_INT(from_text("true", -1), -1);
    CHECK_INT(byoc_json_int64_or(NULL, 5), 5);

    int64_t kept = 99;
    json_t *huge = json_real(1e300);
    CHECK(!byoc_json_int64(huge, &kept));
    CHECK_INT(kept, 99);
    json_decref(huge);
    return check_done();
}
