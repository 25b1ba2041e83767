/* byoc build: lint, then build the project's image on the Docker engine (both
 * byoc/buildflow.h's task) with live output on stderr; the image id (and tags) on stdout. Defaults come
 * from the project's byoc.json (context, Dockerfile, tags, build args); the
 * image is also tagged <name>:<short-sha>[-dirty] and labelled with the git
 * revision, source and creation time. Ctrl-C cancels the build. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/buildflow.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "cli_task.h"
#include "verbs.h"

typedef struct {
    const char **v;
    size_t n;
} arglist;

static void al_add(arglist *l, const char *s)
{
    l->v = byoc_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = s;
}

/* ---- running the build task with Ctrl-C as cancel ---- */

typedef struct {
    bool tty;
    bool progress_open;   /* a \r progress line is on stderr */
} printer;

static void print_event(void *ud, const byoc_event *ev)
{
    printer *p = ud;
    byoc_build_event be;
    byoc_build_event_decode(ev, &be);
    if (be.kind == BYOC_BUILD_EV_LINT && be.severity != BYOC_LINT_INFO) {
        fprintf(stderr, "%s: %s:%d: %s: %s\n", byoc_lint_severity_name(be.severity), be.file, be.line, be.rule,
                be.text ? be.text : "");
    } else if (be.kind == BYOC_BUILD_EV_LOG || be.kind == BYOC_BUILD_EV_STEP) {
        if (p->progress_open) {
            fputc('\n', stderr);
            p->progress_open = false;
        }
        fprintf(stderr, "%s\n", be.text ? be.text : "");
    } else if (be.kind == BYOC_BUILD_EV_PROGRESS && p->tty && be.key && strcmp(be.key, "context") == 0 &&
               be.total > 0) {
        fprintf(stderr, "\rSending context: %5.1f%% (%.1f / %.1f MiB)", 100.0 * (double)be.current / (double)be.total,
                (double)be.current / 1048576.0, (double)be.total / 1048576.0);
        p->progress_open = be.current < be.total;
        if (!p->progress_open)
            fputc('\n', stderr);
    }
    fflush(stderr);
}

static int run_build(const byoc_build_plan *plan, const char *lint_dir, const char *lint_dockerfile,
                     byoc_build_flow_result **res, byoc_err *err)
{
    byoc_build_flow_job *job = byoc_build_flow_job_new(NULL, plan, lint_dir, lint_dockerfile);
    printer p = {.tty = isatty(STDERR_FILENO)};
    void *result = NULL;
    int rc = byoc_cli_run_task("build", byoc_build_flow_task, job, byoc_build_flow_job_free, print_event, &p,
                               &result, err);
    if (p.progress_open)
        fputc('\n', stderr);
    *res = result;
    return rc;
}

/* ---- lint ---- */

/* The lint's errors stopped the flow: name the first, as the exit code 2's message. */
static int lint_stopped(const byoc_lint_result *lr, byoc_err *err)
{
    const byoc_finding *first = NULL;
    for (size_t i = 0; i < lr->n && !first; i++)
        if (lr->items[i].severity == BYOC_LINT_ERROR)
            first = &lr->items[i];
    return byoc_err_set(err, BYOC_E_USAGE, "lint", "%zu error%s (first: %s:%d %s); fix them or build with --no-lint",
                        lr->n_errors, lr->n_errors == 1 ? "" : "s", first ? first->file : "", first ? first->line : 0,
                        first ? first->rule : "");
}

/* ---- the verb ---- */

int verb_build(const byoc_globals *g, int argc, char **argv, byoc_err *err)
{
    enum { OPT_BUILD_ARG = 256, OPT_PLATFORM, OPT_NO_CACHE, OPT_TARGET, OPT_NO_LINT, OPT_NETWORK, OPT_LABEL,
           OPT_PULL };
    static const struct option opts[] = {
        {"tag", required_argument, NULL, 't'},
        {"file", required_argument, NULL, 'f'},
        {"build-arg", required_argument, NULL, OPT_BUILD_ARG},
        {"label", required_argument, NULL, OPT_LABEL},
        {"platform", required_argument, NULL, OPT_PLATFORM},
        {"no-cache", no_argument, NULL, OPT_NO_CACHE},
        {"pull", no_argument, NULL, OPT_PULL},
        {"target", required_argument, NULL, OPT_TARGET},
        {"no-lint", no_argument, NULL, OPT_NO_LINT},
        {"network", required_argument, NULL, OPT_NETWORK},
        {NULL, 0, NULL, 0},
    };
    arglist tags = {0}, args = {0}, labels = {0};
    byoc_build_flags fl = {.dockerfile_from_cwd = true};
    bool no_lint = false;
    int rc = 2, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:f:", opts, NULL)) != -1) {
        switch (c) {
        case 't': al_add(&tags, optarg); break;
        case 'f': fl.dockerfile = optarg; break;
        case OPT_BUILD_ARG: al_add(&args, optarg); break;
        case OPT_LABEL: al_add(&labels, optarg); break;
        case OPT_PLATFORM: fl.platform = optarg; break;
        case OPT_NO_CACHE: fl.no_cache = true; break;
        case OPT_PULL: fl.pull = true; break;
        case OPT_TARGET: fl.target = optarg; break;
        case OPT_NO_LINT: no_lint = true; break;
        case OPT_NETWORK: fl.network = optarg; break;
        case ':':
            rc = byoc_cli_usage(err, argv[optind - 1], "needs a value");
            goto out;
        default:
            rc = byoc_cli_usage(err, "build", "unknown flag '%s' (see byoc build --help)", argv[optind - 1]);
            goto out;
        }
    }
    if (argc - optind > 1) {
        rc = byoc_cli_usage(err, "build", "takes one directory (got '%s' and '%s')", argv[optind], argv[optind + 1]);
        goto out;
    }
    const char *project_dir = optind < argc ? argv[optind] : g->project_dir;

    byoc_project proj;
    if (byoc_project_load(&proj, project_dir, NULL, err) != 0) {
        rc = byoc_err_exit_code(err->kind);
        goto out;
    }
    fl.tags = tags.v;
    fl.n_tags = tags.n;
    fl.build_args = args.v;
    fl.n_build_args = args.n;
    fl.labels = labels.v;
    fl.n_labels = labels.n;
    byoc_build_git_facts git;
    byoc_build_git_facts_read(project_dir, &git);
    byoc_build_plan plan;
    byoc_build_plan_make(&proj, project_dir, &fl, &git, &plan);
    byoc_build_git_facts_clear(&git);

    byoc_build_flow_result *res = NULL;
    char *df_rel = NULL;
    /* Input first (exit 2, nothing sent), then the flow's lint (exit 2), then the engine (exit 3). */
    if (byoc_build_plan_check(&plan, project_dir, &df_rel, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (run_build(&plan, no_lint ? NULL : project_dir, df_rel, &res, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (res->lint_stopped) {
        lint_stopped(&res->lint, err);
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (g->json) {
        json_t *jt = json_array();
        for (size_t i = 0; i < res->tags.n; i++)
            json_array_append_new(jt, json_string(res->tags.v[i]));
        byoc_cli_print_json(json_pack("{s:s, s:o}", "image_id", res->image_id, "tags", jt));
    } else {
        printf("%s\n", res->image_id);
    }
    rc = 0;
done:
    if (res) {
        byoc_build_flow_result_clear(res);
        free(res);
    }
    free(df_rel);
    byoc_build_plan_clear(&plan);
    byoc_project_clear(&proj);
out:
    free(tags.v);
    free(args.v);
    free(labels.v);
    return rc;
}
