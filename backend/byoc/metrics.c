#include "byoc/metrics.h"

#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "aws/logs.h"
#include "aws/pager.h"
#include "core/buf.h"

#define DEFAULT_MAX_SERIES 64
#define DEFAULT_MAX_POINTS 2048
#define MAX_NODES 64

/* ---- parsing -------------------------------------------------------------- */

/* Python's \w on text, approximated on bytes: ASCII word characters and any
 * byte of a multi-byte UTF-8 sequence. */
static bool is_word(unsigned char c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* Python's \s and str.strip() on ASCII: blanks plus the separators \x1c-\x1f. */
static bool is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* digit (["_"] digit)*, appended to dst without the underscores. Returns the
 * bytes consumed, 0 if there is no digit at p. */
static size_t digit_part(const char *p, const char *end, byoc_buf *dst)
{
    const char *q = p;
    if (q >= end || !is_digit(*q))
        return 0;
    for (;;) {
        byoc_buf_putc(dst, *q++);
        if (q < end && is_digit(*q))
            continue;
        if (q + 1 < end && *q == '_' && is_digit(q[1])) {
            q++;
            continue;
        }
        return (size_t)(q - p);
    }
}

static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;
static locale_t c_locale_value;

static void c_locale_init(void) { c_locale_value = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0); }

/* strtod in the C locale: the user's locale must not turn '.' into ','. */
static double strtod_c(const char *s)
{
    pthread_once(&c_locale_once, c_locale_init);
    if (c_locale_value)
        return strtod_l(s, NULL, c_locale_value);
    return strtod(s, NULL);
}

static bool word_is(const char *p, size_t n, const char *w)
{
    return strlen(w) == n && strncasecmp(p, w, n) == 0;
}

int byoc_metrics_parse_float(const char *s, size_t len, double *out)
{
    const char *p = s, *end = s + len;
    while (p < end && is_space((unsigned char)*p))
        p++;
    while (end > p && is_space((unsigned char)end[-1]))
        end--;
    if (p == end)
        return -1;
    byoc_buf num = BYOC_BUF_INIT;
    if (*p == '+' || *p == '-')
        byoc_buf_putc(&num, *p++);
    size_t rest = (size_t)(end - p);
    int rc = -1;
    if (word_is(p, rest, "inf") || word_is(p, rest, "infinity")) {
        *out = num.len && num.data[0] == '-' ? -INFINITY : INFINITY;
        rc = 0;
    } else if (word_is(p, rest, "nan")) {
        *out = NAN;
        rc = 0;
    } else {
        size_t int_digits = digit_part(p, end, &num);
        p += int_digits;
        size_t frac_digits = 0;
        if (p < end && *p == '.') {
            byoc_buf_putc(&num, *p++);
            frac_digits = digit_part(p, end, &num);
            p += frac_digits;
        }
        bool ok = int_digits + frac_digits > 0;
        if (ok && p < end && (*p == 'e' || *p == 'E')) {
            byoc_buf_putc(&num, *p++);
            if (p < end && (*p == '+' || *p == '-'))
                byoc_buf_putc(&num, *p++);
            size_t exp_digits = digit_part(p, end, &num);
            p += exp_digits;
            ok = exp_digits > 0;
        }
        if (ok && p == end) {
            *out = strtod_c(num.data);
            rc = 0;
        }
    }
    byoc_buf_clear(&num);
    return rc;
}

bool byoc_metrics_is_metrics_line(const char *message)
{
    return message && strstr(message, "Metrics -") != NULL;
}

static void put_pair(byoc_metric_record *r, const char *name, size_t name_len, double v)
{
    for (size_t i = 0; i < r->count; i++) {
        if (strlen(r->pairs[i].name) == name_len && memcmp(r->pairs[i].name, name, name_len) == 0) {
            r->pairs[i].value = v; /* the SDK keeps a dict: the last pair of a name wins */
            return;
        }
    }
    if (r->count == BYOC_METRIC_PAIRS_MAX)
        return;
    byoc_metric_pair *p = &r->pairs[r->count++];
    memcpy(p->name, name, name_len);
    p->name[name_len] = '\0';
    p->value = v;
}

static void set_pair(byoc_metric_record *r, const char *name, size_t name_len, double v)
{
    if (name_len == 9 && memcmp(name, "timestamp", 9) == 0) {
        r->timestamp = v;
        r->has_timestamp = true;
    } else if (name_len == 16 && memcmp(name, "iteration_number", 16) == 0) {
        r->iteration = v;
        r->has_iteration = true;
    } else if (name_len == 7 && memcmp(name, "node_id", 7) == 0) {
        /* the SDK's own column; the "[tag]" prefix decides it */
    } else {
        put_pair(r, name, name_len, v);
    }
}

