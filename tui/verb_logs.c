/* byoc logs JOB [--follow]: the job's log from CloudWatch (all its instances
 * merged by time, "[algo-N] " before each line when it has several), as
 * text. --follow keeps reading until the job ends; then exit 1 if it ended
 * FAILED or CANCELLED. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "byoc/jobref.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"
#include "core/buf.h"
#include "verbs.h"

typedef struct printer {
    bool tag;             /* the job has several instances */
    bool follow;          /* flush each round */
    byoc_buf line;
} printer;

static void print_line(const byoc_log_line *l, void *ud)
{
    printer *p = ud;
    byoc_buf_reset(&p->line);
    byoc_log_line_format(l, p->tag, false, &p->line);
    byoc_buf_putc(&p->line, '\n');
    fwrite(p->line.data, 1, p->line.len, stdout);
    if (p->follow)
        fflush(stdout);
}

static void on_job(const byoc_job_info *job, bool changed, void *ud)
{
    printer *p = ud;
    p->tag = job->instance_count > 1;
    if (!changed)
        return;
    byoc_job_info shown;
    byoc_job_info_printable(&shown, job);
    fprintf(stderr, "byoc: %s: %s%s%s\n", shown.name, shown.status, shown.queue_position[0] ? ", queue position " : "",
            shown.queue_position);
    byoc_job_info_free(&shown);
}

/* Everything there is now, with a final look for streams. */
static int read_all(byoc_log_source *src, printer *p, const byoc_job_info *job, byoc_err *err)
{
    byoc_log_round r;
    do {
        if (byoc_log_source_poll(src, NULL, true, print_line, p, &r, err) != 0)
            return -1;
    } while (r.more);
    if (r.streams == 0) {
        byoc_job_info shown;
        byoc_job_info_printable(&shown, job);
        fprintf(stderr, "byoc: %s: no log yet (the job is %s)\n", shown.name, shown.status);
        byoc_job_info_free(&shown);
    }
    return 0;
}

int verb_logs(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"follow", no_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    bool follow = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "f", opts, NULL)) != -1) {
        if (c == 'f')
            follow = true;
        else
            return byoc_cli_usage(err, "logs", "unknown flag '%s' (see byoc logs --help)", argv[optind - 1]);
    }
    if (argc - optind != 1)
        return byoc_cli_usage(err, "logs", "takes one JOB (a job ARN or name)");
    byoc_aws_client *client;
    char *arn;
    if (byoc_jobref_open(g->profile, g->region, argv[optind], NULL, &client, &arn, err) != 0)
        return byoc_err_exit_code(err->kind);
    byoc_job_info job;
    int rc = byoc_job_get(client, NULL, arn, &job, err);
    printer p = {.tag = rc == 0 && job.instance_count > 1, .follow = follow};
    byoc_log_source *src = rc == 0 ? byoc_log_source_cwl(client, job.name, job.instance_count) : NULL;
    if (rc == 0 && !follow) {
        rc = read_all(src, &p, &job, err);
    } else if (rc == 0) {
        byoc_job_watch w = {.job_arn = arn, .logs = src, .on_job = on_job, .on_line = print_line, .ud = &p};
        byoc_job_info final;
        rc = byoc_job_watch_run(client, NULL, &w, &final, err);
        if (rc == 0 && byoc_braket_status_failed(final.status)) {
            if (final.failure_reason[0])
                byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s: %s", final.name, final.status,
                             final.failure_reason);
            else
                byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s", final.name, final.status);
            rc = -1;
        }
        byoc_job_info_free(&final);
    }
    fflush(stdout);
    byoc_buf_free(&p.line);
    byoc_log_source_free(src);
    byoc_job_info_free(&job);
    byoc_aws_client_free(client);
    free(arn);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
