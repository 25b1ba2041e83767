#include "docker/containers.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static json_t *str_array(const char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

static char *container_path(const char *id, const char *suffix)
{
    char *esc = byoc_engine_path_escape(id);
    char *p = byoc_xasprintf("/containers/%s%s", esc, suffix);
    free(esc);
    return p;
}

int byoc_container_create(byoc_engine *e, byoc_task *t, const byoc_container_spec *s, char **id, byoc_err *err)
{
    *id = NULL;
    if (!s->image || !*s->image)
        return byoc_err_set(err, BYOC_E_USAGE, "container", "no image given");
    json_t *body = json_object();
    json_object_set_new(body, "Image", json_string(s->image));
    if (s->cmd)
        json_object_set_new(body, "Cmd", str_array(s->cmd, s->n_cmd));
    if (s->entrypoint || s->entrypoint_set)
        json_object_set_new(body, "Entrypoint",
                            s->n_entrypoint ? str_array(s->entrypoint, s->n_entrypoint) : json_pack("[s]", ""));
    if (s->n_env)
        json_object_set_new(body, "Env", str_array(s->env, s->n_env));
    if (s->user)
        json_object_set_new(body, "User", json_string(s->user));
    if (s->working_dir)
        json_object_set_new(body, "WorkingDir", json_string(s->working_dir));
    if (s->n_labels) {
        json_t *labels = json_object();
        for (size_t i = 0; i < s->n_labels; i++) {
            const char *eq = strchr(s->labels[i], '=');
            char *k = eq ? byoc_xstrndup(s->labels[i], (size_t)(eq - s->labels[i])) : byoc_xstrdup(s->labels[i]);
            json_object_set_new(labels, k, json_string(eq ? eq + 1 : ""));
            free(k);
        }
        json_object_set_new(body, "Labels", labels);
    }
    json_object_set_new(body, "Tty", json_boolean(s->tty));
    json_object_set_new(body, "AttachStdout", json_true());
    json_object_set_new(body, "AttachStderr", json_true());
    json_t *host = json_object();
    if (s->n_binds)
        json_object_set_new(host, "Binds", str_array(s->binds, s->n_binds));
    if (s->network_mode)
        json_object_set_new(host, "NetworkMode", json_string(s->network_mode));
    if (s->auto_remove)
        json_object_set_new(host, "AutoRemove", json_true());
    if (s->memory)
        json_object_set_new(host, "Memory", json_integer(s->memory));
    if (s->nano_cpus)
        json_object_set_new(host, "NanoCpus", json_integer(s->nano_cpus));
    if (s->shm_size)
        json_object_set_new(host, "ShmSize", json_integer(s->shm_size));
    json_object_set_new(body, "HostConfig", host);

    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (s->name)
        byoc_query_add(&q, "name", s->name);
    json_t *doc = NULL;
    int rc = byoc_engine_call(e, t, "POST", "/containers/create", q.data, body, &doc, "container", err);
    json_decref(body);
    byoc_buf_clear(&q);
    if (rc == 0) {
        const char *cid = json_string_value(json_object_get(doc, "Id"));
        if (cid)
            *id = byoc_xstrdup(cid);
        else
            rc = byoc_err_set(err, BYOC_E_FAILED, "container", "the engine returned no container id");
    }
    json_decref(doc);
    return rc;
}

static int simple_post(byoc_engine *e, byoc_task *t, const char *id, const char *suffix, const char *query,
                       byoc_err *err)
{
    char *path = container_path(id, suffix);
    int rc = byoc_engine_call(e, t, "POST", path, query, NULL, NULL, "container", err);
    free(path);
    return rc;
}

int byoc_container_start(byoc_engine *e, byoc_task *t, const char *id, byoc_err *err)
{
    return simple_post(e, t, id, "/start", NULL, err);
}

int byoc_container_wait(byoc_engine *e, byoc_task *t, const char *id, const char *condition, int64_t *exit_code,
                        byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "condition", condition ? condition : "not-running");
    char *path = container_path(id, "/wait");
    json_t *doc = NULL;
    int rc = byoc_engine_call(e, t, "POST", path, q.data, NULL, &doc, "container", err);
    free(path);
    byoc_buf_clear(&q);
    if (rc == 0) {
        json_t *code = json_object_get(doc, "StatusCode");
        const char *msg = json_string_value(json_object_get(json_object_get(doc, "Error"), "Message"));
        if (msg && *msg)
            rc = byoc_err_set(err, BYOC_E_FAILED, "container", "%s", msg);
        else if (!json_is_integer(code))
            rc = byoc_err_set(err, BYOC_E_FAILED, "container", "the engine's wait answer has no StatusCode");
        else if (exit_code)
            *exit_code = (int64_t)json_integer_value(code);
    }
    json_decref(doc);
    return rc;
}

typedef struct {
    byoc_frames frames;
} log_state;

static int on_log_body(const char *p, size_t n, void *ud)
{
    log_state *s = ud;
    return byoc_frames_feed(&s->frames, p, n) != 0;
}

