#include "byoc/pushflow.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strpool.h"
#include "core/buf.h"
#include "core/log.h"
#include "byoc/project.h"
#include "docker/images.h"
#include "docker/reference.h"
#include "docker/registry_auth.h"

#define DEFAULT_VERIFY_MS 20000

/* ---- results ---- */

void byoc_push_result_clear(byoc_push_result *r)
{
    if (!r)
        return;
    free(r->image_uri);
    free(r->digest);
    free(r->registry);
    free(r->repository);
    free(r->tag);
    free(r->account);
    free(r->region);
    free(r->image_id);
    free(r->docker_config);
    byoc_push_report_clear(&r->report);
    for (size_t i = 0; i < r->n_warnings; i++)
        free(r->warnings[i]);
    free(r->warnings);
    memset(r, 0, sizeof *r);
}

static void warn(byoc_push_result *r, byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void warn(byoc_push_result *r, byoc_task *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_WARNING, .text = byoc_buf_str(&b)});
    r->warnings = byoc_xrealloc(r->warnings, (r->n_warnings + 1) * sizeof *r->warnings);
    r->warnings[r->n_warnings++] = byoc_buf_steal(&b);
}

/* ---- typed events ----
 * On the task's wire: STEP a STATUS, NOTE a LOG, LAYER a PROGRESS keyed by the
 * layer id (as docker/push.c posts them), and the rest a CHECK named
 * EVENT_KEY whose status is the kind, doubled, plus one when its flag is set. */

#define EVENT_KEY "byoc.push"

static bool wire_kind(byoc_push_ev_kind k)
{
    return k == BYOC_PUSH_EV_WARNING || k == BYOC_PUSH_EV_REPOSITORY || k == BYOC_PUSH_EV_LOGIN ||
           k == BYOC_PUSH_EV_DIGEST;
}

void byoc_push_post(byoc_task *t, const byoc_push_event *ev)
{
    switch (ev->kind) {
    case BYOC_PUSH_EV_STEP: byoc_task_status(t, "%s", ev->text ? ev->text : ""); break;
    case BYOC_PUSH_EV_NOTE: byoc_task_log(t, "%s", ev->text ? ev->text : ""); break;
    case BYOC_PUSH_EV_LAYER: byoc_task_progress(t, ev->layer, ev->current, ev->total, ev->text); break;
    case BYOC_PUSH_EV_WARNING:
    case BYOC_PUSH_EV_REPOSITORY:
    case BYOC_PUSH_EV_LOGIN:
    case BYOC_PUSH_EV_DIGEST: {
        bool flag = ev->kind == BYOC_PUSH_EV_REPOSITORY ? ev->created
                  : ev->kind == BYOC_PUSH_EV_LOGIN    ? ev->retried
                  : ev->kind == BYOC_PUSH_EV_DIGEST   ? ev->verified
                                                      : false;
        byoc_task_check(t, EVENT_KEY, (int)ev->kind * 2 + flag, ev->text ? ev->text : "", NULL);
        break;
    }
    case BYOC_PUSH_EV_DONE:
    case BYOC_PUSH_EV_FAILED: break;
    }
}

bool byoc_push_event_from(const byoc_event *ev, byoc_push_event *out)
{
    memset(out, 0, sizeof *out);
    out->text = ev->text;
    switch (ev->kind) {
    case BYOC_EV_STATUS: out->kind = BYOC_PUSH_EV_STEP; return true;
    case BYOC_EV_LOG: out->kind = BYOC_PUSH_EV_NOTE; return true;
    case BYOC_EV_PROGRESS:
        if (!ev->key)
            return false;
        out->kind = BYOC_PUSH_EV_LAYER;
        out->layer = ev->key;
        out->current = ev->current;
        out->total = ev->total;
        return true;
    case BYOC_EV_CHECK: {
        if (!ev->key || strcmp(ev->key, EVENT_KEY) != 0 || ev->current < 0)
            return false;
        byoc_push_ev_kind k = (byoc_push_ev_kind)(ev->current / 2);
        if (!wire_kind(k))
            return false;
        bool flag = ev->current % 2;
        out->kind = k;
        out->created = k == BYOC_PUSH_EV_REPOSITORY && flag;
        out->retried = k == BYOC_PUSH_EV_LOGIN && flag;
        out->verified = k == BYOC_PUSH_EV_DIGEST && flag;
        return true;
    }
    case BYOC_EV_DONE:
        out->kind = BYOC_PUSH_EV_DONE;
        out->text = NULL;
        out->result = ev->result;
        return true;
    case BYOC_EV_ERROR:
        out->kind = BYOC_PUSH_EV_FAILED;
        out->text = NULL;
        out->err = &ev->err;
        return true;
    case BYOC_EV_DATA: return false;
    }
    return false;
}

