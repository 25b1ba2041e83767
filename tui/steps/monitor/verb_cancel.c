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
#include "verbs.h"

int verb_cancel(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {{NULL, 0, NULL, 0}};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
        return byoc_cli_usage(err, "cancel", "unknown flag '%s' (see byoc cancel --help)", argv[optind - 1]);
    if (argc - optind != 1)
        return byoc_cli_usage(err, "cancel", "takes one JOB (a job ARN or name)");
    const char *ref = argv[optind];
    byoc_jobs_args *a;
    if (byoc_jobs_open(g->profile, g->region, ref, &a, err) != 0)
        return byoc_err_exit_code(err->kind);
    char status[32];
    int rc = byoc_jobs_cancel(a, NULL, status, err);
    if (rc == 0) {
        json_t *doc = json_object();
        json_object_set_new(doc, "job_arn", json_string(a->job));
        json_object_set_new(doc, "status", json_string(status));
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
    byoc_jobs_args_free(a);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
