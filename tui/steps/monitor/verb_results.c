/* byoc results JOB [-o DIR]: download the job's model.tar.gz and unpack it
 * safely into ./<job-name> (or DIR); {"dir", "files": [...], "results"?}
 * where results is what results.json holds. A local job (local:job/<name>)
 * has its results in its output directory already: they are listed there. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "byoc/jobs.h"
#include "byoc/results.h"
#include "core/buf.h"
#include "core/jsonout.h"
#include "core/str.h"
#include "core/utf8.h"
#include "verbs.h"

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
    byoc_jobs_args *a;
    if (byoc_jobs_open(g->profile, g->region, ref, &a, err) != 0)
        return byoc_err_exit_code(err->kind);
    a->dest = byoc_xstrdup_opt(out_dir);
    byoc_unpacked u = {0};
    int rc = byoc_jobs_results(a, NULL, &u, err);
    byoc_jobs_args_free(a);
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