json_t *byoc_push_result_json(const byoc_push_result *r)
{
    json_t *layers = json_array();
    for (size_t i = 0; i < r->report.n_layers; i++)
        json_array_append_new(layers, json_pack("{s:s, s:s}", "id", r->report.layers[i].id, "state",
                                                byoc_layer_state_name(r->report.layers[i].state)));
    json_t *warnings = json_array();
    for (size_t i = 0; i < r->n_warnings; i++)
        json_array_append_new(warnings, json_string(r->warnings[i]));
    json_t *j = json_object();
    json_object_set_new(j, "image_uri", json_string(r->image_uri ? r->image_uri : ""));
    json_object_set_new(j, "digest", json_string(r->digest ? r->digest : ""));
    json_object_set_new(j, "repository", json_string(r->repository ? r->repository : ""));
    json_object_set_new(j, "registry", json_string(r->registry ? r->registry : ""));
    json_object_set_new(j, "tag", json_string(r->tag ? r->tag : ""));
    json_object_set_new(j, "account", json_string(r->account ? r->account : ""));
    json_object_set_new(j, "region", json_string(r->region ? r->region : ""));
    json_object_set_new(j, "created_repository", json_boolean(r->created_repository));
    json_object_set_new(j, "verified", json_boolean(r->verified));
    json_object_set_new(j, "login_retried", json_boolean(r->login_retried));
    json_object_set_new(j, "docker_config", r->docker_config ? json_string(r->docker_config) : json_null());
    json_object_set_new(j, "layers", layers);
    json_object_set_new(j, "warnings", warnings);
    return j;
}

/* ---- names ---- */

bool byoc_push_braket_name_ok(const char *repository)
{
    return repository && strncmp(repository, BYOC_BRAKET_REPOSITORY_PREFIX, strlen(BYOC_BRAKET_REPOSITORY_PREFIX)) == 0;
}

char *byoc_push_braket_name_suggestion(const char *repository)
{
    if (!repository || byoc_push_braket_name_ok(repository))
        return NULL;
    char *s = byoc_xasprintf(BYOC_BRAKET_REPOSITORY_PREFIX "-%s", repository);
    if (!byoc_ecr_repository_name_ok(s, NULL, 0)) {
        free(s);
        return NULL;
    }
    return s;
}

/* ---- steps ---- */

static int check_input(const byoc_push_opts *o, byoc_err *err)
{
    if (!o->source || !*o->source)
        return byoc_err_set(err, BYOC_E_USAGE, "push", "which image? give a local image name or id (REF)");
    if (!o->repository || !*o->repository)
        return byoc_err_set(err, BYOC_E_USAGE, "--repository", "the ECR repository name is required");
    if (byoc_ecr_check_repository_name(o->repository, "--repository", err) < 0)
        return -1;
    if (o->tag && !byoc_imageref_valid_tag(o->tag))
        return byoc_err_set(err, BYOC_E_USAGE, "--tag",
                            "'%s' is not a valid tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})", o->tag);
    if (o->create) {
        byoc_ecr_create_opts co = o->create_opts;
        co.name = o->repository;
        if (byoc_ecr_check_create_opts(&co, err) < 0)
            return -1;
    }
    return 0;
}

