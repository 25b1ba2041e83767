#include "docker/pull.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "docker/jsonmsg.h"
#include "docker/pullerr.h"
#include "docker/reference.h"

typedef struct pull_reader {
    byoc_task *t;
    byoc_jsonmsg_parser parser;
    char *error;              /* the stream's error message, or NULL */
} pull_reader;

static int on_message(const byoc_jsonmsg *m, void *ud)
{
    pull_reader *rd = ud;
    if (m->error) {
        if (!rd->error)
            rd->error = byoc_xstrdup(m->error);
        return 0;
    }
    if (!m->status)
        return 0;
    if (m->id && *m->id && (m->current >= 0 || strncmp(m->status, "Pull", 4) == 0 || strstr(m->status, "complete") ||
                            strcmp(m->status, "Already exists") == 0 || strcmp(m->status, "Waiting") == 0))
        byoc_task_progress(rd->t, m->id, m->current, m->total > 0 ? m->total : -1, m->status);
    else
        byoc_task_status(rd->t, "%s", m->status);
    return 0;
}

static int on_body(const char *p, size_t n, void *ud)
{
    pull_reader *rd = ud;
    return byoc_jsonmsg_feed(&rd->parser, p, n) < 0 ? 1 : 0;
}

static int explained(const char *ref, const char *engine_msg, byoc_err *err)
{
    char *why = byoc_pull_explain(ref, engine_msg);
    byoc_err_set(err, BYOC_E_FAILED, "pull", "%s", why);
    free(why);
    return -1;
}

int byoc_docker_pull(byoc_engine *e, byoc_task *t, const char *ref, const char *platform, const char *registry_auth,
                     byoc_err *err)
{
    byoc_imageref r;
    if (byoc_imageref_parse(ref, "image", &r, err) != 0)
        return -1;
    if (!r.tag && !r.digest) {
        byoc_imageref_clear(&r);
        return byoc_err_set(err, BYOC_E_USAGE, "image", "%s names no tag (a bare repository pulls every tag)", ref);
    }
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    byoc_query_add(&q, "fromImage", r.repository);
    byoc_query_add(&q, "tag", r.digest ? r.digest : r.tag);
    if (platform)
        byoc_query_add(&q, "platform", platform);
    byoc_imageref_clear(&r);
    byoc_headers h = {0};
    if (registry_auth)
        byoc_headers_add(&h, "X-Registry-Auth", registry_auth);
    pull_reader rd = {.t = t};
    byoc_jsonmsg_init(&rd.parser, on_message, &rd);
    byoc_engine_req req = {.method = "POST", .path = "/images/create", .query = byoc_buf_str(&q), .body = "",
                           .body_len = 0, .content_type = "text/plain", .headers = &h, .sink = on_body,
                           .sink_ud = &rd};
    byoc_http_resp resp = {0};
    byoc_task_status(t, "Pulling %s", ref);
    int rc = byoc_engine_do(e, t, &req, &resp, err);
    if (rc < 0) {
        if (err->kind == BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_CANCELLED, "pull", "cancelled (the engine stops pulling %s)", ref);
        else if (rd.parser.error[0])
            byoc_err_set(err, BYOC_E_FAILED, "pull", "the engine's pull stream is malformed: %s", rd.parser.error);
    } else if (byoc_engine_check(&resp, "pull", err) < 0) {
        char *engine_msg = byoc_xstrdup(err->message);
        rc = explained(ref, engine_msg, err);
        free(engine_msg);
    } else if (byoc_jsonmsg_finish(&rd.parser) < 0) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "pull", "the engine's pull stream is malformed: %s", rd.parser.error);
    } else if (rd.error) {
        rc = explained(ref, rd.error, err);
    }
    free(rd.error);
    byoc_jsonmsg_clear(&rd.parser);
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&h);
    byoc_buf_clear(&q);
    return rc;
}
