#include "aws/braket.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/pager.h"
#include "core/buf.h"
#include "core/utf8.h"

bool byoc_braket_status_terminal(const char *s)
{
    return s && (strcmp(s, "COMPLETED") == 0 || strcmp(s, "FAILED") == 0 || strcmp(s, "CANCELLED") == 0);
}

bool byoc_braket_status_failed(const char *s)
{
    return s && (strcmp(s, "FAILED") == 0 || strcmp(s, "CANCELLED") == 0);
}

static int call(byoc_aws_client *c, byoc_task *t, const char *op, const char *method, const char *path,
                const char *query, json_t *body, json_t **out, long *status, byoc_err *err)
{
    return byoc_aws_rest_json_call(c, t, BYOC_AWS_BRAKET, op, method, path, query, body, out, status, err);
}

int byoc_braket_create_job(byoc_aws_client *c, byoc_task *t, json_t *request, char **job_arn, byoc_err *err)
{
    *job_arn = NULL;
    json_t *out = NULL;
    if (call(c, t, "CreateJob", "POST", "/job", NULL, request, &out, NULL, err) != 0)
        return -1;
    const char *arn = json_string_value(json_object_get(out, "jobArn"));
    int rc = 0;
    if (!arn || !*arn)
        rc = byoc_err_set(err, BYOC_E_FAILED, "braket", "CreateJob: the reply has no jobArn");
    else
        *job_arn = byoc_xstrdup(arn);
    json_decref(out);
    return rc;
}

static char *label_path(const char *prefix, const char *arn, const char *suffix)
{
    char *label = byoc_aws_path_label(arn);
    char *path = byoc_xasprintf("%s%s%s", prefix, label, suffix ? suffix : "");
    free(label);
    return path;
}

int byoc_braket_get_job(byoc_aws_client *c, byoc_task *t, const char *job_arn, bool queue_info, json_t **out,
                        byoc_err *err)
{
    char *path = label_path("/job/", job_arn, NULL);
    int rc = call(c, t, "GetJob", "GET", path, queue_info ? "additionalAttributeNames=QueueInfo" : NULL, NULL, out,
                  NULL, err);
    free(path);
    return rc;
}

int byoc_braket_cancel_job(byoc_aws_client *c, byoc_task *t, const char *job_arn, char *status, byoc_err *err)
{
    if (status)
        status[0] = '\0';
    char *path = label_path("/job/", job_arn, "/cancel");
    json_t *out = NULL;
    int rc = call(c, t, "CancelJob", "PUT", path, NULL, NULL, &out, NULL, err);
    free(path);
    if (rc == 0 && status) {
        const char *s = json_string_value(json_object_get(out, "cancellationStatus"));
        byoc_utf8_copy(status, 32, s);
    }
    json_decref(out);
    return rc;
}

static json_t *string_list(const char *const *values, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(values[i]));
    return a;
}

json_t *byoc_braket_job_filter(const char *name, const char *op, const char *const *values, size_t n_values)
{
    json_t *f = json_object();
    json_object_set_new(f, "name", json_string(name));
    json_object_set_new(f, "operator", json_string(op));
    json_object_set_new(f, "values", string_list(values, n_values));
    return f;
}

json_t *byoc_braket_device_filter(const char *name, const char *const *values, size_t n_values)
{
    json_t *f = json_object();
    json_object_set_new(f, "name", json_string(name));
    json_object_set_new(f, "values", string_list(values, n_values));
    return f;
}

static int search(byoc_aws_client *c, byoc_task *t, const char *op, const char *path, json_t *filters,
                  int max_results, const char *next_token, json_t **page, byoc_err *err)
{
    json_t *body = json_object();
    json_object_set_new(body, "filters", filters ? json_incref(filters) : json_array());
    if (max_results > 0)
        json_object_set_new(body, "maxResults", json_integer(max_results));
    if (next_token && *next_token)
        json_object_set_new(body, "nextToken", json_string(next_token));
    int rc = call(c, t, op, "POST", path, NULL, body, page, NULL, err);
    json_decref(body);
    return rc;
}

