/* byoc status JOB: GetJob (with queue info) and the metrics the job logged;
 * a summary, or {"job_arn", "job_name", "status", "events", "failure_reason",
 * "metrics": {...}, ...} with --json. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aws/client.h"
#include "byoc/jobref.h"
#include "byoc/metrics.h"
#include "core/utf8.h"
#include "verbs.h"

static void print_metric_value(const char *label, const json_t *v)
{
    if (json_is_number(v))
        printf("  %s %-12.6g", label, json_number_value(v));
    else
        printf("  %s %-12s", label, "-");
}

static void print_summary(const byoc_job_info *j, const json_t *metrics)
{
    printf("job       %s\n", j->name);
    printf("arn       %s\n", j->arn);
    printf("status    %s", j->status);
    if (j->queue_position[0])
        printf(" (queue position %s)", j->queue_position);
    printf("\n");
    if (j->failure_reason[0]) {
        char *reason = byoc_printable_dup(j->failure_reason); /* the job's own words */
        printf("failure   %s\n", reason);
        free(reason);
    }
    if (j->device[0])
        printf("device    %s\n", j->device);
    printf("created   %s\n", j->created);
    if (j->started[0])
        printf("started   %s\n", j->started);
    if (j->ended[0])
        printf("ended     %s\n", j->ended);
    if (json_array_size(j->events)) {
        printf("events\n");
        size_t i;
        json_t *e;
        json_array_foreach(j->events, i, e)
        {
            char *time = byoc_printable_dup(json_string_value(json_object_get(e, "timeOfEvent")));
            char *type = byoc_printable_dup(json_string_value(json_object_get(e, "eventType")));
            char *msg = byoc_printable_dup(json_string_value(json_object_get(e, "message")));
            printf("  %-28s %-24s %s\n", time, type, msg);
            free(time);
            free(type);
            free(msg);
        }
    }
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

int verb_status(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        return byoc_cli_usage(err, "status", "unknown flag '%s' (see byoc status --help)", argv[optind - 1]);
    if (argc - optind != 1)
        return byoc_cli_usage(err, "status", "takes one JOB (a job ARN or name)");
    byoc_aws_client *client;
    char *arn;
    if (byoc_jobref_open(g->profile, g->region, argv[optind], NULL, &client, &arn, err) != 0)
        return byoc_err_exit_code(err->kind);
    byoc_job_info job;
    int rc = byoc_job_get(client, NULL, arn, &job, err);
    free(arn);
    if (rc != 0) {
        byoc_aws_client_free(client);
        return byoc_err_exit_code(err->kind);
    }
    /* Metrics come from the job's log; a log we cannot read does not hide the status. */
    byoc_metrics *m = byoc_metrics_new(0, 0);
    byoc_err merr;
    byoc_err_clear(&merr);
    if (byoc_metrics_load_cwl(client, NULL, job.name, 0, m, NULL, &merr) != 0) {
        char line[1024];
        fprintf(stderr, "byoc: warning: metrics not read: %s\n", byoc_err_format(&merr, line, sizeof line));
    }
    json_t *metrics = byoc_metrics_summary_json(m);
    byoc_metrics_free(m);
    byoc_aws_client_free(client);
    if (g->json) {
        byoc_cli_print_json(byoc_job_status_json(&job, metrics));
    } else {
        print_summary(&job, metrics);
        json_decref(metrics);
    }
    byoc_job_info_free(&job);
    return 0;
}
