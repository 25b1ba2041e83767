/* byoc results JOB [-o DIR]: download the job's model.tar.gz and unpack it
 * safely into ./<job-name> (or DIR); {"dir", "files": [...], "results"?}
 * where results is what results.json holds. A local job (local:job/<name>)
 * has its results in its output directory already: they are listed there.
 * The download runs on a task: Ctrl-C stops it and leaves nothing behind
 * (results.h removes its partial files). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/jobs.h"
#include "byoc/results.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/str.h"
#include "core/utf8.h"
#include "verb_jobs_call.h"
#include "verbs.h"

typedef struct results_call {
    const char *dest;
    byoc_unpacked u;
} results_call;

static int results_fn(byoc_jobs_args *a, byoc_task *t, void *ud, byoc_err *err)
{
    results_call *c = ud;
    a->dest = byoc_xstrdup_opt(c->dest);
    return byoc_jobs_results(a, t, &c->u, err);
}

/* On a terminal, what the download is doing (stdout stays the result's). */
static void show_status(void *ud, const byoc_event *ev)
{
    (void)ud;
    if (ev->kind == BYOC_EV_STATUS && ev->text) {
        char *line = byoc_printable_dup(ev->text);
        fprintf(stderr, "byoc: %s\n", line);
        free(line);
    }
}

int verb_results(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0},
    };
    const char *out_dir = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
        if (c != 'o')
            return byoc_cli_usage(err, "results", "unknown or incomplete flag '%s' (see byoc results --help)",
                                  argv[optind - 1]);
        if (!*optarg)
            return byoc_cli_usage(err, "-o", "needs a directory");
        out_dir = optarg;
    }
    if (argc - optind != 1)
        return byoc_cli_usage(err, "results", "takes one JOB (a job ARN or name)");
    const char *ref = argv[optind];
    if (out_dir && byoc_local_job_is_ref(ref))
        return byoc_cli_usage(err, "-o", "a local job's results are in its output directory already (byoc status %s "
                              "names it); -o is for jobs of Amazon Braket", ref);
    if (out_dir && byoc_results_check_dest(out_dir, err) != 0)
        return byoc_err_exit_code(err->kind);
    results_call call = {.dest = out_dir};
    int rc = tui_jobs_verb_run(g, "results", ref, results_fn, &call, isatty(STDERR_FILENO) == 1 ? show_status : NULL,
                               err);
    byoc_unpacked u = call.u;
    json_t *results = NULL;
    if (rc == 0)
        rc = byoc_results_read_json(u.dir, &results, err);
    if (rc == 0) {
        if (g->json) {
            json_t *doc = json_object();
            json_object_set_new(doc, "dir", json_string(u.dir));
            json_t *files = json_array();
            for (size_t i = 0; i < u.files.n; i++)
                json_array_append_new(files, json_string(u.files.v[i]));
            json_object_set_new(doc, "files", files);
            if (results)
                json_object_set_new(doc, "results", json_incref(results));
            byoc_cli_print_json(doc);
        } else {
            printf("%zu file%s in %s\n", u.files.n, u.files.n == 1 ? "" : "s", u.dir);
            for (size_t i = 0; i < u.files.n; i++) {
                char *name = byoc_printable_dup(u.files.v[i]); /* named by the job's archive */
                printf("  %s\n", name);
                free(name);
            }
            if (results) {
                char *text = byoc_json_dumps(results, JSON_INDENT(2) | JSON_PRESERVE_ORDER); /* C1 escaped */
                printf("results.json:\n%s\n", text);
                free(text);
            }
        }
    }
    json_decref(results);
    byoc_unpacked_clear(&u);
    return rc == 0 ? 0 : byoc_err_exit_code(err->kind);
}
