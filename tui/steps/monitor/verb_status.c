/* byoc status JOB: GetJob (with queue info) and the metrics the job logged;
 * a summary, or {"job_arn", "job_name", "status", "events", "failure_reason",
 * "metrics": {...}, ...} with --json, each metric with its last points
 * (byoc_metrics_json). A local job (local:job/<name>): its record's entry and
 * the metrics of its log.txt. The document is the jobs module's
 * (byoc_jobs_status), asked on a task so that Ctrl-C cancels it; here, the
 * printing. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/jobs.h"
#include "core/jsonprint.h"
#include "verb_jobs_call.h"
#include "verbs.h"

static void print_metric_value(const char *label, const json_t *v)
{
    if (json_is_number(v))
        printf("  %s %-12.6g", label, json_number_value(v));
    else
        printf("  %s %-12s", label, "-");
}

static const char *text(const json_t *o, const char *key)
{
    return byoc_json_text(json_object_get(o, key), "");
}

/* doc is the printable copy of what --json prints: every field is outside
 * text (the metric names are the job's own), any may be missing. */
static void print_summary(const json_t *doc)
{
    printf("job       %s\n", text(doc, "job_name"));
    printf("arn       %s\n", text(doc, "job_arn"));
    printf("status    %s", text(doc, "status"));
    const char *position = text(json_object_get(doc, "queue"), "position");
    if (*position)
        printf(" (queue position %s)", position);
    printf("\n");
    if (*text(doc, "failure_reason"))
        printf("failure   %s\n", text(doc, "failure_reason"));
    if (*text(doc, "device"))
        printf("device    %s\n", text(doc, "device"));
    printf("created   %s\n", text(doc, "created"));
    if (*text(doc, "started"))
        printf("started   %s\n", text(doc, "started"));
    if (*text(doc, "ended"))
        printf("ended     %s\n", text(doc, "ended"));
    if (json_is_true(json_object_get(doc, "local"))) {
        printf("image     %s\n", text(doc, "image"));
        const json_t *code = json_object_get(doc, "exit_code");
        if (json_is_integer(code))
            printf("exit code %lld\n", (long long)json_integer_value(code));
        const json_t *first = json_object_get(doc, "first_output_seconds");
        if (json_is_number(first))
            printf("first out %.1f s after the container started\n", json_number_value(first));
        if (*text(doc, "output_dir"))
            printf("output    %s\n", text(doc, "output_dir"));
    }
    const json_t *events = json_object_get(doc, "events");
    if (json_array_size(events)) {
        printf("events\n");
        size_t i;
        json_t *e;
        json_array_foreach(events, i, e)
            printf("  %-28s %-24s %s\n", text(e, "time"), text(e, "type"), text(e, "message"));
    }
    const json_t *metrics = json_object_get(doc, "metrics");
    if (json_object_size(metrics)) {
        printf("metrics\n");
        const char *name;
        json_t *m;
        json_object_foreach((json_t *)metrics, name, m)
        {
            printf("  %-20s", name);
            print_metric_value("last", json_object_get(m, "last"));
            print_metric_value("min", json_object_get(m, "min"));
            print_metric_value("max", json_object_get(m, "max"));
            printf("  (%lld values)\n", (long long)json_integer_value(json_object_get(m, "count")));
        }
    }
}

/* doc (taken): printed as --json, or as the summary; NULL: the error in err. */
static int print_doc(const byoc_globals *g, json_t *doc, byoc_err *err)
{
    if (!doc)
        return byoc_err_exit_code(err->kind);
    if (g->json) {
        byoc_cli_print_json(doc);
    } else {
        json_t *shown = byoc_json_printable_copy(doc);
        print_summary(shown);
        json_decref(shown);
        json_decref(doc);
    }
    return 0;
}

typedef struct status_doc {
    byoc_err warn;
    json_t *doc;
} status_doc;

static int status_fn(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err)
{
    status_doc *c = ud;
    c->doc = byoc_jobs_status(a, t, &c->warn, err);
    return c->doc ? 0 : -1;
}

int verb_status(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        return byoc_cli_usage(err, "status", "unknown flag '%s' (see byoc status --help)", argv[optind - 1]);
    if (argc - optind != 1)
        return byoc_cli_usage(err, "status", "takes one JOB (a job ARN or name)");
    status_doc call = {.doc = NULL};
    byoc_err_clear(&call.warn);
    tui_jobs_verb_run(g, "status", argv[optind], status_fn, &call, NULL, err);
    if (call.warn.kind != BYOC_OK) {
        char line[1024];
        fprintf(stderr, "byoc: warning: metrics not read: %s\n", byoc_err_format(&call.warn, line, sizeof line));
    }
    return print_doc(g, call.doc, err);
}
