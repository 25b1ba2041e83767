#include "aws/shlex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/strv.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int byoc_shlex_split(const char *s, byoc_strv *argv, byoc_err *err)
{
    byoc_strv v = BYOC_STRV_INIT;
    byoc_buf word = BYOC_BUF_INIT;
    bool in_word = false;
    const char *why = NULL;
    for (const char *p = s; *p && !why; p++) {
        if (is_ws(*p)) {
            if (in_word)
                byoc_strv_push_owned(&v, byoc_buf_steal(&word));
            in_word = false;
        } else if (*p == '\\') {
            if (!p[1])
                why = "No escaped character";
            else
                byoc_buf_putc(&word, *++p);
            in_word = true;
        } else if (*p == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (!end)
                why = "No closing quotation";
            else {
                byoc_buf_append(&word, p + 1, (size_t)(end - p - 1));
                p = end;
            }
            in_word = true;
        } else if (*p == '"') {
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
                    p++;
                byoc_buf_putc(&word, *p++);
            }
            if (!*p) {
                why = "No closing quotation";
                break;
            }
            in_word = true;
        } else {
            byoc_buf_putc(&word, *p);
            in_word = true;
        }
    }
    if (!why && in_word)
        byoc_strv_push_owned(&v, byoc_buf_steal(&word));
    byoc_buf_clear(&word);
    if (why) {
        byoc_strv_clear(&v);
        return byoc_err_set(err, BYOC_E_USAGE, "command line", "%s", why);
    }
    *argv = v;
    return 0;
}
