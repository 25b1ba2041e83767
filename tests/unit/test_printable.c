/* core/utf8's byoc_printable_inplace and the error records built on it: text
 * from outside byoc (a service's message, a job's failure reason, an archive's
 * entry name) reaches the terminal as one line with no control sequence. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/err.h"
#include "core/utf8.h"

static char *printable(const char *in)
{
    char *s = strdup(in);
    size_t n = byoc_printable_inplace(s);
    CHECK_INT(n, strlen(s));
    return s;
}

#define CHECK_PRINTABLE(in, want) \
    do { char *got_ = printable(in); CHECK_STR(got_, want); free(got_); } while (0)

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
            return true;
    return false;
}

static void test_text_kept(void)
{
    CHECK_PRINTABLE("", "");
    CHECK_PRINTABLE("plain ASCII, with [brackets] ~", "plain ASCII, with [brackets] ~");
    CHECK_PRINTABLE("h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x9a\x80", "h\xc3\xa9llo \xe2\x9c\x93 \xf0\x9f\x9a\x80");
    CHECK_PRINTABLE("a real \xef\xbf\xbd stays", "a real \xef\xbf\xbd stays");
    CHECK_INT(byoc_printable_inplace(NULL), 0);
}

static void test_escapes_removed(void)
{
    CHECK_PRINTABLE("\x1b[31mred\x1b[0m", "red");                            /* CSI (colour) */
    CHECK_PRINTABLE("a\x1b]52;c;ZXZpbA==\x07" "b", "ab");                     /* OSC 52: clipboard write */
    CHECK_PRINTABLE("a\x1b]0;title\x1b\\b", "ab");                            /* OSC ended by ST */
    CHECK_PRINTABLE("a\x1bP+q\x1b\\b", "ab");                                 /* DCS */
    CHECK_PRINTABLE("a\x1b" "c" "b", "ab");                                   /* RIS: reset the terminal */
    CHECK_PRINTABLE("a\x1b(0b", "ab");                                        /* charset switch */
    CHECK_PRINTABLE("before\x1b]52;c;unterminated", "before");                /* unterminated: the rest goes */
    CHECK_PRINTABLE("end\x1b", "end");
}

static void test_controls_replaced(void)
{
    CHECK_PRINTABLE("line one\nline two\ttab\r\n", "line one line two tab ");
    CHECK_PRINTABLE("\x07\x08\x7f", "???");                                   /* BEL, BS, DEL */
    CHECK_PRINTABLE("progress\rdone", "progressdone");                        /* CR cannot rewrite the line */
    CHECK_PRINTABLE("c1 \xc2\x9b" "31m", "c1 ?31m");                          /* CSI as UTF-8 U+009B */
    CHECK_PRINTABLE("raw \x9b" "31m", "raw ?31m");                            /* CSI as a raw 8-bit byte */
    CHECK_PRINTABLE("cut \xe2\x82", "cut ??");                                /* a truncated sequence */
    CHECK_PRINTABLE("latin1 caf\xe9", "latin1 caf?");
    CHECK_PRINTABLE("\xc0\xaf overlong", "?? overlong");
}

/* What byoc prints for an error comes from byoc_err_format; whatever a reply
 * or an archive put in it, it is one line without control sequences. */
static void test_errors(void)
{
    byoc_err e;
    byoc_err_set(&e, BYOC_E_FAILED, "results\x1b[2J",
                 "entry '%s' lies below a symbolic link", "evil\x1b]52;c;cm0gLXJmIH4=\x07\n\rname\x9b");
    CHECK(!has_control(e.what));
    CHECK(!has_control(e.message));
    CHECK_STR(e.message, "entry 'evil name?' lies below a symbolic link"); /* \n -> space, \r dropped */

    byoc_err_prefix(&e, "job %s", "\x1b[1mx");
    CHECK_STR(e.message, "job x: entry 'evil name?' lies below a symbolic link");

    snprintf(e.request_id, sizeof e.request_id, "id\x1b]0;t\x07-1");       /* set straight from a header */
    snprintf(e.code, sizeof e.code, "Code\x07");
    char line[1200];
    byoc_err_format(&e, line, sizeof line);
    CHECK(!has_control(line));
    CHECK(strstr(line, "request id id-1") != NULL);
}

