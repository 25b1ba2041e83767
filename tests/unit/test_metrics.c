/* metrics: parity with the Braket SDK's parser (fixture made by
 * tests/fixtures/logs/gen_metrics_cases.py from the SDK's rules), Python
 * float() syntax, and the bounded per-metric store. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/metrics.h"
#include "check.h"

static bool same_number(double got, const json_t *want)
{
    if (json_is_string(want)) {
        const char *s = json_string_value(want);
        if (strcmp(s, "nan") == 0)
            return isnan(got);
        if (strcmp(s, "inf") == 0)
            return isinf(got) && got > 0;
        if (strcmp(s, "-inf") == 0)
            return isinf(got) && got < 0;
        return false;
    }
    double w = json_number_value(want);
    return got == w || fabs(got - w) <= 1e-9 * fabs(w);
}

static bool is_axis(const char *k)
{
    return strcmp(k, "timestamp") == 0 || strcmp(k, "iteration_number") == 0 || strcmp(k, "node_id") == 0;
}

static void check_case(const json_t *c, int lineno)
{
    const char *msg = json_string_value(json_object_get(c, "message"));
    json_int_t ms = json_integer_value(json_object_get(c, "event_ms"));
    const json_t *want = json_object_get(c, "metrics");
    byoc_metric_record r;
    size_t n = byoc_metrics_parse(msg, strlen(msg), ms, &r);

    size_t want_pairs = 0;
    const char *k;
    json_t *v;
    if (json_is_object(want))
        json_object_foreach((json_t *)want, k, v) if (!is_axis(k)) want_pairs++;
    if (n != want_pairs)
        check_fail(__FILE__, __LINE__, "case %d [%s]: %zu pairs, want %zu", lineno, msg, n, want_pairs);
    else
        check_passed++;
    if (!want_pairs)
        return;
    json_object_foreach((json_t *)want, k, v) {
        if (is_axis(k))
            continue;
        bool found = false;
        for (size_t i = 0; i < r.count; i++)
            if (strcmp(r.pairs[i].name, k) == 0) {
                found = same_number(r.pairs[i].value, v);
                break;
            }
        if (!found)
            check_fail(__FILE__, __LINE__, "case %d [%s]: metric %s wrong or missing", lineno, msg, k);
        else
            check_passed++;
    }
    /* the SDK falls back to the event time in ms; byoc stores seconds */
    const json_t *ts = json_object_get(want, "timestamp");
    if (ts) {
        bool from_event = !strstr(msg, "timestamp=") || json_integer_value(ts) == ms;
        double want_ts = from_event && json_is_integer(ts) ? (double)ms / 1000.0 : json_number_value(ts);
        CHECK(r.has_timestamp);
        if (!(fabs(r.timestamp - want_ts) <= 1e-9 * fabs(want_ts)))
            check_fail(__FILE__, __LINE__, "case %d: timestamp %f, want %f", lineno, r.timestamp, want_ts);
    } else {
        CHECK(!r.has_timestamp);
    }
    const json_t *it = json_object_get(want, "iteration_number");
    CHECK_INT(r.has_iteration, it != NULL);
    if (it)
        CHECK(same_number(r.iteration, it));
    const json_t *node = json_object_get(c, "node");
    CHECK_INT(r.has_node, json_is_string(node));
    if (json_is_string(node))
        CHECK_STR(r.node, json_string_value(node));
}

static void test_sdk_parity(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fixtures/logs/metrics_cases.txt", check_source_dir());
    char *text = check_read_file(path, NULL);
    CHECK(text != NULL);
    if (!text)
        return;
    int lineno = 0, cases = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        lineno++;
        json_error_t je;
        json_t *c = json_loads(line, 0, &je);
        CHECK(c != NULL);
        if (!c)
            continue;
        check_case(c, lineno);
        cases++;
        json_decref(c);
    }
    CHECK(cases >= 30);
    free(text);
}

