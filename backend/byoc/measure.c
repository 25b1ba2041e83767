#include "byoc/measure.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "aws/sigv4.h"
#include "byoc/contract.h"
#include "byoc/measure_base.h"
#include "byoc/project.h"
#include "byoc/recipe.h"
#include "byoc/requirements.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/log.h"
#include "core/utf8.h"
#include "docker/containers.h"
#include "docker/engine.h"
#include "docker/images.h"

#define STATE_REL ".byoc/measure.json"
#define STATE_MAX (1024 * 1024)
#define STATE_KEEP 32
#define REQ_MAX (1024 * 1024)
#define OUTPUT_KEEP (256 * 1024)
#define WORKDIR BYOC_CONTRACT_CODE_DIR
#define MEASURE_LABEL "org.byoc.measure"

void byoc_measurement_clear(byoc_measurement *m)
{
    byoc_strv_clear(&m->failed);
    free(m->base);
    free(m->base_id);
    free(m->base_note);
    free(m->requirements_sha256);
    free(m->measured_at);
    memset(m, 0, sizeof *m);
}

/* ---- pip's output ---- */

static void add_failed(byoc_strv *failed, const char *s, size_t n)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '.'))
        n--;
    if (!n || n > 200)
        return;
    char *v = byoc_xstrndup(s, n);
    byoc_printable_inplace(v);
    if (!byoc_strv_contains(failed, v))
        byoc_strv_push(failed, v);
    free(v);
}

static bool starts(const char *line, size_t n, const char *prefix, size_t *plen)
{
    *plen = strlen(prefix);
    return n >= *plen && memcmp(line, prefix, *plen) == 0;
}

void byoc_pip_failures(const char *output, byoc_strv *failed, bool *no_network)
{
    static const char *const net[] = {"NewConnectionError", "Failed to establish a new connection",
                                      "Temporary failure in name resolution", "Network is unreachable",
                                      "Name or service not known"};
    *no_network = false;
    char collecting[256] = "";
    for (const char *p = output ? output : ""; *p;) {
        size_t n = strcspn(p, "\n");
        const char *line = p;
        p += n + (p[n] == '\n');
        while (n && (*line == ' ' || *line == '\t')) {
            line++;
            n--;
        }
        size_t k;
        for (size_t i = 0; i < sizeof net / sizeof *net; i++)
            if (n && memmem(line, n, net[i], strlen(net[i])))
                *no_network = true;
        if (starts(line, n, "Collecting ", &k)) {
            size_t m = strcspn(line + k, " \n");
            snprintf(collecting, sizeof collecting, "%.*s", (int)(m < n - k ? m : n - k), line + k);
        } else if (starts(line, n, "ERROR: No matching distribution found for ", &k) ||
                   starts(line, n, "ERROR: Failed building wheel for ", &k) ||
                   starts(line, n, "ERROR: Could not build wheels for ", &k)) {
            add_failed(failed, line + k, strcspn(line + k, ",\n") < n - k ? strcspn(line + k, ",\n") : n - k);
        } else if ((n && memmem(line, n, "metadata-generation-failed", 26)) ||
                   (n && memmem(line, n, "subprocess-exited-with-error", 28))) {
            if (*collecting)
                add_failed(failed, collecting, strlen(collecting));
        } else if (starts(line, n, "ERROR: Cannot install ", &k) && memmem(line, n, "conflicting", 11)) {
            add_failed(failed, "conflicting dependencies", 24);
        }
    }
}

/* ---- the requirements and the state file ---- */

static char *requirements_path(const char *project_dir, const char *requirements)
{
    return requirements ? byoc_xstrdup(requirements) : byoc_path_join(project_dir, "requirements.txt");
}

