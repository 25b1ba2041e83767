/* logs: the CloudWatch Logs reads byoc needs (JSON 1.1, X-Amz-Target
 * Logs_20140328.<Op>): DescribeLogStreams, GetLogEvents, FilterLogEvents.
 *
 * One call is one page; callers follow the tokens themselves (byoc/logtail.h
 * does it for job logs). Replies are copied into plain structs with owned
 * strings, so callers need no jansson, and a page is freed as one unit.
 * An unknown group or stream fails with err->code "ResourceNotFoundException";
 * byoc_logs_not_found() tells it apart for callers to whom "not there yet"
 * means "nothing yet". */
#ifndef BYOC_AWS_LOGS_H
#define BYOC_AWS_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

/* Where Braket Hybrid Jobs write their container output. */
#define BYOC_LOGS_BRAKET_JOBS_GROUP "/aws/braket/jobs"

/* Service limits (botocore's model). */
#define BYOC_LOGS_DESCRIBE_LIMIT_MAX 50
#define BYOC_LOGS_GET_LIMIT_MAX 10000

typedef struct byoc_logs_stream {
    char *name;
    int64_t creation_time;       /* epoch ms; 0 when absent */
    int64_t first_event;         /* firstEventTimestamp, 0 when the stream is empty */
    int64_t last_event;          /* lastEventTimestamp */
    int64_t last_ingestion;      /* lastIngestionTime */
    int64_t stored_bytes;
} byoc_logs_stream;

typedef struct byoc_logs_stream_page {
    byoc_logs_stream *items;
    size_t len;
    char *next_token;            /* NULL on the last page */
} byoc_logs_stream_page;

typedef struct byoc_logs_describe_params {
    const char *group;           /* required */
    const char *prefix;          /* logStreamNamePrefix, or NULL */
    bool order_by_last_event;    /* orderBy LastEventTime (the service refuses it with a prefix) */
    bool descending;
    int limit;                   /* 1-50; 0: the service default */
    const char *next_token;      /* NULL on the first call */
} byoc_logs_describe_params;

int byoc_logs_describe_streams(byoc_aws_client *c, byoc_task *t, const byoc_logs_describe_params *p,
                               byoc_logs_stream_page *out, byoc_err *err);
void byoc_logs_stream_page_clear(byoc_logs_stream_page *page);

typedef struct byoc_logs_event {
    int64_t timestamp;           /* epoch ms, as the writer stamped it */
    int64_t ingestion_time;      /* epoch ms; 0 when absent (FilterLogEvents has it too) */
    char *message;               /* NUL-terminated; may hold newlines */
    size_t message_len;
    char *stream;                /* FilterLogEvents: logStreamName; else NULL */
    char *event_id;              /* FilterLogEvents: eventId; else NULL */
} byoc_logs_event;

typedef struct byoc_logs_event_page {
    byoc_logs_event *items;
    size_t len;
    char *next_forward_token;    /* GetLogEvents */
    char *next_backward_token;   /* GetLogEvents */
    char *next_token;            /* FilterLogEvents: NULL on the last page */
} byoc_logs_event_page;

/* GetLogEvents. To read a stream forward pass start_from_head on every call,
 * the token included; the end is reached when the forward token that comes
 * back equals the one sent. Empty pages can occur before the end. */
typedef struct byoc_logs_get_params {
    const char *group;           /* required */
    const char *stream;          /* required */
    int64_t start_time;          /* epoch ms, inclusive; 0: none */
    int64_t end_time;            /* epoch ms, exclusive; 0: none */
    const char *next_token;      /* NULL on the first call */
    int limit;                   /* 1-10000; 0: the service default */
    bool start_from_head;
} byoc_logs_get_params;

int byoc_logs_get_events(byoc_aws_client *c, byoc_task *t, const byoc_logs_get_params *p,
                         byoc_logs_event_page *out, byoc_err *err);

/* FilterLogEvents over several streams (names or a name prefix, not both). */
typedef struct byoc_logs_filter_params {
    const char *group;                  /* required */
    const char *const *stream_names;    /* up to 100, or NULL */
    size_t n_stream_names;
    const char *stream_prefix;          /* or NULL */
    int64_t start_time, end_time;       /* epoch ms; 0: none */
    const char *filter_pattern;         /* e.g. "\"Metrics -\""; NULL: every event */
    const char *next_token;
    int limit;                          /* 1-10000; 0: the service default */
} byoc_logs_filter_params;

int byoc_logs_filter_events(byoc_aws_client *c, byoc_task *t, const byoc_logs_filter_params *p,
                            byoc_logs_event_page *out, byoc_err *err);

void byoc_logs_event_page_clear(byoc_logs_event_page *page);

/* Turn a GetLogEvents / FilterLogEvents / DescribeLogStreams reply into a
 * page (exposed for tests and for replies read elsewhere). 0, or -1 if the
 * reply lacks the members the model requires. */
int byoc_logs_event_page_from_json(const json_t *reply, byoc_logs_event_page *out, byoc_err *err);
int byoc_logs_stream_page_from_json(const json_t *reply, byoc_logs_stream_page *out, byoc_err *err);

/* True when err is the service's ResourceNotFoundException (no such group or stream). */
bool byoc_logs_not_found(const byoc_err *err);
/* True when err says a pagination token is no longer accepted (expired or
 * malformed): InvalidParameterException naming the token. */
bool byoc_logs_bad_token(const byoc_err *err);

#endif