char *byoc_push_default_tag(const char *source)
{
    byoc_imageref ref;
    byoc_err ignored;
    char *tag = NULL;
    if (source && byoc_imageref_parse(source, "REF", &ref, &ignored) == 0) {
        if (ref.tag)
            tag = byoc_xstrdup(ref.tag);
        byoc_imageref_clear(&ref);
    }
    return tag ? tag : byoc_xstrdup("latest");
}

/* The tag to push: --tag, else the default. */
static char *pick_tag(const byoc_push_opts *o)
{
    return o->tag ? byoc_xstrdup(o->tag) : byoc_push_default_tag(o->source);
}

static int inspect_source(byoc_engine *e, byoc_task *t, const byoc_push_opts *o, byoc_push_result *r, byoc_err *err)
{
    byoc_task_status(t, "Checking the image %s", o->source);
    json_t *doc = NULL;
    byoc_err local;
    byoc_err_clear(&local);
    if (byoc_image_inspect(e, t, o->source, &doc, &local) < 0) {
        if (local.http_status == 404)
            return byoc_err_set(err, BYOC_E_USAGE, "push",
                                "there is no local image '%s' on the engine (byoc images lists them); nothing was sent",
                                o->source);
        if (err)
            *err = local;
        return -1;
    }
    const char *id = json_string_value(json_object_get(doc, "Id"));
    r->image_id = byoc_xstrdup(id ? id : "");
    const char *arch = json_string_value(json_object_get(doc, "Architecture"));
    const char *os = json_string_value(json_object_get(doc, "Os"));
    if (arch && strcmp(arch, "amd64") != 0)
        warn(r, t, "the image is built for %s/%s; Braket job instances run linux/amd64 (x86_64), so the job "
                   "would fail with \"exec format error\": rebuild with --platform linux/amd64",
             os ? os : "linux", arch);
    json_decref(doc);
    return 0;
}

static int repository_there(byoc_task *t, const byoc_push_opts *o, const byoc_ecr_repository *repo, bool created)
{
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_REPOSITORY,
                                         .text = repo->uri ? repo->uri : o->repository,
                                         .created = created});
    return 0;
}

static int ensure_repository(byoc_aws_client *aws, byoc_task *t, const byoc_push_opts *o, byoc_push_result *r,
                             byoc_ecr_repository *repo, byoc_err *err)
{
    byoc_task_status(t, "Checking the repository %s", o->repository);
    byoc_err local;
    byoc_err_clear(&local);
    if (byoc_ecr_describe_repository(aws, t, o->repository, repo, &local) == 0)
        return repository_there(t, o, repo, false);
    if (strcmp(local.code, "RepositoryNotFoundException") != 0) {
        if (err)
            *err = local;
        return -1;
    }
    if (!o->create)
        return byoc_err_set(err, BYOC_E_USAGE, "--repository",
                            "the repository '%s' does not exist in region %s (ECR: %s); add --create to create it "
                            "(nothing was pushed)",
                            o->repository, r->region, local.message);
    byoc_task_status(t, "Creating the repository %s", o->repository);
    byoc_ecr_create_opts co = o->create_opts;
    co.name = o->repository;
    if (byoc_ecr_create_repository(aws, t, &co, repo, err) < 0)
        return -1;
    r->created_repository = true;
    byoc_task_log(t, "Created repository %s", repo->uri ? repo->uri : o->repository);
    return repository_there(t, o, repo, true);
}

static char *uri_host(const char *uri)
{
    return byoc_xstrndup(uri, strcspn(uri, "/"));
}