/* Reads the file: its sha256 and package count. */
static int read_requirements(const char *path, char sha[65], long *packages, byoc_err *err)
{
    char *data = NULL;
    size_t len = 0;
    bool truncated = false;
    if (byoc_file_read(path, REQ_MAX, &data, &len, &truncated, err) != 0) {
        err->kind = BYOC_E_USAGE;
        return -1;
    }
    if (truncated || byoc_text_is_binary(data, len)) {
        free(data);
        return byoc_err_set(err, BYOC_E_USAGE, path, "not a requirements file (binary or over 1 MiB)");
    }
    byoc_sha256_hex(data, len, sha);
    byoc_requirements r;
    byoc_requirements_parse(data, len, &r);
    *packages = (long)byoc_requirements_count(&r);
    byoc_requirements_clear(&r);
    free(data);
    return 0;
}

static json_t *state_load(const char *project_dir)
{
    char *path = byoc_path_join(project_dir, STATE_REL);
    char *data = NULL;
    size_t len = 0;
    bool truncated = false;
    byoc_err e;
    json_t *doc = NULL;
    if (byoc_file_read(path, STATE_MAX, &data, &len, &truncated, &e) == 0 && !truncated)
        doc = json_loadb(data, len, 0, NULL);
    free(data);
    free(path);
    if (!json_is_object(doc) || !json_is_object(json_object_get(doc, "results"))) {
        json_decref(doc);
        doc = json_pack("{s:i, s:{}}", "version", 1, "results");
    }
    return doc;
}

static char *dup_str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? byoc_printable_dup(s) : NULL;
}

static bool from_json(json_t *o, byoc_measurement *m)
{
    json_t *secs = json_object_get(o, "install_seconds");
    if (!json_is_number(secs) || json_number_value(secs) < 0)
        return false;
    memset(m, 0, sizeof *m);
    m->install_seconds = json_number_value(secs);
    m->packages = (long)json_integer_value(json_object_get(o, "packages"));
    m->exit_code = (int)json_integer_value(json_object_get(o, "exit_code"));
    json_t *size = json_object_get(o, "size_bytes");
    m->size_bytes = json_is_integer(size) ? (int64_t)json_integer_value(size) : -1;
    m->base = dup_str(o, "base");
    m->base_id = dup_str(o, "base_id");
    m->requirements_sha256 = dup_str(o, "requirements_sha256");
    m->measured_at = dup_str(o, "measured_at");
    size_t i;
    json_t *f;
    json_array_foreach(json_object_get(o, "failed"), i, f)
        if (json_is_string(f) && i < 100) {
            char *v = byoc_printable_dup(json_string_value(f));
            byoc_strv_push_owned(&m->failed, v);
        }
    m->reused = true;
    return true;
}

static json_t *stored_json(const byoc_measurement *m)
{
    json_t *o = byoc_measurement_to_json(m, 0);
    json_object_del(o, "reused");
    json_object_del(o, "instance_count");
    json_object_del(o, "seconds_per_job");
    json_object_del(o, "base_note"); /* about this run's choice, not the figure */
    json_object_set_new(o, "requirements_sha256", json_string(m->requirements_sha256));
    return o;
}

/* Adds m under its key, keeps the newest STATE_KEEP, writes 0600 without following links. */
static int state_store(const char *project_dir, const byoc_measurement *m, byoc_err *err)
{
    json_t *doc = state_load(project_dir);
    json_t *results = json_object_get(doc, "results");
    char *key = byoc_xasprintf("%s %s", m->requirements_sha256, m->base_id);
    json_object_set_new(results, key, stored_json(m));
    free(key);
    while (json_object_size(results) > STATE_KEEP) {
        const char *oldest = NULL, *k;
        const char *oldest_at = NULL;
        json_t *v;
        json_object_foreach(results, k, v) {
            const char *at = json_string_value(json_object_get(v, "measured_at"));
            if (!oldest || !at || (oldest_at && strcmp(at, oldest_at) < 0)) {
                oldest = k;
                oldest_at = at;
            }
        }
        json_object_del(results, oldest);
    }
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
    json_decref(doc);
    int rc = byoc_file_write_below(project_dir, STATE_REL, text, strlen(text), 0600, 0700, err);
    free(text);
    return rc;
}

