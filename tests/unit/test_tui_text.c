/* The text helpers every widget draws with: widths, fitting with an
 * ellipsis, column skipping, case-insensitive search, sanitizing, wrapping. */
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "text.h"

static char wrapped[16][64];
static int nwrapped;

static void collect(const char *s, size_t n, void *ud)
{
    (void)ud;
    if (nwrapped < 16)
        snprintf(wrapped[nwrapped++], sizeof wrapped[0], "%.*s", (int)n, s);
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    char buf[64];

    CHECK_INT(tui_text_width("hello"), 5);
    CHECK_INT(tui_text_width("h\xc3\xa9llo"), 5);            /* é */
    CHECK_INT(tui_text_width("\xe4\xb8\xad\xe6\x96\x87"), 4); /* 中文: two wide */
    CHECK_INT(tui_text_width(""), 0);

    unsigned cp;
    CHECK_INT(byoc_utf8_decode("\xe2\x82\xac", &cp), 3);
    CHECK_INT(cp, 0x20AC);
    CHECK_INT(byoc_utf8_decode("\xff", &cp), 1);
    CHECK_INT(cp, 0xFFFD);
    CHECK_INT(byoc_utf8_decode("\xc0\xaf", &cp), 1);           /* overlong */
    char enc[4];
    CHECK_INT(byoc_utf8_encode(0x1F600, enc), 4);

    /* fitting with an ellipsis */
    CHECK_INT(tui_text_fit("abcdef", 10, "~", buf, sizeof buf), 6);
    CHECK_STR(buf, "abcdef");
    CHECK_INT(tui_text_fit("abcdef", 4, "~", buf, sizeof buf), 4);
    CHECK_STR(buf, "abc~");
    tui_text_fit("abcdef", 4, "\xe2\x80\xa6", buf, sizeof buf);
    CHECK_STR(buf, "abc\xe2\x80\xa6");
    tui_text_fit("\xe4\xb8\xad\xe6\x96\x87\xe5\xad\x97", 4, "~", buf, sizeof buf);  /* 中文字 in 4 cols */
    CHECK_STR(buf, "\xe4\xb8\xad~");                        /* a wide char never split */
    CHECK_INT(tui_text_width(buf), 3);
    tui_text_fit("abc", 0, "~", buf, sizeof buf);
    CHECK_STR(buf, "");
    tui_text_fit("abcdef", 1, "~~", buf, sizeof buf);        /* ellipsis wider than the room */
    CHECK_STR(buf, "a");

    CHECK_INT(tui_text_fit_tail("/home/ana/qaoa-job", 10, "~", buf, sizeof buf), 10);
    CHECK_STR(buf, "~/qaoa-job");
    tui_text_fit_tail("short", 10, "~", buf, sizeof buf);
    CHECK_STR(buf, "short");
    tui_text_fit_tail("a\xe4\xb8\xad" "bc", 3, "~", buf, sizeof buf);   /* never half a wide char */
    CHECK_STR(buf, "~bc");

    CHECK_INT(tui_text_fit_bytes("abcdef", 3), 3);
    CHECK_INT(tui_text_fit_bytes("\xe4\xb8\xad\xe6\x96\x87", 3), 3);

    int pad;
    CHECK_STR(tui_text_skip_cols("abcdef", 2, &pad), "cdef");
    CHECK_INT(pad, 0);
    CHECK_STR(tui_text_skip_cols("\xe4\xb8\xad" "ab", 1, &pad), "ab");  /* half of a wide char */
    CHECK_INT(pad, 1);

    CHECK(tui_text_casestr("Hello World", "WORLD") != NULL);
    CHECK(tui_text_casestr("Hello", "xyz") == NULL);
    CHECK_STR(tui_text_casestr("abcABC", "Bc"), "bcABC");
    CHECK(tui_text_casestr("\xc3\x89t\xc3\xa9", "\xc3\xa9T") != NULL); /* ÉTÉ folds */
    CHECK_STR(tui_text_casestr("abc", ""), "abc");
    CHECK_STR(tui_text_casestr("\xc3\x89t\xc3\xa9 Job-7", "job-"), "Job-7");   /* ASCII needle past UTF-8 */
    CHECK_STR(tui_text_casestr("aaab", "AAB"), "aab");        /* a failed partial match restarts */
    CHECK(tui_text_casestr("ab", "abc") == NULL);

    char *s = tui_text_sanitize("\x1b[31mred\x1b[0m\tx\r\x07!", 100);
    CHECK_STR(s, "red     x?!");
    free(s);
    s = tui_text_sanitize("a\x1b]0;title\x07" "b", 100);       /* OSC title */
    CHECK_STR(s, "ab");
    free(s);
    s = tui_text_sanitize("ok\xff\xfe", 4);
    CHECK_STR(s, "ok??");
    free(s);
    s = tui_text_sanitize("abcdef", 3);
    CHECK_STR(s, "abc");
    free(s);

    nwrapped = 0;
    CHECK_INT(tui_text_wrap("the quick brown fox jumps", 10, collect, NULL), 3);
    CHECK_STR(wrapped[0], "the quick");
    CHECK_STR(wrapped[1], "brown fox");
    CHECK_STR(wrapped[2], "jumps");
    nwrapped = 0;
    CHECK_INT(tui_text_wrap("abcdefghij", 4, collect, NULL), 3);   /* no space: hard cut */
    CHECK_STR(wrapped[2], "ij");
    nwrapped = 0;
    CHECK_INT(tui_text_wrap("a\n\nb", 10, collect, NULL), 3);
    CHECK_STR(wrapped[1], "");
    CHECK_INT(tui_text_wrap("", 10, NULL, NULL), 0);
    CHECK_INT(tui_text_wrap("x", 0, NULL, NULL), 1);
    return check_done();
}
