/* The Build step's plan (byoc/buildflow.h), pure: byoc.json + flags + git
 * facts -> the build options `byoc build` and the Build screen both run.
 * Tags (the flags over byoc.json's, the <name>:<short-sha>[-dirty] tag once),
 * build args (byoc.json's then the flags'), OCI labels with created from
 * SOURCE_DATE_EPOCH else the facts' time, paths, and the screen's form
 * replacing byoc.json; then the task events read as typed build events, and
 * the task's lint step: its findings as typed events, its errors stopping the
 * flow (DONE, lint_stopped) before the engine is touched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "byoc/buildflow.h"
#include "check.h"

static void facts(byoc_build_git_facts *g, bool dirty, const char *sde)
{
    memset(g, 0, sizeof *g);
    g->rev.is_repo = true;
    strcpy(g->rev.sha, "0123456789abcdef0123456789abcdef01234567");
    strcpy(g->rev.short_sha, "0123456");
    g->rev.dirty = dirty;
    g->rev.remote_url = strdup("git@github.com:ada/qaoa.git");
    g->source_date_epoch = sde ? strdup(sde) : NULL;
    g->now = 86400;                                        /* 1970-01-02 */
}

static bool has(const byoc_strv *v, const char *s)
{
    return byoc_strv_contains(v, s);
}

typedef struct {
    size_t findings, linted, others;
    int errors;
    char rule[64], file[64];
} lint_seen;

static void collect_lint(const byoc_event *ev, void *ud)
{
    lint_seen *ls = ud;
    byoc_build_event be;
    byoc_build_event_decode(ev, &be);
    if (be.kind == BYOC_BUILD_EV_LINT) {
        ls->findings++;
        if (!ls->rule[0] && be.severity == BYOC_LINT_ERROR) {
            snprintf(ls->rule, sizeof ls->rule, "%s", be.rule);
            snprintf(ls->file, sizeof ls->file, "%s", be.file);
        }
    } else if (be.kind == BYOC_BUILD_EV_LINTED) {
        ls->linted++;
        ls->errors = (int)be.current;
    } else if (be.kind == BYOC_BUILD_EV_ERROR) {
        ls->others++;
    }
}

/* A project without a Dockerfile: the lint's error stops the flow before the
 * engine (DOCKER_HOST leads nowhere: reaching it would be an ERROR). */
static void test_lint_stops_the_flow(void)
{
    char dir[] = "/tmp/byoc-buildflow-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    setenv("DOCKER_HOST", "unix:///nonexistent/byoc-test.sock", 1);
    byoc_project p;
    byoc_project_init(&p);
    byoc_build_flags fl = {0};
    byoc_build_plan plan;
    byoc_build_plan_make(&p, dir, &fl, NULL, &plan);
    byoc_build_flow_job *job = byoc_build_flow_job_new(NULL, &plan, dir, NULL);
    lint_seen ls = {0};
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    CHECK_INT(byoc_task_run_sync("build", byoc_build_flow_task, job, &result, &result_free, &err, collect_lint, &ls),
              0);
    byoc_build_flow_result *r = result;
    CHECK(r && r->linted && r->lint_stopped && !r->image_id);
    CHECK(r && r->lint.n_errors >= 1);
    CHECK(ls.findings >= 1);
    CHECK_STR(ls.rule, "dockerfile-missing");
    CHECK_STR(ls.file, "Dockerfile");
    CHECK_INT(ls.linted, 1);
    CHECK(ls.errors >= 1);
    CHECK_INT(ls.others, 0);
    if (result_free)
        result_free(result);
    byoc_build_flow_job_free(job);
    byoc_build_plan_clear(&plan);
    byoc_project_clear(&p);
    rmdir(dir);
}