int byoc_measure_lookup(const char *project_dir, const char *requirements, byoc_measurement *out)
{
    char *path = requirements_path(project_dir, requirements);
    char sha[65];
    long packages = 0;
    byoc_err e;
    int rc = read_requirements(path, sha, &packages, &e);
    free(path);
    if (rc != 0)
        return 0;
    json_t *doc = state_load(project_dir);
    const char *k, *best_at = NULL;
    json_t *v, *best = NULL;
    json_object_foreach(json_object_get(doc, "results"), k, v) {
        const char *at = json_string_value(json_object_get(v, "measured_at"));
        const char *s = json_string_value(json_object_get(v, "requirements_sha256"));
        if (at && s && !strcmp(s, sha) && (!best_at || strcmp(at, best_at) > 0)) {
            best = v;
            best_at = at;
        }
    }
    int found = best && from_json(best, out);
    json_decref(doc);
    return found;
}

/* ---- byoc.json settings ---- */

static long job_long(json_t *v)
{
    if (json_is_integer(v))
        return (long)json_integer_value(v);
    if (json_is_string(v)) {
        char *end;
        long n = strtol(json_string_value(v), &end, 10);
        return *end ? 0 : n;
    }
    return 0;
}

long byoc_measure_instance_count(const char *project_dir)
{
    byoc_project p;
    byoc_err e;
    if (byoc_project_load(&p, project_dir, NULL, &e) != 0)
        return 0;
    long n = job_long(json_object_get(p.job, "instance_count"));
    byoc_project_clear(&p);
    return n > 0 && n < 100000 ? n : 0;
}

long byoc_measure_threshold(const char *project_dir)
{
    byoc_project p;
    byoc_err e;
    if (byoc_project_load(&p, project_dir, NULL, &e) != 0)
        return 0;
    long n = job_long(json_object_get(json_object_get(p.doc, "decide"), "install_threshold_seconds"));
    byoc_project_clear(&p);
    return n > 0 && n < 1000000 ? n : 0;
}

void byoc_measure_settings(const char *project_dir, byoc_measure_opts *o, char **base, char **network)
{
    *base = *network = NULL;
    byoc_project p;
    byoc_err e;
    if (byoc_project_load(&p, project_dir, NULL, &e) != 0)
        return;
    json_t *d = json_object_get(p.doc, "decide");
    const char *b = json_string_value(json_object_get(d, "measure_base"));
    const char *n = json_string_value(json_object_get(d, "measure_network"));
    if (!o->base && b && *b)
        o->base = *base = byoc_xstrdup(b);
    if (!o->network_mode && n && *n)
        o->network_mode = *network = byoc_xstrdup(n);
    byoc_project_clear(&p);
}

void byoc_measurement_startup(const byoc_measurement *m, long instance_count, long threshold, byoc_startup *s)
{
    memset(s, 0, sizeof *s);
    s->measured = true;
    s->install_seconds = m->install_seconds;
    s->packages = m->packages;
    s->instance_count = instance_count;
    s->threshold_seconds = threshold;
    if (m->failed.n) {
        byoc_buf b = BYOC_BUF_INIT;
        for (size_t i = 0; i < m->failed.n; i++)
            byoc_buf_printf(&b, "%s%s", i ? ", " : "", m->failed.v[i]);
        s->failed = byoc_buf_steal(&b);
    }
}

