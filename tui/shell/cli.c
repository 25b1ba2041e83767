/* cli: what every verb is written against (the verbs' side of the command line): the
 * global flags, the verb type, usage errors, and the one --json document. The dispatch
 * that parses the flags and runs a verb from the table is cli/dispatch.c. */
#include "cli.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/buf.h"
#include "core/jsonout.h"

int byoc_cli_usage(byoc_err *err, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_err_vset(err, BYOC_E_USAGE, what, fmt, ap);
    va_end(ap);
    return 2;
}

/* json_dumpf hands stdio every token on its own; a large listing goes out in
 * 64 KiB pieces instead. */
typedef struct json_out {
    char buf[64 * 1024];
    size_t len;
} json_out;

static int json_out_put(const char *p, size_t n, void *ud)
{
    json_out *o = ud;
    if (n > sizeof o->buf - o->len) {
        fwrite(o->buf, 1, o->len, stdout);
        o->len = 0;
        if (n > sizeof o->buf) {
            fwrite(p, 1, n, stdout);
            return 0;
        }
    }
    memcpy(o->buf + o->len, p, n);
    o->len += n;
    return 0;
}

/* --json promises exactly one document: a failure after a verb printed its own
 * (lint's findings, preflight's checks) adds no error document. */
static bool json_printed;

void byoc_cli_print_json(json_t *doc)
{
    json_printed = true;
    json_out *o = byoc_xmalloc(sizeof *o);
    o->len = 0;
    byoc_json_dump_callback(doc, json_out_put, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fwrite(o->buf, 1, o->len, stdout);
    free(o);
    fputc('\n', stdout);
    fflush(stdout);
    json_decref(doc);
}

void byoc_cli_json_printed(void)
{
    json_printed = true;
}

json_t *byoc_cli_error_json(const byoc_err *err, const char *verb, int rc)
{
    const char *why = err->message[0] ? err->message : "failed";
    json_t *e = json_pack("{s:s, s:s, s:i}", "what", err->what[0] ? err->what : verb, "why", why, "exit_code", rc);
    if (e && err->code[0])
        json_object_set_new(e, "code", json_string(err->code));
    if (e && err->request_id[0])
        json_object_set_new(e, "request_id", json_string(err->request_id));
    return e;
}

/* The one-line error on stderr; with --json also the failure's document on
 * stdout, {"error": {"what", "why", "exit_code"}}, unless the verb printed one. */
void byoc_cli_print_error_json(const byoc_err *err, const char *verb, int rc)
{
    if (json_printed)
        return;
    byoc_cli_print_json(json_pack("{s:o}", "error", byoc_cli_error_json(err, verb, rc)));
}

void byoc_cli_print_error(const byoc_err *err, bool json, const char *verb, int rc)
{
    char line[2048];
    fprintf(stderr, "byoc: %s\n", byoc_err_format(err, line, sizeof line));
    if (json)
        byoc_cli_print_error_json(err, verb, rc);
}
