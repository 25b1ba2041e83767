#include "docker/push.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "docker/jsonmsg.h"

static const char *const state_names[] = {"preparing", "waiting", "pushing", "retrying",
                                          "pushed",    "exists",  "mounted", "skipped"};

const char *byoc_layer_state_name(byoc_layer_state s)
{
    return (size_t)s < sizeof state_names / sizeof *state_names ? state_names[s] : "?";
}

bool byoc_layer_state_done(byoc_layer_state s)
{
    return s == BYOC_LAYER_PUSHED || s == BYOC_LAYER_EXISTS || s == BYOC_LAYER_MOUNTED || s == BYOC_LAYER_SKIPPED;
}

void byoc_push_report_clear(byoc_push_report *r)
{
    if (!r)
        return;
    free(r->layers);
    free(r->digest);
    free(r->tag);
    free(r->error);
    memset(r, 0, sizeof *r);
}

/* Count of layers that reached a done state. */
static size_t byoc_push_report_done(const byoc_push_report *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_layers; i++)
        n += byoc_layer_state_done(r->layers[i].state);
    return n;
}

bool byoc_push_error_is_auth(const char *m)
{
    static const char *const marks[] = {"unauthorized", "authentication required", "no basic auth credentials",
                                        "authorization token has expired", "denied: your authorization token",
                                        "401 unauthorized"};
    if (!m)
        return false;
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (strcasestr(m, marks[i]))
            return true;
    return false;
}

/* ---- the stream ---- */

typedef struct {
    byoc_task *t;
    byoc_push_report *r;
} reader;

static byoc_push_layer *layer_for(byoc_push_report *r, const char *id)
{
    for (size_t i = 0; i < r->n_layers; i++)
        if (strcmp(r->layers[i].id, id) == 0)
            return &r->layers[i];
    r->layers = byoc_xrealloc(r->layers, (r->n_layers + 1) * sizeof *r->layers);
    byoc_push_layer *l = &r->layers[r->n_layers++];
    memset(l, 0, sizeof *l);
    byoc_utf8_copy(l->id, sizeof l->id, id);
    l->state = BYOC_LAYER_PREPARING;
    l->current = l->total = -1;
    return l;
}

static bool state_from_status(const char *s, byoc_layer_state *out)
{
    static const struct {
        const char *prefix;
        byoc_layer_state state;
    } map[] = {
        {"Preparing", BYOC_LAYER_PREPARING},       {"Waiting", BYOC_LAYER_WAITING},
        {"Pushing", BYOC_LAYER_PUSHING},           {"Pushed", BYOC_LAYER_PUSHED},
        {"Layer already exists", BYOC_LAYER_EXISTS}, {"Mounted from", BYOC_LAYER_MOUNTED},
        {"Skipped foreign layer", BYOC_LAYER_SKIPPED}, {"Retrying in", BYOC_LAYER_RETRYING},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strncmp(s, map[i].prefix, strlen(map[i].prefix)) == 0) {
            *out = map[i].state;
            return true;
        }
    return false;
}

static int on_message(const byoc_jsonmsg *m, void *ud)
{
    reader *rd = ud;
    byoc_push_report *r = rd->r;
    if (m->error) {
        if (!r->error)
            r->error = byoc_xstrdup(m->error);
        return 0;
    }
    if (m->aux) {
        const char *digest = json_string_value(json_object_get(m->aux, "Digest"));
        const char *tag = json_string_value(json_object_get(m->aux, "Tag"));
        json_t *size = json_object_get(m->aux, "Size");
        if (digest) {
            free(r->digest);
            r->digest = byoc_xstrdup(digest);
        }
        if (tag) {
            free(r->tag);
            r->tag = byoc_xstrdup(tag);
        }
        if (json_is_integer(size))
            r->size = json_integer_value(size);
    }
    if (!m->status)
        return 0;
    if (m->id && *m->id && !strstr(m->status, "digest: sha256:")) {
        byoc_push_layer *l = layer_for(r, m->id);
        byoc_layer_state st;
        if (state_from_status(m->status, &st)) {
            l->state = st;
            if (st != BYOC_LAYER_PUSHING && st != BYOC_LAYER_RETRYING) {
                if (byoc_layer_state_done(st) && l->total > 0)
                    l->current = l->total;
            }
        }
        byoc_utf8_copy(l->status, sizeof l->status, m->status);
        if (m->current >= 0)
            l->current = m->current;
        if (m->total > 0)
            l->total = m->total;
        byoc_task_progress(rd->t, l->id, l->current, l->total, l->status);
    } else {
        byoc_task_log(rd->t, "%s", m->status);
    }
    return 0;
}

