/* The JSON 1.1, rest-json and query shapes on top of byoc_aws_do (request.h). */
#include "aws/request.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static const char *op_from_target(const char *target)
{
    const char *dot = target ? strrchr(target, '.') : NULL;
    return dot ? dot + 1 : target;
}

static int parse_json_reply(const char *service, const char *op, const byoc_aws_response *r, json_t **out,
                            byoc_err *err)
{
    if (!out)
        return 0;
    if (r->body.len == 0) {
        *out = json_object();
        return 0;
    }
    json_error_t je;
    *out = json_loadb(r->body.data, r->body.len, 0, &je);
    if (!*out)
        return byoc_err_set(err, BYOC_E_FAILED, service, "%s: the reply is not JSON (%s)", op, je.text);
    return 0;
}

int byoc_aws_json_do(const byoc_aws_ctx *ctx, const char *target, json_t *body, json_t **out, byoc_err *err)
{
    if (out)
        *out = NULL;
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    byoc_aws_call call = {.protocol = BYOC_AWS_JSON,
                          .operation = op_from_target(target),
                          .target = target,
                          .body = text ? text : "{}",
                          .body_len = text ? strlen(text) : 2};
    byoc_aws_response r;
    int rc = byoc_aws_do(ctx, &call, &r, err);
    byoc_free_secret(text); /* request bodies may carry policy text or tokens */
    if (rc == 0)
        rc = parse_json_reply(byoc_aws_service_name(ctx->endpoint->service), call.operation, &r, out, err);
    byoc_aws_response_clear(&r);
    return rc;
}

int byoc_aws_rest_json_do(const byoc_aws_ctx *ctx, const char *operation, const char *method, const char *path,
                          const char *query, json_t *body, json_t **out, long *status, byoc_err *err)
{
    if (out)
        *out = NULL;
    if (status)
        *status = 0;
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    const char *op = operation ? operation : method;
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_JSON,
                          .operation = op,
                          .method = method,
                          .path = path,
                          .query = query,
                          .body = text,
                          .body_len = text ? strlen(text) : 0};
    byoc_aws_response r;
    int rc = byoc_aws_do(ctx, &call, &r, err);
    byoc_free_secret(text);
    if (status)
        *status = r.status;
    if (rc == 0)
        rc = parse_json_reply(byoc_aws_service_name(ctx->endpoint->service), op, &r, out, err);
    byoc_aws_response_clear(&r);
    return rc;
}

int byoc_aws_query_do(const byoc_aws_ctx *ctx, const char *action, const char *version,
                      const char *const *params, byoc_aws_xml **out, byoc_err *err)
{
    if (out)
        *out = NULL;
    byoc_buf form = BYOC_BUF_INIT;
    byoc_aws_form_add(&form, "Action", action);
    byoc_aws_form_add(&form, "Version", version);
    for (const char *const *p = params; p && p[0] && p[1]; p += 2)
        byoc_aws_form_add(&form, p[0], p[1]);
    byoc_aws_call call = {.protocol = BYOC_AWS_QUERY, .operation = action, .body = form.data, .body_len = form.len};
    byoc_aws_response r;
    int rc = byoc_aws_do(ctx, &call, &r, err);
    byoc_buf_clear(&form);
    if (rc == 0 && out) {
        *out = byoc_aws_xml_parse(r.body.data, r.body.len);
        if (!*out)
            rc = byoc_err_set(err, BYOC_E_FAILED, byoc_aws_service_name(ctx->endpoint->service),
                              "%s: the reply is not XML", action);
    }
    byoc_aws_response_clear(&r);
    return rc;
}
