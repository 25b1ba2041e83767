/* err: one error record that travels from the failing call up to the user.
 *
 * Every fallible backend function takes a `byoc_err *` and returns non-zero on
 * failure after filling it. The record carries what a user needs (a one-line
 * message, which field or flag was at fault) and what a bug report needs
 * (service error code, HTTP status, request id). Messages pass through the
 * secret redactor before they are stored, so an error can be printed as is. */
#ifndef BYOC_CORE_ERR_H
#define BYOC_CORE_ERR_H

#include <stdarg.h>
#include <stdbool.h>

/* What kind of failure; the CLI maps it to an exit code (README.md, "Exit codes"). */
typedef enum {
    BYOC_OK = 0,
    BYOC_E_FAILED,    /* the operation failed: service or build error -> exit 1 */
    BYOC_E_USAGE,     /* invalid usage or input; nothing was sent       -> exit 2 */
    BYOC_E_ENV,       /* environment not ready: no engine, no creds     -> exit 3 */
    BYOC_E_NET,       /* transport failure (connect, TLS, reset, timeout) -> exit 3 */
    BYOC_E_CANCELLED, /* the user or a task owner cancelled             -> exit 1 */
} byoc_err_kind;

typedef struct byoc_err {
    byoc_err_kind kind;
    int http_status;        /* 0 when no HTTP exchange took place */
    char what[96];          /* the subject: a verb, flag or field ("--job-name", "sts") */
    char code[96];          /* service error code ("ThrottlingException"), or "" */
    char message[768];      /* human text, already redacted */
    char request_id[96];    /* x-amzn-RequestId or equivalent, or "" */
} byoc_err;

void byoc_err_clear(byoc_err *e);

/* Set kind, subject and a printf-style message; returns -1 so callers can
 * `return byoc_err_set(...)`. `e` may be NULL. */
int byoc_err_set(byoc_err *e, byoc_err_kind kind, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int byoc_err_vset(byoc_err *e, byoc_err_kind kind, const char *what, const char *fmt, va_list ap);

/* Prefix the existing message with more context: "<ctx>: <old message>". */
void byoc_err_prefix(byoc_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Exit code for a kind (0, 1, 2, 3). */
int byoc_err_exit_code(byoc_err_kind kind);

/* Format the canonical one-line form "<what>: <message> [<code>, HTTP n, request id r]"
 * into buf. Returns buf. */
char *byoc_err_format(const byoc_err *e, char *buf, unsigned long size);

#endif
