/* byoc jobs: the local jobs of this machine's record (local:job/<name>, as the
 * Monitor lists them), then the Hybrid Jobs of the account in the region, each
 * newest first; --local lists only the first and sends nothing. A table, or
 * {"jobs": [{"job_arn", "job_name", "status", "created", "device", "local"?}]}
 * printed page by page (a listing that fails midway ends with the error object). */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/jobs.h"
#include "cli_json.h"
#include "core/jsonprint.h"
#include "verb_jobs_call.h"
#include "verbs.h"

#define MAX_STATUSES 6

/* A local job goes by its local:job/<name>, which the other verbs take. */
static const char *shown_name(const json_t *j)
{
    return byoc_json_text(json_object_get(j, json_is_true(json_object_get(j, "local")) ? "job_arn" : "job_name"), "-");
}

/* jobs is the printable copy: every cell is outside text, any may be missing. */
static void print_table(const json_t *jobs)
{
    int wn = 4, ws = 6;
    size_t i;
    json_t *j;
    json_array_foreach(jobs, i, j)
    {
        int n = (int)strlen(shown_name(j));
        int s = (int)strlen(byoc_json_text(json_object_get(j, "status"), "-"));
        wn = n > wn ? n : wn;
        ws = s > ws ? s : ws;
    }
    printf("%-*s  %-*s  %-24s  %s\n", wn, "NAME", ws, "STATUS", "CREATED", "DEVICE");
    json_array_foreach(jobs, i, j)
    {
        printf("%-*s  %-*s  %-24s  %s\n", wn, shown_name(j), ws,
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

/* The account's jobs, on a task so that Ctrl-C stops the listing: with --json each page printed
 * into out as it comes (a stopped list still ends as a valid document), else gathered in jobs. */
typedef struct jobs_call {
    const byoc_job_query *q;
    byoc_json_list *out;
    json_t *jobs;
} jobs_call;

static int jobs_fn(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err)
{
    jobs_call *c = ud;
    if (!a->client)
        return 0;
    return c->out ? byoc_jobs_each_page(a->client, t, c->q, print_page, c->out, err)
                  : byoc_jobs_list(a->client, t, c->q, &c->jobs, err);
}

int verb_jobs(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"status", required_argument, NULL, 's'},
        {"max", required_argument, NULL, 'n'},
        {"local", no_argument, NULL, 'l'},
        {NULL, 0, NULL, 0},
    };
    bool local_only = false;
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
        case 'l':
            local_only = true;
            break;
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

    json_t *local = byoc_jobs_local_summaries(statuses, n_statuses, max, err);
    if (!local)
        return byoc_err_exit_code(err->kind);
    byoc_job_query q = {.statuses = statuses, .n_statuses = n_statuses, .max = (size_t)max};
    jobs_call call = {.q = &q};
    int rc = 0;
    if (g->json) {
        byoc_json_list out;
        byoc_json_list_begin(&out, stdout, "jobs");
        byoc_json_list_add_all(&out, local);
        call.out = &out;
        if (!local_only)
            rc = tui_jobs_verb_run(g, "jobs", NULL, jobs_fn, &call, NULL, err);
        json_t *failure = rc != 0 ? byoc_cli_error_json(err, "jobs", byoc_err_exit_code(err->kind)) : NULL;
        if (byoc_json_list_end(&out, failure))
            byoc_cli_json_printed();
        json_decref(failure);
    } else {
        if (!local_only)
            rc = tui_jobs_verb_run(g, "jobs", NULL, jobs_fn, &call, NULL, err);
        json_t *jobs = call.jobs;
        /* The local jobs show even when the account's could not be listed. */
        if (jobs)
            json_array_extend(local, jobs);
        if (rc == 0 || json_array_size(local)) {
            json_t *shown = byoc_json_printable_copy(local);
            print_table(shown);
            json_decref(shown);
        }
        json_decref(jobs);
    }
    json_decref(local);
    return rc != 0 ? byoc_err_exit_code(err->kind) : 0;
}