static int on_body(const char *p, size_t n, void *ud)
{
    byoc_jsonmsg_parser *parser = ud;
    return byoc_jsonmsg_feed(parser, p, n) < 0 ? 1 : 0;
}

static void list_layers(byoc_buf *b, const byoc_push_report *r, bool done, const char *label)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_layers; i++) {
        const byoc_push_layer *l = &r->layers[i];
        if (byoc_layer_state_done(l->state) != done)
            continue;
        byoc_buf_puts(b, n++ ? ", " : label);
        byoc_buf_printf(b, "%s (%s)", l->id, byoc_layer_state_name(l->state));
    }
}

static int stream_failed(const byoc_push_report *r, const char *ref, byoc_err *err)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "pushing %s failed: %s", ref, r->error);
    size_t done = byoc_push_report_done(r);
    if (r->n_layers) {
        byoc_buf_printf(&b, "; %zu of %zu layers in the registry", done, r->n_layers);
        list_layers(&b, r, false, "; not pushed: ");
        list_layers(&b, r, true, "; pushed: ");
    }
    byoc_buf_puts(&b, "; run the push again to resume");
    byoc_err_set(err, BYOC_E_FAILED, "push", "%s", byoc_buf_str(&b));
    byoc_buf_clear(&b);
    return -1;
}

int byoc_docker_push(byoc_engine *e, byoc_task *t, const char *repository, const char *tag,
                     const char *registry_auth, byoc_push_report *report, byoc_err *err)
{
    memset(report, 0, sizeof *report);
    report->size = -1;
    if (!tag || !*tag)
        return byoc_err_set(err, BYOC_E_USAGE, "--tag", "a tag is needed (an empty tag pushes every local tag)");
    char *name = byoc_engine_path_escape(repository);
    char *path = byoc_xasprintf("/images/%s/push", name);
    free(name);
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    byoc_query_add(&q, "tag", tag);
    byoc_headers h = {0};
    if (registry_auth)
        byoc_headers_add(&h, "X-Registry-Auth", registry_auth);

    reader rd = {t, report};
    byoc_jsonmsg_parser parser;
    byoc_jsonmsg_init(&parser, on_message, &rd);
    /* As the 20.10 CLI: empty text/plain body, credentials in the header. */
    byoc_engine_req req = {.method = "POST", .path = path, .query = byoc_buf_str(&q), .body = "", .body_len = 0,
                           .content_type = "text/plain", .headers = &h, .sink = on_body, .sink_ud = &parser};
    byoc_http_resp resp = {0};
    byoc_task_status(t, "Pushing %s:%s", repository, tag);
    char *ref = byoc_xasprintf("%s:%s", repository, tag);
    int rc = byoc_engine_do(e, t, &req, &resp, err);
    if (rc < 0) {
        if (err && err->kind == BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_CANCELLED, "push", "cancelled (the engine stops pushing %s)", ref);
        else if (parser.error[0])
            byoc_err_set(err, BYOC_E_FAILED, "push", "the engine's push stream is malformed: %s", parser.error);
    } else if (byoc_engine_check(&resp, "push", err) < 0) {
        rc = -1;
    } else if (byoc_jsonmsg_finish(&parser) < 0) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "push", "the engine's push stream is malformed: %s", parser.error);
    } else if (report->error) {
        rc = stream_failed(report, ref, err);
    } else if (!report->digest) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "push", "the engine ended the push of %s without a digest", ref);
    }
    free(ref);
    byoc_jsonmsg_clear(&parser);
    byoc_http_resp_clear(&resp);
    byoc_headers_clear(&h);
    byoc_buf_clear(&q);
    free(path);
    return rc;
}