/* One scan of (\w+)\s*=\s*([^;]+)\s*; in finditer order. A start inside a word
 * run ends at the same place as the run's first byte, so runs are tried whole. */
size_t byoc_metrics_parse(const char *message, size_t len, int64_t event_time_ms, byoc_metric_record *out)
{
    memset(out, 0, sizeof *out);
    out->timestamp = NAN;
    out->iteration = NAN;
    const char *s = message, *end = message + len;
    bool any = false;
    const char *p = s;
    while (p < end) {
        while (p < end && !is_word((unsigned char)*p))
            p++;
        if (p >= end)
            break;
        const char *name = p;
        while (p < end && is_word((unsigned char)*p))
            p++;
        size_t name_len = (size_t)(p - name);
        const char *q = p;
        while (q < end && is_space((unsigned char)*q))
            q++;
        if (q >= end || *q != '=')
            continue;
        const char *value = q + 1;
        const char *semi = memchr(value, ';', (size_t)(end - value));
        if (!semi)
            break; /* no later start can find its ';' either */
        if (semi == value)
            continue; /* "name=;": [^;]+ needs a byte */
        p = semi + 1;
        double v;
        if (byoc_metrics_parse_float(value, (size_t)(semi - value), &v) != 0)
            continue; /* the SDK warns and skips the pair; the match still consumed it */
        if (name_len >= BYOC_METRIC_NAME_MAX)
            continue;
        any = true;
        set_pair(out, name, name_len, v);
    }
    if (!any)
        return 0;
    if (!out->has_timestamp && event_time_ms > 0) {
        out->timestamp = (double)event_time_ms / 1000.0;
        out->has_timestamp = true;
    }
    if (len > 0 && s[0] == '[') {
        const char *close = memchr(s + 1, ']', len - 1);
        if (close) {
            size_t n = (size_t)(close - (s + 1));
            if (n >= BYOC_METRIC_NODE_MAX)
                n = BYOC_METRIC_NODE_MAX - 1;
            memcpy(out->node, s + 1, n);
            out->node[n] = '\0';
            out->has_node = true;
        }
    }
    return out->count;
}

/* ---- the store -------------------------------------------------------------- */

struct byoc_metrics {
    pthread_mutex_t lock;
    size_t max_series, max_points;
    byoc_metric_series *series;
    size_t nseries;
    char *nodes[MAX_NODES];
    int nnodes;
    uint64_t dropped;
};

byoc_metrics *byoc_metrics_new(size_t max_series, size_t max_points)
{
    byoc_metrics *m = byoc_xcalloc(1, sizeof *m);
    pthread_mutex_init(&m->lock, NULL);
    m->max_series = max_series ? max_series : DEFAULT_MAX_SERIES;
    m->max_points = max_points ? max_points : DEFAULT_MAX_POINTS;
    if (m->max_points < 2)
        m->max_points = 2;
    m->series = byoc_xcalloc(m->max_series, sizeof *m->series);
    return m;
}

void byoc_metrics_free(byoc_metrics *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nseries; i++) {
        free(m->series[i].name);
        free(m->series[i].points);
    }
    free(m->series);
    for (int i = 0; i < m->nnodes; i++)
        free(m->nodes[i]);
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void byoc_metrics_lock(byoc_metrics *m) { pthread_mutex_lock(&m->lock); }
void byoc_metrics_unlock(byoc_metrics *m) { pthread_mutex_unlock(&m->lock); }

static int node_index(byoc_metrics *m, const byoc_metric_record *r)
{
    if (!r->has_node)
        return -1;
    for (int i = 0; i < m->nnodes; i++)
        if (strcmp(m->nodes[i], r->node) == 0)
            return i;
    if (m->nnodes == MAX_NODES)
        return -1;
    m->nodes[m->nnodes] = byoc_xstrdup(r->node);
    return m->nnodes++;
}

static byoc_metric_series *series_for(byoc_metrics *m, const char *name)
{
    for (size_t i = 0; i < m->nseries; i++)
        if (strcmp(m->series[i].name, name) == 0)
            return &m->series[i];
    if (m->nseries == m->max_series)
        return NULL;
    byoc_metric_series *s = &m->series[m->nseries++];
    s->name = byoc_xstrdup(name);
    s->min = INFINITY;
    s->max = -INFINITY;
    s->stride = 1;
    return s;
}

