/* byoc cancel JOB: CancelJob; {"job_arn", "status"} (CANCELLING or CANCELLED).
 * A local job (local:job/<name>) is cancelled through its record
 * (localjobs.h): the byoc process running it stops and removes its container,
 * or, when that process is gone, the container is stopped and removed here.
 * A job that already ended is an error that says so (exit 1). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/jobs.h"
#include "core/buf.h"
#include "core/jsonprint.h"
#include "verb_jobs_call.h"
#include "verbs.h"

typedef struct cancelled {
    char *arn;
    char status[32];
} cancelled;

static int cancel_fn(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err)
{
    cancelled *c = ud;
    c->arn = byoc_xstrdup(a->job);
    return byoc_jobs_cancel(a, t, c->status, err);
}

int verb_cancel(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        return byoc_cli_usage(err, "cancel", "unknown flag '%s' (see byoc cancel --help)", argv[optind - 1]);
    if (argc - optind != 1)
        return byoc_cli_usage(err, "cancel", "takes one JOB (a job ARN or name)");
    cancelled call = {0};
    int rc = tui_jobs_verb_run(g, "cancel", argv[optind], cancel_fn, &call, NULL, err);
    if (rc == 0) {
        json_t *doc = json_object();
        json_object_set_new(doc, "job_arn", json_string(call.arn));
        json_object_set_new(doc, "status", json_string(call.status));
        if (g->json) {
            byoc_cli_print_json(doc);
        } else {
            json_t *shown = byoc_json_printable_copy(doc); /* the service's ARN and status */
            printf("%s: %s\n", byoc_json_text(json_object_get(shown, "job_arn"), "?"),
                   byoc_json_text(json_object_get(shown, "status"), "?"));
            json_decref(shown);
            json_decref(doc);
        }
    }
    free(call.arn);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
