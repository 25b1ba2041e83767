#include "aws/endpoints.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aws/sigv4.h"
#include "core/buf.h"

typedef struct {
    const char *name;         /* byoc's name */
    const char *signing_name;
    const char *env_suffix;   /* AWS_ENDPOINT_URL_<suffix> */
    const char *services_key; /* key in a [services X] section */
    const char *host_prefix;  /* <prefix>.<region>.<suffix> */
} service_info;

static const service_info SERVICES[BYOC_AWS_SERVICE_COUNT] = {
    [BYOC_AWS_ECR] = {"ecr", "ecr", "ECR", "ecr", "api.ecr"},
    [BYOC_AWS_BRAKET] = {"braket", "braket", "BRAKET", "braket", "braket"},
    [BYOC_AWS_S3] = {"s3", "s3", "S3", "s3", "s3"},
    [BYOC_AWS_LOGS] = {"logs", "logs", "CLOUDWATCH_LOGS", "cloudwatch_logs", "logs"},
    [BYOC_AWS_STS] = {"sts", "sts", "STS", "sts", "sts"},
    [BYOC_AWS_IAM] = {"iam", "iam", "IAM", "iam", "iam"},
};

const char *byoc_aws_service_name(byoc_aws_service s)
{
    return s < BYOC_AWS_SERVICE_COUNT ? SERVICES[s].name : "?";
}

int byoc_aws_service_from_name(const char *name)
{
    for (int i = 0; i < BYOC_AWS_SERVICE_COUNT; i++)
        if (strcmp(SERVICES[i].name, name) == 0)
            return i;
    return -1;
}

static bool region_ok(const char *r)
{
    if (!r || !*r || strlen(r) > 40)
        return false;
    for (const char *p = r; *p; p++)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '-'))
            return false;
    return r[0] != '-';
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *byoc_aws_dns_suffix(const char *region)
{
    return region && starts_with(region, "cn-") ? "amazonaws.com.cn" : "amazonaws.com";
}

const char *byoc_aws_partition(const char *region)
{
    if (region && starts_with(region, "cn-"))
        return "aws-cn";
    if (region && starts_with(region, "us-gov-"))
        return "aws-us-gov";
    return "aws";
}

void byoc_aws_endpoint_clear(byoc_aws_endpoint *e)
{
    if (!e)
        return;
    free(e->url);
    free(e->signing_region);
    memset(e, 0, sizeof *e);
}

static bool truthy(const char *v)
{
    return v && strcasecmp(v, "true") == 0;
}

static bool overrides_ignored(const byoc_aws_config *c)
{
    const char *env = byoc_aws_getenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    if (env)
        return truthy(env);
    return c && truthy(byoc_aws_config_get(c, NULL, "ignore_configured_endpoint_urls"));
}

/* The configured override URL (malloc'd) and its origin, or NULL. */
static char *find_override(const byoc_aws_config *c, const service_info *si, char *origin, size_t on)
{
    if (overrides_ignored(c))
        return NULL;
    char var[64];
    snprintf(var, sizeof var, "AWS_ENDPOINT_URL_%s", si->env_suffix);
    const char *v = byoc_aws_getenv(var);
    if (v) {
        snprintf(origin, on, "%s", var);
        return byoc_xstrdup(v);
    }
    if ((v = byoc_aws_getenv("AWS_ENDPOINT_URL")) != NULL) {
        snprintf(origin, on, "AWS_ENDPOINT_URL");
        return byoc_xstrdup(v);
    }
    if (!c)
        return NULL;
    char *sv = byoc_aws_config_service_get(c, NULL, si->services_key, "endpoint_url");
    if (sv && *sv) {
        snprintf(origin, on, "services %s", byoc_aws_config_get(c, NULL, "services"));
        return sv;
    }
    free(sv);
    v = byoc_aws_config_get(c, NULL, "endpoint_url");
    if (v && *v) {
        snprintf(origin, on, "profile %s", byoc_aws_config_profile(c));
        return byoc_xstrdup(v);
    }
    return NULL;
}

static bool url_ok(const char *u)
{
    const char *rest;
    if (starts_with(u, "https://"))
        rest = u + 8;
    else if (starts_with(u, "http://"))
        rest = u + 7;
    else
        return false;
    if (!*rest || *rest == '/')
        return false;
    for (const char *p = u; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == '?' || *p == '#' || *p == '"' || (unsigned char)*p == 0x7f)
            return false;
    return true;
}

