#include "aws/credentials.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/credprocess.h"
#include "aws/endpoints.h"
#include "aws/sts.h"
#include "core/buf.h"
#include "core/log.h"

#define MAX_CHAIN 16
#define REFRESH_BEFORE_S (15 * 60)
#define STILL_USABLE_S 60
#define REFRESH_RETRY_S 30       /* after a failed early refresh, keep the current ones this long */

typedef struct {
    const byoc_aws_config *cfg;
    const byoc_aws_chain_opts *opts;
    const char *visited[MAX_CHAIN];
    size_t nvisited;
} chain;

void byoc_aws_creds_info_origin(const byoc_aws_creds_info *info, char *buf, size_t n)
{
    if (!info->source[0])
        snprintf(buf, n, "%s", "");
    else if (!info->profile[0])
        snprintf(buf, n, "%s", info->source);
    else
        snprintf(buf, n, "profile %s (%s)", info->profile, info->source);
}

static void set_info(byoc_aws_creds_info *info, const char *source, const char *profile, const char *detail,
                     time_t expiration)
{
    memset(info, 0, sizeof *info);
    snprintf(info->source, sizeof info->source, "%s", source);
    snprintf(info->profile, sizeof info->profile, "%s", profile ? profile : "");
    snprintf(info->detail, sizeof info->detail, "%s", detail ? detail : "");
    info->expiration = expiration;
}

static void take(byoc_aws_creds *out, const char *akid, const char *secret, const char *token)
{
    byoc_secret_register(secret);
    byoc_secret_register(token);
    out->access_key_id = byoc_xstrdup(akid);
    out->secret_access_key = byoc_xstrdup(secret);
    out->session_token = token && *token ? byoc_xstrdup(token) : NULL;
    out->expiration = 0;
}

/* ---- sources --------------------------------------------------------------------- */

static int from_env(byoc_aws_creds *out, bool *found, byoc_err *err)
{
    const char *akid = byoc_aws_getenv("AWS_ACCESS_KEY_ID");
    const char *secret = byoc_aws_getenv("AWS_SECRET_ACCESS_KEY");
    const char *token = byoc_aws_getenv("AWS_SESSION_TOKEN");
    if (!token)
        token = byoc_aws_getenv("AWS_SECURITY_TOKEN");
    byoc_secret_register(secret);
    byoc_secret_register(token);
    *found = false;
    if (!akid && !secret)
        return 0;
    if (!akid || !secret)
        return byoc_err_set(err, BYOC_E_ENV, akid ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID",
                            "%s is set but %s is not", akid ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                            akid ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
    take(out, akid, secret, token);
    *found = true;
    return 0;
}

static bool has_static(const byoc_aws_config *cfg, byoc_aws_file file, const char *profile)
{
    return byoc_aws_config_get_in(cfg, file, profile, "aws_access_key_id") ||
           byoc_aws_config_get_in(cfg, file, profile, "aws_secret_access_key");
}

static int from_file(const byoc_aws_config *cfg, byoc_aws_file file, const char *profile, byoc_aws_creds *out,
                     bool *found, byoc_err *err)
{
    const char *akid = byoc_aws_config_get_in(cfg, file, profile, "aws_access_key_id");
    const char *secret = byoc_aws_config_get_in(cfg, file, profile, "aws_secret_access_key");
    const char *token = byoc_aws_config_get_in(cfg, file, profile, "aws_session_token");
    *found = false;
    if (!akid && !secret)
        return 0;
    const char *path = file == BYOC_AWS_FILE_CREDENTIALS ? byoc_aws_config_credentials_path(cfg)
                                                         : byoc_aws_config_config_path(cfg);
    if (!akid || !*akid || !secret || !*secret)
        return byoc_err_set(err, BYOC_E_ENV, "credentials", "profile %s in %s has %s but no %s", profile, path,
                            akid && *akid ? "aws_access_key_id" : "aws_secret_access_key",
                            akid && *akid ? "aws_secret_access_key" : "aws_access_key_id");
    take(out, akid, secret, token);
    *found = true;
    return 0;
}

static int sts_ctx(const chain *ch, byoc_aws_endpoint *ep, byoc_aws_ctx *ctx, byoc_err *err)
{
    if (byoc_aws_endpoint_resolve(ch->cfg, ch->opts->region, BYOC_AWS_STS, ep, err) != 0)
        return -1;
    memset(ctx, 0, sizeof *ctx);
    ctx->endpoint = ep;
    ctx->ca_bundle = ch->opts->ca_bundle;
    ctx->retry_mode = ch->opts->retry_mode;
    ctx->max_attempts = ch->opts->max_attempts;
    ctx->task = ch->opts->task;
    return 0;
}

static char *read_token_file(const char *profile, const char *path, byoc_err *err)
{
    char *expanded = byoc_aws_expand_home(path);
    FILE *f = fopen(expanded, "rb");
    if (!f) {
        byoc_err_set(err, BYOC_E_ENV, "credentials", "%s%s%scannot read the web_identity_token_file %s: %s",
                     *profile ? "profile " : "", profile, *profile ? ": " : "", expanded, strerror(errno));
        free(expanded);
        return NULL;
    }
    free(expanded);
    byoc_buf b = BYOC_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len < 64 * 1024)
        byoc_buf_append(&b, chunk, n);
    fclose(f);
    byoc_wipe(chunk, sizeof chunk);
    while (b.len && isspace((unsigned char)b.data[b.len - 1]))
        b.data[--b.len] = '\0';
    if (!b.len) {
        byoc_buf_clear(&b);
        byoc_err_set(err, BYOC_E_ENV, "credentials", "the web_identity_token_file %s is empty", path);
        return NULL;
    }
    byoc_secret_register(b.data);
    return byoc_buf_steal(&b);
}

