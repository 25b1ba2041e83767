/* core/str: the optional copy, replacing a string field (also from a value inside the field),
 * and the byte count for people. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/str.h"

int main(void)
{
    char *s = byoc_xstrdup_opt(NULL);
    CHECK(s == NULL);
    s = byoc_xstrdup_opt("abc");
    CHECK_STR(s, "abc");

    byoc_str_set(&s, "defg");
    CHECK_STR(s, "defg");
    byoc_str_set(&s, s + 1); /* a value inside the field itself */
    CHECK_STR(s, "efg");
    byoc_str_set(&s, NULL);
    CHECK(s == NULL);
    byoc_str_set(&s, "");
    CHECK_STR(s, "");
    free(s);

    char b[64];
    CHECK_STR(byoc_fmt_bytes(0, b, sizeof b), "0 B");
    CHECK_STR(byoc_fmt_bytes(1023, b, sizeof b), "1023 B");
    CHECK_STR(byoc_fmt_bytes(1024, b, sizeof b), "1.0 KiB");
    CHECK_STR(byoc_fmt_bytes(1536, b, sizeof b), "1.5 KiB");
    CHECK_STR(byoc_fmt_bytes(1048575, b, sizeof b), "1.0 MiB"); /* never "1024.0 KiB" */
    CHECK_STR(byoc_fmt_bytes(15 * 1048576 + 314573, b, sizeof b), "15.3 MiB");
    CHECK_STR(byoc_fmt_bytes(2LL << 30, b, sizeof b), "2.0 GiB");
    CHECK_STR(byoc_fmt_bytes(5LL << 40, b, sizeof b), "5.0 TiB");
    CHECK_STR(byoc_fmt_bytes(-1, b, sizeof b), "-");
    return check_done();
}