int byoc_braket_search_jobs_reply(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                                  const char *next_token, byoc_aws_response *reply, byoc_err *err)
{
    json_t *body = json_object();
    json_object_set_new(body, "filters", filters ? json_incref(filters) : json_array());
    if (max_results > 0)
        json_object_set_new(body, "maxResults", json_integer(max_results));
    if (next_token && *next_token)
        json_object_set_new(body, "nextToken", json_string(next_token));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_JSON, .operation = "SearchJobs", .method = "POST",
                          .path = "/jobs", .body = text, .body_len = text ? strlen(text) : 0};
    int rc = byoc_aws_call_do(c, t, BYOC_AWS_BRAKET, &call, reply, err);
    free(text);
    return rc;
}

int byoc_braket_search_jobs(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                            const char *next_token, json_t **page, byoc_err *err)
{
    return search(c, t, "SearchJobs", "/jobs", filters, max_results, next_token, page, err);
}

int byoc_braket_search_devices(byoc_aws_client *c, byoc_task *t, json_t *filters, int max_results,
                               const char *next_token, json_t **page, byoc_err *err)
{
    return search(c, t, "SearchDevices", "/devices", filters, max_results, next_token, page, err);
}

/* Follow nextToken until the end or max_total items. */
static int search_all(byoc_aws_client *c, byoc_task *t, const char *op, const char *path, const char *list_key,
                      json_t *filters, size_t max_total, json_t **items, byoc_err *err)
{
    *items = json_array();
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, op);
    for (;;) {
        size_t left = max_total ? max_total - json_array_size(*items) : 100;
        int page_size = left > 100 ? 100 : (int)left;
        json_t *page = NULL;
        if (search(c, t, op, path, filters, page_size, pager.token, &page, err) != 0)
            break;
        size_t i;
        json_t *it;
        json_array_foreach(json_object_get(page, list_key), i, it)
        {
            if (max_total && json_array_size(*items) >= max_total)
                break;
            json_array_append(*items, it);
        }
        const char *next = json_string_value(json_object_get(page, "nextToken"));
        if (max_total && json_array_size(*items) >= max_total)
            next = NULL;
        int more = byoc_aws_pager_next(&pager, next, err);
        json_decref(page);
        if (more == 0) {
            byoc_aws_pager_clear(&pager);
            return 0;
        }
        if (more < 0)
            break;
    }
    byoc_aws_pager_clear(&pager);
    json_decref(*items);
    *items = NULL;
    return -1;
}

int byoc_braket_search_jobs_all(byoc_aws_client *c, byoc_task *t, json_t *filters, size_t max_total, json_t **jobs,
                                byoc_err *err)
{
    return search_all(c, t, "SearchJobs", "/jobs", "jobs", filters, max_total, jobs, err);
}

int byoc_braket_search_devices_all(byoc_aws_client *c, byoc_task *t, json_t *filters, size_t max_total,
                                   json_t **devices, byoc_err *err)
{
    return search_all(c, t, "SearchDevices", "/devices", "devices", filters, max_total, devices, err);
}

int byoc_braket_get_device(byoc_aws_client *c, byoc_task *t, const char *device_arn, json_t **out, byoc_err *err)
{
    char *path = label_path("/device/", device_arn, NULL);
    int rc = call(c, t, "GetDevice", "GET", path, NULL, NULL, out, NULL, err);
    free(path);
    return rc;
}

char *byoc_braket_arn_region(const char *arn)
{
    const char *p = arn;
    for (int i = 0; i < 3 && p; i++) {
        p = strchr(p, ':');
        if (p)
            p++;
    }
    if (!p || strncmp(arn, "arn:", 4) != 0)
        return byoc_xstrdup("");
    return byoc_xstrndup(p, strcspn(p, ":"));
}