static int web_identity(const chain *ch, const char *profile, const char *token_file, const char *role_arn,
                        const char *session_name, byoc_aws_creds *out, byoc_aws_creds_info *info, byoc_err *err)
{
    char *token = read_token_file(profile, token_file, err);
    if (!token)
        return -1;
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    if (sts_ctx(ch, &ep, &ctx, err) != 0) {
        byoc_free_secret(token);
        return -1;
    }
    byoc_sts_assume_role_params p = {.role_arn = role_arn, .session_name = session_name, .web_identity_token = token};
    int rc = byoc_sts_assume_role_with_web_identity_ctx(&ctx, &p, out, NULL, err);
    byoc_free_secret(token);
    byoc_aws_endpoint_clear(&ep);
    if (rc == 0)
        set_info(info, "web-identity", profile, role_arn, out->expiration);
    return rc;
}

static int unsupported(byoc_err *err, const char *what, const char *profile, const char *fmt_tail)
{
    return byoc_err_set(err, BYOC_E_ENV, "credentials", "profile %s: %s is not supported by byoc%s", profile, what,
                        fmt_tail);
}

static int assume_role(chain *ch, const char *profile, byoc_aws_creds *out, byoc_aws_creds_info *info,
                       byoc_err *err);

/* The providers that read one profile, in the CLI's order. top_level adds the
 * assume-role provider and the web identity environment variables. */
