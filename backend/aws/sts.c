#include "aws/sts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/utf8.h"

#define STS_VERSION "2011-06-15"

static void copy_text(const byoc_aws_xml *n, const char *path, char *dst, size_t size)
{
    char *t = byoc_aws_xml_text(n, path);
    byoc_utf8_copy(dst, size, t);
    free(t);
}

int byoc_sts_get_caller_identity_ctx(const byoc_aws_ctx *ctx, byoc_sts_identity *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_aws_xml *doc;
    if (byoc_aws_query_do(ctx, "GetCallerIdentity", STS_VERSION, NULL, &doc, err) != 0)
        return -1;
    byoc_aws_xml *result = byoc_aws_xml_child(byoc_aws_xml_root(doc), "GetCallerIdentityResult");
    copy_text(result, "Account", out->account, sizeof out->account);
    copy_text(result, "Arn", out->arn, sizeof out->arn);
    copy_text(result, "UserId", out->user_id, sizeof out->user_id);
    byoc_aws_xml_free(doc);
    if (!out->account[0] || !out->arn[0])
        return byoc_err_set(err, BYOC_E_FAILED, "sts", "GetCallerIdentity: the reply has no Account or Arn");
    return 0;
}

/* <...Result><Credentials>...</Credentials><AssumedRoleUser><Arn/></AssumedRoleUser> */
static int read_credentials(const char *action, byoc_aws_xml *doc, byoc_aws_creds *out, char *assumed_arn, byoc_err *err)
{
    char result_name[96];
    snprintf(result_name, sizeof result_name, "%sResult", action);
    byoc_aws_xml *result = byoc_aws_xml_child(byoc_aws_xml_root(doc), result_name);
    byoc_aws_xml *cr = byoc_aws_xml_child(result, "Credentials");
    char *akid = byoc_aws_xml_text(cr, "AccessKeyId");
    char *secret = byoc_aws_xml_text(cr, "SecretAccessKey");
    char *token = byoc_aws_xml_text(cr, "SessionToken");
    char *expiration = byoc_aws_xml_text(cr, "Expiration");
    byoc_secret_register(secret);
    byoc_secret_register(token);
    int rc = 0;
    time_t exp = 0;
    if (!akid || !*akid || !secret || !*secret || !token || !*token) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "sts", "%s: the reply has no credentials", action);
    } else if (!expiration || byoc_aws_parse_time(expiration, &exp) != 0) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "sts", "%s: the reply has no readable Expiration", action);
    } else {
        out->access_key_id = akid;
        out->secret_access_key = secret;
        out->session_token = token;
        out->expiration = exp;
        akid = secret = token = NULL;
        if (assumed_arn)
            copy_text(result, "AssumedRoleUser/Arn", assumed_arn, 512);
    }
    free(akid);
    byoc_free_secret(secret);
    byoc_free_secret(token);
    free(expiration);
    return rc;
}

static int assume(const byoc_aws_ctx *ctx, const char *action, const byoc_sts_assume_role_params *p,
                  byoc_aws_creds *out, char *assumed_arn, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (assumed_arn)
        assumed_arn[0] = '\0';
    if (!p->role_arn || !*p->role_arn)
        return byoc_err_set(err, BYOC_E_USAGE, "sts", "%s: no role ARN given", action);
    char session[64], duration[16];
    if (p->session_name && *p->session_name)
        snprintf(session, sizeof session, "%s", p->session_name);
    else
        snprintf(session, sizeof session, "byoc-session-%lld", (long long)time(NULL));
    const char *params[12];
    size_t n = 0;
    params[n++] = "RoleArn";
    params[n++] = p->role_arn;
    params[n++] = "RoleSessionName";
    params[n++] = session;
    if (p->external_id && *p->external_id) {
        params[n++] = "ExternalId";
        params[n++] = p->external_id;
    }
    if (p->duration_seconds > 0) {
        snprintf(duration, sizeof duration, "%d", p->duration_seconds);
        params[n++] = "DurationSeconds";
        params[n++] = duration;
    }
    if (p->web_identity_token) {
        params[n++] = "WebIdentityToken";
        params[n++] = p->web_identity_token;
    }
    params[n] = NULL;
    byoc_aws_xml *doc;
    if (byoc_aws_query_do(ctx, action, STS_VERSION, params, &doc, err) != 0)
        return -1;
    int rc = read_credentials(action, doc, out, assumed_arn, err);
    byoc_aws_xml_free(doc);
    return rc;
}

int byoc_sts_assume_role_ctx(const byoc_aws_ctx *ctx, const byoc_sts_assume_role_params *p, byoc_aws_creds *out,
                             char *assumed_arn, byoc_err *err)
{
    return assume(ctx, "AssumeRole", p, out, assumed_arn, err);
}

int byoc_sts_assume_role_with_web_identity_ctx(const byoc_aws_ctx *ctx, const byoc_sts_assume_role_params *p,
                                               byoc_aws_creds *out, char *assumed_arn, byoc_err *err)
{
    if (!p->web_identity_token || !*p->web_identity_token)
        return byoc_err_set(err, BYOC_E_USAGE, "sts", "AssumeRoleWithWebIdentity: no web identity token");
    return assume(ctx, "AssumeRoleWithWebIdentity", p, out, assumed_arn, err);
}
