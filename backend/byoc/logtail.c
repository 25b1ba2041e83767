#include "byoc/logtail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/pager.h"
#include "core/log.h"

#define DEFAULT_PAGE_LIMIT 10000
#define DEFAULT_MAX_STREAMS 64
#define DEFAULT_MAX_PAGES 100
#define DEFAULT_REDISCOVER 5
#define MAX_DESCRIBE_PAGES 20
#define INSTANCE_MAX 96

/* ---- sources ---------------------------------------------------------------- */

int byoc_log_source_poll(byoc_log_source *src, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                         byoc_log_round *out, byoc_err *err)
{
    byoc_log_round local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    return src->ops->poll(src, t, final, fn, ud, out, err);
}

void byoc_log_source_free(byoc_log_source *src)
{
    if (src)
        src->ops->free(src);
}

void byoc_log_line_format(const byoc_log_line *line, bool with_instance, bool with_time, byoc_buf *out)
{
    if (with_time && line->timestamp_ms > 0) {
        time_t secs = (time_t)(line->timestamp_ms / 1000);
        struct tm tm;
        gmtime_r(&secs, &tm);
        char stamp[40];
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
        byoc_buf_printf(out, "%s.%03dZ ", stamp, (int)(line->timestamp_ms % 1000));
    }
    if (with_instance && line->instance && *line->instance)
        byoc_buf_printf(out, "[%s] ", line->instance);
    byoc_buf_append(out, line->message, line->len);
}

/* ---- the tail ----------------------------------------------------------------- */

typedef struct stream {
    char *name;
    char instance[INSTANCE_MAX];
    char *token;                 /* forward token to send next; NULL before the first read */
    byoc_logs_event_page page;   /* events read, not yet delivered: items[next..len) */
    size_t next;
    bool at_end;                 /* caught up in this round */
    bool gone;                   /* the service no longer knows it */
    int pages_this_round;
    /* what was delivered last, to skip it when re-reading by time */
    int64_t last_ts;
    uint64_t delivered_at_last_ts;
    bool resuming;               /* re-reading from last_ts after a refused token */
    uint64_t seen_at_last_ts;    /* while resuming: lines at last_ts met so far */
} stream;

struct byoc_logtail {
    byoc_logtail_fetch fetch;
    char *group;
    char *prefix;
    int expected, rediscover_every, page_limit, max_streams, max_pages;
    stream *streams;
    size_t nstreams;
    unsigned rounds, rounds_since_discovery;
    bool more;                   /* some stream hit max_pages in this round */
    byoc_logtail_stats stats;
};

byoc_logtail *byoc_logtail_new(const byoc_logtail_fetch *f, const byoc_logtail_opts *o)
{
    byoc_logtail *tl = byoc_xcalloc(1, sizeof *tl);
    tl->fetch = *f;
    tl->group = byoc_xstrdup(o->group ? o->group : BYOC_LOGS_BRAKET_JOBS_GROUP);
    tl->prefix = byoc_xstrdup(o->prefix ? o->prefix : "");
    tl->expected = o->expected_streams > 0 ? o->expected_streams : 1;
    tl->rediscover_every = o->rediscover_every > 0 ? o->rediscover_every : DEFAULT_REDISCOVER;
    tl->page_limit = o->page_limit > 0 ? o->page_limit : DEFAULT_PAGE_LIMIT;
    if (tl->page_limit > BYOC_LOGS_GET_LIMIT_MAX)
        tl->page_limit = BYOC_LOGS_GET_LIMIT_MAX;
    tl->max_streams = o->max_streams > 0 ? o->max_streams : DEFAULT_MAX_STREAMS;
    tl->max_pages = o->max_pages_per_round > 0 ? o->max_pages_per_round : DEFAULT_MAX_PAGES;
    tl->streams = byoc_xcalloc((size_t)tl->max_streams, sizeof *tl->streams);
    return tl;
}

void byoc_logtail_free(byoc_logtail *tl)
{
    if (!tl)
        return;
    for (size_t i = 0; i < tl->nstreams; i++) {
        free(tl->streams[i].name);
        free(tl->streams[i].token);
        byoc_logs_event_page_clear(&tl->streams[i].page);
    }
    free(tl->streams);
    free(tl->group);
    free(tl->prefix);
    free(tl);
}

size_t byoc_logtail_stream_count(const byoc_logtail *tl) { return tl->nstreams; }

const char *byoc_logtail_stream_instance(const byoc_logtail *tl, size_t i)
{
    return i < tl->nstreams ? tl->streams[i].instance : NULL;
}

void byoc_logtail_stats_get(const byoc_logtail *tl, byoc_logtail_stats *out) { *out = tl->stats; }

char *byoc_logtail_job_prefix(const char *job_name) { return byoc_xasprintf("%s/", job_name); }

