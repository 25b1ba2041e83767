/* logtail: the merge and token logic against an in-memory CloudWatch Logs
 * that keeps the service's contract (forward tokens, the same token back at
 * the end, empty pages before the end, refused tokens, streams that appear
 * late or vanish). The real service is exercised by
 * tests/integration/test_monitor_logs.py against moto. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/logtail.h"
#include "check.h"

/* ---- the in-memory service ------------------------------------------------------ */

typedef struct fake_event {
    int64_t ts;
    char *msg;
} fake_event;

typedef struct fake_stream {
    char name[128];
    fake_event *ev;
    size_t n, cap;
    bool visible;
    bool gone;
} fake_stream;

typedef struct fake_cw {
    fake_stream streams[8];
    size_t nstreams;
    bool group_missing;
    int empty_every;          /* every k-th call with a token answers an empty page that is not the end */
    int refuse_call;          /* this GetLogEvents call (1-based) refuses its token */
    int get_calls;
    int describe_limit;       /* page size of DescribeLogStreams */
    size_t largest_page;
} fake_cw;

static fake_stream *fake_add_stream(fake_cw *cw, const char *name, bool visible)
{
    fake_stream *s = &cw->streams[cw->nstreams++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->visible = visible;
    return s;
}

static void fake_put(fake_stream *s, int64_t ts, const char *msg)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->ev = realloc(s->ev, s->cap * sizeof *s->ev);
    }
    s->ev[s->n].ts = ts;
    s->ev[s->n].msg = strdup(msg);
    s->n++;
}

static void fake_free(fake_cw *cw)
{
    for (size_t i = 0; i < cw->nstreams; i++) {
        for (size_t k = 0; k < cw->streams[i].n; k++)
            free(cw->streams[i].ev[k].msg);
        free(cw->streams[i].ev);
    }
}

static int not_found(byoc_err *err)
{
    int rc = byoc_err_set(err, BYOC_E_FAILED, "logs", "The specified log stream does not exist.");
    snprintf(err->code, sizeof err->code, "ResourceNotFoundException");
    return rc;
}

static int fake_describe(void *ud, byoc_task *t, const byoc_logs_describe_params *p, byoc_logs_stream_page *out,
                         byoc_err *err)
{
    fake_cw *cw = ud;
    memset(out, 0, sizeof *out);
    if (cw->group_missing)
        return not_found(err);
    int limit = cw->describe_limit ? cw->describe_limit : 50;
    out->items = calloc(cw->nstreams, sizeof *out->items);
    bool started = p->next_token == NULL;
    for (size_t i = 0; i < cw->nstreams; i++) {
        fake_stream *s = &cw->streams[i];
        if (!s->visible || s->gone || strncmp(s->name, p->prefix, strlen(p->prefix)) != 0)
            continue;
        if (!started) {
            started = strcmp(s->name, p->next_token) == 0;
            continue;
        }
        if ((int)out->len == limit) {
            out->next_token = strdup(out->items[out->len - 1].name);
            break;
        }
        out->items[out->len++].name = strdup(s->name);
    }
    return 0;
}

static int fake_get(void *ud, byoc_task *t, const byoc_logs_get_params *p, byoc_logs_event_page *out,
                    byoc_err *err)
{
    fake_cw *cw = ud;
    memset(out, 0, sizeof *out);
    cw->get_calls++;
    CHECK(p->start_from_head); /* on every call */
    fake_stream *s = NULL;
    for (size_t i = 0; i < cw->nstreams; i++)
        if (strcmp(cw->streams[i].name, p->stream) == 0 && cw->streams[i].visible && !cw->streams[i].gone)
            s = &cw->streams[i];
    if (!s)
        return not_found(err);
    size_t pos = 0;
    if (p->next_token) {
        if (cw->get_calls == cw->refuse_call) {
            int rc = byoc_err_set(err, BYOC_E_FAILED, "logs", "GetLogEvents failed: The specified nextToken is invalid.");
            snprintf(err->code, sizeof err->code, "InvalidParameterException");
            return rc;
        }
        pos = strtoul(p->next_token + 2, NULL, 10);
        if (cw->empty_every && cw->get_calls % cw->empty_every == 0 && pos < s->n) {
            char tok[64];
            snprintf(tok, sizeof tok, "f/%zu/e%d", pos, cw->get_calls);
            out->next_forward_token = strdup(tok);
            out->next_backward_token = strdup("b/0");
            return 0;
        }
    } else if (p->start_time) {
        while (pos < s->n && s->ev[pos].ts < p->start_time)
            pos++;
    }
    size_t limit = p->limit > 0 ? (size_t)p->limit : 10000;
    size_t end = pos + limit < s->n ? pos + limit : s->n;
    if (end > pos) {
        out->items = calloc(end - pos, sizeof *out->items);
        for (size_t k = pos; k < end; k++) {
            byoc_logs_event *e = &out->items[out->len++];
            e->timestamp = s->ev[k].ts;
            e->message = strdup(s->ev[k].msg);
            e->message_len = strlen(e->message);
        }
        if (out->len > cw->largest_page)
            cw->largest_page = out->len;
        char tok[64];
        snprintf(tok, sizeof tok, "f/%zu", end);
        out->next_forward_token = strdup(tok);
    } else if (p->next_token) {
        out->next_forward_token = strdup(p->next_token); /* the end: the same token back */
    } else {
        char tok[64];
        snprintf(tok, sizeof tok, "f/%zu", pos);
        out->next_forward_token = strdup(tok);
    }
    out->next_backward_token = strdup("b/0");
    return 0;
}