static int profile_creds(chain *ch, const char *profile, bool top_level, byoc_aws_creds *out,
                         byoc_aws_creds_info *info, bool *found, byoc_err *err)
{
    const byoc_aws_config *cfg = ch->cfg;
    *found = true;
    const char *role_arn = byoc_aws_config_get(cfg, profile, "role_arn");
    const char *token_file = byoc_aws_config_get(cfg, profile, "web_identity_token_file");
    if (top_level && role_arn && !token_file)
        return assume_role(ch, profile, out, info, err);
    if (role_arn && token_file)
        return web_identity(ch, profile, token_file, role_arn, byoc_aws_config_get(cfg, profile, "role_session_name"),
                            out, info, err);
    if (top_level && byoc_aws_getenv("AWS_WEB_IDENTITY_TOKEN_FILE") && byoc_aws_getenv("AWS_ROLE_ARN"))
        return web_identity(ch, "", byoc_aws_getenv("AWS_WEB_IDENTITY_TOKEN_FILE"), byoc_aws_getenv("AWS_ROLE_ARN"),
                            byoc_aws_getenv("AWS_ROLE_SESSION_NAME"), out, info, err);
    if (byoc_aws_config_get(cfg, profile, "sso_session") || byoc_aws_config_get(cfg, profile, "sso_start_url") ||
        byoc_aws_config_get(cfg, profile, "sso_account_id"))
        return unsupported(err, "IAM Identity Center (SSO)", profile,
                           "; set credential_process = aws configure export-credentials --profile <sso profile> "
                           "--format process in another profile and use that");

    if (from_file(cfg, BYOC_AWS_FILE_CREDENTIALS, profile, out, found, err) != 0)
        return -1;
    if (*found) {
        set_info(info, "shared-credentials-file", profile, NULL, 0);
        return 0;
    }
    const char *process = byoc_aws_config_get(cfg, profile, "credential_process");
    if (process && *process) {
        *found = true;
        if (byoc_aws_credential_process(profile, process, ch->opts->task, out, err) != 0)
            return -1;
        set_info(info, "credential-process", profile, NULL, out->expiration);
        return 0;
    }
    if (from_file(cfg, BYOC_AWS_FILE_CONFIG, profile, out, found, err) != 0)
        return -1;
    if (*found)
        set_info(info, "config-file", profile, NULL, 0);
    return 0;
}

static bool visited(const chain *ch, const char *profile)
{
    for (size_t i = 0; i < ch->nvisited; i++)
        if (strcmp(ch->visited[i], profile) == 0)
            return true;
    return false;
}

static int cycle_error(const chain *ch, const char *again, byoc_err *err)
{
    byoc_buf path = BYOC_BUF_INIT;
    for (size_t i = 0; i < ch->nvisited; i++)
        byoc_buf_printf(&path, "%s -> ", ch->visited[i]);
    byoc_buf_puts(&path, again);
    byoc_err_set(err, BYOC_E_ENV, "source_profile", "infinite loop in the source_profile chain: %s", path.data);
    byoc_buf_clear(&path);
    return -1;
}

/* The credentials that sign the AssumeRole call of `profile`. */
static int source_creds(chain *ch, const char *profile, byoc_aws_creds *src, byoc_aws_creds_info *src_info,
                        byoc_err *err)
{
    const byoc_aws_config *cfg = ch->cfg;
    const char *source_profile = byoc_aws_config_get(cfg, profile, "source_profile");
    const char *credential_source = byoc_aws_config_get(cfg, profile, "credential_source");
    bool found;
    if (credential_source) {
        if (strcmp(credential_source, "Environment") == 0) {
            if (from_env(src, &found, err) != 0)
                return -1;
            if (!found)
                return byoc_err_set(err, BYOC_E_ENV, "credential_source",
                                    "profile %s: credential_source = Environment, but AWS_ACCESS_KEY_ID and "
                                    "AWS_SECRET_ACCESS_KEY are not set", profile);
            set_info(src_info, "env", NULL, NULL, 0);
            return 0;
        }
        if (strcmp(credential_source, "Ec2InstanceMetadata") == 0 || strcmp(credential_source, "EcsContainer") == 0)
            return byoc_err_set(err, BYOC_E_ENV, "credential_source",
                                "profile %s: credential_source = %s is not supported by byoc (only Environment)",
                                profile, credential_source);
        return byoc_err_set(err, BYOC_E_ENV, "credential_source",
                            "profile %s: credential_source = %s is not valid (Environment, Ec2InstanceMetadata or "
                            "EcsContainer)", profile, credential_source);
    }
    if (!byoc_aws_config_has_profile(cfg, source_profile))
        return byoc_err_set(err, BYOC_E_ENV, "source_profile",
                            "the source_profile \"%s\" referenced in the profile \"%s\" does not exist",
                            source_profile, profile);
    bool self_static = strcmp(source_profile, profile) == 0 && has_static(cfg, BYOC_AWS_FILE_ANY, source_profile);
    if (visited(ch, source_profile) && !self_static)
        return cycle_error(ch, source_profile, err);
    bool src_assumes = byoc_aws_config_get(cfg, source_profile, "role_arn") &&
                       !byoc_aws_config_get(cfg, source_profile, "web_identity_token_file");
    if (has_static(cfg, BYOC_AWS_FILE_ANY, source_profile) || !src_assumes) {
        if (profile_creds(ch, source_profile, false, src, src_info, &found, err) != 0)
            return -1;
        if (!found)
            return byoc_err_set(err, BYOC_E_ENV, "source_profile", "the source profile \"%s\" must have credentials",
                                source_profile);
        return 0;
    }
    return assume_role(ch, source_profile, src, src_info, err);
}