/* Keep every stride-th value; when the buffer is full, halve it and double the stride. */
static void keep_point(byoc_metrics *m, byoc_metric_series *s, const byoc_metric_point *pt)
{
    uint64_t index = s->count - 1;
    if (index % s->stride != 0)
        return;
    if (s->npoints == m->max_points) {
        size_t kept = 0;
        for (size_t i = 0; i < s->npoints; i += 2)
            s->points[kept++] = s->points[i];
        s->npoints = kept;
        s->stride *= 2;
        if (index % s->stride != 0)
            return;
    }
    if (!s->points)
        s->points = byoc_xcalloc(m->max_points, sizeof *s->points);
    s->points[s->npoints++] = *pt;
}

static void add_locked(byoc_metrics *m, const byoc_metric_record *r)
{
    if (r->count == 0)
        return;
    int node = node_index(m, r);
    for (size_t i = 0; i < r->count; i++) {
        byoc_metric_series *s = series_for(m, r->pairs[i].name);
        if (!s) {
            m->dropped++;
            continue;
        }
        double v = r->pairs[i].value;
        double ts = r->has_timestamp ? r->timestamp : NAN;
        double it = r->has_iteration ? r->iteration : NAN;
        s->count++;
        if (!isnan(v)) {
            if (v < s->min)
                s->min = v;
            if (v > s->max)
                s->max = v;
        }
        /* "last" is the latest by timestamp: sources need not deliver in time order */
        if (s->count == 1 || isnan(ts) || isnan(s->last_timestamp) || ts >= s->last_timestamp) {
            s->last = v;
            s->last_timestamp = ts;
            s->last_iteration = it;
        }
        byoc_metric_point pt = {.timestamp = ts, .iteration = it, .value = v, .node = node};
        keep_point(m, s, &pt);
    }
}

static void byoc_metrics_add(byoc_metrics *m, const byoc_metric_record *r)
{
    pthread_mutex_lock(&m->lock);
    add_locked(m, r);
    pthread_mutex_unlock(&m->lock);
}

size_t byoc_metrics_feed(byoc_metrics *m, const char *message, size_t len, int64_t event_time_ms)
{
    if (!message || !memmem(message, len, "Metrics -", 9))
        return 0;
    byoc_metric_record r;
    size_t n = byoc_metrics_parse(message, len, event_time_ms, &r);
    if (n)
        byoc_metrics_add(m, &r);
    return n;
}

size_t byoc_metrics_count(const byoc_metrics *m) { return m->nseries; }

const byoc_metric_series *byoc_metrics_at(const byoc_metrics *m, size_t i)
{
    return i < m->nseries ? &m->series[i] : NULL;
}

const byoc_metric_series *byoc_metrics_find(const byoc_metrics *m, const char *name)
{
    for (size_t i = 0; i < m->nseries; i++)
        if (strcmp(m->series[i].name, name) == 0)
            return &m->series[i];
    return NULL;
}

const char *byoc_metrics_node(const byoc_metrics *m, int node)
{
    return node >= 0 && node < m->nnodes ? m->nodes[node] : NULL;
}

uint64_t byoc_metrics_dropped(const byoc_metrics *m) { return m->dropped; }

static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *series_json(const byoc_metric_series *s, size_t max)
{
    size_t first = s->npoints > max ? s->npoints - max : 0;
    json_t *points = json_array();
    for (size_t i = first; i < s->npoints; i++) {
        const byoc_metric_point *p = &s->points[i];
        json_t *o = json_object();
        json_object_set_new(o, "timestamp", number_or_null(p->timestamp));
        json_object_set_new(o, "iteration", number_or_null(p->iteration));
        json_object_set_new(o, "value", number_or_null(p->value));
        json_array_append_new(points, o);
    }
    json_t *out = json_object();
    json_object_set_new(out, "points", points);
    json_object_set_new(out, "count", json_integer((json_int_t)(s->npoints - first)));
    json_object_set_new(out, "truncated", json_boolean(s->npoints - first < s->count));
    json_object_set_new(out, "stride", json_integer((json_int_t)s->stride));
    return out;
}

json_t *byoc_metrics_json(byoc_metrics *m, size_t series_max)
{
    json_t *out = json_object();
    pthread_mutex_lock(&m->lock);
    for (size_t i = 0; i < m->nseries; i++) {
        const byoc_metric_series *s = &m->series[i];
        json_t *o = json_object();
        json_object_set_new(o, "last", number_or_null(s->last));
        json_object_set_new(o, "min", s->min <= s->max ? number_or_null(s->min) : json_null());
        json_object_set_new(o, "max", s->min <= s->max ? number_or_null(s->max) : json_null());
        json_object_set_new(o, "count", json_integer((json_int_t)s->count));
        if (isfinite(s->last_timestamp))
            json_object_set_new(o, "timestamp", json_real(s->last_timestamp));
        if (isfinite(s->last_iteration))
            json_object_set_new(o, "iteration", json_real(s->last_iteration));
        if (series_max)
            json_object_set_new(o, "series", series_json(s, series_max));
        json_object_set_new(out, s->name, o);
    }
    pthread_mutex_unlock(&m->lock);
    return out;
}