static void test_floats(void)
{
    double v;
    CHECK_INT(byoc_metrics_parse_float(" 1_000 ", 7, &v), 0);
    CHECK(v == 1000.0);
    CHECK_INT(byoc_metrics_parse_float("1e-3", 4, &v), 0);
    CHECK(v == 0.001);
    CHECK_INT(byoc_metrics_parse_float("-.5", 3, &v), 0);
    CHECK(v == -0.5);
    CHECK_INT(byoc_metrics_parse_float("INFINITY", 8, &v), 0);
    CHECK(isinf(v));
    const char *bad[] = {"", " ", ".", "1_", "_1", "1__0", "0x1p3", "1e", "e5", "1.2.3", "+-1", "infinit", "1 2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        if (byoc_metrics_parse_float(bad[i], strlen(bad[i]), &v) == 0)
            check_fail(__FILE__, __LINE__, "'%s' read as a float", bad[i]);
        else
            check_passed++;
    CHECK(byoc_metrics_is_metrics_line("x Metrics - a=1;"));
    CHECK(!byoc_metrics_is_metrics_line("Metrics: a=1;"));
}

static void test_store_bounded(void)
{
    byoc_metrics *m = byoc_metrics_new(2, 8);
    char line[128];
    for (int i = 0; i < 100; i++) {
        snprintf(line, sizeof line, "Metrics - timestamp=%d; loss=%d; iteration_number=%d;", 1000 + i, 100 - i, i);
        CHECK_INT(byoc_metrics_feed(m, line, strlen(line), 0), 1);
    }
    CHECK_INT(byoc_metrics_feed(m, "plain text a=1;", 15, 0), 0);
    const byoc_metric_series *s = byoc_metrics_find(m, "loss");
    CHECK(s != NULL);
    CHECK_INT(s->count, 100);
    CHECK(s->min == 1.0 && s->max == 100.0 && s->last == 1.0);
    CHECK(s->last_iteration == 99.0 && s->last_timestamp == 1099.0);
    CHECK(s->npoints <= 8 && s->npoints >= 4);
    /* points are evenly spread: value index = k * stride, from the first value on */
    for (size_t k = 0; k < s->npoints; k++)
        CHECK(s->points[k].iteration == (double)(k * s->stride));
    CHECK(s->stride >= 16);

    const char *two = "[n1] Metrics - a=1; b=2; c=3;";
    CHECK_INT(byoc_metrics_feed(m, two, strlen(two), 5000), 3);
    CHECK_INT(byoc_metrics_count(m), 2);     /* loss and a; b and c are beyond max_series */
    CHECK_INT(byoc_metrics_dropped(m), 2);
    const byoc_metric_series *a = byoc_metrics_find(m, "a");
    CHECK(a && a->points[0].node == 0);
    CHECK_STR(byoc_metrics_node(m, 0), "n1");
    CHECK(a && a->last_timestamp == 5.0);
    CHECK(isnan(a->last_iteration));

    json_t *j = byoc_metrics_json(m, 0);
    CHECK(json_object_size(j) == 2);
    CHECK(json_real_value(json_object_get(json_object_get(j, "loss"), "last")) == 1.0);
    CHECK(json_integer_value(json_object_get(json_object_get(j, "loss"), "count")) == 100);
    CHECK(json_object_get(json_object_get(j, "a"), "iteration") == NULL);
    json_decref(j);
    byoc_metrics_free(m);
}

static void test_non_finite_summary(void)
{
    byoc_metrics *m = byoc_metrics_new(0, 0);
    const char *l = "Metrics - x=nan;";
    byoc_metrics_feed(m, l, strlen(l), 1);
    json_t *j = byoc_metrics_json(m, 0);
    json_t *x = json_object_get(j, "x");
    CHECK(json_is_null(json_object_get(x, "last")));
    CHECK(json_is_null(json_object_get(x, "min")));
    char *text = json_dumps(j, 0);
    CHECK(text != NULL); /* valid JSON: no NaN literals */
    free(text);
    json_decref(j);
    byoc_metrics_free(m);
}

static void test_series_json(void)
{
    /* a short run: every point, oldest first, null where the line had no iteration or a NaN value */
    byoc_metrics *m = byoc_metrics_new(0, 0);
    const char *lines[] = {"Metrics - timestamp=100; loss=0.5; iteration_number=1;",
                           "Metrics - timestamp=102.5; loss=nan; iteration_number=2;",
                           "Metrics - timestamp=105; loss=0.25;"};
    for (size_t i = 0; i < 3; i++)
        byoc_metrics_feed(m, lines[i], strlen(lines[i]), 1);
    json_t *j = byoc_metrics_json(m, BYOC_METRICS_SERIES_MAX);
    json_t *loss = json_object_get(j, "loss");
    CHECK(json_integer_value(json_object_get(loss, "count")) == 3);        /* the summary's keys stay */
    CHECK(json_real_value(json_object_get(loss, "last")) == 0.25);
    json_t *series = json_object_get(loss, "series");
    json_t *pts = json_object_get(series, "points");
    CHECK_INT((int)json_array_size(pts), 3);
    CHECK_INT((int)json_integer_value(json_object_get(series, "count")), 3);
    CHECK(json_is_false(json_object_get(series, "truncated")));
    CHECK_INT((int)json_integer_value(json_object_get(series, "stride")), 1);
    json_t *p0 = json_array_get(pts, 0), *p1 = json_array_get(pts, 1), *p2 = json_array_get(pts, 2);
    CHECK(json_real_value(json_object_get(p0, "timestamp")) == 100);
    CHECK(json_real_value(json_object_get(p0, "iteration")) == 1);
    CHECK(json_real_value(json_object_get(p0, "value")) == 0.5);
    CHECK(json_is_null(json_object_get(p1, "value")));
    CHECK(json_real_value(json_object_get(p1, "timestamp")) == 102.5);
    CHECK(json_is_null(json_object_get(p2, "iteration")));
    char *text = json_dumps(j, 0);
    CHECK(text != NULL);   /* valid JSON: no NaN literals */
    free(text);
    json_decref(j);
    /* the summary alone has no series */
    j = byoc_metrics_json(m, 0);
    CHECK(json_object_get(json_object_get(j, "loss"), "series") == NULL);
    json_decref(j);
    byoc_metrics_free(m);

    /* a long run: the last 1,000 points, marked truncated */
    m = byoc_metrics_new(0, 0);
    for (int i = 0; i < 1500; i++) {
        char line[96];
        snprintf(line, sizeof line, "Metrics - timestamp=%d; x=%d; iteration_number=%d;", 1000 + i, i, i);
        byoc_metrics_feed(m, line, strlen(line), 1);
    }
    j = byoc_metrics_json(m, BYOC_METRICS_SERIES_MAX);
    series = json_object_get(json_object_get(j, "x"), "series");
    pts = json_object_get(series, "points");
    CHECK_INT((int)json_array_size(pts), 1000);
    CHECK_INT((int)json_integer_value(json_object_get(series, "count")), 1000);
    CHECK(json_is_true(json_object_get(series, "truncated")));
    CHECK(json_real_value(json_object_get(json_array_get(pts, 0), "value")) == 500);
    CHECK(json_real_value(json_object_get(json_array_get(pts, 999), "value")) == 1499);
    CHECK(json_integer_value(json_object_get(json_object_get(j, "x"), "count")) == 1500);
    json_decref(j);
    byoc_metrics_free(m);

    /* thinned by the store (every other value kept): truncated, with the stride */
    m = byoc_metrics_new(0, 4);
    for (int i = 0; i < 6; i++) {
        char line[64];
        snprintf(line, sizeof line, "Metrics - y=%d;", i);
        byoc_metrics_feed(m, line, strlen(line), 1000 + i);
    }
    j = byoc_metrics_json(m, BYOC_METRICS_SERIES_MAX);
    series = json_object_get(json_object_get(j, "y"), "series");
    CHECK(json_is_true(json_object_get(series, "truncated")));
    CHECK_INT((int)json_integer_value(json_object_get(series, "stride")), 2);
    CHECK_INT((int)json_array_size(json_object_get(series, "points")), 3);
    json_decref(j);
    byoc_metrics_free(m);
}

int main(void)
{
    test_sdk_parity();
    test_floats();
    test_store_bounded();
    test_non_finite_summary();
    test_series_json();
    return check_done();
}
