#include "docker/jsonmsg.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void byoc_jsonmsg_init(byoc_jsonmsg_parser *p, byoc_jsonmsg_fn fn, void *ud)
{
    memset(p, 0, sizeof *p);
    p->fn = fn;
    p->ud = ud;
}

void byoc_jsonmsg_clear(byoc_jsonmsg_parser *p)
{
    byoc_buf_clear(&p->buf);
    p->pos = 0;
}

static const char *str_member(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int deliver(byoc_jsonmsg_parser *p, json_t *v)
{
    if (!json_is_object(v))
        return 0;
    byoc_jsonmsg m = {.raw = v, .current = -1, .total = -1};
    m.stream = str_member(v, "stream");
    m.status = str_member(v, "status");
    m.id = str_member(v, "id");
    m.progress = str_member(v, "progress");
    json_t *pd = json_object_get(v, "progressDetail");
    if (json_is_object(pd)) {
        json_t *c = json_object_get(pd, "current"), *t = json_object_get(pd, "total");
        if (json_is_integer(c))
            m.current = json_integer_value(c);
        if (json_is_integer(t))
            m.total = json_integer_value(t);
    }
    json_t *aux = json_object_get(v, "aux");
    m.aux = aux && !json_is_null(aux) ? aux : NULL;
    json_t *ed = json_object_get(v, "errorDetail");
    if (json_is_object(ed)) {
        m.error = str_member(ed, "message");
        json_t *code = json_object_get(ed, "code");
        if (json_is_integer(code))
            m.error_code = (int)json_integer_value(code);
    }
    if (!m.error)
        m.error = str_member(v, "error");
    p->count++;
    return p->fn ? p->fn(&m, p->ud) : 0;
}

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Parse complete messages from the buffer. at_end: no more data will come. */
static int drain(byoc_jsonmsg_parser *p, bool at_end)
{
    for (;;) {
        while (p->pos < p->buf.len && is_ws(p->buf.data[p->pos]))
            p->pos++;
        if (p->pos == p->buf.len)
            break;
        /* A message is complete at the latest at its "\r\n": only try when a newline is there. */
        if (!at_end && !memchr(p->buf.data + p->pos, '\n', p->buf.len - p->pos))
            break;
        json_error_t je;
        json_t *v = json_loadb(p->buf.data + p->pos, p->buf.len - p->pos,
                               JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY, &je);
        if (!v) {
            if (json_error_code(&je) == json_error_premature_end_of_input && !at_end)
                break;
            snprintf(p->error, sizeof p->error, "malformed message from the engine: %s", je.text);
            return -1;
        }
        p->pos += (size_t)je.position;
        int rc = deliver(p, v);
        json_decref(v);
        if (rc)
            return rc;
    }
    /* Drop what was consumed. */
    if (p->pos > 0) {
        memmove(p->buf.data, p->buf.data + p->pos, p->buf.len - p->pos);
        p->buf.len -= p->pos;
        p->buf.data[p->buf.len] = 0;
        p->pos = 0;
    }
    return 0;
}

int byoc_jsonmsg_feed(byoc_jsonmsg_parser *p, const char *data, size_t n)
{
    byoc_buf_append(&p->buf, data, n);
    int rc = drain(p, false);
    if (rc == 0 && p->buf.len > BYOC_JSONMSG_MAX) {
        snprintf(p->error, sizeof p->error, "a message from the engine exceeds %u bytes", BYOC_JSONMSG_MAX);
        return -1;
    }
    return rc;
}

int byoc_jsonmsg_finish(byoc_jsonmsg_parser *p)
{
    return drain(p, true);
}
