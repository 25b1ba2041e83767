/* Which local images ECR lists (tui/steps/images/ecr_tasks.h, the "pushed" mark of the
 * image browser), against moto, which keeps each region's repositories apart
 * and answers another account's registry id with RepositoryNotFound. One
 * repository name in the home region and in us-west-2, an image put in each.
 * A reference is marked pushed only where it points: its own region (even one
 * that is not the session's) and its own account's registry; the same digest
 * named in another region or another account, an unknown repository and a
 * reference that is not into ECR are not. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "aws/client.h"
#include "aws/ecr.h"
#include "core/log.h"
#include "ecr_tasks.h"
#include "net/http.h"

#define OTHER_REGION "us-west-2"
#define OTHER_ACCOUNT "999999999999"

static void show(const char *what, const byoc_err *err)
{
    char buf[1024];
    fprintf(stderr, "%s: %s\n", what, byoc_err_format(err, buf, sizeof buf));
}

static byoc_aws_client *client_in(const char *region)
{
    byoc_aws_config_opts o = {.region = region};
    byoc_aws_client *c = NULL;
    byoc_err err;
    if (byoc_aws_client_new(&o, &c, &err) != 0)
        show("client", &err);
    return c;
}

/* PutImage of a manifest told apart by n; the digest moto gives it, or NULL. */
static char *put_image(byoc_aws_client *c, const char *repo, int n)
{
    char *manifest = byoc_xasprintf(
        "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
        "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\",\"size\":%d,"
        "\"digest\":\"sha256:%064x\"},\"layers\":[{\"mediaType\":\"application/vnd.docker.image.rootfs.diff.tar.gzip\","
        "\"size\":%d,\"digest\":\"sha256:%064x\"}]}",
        100 + n, 0x300000 + n, 500 + n, 0x400000 + n);
    json_t *body = json_pack("{s:s, s:s, s:s}", "repositoryName", repo, "imageManifest", manifest, "imageTag", "v1");
    json_t *out = NULL;
    byoc_err err;
    char *digest = NULL;
    if (byoc_aws_json_call(c, NULL, BYOC_AWS_ECR, BYOC_ECR_TARGET_PREFIX "PutImage", body, &out, &err) == 0) {
        const char *d = json_string_value(json_object_get(json_object_get(json_object_get(out, "image"), "imageId"),
                                                          "imageDigest"));
        digest = d ? byoc_xstrdup(d) : NULL;
    } else {
        show("PutImage", &err);
    }
    json_decref(body);
    json_decref(out);
    free(manifest);
    return digest;
}

static int create_repo(byoc_aws_client *c, const char *repo)
{
    byoc_ecr_create_opts o = {.name = repo};
    byoc_ecr_repository r;
    byoc_err err;
    int rc = byoc_ecr_create_repository(c, NULL, &o, &r, &err);
    if (rc == 0)
        byoc_ecr_repository_clear(&r);
    else
        show("CreateRepository", &err);
    return rc;
}

static char *ref(const char *account, const char *region, const char *repo, const char *digest)
{
    return byoc_xasprintf("%s.dkr.ecr.%s.amazonaws.com/%s@%s", account, region, repo, digest);
}

int main(void)
{
    const char *account = check_env("BYOC_TEST_ACCOUNT");
    const char *home = check_env("AWS_REGION");
    if (strcmp(home, OTHER_REGION) == 0) {
        fprintf(stderr, "the topology's region is %s: this test needs another one\n", OTHER_REGION);
        return 1;
    }
    byoc_http_global_init();
    char repo[96];
    snprintf(repo, sizeof repo, "amazon-braket-itest/pushed-%ld-%ld", (long)getpid(), (long)time(NULL));
    byoc_aws_client *east = client_in(home), *west = client_in(OTHER_REGION);
    if (!east || !west || create_repo(east, repo) != 0 || create_repo(west, repo) != 0)
        return 1;
    char *in_home = put_image(east, repo, 1), *in_west = put_image(west, repo, 2);
    CHECK(in_home && in_west && strcmp(in_home, in_west) != 0);
    if (!in_home || !in_west)
        return check_done();

    char *home_ref = ref(account, home, repo, in_home);
    char *west_ref = ref(account, OTHER_REGION, repo, in_west);
    char *wrong_region = ref(account, OTHER_REGION, repo, in_home);
    char *wrong_account = ref(OTHER_ACCOUNT, home, repo, in_home);
    char *no_repo = ref(account, home, "amazon-braket-itest/none-such", in_home);
    char *not_ecr = byoc_xasprintf("127.0.0.1:5000/%s@%s", repo, in_home);

    byoc_aws_clients *pool = byoc_aws_clients_new();   /* as the app shares its clients */
    tui_ecr_args *a = tui_ecr_args_new(pool, NULL, home);
    const char *refs[] = {not_ecr, wrong_account, home_ref, no_repo, wrong_region, west_ref};
    for (size_t i = 0; i < sizeof refs / sizeof *refs; i++)
        tui_ecr_refs_add(&a->refs, refs[i]);
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_task_run_sync("pushed", tui_ecr_pushed_task, a, &result, &result_free, &err, NULL, NULL);
    if (rc != 0)
        show("pushed", &err);
    CHECK_INT(rc, 0);
    const tui_ecr_refs *pushed = result;
    CHECK(pushed && pushed->n == 2);
    CHECK(pushed && tui_ecr_refs_has(pushed, home_ref));
    CHECK(pushed && tui_ecr_refs_has(pushed, west_ref));        /* another region than the session's */
    CHECK(pushed && !tui_ecr_refs_has(pushed, wrong_region));
    CHECK(pushed && !tui_ecr_refs_has(pushed, wrong_account));  /* the digest is in our registry, not theirs */
    CHECK(pushed && !tui_ecr_refs_has(pushed, no_repo));
    CHECK(pushed && !tui_ecr_refs_has(pushed, not_ecr));
    if (result_free)
        result_free(result);

    /* Only references into ECR: nothing is asked, so no credentials are needed. */
    tui_ecr_args *none = tui_ecr_args_new(pool, "byoc-no-such-profile", home);
    tui_ecr_refs_add(&none->refs, not_ecr);
    result = NULL;
    result_free = NULL;
    CHECK_INT(byoc_task_run_sync("pushed", tui_ecr_pushed_task, none, &result, &result_free, &err, NULL, NULL), 0);
    CHECK(result && ((tui_ecr_refs *)result)->n == 0);
    if (result_free)
        result_free(result);
    tui_ecr_args_free(none);

    tui_ecr_args_free(a);
    byoc_aws_clients_free(pool);
    free(home_ref);
    free(west_ref);
    free(wrong_region);
    free(wrong_account);
    free(no_repo);
    free(not_ecr);
    free(in_home);
    free(in_west);
    CHECK_INT(byoc_ecr_delete_repository(east, NULL, repo, true, &err), 0);
    CHECK_INT(byoc_ecr_delete_repository(west, NULL, repo, true, &err), 0);
    byoc_aws_client_free(east);
    byoc_aws_client_free(west);
    byoc_http_global_cleanup();
    byoc_secret_clear_all();
    return check_done();
}
