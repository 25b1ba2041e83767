/* The ECR client (backend/aws/ecr.h) against moto, which checks every SigV4
 * signature, through tests/topology/ecr_front.py: the front counts requests
 * (so bad input can be shown to send nothing) and pages DescribeImages,
 * ListImages and DescribeRepositories as ECR does (moto answers everything at
 * once). Covered: create (scan on push, tag mutability, encryption, tags),
 * describe, a duplicate, bad names; 160 images put with PutImage, described
 * and listed over several pages; describe by id, an unknown image; batch
 * delete over two requests with a failure; repository policy set/get/delete;
 * scan findings; login tokens (moto's expire in 2015: refreshed once per
 * window, never in a loop) and the cache's forced refresh. */
#include "check.h"

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "aws/client.h"
#include "aws/ecr.h"
#include "byoc/imagecheck.h"
#include "core/buf.h"
#include "core/log.h"
#include "net/http.h"

extern char **environ;

static pid_t front_pid = -1;
static int front_stdin = -1;
static char front_url[64];
static byoc_aws_client *client;
static char repo[96];

/* ---- the front ---- */

static int start_front(void)
{
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        return -1;
    char *script = byoc_xasprintf("%s/tests/topology/ecr_front.py", check_source_dir());
    const char *upstream = check_env("AWS_ENDPOINT_URL");
    char *argv[] = {"python3", script, "--upstream", (char *)upstream, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    int rc = posix_spawnp(&front_pid, "python3", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    free(script);
    close(in[0]);
    close(out[1]);
    if (rc != 0)
        return -1;
    front_stdin = in[1];
    FILE *f = fdopen(out[0], "r");
    char line[64] = "";
    int port = 0;
    if (f && fgets(line, sizeof line, f))
        sscanf(line, "PORT=%d", &port);
    if (f)
        fclose(f);
    if (port <= 0)
        return -1;
    snprintf(front_url, sizeof front_url, "http://127.0.0.1:%d", port);
    return 0;
}

static void stop_front(void)
{
    if (front_stdin >= 0)
        close(front_stdin);
    if (front_pid > 0)
        waitpid(front_pid, NULL, 0);
}

static json_t *front_get(const char *path)
{
    char *url = byoc_xasprintf("%s%s", front_url, path);
    byoc_http_req req = {.method = strstr(path, "reset") ? "POST" : "GET", .url = url};
    byoc_http_resp resp = {0};
    byoc_err err;
    json_t *doc = NULL;
    if (byoc_http_do(&req, &resp, &err) == 0 && resp.status == 200)
        doc = json_loadb(resp.body.data ? resp.body.data : "", resp.body.len, 0, NULL);
    byoc_http_resp_clear(&resp);
    free(url);
    return doc;
}

static long count(const char *op)
{
    json_t *c = front_get("/_front/counts");
    long n = 0;
    if (op) {
        n = (long)json_integer_value(json_object_get(c, op));
    } else {
        const char *k;
        json_t *v;
        json_object_foreach(c, k, v) n += (long)json_integer_value(v);
    }
    json_decref(c);
    return n;
}

static void show(const char *what, const byoc_err *err)
{
    char buf[1200];
    fprintf(stderr, "%s: %s\n", what, byoc_err_format(err, buf, sizeof buf));
}

/* ---- repositories ---- */

static void test_repositories(void)
{
    byoc_err err;
    byoc_ecr_tag tags[] = {{"project", "byoc"}, {"owner", "itest"}};
    byoc_ecr_create_opts o = {.name = repo, .scan_on_push = true, .immutable_tags = false,
                              .encryption_type = "AES256", .tags = tags, .n_tags = 2};
    byoc_ecr_repository r;
    int rc = byoc_ecr_create_repository(client, NULL, &o, &r, &err);
    if (rc)
        show("create", &err);
    CHECK_INT(rc, 0);
    CHECK_STR(r.name, repo);
    char want_uri[256];
    snprintf(want_uri, sizeof want_uri, "%s/%s", check_env("BYOC_TEST_REGISTRY"), repo);
    CHECK_STR(r.uri, want_uri);
    CHECK(r.arn && strstr(r.arn, ":repository/") != NULL);
    CHECK(r.scan_on_push);
    CHECK_STR(r.tag_mutability, "MUTABLE");
    CHECK_STR(r.encryption_type, "AES256");
    CHECK(r.created_at > 1e9);
    byoc_ecr_repository_clear(&r);

    CHECK_INT(byoc_ecr_describe_repository(client, NULL, repo, &r, &err), 0);
    CHECK_STR(r.name, repo);
    CHECK(r.scan_on_push);
    byoc_ecr_repository_clear(&r);

    /* A second create: the service's own error. */
    CHECK_INT(byoc_ecr_create_repository(client, NULL, &o, &r, &err), -1);
    CHECK_STR(err.code, "RepositoryAlreadyExistsException");
    CHECK_INT(err.kind, BYOC_E_FAILED);

    /* Bad names and options never leave the process. */
    long before = count(NULL);
    const char *bad[] = {"A", "Upper/case", "double__x/", "-lead", "trail-", "a//b", "sp ace", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        byoc_ecr_create_opts b = {.name = bad[i]};
        CHECK_INT(byoc_ecr_create_repository(client, NULL, &b, &r, &err), -1);
        CHECK_INT(err.kind, BYOC_E_USAGE);
        CHECK_STR(err.what, "--repository");
    }
    byoc_ecr_create_opts kms_wrong = {.name = "ok-name", .kms_key = "alias/x"};
    CHECK_INT(byoc_ecr_create_repository(client, NULL, &kms_wrong, &r, &err), -1);
    CHECK_STR(err.what, "--kms-key");
    byoc_ecr_image_list l;
    CHECK_INT(byoc_ecr_describe_images(client, NULL, "Bad_Name", NULL, 0, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_INT(count(NULL), before);

    /* Missing repository. */
    CHECK_INT(byoc_ecr_describe_repository(client, NULL, "byoc-no-such-repo-x", &r, &err), -1);
    CHECK_STR(err.code, "RepositoryNotFoundException");

    /* Every repository, paged by the front (1000 per page: one page here). */
    byoc_ecr_repository *all;
    size_t n;
    CHECK_INT(byoc_ecr_describe_repositories(client, NULL, NULL, 0, &all, &n, &err), 0);
    bool found = false;
    for (size_t i = 0; i < n; i++)
        found = found || strcmp(all[i].name, repo) == 0;
    CHECK(found);
    byoc_ecr_repositories_free(all, n);
}

/* ---- images ---- */

#define N_IMAGES 160

static int put_image(int i, byoc_err *err)
{
    char layer[80], config[80];
    snprintf(layer, sizeof layer, "sha256:%064x", 0x100000 + i);
    snprintf(config, sizeof config, "sha256:%064x", 0x200000 + i);
    char *manifest = byoc_xasprintf(
        "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.docker.distribution.manifest.v2+json\","
        "\"config\":{\"mediaType\":\"application/vnd.docker.container.image.v1+json\",\"size\":%d,\"digest\":\"%s\"},"
        "\"layers\":[{\"mediaType\":\"application/vnd.docker.image.rootfs.diff.tar.gzip\",\"size\":%d,\"digest\":\"%s\"}]}",
        1000 + i, config, 5000 + i, layer);
    char tag[16];
    snprintf(tag, sizeof tag, "t%03d", i);
    json_t *body = json_pack("{s:s, s:s, s:s}", "repositoryName", repo, "imageManifest", manifest, "imageTag", tag);
    json_t *out = NULL;
    int rc = byoc_aws_json_call(client, NULL, BYOC_AWS_ECR, BYOC_ECR_TARGET_PREFIX "PutImage", body, &out, err);
    json_decref(body);
    json_decref(out);
    free(manifest);
    return rc;
}

static void test_images(void)
{
    byoc_err err;
    int failures = 0;
    for (int i = 0; i < N_IMAGES; i++)
        if (put_image(i, &err) != 0 && failures++ == 0)
            show("PutImage", &err);
    CHECK_INT(failures, 0);

    byoc_ecr_image_list l;
    json_t *reset = front_get("/_front/reset");
    json_decref(reset);
    CHECK_INT(byoc_ecr_describe_images(client, NULL, repo, NULL, 0, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &err), 0);
    CHECK_INT(l.n, N_IMAGES);
    CHECK_INT(l.pages, 2); /* 100 per page by default */
    CHECK_INT(count("DescribeImages"), 2);
    bool tags_ok = true, digests_ok = true;
    for (size_t i = 0; i < l.n; i++) {
        tags_ok = tags_ok && l.items[i].n_tags == 1 && l.items[i].tags[0][0] == 't';
        digests_ok = digests_ok && l.items[i].digest && strncmp(l.items[i].digest, "sha256:", 7) == 0;
    }
    CHECK(tags_ok);
    CHECK(digests_ok);
    CHECK(l.items[0].pushed_at > 1e9);
    CHECK_STR(l.items[0].manifest_media_type, "application/vnd.docker.distribution.manifest.v2+json");
    /* Every tag exactly once across the pages. */
    char seen[N_IMAGES] = {0};
    for (size_t i = 0; i < l.n; i++) {
        int k = atoi(l.items[i].tags[0] + 1);
        if (k >= 0 && k < N_IMAGES)
            seen[k]++;
    }
    int once = 0;
    for (int i = 0; i < N_IMAGES; i++)
        once += seen[i] == 1;
    CHECK_INT(once, N_IMAGES);
    char *digest7 = NULL;
    for (size_t i = 0; i < l.n; i++)
        if (strcmp(l.items[i].tags[0], "t007") == 0)
            digest7 = byoc_xstrdup(l.items[i].digest);
    json_t *rows = byoc_ecr_images_json("host/repo", &l);
    CHECK_INT(json_array_size(json_object_get(rows, "images")), N_IMAGES);
    const json_t *row0 = json_array_get(json_object_get(rows, "images"), 0);
    CHECK(strncmp(json_string_value(json_object_get(row0, "image_uri")), "host/repo:t", 11) == 0);
    CHECK(json_string_value(json_object_get(row0, "created")) != NULL);
    json_decref(rows);
    byoc_ecr_image_list_clear(&l);

    CHECK_INT(byoc_ecr_describe_images(client, NULL, repo, NULL, 0, BYOC_ECR_TAG_STATUS_ANY, 50, &l, &err), 0);
    CHECK_INT(l.n, N_IMAGES);
    CHECK_INT(l.pages, 4);
    byoc_ecr_image_list_clear(&l);

    byoc_ecr_image_id_list ids;
    CHECK_INT(byoc_ecr_list_images(client, NULL, repo, BYOC_ECR_TAG_STATUS_ANY, 70, &ids, &err), 0);
    CHECK_INT(ids.n, N_IMAGES);
    CHECK_INT(ids.pages, 3);

    /* By id: one image, no paging. */
    byoc_ecr_image_id one = {digest7, NULL};
    CHECK_INT(byoc_ecr_describe_images(client, NULL, repo, &one, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &err), 0);
    CHECK_INT(l.n, 1);
    CHECK(l.n == 1 && l.items[0].n_tags == 1 && strcmp(l.items[0].tags[0], "t007") == 0);
    byoc_ecr_image_list_clear(&l);
    byoc_ecr_image_id unknown = {"sha256:0000000000000000000000000000000000000000000000000000000000000bad", NULL};
    CHECK_INT(byoc_ecr_describe_images(client, NULL, repo, &unknown, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &err), -1);
    CHECK_STR(err.code, "ImageNotFoundException");
    byoc_ecr_image_id badtag = {NULL, "bad tag!"};
    long before = count(NULL);
    CHECK_INT(byoc_ecr_describe_images(client, NULL, repo, &badtag, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &l, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_INT(count(NULL), before);

    /* Scan findings: none before a scan, then moto's static result. */
    json_t *findings = NULL;
    CHECK_INT(byoc_ecr_describe_image_scan_findings(client, NULL, repo, &one, &findings, &err), -1);
    CHECK_STR(err.code, "ScanNotFoundException");
    json_t *scan = json_pack("{s:s, s:{s:s}}", "repositoryName", repo, "imageId", "imageDigest", digest7);
    json_t *out = NULL;
    CHECK_INT(byoc_aws_json_call(client, NULL, BYOC_AWS_ECR, BYOC_ECR_TARGET_PREFIX "StartImageScan", scan, &out, &err),
              0);
    json_decref(scan);
    json_decref(out);
    int frc = byoc_ecr_describe_image_scan_findings(client, NULL, repo, &one, &findings, &err);
    if (frc)
        show("DescribeImageScanFindings", &err);
    CHECK_INT(frc, 0);
    CHECK(json_string_value(json_object_get(findings, "status")) != NULL);
    CHECK(json_is_array(json_object_get(findings, "findings")));
    CHECK(json_is_object(json_object_get(findings, "severity_counts")));
    json_decref(findings);

    /* Delete 150 (two requests: 100 + 50) plus one that does not exist. */
    json_decref(front_get("/_front/reset"));
    byoc_ecr_image_id *del = byoc_xcalloc(151, sizeof *del);
    for (size_t i = 0; i < 150; i++)
        del[i].digest = ids.items[i].digest;
    del[150].tag = "no-such-tag";
    byoc_ecr_delete_result dr;
    CHECK_INT(byoc_ecr_batch_delete_image(client, NULL, repo, del, 151, &dr, &err), 0);
    CHECK_INT(count("BatchDeleteImage"), 2);
    CHECK_INT(dr.deleted, 150);
    CHECK_INT(dr.n_failures, 1);
    CHECK(dr.n_failures == 1 && dr.failures[0].tag && strcmp(dr.failures[0].tag, "no-such-tag") == 0);
    CHECK(dr.n_failures == 1 && dr.failures[0].code != NULL);
    byoc_ecr_delete_result_clear(&dr);
    free(del);
    byoc_ecr_image_id_list_clear(&ids);
    CHECK_INT(byoc_ecr_list_images(client, NULL, repo, BYOC_ECR_TAG_STATUS_ANY, 0, &ids, &err), 0);
    CHECK_INT(ids.n, N_IMAGES - 150);
    CHECK_INT(ids.pages, 1);
    byoc_ecr_image_id_list_clear(&ids);
    free(digest7);

    /* What `byoc images --repository` shows. */
    rows = NULL;
    CHECK_INT(byoc_ecr_repository_images_json(client, NULL, repo, &rows, &err), 0);
    const json_t *arr = json_object_get(rows, "images");
    CHECK_INT(json_array_size(arr), N_IMAGES - 150);
    char prefix[200];
    snprintf(prefix, sizeof prefix, "%s/%s:t", check_env("BYOC_TEST_REGISTRY"), repo);
    const char *uri = json_string_value(json_object_get(json_array_get(arr, 0), "image_uri"));
    CHECK(uri && strncmp(uri, prefix, strlen(prefix)) == 0);
    json_decref(rows);
    CHECK_INT(byoc_ecr_repository_images_json(client, NULL, "byoc-no-such-repo-x", &rows, &err), -1);
    CHECK_STR(err.code, "RepositoryNotFoundException");

    /* The Run step's image check. */
    char note[600];
    char *image = byoc_xasprintf("%s/%s:t155", check_env("BYOC_TEST_REGISTRY"), repo);
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, NULL, image, note, sizeof note, &err), 0);
    free(image);
    image = byoc_xasprintf("%s/%s:t001", check_env("BYOC_TEST_REGISTRY"), repo); /* deleted above */
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, NULL, image, note, sizeof note, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--image-uri (algorithmSpecification.containerImage.uri)");
    CHECK(strstr(err.message, "has no tag t001") != NULL);
    free(image);
    image = byoc_xasprintf("%s/byoc-no-such-repo-x:1", check_env("BYOC_TEST_REGISTRY"));
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, NULL, image, note, sizeof note, &err), -1);
    CHECK(strstr(err.message, "repository byoc-no-such-repo-x does not exist") != NULL);
    free(image);
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, NULL, "busybox:1", note, sizeof note, &err), 1);
    CHECK(strstr(note, "not an ECR image URI") != NULL);
    image = byoc_xasprintf("%s/%s:t155", check_env("BYOC_TEST_REGISTRY"), repo);
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, "210987654321", image, note, sizeof note, &err), 1);
    CHECK(strstr(note, "not yours (210987654321)") != NULL);
    /* A call that fails for another reason says so: it is not "the image is not in ECR". */
    const char *front = getenv("AWS_ENDPOINT_URL_ECR");
    char *saved = front ? byoc_xstrdup(front) : NULL;
    setenv("AWS_ENDPOINT_URL_ECR", "http://127.0.0.1:9", 1); /* nothing listens there */
    setenv("AWS_MAX_ATTEMPTS", "1", 1);
    CHECK_INT(byoc_ecr_image_check(NULL, NULL, NULL, NULL, image, note, sizeof note, &err), -1);
    CHECK(err.kind != BYOC_E_USAGE);
    CHECK(strstr(err.message, "not in ECR") == NULL);
    unsetenv("AWS_MAX_ATTEMPTS");
    if (saved)
        setenv("AWS_ENDPOINT_URL_ECR", saved, 1);
    free(saved);
    free(image);
}

