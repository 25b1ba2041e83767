#include "aws/logs.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/jsonnum.h"

#define TARGET_PREFIX "Logs_20140328."

static int64_t int_member(const json_t *o, const char *key)
{
    return byoc_json_int64_or(json_object_get(o, key), 0);
}

static char *str_member(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_string(v) ? byoc_xstrndup(json_string_value(v), json_string_length(v)) : NULL;
}

static void set_token(json_t *body, const char *key, const char *token)
{
    if (token && *token)
        json_object_set_new(body, key, json_string(token));
}

static void set_limit(json_t *body, int limit)
{
    if (limit > 0)
        json_object_set_new(body, "limit", json_integer(limit));
}

int byoc_logs_stream_page_from_json(const json_t *reply, byoc_logs_stream_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    const json_t *arr = json_object_get(reply, "logStreams");
    if (arr && !json_is_array(arr))
        return byoc_err_set(err, BYOC_E_FAILED, "logs", "DescribeLogStreams: logStreams is not a list");
    size_t n = json_array_size(arr);
    out->items = n ? byoc_xcalloc(n, sizeof *out->items) : NULL;
    for (size_t i = 0; i < n; i++) {
        const json_t *s = json_array_get(arr, i);
        char *name = str_member(s, "logStreamName");
        if (!name)
            continue;
        byoc_logs_stream *dst = &out->items[out->len++];
        dst->name = name;
        dst->creation_time = int_member(s, "creationTime");
        dst->first_event = int_member(s, "firstEventTimestamp");
        dst->last_event = int_member(s, "lastEventTimestamp");
        dst->last_ingestion = int_member(s, "lastIngestionTime");
        dst->stored_bytes = int_member(s, "storedBytes");
    }
    out->next_token = str_member(reply, "nextToken");
    return 0;
}

int byoc_logs_event_page_from_json(const json_t *reply, byoc_logs_event_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    const json_t *arr = json_object_get(reply, "events");
    if (arr && !json_is_array(arr))
        return byoc_err_set(err, BYOC_E_FAILED, "logs", "the reply's events member is not a list");
    size_t n = json_array_size(arr);
    out->items = n ? byoc_xcalloc(n, sizeof *out->items) : NULL;
    for (size_t i = 0; i < n; i++) {
        const json_t *e = json_array_get(arr, i);
        const json_t *msg = json_object_get(e, "message");
        byoc_logs_event *dst = &out->items[out->len++];
        dst->timestamp = int_member(e, "timestamp");
        dst->ingestion_time = int_member(e, "ingestionTime");
        if (json_is_string(msg)) {
            dst->message_len = json_string_length(msg);
            dst->message = byoc_xstrndup(json_string_value(msg), dst->message_len);
        } else {
            dst->message = byoc_xstrdup("");
        }
        dst->stream = str_member(e, "logStreamName");
        dst->event_id = str_member(e, "eventId");
    }
    out->next_forward_token = str_member(reply, "nextForwardToken");
    out->next_backward_token = str_member(reply, "nextBackwardToken");
    out->next_token = str_member(reply, "nextToken");
    return 0;
}

static int call(byoc_aws_client *c, byoc_task *t, const char *op, json_t *body, json_t **reply, byoc_err *err)
{
    char target[64];
    snprintf(target, sizeof target, TARGET_PREFIX "%s", op);
    int rc = byoc_aws_json_call(c, t, BYOC_AWS_LOGS, target, body, reply, err);
    json_decref(body);
    return rc;
}

int byoc_logs_describe_streams(byoc_aws_client *c, byoc_task *t, const byoc_logs_describe_params *p,
                               byoc_logs_stream_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!p->group || !*p->group)
        return byoc_err_set(err, BYOC_E_USAGE, "logs", "DescribeLogStreams needs a log group name");
    json_t *body = json_object();
    json_object_set_new(body, "logGroupName", json_string(p->group));
    if (p->prefix && *p->prefix)
        json_object_set_new(body, "logStreamNamePrefix", json_string(p->prefix));
    json_object_set_new(body, "orderBy", json_string(p->order_by_last_event ? "LastEventTime" : "LogStreamName"));
    if (p->descending)
        json_object_set_new(body, "descending", json_true());
    set_limit(body, p->limit > BYOC_LOGS_DESCRIBE_LIMIT_MAX ? BYOC_LOGS_DESCRIBE_LIMIT_MAX : p->limit);
    set_token(body, "nextToken", p->next_token);
    json_t *reply;
    if (call(c, t, "DescribeLogStreams", body, &reply, err) != 0)
        return -1;
    int rc = byoc_logs_stream_page_from_json(reply, out, err);
    json_decref(reply);
    return rc;
}