/* ---- loading from CloudWatch ------------------------------------------------------ */

#define LOAD_DEFAULT_MAX 1000000
#define FILTER_NAMES_MAX 100
#define DESCRIBE_PAGES_MAX 20

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The job's stream names (all pages). A group that does not exist yet has none. */
static int job_streams(byoc_aws_client *c, byoc_task *t, const char *prefix, char ***names, size_t *n,
                       byoc_err *err)
{
    *names = NULL;
    *n = 0;
    size_t cap = 0;
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "DescribeLogStreams");
    pager.max_pages = DESCRIBE_PAGES_MAX;
    int rc = 0, more = 0;
    do {
        byoc_logs_describe_params p = {.group = BYOC_LOGS_BRAKET_JOBS_GROUP,
                                       .prefix = prefix,
                                       .limit = BYOC_LOGS_DESCRIBE_LIMIT_MAX,
                                       .next_token = pager.token};
        byoc_logs_stream_page page;
        if (byoc_logs_describe_streams(c, t, &p, &page, err) != 0) {
            if (byoc_logs_not_found(err))
                byoc_err_clear(err);
            else
                rc = -1;
            break;
        }
        for (size_t i = 0; i < page.len; i++) {
            if (*n == cap) {
                cap = cap ? cap * 2 : 8;
                *names = byoc_xrealloc(*names, cap * sizeof **names);
            }
            (*names)[(*n)++] = page.items[i].name;
            page.items[i].name = NULL;
        }
        more = byoc_aws_pager_next(&pager, page.next_token, err);
        byoc_logs_stream_page_clear(&page);
        if (more < 0)
            rc = -1;
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    if (rc != 0) {
        free_names(*names, *n);
        *names = NULL;
        *n = 0;
    }
    return rc;
}

int byoc_metrics_load_cwl(byoc_aws_client *c, byoc_task *t, const char *job_name, size_t max_events,
                          byoc_metrics *m, size_t *loaded, byoc_err *err)
{
    if (loaded)
        *loaded = 0;
    if (!max_events)
        max_events = LOAD_DEFAULT_MAX;
    char *prefix = byoc_xasprintf("%s/", job_name);
    char **names;
    size_t n;
    int rc = job_streams(c, t, prefix, &names, &n, err);
    free(prefix);
    if (rc != 0)
        return -1;
    size_t seen = 0, found = 0;
    for (size_t first = 0; first < n && rc == 0 && seen < max_events; first += FILTER_NAMES_MAX) {
        size_t batch = n - first < FILTER_NAMES_MAX ? n - first : FILTER_NAMES_MAX;
        byoc_aws_pager pager;
        byoc_aws_pager_init(&pager, "FilterLogEvents");
        int more = 0;
        do {
            byoc_logs_filter_params p = {.group = BYOC_LOGS_BRAKET_JOBS_GROUP,
                                         .stream_names = (const char *const *)names + first,
                                         .n_stream_names = batch,
                                         .filter_pattern = "\"Metrics -\"",
                                         .next_token = pager.token};
            byoc_logs_event_page page;
            if (byoc_logs_filter_events(c, t, &p, &page, err) != 0) {
                rc = -1;
                break;
            }
            for (size_t i = 0; i < page.len && seen < max_events; i++, seen++)
                if (byoc_metrics_feed(m, page.items[i].message, page.items[i].message_len, page.items[i].timestamp))
                    found++;
            more = byoc_aws_pager_next(&pager, seen < max_events ? page.next_token : NULL, err);
            byoc_logs_event_page_clear(&page);
            if (more < 0)
                rc = -1;
        } while (rc == 0 && more);
        byoc_aws_pager_clear(&pager);
    }
    free_names(names, n);
    if (loaded)
        *loaded = found;
    return rc;
}

typedef struct log_feed {
    byoc_metrics *m;
    size_t found;
} log_feed;

static void feed_line(const byoc_log_line *l, void *ud)
{
    log_feed *f = ud;
    if (byoc_metrics_feed(f->m, l->message, l->len, l->timestamp_ms))
        f->found++;
}

int byoc_metrics_load_log(byoc_log_source *src, byoc_task *t, byoc_metrics *m, size_t *loaded, byoc_err *err)
{
    log_feed f = {.m = m};
    byoc_log_round r;
    int rc;
    do
        rc = byoc_log_source_poll(src, t, true, feed_line, &f, &r, err);
    while (rc == 0 && r.more && !byoc_task_cancelled(t));
    if (loaded)
        *loaded = f.found;
    return rc;
}