/* ---- what the tail delivers ---------------------------------------------------- */

typedef struct got_line {
    int64_t ts;
    char instance[32];
    char msg[128];
} got_line;

typedef struct got {
    got_line *v;
    size_t n, cap;
} got;

static void collect(const byoc_log_line *l, void *ud)
{
    got *g = ud;
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        g->v = realloc(g->v, g->cap * sizeof *g->v);
    }
    got_line *x = &g->v[g->n++];
    x->ts = l->timestamp_ms;
    snprintf(x->instance, sizeof x->instance, "%s", l->instance);
    snprintf(x->msg, sizeof x->msg, "%.*s", (int)l->len, l->message);
}

static byoc_logtail *new_tail(fake_cw *cw, int expected, int page_limit, int max_pages)
{
    byoc_logtail_fetch f = {.describe = fake_describe, .get_events = fake_get, .ud = cw};
    byoc_logtail_opts o = {.prefix = "job-a/", .expected_streams = expected, .page_limit = page_limit,
                           .max_pages_per_round = max_pages};
    return byoc_logtail_new(&f, &o);
}

static int poll(byoc_logtail *tl, bool final, got *g, byoc_log_round *r)
{
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_logtail_poll(tl, NULL, final, collect, g, r, &err);
    if (rc)
        fprintf(stderr, "poll: %s\n", err.message);
    return rc;
}

/* Every message "<stream>:<n>" for n in [0, count) appears exactly once, in order per stream. */
static void check_exactly_once(const got *g, const char *instance, int count)
{
    int next = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (strcmp(g->v[i].instance, instance) != 0)
            continue;
        char want[64];
        snprintf(want, sizeof want, "%s:%d", instance, next);
        if (strcmp(g->v[i].msg, want) != 0) {
            check_fail(__FILE__, __LINE__, "%s: line %zu is [%s], want [%s]", instance, i, g->v[i].msg, want);
            return;
        }
        next++;
    }
    CHECK_INT(next, count);
}

static void put_lines(fake_stream *s, const char *instance, int from, int to, int64_t t0, int step)
{
    char msg[64];
    for (int i = from; i < to; i++) {
        if ((size_t)snprintf(msg, sizeof msg, "%s:%d\n", instance, i) >= sizeof msg)
            abort();
        fake_put(s, t0 + (int64_t)i * step, msg);
    }
}

/* ---- tests ---------------------------------------------------------------------- */