/* A fixed-size copy of outside text is cut on a character boundary: a field
 * that ends in half a character is invalid UTF-8, which json_string refuses,
 * and --json would silently lose the whole field. */
static void test_utf8_cut(void)
{
    char buf[6];
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "abcd\xc3\xa9"), 4); /* "abcd" + half of e-acute */
    CHECK_STR(buf, "abcd");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "abc\xc3\xa9z"), 5); /* the whole e-acute fits */
    CHECK_STR(buf, "abc\xc3\xa9");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "ab\xe2\x9c\x93\xe2\x9c\x93"), 5);
    CHECK_STR(buf, "ab\xe2\x9c\x93");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "abc\xe2\x9c\x93"), 3);         /* 2 of 3 bytes: dropped */
    CHECK_STR(buf, "abc");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "a\xf0\x9f\x9a\x80"), 5);      /* 4 of 4 */
    CHECK_STR(buf, "a\xf0\x9f\x9a\x80");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "ab\xf0\x9f\x9a\x80"), 2);     /* 3 of 4 */
    CHECK_STR(buf, "ab");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, "abcdef"), 5);                  /* ASCII: cut as snprintf */
    CHECK_STR(buf, "abcde");
    CHECK_INT(byoc_utf8_copy(buf, sizeof buf, NULL), 0);
    CHECK_STR(buf, "");
    CHECK_INT(byoc_utf8_copy(buf, 1, "\xc3\xa9"), 0);
    CHECK_STR(buf, "");
    CHECK_INT(byoc_utf8_snprintf(buf, sizeof buf, "%s%s", "\xc3\xa9", "\xc3\xa9\xc3\xa9"), 4);
    CHECK_STR(buf, "\xc3\xa9\xc3\xa9");
    /* invalid text is not the cut's business: it is left to the printable pass */
    CHECK_INT(byoc_utf8_whole("ab\x80\x80\x80\x80", 6), 6);
    CHECK_INT(byoc_utf8_whole("", 0), 0);

    /* the error record: a message of 800 e-acutes is cut to whole characters */
    byoc_err e;
    char many[1601];
    for (int i = 0; i < 800; i++)
        memcpy(many + 2 * i, "\xc3\xa9", 2);
    many[1600] = '\0';
    byoc_err_set(&e, BYOC_E_FAILED, "x", "%s", many);
    CHECK_INT(strlen(e.message), sizeof e.message - 1 - (sizeof e.message - 1) % 2);
    byoc_err_prefix(&e, "z%s", many);
    CHECK_INT(byoc_utf8_whole(e.message, strlen(e.message)), strlen(e.message));
    char line[101];
    byoc_err_format(&e, line, sizeof line);
    CHECK_INT(byoc_utf8_whole(line, strlen(line)), strlen(line));
    CHECK(strchr(line, '?') == NULL);
}

static void test_utf8_invalid_at(void)
{
    CHECK_INT(byoc_utf8_invalid_at("", 0), 0);
    CHECK_INT(byoc_utf8_invalid_at("plain", 5), 5);
    CHECK_INT(byoc_utf8_invalid_at("a\0b", 3), 3);                      /* NUL does not stop it */
    CHECK_INT(byoc_utf8_invalid_at("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 9), 9);
    CHECK_INT(byoc_utf8_invalid_at("ab\xc0\xb1", 4), 2);                /* overlong */
    CHECK_INT(byoc_utf8_invalid_at("a\xed\xa0\x80", 4), 1);            /* encoded surrogate */
    CHECK_INT(byoc_utf8_invalid_at("\xf4\x90\x80\x80", 4), 0);         /* past U+10FFFF */
    CHECK_INT(byoc_utf8_invalid_at("x\xe2\x82", 3), 1);                 /* cut short by n */
    CHECK_INT(byoc_utf8_invalid_at("x\xe2\x82\xac", 3), 1);            /* n cuts a valid one too */
    CHECK_INT(byoc_utf8_invalid_at("\x80", 1), 0);                       /* a lone continuation */
}

int main(void)
{
    test_text_kept();
    test_escapes_removed();
    test_controls_replaced();
    test_errors();
    test_utf8_cut();
    test_utf8_invalid_at();
    return check_done();
}
