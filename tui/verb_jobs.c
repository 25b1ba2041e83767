/* byoc jobs: the Hybrid Jobs of the account in the region, newest first; a
 * table, or {"jobs": [{"job_arn", "job_name", "status", "created", "device"}]}
 * printed page by page (a listing that fails midway ends with the error object). */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "aws/client.h"
#include "byoc/jobref.h"
#include "cli_json.h"
#include "core/jsonprint.h"
#include "verbs.h"

#define MAX_STATUSES 6

/* jobs is the printable copy: every cell is outside text, any may be missing. */
static void print_table(const json_t *jobs)
{
    int wn = 4, ws = 6;
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j)
    {
        int n = (int)strlen(byoc_json_text(json_object_get(j, "job_name"), "-"));
        int s = (int)strlen(byoc_json_text(json_object_get(j, "status"), "-"));
        wn = n > wn ? n : wn;
        ws = s > ws ? s : ws;
    }
    printf("%-*s  %-*s  %-24s  %s\n", wn, "NAME", ws, "STATUS", "CREATED", "DEVICE");
    json_array_foreach(jobs, i, j)
    {
        printf("%-*s  %-*s  %-24s  %s\n", wn, byoc_json_text(json_object_get(j, "job_name"), "-"), ws,
               byoc_json_text(json_object_get(j, "status"), "-"), byoc_json_text(json_object_get(j, "created"), ""),
               byoc_json_text(json_object_get(j, "device"), ""));
    }
}

/* --json goes out a page at a time as SearchJobs pages arrive (cli_json.h). */
static int print_page(const json_t *summaries, void *ud, byoc_err *err)
{
    (void)err;
    byoc_json_list_add_all(ud, summaries);
    return 0;
}

int verb_jobs(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"status", required_argument, NULL, 's'},
        {"max", required_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    char status_buf[MAX_STATUSES][16];
    const char *statuses[MAX_STATUSES];
    size_t n_statuses = 0;
    long max = 100;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's': {
            char up[16];
            size_t k = 0;
            for (; optarg[k] && k + 1 < sizeof up; k++)
                up[k] = (char)toupper((unsigned char)optarg[k]);
            up[k] = '\0';
            if (!byoc_job_status_valid(up) || optarg[k])
                return byoc_cli_usage(err, "--status",
                                      "'%s' is not a job status (QUEUED, RUNNING, COMPLETED, FAILED, CANCELLING, "
                                      "CANCELLED)",
                                      optarg);
            bool dup = false;
            for (size_t i = 0; i < n_statuses; i++)
                dup |= strcmp(statuses[i], up) == 0;
            if (!dup) {
                snprintf(status_buf[n_statuses], sizeof status_buf[n_statuses], "%s", up);
                statuses[n_statuses] = status_buf[n_statuses];
                n_statuses++;
            }
            break;
        }
        case 'n': {
            char *end;
            max = strtol(optarg, &end, 10);
            if (*end || end == optarg || max < 1 || max > 100000)
                return byoc_cli_usage(err, "--max", "'%s' is not a number from 1 to 100000", optarg);
            break;
        }
        default:
            return byoc_cli_usage(err, "jobs", "unknown or incomplete flag '%s' (see byoc jobs --help)",
                                  argv[optind - 1]);
        }
    }
    if (optind < argc)
        return byoc_cli_usage(err, "jobs", "takes no arguments (got '%s')", argv[optind]);

    byoc_aws_client *client;
    byoc_aws_config_opts o = {.profile = g->profile, .region = g->region};
    if (byoc_aws_client_new(&o, &client, err) != 0)
        return byoc_err_exit_code(err->kind);
    byoc_job_query q = {.statuses = statuses, .n_statuses = n_statuses, .max = (size_t)max};
    int rc;
    if (g->json) {
        byoc_json_list out;
        byoc_json_list_begin(&out, stdout, "jobs");
        rc = byoc_jobs_each_page(client, NULL, &q, print_page, &out, err);
        json_t *failure = rc != 0 ? byoc_cli_error_json(err, "jobs", byoc_err_exit_code(err->kind)) : NULL;
        if (byoc_json_list_end(&out, failure))
            byoc_cli_json_printed();
        json_decref(failure);
    } else {
        json_t *jobs;
        rc = byoc_jobs_list(client, NULL, &q, &jobs, err);
        if (rc == 0) {
            json_t *shown = byoc_json_printable_copy(jobs);
            print_table(shown);
            json_decref(shown);
            json_decref(jobs);
        }
    }
    byoc_aws_client_free(client);
    return rc != 0 ? byoc_err_exit_code(err->kind) : 0;
}
