/* client: everything an AWS call needs, resolved once: config files, profile,
 * region, endpoints, retry settings, CA bundle and the credential chain. The
 * service modules (ecr, braket, s3, logs, iam, sts) are thin layers on the
 * call functions here.
 *
 * Thread-safe: one client can serve calls from several tasks at once
 * (credentials are resolved on first use and refreshed under a lock).
 *
 *   byoc_aws_client *c;
 *   if (byoc_aws_client_new(&(byoc_aws_config_opts){.profile = p, .region = r}, &c, &err)) ...
 *   json_t *out;
 *   byoc_aws_json_call(c, task, BYOC_AWS_ECR, "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories",
 *                      body, &out, &err);
 *   byoc_aws_client_free(c);
 */
#ifndef BYOC_AWS_CLIENT_H
#define BYOC_AWS_CLIENT_H

#include <jansson.h>

#include "aws/config.h"
#include "aws/credentials.h"
#include "aws/endpoints.h"
#include "aws/request.h"
#include "aws/xml.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_aws_client byoc_aws_client;

/* Loads the config (errors: unreadable/unparsable files, a missing named
 * profile, bad retry settings). Credentials and a missing region are only
 * reported when a call needs them. opts may be NULL. */
int byoc_aws_client_new(const byoc_aws_config_opts *opts, byoc_aws_client **out, byoc_err *err);
/* How many clients this process has made so far: the tests compare it with a pool's count
 * (aws/clients.h) to tell that every task took its client from the pool. */
unsigned long byoc_aws_client_count_made(void);
/* Another reference, for a task that may outlive the one who made the client;
 * each reference is dropped with byoc_aws_client_free (the last one frees). */
byoc_aws_client *byoc_aws_client_ref(byoc_aws_client *c);
void byoc_aws_client_free(byoc_aws_client *c);

const byoc_aws_config *byoc_aws_client_config(const byoc_aws_client *c);
/* The region in use, or NULL when none is configured. */
const char *byoc_aws_client_region(const byoc_aws_client *c);
/* The resolved endpoint of a service, or -1 with why (no region, bad override). */
int byoc_aws_client_endpoint(const byoc_aws_client *c, byoc_aws_service s, const byoc_aws_endpoint **out,
                             byoc_err *err);
/* A copy of the current credentials (free with byoc_aws_creds_clear); info may be NULL. */
int byoc_aws_client_credentials(byoc_aws_client *c, byoc_task *t, byoc_aws_creds *out, byoc_aws_creds_info *info,
                                byoc_err *err);
/* A ready context for service s with a copy of the current credentials, for
 * callers that drive byoc_aws_do or byoc_aws_*_do themselves (S3 streaming
 * uploads, presigning, chunk signing). ctx points into the struct: do not
 * copy it. Close it to wipe the credentials. */
typedef struct byoc_aws_session {
    byoc_aws_ctx ctx;
    byoc_aws_creds creds;
    char creds_origin[200];
} byoc_aws_session;

int byoc_aws_session_open(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, byoc_aws_session *out,
                          byoc_err *err);
void byoc_aws_session_close(byoc_aws_session *s);

/* Any call: see aws/request.h for byoc_aws_call. resp may be NULL. */
int byoc_aws_call_do(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const byoc_aws_call *call,
                     byoc_aws_response *resp, byoc_err *err);

/* JSON 1.1: POST / with X-Amz-Target = target ("Logs_20140328.GetLogEvents").
 * body may be NULL ({}); it is not consumed. *out gets the reply object (an
 * empty object for an empty reply); json_decref it. */
int byoc_aws_json_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *target, json_t *body,
                       json_t **out, byoc_err *err);

/* rest-json: operation (for messages: "GetJob"), method, encoded path and
 * query (NULL for none), JSON body (NULL for none). *out (may be NULL) gets
 * the reply object; *status (may be NULL) the HTTP status (Braket's CreateJob
 * answers 201). */
int byoc_aws_rest_json_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *operation,
                            const char *method, const char *path, const char *query, json_t *body, json_t **out,
                            long *status, byoc_err *err);

/* Query protocol: POST / with Action, Version and params (key, value, ...,
 * NULL; list members as "Tags.member.1.Key"). *out (may be NULL) gets the
 * reply document: read it with byoc_aws_xml_text(byoc_aws_xml_root(doc),
 * "GetCallerIdentityResult/Account"); byoc_aws_xml_free it. */
int byoc_aws_query_call(byoc_aws_client *c, byoc_task *t, byoc_aws_service s, const char *action,
                        const char *version, const char *const *params, byoc_aws_xml **out, byoc_err *err);

/* Encode one path label (a whole ARN: ':' -> %3A, '/' -> %2F); malloc'd. */
char *byoc_aws_path_label(const char *s);

/* ---- doctor ------------------------------------------------------------------ */

typedef struct byoc_aws_endpoint_desc {
    const char *service;   /* "ecr", ... */
    char url[512];         /* "" when it cannot be resolved */
    bool overridden;
    char origin[128];      /* "default", "AWS_ENDPOINT_URL_ECR", ... */
    char error[800];       /* why url is empty */
} byoc_aws_endpoint_desc;

typedef struct byoc_aws_description {
    char profile[128];
    char profile_origin[32];
    char config_file[512];
    char credentials_file[512];
    bool credentials_ok;
    byoc_aws_creds_info creds;       /* when credentials_ok */
    char credentials_error[800];     /* the formatted error otherwise */
    byoc_err_kind credentials_error_kind;
    byoc_err credentials_err;        /* the same error as a record */
    char region[64];                 /* "" when none */
    char region_origin[64];
    char ca_bundle[512];
    char retry_mode[16];
    int max_attempts;
    byoc_aws_endpoint_desc endpoints[BYOC_AWS_SERVICE_COUNT];
} byoc_aws_description;

/* Resolve credentials (this may run a process or call STS) and describe the
 * setup. Never contains secrets. Always succeeds; failures are in the fields. */
void byoc_aws_client_describe(byoc_aws_client *c, byoc_task *t, byoc_aws_description *out);
/* {"credentials": {"source", "profile", "profile_origin", "role_arn"?, "expires"?, "error"?},
 *  "region", "region_origin", "config_file", "credentials_file", "ca_bundle"?,
 *  "retry": {"mode", "max_attempts"},
 *  "endpoints": {"ecr": {"url", "override", "origin", "error"?}, ...}} */
json_t *byoc_aws_description_json(const byoc_aws_description *d);

#endif
