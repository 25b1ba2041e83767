/* byoc logs JOB [--follow]: the job's log from CloudWatch (all its instances
 * merged by time, "[algo-N] " before each line when it has several), as
 * text; a local job's (local:job/<name>) log.txt. --follow keeps reading
 * until the job ends; then exit 1 if it ended FAILED or CANCELLED. The
 * reading is the jobs module's (byoc_jobs_logs), on a task so that Ctrl-C
 * stops it (what was printed stays flushed); here, the printing. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byoc/jobs.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "verb_jobs_call.h"
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

static void on_no_log(const char *name, const char *status, void *ud)
{
    (void)ud;
    char *n = byoc_printable_dup(name), *st = byoc_printable_dup(status);
    fprintf(stderr, "byoc: %s: no log yet (the job is %s)\n", n, st);
    free(n);
    free(st);
}

static int logs_fn(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err)
{
    printer *p = ud;
    byoc_jobs_reader r = {.on_line = print_line, .on_job = on_job, .on_no_log = on_no_log, .ud = p};
    return byoc_jobs_logs(a, t, p->follow, &r, err);
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
    printer p = {.follow = follow, .terminal = isatty(STDOUT_FILENO) == 1};
    int rc = tui_jobs_verb_run(g, "logs", argv[optind], logs_fn, &p, NULL, err);
    fflush(stdout);
    byoc_buf_clear(&p.line);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