static int assume_role(chain *ch, const char *profile, byoc_aws_creds *out, byoc_aws_creds_info *info,
                       byoc_err *err)
{
    const byoc_aws_config *cfg = ch->cfg;
    const char *role_arn = byoc_aws_config_get(cfg, profile, "role_arn");
    bool has_source = byoc_aws_config_get(cfg, profile, "source_profile") != NULL;
    bool has_cred_source = byoc_aws_config_get(cfg, profile, "credential_source") != NULL;
    if (has_source && has_cred_source)
        return byoc_err_set(err, BYOC_E_ENV, "credentials",
                            "the profile \"%s\" contains both source_profile and credential_source", profile);
    if (!has_source && !has_cred_source)
        return byoc_err_set(err, BYOC_E_ENV, "credentials",
                            "the profile \"%s\" has role_arn but neither source_profile nor credential_source",
                            profile);
    if (byoc_aws_config_get(cfg, profile, "mfa_serial"))
        return unsupported(err, "mfa_serial (an MFA code prompt)", profile,
                           "; use credential_process with a tool that prompts, or temporary keys");
    if (ch->nvisited == MAX_CHAIN)
        return byoc_err_set(err, BYOC_E_ENV, "source_profile", "the source_profile chain is longer than %d profiles",
                            MAX_CHAIN);
    ch->visited[ch->nvisited++] = profile;

    byoc_aws_creds src = {0};
    byoc_aws_creds_info src_info;
    memset(&src_info, 0, sizeof src_info);
    if (source_creds(ch, profile, &src, &src_info, err) != 0) {
        byoc_aws_creds_clear(&src);
        return -1;
    }
    int duration = 0;
    const char *ds = byoc_aws_config_get(cfg, profile, "duration_seconds");
    if (ds && *ds) {
        char *end;
        long v = strtol(ds, &end, 10);
        if (*end || v < 900 || v > 43200) {
            byoc_aws_creds_clear(&src);
            return byoc_err_set(err, BYOC_E_ENV, "duration_seconds",
                                "profile %s: duration_seconds must be 900..43200, not \"%s\"", profile, ds);
        }
        duration = (int)v;
    }
    byoc_aws_endpoint ep;
    byoc_aws_ctx ctx;
    if (sts_ctx(ch, &ep, &ctx, err) != 0) {
        byoc_aws_creds_clear(&src);
        return -1;
    }
    char origin[200];
    byoc_aws_creds_info_origin(&src_info, origin, sizeof origin);
    ctx.creds = &src;
    ctx.creds_origin = origin;
    byoc_sts_assume_role_params p = {.role_arn = role_arn,
                                     .session_name = byoc_aws_config_get(cfg, profile, "role_session_name"),
                                     .external_id = byoc_aws_config_get(cfg, profile, "external_id"),
                                     .duration_seconds = duration};
    int rc = byoc_sts_assume_role_ctx(&ctx, &p, out, NULL, err);
    byoc_aws_endpoint_clear(&ep);
    byoc_aws_creds_clear(&src);
    if (rc != 0) {
        byoc_err_prefix(err, "assuming role %s for profile %s", role_arn, profile);
        return -1;
    }
    set_info(info, "assume-role", profile, role_arn, out->expiration);
    return 0;
}

