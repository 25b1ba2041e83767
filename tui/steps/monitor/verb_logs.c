/* byoc logs JOB [--follow]: the job's log from CloudWatch (all its instances
 * merged by time, "[algo-N] " before each line when it has several), as
 * text. --follow keeps reading until the job ends; then exit 1 if it ended
 * FAILED or CANCELLED. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/braket.h"
#include "aws/client.h"
#include "byoc/jobref.h"
#include "byoc/localjobs.h"
#include "byoc/logfile.h"
#include "byoc/logtail.h"
#include "byoc/poller.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "verbs.h"

typedef struct printer {
    bool tag;             /* the job has several instances */
    bool follow;          /* flush each round */
    bool terminal;        /* stdout is a terminal: lines go through the printable pass */
    byoc_buf line;
} printer;

static void print_line(const byoc_log_line *l, void *ud)
{
    printer *p = ud;
    byoc_buf_reset(&p->line);
    byoc_log_line_format(l, p->tag, false, &p->line);
    /* The job's own text: kept exact for a file or pipe, but on a terminal its
     * escape sequences could retitle, clear or write the clipboard. */
    if (p->terminal && p->line.len)
        p->line.len = byoc_printable_inplace(p->line.data);
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
    byoc_job_info_clear(&shown);
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
        byoc_job_info_clear(&shown);
    }
    return 0;
}

/* A local job: its log.txt, as `byoc run --local` writes it. --follow reads
 * on until the record says the job ended. */
static int local_logs(const char *ref, printer *p, byoc_err *err)
{
    byoc_local_job job;
    if (byoc_localjobs_get(NULL, ref, &job, err) != 0)
        return -1;
    char *path = byoc_local_job_log_path(&job);
    byoc_log_source *src = path ? byoc_log_source_file(path) : NULL;
    free(path);
    byoc_localjobs_stamp stamp = {0};
    int rc = 0;
    for (;;) {
        const char *failure;
        const char *status = byoc_local_job_shown_status(&job, &failure);
        bool ended = !status || strcmp(status, "RUNNING") != 0;
        byoc_log_round r = {0};
        do
            rc = src ? byoc_log_source_poll(src, NULL, ended || !p->follow, print_line, p, &r, err) : 0;
        while (rc == 0 && r.more);
        if (rc != 0)
            break;
        if (!p->follow || ended) {
            if (r.streams == 0 && !p->follow)
                fprintf(stderr, "byoc: %s: no log yet (the job is %s)\n", job.name, status ? status : "?");
            if (p->follow && byoc_braket_status_failed(status))
                rc = failure ? byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s: %s", job.name, status, failure)
                             : byoc_err_set(err, BYOC_E_FAILED, "logs", "job %s ended %s", job.name, status);
            break;
        }
        fflush(stdout);
        sleep(1);
        byoc_local_jobs l = {0};
        int loaded = byoc_localjobs_load_changed(NULL, &stamp, &l, err);
        if (loaded < 0) {
            rc = -1;
            break;
        }
        const byoc_local_job *now = loaded == 0 ? byoc_localjobs_find(&l, ref) : NULL;
        if (now) {
            byoc_local_job_clear(&job);
            byoc_local_job_copy(&job, now);
        }
        byoc_local_jobs_clear(&l);
    }
    byoc_log_source_free(src);
    byoc_local_job_clear(&job);
    return rc;
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
    if (byoc_local_job_is_ref(argv[optind])) {
        printer lp = {.follow = follow, .terminal = isatty(STDOUT_FILENO) == 1};
        int lrc = local_logs(argv[optind], &lp, err);
        fflush(stdout);
        byoc_buf_clear(&lp.line);
        return lrc == 0 ? 0 : byoc_err_exit_code(err->kind);
    }
    byoc_aws_client *client;
    char *arn;
    if (byoc_jobref_open(g->profile, g->region, argv[optind], NULL, &client, &arn, err) != 0)
        return byoc_err_exit_code(err->kind);
    byoc_job_info job;
    int rc = byoc_job_get(client, NULL, arn, &job, err);
    printer p = {.tag = rc == 0 && job.instance_count > 1, .follow = follow, .terminal = isatty(STDOUT_FILENO) == 1};
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
        byoc_job_info_clear(&final);
    }
    fflush(stdout);
    byoc_buf_clear(&p.line);
    byoc_log_source_free(src);
    byoc_job_info_clear(&job);
    byoc_aws_client_free(client);
    free(arn);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