static void sleep_ms(byoc_task *t, long ms)
{
    while (ms > 0 && !byoc_task_cancelled(t)) {
        long step = ms < 50 ? ms : 50;
        struct timespec ts = {0, step * 1000000L};
        nanosleep(&ts, NULL);
        ms -= step;
    }
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* DescribeImages until it lists the digest (ECR may lag the registry a moment). */
static int verify(byoc_aws_client *aws, byoc_task *t, const byoc_push_opts *o, byoc_push_result *r, byoc_err *err)
{
    byoc_task_status(t, "Checking %s in ECR", r->digest);
    long budget = o->verify_timeout_ms > 0 ? o->verify_timeout_ms : DEFAULT_VERIFY_MS;
    long deadline = now_ms() + budget, pause = 100;
    byoc_ecr_image_id id = {r->digest, NULL};
    for (;;) {
        byoc_ecr_image_list l;
        byoc_err local;
        byoc_err_clear(&local);
        if (byoc_ecr_describe_images(aws, t, r->repository, &id, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &local) == 0) {
            bool tagged = false, digest_ok = false;
            for (size_t i = 0; i < l.n; i++) {
                digest_ok = digest_ok || (l.items[i].digest && strcmp(l.items[i].digest, r->digest) == 0);
                for (size_t k = 0; k < l.items[i].n_tags; k++)
                    tagged = tagged || strcmp(l.items[i].tags[k], r->tag) == 0;
            }
            byoc_ecr_image_list_clear(&l);
            if (digest_ok && tagged) {
                r->verified = true;
                return 0;
            }
            if (digest_ok && now_ms() >= deadline) {
                r->verified = true;
                warn(r, t, "ECR lists %s but not with the tag %s", r->digest, r->tag);
                return 0;
            }
        } else if (strcmp(local.code, "ImageNotFoundException") != 0) {
            if (err)
                *err = local;
            return -1;
        }
        if (byoc_task_cancelled(t))
            return byoc_err_set(err, BYOC_E_CANCELLED, "push", "cancelled while checking the image in ECR");
        if (now_ms() >= deadline)
            break;
        sleep_ms(t, pause);
        pause = pause < 1600 ? pause * 2 : 2000;
    }
    /* Not listed by digest: does ECR name another image with the tag? */
    byoc_ecr_image_id by_tag = {NULL, r->tag};
    byoc_ecr_image_list l;
    byoc_err local;
    byoc_err_clear(&local);
    if (byoc_ecr_describe_images(aws, t, r->repository, &by_tag, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &local) == 0) {
        int rc = 0;
        if (l.n && l.items[0].digest && strcmp(l.items[0].digest, r->digest) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, "push",
                              "the registry took %s but ECR says %s:%s is %s; the push did not reach this "
                              "repository as ECR sees it",
                              r->digest, r->repository, r->tag, l.items[0].digest);
        byoc_ecr_image_list_clear(&l);
        if (rc < 0)
            return rc;
    }
    warn(r, t, "the registry took %s but ECR DescribeImages does not list it after %ld s", r->digest, budget / 1000);
    return 0;
}

static int push_with_login(byoc_engine *e, byoc_ecr_auth *auth, byoc_task *t, byoc_push_result *r,
                           const char *target_repo, byoc_err *err)
{
    for (int attempt = 0;; attempt++) {
        byoc_ecr_token tok;
        byoc_task_status(t, attempt ? "Logging in again to %s" : "Logging in to %s", r->registry);
        if (byoc_ecr_auth_get(auth, t, time(NULL), attempt > 0, &tok, err) < 0)
            return -1;
        byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_LOGIN, .text = r->registry, .retried = attempt > 0});
        char *header = byoc_registry_auth_header(tok.username, tok.password, r->registry);
        byoc_ecr_token_clear(&tok);
        byoc_push_report_clear(&r->report);
        byoc_err local;
        byoc_err_clear(&local);
        int rc = byoc_docker_push(e, t, target_repo, r->tag, header, &r->report, &local);
        byoc_free_secret(header);
        if (rc == 0)
            return 0;
        if (attempt == 0 && local.kind == BYOC_E_FAILED && byoc_push_error_is_auth(r->report.error)) {
            r->login_retried = true;
            byoc_task_log(t, "The registry refused the login token (%s); fetching a new one and pushing again",
                          r->report.error);
            continue;
        }
        if (err)
            *err = local;
        return -1;
    }
}