json_t *byoc_measurement_to_json(const byoc_measurement *m, long instance_count)
{
    json_t *failed = json_array();
    for (size_t i = 0; i < m->failed.n; i++)
        json_array_append_new(failed, json_string(m->failed.v[i]));
    json_t *o = json_pack("{s:f, s:i, s:o, s:s?, s:s?, s:s?, s:i, s:b}", "install_seconds", m->install_seconds,
                          "packages", (json_int_t)m->packages, "failed", failed, "base", m->base, "base_id",
                          m->base_id, "measured_at", m->measured_at, "exit_code", (json_int_t)m->exit_code,
                          "reused", m->reused);
    json_object_set_new(o, "size_bytes", m->size_bytes >= 0 ? json_integer(m->size_bytes) : json_null());
    json_object_set_new(o, "instance_count", instance_count > 0 ? json_integer(instance_count) : json_null());
    json_object_set_new(o, "seconds_per_job",
                        json_real(m->install_seconds * (double)(instance_count > 0 ? instance_count : 1)));
    if (m->base_note)
        json_object_set_new(o, "base_note", json_string(m->base_note));
    return o;
}

/* ---- the measurement ---- */

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *utc_now(void)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char s[32];
    strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return byoc_xstrdup(s);
}

typedef struct out_sink {
    byoc_buf all;
} out_sink;

static int on_output(int stream, const char *p, size_t n, void *ud)
{
    (void)stream;
    out_sink *s = ud;
    if (s->all.len + n > OUTPUT_KEEP) {
        /* keep the end: pip's errors come last */
        size_t drop = s->all.len > OUTPUT_KEEP / 2 ? s->all.len - OUTPUT_KEEP / 2 : s->all.len;
        memmove(s->all.data, s->all.data + drop, s->all.len - drop);
        s->all.len -= drop;
        if (n > OUTPUT_KEEP / 2) {
            p += n - OUTPUT_KEEP / 2;
            n = OUTPUT_KEEP / 2;
        }
    }
    byoc_buf_append(&s->all, p, n);
    return 0;
}

/* The last line pip wrote, for progress. */
static void show_progress(byoc_engine *e, byoc_task *t, const char *id, double elapsed)
{
    byoc_logs_opts lo = {.tail = "1", .tty = 0};
    out_sink s = {BYOC_BUF_INIT};
    byoc_err ignored;
    byoc_container_logs(e, t, id, &lo, on_output, &s, &ignored);
    char *line = byoc_xstrdup(byoc_buf_str(&s.all));
    byoc_redact_inplace(line);
    byoc_printable_inplace(line);
    if (strlen(line) > 120)
        line[120] = '\0';
    byoc_task_status(t, "installing (%.0f s): %s", elapsed, line);
    free(line);
    byoc_buf_clear(&s.all);
}

static void pass_env(byoc_strv *env)
{
    static const char *const keys[] = {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "PIP_FIND_LINKS"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *v = getenv(keys[i]);
        if (v && *v)
            byoc_strv_pushf(env, "%s=%s", keys[i], v);
    }
}

static void remove_container(byoc_engine *e, const char *id, const char *label)
{
    byoc_err ignored;
    if (id) {
        byoc_container_remove(e, NULL, id, true, true, &ignored);
        return;
    }
    /* a create cut short by a cancel may still have made it */
    json_t *filters = json_pack("{s:[s]}", "label", label);
    json_t *list = NULL;
    if (byoc_containers_list(e, NULL, true, filters, &list, &ignored) == 0) {
        size_t i;
        json_t *c;
        json_array_foreach(list, i, c) {
            const char *cid = json_string_value(json_object_get(c, "Id"));
            if (cid)
                byoc_container_remove(e, NULL, cid, true, true, &ignored);
        }
    }
    json_decref(list);
    json_decref(filters);
}

