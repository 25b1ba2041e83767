#include "aws/client.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/str.h"

struct byoc_aws_client {
    byoc_aws_config *cfg;
    char *region;                 /* NULL when none */
    const char *region_origin;    /* owned by cfg or static */
    byoc_retry_mode retry_mode;
    int max_attempts;
    byoc_aws_endpoint endpoints[BYOC_AWS_SERVICE_COUNT];
    byoc_err endpoint_err[BYOC_AWS_SERVICE_COUNT]; /* kind BYOC_OK when resolved */
    byoc_aws_creds_provider *provider;
    byoc_sigv4_cache *sign_cache;
    atomic_int refs;              /* byoc_aws_client_ref; the last free frees */
};

static atomic_ulong made;

unsigned long byoc_aws_client_count_made(void)
{
    return atomic_load(&made);
}

int byoc_aws_client_new(const byoc_aws_config_opts *opts, byoc_aws_client **out, byoc_err *err)
{
    *out = NULL;
    byoc_aws_config *cfg;
    if (byoc_aws_config_load(opts, &cfg, err) != 0)
        return -1;
    byoc_retry_mode mode;
    int attempts;
    if (byoc_aws_config_retry(cfg, &mode, &attempts, err) != 0) {
        byoc_aws_config_free(cfg);
        return -1;
    }
    byoc_aws_client *c = byoc_xcalloc(1, sizeof *c);
    atomic_init(&c->refs, 1);
    c->cfg = cfg;
    const char *region = byoc_aws_config_region(cfg, &c->region_origin);
    c->region = byoc_xstrdup_opt(region);
    c->retry_mode = mode;
    c->max_attempts = attempts;
    for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++)
        if (byoc_aws_endpoint_resolve(cfg, c->region, (byoc_aws_service)s, &c->endpoints[s], &c->endpoint_err[s]) ==
            0)
            byoc_err_clear(&c->endpoint_err[s]);
    byoc_aws_chain_opts chain = {.region = c->region,
                                 .ca_bundle = byoc_aws_config_ca_bundle(cfg),
                                 .retry_mode = mode,
                                 .max_attempts = attempts};
    c->provider = byoc_aws_creds_provider_new(cfg, &chain);
    c->sign_cache = byoc_sigv4_cache_new();
    atomic_fetch_add(&made, 1);
    *out = c;
    return 0;
}

byoc_aws_client *byoc_aws_client_ref(byoc_aws_client *c)
{
    if (c)
        atomic_fetch_add(&c->refs, 1);
    return c;
}

void byoc_aws_client_free(byoc_aws_client *c)
{
    if (!c || atomic_fetch_sub(&c->refs, 1) != 1)
        return;
    for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++)
        byoc_aws_endpoint_clear(&c->endpoints[s]);
    byoc_aws_creds_provider_free(c->provider);
    byoc_sigv4_cache_free(c->sign_cache);
    free(c->region);
    byoc_aws_config_free(c->cfg);
    free(c);
}

const byoc_aws_config *byoc_aws_client_config(const byoc_aws_client *c) { return c->cfg; }
const char *byoc_aws_client_region(const byoc_aws_client *c) { return c->region; }

int byoc_aws_client_endpoint(const byoc_aws_client *c, byoc_aws_service s, const byoc_aws_endpoint **out,
                             byoc_err *err)
{
    *out = NULL;
    if (s >= BYOC_AWS_SERVICE_COUNT)
        return byoc_err_set(err, BYOC_E_USAGE, "aws", "unknown service");
    if (c->endpoint_err[s].kind != BYOC_OK) {
        if (err)
            *err = c->endpoint_err[s];
        return -1;
    }
    *out = &c->endpoints[s];
    return 0;
}

int byoc_aws_client_credentials(byoc_aws_client *c, byoc_task *t, byoc_aws_creds *out, byoc_aws_creds_info *info,
                                byoc_err *err)
{
    byoc_aws_creds_info local;
    if (!info)
        info = &local;
    return byoc_aws_creds_provider_get(c->provider, t, out, info, err) != 0 ? -1 : 0;
}

int byoc_aws_session_open(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, byoc_aws_session *out,
                          byoc_err *err)
{
    memset(out, 0, sizeof *out);
    const byoc_aws_endpoint *ep;
    if (byoc_aws_client_endpoint(c, s, &ep, err) != 0)
        return -1;
    byoc_aws_creds_info info;
    if (byoc_aws_client_credentials(c, t, &out->creds, &info, err) != 0)
        return -1;
    byoc_aws_creds_info_origin(&info, out->creds_origin, sizeof out->creds_origin);
    out->ctx.endpoint = ep;
    out->ctx.creds = &out->creds;
    out->ctx.creds_origin = out->creds_origin;
    out->ctx.ca_bundle = byoc_aws_config_ca_bundle(c->cfg);
    out->ctx.retry_mode = c->retry_mode;
    out->ctx.max_attempts = c->max_attempts;
    out->ctx.sign_cache = c->sign_cache;
    out->ctx.task = t;
    return 0;
}

void byoc_aws_session_close(byoc_aws_session *s)
{
    byoc_aws_creds_clear(&s->creds);
    memset(s, 0, sizeof *s);
}

int byoc_aws_call_do(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const byoc_aws_call *call,
                     byoc_aws_response *resp, byoc_err *err)
{
    byoc_aws_session sess;
    if (resp)
        memset(resp, 0, sizeof *resp);
    if (byoc_aws_session_open(c, t, s, &sess, err) != 0)
        return -1;
    int rc = byoc_aws_do(&sess.ctx, call, resp, err);
    byoc_aws_session_close(&sess);
    return rc;
}