/* The project's last push is Run's default image (only a project with a byoc.json remembers). */
static void record_push(byoc_task *t, const byoc_push_opts *o, const byoc_push_result *r)
{
    byoc_err perr;
    byoc_err_clear(&perr);
    if (!o->project_dir || byoc_project_record_push(o->project_dir, r->image_uri, r->digest, &perr) == 0)
        return;
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_printf(&b, "byoc.json not updated: %s", perr.message);
    byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_WARNING, .text = byoc_buf_str(&b)});
    byoc_buf_clear(&b);
}

static int push_body(byoc_aws_client *aws, byoc_engine *engine, byoc_task *t,
                     const byoc_push_opts *o, byoc_push_result *r, byoc_err *err)
{
    memset(r, 0, sizeof *r);
    r->report.size = -1;
    if (check_input(o, err) < 0)
        return -1;
    r->repository = byoc_xstrdup(o->repository);
    r->tag = pick_tag(o);
    if (inspect_source(engine, t, o, r, err) < 0)
        return -1;

    const char *region = byoc_aws_client_region(aws);
    if (!region)
        return byoc_err_set(err, BYOC_E_ENV, "region", "no AWS region: set --region, AWS_REGION or the profile's region");
    r->region = byoc_xstrdup(region);
    if (!byoc_push_braket_name_ok(o->repository)) {
        char *s = byoc_push_braket_name_suggestion(o->repository);
        warn(r, t, "the default Braket job role (AmazonBraketJobsExecutionPolicy) can pull only from repositories "
                   "named amazon-braket*; use --repository %s, or grant your job role pull access "
                   "(byoc permit %s --allow ROLE_ARN)",
             s ? s : "amazon-braket-<name>", o->repository);
        free(s);
    }

    byoc_ecr_repository repo;
    if (ensure_repository(aws, t, o, r, &repo, err) < 0)
        return -1;
    r->account = byoc_xstrdup(repo.registry_id ? repo.registry_id : "");
    char *expected = byoc_aws_ecr_registry_host(r->account, r->region);
    char *repo_host = repo.uri ? uri_host(repo.uri) : NULL;

    byoc_ecr_auth *auth = byoc_ecr_auth_new(aws, repo.registry_id);
    byoc_ecr_token tok;
    int rc = byoc_ecr_auth_get(auth, t, time(NULL), false, &tok, err);
    if (rc == 0) {
        r->registry = byoc_xstrdup(tok.registry_host);
        if (repo_host && strcmp(repo_host, tok.registry_host) != 0)
            warn(r, t, "the repository lives on %s but the login token is for %s", repo_host, tok.registry_host);
        else if (expected && strcmp(expected, tok.registry_host) != 0)
            warn(r, t, "the login token is for %s, not %s (account %s, region %s)", tok.registry_host, expected,
                 r->account, r->region);
        if (o->write_docker_config) {
            char *path = o->docker_config_path ? byoc_xstrdup(o->docker_config_path) : byoc_docker_config_path();
            char note[600];
            rc = byoc_docker_config_store_auth(path, tok.registry_host, tok.username, tok.password, note, sizeof note,
                                               err);
            if (rc == 0) {
                r->docker_config = path;
                byoc_task_log(t, "Stored the login for %s in %s", tok.registry_host, path);
                if (note[0])
                    warn(r, t, "%s", note);
            } else {
                free(path);
            }
        }
        byoc_ecr_token_clear(&tok);
    }
    char *target = rc == 0 ? byoc_xasprintf("%s/%s", r->registry, r->repository) : NULL;
    if (rc == 0) {
        r->image_uri = byoc_xasprintf("%s:%s", target, r->tag);
        byoc_task_status(t, "Tagging %s", r->image_uri);
        rc = byoc_image_tag(engine, t, o->source, r->image_uri, err);
    }
    if (rc == 0)
        rc = push_with_login(engine, auth, t, r, target, err);
    if (rc == 0) {
        r->digest = byoc_xstrdup(r->report.digest);
        rc = verify(aws, t, o, r, err);
    }
    if (rc == 0) {
        byoc_push_post(t, &(byoc_push_event){.kind = BYOC_PUSH_EV_DIGEST, .text = r->digest, .verified = r->verified});
        byoc_task_status(t, "Pushed %s@%s", r->image_uri, r->digest);
        record_push(t, o, r);
    }
    free(target);
    byoc_ecr_auth_free(auth);
    free(repo_host);
    free(expected);
    byoc_ecr_repository_clear(&repo);
    return rc;
}