static void test_single_stream_pages(void)
{
    fake_cw cw = {0};
    fake_stream *s = fake_add_stream(&cw, "job-a/uuid-1/algo-1-1700000000", true);
    put_lines(s, "algo-1", 0, 25, 1000, 10);
    byoc_logtail *tl = new_tail(&cw, 1, 10, 0);
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 25);
    CHECK_INT(r.streams, 1);
    CHECK(!r.more);
    check_exactly_once(&g, "algo-1", 25);
    CHECK_INT(g.v[0].ts, 1000);
    CHECK(cw.largest_page <= 10);
    /* nothing new: no lines, still no error */
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 0);
    /* more arrives: exactly the new lines */
    put_lines(s, "algo-1", 25, 40, 1000, 10);
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 15);
    check_exactly_once(&g, "algo-1", 40);
    CHECK_STR(byoc_logtail_stream_instance(tl, 0), "algo-1");
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_merge_two_streams(void)
{
    fake_cw cw = {0};
    fake_stream *a = fake_add_stream(&cw, "job-a/algo-1-1700000000", true);
    fake_stream *b = fake_add_stream(&cw, "job-a/algo-2-1700000001", true);
    put_lines(a, "algo-1", 0, 30, 1000, 20); /* 1000, 1020, ... */
    put_lines(b, "algo-2", 0, 30, 1010, 20); /* 1010, 1030, ... */
    byoc_logtail *tl = new_tail(&cw, 2, 7, 0);
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 60);
    for (size_t i = 1; i < g.n; i++)
        if (g.v[i].ts < g.v[i - 1].ts)
            check_fail(__FILE__, __LINE__, "out of order at %zu", i);
    CHECK_STR(g.v[0].instance, "algo-1");
    CHECK_STR(g.v[1].instance, "algo-2");
    check_exactly_once(&g, "algo-1", 30);
    check_exactly_once(&g, "algo-2", 30);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_empty_pages_mid_stream(void)
{
    fake_cw cw = {.empty_every = 3};
    fake_stream *s = fake_add_stream(&cw, "job-a/algo-1", true);
    put_lines(s, "algo-1", 0, 100, 5000, 1);
    byoc_logtail *tl = new_tail(&cw, 1, 8, 0);
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    check_exactly_once(&g, "algo-1", 100);
    byoc_logtail_stats st;
    byoc_logtail_stats_get(tl, &st);
    CHECK(st.empty_pages > 0);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_late_stream(void)
{
    fake_cw cw = {0};
    fake_stream *a = fake_add_stream(&cw, "job-a/algo-1", true);
    fake_stream *b = fake_add_stream(&cw, "job-a/algo-2", false);
    fake_add_stream(&cw, "job-b/algo-1", true); /* another job: never read */
    put_lines(a, "algo-1", 0, 10, 100, 10);
    put_lines(b, "algo-2", 0, 10, 105, 10);
    byoc_logtail *tl = new_tail(&cw, 1, 4, 0); /* one instance expected: a second is a surprise */
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 10);
    b->visible = true;
    put_lines(a, "algo-1", 10, 12, 100, 10);
    /* rounds without a look find nothing new in algo-2; the periodic look (every 5) does */
    for (int i = 0; i < 5; i++)
        CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(byoc_logtail_stream_count(tl), 2);
    check_exactly_once(&g, "algo-1", 12);
    check_exactly_once(&g, "algo-2", 10);
    /* a stream appearing just before the end is caught by the final look */
    fake_stream *c = fake_add_stream(&cw, "job-a/algo-3", true);
    put_lines(c, "algo-3", 0, 3, 50, 1);
    CHECK_INT(poll(tl, true, &g, &r), 0);
    check_exactly_once(&g, "algo-3", 3);
    CHECK_INT(g.n, 25);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_refused_token_no_repeats(void)
{
    fake_cw cw = {0};
    fake_stream *s = fake_add_stream(&cw, "job-a/algo-1", true);
    /* several lines share a millisecond, across the point where the token is refused */
    char msg[64];
    for (int i = 0; i < 12; i++) {
        snprintf(msg, sizeof msg, "algo-1:%d", i);
        fake_put(s, 1000 + i / 4, msg); /* 4 lines per ms */
    }
    byoc_logtail *tl = new_tail(&cw, 1, 6, 0); /* the first page ends mid-millisecond */
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    for (int i = 12; i < 20; i++) {
        snprintf(msg, sizeof msg, "algo-1:%d", i);
        fake_put(s, 1000 + i / 4, msg);
    }
    cw.refuse_call = cw.get_calls + 1; /* the next call with a token is refused */
    CHECK_INT(poll(tl, false, &g, &r), 0);
    check_exactly_once(&g, "algo-1", 20);
    byoc_logtail_stats st;
    byoc_logtail_stats_get(tl, &st);
    CHECK_INT(st.token_restarts, 1);
    CHECK(st.skipped_repeats > 0);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_round_budget(void)
{
    fake_cw cw = {0};
    fake_stream *s = fake_add_stream(&cw, "job-a/algo-1", true);
    put_lines(s, "algo-1", 0, 50, 1, 1);
    byoc_logtail *tl = new_tail(&cw, 1, 5, 3); /* 3 pages of 5 per round */
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 15);
    CHECK(r.more);
    int rounds = 1;
    while (r.more && rounds < 20) {
        CHECK_INT(poll(tl, false, &g, &r), 0);
        rounds++;
    }
    CHECK(!r.more);
    check_exactly_once(&g, "algo-1", 50);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_round_budget_keeps_order(void)
{
    fake_cw cw = {0};
    fake_stream *a = fake_add_stream(&cw, "job-a/algo-1", true);
    fake_stream *b = fake_add_stream(&cw, "job-a/algo-2", true);
    put_lines(a, "algo-1", 0, 40, 1000, 2);
    put_lines(b, "algo-2", 0, 40, 1001, 2);
    byoc_logtail *tl = new_tail(&cw, 2, 3, 2); /* 2 pages of 3 per stream and round */
    got g = {0};
    byoc_log_round r;
    int rounds = 0;
    do {
        CHECK_INT(poll(tl, false, &g, &r), 0);
    } while (r.more && ++rounds < 100);
    CHECK(rounds > 5);
    CHECK_INT(g.n, 80);
    for (size_t i = 1; i < g.n; i++)
        if (g.v[i].ts < g.v[i - 1].ts)
            check_fail(__FILE__, __LINE__, "out of order at %zu across rounds", i);
    check_exactly_once(&g, "algo-1", 40);
    check_exactly_once(&g, "algo-2", 40);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_missing_group_and_vanished_stream(void)
{
    fake_cw cw = {.group_missing = true};
    byoc_logtail *tl = new_tail(&cw, 1, 0, 0);
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0); /* no group yet: nothing, no error */
    CHECK_INT(r.streams, 0);
    cw.group_missing = false;
    fake_stream *s = fake_add_stream(&cw, "job-a/algo-1", true);
    put_lines(s, "algo-1", 0, 3, 1, 1);
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.lines, 3);
    s->gone = true;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    byoc_logtail_stats st;
    byoc_logtail_stats_get(tl, &st);
    CHECK_INT(st.lost_streams, 1);
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_describe_paging(void)
{
    fake_cw cw = {.describe_limit = 2};
    char name[64];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "job-a/algo-%d", i + 1);
        fake_stream *s = fake_add_stream(&cw, name, true);
        snprintf(name, sizeof name, "algo-%d", i + 1);
        put_lines(s, name, 0, 2, 10 + i, 100);
    }
    byoc_logtail *tl = new_tail(&cw, 5, 0, 0);
    got g = {0};
    byoc_log_round r;
    CHECK_INT(poll(tl, false, &g, &r), 0);
    CHECK_INT(r.streams, 5);
    CHECK_INT(r.lines, 10);
    CHECK_STR(g.v[4].instance, "algo-5");
    free(g.v);
    byoc_logtail_free(tl);
    fake_free(&cw);
}

