/* preflight without services: the report (order, JSON shape, ok), one CHECK event per check
 * through a task, what happens with no AWS region and no engine, the run flags parser, manifest media types. */
#include "check.h"

#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <jansson.h>

#include "byoc/preflight.h"
#include "core/task.h"
#include "docker/manifest.h"
#include "runflags.h"

typedef struct {
    int checks;
    int fails;
    int fixes;               /* failures whose fix came as the event's detail, not in its text */
    char names[8][64];
} seen_events;

static void sink(const byoc_event *ev, void *ud)
{
    seen_events *s = ud;
    if (ev->kind != BYOC_EV_CHECK)
        return;
    if (s->checks < 8)
        snprintf(s->names[s->checks], sizeof s->names[0], "%s", ev->key ? ev->key : "");
    s->checks++;
    s->fails += ev->current == BYOC_PF_FAIL;
    s->fixes += ev->current == BYOC_PF_FAIL && ev->detail && ev->detail[0] && ev->text && !strstr(ev->text, ev->detail);
}

BYOC_TASK_FREE(report_free, byoc_preflight_report, byoc_preflight_report_clear)

static int run_preflight(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    *result = NULL;
    *result_free = NULL;
    byoc_preflight_args *a = arg;
    byoc_preflight_report *r = byoc_xcalloc(1, sizeof *r);
    int rc = byoc_preflight(&a->spec, &a->opts, t, r, err);
    *result = r;
    *result_free = report_free;
    return rc;
}

static void test_no_region(void)
{
    setenv("AWS_CONFIG_FILE", "/nonexistent/byoc-config", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/byoc-credentials", 1);
    unsetenv("AWS_REGION");
    unsetenv("AWS_DEFAULT_REGION");
    unsetenv("AWS_PROFILE");
    setenv("DOCKER_HOST", "unix:///nonexistent/byoc-docker.sock", 1); /* no engine: the contract is not checked */
    byoc_preflight_args a;
    memset(&a, 0, sizeof a);
    byoc_jobspec_init(&a.spec);
    byoc_jobspec_set(&a.spec.image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-x:1");
    byoc_jobspec_set(&a.spec.source_module, "/nonexistent/byoc-src");
    seen_events seen = {0};
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_task_run_sync("preflight", run_preflight, &a, &result, &result_free, &err, sink, &seen);
    CHECK_INT(rc, 0);
    byoc_preflight_report *r = result;
    CHECK(r != NULL);
    if (r) {
        CHECK(!byoc_preflight_ok(r));
        const byoc_pf_check *spec = byoc_preflight_find(r, "spec");
        const byoc_pf_check *cred = byoc_preflight_find(r, "credentials");
        CHECK(spec && spec->status == BYOC_PF_FAIL && strstr(spec->message, "--source-module"));
        CHECK(cred && cred->status == BYOC_PF_FAIL && strstr(cred->message, "region"));
        CHECK(cred && cred->fix[0] && !strchr(cred->fix, '\n'));
        const byoc_pf_check *contract = byoc_preflight_find(r, "contract.program");
        CHECK(contract && contract->status == BYOC_PF_WARN); /* the image checks need no AWS, but an engine */
        CHECK_INT((long long)r->n, 3);
        CHECK_STR(r->items[0].name, "spec"); /* report order, whatever the finishing order */
        CHECK_INT(seen.checks, 3);
        CHECK_INT(seen.fails, 2);
        CHECK_INT(seen.fixes, 2);
        json_t *doc = byoc_preflight_report_json(r);
        CHECK(json_is_false(json_object_get(doc, "ok")));
        json_t *first = json_array_get(json_object_get(doc, "checks"), 0);
        CHECK_INT((long long)json_object_size(first), 4);
        CHECK_STR(json_string_value(json_object_get(first, "status")), "fail");
        CHECK(json_is_string(json_object_get(first, "fix")));
        json_decref(doc);
    }
    if (result_free)
        result_free(result);
    byoc_jobspec_clear(&a.spec);
}

static void test_report_ok(void)
{
    byoc_preflight_report r = {0};
    CHECK(byoc_preflight_ok(&r));
    json_t *doc = byoc_preflight_report_json(&r);
    CHECK(json_is_true(json_object_get(doc, "ok")));
    CHECK_INT((long long)json_array_size(json_object_get(doc, "checks")), 0);
    json_decref(doc);
    CHECK_STR(byoc_pf_status_name(BYOC_PF_PASS), "pass");
    CHECK_STR(byoc_pf_status_name(BYOC_PF_WARN), "warn");
    CHECK_STR(byoc_pf_status_name(BYOC_PF_FAIL), "fail");
}

static void test_runflags(void)
{
    char *argv[] = {"preflight", "--image-uri", "1.dkr.ecr.us-east-1.amazonaws.com/r:t", "--source-module", "src",
                    "--hyperparameter", "lr=0.1", "--smoke", NULL};
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_runflags f = {0};
    byoc_err err;
    byoc_err_clear(&err);
    optind = 0;
    CHECK_INT(byoc_runflags_parse("preflight", 8, argv, BYOC_RUNFLAGS_SMOKE, &s, &f, &err), 0);
    CHECK(f.smoke);
    CHECK_STR(s.source_module, "src");
    CHECK_INT((long long)s.n_hyperparameters, 1);
    byoc_jobspec_clear(&s);

    char *argv2[] = {"run", "--image-uri", "x", "--source-module", "src", "--smoke", NULL};
    byoc_jobspec_init(&s);
    memset(&f, 0, sizeof f);
    optind = 0;
    CHECK_INT(byoc_runflags_parse("run", 6, argv2, BYOC_RUNFLAGS_RUN_MODES, &s, &f, &err), 2);
    CHECK(strstr(err.message, "--smoke") != NULL);
    byoc_jobspec_clear(&s);

    char *argv3[] = {"preflight", "--source-module", "src", NULL};
    byoc_jobspec_init(&s);
    memset(&f, 0, sizeof f);
    optind = 0;
    CHECK_INT(byoc_runflags_parse("preflight", 3, argv3, BYOC_RUNFLAGS_SMOKE, &s, &f, &err), 2);
    CHECK_STR(err.what, "--image-uri");
    byoc_jobspec_clear(&s);
}

static void test_media_types(void)
{
    CHECK(byoc_manifest_is_index(BYOC_MT_OCI_INDEX));
    CHECK(byoc_manifest_is_index(BYOC_MT_DOCKER_LIST));
    CHECK(!byoc_manifest_is_index(BYOC_MT_OCI_MANIFEST));
    CHECK(!byoc_manifest_is_index(BYOC_MT_DOCKER_MANIFEST));
    CHECK(!byoc_manifest_is_index(NULL));
}

int main(void)
{
    test_report_ok();
    test_media_types();
    test_runflags();
    test_no_region();
    return check_done();
}