/* ---- as a task ---- */

struct byoc_push_job {
    byoc_aws_clients *clients;  /* the app's, or NULL */
    byoc_engines *engines;      /* the app's, or NULL */
    const char *profile, *region;
    byoc_push_opts opts;
    byoc_ecr_tag *tags;
    byoc_strpool pool; /* everything the copy owns */
};

byoc_push_job *byoc_push_job_new(byoc_aws_clients *clients, byoc_engines *engines, const char *profile,
                                 const char *region, const byoc_push_opts *o)
{
    byoc_push_job *j = byoc_xcalloc(1, sizeof *j);
    j->clients = clients;
    j->engines = engines;
    j->profile = byoc_strpool_dup(&j->pool, profile);
    j->region = byoc_strpool_dup(&j->pool, region);
    j->opts = *o;
    j->opts.source = byoc_strpool_dup(&j->pool, o->source);
    j->opts.repository = byoc_strpool_dup(&j->pool, o->repository);
    j->opts.tag = byoc_strpool_dup(&j->pool, o->tag);
    j->opts.docker_config_path = byoc_strpool_dup(&j->pool, o->docker_config_path);
    j->opts.project_dir = byoc_strpool_dup(&j->pool, o->project_dir);
    j->opts.create_opts.name = NULL;
    j->opts.create_opts.encryption_type = byoc_strpool_dup(&j->pool, o->create_opts.encryption_type);
    j->opts.create_opts.kms_key = byoc_strpool_dup(&j->pool, o->create_opts.kms_key);
    if (o->create_opts.n_tags) {
        j->tags = byoc_xcalloc(o->create_opts.n_tags, sizeof *j->tags);
        for (size_t i = 0; i < o->create_opts.n_tags; i++) {
            j->tags[i].key = byoc_strpool_dup(&j->pool, o->create_opts.tags[i].key);
            j->tags[i].value = byoc_strpool_dup(&j->pool, o->create_opts.tags[i].value);
        }
    }
    j->opts.create_opts.tags = j->tags;
    return j;
}

void byoc_push_job_free(void *job)
{
    byoc_push_job *j = job;
    if (!j)
        return;
    byoc_strpool_clear(&j->pool);
    free(j->tags);
    free(j);
}

BYOC_TASK_FREE(result_free, byoc_push_result, byoc_push_result_clear)

int byoc_push_task(byoc_task *t, void *arg, void **result, void (**rfree)(void *), byoc_err *err)
{
    byoc_push_job *j = arg;
    byoc_aws_config_opts co = {.profile = j->profile, .region = j->region};
    byoc_aws_client *aws = NULL;
    byoc_engine *engine = NULL;
    if (check_input(&j->opts, err) < 0) /* a bad input needs neither AWS nor the engine */
        return -1;
    if (byoc_aws_clients_get(j->clients, &co, &aws, err) != 0)
        return -1;
    if (byoc_engines_get(j->engines, &engine, err) < 0) {
        byoc_aws_client_free(aws);
        return -1;
    }
    byoc_push_result *r = byoc_xcalloc(1, sizeof *r);
    int rc = push_body(aws, engine, t, &j->opts, r, err);
    byoc_engine_free(engine);
    byoc_aws_client_free(aws);
    if (rc < 0) {
        result_free(r);
        return -1;
    }
    *result = r;
    *rfree = result_free;
    return 0;
}