int byoc_aws_json_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *target, json_t *body,
                       json_t **out, byoc_err *err)
{
    byoc_aws_session sess;
    if (out)
        *out = NULL;
    if (byoc_aws_session_open(c, t, s, &sess, err) != 0)
        return -1;
    int rc = byoc_aws_json_do(&sess.ctx, target, body, out, err);
    byoc_aws_session_close(&sess);
    return rc;
}

int byoc_aws_rest_json_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *operation,
                            const char *method, const char *path, const char *query, json_t *body, json_t **out,
                            long *status, byoc_err *err)
{
    byoc_aws_session sess;
    if (out)
        *out = NULL;
    if (status)
        *status = 0;
    if (byoc_aws_session_open(c, t, s, &sess, err) != 0)
        return -1;
    int rc = byoc_aws_rest_json_do(&sess.ctx, operation, method, path, query, body, out, status, err);
    byoc_aws_session_close(&sess);
    return rc;
}

int byoc_aws_query_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *action,
                        const char *version, const char *const *params, byoc_aws_xml **out, byoc_err *err)
{
    byoc_aws_session sess;
    if (out)
        *out = NULL;
    if (byoc_aws_session_open(c, t, s, &sess, err) != 0)
        return -1;
    int rc = byoc_aws_query_do(&sess.ctx, action, version, params, out, err);
    byoc_aws_session_close(&sess);
    return rc;
}

char *byoc_aws_path_label(const char *s)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_sigv4_encode(&b, s, strlen(s), false);
    return byoc_buf_steal(&b);
}

/* ---- doctor ------------------------------------------------------------------ */

void byoc_aws_client_describe(byoc_aws_client *c, byoc_task *t, byoc_aws_description *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->profile, sizeof d->profile, "%s", byoc_aws_config_profile(c->cfg));
    snprintf(d->profile_origin, sizeof d->profile_origin, "%s", byoc_aws_config_profile_origin(c->cfg));
    snprintf(d->config_file, sizeof d->config_file, "%s", byoc_aws_config_config_path(c->cfg));
    snprintf(d->credentials_file, sizeof d->credentials_file, "%s", byoc_aws_config_credentials_path(c->cfg));
    snprintf(d->region, sizeof d->region, "%s", c->region ? c->region : "");
    snprintf(d->region_origin, sizeof d->region_origin, "%s", c->region ? c->region_origin : "");
    const char *ca = byoc_aws_config_ca_bundle(c->cfg);
    snprintf(d->ca_bundle, sizeof d->ca_bundle, "%s", ca ? ca : "");
    snprintf(d->retry_mode, sizeof d->retry_mode, "%s", byoc_retry_mode_name(c->retry_mode));
    d->max_attempts = c->max_attempts;

    byoc_aws_creds creds;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_aws_client_credentials(c, t, &creds, &d->creds, &err) == 0) {
        d->credentials_ok = true;
        byoc_aws_creds_clear(&creds);
    } else {
        byoc_err_format(&err, d->credentials_error, sizeof d->credentials_error);
        d->credentials_error_kind = err.kind;
        d->credentials_err = err;
    }
    for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++) {
        byoc_aws_endpoint_desc *e = &d->endpoints[s];
        e->service = byoc_aws_service_name((byoc_aws_service)s);
        if (c->endpoint_err[s].kind != BYOC_OK) {
            byoc_err_format(&c->endpoint_err[s], e->error, sizeof e->error);
            continue;
        }
        snprintf(e->url, sizeof e->url, "%s", c->endpoints[s].url);
        snprintf(e->origin, sizeof e->origin, "%s", c->endpoints[s].origin);
        e->overridden = c->endpoints[s].overridden;
    }
}

static json_t *str_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

json_t *byoc_aws_description_json(const byoc_aws_description *d)
{
    json_t *creds = json_object();
    json_object_set_new(creds, "profile", json_string(d->profile));
    json_object_set_new(creds, "profile_origin", json_string(d->profile_origin));
    if (d->credentials_ok) {
        json_object_set_new(creds, "source", json_string(d->creds.source));
        if (d->creds.profile[0])
            json_object_set_new(creds, "from_profile", json_string(d->creds.profile));
        if (d->creds.detail[0])
            json_object_set_new(creds, "role_arn", json_string(d->creds.detail));
        if (d->creds.expiration) {
            char when[32];
            struct tm tm;
            gmtime_r(&d->creds.expiration, &tm);
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
            json_object_set_new(creds, "expires", json_string(when));
        }
    } else {
        json_object_set_new(creds, "source", json_null());
        json_object_set_new(creds, "error", json_string(d->credentials_error));
    }
    json_t *eps = json_object();
    for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++) {
        const byoc_aws_endpoint_desc *e = &d->endpoints[s];
        json_t *o = json_object();
        json_object_set_new(o, "url", str_or_null(e->url));
        json_object_set_new(o, "override", json_boolean(e->overridden));
        json_object_set_new(o, "origin", str_or_null(e->origin));
        if (e->error[0])
            json_object_set_new(o, "error", json_string(e->error));
        json_object_set_new(eps, e->service, o);
    }
    json_t *retry = json_object();
    json_object_set_new(retry, "mode", json_string(d->retry_mode));
    json_object_set_new(retry, "max_attempts", json_integer(d->max_attempts));
    json_t *j = json_object();
    json_object_set_new(j, "credentials", creds);
    json_object_set_new(j, "region", str_or_null(d->region));
    json_object_set_new(j, "region_origin", str_or_null(d->region_origin));
    json_object_set_new(j, "config_file", json_string(d->config_file));
    json_object_set_new(j, "credentials_file", json_string(d->credentials_file));
    json_object_set_new(j, "ca_bundle", str_or_null(d->ca_bundle));
    json_object_set_new(j, "retry", retry);
    json_object_set_new(j, "endpoints", eps);
    return j;
}