int byoc_container_logs(byoc_engine *e, byoc_task *t, const char *id, const byoc_logs_opts *o, byoc_frame_fn fn,
                        void *ud, byoc_err *err)
{
    byoc_logs_opts def = {.tty = -1};
    if (!o)
        o = &def;
    int tty = o->tty;
    if (tty < 0) {
        json_t *doc = NULL;
        if (byoc_container_inspect(e, t, id, &doc, err) < 0)
            return -1;
        tty = json_is_true(json_object_get(json_object_get(doc, "Config"), "Tty"));
        json_decref(doc);
    }
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "stdout", o->no_stdout ? "0" : "1");
    byoc_query_add(&q, "stderr", o->no_stderr ? "0" : "1");
    if (o->follow)
        byoc_query_add(&q, "follow", "1");
    if (o->timestamps)
        byoc_query_add(&q, "timestamps", "1");
    if (o->since)
        byoc_query_add_int(&q, "since", o->since);
    if (o->tail)
        byoc_query_add(&q, "tail", o->tail);
    char *path = container_path(id, "/logs");
    log_state st;
    byoc_frames_init(&st.frames, tty != 0, fn, ud);
    byoc_engine_req r = {.method = "GET", .path = path, .query = q.data, .sink = on_log_body, .sink_ud = &st};
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(e, t, &r, &resp, err);
    if (rc < 0 && st.frames.error[0] && err && err->kind != BYOC_E_CANCELLED)
        byoc_err_set(err, BYOC_E_FAILED, "logs", "%s", st.frames.error);
    if (rc == 0)
        rc = byoc_engine_check(&resp, "logs", err);
    if (rc == 0 && !byoc_frames_complete(&st.frames))
        rc = byoc_err_set(err, BYOC_E_FAILED, "logs", "the log stream ended inside a frame");
    byoc_http_resp_clear(&resp);
    byoc_buf_clear(&q);
    free(path);
    return rc;
}

int byoc_container_archive_get(byoc_engine *e, byoc_task *t, const char *id, const char *path, byoc_body_sink sink,
                               void *ud, byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "path", path);
    char *p = container_path(id, "/archive");
    byoc_engine_req r = {.method = "GET", .path = p, .query = q.data, .sink = sink, .sink_ud = ud};
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(e, t, &r, &resp, err);
    if (rc == 0)
        rc = byoc_engine_check(&resp, "archive", err);
    byoc_http_resp_clear(&resp);
    byoc_buf_clear(&q);
    free(p);
    return rc;
}

int byoc_container_archive_put(byoc_engine *e, byoc_task *t, const char *id, const char *dir,
                               byoc_body_reader reader, void *reader_ud, const void *buf, size_t len,
                               byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "path", dir);
    char *p = container_path(id, "/archive");
    byoc_engine_req r = {.method = "PUT", .path = p, .query = q.data, .content_type = "application/x-tar",
                         .reader = reader, .reader_ud = reader_ud, .body = reader ? NULL : buf,
                         .body_len = reader ? 0 : len};
    /* An empty in-memory body still needs a body, or it would not be sent as one. */
    static const char empty_tar[1024];
    if (!reader && !buf) {
        r.body = empty_tar;
        r.body_len = sizeof empty_tar;
    }
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(e, t, &r, &resp, err);
    if (rc == 0)
        rc = byoc_engine_check(&resp, "archive", err);
    byoc_http_resp_clear(&resp);
    byoc_buf_clear(&q);
    free(p);
    return rc;
}

int byoc_container_kill(byoc_engine *e, byoc_task *t, const char *id, const char *signal, byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (signal)
        byoc_query_add(&q, "signal", signal);
    int rc = simple_post(e, t, id, "/kill", q.data, err);
    byoc_buf_clear(&q);
    return rc;
}

int byoc_container_remove(byoc_engine *e, byoc_task *t, const char *id, bool force, bool volumes, byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (force)
        byoc_query_add(&q, "force", "1");
    if (volumes)
        byoc_query_add(&q, "v", "1");
    char *path = container_path(id, "");
    int rc = byoc_engine_call(e, t, "DELETE", path, q.data, NULL, NULL, "container", err);
    free(path);
    byoc_buf_clear(&q);
    return rc;
}

int byoc_container_inspect(byoc_engine *e, byoc_task *t, const char *id, json_t **out, byoc_err *err)
{
    char *path = container_path(id, "/json");
    int rc = byoc_engine_call(e, t, "GET", path, NULL, NULL, out, "container", err);
    free(path);
    return rc;
}

int byoc_containers_list(byoc_engine *e, byoc_task *t, bool all, json_t *filters, json_t **out, byoc_err *err)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (all)
        byoc_query_add(&q, "all", "1");
    if (filters) {
        char *f = json_dumps(filters, JSON_COMPACT);
        byoc_query_add(&q, "filters", f);
        free(f);
    }
    int rc = byoc_engine_call(e, t, "GET", "/containers/json", q.data, NULL, out, "containers", err);
    byoc_buf_clear(&q);
    return rc;
}
