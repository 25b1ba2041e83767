/* byoc lint: BYOC-specific findings about the project's Dockerfile and
 * build context (byoc/lint.h); exit 1 when any is an error. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "byoc/lint.h"
#include "verbs.h"

int verb_lint(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_INSTANCE_TYPE = 256 };
    static const struct option opts[] = {
        {"instance-type", required_argument, NULL, OPT_INSTANCE_TYPE},
        {"file", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    byoc_lint_options o = {0};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:", opts, NULL)) != -1) {
        switch (c) {
        case OPT_INSTANCE_TYPE: o.instance_type = optarg; break;
        case 'f': o.dockerfile = optarg; break;
        case ':': return byoc_cli_usage(err, argv[optind - 1], "needs a value");
        default: return byoc_cli_usage(err, "lint", "unknown flag '%s' (see byoc lint --help)", argv[optind - 1]);
        }
    }
    if (argc - optind > 1)
        return byoc_cli_usage(err, "lint", "takes one directory (got '%s' and '%s')", argv[optind], argv[optind + 1]);
    o.dir = optind < argc ? argv[optind] : g->project_dir;
    if (o.instance_type && strncmp(o.instance_type, "ml.", 3) != 0)
        return byoc_cli_usage(err, "--instance-type", "'%s' is not a job instance type (ml.m5.large, ml.g4dn.xlarge...)",
                              o.instance_type);
    byoc_lint_result r = {0};
    if (byoc_lint_project(&o, &r, err) != 0) {
        byoc_lint_result_clear(&r);
        return byoc_err_exit_code(err->kind);
    }
    size_t warnings = 0;
    for (size_t i = 0; i < r.n; i++)
        warnings += r.items[i].severity == BYOC_LINT_WARNING;
    if (g->json) {
        byoc_cli_print_json(byoc_lint_to_json(&r));
    } else {
        for (size_t i = 0; i < r.n; i++) {
            const byoc_finding *f = &r.items[i];
            if (f->line > 0)
                printf("%s:%d: %s: %s [%s]\n", f->file, f->line, byoc_lint_severity_name(f->severity), f->message,
                       f->rule);
            else
                printf("%s: %s: %s [%s]\n", f->file, byoc_lint_severity_name(f->severity), f->message, f->rule);
        }
        printf("%zu error%s, %zu warning%s, %zu note%s\n", r.n_errors, r.n_errors == 1 ? "" : "s", warnings,
               warnings == 1 ? "" : "s", r.n - r.n_errors - warnings, r.n - r.n_errors - warnings == 1 ? "" : "s");
    }
    int rc = 0;
    if (r.n_errors) {
        byoc_err_set(err, BYOC_E_FAILED, "lint", "%zu error%s", r.n_errors, r.n_errors == 1 ? "" : "s");
        rc = 1;
    }
    byoc_lint_result_clear(&r);
    return rc;
}
