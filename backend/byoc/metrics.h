/* metrics: the `Metrics - ...` lines a job prints (braket.jobs.log_metric),
 * parsed as the Braket SDK parses them, and a bounded store of one series per
 * metric for charts and summaries.
 *
 * A line looks like
 *   Metrics - timestamp=1700000000.5; loss=0.25; iteration_number=3;
 * Parsing follows the SDK's LogMetricsParser: the pattern
 * (\w+)\s*=\s*([^;]+)\s*; is applied across the whole message; a pair is kept
 * when its value reads as a Python float (surrounding blanks, `inf`, `nan`,
 * exponents and digit underscores accepted); a later pair of the same name
 * wins; a leading "[tag]" is the node id. `timestamp` and `iteration_number`
 * are the axes, not metrics. Which lines are metric lines is the SDK's test
 * too: the message contains "Metrics -". One deliberate difference: without
 * a timestamp= pair the SDK stores the CloudWatch event time in ms, mixing
 * units; here it becomes seconds like the rest.
 * \w and \s are matched on bytes: ASCII word characters plus every byte of a
 * UTF-8 sequence count as \w; ASCII blanks and \x1c-\x1f as \s.
 *
 * The store (byoc_metrics) keeps, per metric, exact count/min/max/last and up
 * to max_points points spread evenly over the whole run: when full it drops
 * every other point and keeps one in two from then on. Metric names beyond
 * max_series are counted as dropped. Safe to feed from a worker thread while
 * a screen reads: readers hold byoc_metrics_lock() around their reads. */
#ifndef BYOC_BYOC_METRICS_H
#define BYOC_BYOC_METRICS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/client.h"
#include "byoc/logtail.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_METRIC_NAME_MAX 128   /* longer names are ignored */
#define BYOC_METRIC_PAIRS_MAX 32   /* pairs per line beyond this are ignored */
#define BYOC_METRIC_NODE_MAX 64    /* node tags are cut to this length - 1 */

typedef struct byoc_metric_pair {
    char name[BYOC_METRIC_NAME_MAX];
    double value;
} byoc_metric_pair;

/* One parsed line. */
typedef struct byoc_metric_record {
    double timestamp;             /* epoch seconds: timestamp= or the event time */
    bool has_timestamp;           /* false only when neither was available */
    bool has_iteration;
    double iteration;             /* iteration_number= (a float, as the SDK reads it) */
    char node[BYOC_METRIC_NODE_MAX]; /* leading "[tag]", "" when none */
    bool has_node;
    size_t count;                 /* metric pairs, axes excluded */
    byoc_metric_pair pairs[BYOC_METRIC_PAIRS_MAX];
} byoc_metric_record;

/* The SDK's test for a metrics line: the message contains "Metrics -". */
bool byoc_metrics_is_metrics_line(const char *message);

/* Parse one message (len bytes, need not be NUL-terminated). event_time_ms is
 * the log event's time, used when the line has no timestamp= (0: none).
 * Returns the number of metric pairs found (0: nothing to record). Does not
 * check for "Metrics -": callers that read all lines test that first. */
size_t byoc_metrics_parse(const char *message, size_t len, int64_t event_time_ms, byoc_metric_record *out);

/* Python float() of a byte range: 0 and *out, or -1 if it is not a float. */
int byoc_metrics_parse_float(const char *s, size_t len, double *out);

typedef struct byoc_metric_point {
    double timestamp;             /* NAN when the line had none */
    double iteration;             /* NAN when the line had none */
    double value;
    int node;                     /* index for byoc_metrics_node(), -1 when untagged */
} byoc_metric_point;

typedef struct byoc_metric_series {
    char *name;
    uint64_t count;               /* values seen, kept or not */
    double min, max;              /* over the non-NaN values; min > max when there are none */
    double last;                  /* the value with the latest timestamp (the last fed on ties) */
    double last_timestamp;        /* its timestamp, NAN when unknown */
    double last_iteration;        /* its iteration, NAN when unknown */
    byoc_metric_point *points;    /* oldest first */
    size_t npoints;
    uint64_t stride;              /* every stride-th value is kept */
} byoc_metric_series;

typedef struct byoc_metrics byoc_metrics;

/* max_series 0: 64; max_points 0: 2048 (at least 2). */
byoc_metrics *byoc_metrics_new(size_t max_series, size_t max_points);
void byoc_metrics_free(byoc_metrics *m);

/* is_metrics_line + parse + add in one; returns the pairs recorded. */
size_t byoc_metrics_feed(byoc_metrics *m, const char *message, size_t len, int64_t event_time_ms);

/* Readers on another thread than the feeder hold the lock around these. */
void byoc_metrics_lock(byoc_metrics *m);
void byoc_metrics_unlock(byoc_metrics *m);
size_t byoc_metrics_count(const byoc_metrics *m);                 /* series, in first-seen order */
const byoc_metric_series *byoc_metrics_at(const byoc_metrics *m, size_t i);
const byoc_metric_series *byoc_metrics_find(const byoc_metrics *m, const char *name);
const char *byoc_metrics_node(const byoc_metrics *m, int node);   /* NULL for -1 or out of range */
uint64_t byoc_metrics_dropped(const byoc_metrics *m);             /* values of metrics beyond max_series */

/* What byoc status --json prints for a metric's points. */
#define BYOC_METRICS_SERIES_MAX 1000

/* {"<name>": {"last", "min", "max", "count", "timestamp"?, "iteration"?}, ...}
 * (non-finite values as null; it takes the lock itself), and per metric
 * "series": {"points": [{"timestamp", "iteration", "value"}, ...], "count",
 * "truncated", "stride"}: the last series_max points the store kept, oldest
 * first (a missing or non-finite number as null); count is the points listed; truncated is true when they
 * are not every value the job logged (cut to series_max, or thinned by the
 * store, which keeps every stride-th value of a long run). series_max 0: no
 * series (the summary alone). */
json_t *byoc_metrics_json(byoc_metrics *m, size_t series_max);

/* Every metrics line a job wrote to CloudWatch: the streams under
 * "<jobName>/" in /aws/braket/jobs, read with FilterLogEvents (pattern
 * "\"Metrics -\"", explicit stream names, 100 per call; each event checked
 * again here), fed into m. No logs yet: nothing loaded, no error.
 * max_events bounds the work (0: 1,000,000); *loaded (may be NULL) gets the
 * metrics lines found. */
int byoc_metrics_load_cwl(byoc_aws_client *c, byoc_task *t, const char *job_name, size_t max_events,
                          byoc_metrics *m, size_t *loaded, byoc_err *err);

/* Every metrics line of a log source read to its end (a local job's log.txt:
 * logfile.h), fed into m; *loaded (may be NULL) as above. */
int byoc_metrics_load_log(byoc_log_source *src, byoc_task *t, byoc_metrics *m, size_t *loaded, byoc_err *err);

#endif