void byoc_logtail_instance_tag(const char *stream_name, char *out, size_t size)
{
    const char *slash = strrchr(stream_name, '/');
    const char *seg = slash ? slash + 1 : stream_name;
    size_t n = strlen(seg);
    /* drop a "-<epoch seconds>" suffix (SageMaker's algo-<n>-<epoch>) */
    size_t digits = 0;
    while (digits < n && seg[n - 1 - digits] >= '0' && seg[n - 1 - digits] <= '9')
        digits++;
    if (digits >= 9 && digits < n && seg[n - 1 - digits] == '-' && n - 1 - digits > 0)
        n = n - 1 - digits;
    if (n >= size)
        n = size - 1;
    memcpy(out, seg, n);
    out[n] = '\0';
}

static bool known(const byoc_logtail *tl, const char *name)
{
    for (size_t i = 0; i < tl->nstreams; i++)
        if (strcmp(tl->streams[i].name, name) == 0)
            return true;
    return false;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(((const byoc_logs_stream *)a)->name, ((const byoc_logs_stream *)b)->name);
}

/* Look for streams under the prefix; a group that does not exist yet has none. */
static int discover(byoc_logtail *tl, byoc_task *t, byoc_err *err)
{
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "DescribeLogStreams");
    pager.max_pages = MAX_DESCRIBE_PAGES;
    int rc = 0, more = 0;
    do {
        byoc_logs_describe_params p = {.group = tl->group,
                                       .prefix = tl->prefix,
                                       .limit = BYOC_LOGS_DESCRIBE_LIMIT_MAX,
                                       .next_token = pager.token};
        byoc_logs_stream_page page;
        tl->stats.describe_calls++;
        if (tl->fetch.describe(tl->fetch.ud, t, &p, &page, err) != 0) {
            if (byoc_logs_not_found(err))
                byoc_err_clear(err);
            else
                rc = -1;
            break;
        }
        if (page.len > 1)
            qsort(page.items, page.len, sizeof *page.items, cmp_names);
        for (size_t i = 0; i < page.len && (size_t)tl->max_streams > tl->nstreams; i++) {
            const char *name = page.items[i].name;
            if (strncmp(name, tl->prefix, strlen(tl->prefix)) != 0 || known(tl, name))
                continue;
            stream *s = &tl->streams[tl->nstreams++];
            memset(s, 0, sizeof *s);
            s->name = byoc_xstrdup(name);
            byoc_logtail_instance_tag(name, s->instance, sizeof s->instance);
        }
        more = byoc_aws_pager_next(&pager, (size_t)tl->max_streams > tl->nstreams ? page.next_token : NULL, err);
        byoc_logs_stream_page_clear(&page);
        if (more < 0)
            rc = -1;
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    return rc;
}

/* While resuming after a refused token, drop what was delivered before:
 * lines older than last_ts and the first delivered_at_last_ts lines at it. */
static void skip_repeats(byoc_logtail *tl, stream *s)
{
    while (s->resuming && s->next < s->page.len) {
        const byoc_logs_event *e = &s->page.items[s->next];
        if (e->timestamp < s->last_ts) {
            s->next++;
            tl->stats.skipped_repeats++;
        } else if (e->timestamp == s->last_ts && s->seen_at_last_ts < s->delivered_at_last_ts) {
            s->seen_at_last_ts++;
            s->next++;
            tl->stats.skipped_repeats++;
        } else {
            s->resuming = false;
        }
    }
}

/* Read pages until s has a line to deliver or is caught up for this round. */
static int refill(byoc_logtail *tl, stream *s, byoc_task *t, byoc_err *err)
{
    while (s->next >= s->page.len && !s->at_end && !s->gone) {
        if (byoc_task_cancelled(t))
            return byoc_err_set(err, BYOC_E_CANCELLED, "logs", "cancelled");
        if (s->pages_this_round >= tl->max_pages) {
            s->at_end = true;
            tl->more = true;
            break;
        }
        byoc_logs_get_params p = {.group = tl->group,
                                  .stream = s->name,
                                  .next_token = s->token,
                                  .limit = tl->page_limit,
                                  .start_from_head = true};
        if (!s->token && s->resuming)
            p.start_time = s->last_ts;
        byoc_logs_event_page page;
        tl->stats.get_calls++;
        s->pages_this_round++;
        if (tl->fetch.get_events(tl->fetch.ud, t, &p, &page, err) != 0) {
            if (s->token && byoc_logs_bad_token(err)) {
                byoc_log(BYOC_LOG_INFO, "logs: token for %s refused; re-reading from %lld", s->name,
                         (long long)s->last_ts);
                byoc_err_clear(err);
                free(s->token);
                s->token = NULL;
                s->resuming = s->last_ts > 0 || s->delivered_at_last_ts > 0;
                s->seen_at_last_ts = 0;
                tl->stats.token_restarts++;
                continue;
            }
            if (byoc_logs_not_found(err)) {
                byoc_log(BYOC_LOG_WARN, "logs: stream %s is gone", s->name);
                byoc_err_clear(err);
                s->gone = true;
                tl->stats.lost_streams++;
                break;
            }
            return -1;
        }
        bool caught_up = s->token && page.next_forward_token && strcmp(s->token, page.next_forward_token) == 0;
        if (page.next_forward_token) {
            free(s->token);
            s->token = page.next_forward_token;
            page.next_forward_token = NULL;
        }
        byoc_logs_event_page_clear(&s->page);
        s->page = page;
        s->next = 0;
        skip_repeats(tl, s);
        if (caught_up || !s->token)
            s->at_end = true;
        else if (s->page.len == 0)
            tl->stats.empty_pages++;
    }
    return 0;
}