/* ---- policies ---- */

static void test_policy_calls(void)
{
    byoc_err err;
    char *text = (char *)"x";
    CHECK_INT(byoc_ecr_get_repository_policy(client, NULL, repo, &text, &err), 0);
    CHECK(text == NULL);
    const char *policy = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Sid\":\"A\",\"Effect\":\"Allow\","
                         "\"Principal\":{\"AWS\":\"arn:aws:iam::123456789012:root\"},\"Action\":\"ecr:BatchGetImage\"}]}";
    CHECK_INT(byoc_ecr_set_repository_policy(client, NULL, repo, policy, false, &err), 0);
    CHECK_INT(byoc_ecr_get_repository_policy(client, NULL, repo, &text, &err), 0);
    json_t *a = json_loads(policy, 0, NULL), *b = text ? json_loads(text, 0, NULL) : NULL;
    CHECK(b && json_equal(a, b));
    json_decref(a);
    json_decref(b);
    free(text);
    CHECK_INT(byoc_ecr_delete_repository_policy(client, NULL, repo, &err), 0);
    CHECK_INT(byoc_ecr_delete_repository_policy(client, NULL, repo, &err), 0); /* none left: fine */
    CHECK_INT(byoc_ecr_get_repository_policy(client, NULL, repo, &text, &err), 0);
    CHECK(text == NULL);
    long before = count(NULL);
    char *big = byoc_xmalloc(10300);
    memset(big, ' ', 10299);
    big[0] = '{';
    big[10298] = '}';
    big[10299] = 0;
    CHECK_INT(byoc_ecr_set_repository_policy(client, NULL, repo, big, false, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_INT(count(NULL), before);
    free(big);
}

/* ---- login tokens ---- */

static void test_tokens(void)
{
    byoc_err err;
    time_t t0 = time(NULL);
    byoc_ecr_token tok;
    CHECK_INT(byoc_ecr_get_authorization_token(client, NULL, NULL, t0, &tok, &err), 0);
    CHECK_STR(tok.username, "AWS");
    char want[64];
    snprintf(want, sizeof want, "%s-auth-token", check_env("BYOC_TEST_ACCOUNT"));
    CHECK_STR(tok.password, want);
    CHECK_STR(tok.registry_host, check_env("BYOC_TEST_REGISTRY"));
    CHECK(tok.expires_at < t0);                     /* moto: 2015 */
    CHECK_INT(tok.valid_until, t0 + BYOC_ECR_TOKEN_FALLBACK_WINDOW_S);
    /* The password is a registered secret: it never reaches text that leaves the process. */
    char line[128];
    snprintf(line, sizeof line, "password=%s", tok.password);
    byoc_redact_inplace(line);
    CHECK_STR(line, "password=***");
    byoc_ecr_token_clear(&tok);

    CHECK_INT(byoc_ecr_get_authorization_token(client, NULL, "12345", t0, &tok, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);

    /* The cache: an expired-on-arrival token is used for one window, then refreshed once. */
    json_decref(front_get("/_front/reset"));
    byoc_ecr_auth *a = byoc_ecr_auth_new(client, check_env("BYOC_TEST_ACCOUNT"));
    const time_t w = BYOC_ECR_TOKEN_FALLBACK_WINDOW_S;
    time_t at[] = {t0, t0 + 1, t0 + 60, t0 + w - 1, t0 + w, t0 + w + 1, t0 + w + 2, t0 + 2 * w - 1, t0 + 2 * w};
    unsigned want_fetches[] = {1, 1, 1, 1, 2, 2, 2, 2, 3};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        int rc = byoc_ecr_auth_get(a, NULL, at[i], false, &tok, &err);
        CHECK_INT(rc, 0);
        CHECK_INT(byoc_ecr_auth_fetches(a), want_fetches[i]);
        CHECK(rc != 0 || tok.password != NULL);
        byoc_ecr_token_clear(&tok);
    }
    CHECK_INT(count("GetAuthorizationToken"), 3);
    /* Many calls within one window: still no new fetch (no loop on an expired expiresAt). */
    for (int i = 0; i < 50; i++) {
        byoc_ecr_auth_get(a, NULL, t0 + 2 * w + 10, false, &tok, &err);
        byoc_ecr_token_clear(&tok);
    }
    CHECK_INT(byoc_ecr_auth_fetches(a), 3);
    CHECK_INT(count("GetAuthorizationToken"), 3);
    /* Forced (the registry refused it): a new one, but not again within the force interval. */
    CHECK_INT(byoc_ecr_auth_get(a, NULL, t0 + 2 * w + 20, true, &tok, &err), 0);
    byoc_ecr_token_clear(&tok);
    CHECK_INT(byoc_ecr_auth_fetches(a), 4);
    CHECK_INT(byoc_ecr_auth_get(a, NULL, t0 + 2 * w + 20, true, &tok, &err), 0);
    byoc_ecr_token_clear(&tok);
    CHECK_INT(byoc_ecr_auth_fetches(a), 4);
    CHECK_INT(byoc_ecr_auth_get(a, NULL, t0 + 2 * w + 20 + BYOC_ECR_TOKEN_FORCE_INTERVAL_S, true, &tok, &err), 0);
    byoc_ecr_token_clear(&tok);
    CHECK_INT(byoc_ecr_auth_fetches(a), 5);
    CHECK_INT(count("GetAuthorizationToken"), 5);
    byoc_ecr_auth_free(a);

    /* A real 12-hour token is refreshed 5 minutes before it expires. */
    CHECK_INT(byoc_ecr_token_valid_until(1000, 1000 + 43200), 1000 + 43200 - BYOC_ECR_TOKEN_MARGIN_S);
}

int main(void)
{
    check_env("BYOC_TEST_ACCOUNT");
    check_env("BYOC_TEST_REGISTRY");
    byoc_http_global_init();
    if (start_front() != 0) {
        fprintf(stderr, "could not start tests/topology/ecr_front.py\n");
        return 1;
    }
    setenv("AWS_ENDPOINT_URL_ECR", front_url, 1);
    snprintf(repo, sizeof repo, "amazon-braket-itest/ecr-%ld-%ld", (long)getpid(), (long)time(NULL));
    byoc_err err;
    if (byoc_aws_client_new(NULL, &client, &err) != 0) {
        show("client", &err);
        stop_front();
        return 1;
    }
    test_repositories();
    test_images();
    test_policy_calls();
    test_tokens();
    CHECK_INT(byoc_ecr_delete_repository(client, NULL, repo, true, &err), 0);

    byoc_aws_client_free(client);
    stop_front();
    byoc_http_global_cleanup();
    byoc_secret_clear_all();
    return check_done();
}
