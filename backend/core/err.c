#include "core/err.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"

#include <stdio.h>
#include <string.h>

void byoc_err_clear(byoc_err *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

int byoc_err_vset(byoc_err *e, byoc_err_kind kind, const char *what, const char *fmt, va_list ap)
{
    if (!e)
        return -1;
    byoc_err_clear(e);
    e->kind = kind;
    byoc_utf8_copy(e->what, sizeof e->what, what);
    byoc_printable_inplace(e->what);
    /* Redact before cutting to size: a secret cut in two would not be recognised.
     * Messages quote what services and archives say, so they are made
     * printable too: byoc prints them as they are. */
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    byoc_redact_inplace(b.data);
    byoc_printable_inplace(b.data);
    byoc_utf8_copy(e->message, sizeof e->message, byoc_buf_str(&b)); /* never half a character: --json would drop it */
    byoc_buf_clear(&b);
    return -1;
}

int byoc_err_set(byoc_err *e, byoc_err_kind kind, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_err_vset(e, kind, what, fmt, ap);
    va_end(ap);
    return -1;
}

void byoc_err_prefix(byoc_err *e, const char *fmt, ...)
{
    if (!e)
        return;
    char ctx[256], old[sizeof e->message];
    va_list ap;
    va_start(ap, fmt);
    byoc_buf full = BYOC_BUF_INIT;
    byoc_buf_vprintf(&full, fmt, ap);
    va_end(ap);
    byoc_redact_inplace(full.data); /* before cutting it to size */
    byoc_printable_inplace(full.data);
    byoc_utf8_copy(ctx, sizeof ctx, byoc_buf_str(&full));
    byoc_buf_clear(&full);
    memcpy(old, e->message, sizeof old);
    /* Truncation is fine here: the message is for people and stays bounded. */
    byoc_utf8_snprintf(e->message, sizeof e->message, "%s: %s", ctx, old);
    byoc_redact_inplace(e->message);
}

int byoc_err_exit_code(byoc_err_kind kind)
{
    switch (kind) {
    case BYOC_OK: return 0;
    case BYOC_E_USAGE: return 2;
    case BYOC_E_ENV:
    case BYOC_E_NET: return 3;
    case BYOC_E_FAILED:
    case BYOC_E_CANCELLED:
    default: return 1;
    }
}

char *byoc_err_format(const byoc_err *e, char *buf, unsigned long size)
{
    char extra[256] = "";
    size_t n = 0;
    if (e->code[0])
        n += snprintf(extra + n, sizeof extra - n, "%s", e->code);
    if (e->http_status && n < sizeof extra)
        n += snprintf(extra + n, sizeof extra - n, "%sHTTP %d", n ? ", " : "", e->http_status);
    if (e->request_id[0] && n < sizeof extra)
        snprintf(extra + n, sizeof extra - n, "%srequest id %s", n ? ", " : "", e->request_id);
    byoc_utf8_snprintf(buf, size, "%s%s%s%s%s%s", e->what, e->what[0] ? ": " : "", e->message,
             extra[0] ? " [" : "", extra, extra[0] ? "]" : "");
    byoc_printable_inplace(buf); /* the code and request id come from a reply too */
    return buf;
}
