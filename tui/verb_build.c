/* byoc build: lint, then build the project's image on the Docker engine with
 * live output on stderr; the image id (and tags) on stdout. Defaults come
 * from the project's byoc.json (context, Dockerfile, tags, build args); the
 * image is also tagged <name>:<short-sha>[-dirty] and labelled with the git
 * revision, source and creation time. Ctrl-C cancels the build. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/git.h"
#include "byoc/lint.h"
#include "byoc/project.h"
#include "core/buf.h"
#include "docker/build.h"
#include "docker/platforms.h"
#include "docker/context.h"
#include "docker/engine.h"
#include "cli_task.h"
#include "verbs.h"

typedef struct {
    const char **v;
    size_t n;
    char **owned;       /* strings this list allocated */
    size_t n_owned;
} arglist;

static void al_add(arglist *l, const char *s)
{
    l->v = byoc_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = s;
}

static void al_add_owned(arglist *l, char *s)
{
    l->owned = byoc_xrealloc(l->owned, (l->n_owned + 1) * sizeof *l->owned);
    l->owned[l->n_owned++] = s;
    al_add(l, s);
}

static bool al_has(const arglist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

static void al_free(arglist *l)
{
    for (size_t i = 0; i < l->n_owned; i++)
        free(l->owned[i]);
    free(l->owned);
    free(l->v);
}

/* ---- running the build task with Ctrl-C as cancel ---- */

typedef struct {
    bool tty;
    bool progress_open;   /* a \r progress line is on stderr */
} printer;

static void print_event(void *ud, const byoc_event *ev)
{
    printer *p = ud;
    if (ev->kind == BYOC_EV_LOG) {
        if (p->progress_open) {
            fputc('\n', stderr);
            p->progress_open = false;
        }
        fprintf(stderr, "%s\n", ev->text ? ev->text : "");
    } else if (ev->kind == BYOC_EV_PROGRESS && p->tty && ev->key && strcmp(ev->key, "context") == 0 &&
               ev->total > 0) {
        fprintf(stderr, "\rSending context: %5.1f%% (%.1f / %.1f MiB)", 100.0 * (double)ev->current / (double)ev->total,
                (double)ev->current / 1048576.0, (double)ev->total / 1048576.0);
        p->progress_open = ev->current < ev->total;
        if (!p->progress_open)
            fputc('\n', stderr);
    }
    fflush(stderr);
}

static int run_build(byoc_engine *e, const byoc_build_opts *o, byoc_build_result **res, byoc_err *err)
{
    printer p = {.tty = isatty(STDERR_FILENO)};
    void *result = NULL;
    int rc = byoc_cli_run_task("build", byoc_build_task, byoc_build_job_new(e, o), byoc_build_job_free, print_event,
                               &p, &result, err);
    if (p.progress_open)
        fputc('\n', stderr);
    *res = result;
    return rc;
}

/* ---- lint ---- */

static int lint_first(const char *project_dir, const char *dockerfile_rel, byoc_err *err)
{
    byoc_lint_options lo = {.dir = project_dir, .dockerfile = dockerfile_rel};
    byoc_lint_result lr = {0};
    if (byoc_lint_project(&lo, &lr, err) != 0)
        return -1;
    byoc_lint_sort(&lr);
    const byoc_finding *first = NULL;
    for (size_t i = 0; i < lr.n; i++) {
        const byoc_finding *f = &lr.items[i];
        if (f->severity == BYOC_LINT_INFO)
            continue;
        if (f->severity == BYOC_LINT_ERROR && !first)
            first = f;
        fprintf(stderr, "%s: %s:%d: %s: %s\n", byoc_lint_severity_name(f->severity), f->file, f->line, f->rule,
                f->message);
    }
    int rc = 0;
    if (lr.n_errors)
        rc = byoc_err_set(err, BYOC_E_USAGE, "lint",
                          "%zu error%s (first: %s:%d %s); fix them or build with --no-lint", lr.n_errors,
                          lr.n_errors == 1 ? "" : "s", first->file, first->line, first->rule);
    byoc_lint_result_free(&lr);
    return rc;
}

/* The Dockerfile to lint, relative to the project directory, when it lies inside it. */
static char *dockerfile_for_lint(const char *project_dir, const char *dockerfile)
{
    char *root = realpath(project_dir, NULL), *df = realpath(dockerfile, NULL);
    char *rel = NULL;
    if (root && df && strncmp(df, root, strlen(root)) == 0 && df[strlen(root)] == '/')
        rel = byoc_xstrdup(df + strlen(root) + 1);
    free(root);
    free(df);
    return rel;
}

/* A build for a platform the engine can neither run nor emulate fails at its first RUN step
 * with "exec format error": say so, and the fix, before sending the context. */
static void warn_platform(byoc_engine *engine, const char *platform)
{
    byoc_engine_info info;
    byoc_err perr;
    char w[768];
    if (byoc_engine_ping(engine, NULL, &info, &perr) == 0 &&
        byoc_platform_build_warning(platform, info.os, info.arch, strncmp(info.host, "unix://", 7) == 0,
                                    getenv("BYOC_BINFMT_DIR"), w,
                                    sizeof w))
        fprintf(stderr, "warning: %s\n", w);
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
    byoc_build_opts o = {0};
    const char *dockerfile = NULL;
    bool no_lint = false;
    int rc = 2, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:f:", opts, NULL)) != -1) {
        switch (c) {
        case 't': al_add(&tags, optarg); break;
        case 'f': dockerfile = optarg; break;
        case OPT_BUILD_ARG: al_add(&args, optarg); break;
        case OPT_LABEL: al_add(&labels, optarg); break;
        case OPT_PLATFORM: o.platform = optarg; break;
        case OPT_NO_CACHE: o.no_cache = true; break;
        case OPT_PULL: o.pull = true; break;
        case OPT_TARGET: o.target = optarg; break;
        case OPT_NO_LINT: no_lint = true; break;
        case OPT_NETWORK: o.network = optarg; break;
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
    char *context = byoc_xasprintf("%s/%s", project_dir, proj.context ? proj.context : ".");
    char *project_df = NULL;
    if (!dockerfile && proj.dockerfile && json_object_get(proj.doc, "dockerfile"))
        dockerfile = project_df = byoc_xasprintf("%s/%s", project_dir, proj.dockerfile);

    /* Tags: the flags, else byoc.json's; plus the git revision's. */
    if (tags.n == 0)
        for (size_t i = 0; i < proj.n_tags; i++)
            al_add(&tags, proj.tags[i]);
    byoc_git_rev rev = {0};
    byoc_err gerr;
    bool have_rev = byoc_git_revision(project_dir, &rev, &gerr) == 0 && rev.is_repo;
    if (have_rev && proj.name) {
        char *gt = byoc_git_image_tag(proj.name, &rev);
        if (gt && !al_has(&tags, gt))
            al_add_owned(&tags, gt);
        else
            free(gt);
    }
    /* Build args: byoc.json's first, the flags after them (the later one of a key wins). */
    arglist all_args = {0};
    for (size_t i = 0; i < proj.n_build_args; i++)
        al_add_owned(&all_args, byoc_xasprintf("%s=%s", proj.build_args[i].key, proj.build_args[i].value));
    for (size_t i = 0; i < args.n; i++)
        al_add(&all_args, args.v[i]);
    /* OCI labels, when the project has a git revision. Each label is a build
     * step on the classic builder, so values stay stable where they can:
     * created honours SOURCE_DATE_EPOCH (reproducible builds). */
    char created[96];
    if (have_rev && !rev.unborn) {
        json_t *gl = byoc_git_labels(&rev);
        const char *k;
        json_t *v;
        json_object_foreach(gl, k, v) al_add_owned(&labels, byoc_xasprintf("%s=%s", k, json_string_value(v)));
        json_decref(gl);
        const char *sde = getenv("SOURCE_DATE_EPOCH");
        time_t when = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
        struct tm tm;
        gmtime_r(&when, &tm);
        strftime(created, sizeof created, "org.opencontainers.image.created=%Y-%m-%dT%H:%M:%SZ", &tm);
        al_add(&labels, created);
    }

    o.context_dir = context;
    o.dockerfile = dockerfile;
    o.tags = tags.v;
    o.n_tags = tags.n;
    o.build_args = all_args.v;
    o.n_build_args = all_args.n;
    o.labels = labels.v;
    o.n_labels = labels.n;

    byoc_engine *engine = NULL;
    byoc_build_result *res = NULL;
    byoc_context *ctx = NULL;
    /* Input first (exit 2, nothing sent), then the lint, then the engine (exit 3). */
    if (byoc_build_validate(&o, err) < 0 || byoc_context_open(o.context_dir, o.dockerfile, &ctx, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (!no_lint) {
        char *df_rel = dockerfile_for_lint(project_dir, o.dockerfile ? o.dockerfile : "");
        if (!df_rel) {
            char *abs = byoc_xasprintf("%s/%s", byoc_context_root(ctx), byoc_context_dockerfile(ctx));
            df_rel = dockerfile_for_lint(project_dir, abs);
            free(abs);
        }
        int lrc = lint_first(project_dir, df_rel, err);
        free(df_rel);
        if (lrc < 0) {
            rc = byoc_err_exit_code(err->kind);
            goto done;
        }
    }
    if (byoc_engine_new(&engine, err) < 0 || byoc_engine_connect(engine, NULL, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (o.platform)
        warn_platform(engine, o.platform);
    if (run_build(engine, &o, &res, err) < 0) {
        rc = byoc_err_exit_code(err->kind);
        goto done;
    }
    if (g->json) {
        json_t *jt = json_array();
        for (size_t i = 0; i < res->n_tags; i++)
            json_array_append_new(jt, json_string(res->tags[i]));
        byoc_cli_print_json(json_pack("{s:s, s:o}", "image_id", res->image_id, "tags", jt));
    } else {
        printf("%s\n", res->image_id);
    }
    rc = 0;
done:
    if (res) {
        byoc_build_result_free(res);
        free(res);
    }
    byoc_context_free(ctx);
    byoc_engine_free(engine);
    al_free(&all_args);
    byoc_git_rev_free(&rev);
    free(project_df);
    free(context);
    byoc_project_free(&proj);
out:
    al_free(&tags);
    al_free(&args);
    al_free(&labels);
    return rc;
}