static void test_names_and_format(void)
{
    char tag[64];
    byoc_logtail_instance_tag("job/0d5a-11/algo-1-1700000000", tag, sizeof tag);
    CHECK_STR(tag, "algo-1");
    byoc_logtail_instance_tag("job/algo-12", tag, sizeof tag);
    CHECK_STR(tag, "algo-12");
    byoc_logtail_instance_tag("plain", tag, sizeof tag);
    CHECK_STR(tag, "plain");
    byoc_logtail_instance_tag("job/1700000000", tag, sizeof tag);
    CHECK_STR(tag, "1700000000");
    char *p = byoc_logtail_job_prefix("my-job");
    CHECK_STR(p, "my-job/");
    free(p);

    byoc_log_line l = {.timestamp_ms = 1700000000123, .instance = "algo-2", .message = "hello\nrest", .len = 5};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_log_line_format(&l, true, true, &b);
    CHECK_STR(byoc_buf_str(&b), "2023-11-14T22:13:20.123Z [algo-2] hello");
    byoc_buf_reset(&b);
    byoc_log_line_format(&l, false, false, &b);
    CHECK_STR(byoc_buf_str(&b), "hello");
    byoc_buf_clear(&b);
}

int main(void)
{
    test_single_stream_pages();
    test_merge_two_streams();
    test_empty_pages_mid_stream();
    test_late_stream();
    test_refused_token_no_repeats();
    test_round_budget();
    test_round_budget_keeps_order();
    test_missing_group_and_vanished_stream();
    test_describe_paging();
    test_names_and_format();
    return check_done();
}