int byoc_logs_get_events(byoc_aws_client *c, byoc_task *t, const byoc_logs_get_params *p,
                         byoc_logs_event_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!p->group || !*p->group || !p->stream || !*p->stream)
        return byoc_err_set(err, BYOC_E_USAGE, "logs", "GetLogEvents needs a log group and a stream name");
    json_t *body = json_object();
    json_object_set_new(body, "logGroupName", json_string(p->group));
    json_object_set_new(body, "logStreamName", json_string(p->stream));
    if (p->start_time > 0)
        json_object_set_new(body, "startTime", json_integer(p->start_time));
    if (p->end_time > 0)
        json_object_set_new(body, "endTime", json_integer(p->end_time));
    set_token(body, "nextToken", p->next_token);
    set_limit(body, p->limit > BYOC_LOGS_GET_LIMIT_MAX ? BYOC_LOGS_GET_LIMIT_MAX : p->limit);
    json_object_set_new(body, "startFromHead", json_boolean(p->start_from_head));
    json_t *reply;
    if (call(c, t, "GetLogEvents", body, &reply, err) != 0)
        return -1;
    int rc = byoc_logs_event_page_from_json(reply, out, err);
    json_decref(reply);
    if (rc == 0 && !out->next_forward_token) {
        byoc_logs_event_page_clear(out);
        return byoc_err_set(err, BYOC_E_FAILED, "logs", "GetLogEvents: the reply has no nextForwardToken");
    }
    return rc;
}

int byoc_logs_filter_events(byoc_aws_client *c, byoc_task *t, const byoc_logs_filter_params *p,
                            byoc_logs_event_page *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!p->group || !*p->group)
        return byoc_err_set(err, BYOC_E_USAGE, "logs", "FilterLogEvents needs a log group name");
    if (p->n_stream_names && p->stream_prefix)
        return byoc_err_set(err, BYOC_E_USAGE, "logs", "FilterLogEvents takes stream names or a prefix, not both");
    json_t *body = json_object();
    json_object_set_new(body, "logGroupName", json_string(p->group));
    if (p->n_stream_names) {
        json_t *names = json_array();
        for (size_t i = 0; i < p->n_stream_names; i++)
            json_array_append_new(names, json_string(p->stream_names[i]));
        json_object_set_new(body, "logStreamNames", names);
    }
    if (p->stream_prefix && *p->stream_prefix)
        json_object_set_new(body, "logStreamNamePrefix", json_string(p->stream_prefix));
    if (p->start_time > 0)
        json_object_set_new(body, "startTime", json_integer(p->start_time));
    if (p->end_time > 0)
        json_object_set_new(body, "endTime", json_integer(p->end_time));
    if (p->filter_pattern && *p->filter_pattern)
        json_object_set_new(body, "filterPattern", json_string(p->filter_pattern));
    set_token(body, "nextToken", p->next_token);
    set_limit(body, p->limit > BYOC_LOGS_GET_LIMIT_MAX ? BYOC_LOGS_GET_LIMIT_MAX : p->limit);
    json_t *reply;
    if (call(c, t, "FilterLogEvents", body, &reply, err) != 0)
        return -1;
    int rc = byoc_logs_event_page_from_json(reply, out, err);
    json_decref(reply);
    return rc;
}

void byoc_logs_stream_page_clear(byoc_logs_stream_page *page)
{
    if (!page)
        return;
    for (size_t i = 0; i < page->len; i++)
        free(page->items[i].name);
    free(page->items);
    free(page->next_token);
    memset(page, 0, sizeof *page);
}

void byoc_logs_event_page_clear(byoc_logs_event_page *page)
{
    if (!page)
        return;
    for (size_t i = 0; i < page->len; i++) {
        free(page->items[i].message);
        free(page->items[i].stream);
        free(page->items[i].event_id);
    }
    free(page->items);
    free(page->next_forward_token);
    free(page->next_backward_token);
    free(page->next_token);
    memset(page, 0, sizeof *page);
}

bool byoc_logs_not_found(const byoc_err *err)
{
    return err && strcmp(err->code, "ResourceNotFoundException") == 0;
}

bool byoc_logs_bad_token(const byoc_err *err)
{
    return err && strcmp(err->code, "InvalidParameterException") == 0 && strcasestr(err->message, "token") != NULL;
}