int main(void)
{
    test_lint_stops_the_flow();
    const char *json = "{\"name\": \"qaoa\", \"context\": \"src\", \"dockerfile\": \"docker/Dockerfile\","
                       " \"tags\": [\"qaoa:1\", \"qaoa:latest\"], \"build_args\": {\"WHO\": \"me\"}}";
    byoc_project p;
    byoc_err err;
    CHECK_INT(byoc_project_parse(&p, json, strlen(json), &err), 0);

    /* byoc.json alone, a clean tree, SOURCE_DATE_EPOCH set */
    byoc_build_git_facts g;
    facts(&g, false, "1700000000");
    byoc_build_flags f = {0};
    byoc_build_plan plan;
    byoc_build_plan_make(&p, "/proj", &f, &g, &plan);
    CHECK_STR(plan.opts.context_dir, "/proj/src");
    CHECK_STR(plan.opts.dockerfile, "/proj/docker/Dockerfile");
    CHECK_INT(plan.opts.n_tags, 3);
    CHECK_STR(plan.opts.tags[0], "qaoa:1");
    CHECK_STR(plan.opts.tags[2], "qaoa:0123456");
    CHECK_STR(plan.git_tag, "qaoa:0123456");
    CHECK_INT(plan.opts.n_build_args, 1);
    CHECK_STR(plan.opts.build_args[0], "WHO=me");
    CHECK_INT(plan.opts.n_labels, 3);
    CHECK(has(&plan.labels, "org.opencontainers.image.revision=0123456789abcdef0123456789abcdef01234567"));
    CHECK(has(&plan.labels, "org.opencontainers.image.source=https://github.com/ada/qaoa"));
    CHECK_STR(plan.opts.labels[2], "org.opencontainers.image.created=2023-11-14T22:13:20Z");
    CHECK(plan.has_created);
    CHECK_INT(plan.created, 1700000000);
    CHECK(plan.opts.platform == NULL && plan.opts.target == NULL && plan.opts.network == NULL);
    CHECK_INT(byoc_build_validate(&plan.opts, &err), 0);
    byoc_build_plan_clear(&plan);
    byoc_build_git_facts_clear(&g);

    /* a dirty tree, no SOURCE_DATE_EPOCH: the facts' time; the flags win */
    facts(&g, true, NULL);
    const char *tags[] = {"qaoa:dev", "qaoa:0123456-dirty"};
    const char *args[] = {"WHO=you", "N"};
    const char *labels[] = {"team=quantum"};
    f = (byoc_build_flags){.dockerfile = "Dockerfile.gpu", .dockerfile_from_cwd = true, .tags = tags, .n_tags = 2,
                           .build_args = args, .n_build_args = 2, .labels = labels, .n_labels = 1,
                           .platform = "linux/amd64", .target = "", .network = "none", .no_cache = true,
                           .pull = true};
    byoc_build_plan_make(&p, "/proj", &f, &g, &plan);
    CHECK_STR(plan.opts.dockerfile, "Dockerfile.gpu");     /* -f: from the current directory */
    CHECK_INT(plan.opts.n_tags, 2);                        /* the git tag once */
    CHECK_STR(plan.opts.tags[0], "qaoa:dev");
    CHECK_STR(plan.git_tag, "qaoa:0123456-dirty");
    CHECK_INT(plan.opts.n_build_args, 3);
    CHECK_STR(plan.opts.build_args[0], "WHO=me");
    CHECK_STR(plan.opts.build_args[1], "WHO=you");
    CHECK_STR(plan.opts.build_args[2], "N");
    CHECK_INT(plan.opts.n_labels, 4);
    CHECK_STR(plan.opts.labels[0], "team=quantum");
    CHECK_STR(plan.opts.labels[3], "org.opencontainers.image.created=1970-01-02T00:00:00Z");
    CHECK_STR(plan.opts.platform, "linux/amd64");
    CHECK(plan.opts.target == NULL);
    CHECK_STR(plan.opts.network, "none");
    CHECK(plan.opts.no_cache && plan.opts.pull);
    byoc_build_plan_clear(&plan);

    /* the Build screen's form: all there is, relative to the project */
    const char *ftags[] = {"qaoa:2"};
    f = (byoc_build_flags){.context = ".", .dockerfile = "Dockerfile", .tags = ftags, .n_tags = 1,
                           .replace_project = true};
    byoc_build_plan_make(&p, "/proj", &f, &g, &plan);
    CHECK_STR(plan.opts.context_dir, "/proj/.");
    CHECK_STR(plan.opts.dockerfile, "/proj/Dockerfile");
    CHECK_INT(plan.opts.n_tags, 2);
    CHECK_STR(plan.opts.tags[1], "qaoa:0123456-dirty");
    CHECK_INT(plan.opts.n_build_args, 0);
    byoc_build_plan_clear(&plan);
    f = (byoc_build_flags){.context = "", .dockerfile = "", .replace_project = true};
    byoc_build_plan_make(&p, "/proj", &f, NULL, &plan);    /* no git facts: no git tag, no labels */
    CHECK_STR(plan.opts.context_dir, "/proj/.");
    CHECK(plan.opts.dockerfile == NULL);
    CHECK_INT(plan.opts.n_tags, 0);
    CHECK_INT(plan.opts.n_labels, 0);
    CHECK(plan.git_tag == NULL && !plan.has_created);
    byoc_build_plan_clear(&plan);
    byoc_build_git_facts_clear(&g);

    /* a repository without commits: no tag, no labels; outside one: neither */
    facts(&g, false, NULL);
    g.rev.unborn = true;
    g.rev.sha[0] = g.rev.short_sha[0] = '\0';
    f = (byoc_build_flags){0};
    byoc_build_plan_make(&p, "/proj", &f, &g, &plan);
    CHECK_INT(plan.opts.n_tags, 2);
    CHECK_INT(plan.opts.n_labels, 0);
    byoc_build_plan_clear(&plan);
    g.rev.is_repo = false;
    byoc_build_plan_make(&p, "/proj", &f, &g, &plan);
    CHECK(plan.git_tag == NULL);
    CHECK_INT(plan.opts.n_labels, 0);
    byoc_build_plan_clear(&plan);
    byoc_build_git_facts_clear(&g);

    /* byoc.json without "dockerfile" or name: the engine's default, no git tag */
    byoc_project q;
    const char *json2 = "{\"context\": \"app\"}";
    CHECK_INT(byoc_project_parse(&q, json2, strlen(json2), &err), 0);
    facts(&g, false, NULL);
    byoc_build_plan_make(&q, ".", &f, &g, &plan);
    CHECK_STR(plan.opts.context_dir, "./app");
    CHECK(plan.opts.dockerfile == NULL);
    CHECK_INT(plan.opts.n_tags, 0);
    CHECK_INT(plan.opts.n_labels, 3);
    byoc_build_plan_clear(&plan);
    byoc_build_git_facts_clear(&g);
    byoc_project_clear(&q);

    /* the flags checked as `byoc build` checks them */
    const char *bad[] = {"Bad:Ref"};
    f = (byoc_build_flags){.tags = bad, .n_tags = 1};
    CHECK_INT(byoc_build_flags_check(&f, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    f = (byoc_build_flags){.platform = "linux/amd64"};
    CHECK_INT(byoc_build_flags_check(&f, &err), 0);

    /* task events, typed */
    byoc_event ev = {.kind = BYOC_EV_LOG, .text = "Step 3/9 : RUN make"};
    byoc_build_event be;
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_STEP);
    CHECK_INT(be.step, 3);
    CHECK_INT(be.steps, 9);
    ev.text = " ---> Running in 1234";
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_LOG);
    ev = (byoc_event){.kind = BYOC_EV_PROGRESS, .key = "context", .current = 5, .total = 10};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_PROGRESS);
    CHECK_STR(be.key, "context");
    CHECK_INT(be.total, 10);
    byoc_finding fd = {.severity = BYOC_LINT_WARNING, .rule = "apt-no-clean", .file = "docker/Dockerfile", .line = 7,
                      .message = "clean the apt lists"};
    ev = (byoc_event){.kind = BYOC_EV_DATA, .current = BYOC_BUILD_DATA_FINDING, .result = &fd};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_LINT);
    CHECK_INT(be.severity, BYOC_LINT_WARNING);
    CHECK_STR(be.rule, "apt-no-clean");
    CHECK_STR(be.file, "docker/Dockerfile");
    CHECK_INT(be.line, 7);
    CHECK_STR(be.text, "clean the apt lists");
    size_t errors = 2;
    ev = (byoc_event){.kind = BYOC_EV_DATA, .current = BYOC_BUILD_DATA_LINTED, .result = &errors};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_LINTED);
    CHECK_INT(be.current, 2);
    ev = (byoc_event){.kind = BYOC_EV_DATA, .current = 99, .result = &errors};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_OTHER);   /* another module's payload is not read as ours */
    byoc_build_flow_result r = {.image_id = "sha256:abc"};
    ev = (byoc_event){.kind = BYOC_EV_DONE, .result = &r};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_IMAGE);
    CHECK_STR(be.image->image_id, "sha256:abc");
    ev = (byoc_event){.kind = BYOC_EV_ERROR};
    byoc_build_event_decode(&ev, &be);
    CHECK_INT(be.kind, BYOC_BUILD_EV_ERROR);
    CHECK(be.err == &ev.err);

    byoc_project_clear(&p);
    return check_done();
}
