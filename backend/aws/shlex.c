#include "aws/shlex.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void push(char ***v, size_t *n, size_t *cap, byoc_buf *word)
{
    if (*n + 2 > *cap) {
        *cap = *cap ? *cap * 2 : 8;
        *v = byoc_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = byoc_buf_steal(word);
    (*v)[*n] = NULL;
}

int byoc_shlex_split(const char *s, char ***argv, size_t *argc, byoc_err *err)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    byoc_buf word = BYOC_BUF_INIT;
    bool in_word = false;
    const char *why = NULL;
    for (const char *p = s; *p && !why; p++) {
        if (is_ws(*p)) {
            if (in_word)
                push(&v, &n, &cap, &word);
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
        push(&v, &n, &cap, &word);
    byoc_buf_free(&word);
    if (why) {
        byoc_shlex_free(v);
        return byoc_err_set(err, BYOC_E_USAGE, "command line", "%s", why);
    }
    if (!v) {
        v = byoc_xcalloc(1, sizeof *v);
    }
    *argv = v;
    *argc = n;
    return 0;
}

void byoc_shlex_free(char **argv)
{
    if (!argv)
        return;
    for (char **p = argv; *p; p++)
        free(*p);
    free(argv);
}