static void deliver(byoc_logtail *tl, stream *s, byoc_log_line_fn fn, void *ud)
{
    byoc_logs_event *e = &s->page.items[s->next++];
    size_t len = e->message_len;
    if (len && e->message[len - 1] == '\n')
        len--;
    if (len && e->message[len - 1] == '\r')
        len--;
    if (e->timestamp != s->last_ts) {
        s->last_ts = e->timestamp;
        s->delivered_at_last_ts = 0;
    }
    s->delivered_at_last_ts++;
    tl->stats.lines++;
    byoc_log_line line = {.timestamp_ms = e->timestamp, .instance = s->instance, .message = e->message, .len = len};
    if (fn)
        fn(&line, ud);
    /* the message is not needed any more: give the memory back early */
    free(e->message);
    e->message = NULL;
}

int byoc_logtail_poll(byoc_logtail *tl, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                      byoc_log_round *out, byoc_err *err)
{
    byoc_log_round local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    bool look = tl->rounds == 0 || final || tl->nstreams < (size_t)tl->expected ||
                tl->rounds_since_discovery + 1 >= (unsigned)tl->rediscover_every;
    tl->rounds++;
    tl->more = false;
    if (look) {
        tl->rounds_since_discovery = 0;
        if (discover(tl, t, err) != 0)
            return -1;
    } else {
        tl->rounds_since_discovery++;
    }
    for (size_t i = 0; i < tl->nstreams; i++) {
        tl->streams[i].at_end = false;
        tl->streams[i].pages_this_round = 0;
    }
    uint64_t before = tl->stats.lines;
    int rc = 0;
    for (size_t i = 0; i < tl->nstreams && rc == 0; i++)
        rc = refill(tl, &tl->streams[i], t, err);
    /* k-way merge: the earliest head goes first; a stream that empties is
     * refilled before the next choice, so the order holds across pages. */
    while (rc == 0) {
        stream *best = NULL;
        for (size_t i = 0; i < tl->nstreams; i++) {
            stream *s = &tl->streams[i];
            if (s->next < s->page.len && (!best || s->page.items[s->next].timestamp <
                                                       best->page.items[best->next].timestamp))
                best = s;
        }
        if (!best)
            break;
        deliver(tl, best, fn, ud);
        if (best->next >= best->page.len) {
            rc = refill(tl, best, t, err);
            /* out of pages for this round: stop here, so that the other streams'
             * lines wait for this one's next page and the order holds */
            if (tl->more)
                break;
        }
    }
    out->lines = (size_t)(tl->stats.lines - before);
    out->streams = tl->nstreams;
    out->more = tl->more;
    return rc;
}

/* ---- CloudWatch binding --------------------------------------------------------- */

static int cwl_describe(void *ud, byoc_task *t, const byoc_logs_describe_params *p, byoc_logs_stream_page *out,
                        byoc_err *err)
{
    return byoc_logs_describe_streams(ud, t, p, out, err);
}

static int cwl_get(void *ud, byoc_task *t, const byoc_logs_get_params *p, byoc_logs_event_page *out, byoc_err *err)
{
    return byoc_logs_get_events(ud, t, p, out, err);
}

/* The fetch operations on a client (c must outlive the tail). */
static byoc_logtail_fetch byoc_logtail_cwl_fetch(byoc_aws_client *c)
{
    byoc_logtail_fetch f = {.describe = cwl_describe, .get_events = cwl_get, .ud = c};
    return f;
}

typedef struct cwl_source {
    byoc_log_source base;
    byoc_logtail *tail;
} cwl_source;

static int cwl_source_poll(byoc_log_source *src, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                           byoc_log_round *out, byoc_err *err)
{
    return byoc_logtail_poll(((cwl_source *)src)->tail, t, final, fn, ud, out, err);
}

static void cwl_source_free(byoc_log_source *src)
{
    byoc_logtail_free(((cwl_source *)src)->tail);
    free(src);
}

static const byoc_log_source_ops cwl_ops = {.poll = cwl_source_poll, .free = cwl_source_free};

byoc_log_source *byoc_log_source_cwl(byoc_aws_client *c, const char *job_name, int instance_count)
{
    cwl_source *s = byoc_xcalloc(1, sizeof *s);
    s->base.ops = &cwl_ops;
    char *prefix = byoc_logtail_job_prefix(job_name);
    byoc_logtail_fetch f = byoc_logtail_cwl_fetch(c);
    byoc_logtail_opts o = {.prefix = prefix, .expected_streams = instance_count};
    s->tail = byoc_logtail_new(&f, &o);
    free(prefix);
    return &s->base;
}