/* Seconds between State.StartedAt and State.FinishedAt, or -1. */
static double engine_seconds(json_t *state)
{
    const char *a = json_string_value(json_object_get(state, "StartedAt"));
    const char *b = json_string_value(json_object_get(state, "FinishedAt"));
    double t[2];
    const char *s[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        struct tm tm = {0};
        double frac = 0;
        int used = 0;
        if (!s[i] || sscanf(s[i], "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                            &tm.tm_min, &tm.tm_sec, &used) != 6)
            return -1;
        if (s[i][used] == '.')
            frac = strtod(s[i] + used, NULL);
        tm.tm_year -= 1900;
        tm.tm_mon -= 1;
        t[i] = (double)timegm(&tm) + frac;
    }
    return t[1] >= t[0] && t[0] > 0 ? t[1] - t[0] : -1;
}

typedef struct run_state {
    byoc_engine *engine;
    byoc_task *t;
    const byoc_measure_opts *o;
    char *workdir;              /* absolute host directory of the requirements */
    char *req_name;             /* its file name */
    char *label;
    char *id;
} run_state;

static int run_pip(run_state *r, byoc_measurement *m, byoc_err *err)
{
    const char *const cmd[] = {"python3", "-m", "pip", "install", "-r", r->req_name};
    char *bind = byoc_xasprintf("%s:" WORKDIR ":ro", r->workdir);
    const char *binds[] = {bind};
    const char *labels[] = {r->label};
    byoc_strv env = BYOC_STRV_INIT;
    pass_env(&env);
    byoc_container_spec cs = {
        .image = m->base_id,
        .cmd = cmd,
        .n_cmd = sizeof cmd / sizeof *cmd,
        .entrypoint_set = true,
        .env = (const char *const *)env.v,
        .n_env = env.n,
        .binds = binds,
        .n_binds = 1,
        .labels = labels,
        .n_labels = 1,
        .network_mode = r->o->network_mode,
        .working_dir = WORKDIR,
    };
    byoc_task_status(r->t, "creating a container of %s", m->base);
    int rc = byoc_container_create(r->engine, r->t, &cs, &r->id, err);
    byoc_strv_clear(&env);
    free(bind);
    if (rc != 0)
        return -1;
    double t0 = mono_now();
    if (byoc_container_start(r->engine, r->t, r->id, err) != 0)
        return -1;
    long timeout = r->o->timeout_seconds > 0 ? r->o->timeout_seconds : 1800;
    json_t *doc = NULL;
    double last_progress = 0;
    for (;;) {
        json_decref(doc);
        doc = NULL;
        if (byoc_task_cancelled(r->t))
            return byoc_err_set(err, BYOC_E_CANCELLED, "--measure", "cancelled; the container was removed");
        char *path = byoc_xasprintf("/containers/%s/json", r->id);
        rc = byoc_engine_call(r->engine, r->t, "GET", path, "size=1", NULL, &doc, "container", err);
        free(path);
        if (rc != 0)
            return -1;
        json_t *state = json_object_get(doc, "State");
        double elapsed = mono_now() - t0;
        if (!json_is_true(json_object_get(state, "Running"))) {
            double secs = engine_seconds(state);
            m->install_seconds = secs >= 0 ? secs : elapsed;
            m->exit_code = (int)json_integer_value(json_object_get(state, "ExitCode"));
            json_t *size = json_object_get(doc, "SizeRw");
            m->size_bytes = json_is_integer(size) ? (int64_t)json_integer_value(size) : -1;
            json_decref(doc);
            return 0;
        }
        if (elapsed > (double)timeout) {
            json_decref(doc);
            return byoc_err_set(err, BYOC_E_FAILED, "--measure",
                                "pip did not finish within %ld s; the container was removed", timeout);
        }
        if (elapsed - last_progress >= 1.0) {
            show_progress(r->engine, r->t, r->id, elapsed);
            last_progress = elapsed;
        }
        usleep(200 * 1000);
    }
}

/* Reads pip's whole output (kept to its end) and fills failed; a pip that
 * reached no index is an error, not a measurement. */
static int read_outcome(run_state *r, byoc_measurement *m, byoc_err *err)
{
    byoc_logs_opts lo = {.tty = 0};
    out_sink s = {BYOC_BUF_INIT};
    if (byoc_container_logs(r->engine, r->t, r->id, &lo, on_output, &s, err) != 0) {
        byoc_buf_clear(&s.all);
        return -1;
    }
    char *text = byoc_xstrdup(byoc_buf_str(&s.all));
    byoc_buf_clear(&s.all);
    byoc_redact_inplace(text);
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        byoc_task_log(r->t, "%s", line); /* pip's words: made printable as every message is */
        if (next)
            next[-1] = '\n';
    }
    bool no_network = false;
    byoc_pip_failures(text, &m->failed, &no_network);
    free(text);
    if (m->exit_code != 0 && no_network)
        return byoc_err_set(err, BYOC_E_ENV, "--measure",
                            "pip in the container could not reach a package index (network %s): give it the "
                            "network a job has (--measure-network, or PIP_INDEX_URL for a local index)",
                            r->o->network_mode ? r->o->network_mode : "default");
    if (m->exit_code != 0 && m->failed.n == 0)
        byoc_strv_pushf(&m->failed, "pip exited %d (see its output)", m->exit_code);
    return 0;
}

int byoc_measure_run(byoc_task *t, const byoc_measure_opts *o, byoc_measurement *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    out->size_bytes = -1;
    if (o->network_mode && !strcmp(o->network_mode, "none"))
        return byoc_err_set(err, BYOC_E_USAGE, "--measure-network",
                            "none: pip needs the network a job has to reach a package index");
    char *path = requirements_path(o->project_dir, o->requirements);
    char sha[65];
    long packages = 0;
    if (read_requirements(path, sha, &packages, err) != 0) {
        free(path);
        return -1;
    }
    char *real = realpath(path, NULL);
    free(path);
    if (!real)
        return byoc_err_set(err, BYOC_E_USAGE, "requirements.txt", "cannot resolve its path");
    char *slash = strrchr(real, '/');
    run_state r = {.t = t, .o = o};
    r.workdir = byoc_xstrndup(real, slash == real ? 1 : (size_t)(slash - real));
    r.req_name = byoc_xstrdup(slash + 1);
    free(real);
    int rc = -1;
    if (strchr(r.workdir, ':') || strchr(r.workdir, ',')) {
        byoc_err_set(err, BYOC_E_USAGE, r.workdir, "a directory with ':' or ',' in its path cannot be mounted");
        goto out;
    }
    if (byoc_engines_get(o->engines, &r.engine, err) != 0 || byoc_engine_connect(r.engine, t, err) != 0)
        goto out;
    byoc_measure_base base;
    if (byoc_measure_base_resolve(r.engine, t, o->base, o->aws, o->clients, &base, err) != 0)
        goto out;
    out->base = base.ref;
    out->base_id = base.id;
    out->base_note = base.note;
    out->requirements_sha256 = byoc_xstrdup(sha);
    out->packages = packages;
    if (!o->again) {
        json_t *doc = state_load(o->project_dir);
        char *key = byoc_xasprintf("%s %s", sha, out->base_id);
        byoc_measurement stored;
        bool hit = from_json(json_object_get(json_object_get(doc, "results"), key), &stored);
        free(key);
        json_decref(doc);
        if (hit) {
            free(stored.base);
            stored.base = out->base;
            stored.base_note = out->base_note;
            out->base = out->base_note = NULL;
            byoc_measurement_clear(out);
            *out = stored;
            rc = 0;
            goto out;
        }
    }
    r.label = byoc_xasprintf(MEASURE_LABEL "=%ld-%.12s", (long)getpid(), sha);
    out->measured_at = utc_now();
    rc = run_pip(&r, out, err);
    if (rc == 0)
        rc = read_outcome(&r, out, err);
    remove_container(r.engine, r.id, r.label);
    if (rc == 0)
        rc = state_store(o->project_dir, out, err);
out:
    if (rc != 0)
        byoc_measurement_clear(out);
    byoc_engine_free(r.engine);
    free(r.workdir);
    free(r.req_name);
    free(r.label);
    free(r.id);
    return rc;
}
