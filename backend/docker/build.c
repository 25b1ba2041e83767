#include "docker/build.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/strpool.h"
#include "core/buf.h"
#include "core/str.h"
#include "docker/context.h"
#include "docker/jsonmsg.h"
#include "docker/lines.h"
#include "docker/pullerr.h"
#include "docker/reference.h"

#define MAX_LOG_LINE (16 * 1024)
#define PROGRESS_EVERY (4u * 1024 * 1024)

/* ---- validation ---- */

static bool all_chars(const char *s, const char *extra)
{
    if (!s || !*s)
        return false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (!isalnum(*p) && !strchr(extra, *p))
            return false;
    return true;
}

static int check_kv(const char *kv, const char *flag, byoc_err *err)
{
    const char *eq = strchr(kv, '=');
    size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
    if (klen == 0)
        return byoc_err_set(err, BYOC_E_USAGE, flag, "'%s': expected KEY=VALUE with a non-empty KEY", kv);
    for (size_t i = 0; i < klen; i++)
        if (isspace((unsigned char)kv[i]) || iscntrl((unsigned char)kv[i]))
            return byoc_err_set(err, BYOC_E_USAGE, flag, "'%s': the key may not contain spaces", kv);
    return 0;
}

int byoc_build_validate(const byoc_build_opts *o, byoc_err *err)
{
    for (size_t i = 0; i < o->n_tags; i++)
        if (byoc_imageref_check_tag(o->tags[i], "--tag", err) < 0)
            return -1;
    for (size_t i = 0; i < o->n_build_args; i++)
        if (check_kv(o->build_args[i], "--build-arg", err) < 0)
            return -1;
    for (size_t i = 0; i < o->n_labels; i++)
        if (check_kv(o->labels[i], "--label", err) < 0)
            return -1;
    if (o->platform) {
        int slashes = 0;
        for (const char *p = o->platform; *p; p++)
            slashes += *p == '/';
        if (!all_chars(o->platform, "_.-/") || slashes > 2 || strstr(o->platform, "//") ||
            o->platform[0] == '/' || o->platform[strlen(o->platform) - 1] == '/')
            return byoc_err_set(err, BYOC_E_USAGE, "--platform", "'%s': expected OS[/ARCH[/VARIANT]]",
                                o->platform);
    }
    if (o->network && !all_chars(o->network, "_.-:"))
        return byoc_err_set(err, BYOC_E_USAGE, "--network", "'%s': expected none, host, bridge or a network name",
                            o->network);
    if (o->target && !all_chars(o->target, "_.-"))
        return byoc_err_set(err, BYOC_E_USAGE, "--target", "'%s' is not a stage name", o->target);
    return 0;
}

bool byoc_build_parse_step(const char *line, int *n, int *m)
{
    int a, b, used = 0;
    if (sscanf(line, "Step %d/%d :%n", &a, &b, &used) == 2 && used > 0 && a > 0 && b >= a) {
        *n = a;
        *m = b;
        return true;
    }
    return false;
}

/* ---- the upload ---- */

typedef struct {
    byoc_context_tar *tar;
    byoc_task *t;
    uint64_t total;
    uint64_t reported;
} upload;

static size_t upload_read(char *dst, size_t n, void *ud)
{
    upload *u = ud;
    size_t k = byoc_context_tar_read(dst, n, u->tar);
    if (k == (size_t)-1)
        return k;
    uint64_t done = byoc_context_tar_content_bytes(u->tar);
    if (k == 0 || done - u->reported >= PROGRESS_EVERY) {
        u->reported = done;
        byoc_task_progress(u->t, "context", (int64_t)done, (int64_t)u->total, "sending context");
    }
    return k;
}

/* ---- the output ---- */

typedef struct {
    byoc_task *t;
    byoc_lines lines;
    byoc_jsonmsg_parser parser;
    char *image_id;
    char *built_short;   /* from "Successfully built <id>" */
    char **tags;
    size_t n_tags;
    char *error;
    char *from;          /* the image of the step under way when it is a FROM, else NULL */
} output;

/* "Step 1/9 : FROM --platform=linux/amd64 IMAGE AS x" -> IMAGE (malloc'd), or NULL. */
static char *step_from(const char *line)
{
    const char *colon = strstr(line, " : ");
    if (!colon)
        return NULL;
    const char *p = colon + 3;
    if (strncasecmp(p, "FROM ", 5) != 0)
        return NULL;
    p += 5;
    for (;;) {
        p += strspn(p, " \t");
        if (strncmp(p, "--", 2) != 0)
            break;
        p += strcspn(p, " \t");
    }
    size_t n = strcspn(p, " \t");
    return n ? byoc_xstrndup(p, n) : NULL;
}

