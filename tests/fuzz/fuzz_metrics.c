/* fuzz_metrics: "Metrics - name=value;" lines (byoc/metrics.h) into the
 * bounded series store, and Python float() parsing.
 * Input: log lines separated by '\n'. The store stays within its bounds and
 * min <= last <= max holds for every series with finite values. */
#include <jansson.h>
#include <math.h>

#include "byoc/metrics.h"
#include "fuzz.h"

#define MAX_SERIES 8
#define MAX_POINTS 16

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    byoc_metrics *m = byoc_metrics_new(MAX_SERIES, MAX_POINTS);
    const char *p = (const char *)data, *end = p + size;
    int64_t t = 1700000000000;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        byoc_metric_record rec;
        size_t pairs = byoc_metrics_parse(p, len, t, &rec);
        FUZZ_ASSERT(pairs == rec.count && pairs <= BYOC_METRIC_PAIRS_MAX);
        for (size_t i = 0; i < rec.count; i++)
            FUZZ_ASSERT(memchr(rec.pairs[i].name, 0, BYOC_METRIC_NAME_MAX) != NULL);
        FUZZ_ASSERT(memchr(rec.node, 0, BYOC_METRIC_NODE_MAX) != NULL);
        double d;
        byoc_metrics_parse_float(p, len, &d);
        char *line = byoc_xstrndup(p, len);
        byoc_metrics_is_metrics_line(line);
        free(line);
        byoc_metrics_feed(m, p, len, t);
        t += 1000;
        p += len + (nl ? 1 : 0);
    }
    byoc_metrics_lock(m);
    size_t n = byoc_metrics_count(m);
    FUZZ_ASSERT(n <= MAX_SERIES);
    for (size_t i = 0; i < n; i++) {
        const byoc_metric_series *s = byoc_metrics_at(m, i);
        FUZZ_ASSERT(s && s->name && s->npoints <= MAX_POINTS && s->npoints <= s->count);
        FUZZ_ASSERT(byoc_metrics_find(m, s->name) == s);
        if (s->min <= s->max && isfinite(s->last))
            FUZZ_ASSERT(s->min <= s->last && s->last <= s->max);
        for (size_t k = 0; k < s->npoints; k++)
            byoc_metrics_node(m, s->points[k].node);
    }
    byoc_metrics_unlock(m);
    json_t *j = byoc_metrics_json(m, 8);   /* the series too, cut short so the cut is exercised */
    FUZZ_ASSERT(j != NULL);
    char *dump = json_dumps(j, 0);
    FUZZ_ASSERT(dump != NULL);
    free(dump);
    json_decref(j);
    byoc_metrics_free(m);
    return 0;
}
