/* jsonmsg: the Engine's JSON message streams (build, push, pull).
 *
 * The body is a sequence of JSON objects, each ended by "\r\n", arriving in
 * arbitrary chunks. The parser buffers only the current incomplete message
 * (bounded) and hands each complete one to a callback, with the members a
 * client needs already picked out: `stream` (build output), `status`, `id`,
 * `progress`, `progressDetail{current,total}`, `aux`, and the error from
 * `errorDetail{message,code}` or `error`. */
#ifndef BYOC_DOCKER_JSONMSG_H
#define BYOC_DOCKER_JSONMSG_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/buf.h"

typedef struct byoc_jsonmsg {
    json_t *raw;              /* the whole message (borrowed for the callback) */
    const char *stream;       /* or NULL */
    const char *status;
    const char *id;
    const char *progress;     /* the text bar */
    int64_t current, total;   /* progressDetail; -1 when absent */
    json_t *aux;              /* or NULL */
    const char *error;        /* errorDetail.message, else error; NULL when none */
    int error_code;
} byoc_jsonmsg;

/* Return 0 to go on, non-zero to stop (byoc_jsonmsg_feed then returns that value). */
typedef int (*byoc_jsonmsg_fn)(const byoc_jsonmsg *m, void *ud);

/* One message may not exceed this many bytes. */
#define BYOC_JSONMSG_MAX (8u * 1024 * 1024)

typedef struct byoc_jsonmsg_parser {
    byoc_buf buf;
    size_t pos;
    byoc_jsonmsg_fn fn;
    void *ud;
    uint64_t count;           /* messages delivered */
    char error[256];          /* why feed/finish returned -1 */
} byoc_jsonmsg_parser;

void byoc_jsonmsg_init(byoc_jsonmsg_parser *p, byoc_jsonmsg_fn fn, void *ud);
/* Returns 0; -1 for malformed input (p->error); or the callback's non-zero value. */
int byoc_jsonmsg_feed(byoc_jsonmsg_parser *p, const char *data, size_t n);
/* At the end of the body: parses what is left; -1 if it is not a whole message. */
int byoc_jsonmsg_finish(byoc_jsonmsg_parser *p);
void byoc_jsonmsg_clear(byoc_jsonmsg_parser *p);

#endif