int byoc_aws_endpoint_resolve(const byoc_aws_config *c, const char *region, byoc_aws_service s,
                              byoc_aws_endpoint *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (s >= BYOC_AWS_SERVICE_COUNT)
        return byoc_err_set(err, BYOC_E_USAGE, "endpoint", "unknown service");
    const service_info *si = &SERVICES[s];
    if (region && !region_ok(region))
        return byoc_err_set(err, BYOC_E_USAGE, "region", "\"%s\" is not a valid AWS region name", region);
    bool global_ok = s == BYOC_AWS_STS || s == BYOC_AWS_IAM;
    if (!region && !global_ok)
        return byoc_err_set(err, BYOC_E_ENV, "region",
                            "no AWS region configured: pass --region, set AWS_REGION, or set region in the profile");
    out->service = s;
    out->signing_name = si->signing_name;

    const char *suffix = byoc_aws_dns_suffix(region);
    if (s == BYOC_AWS_IAM) {
        const char *part = byoc_aws_partition(region);
        if (strcmp(part, "aws-cn") == 0) {
            out->url = byoc_xasprintf("https://iam.cn-north-1.%s", suffix);
            out->signing_region = byoc_xstrdup("cn-north-1");
        } else if (strcmp(part, "aws-us-gov") == 0) {
            out->url = byoc_xstrdup("https://iam.us-gov.amazonaws.com");
            out->signing_region = byoc_xstrdup("us-gov-west-1");
        } else {
            out->url = byoc_xstrdup("https://iam.amazonaws.com");
            out->signing_region = byoc_xstrdup("us-east-1");
        }
    } else if (!region) {
        out->url = byoc_xstrdup("https://sts.amazonaws.com");
        out->signing_region = byoc_xstrdup("us-east-1");
    } else {
        out->url = byoc_xasprintf("https://%s.%s.%s", si->host_prefix, region, suffix);
        out->signing_region = byoc_xstrdup(region);
    }
    snprintf(out->origin, sizeof out->origin, "default");

    char origin[sizeof out->origin];
    char *ov = find_override(c, si, origin, sizeof origin);
    if (ov) {
        if (!url_ok(ov)) {
            byoc_err_set(err, BYOC_E_USAGE, origin, "endpoint URL \"%s\" must be http(s)://host[:port][/path]", ov);
            free(ov);
            byoc_aws_endpoint_clear(out);
            return -1;
        }
        size_t n = strlen(ov);
        while (n && ov[n - 1] == '/')
            ov[--n] = '\0';
        free(out->url);
        out->url = ov;
        out->overridden = true;
        memcpy(out->origin, origin, sizeof origin);
    }
    if (s == BYOC_AWS_S3) {
        char *style = c ? byoc_aws_config_get_sub(c, NULL, "s3", "addressing_style") : NULL;
        out->s3_path_style = out->overridden || (style && strcmp(style, "path") == 0);
        free(style);
    }
    return 0;
}

char *byoc_aws_ecr_registry_host(const char *account, const char *region)
{
    if (!account || strlen(account) != 12 || !region_ok(region))
        return NULL;
    for (const char *p = account; *p; p++)
        if (!isdigit((unsigned char)*p))
            return NULL;
    return byoc_xasprintf("%s.dkr.ecr.%s.%s", account, region, byoc_aws_dns_suffix(region));
}

bool byoc_aws_s3_virtual_host_ok(const char *b)
{
    size_t n = b ? strlen(b) : 0;
    if (n < 3 || n > 63)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)b[i]) || isdigit((unsigned char)b[i]) || b[i] == '-'))
            return false;
    return b[0] != '-' && b[n - 1] != '-';
}

char *byoc_aws_s3_url(const byoc_aws_endpoint *e, const char *bucket, const char *key)
{
    byoc_buf b = BYOC_BUF_INIT;
    if (!e->s3_path_style && byoc_aws_s3_virtual_host_ok(bucket)) {
        const char *host = strstr(e->url, "://") + 3;
        byoc_buf_append(&b, e->url, (size_t)(host - e->url));
        byoc_buf_printf(&b, "%s.%s/", bucket, host);
    } else {
        byoc_buf_printf(&b, "%s/", e->url);
        byoc_sigv4_encode(&b, bucket, strlen(bucket), false);
        if (key && *key)
            byoc_buf_putc(&b, '/');
    }
    if (key && *key)
        byoc_sigv4_encode(&b, key, strlen(key), true);
    return byoc_buf_steal(&b);
}
