/* logtail: a job's log as one ordered stream of lines, read in rounds.
 *
 * A log source (byoc_log_source) is anything that yields a job's lines:
 * CloudWatch Logs for AWS jobs (below), the job container's output for local
 * jobs (the local runner implements the same two operations). Callers poll it
 * (each poll delivers what is there now, in order, to a callback) and decide
 * themselves how often (byoc/poller.h).
 *
 * The CloudWatch tail (byoc_logtail) finds the job's streams in
 * /aws/braket/jobs by name prefix "<jobName>/" (one stream per instance,
 * appearing once the container writes), reads each with forward tokens
 * (startFromHead on every call; a stream is caught up when the token that
 * comes back equals the one sent; empty pages before that are skipped), and
 * merges the streams by timestamp, each line tagged with its instance ("algo-1",
 * from the stream name's last segment without a "-<epoch>" suffix). Within a
 * round the merge is exact; a stream that appears late or lags delivers its
 * older lines when it is read, never drops or repeats them. If the service
 * refuses a token (expired after 24 h, or malformed), the stream is re-read
 * from the last delivered timestamp, skipping the lines already delivered at
 * that millisecond.
 *
 * Memory is bounded: at most one page (page_limit events, at most 1 MB from
 * the service) per stream is held, and at most max_streams streams; no line
 * is kept after it was delivered. A round reads at most max_pages_per_round
 * pages per stream and reports `more` when it stopped early, so a fast
 * writer cannot keep a poll from returning.
 *
 * Not thread-safe: one tail belongs to one task at a time. */
#ifndef BYOC_BYOC_LOGTAIL_H
#define BYOC_BYOC_LOGTAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/client.h"
#include "aws/logs.h"
#include "core/buf.h"
#include "core/err.h"
#include "core/task.h"

/* ---- log sources ------------------------------------------------------------ */

typedef struct byoc_log_line {
    int64_t timestamp_ms;        /* when the line was written (epoch ms); 0 if unknown */
    const char *instance;        /* "algo-1", or "" for a source with one unnamed stream */
    const char *message;         /* the text without its trailing newline (may hold inner ones) */
    size_t len;
} byoc_log_line;

/* Called for each line, in order; the strings live until it returns. */
typedef void (*byoc_log_line_fn)(const byoc_log_line *line, void *ud);

typedef struct byoc_log_round {
    size_t lines;                /* delivered by this poll */
    size_t streams;              /* known after it */
    bool more;                   /* stopped early with more to read: poll again soon */
} byoc_log_round;

typedef struct byoc_log_source byoc_log_source;

typedef struct byoc_log_source_ops {
    /* Deliver what is available now. final: the job has ended, so look once
     * more everywhere (streams that appeared late included). On failure the
     * lines not yet delivered stay for the next poll. */
    int (*poll)(byoc_log_source *src, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud, byoc_log_round *out,
                byoc_err *err);
    void (*free)(byoc_log_source *src);
} byoc_log_source_ops;

/* Implementations embed this as their first member. */
struct byoc_log_source {
    const byoc_log_source_ops *ops;
};

int byoc_log_source_poll(byoc_log_source *src, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                         byoc_log_round *out, byoc_err *err);
void byoc_log_source_free(byoc_log_source *src);

/* "[algo-1] text" (with_instance) after "2024-05-01T12:00:00.123Z " (with_time), appended to out. */
void byoc_log_line_format(const byoc_log_line *line, bool with_instance, bool with_time, byoc_buf *out);

/* ---- the CloudWatch tail ------------------------------------------------------ */

/* What the tail needs from CloudWatch Logs. byoc_logtail_cwl_fetch() binds it
 * to aws/logs.h; unit tests bind it to an in-memory service. */
typedef struct byoc_logtail_fetch {
    int (*describe)(void *ud, byoc_task *t, const byoc_logs_describe_params *p, byoc_logs_stream_page *out,
                    byoc_err *err);
    int (*get_events)(void *ud, byoc_task *t, const byoc_logs_get_params *p, byoc_logs_event_page *out,
                      byoc_err *err);
    void *ud;
} byoc_logtail_fetch;

typedef struct byoc_logtail_opts {
    const char *group;           /* NULL: /aws/braket/jobs */
    const char *prefix;          /* stream name prefix, "<jobName>/" (required) */
    int expected_streams;        /* the job's instanceCount: look for streams every round until found; 0: 1 */
    int rediscover_every;        /* afterwards, look for new streams every N rounds; 0: 5 */
    int page_limit;              /* GetLogEvents limit; 0: 10000 */
    int max_streams;             /* 0: 64 */
    int max_pages_per_round;     /* per stream; 0: 100 */
} byoc_logtail_opts;

typedef struct byoc_logtail byoc_logtail;

/* Copies what it needs from f and o. */
byoc_logtail *byoc_logtail_new(const byoc_logtail_fetch *f, const byoc_logtail_opts *o);
void byoc_logtail_free(byoc_logtail *tl);

int byoc_logtail_poll(byoc_logtail *tl, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                      byoc_log_round *out, byoc_err *err);

size_t byoc_logtail_stream_count(const byoc_logtail *tl);
const char *byoc_logtail_stream_instance(const byoc_logtail *tl, size_t i);

typedef struct byoc_logtail_stats {
    uint64_t describe_calls, get_calls;
    uint64_t lines;              /* delivered */
    uint64_t empty_pages;        /* empty pages that were not the end */
    uint64_t token_restarts;     /* refused tokens, re-read by time */
    uint64_t skipped_repeats;    /* lines skipped after such a re-read */
    uint64_t lost_streams;       /* streams that vanished (ResourceNotFound) */
} byoc_logtail_stats;

void byoc_logtail_stats_get(const byoc_logtail *tl, byoc_logtail_stats *out);

/* "<jobName>/", malloc'd. */
char *byoc_logtail_job_prefix(const char *job_name);
/* The instance tag of a stream name: "job/uuid/algo-1-1700000000" -> "algo-1". */
void byoc_logtail_instance_tag(const char *stream, char *out, size_t size);

/* A CloudWatch log source for a job: a tail on the client with prefix
 * "<jobName>/" and instance_count expected streams. */
byoc_log_source *byoc_log_source_cwl(byoc_aws_client *c, const char *job_name, int instance_count);

#endif