static void on_line(const char *line, size_t len, void *ud)
{
    output *o = ud;
    char *s = byoc_xstrndup(line, len);
    byoc_task_output(o->t, "%s", s);
    int n, m;
    if (byoc_build_parse_step(s, &n, &m)) {
        free(o->from);
        o->from = step_from(s);
        byoc_task_status(o->t, "Step %d/%d", n, m);
        byoc_task_progress(o->t, "steps", n, m, s);
    } else if (strncmp(s, "Successfully tagged ", 20) == 0) {
        o->tags = byoc_xrealloc(o->tags, (o->n_tags + 1) * sizeof *o->tags);
        o->tags[o->n_tags++] = byoc_xstrdup(s + 20);
    } else if (strncmp(s, "Successfully built ", 19) == 0) {
        free(o->built_short);
        o->built_short = byoc_xstrdup(s + 19);
    }
    free(s);
}

static int on_message(const byoc_jsonmsg *m, void *ud)
{
    output *o = ud;
    if (m->error) {
        if (!o->error)
            o->error = byoc_xstrdup(m->error);
        return 0;
    }
    if (m->stream)
        byoc_lines_feed(&o->lines, m->stream, strlen(m->stream));
    if (m->aux) {
        const char *id = json_string_value(json_object_get(m->aux, "ID"));
        if (id) { /* one per stage: the last one is the image */
            free(o->image_id);
            o->image_id = byoc_xstrdup(id);
        }
    }
    if (m->status) {
        if (m->id)
            byoc_task_progress(o->t, m->id, m->current, m->total, m->status);
        else
            byoc_task_output(o->t, "%s", m->status);
    }
    return 0;
}

static int on_body(const char *p, size_t n, void *ud)
{
    output *o = ud;
    return byoc_jsonmsg_feed(&o->parser, p, n) < 0 ? 1 : 0;
}

/* ---- the request ---- */

static char *build_query(const byoc_build_opts *o, const char *rel_dockerfile)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    for (size_t i = 0; i < o->n_tags; i++)
        byoc_query_add(&q, "t", o->tags[i]);
    byoc_query_add(&q, "dockerfile", rel_dockerfile);
    if (o->n_build_args) {
        json_t *args = json_object();
        for (size_t i = 0; i < o->n_build_args; i++) {
            const char *kv = o->build_args[i], *eq = strchr(kv, '=');
            char *key = eq ? byoc_xstrndup(kv, (size_t)(eq - kv)) : byoc_xstrdup(kv);
            const char *val = eq ? eq + 1 : getenv(key);
            json_object_set_new(args, key, val ? json_string(val) : json_null());
            free(key);
        }
        char *j = json_dumps(args, JSON_COMPACT);
        byoc_query_add(&q, "buildargs", j);
        free(j);
        json_decref(args);
    }
    if (o->n_labels) {
        json_t *labels = json_object();
        for (size_t i = 0; i < o->n_labels; i++) {
            const char *kv = o->labels[i], *eq = strchr(kv, '=');
            char *key = eq ? byoc_xstrndup(kv, (size_t)(eq - kv)) : byoc_xstrdup(kv);
            json_object_set_new(labels, key, json_string(eq ? eq + 1 : ""));
            free(key);
        }
        char *j = json_dumps(labels, JSON_COMPACT | JSON_SORT_KEYS);
        byoc_query_add(&q, "labels", j);
        free(j);
        json_decref(labels);
    }
    if (o->platform)
        byoc_query_add(&q, "platform", o->platform);
    if (o->target)
        byoc_query_add(&q, "target", o->target);
    if (o->network)
        byoc_query_add(&q, "networkmode", o->network);
    if (o->no_cache)
        byoc_query_add(&q, "nocache", "1");
    if (o->pull)
        byoc_query_add(&q, "pull", "1");
    byoc_query_add(&q, "rm", "1");
    /* Also remove the container of a failed step: a failed build leaves nothing behind. */
    byoc_query_add(&q, "forcerm", "1");
    byoc_query_add(&q, "version", "1");
    return byoc_buf_steal(&q);
}