int byoc_aws_credentials_resolve(const byoc_aws_config *cfg, const byoc_aws_chain_opts *opts, byoc_aws_creds *out,
                                 byoc_aws_creds_info *info, byoc_err *err)
{
    static const byoc_aws_chain_opts none = {0};
    byoc_aws_creds_info local;
    if (!info)
        info = &local;
    memset(out, 0, sizeof *out);
    memset(info, 0, sizeof *info);
    chain ch = {.cfg = cfg, .opts = opts ? opts : &none};
    bool found = false;
    if (!byoc_aws_config_profile_explicit(cfg)) {
        if (from_env(out, &found, err) != 0)
            return -1;
        if (found) {
            set_info(info, "env", NULL, NULL, 0);
            return 0;
        }
    }
    const char *profile = byoc_aws_config_profile(cfg);
    if (profile_creds(&ch, profile, true, out, info, &found, err) != 0) {
        byoc_aws_creds_clear(out);
        return -1;
    }
    if (found)
        return 0;
    byoc_aws_creds_clear(out);
    if (byoc_aws_getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") || byoc_aws_getenv("AWS_CONTAINER_CREDENTIALS_FULL_URI"))
        return byoc_err_set(err, BYOC_E_ENV, "credentials",
                            "container credentials (AWS_CONTAINER_CREDENTIALS_*) are not supported by byoc; "
                            "set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or configure a profile");
    return byoc_err_set(err, BYOC_E_ENV, "credentials",
                        "no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or configure "
                        "profile \"%s\" in %s or %s (EC2 instance metadata is not supported)",
                        profile, byoc_aws_config_credentials_path(cfg), byoc_aws_config_config_path(cfg));
}

/* ---- cached provider ---------------------------------------------------------- */

struct byoc_aws_creds_provider {
    pthread_mutex_t lock;
    const byoc_aws_config *cfg;
    byoc_aws_chain_opts opts;
    char *region;
    char *ca_bundle;
    bool have;
    byoc_aws_creds creds;
    byoc_aws_creds_info info;
    time_t retry_at;             /* no early refresh before this (one just failed) */
};

byoc_aws_creds_provider *byoc_aws_creds_provider_new(const byoc_aws_config *cfg, const byoc_aws_chain_opts *opts)
{
    byoc_aws_creds_provider *p = byoc_xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->cfg = cfg;
    if (opts)
        p->opts = *opts;
    p->region = opts && opts->region ? byoc_xstrdup(opts->region) : NULL;
    p->ca_bundle = opts && opts->ca_bundle ? byoc_xstrdup(opts->ca_bundle) : NULL;
    p->opts.region = p->region;
    p->opts.ca_bundle = p->ca_bundle;
    p->opts.task = NULL;
    return p;
}

void byoc_aws_creds_provider_free(byoc_aws_creds_provider *p)
{
    if (!p)
        return;
    byoc_aws_creds_clear(&p->creds);
    pthread_mutex_destroy(&p->lock);
    free(p->region);
    free(p->ca_bundle);
    free(p);
}

int byoc_aws_creds_provider_get(byoc_aws_creds_provider *p, byoc_task *task, byoc_aws_creds *out,
                                byoc_aws_creds_info *info, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(&p->lock);
    time_t now = time(NULL);
    bool stale = !p->have || (p->creds.expiration && now >= p->creds.expiration - REFRESH_BEFORE_S);
    bool usable = p->have && (!p->creds.expiration || now < p->creds.expiration - STILL_USABLE_S);
    /* After a refresh ahead of expiry failed, the current credentials serve
     * REFRESH_RETRY_S before the next try (each try holds every request on the
     * lock); with under STILL_USABLE_S left, every request tries. */
    if (stale && usable && now < p->retry_at)
        stale = false;
    if (stale) {
        byoc_aws_chain_opts o = p->opts;
        o.task = task;
        byoc_aws_creds fresh;
        byoc_aws_creds_info fresh_info;
        if (byoc_aws_credentials_resolve(p->cfg, &o, &fresh, &fresh_info, err) == 0) {
            byoc_aws_creds_clear(&p->creds);
            p->creds = fresh;
            p->info = fresh_info;
            p->have = true;
        } else if (usable) {
            byoc_log(BYOC_LOG_WARN, "refreshing AWS credentials failed, using the current ones: %s", err->message);
            p->retry_at = now + REFRESH_RETRY_S;
        } else {
            pthread_mutex_unlock(&p->lock);
            return -1;
        }
    }
    byoc_aws_creds_copy(out, &p->creds);
    if (info)
        *info = p->info;
    pthread_mutex_unlock(&p->lock);
    return 0;
}