int byoc_build_run(byoc_engine *e, byoc_task *t, const byoc_build_opts *o, byoc_build_result *res, byoc_err *err)
{
    memset(res, 0, sizeof *res);
    if (byoc_build_validate(o, err) < 0)
        return -1;
    byoc_context *ctx;
    if (byoc_context_open(o->context_dir, o->dockerfile, &ctx, err) < 0)
        return -1;
    byoc_task_status(t, "Checking the context");
    byoc_context_stats stats;
    if (byoc_context_scan(ctx, &stats, err) < 0) {
        byoc_context_free(ctx);
        return -1;
    }
    if (byoc_engine_connect(e, t, err) < 0) {
        byoc_context_free(ctx);
        return -1;
    }
    char size[32];
    byoc_fmt_bytes((int64_t)stats.bytes, size, sizeof size);
    byoc_task_status(t, "Sending context");
    byoc_task_log(t, "Sending build context to Docker engine: %llu entries, %s",
                  (unsigned long long)stats.entries, size);

    char *query = build_query(o, byoc_context_dockerfile(ctx));
    upload up = {.tar = byoc_context_tar_new(ctx), .t = t, .total = stats.bytes};
    output out = {.t = t};
    byoc_lines_init(&out.lines, MAX_LOG_LINE, on_line, &out);
    byoc_jsonmsg_init(&out.parser, on_message, &out);
    byoc_engine_req req = {.method = "POST", .path = "/build", .query = query,
                           .reader = upload_read, .reader_ud = &up, .content_type = "application/x-tar",
                           .sink = on_body, .sink_ud = &out};
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(e, t, &req, &resp, err);
    if (rc < 0) {
        if (err && err->kind == BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_CANCELLED, "build", "cancelled (the engine stops the build)");
        else if (byoc_context_tar_error(up.tar, err) == 0 && out.parser.error[0])
            byoc_err_set(err, BYOC_E_FAILED, "build", "%s", out.parser.error);
    } else if (byoc_engine_check(&resp, "build", err) < 0) {
        rc = -1;
    } else if (byoc_jsonmsg_finish(&out.parser) < 0) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "build", "%s", out.parser.error);
    }
    byoc_lines_flush(&out.lines);
    if (rc == 0 && out.error && out.from) { /* the engine could not pull a base image */
        char *why = byoc_pull_explain(out.from, out.error);
        byoc_pull_cause c = byoc_pull_classify(out.error);
        rc = byoc_err_set(err, c == BYOC_PULL_OFFLINE || c == BYOC_PULL_AUTH ? BYOC_E_ENV : BYOC_E_FAILED,
                          "base image", "%s", why);
        free(why);
    } else if (rc == 0 && out.error) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "build", "%s", out.error);
    } else if (rc == 0 && !out.image_id && !out.built_short) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "build", "the engine ended the build without an image id");
    }
    if (rc == 0) {
        res->image_id = out.image_id ? out.image_id : out.built_short;
        if (out.image_id)
            free(out.built_short);
        out.image_id = out.built_short = NULL;
        res->tags = out.tags;
        res->n_tags = out.n_tags;
        out.tags = NULL;
        res->context_files = stats.files;
        res->context_bytes = stats.bytes;
        res->tar_bytes = byoc_context_tar_bytes(up.tar);
        byoc_task_status(t, "Built");
    }
    free(out.image_id);
    free(out.built_short);
    for (size_t i = 0; out.tags && i < out.n_tags; i++)
        free(out.tags[i]);
    free(out.tags);
    free(out.error);
    free(out.from);
    byoc_lines_clear(&out.lines);
    byoc_jsonmsg_clear(&out.parser);
    byoc_http_resp_clear(&resp);
    byoc_context_tar_free(up.tar);
    free(query);
    byoc_context_free(ctx);
    return rc;
}

void byoc_build_result_clear(byoc_build_result *r)
{
    if (!r)
        return;
    free(r->image_id);
    for (size_t i = 0; i < r->n_tags; i++)
        free(r->tags[i]);
    free(r->tags);
    memset(r, 0, sizeof *r);
}

/* ---- as a task ---- */

struct byoc_build_job {
    byoc_engine *engine;
    byoc_build_opts opts;
    byoc_strpool pool; /* everything the copy owns */
};

byoc_build_job *byoc_build_job_new(byoc_engine *e, const byoc_build_opts *o)
{
    byoc_build_job *j = byoc_xcalloc(1, sizeof *j);
    j->engine = e;
    j->opts = *o;
    j->opts.context_dir = byoc_strpool_dup(&j->pool, o->context_dir);
    j->opts.dockerfile = byoc_strpool_dup(&j->pool, o->dockerfile);
    j->opts.tags = byoc_strpool_dup_list(&j->pool, o->tags, o->n_tags);
    j->opts.build_args = byoc_strpool_dup_list(&j->pool, o->build_args, o->n_build_args);
    j->opts.labels = byoc_strpool_dup_list(&j->pool, o->labels, o->n_labels);
    j->opts.target = byoc_strpool_dup(&j->pool, o->target);
    j->opts.platform = byoc_strpool_dup(&j->pool, o->platform);
    j->opts.network = byoc_strpool_dup(&j->pool, o->network);
    return j;
}

void byoc_build_job_free(void *job)
{
    byoc_build_job *j = job;
    if (!j)
        return;
    byoc_strpool_clear(&j->pool);
    free(j);
}

const byoc_build_opts *byoc_build_job_opts(const byoc_build_job *j)
{
    return &j->opts;
}

BYOC_TASK_FREE(result_free, byoc_build_result, byoc_build_result_clear)

int byoc_build_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    byoc_build_job *j = arg;
    byoc_build_result *r = byoc_xcalloc(1, sizeof *r);
    if (byoc_build_run(j->engine, t, &j->opts, r, err) < 0) {
        free(r);
        return -1;
    }
    *result = r;
    *rfree = result_free;
    return 0;
}
