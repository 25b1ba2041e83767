/* Image references (the docker reference grammar), build option validation,
 * and the engine client's pure parts: DOCKER_HOST parsing, query and path
 * encoding. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "docker/build.h"
#include "docker/engine.h"
#include "docker/reference.h"

static void test_refs(void)
{
    static const struct {
        const char *in, *repo, *domain, *path, *tag, *digest;
    } ok[] = {
        {"busybox", "busybox", "docker.io", "library/busybox", NULL, NULL},
        {"busybox:1.36", "busybox", "docker.io", "library/busybox", "1.36", NULL},
        {"byoc-test/busybox:1", "byoc-test/busybox", "docker.io", "byoc-test/busybox", "1", NULL},
        {"localhost/app", "localhost/app", "localhost", "app", NULL, NULL},
        {"localhost:5000/a/b:tag_1.x-y", "localhost:5000/a/b", "localhost:5000", "a/b", "tag_1.x-y", NULL},
        {"123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-x:latest",
         "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-x", "123456789012.dkr.ecr.us-east-1.amazonaws.com",
         "amazon-braket-x", "latest", NULL},
        {"a__b/c--d/e.f_g:T", "a__b/c--d/e.f_g", "docker.io", "a__b/c--d/e.f_g", "T", NULL},
        {"Registry.Example/x", "Registry.Example/x", "Registry.Example", "x", NULL, NULL},
        {"index.docker.io/foo", "index.docker.io/foo", "docker.io", "library/foo", NULL, NULL},
        {"app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "app", "docker.io",
         "library/app", NULL, "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        byoc_imageref r;
        byoc_err e;
        if (byoc_imageref_parse(ok[i].in, "-t", &r, &e) != 0) {
            check_fail(__FILE__, __LINE__, "'%s' rejected: %s", ok[i].in, e.message);
            continue;
        }
        CHECK_STR(r.repository, ok[i].repo);
        CHECK_STR(r.domain, ok[i].domain);
        CHECK_STR(r.path, ok[i].path);
        CHECK(ok[i].tag ? (r.tag && strcmp(r.tag, ok[i].tag) == 0) : r.tag == NULL);
        CHECK(ok[i].digest ? (r.digest && strcmp(r.digest, ok[i].digest) == 0) : r.digest == NULL);
        byoc_imageref_clear(&r);
    }
    static const char *bad[] = {
        "", "UPPER", "app:", ":tag", "app:-tag", "app:.tag", "/app", "app/", "a//b", "app:tag:tag", "-app",
        "app-", "a_b_", "a___b", "app:has space", "with space", "app@sha256:short", "x..y",
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "ex\xc3\xa9", "host:port/app:t@",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        byoc_imageref r;
        byoc_err e;
        byoc_err_clear(&e);
        if (byoc_imageref_parse(bad[i], "-t", &r, &e) == 0) {
            check_fail(__FILE__, __LINE__, "'%s' accepted", bad[i]);
            byoc_imageref_clear(&r);
        } else {
            check_passed++;
            CHECK_INT(e.kind, BYOC_E_USAGE);
            CHECK_STR(e.what, "-t");
        }
    }
    char long_tag[140];
    memset(long_tag, 'a', 129);
    long_tag[129] = 0;
    CHECK(!byoc_imageref_valid_tag(long_tag));
    long_tag[128] = 0;
    CHECK(byoc_imageref_valid_tag(long_tag));
    char long_name[300];
    memset(long_name, 'a', 260);
    long_name[260] = 0;
    byoc_err e;
    CHECK_INT(byoc_imageref_check_tag(long_name, "-t", &e), -1);
    CHECK_INT(byoc_imageref_check_tag("app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
                                      "-t", &e), -1);
    CHECK(strstr(e.message, "digest") != NULL);
    CHECK_INT(byoc_imageref_check_tag("Repo:tag", "-t", &e), -1);
    CHECK(strstr(e.message, "lowercase") != NULL);
}

static void test_build_validate(void)
{
    byoc_err e;
    const char *good_tags[] = {"app", "app:1"};
    const char *good_args[] = {"A=1", "B", "C=", "D=x=y"};
    const char *good_labels[] = {"org.opencontainers.image.revision=abc"};
    byoc_build_opts o = {.context_dir = ".", .tags = good_tags, .n_tags = 2, .build_args = good_args,
                         .n_build_args = 4, .labels = good_labels, .n_labels = 1, .platform = "linux/arm64/v8",
                         .network = "none", .target = "build-stage.1"};
    CHECK_INT(byoc_build_validate(&o, &e), 0);
    static const struct {
        const char *flag, *value;
    } bad[] = {{"--tag", "Bad:Tag"},       {"--tag", "app:"},         {"--build-arg", "=v"},
               {"--build-arg", "A B=1"},   {"--build-arg", ""},       {"--label", "=x"},
               {"--platform", "linux//x"}, {"--platform", "a/b/c/d"}, {"--platform", "linux amd64"},
               {"--network", "no ne"},     {"--target", "a b"},       {"--network", ""}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        byoc_build_opts b = {.context_dir = "."};
        const char *one[] = {bad[i].value};
        if (!strcmp(bad[i].flag, "--tag"))
            b.tags = one, b.n_tags = 1;
        else if (!strcmp(bad[i].flag, "--build-arg"))
            b.build_args = one, b.n_build_args = 1;
        else if (!strcmp(bad[i].flag, "--label"))
            b.labels = one, b.n_labels = 1;
        else if (!strcmp(bad[i].flag, "--platform"))
            b.platform = bad[i].value;
        else if (!strcmp(bad[i].flag, "--network"))
            b.network = bad[i].value;
        else
            b.target = bad[i].value;
        byoc_err_clear(&e);
        if (byoc_build_validate(&b, &e) == 0) {
            check_fail(__FILE__, __LINE__, "%s '%s' accepted", bad[i].flag, bad[i].value);
        } else {
            check_passed++;
            CHECK_INT(e.kind, BYOC_E_USAGE);
            CHECK_STR(e.what, bad[i].flag);
        }
    }
}

static void test_hosts(void)
{
    byoc_engine *en;
    byoc_err e;
    unsetenv("DOCKER_TLS_VERIFY");
    unsetenv("DOCKER_TLS");
    CHECK_INT(byoc_engine_new_host(NULL, &en, &e), 0);
    CHECK_STR(byoc_engine_host(en), "unix:///var/run/docker.sock");
    CHECK_STR(byoc_engine_api_version(en), "");
    byoc_engine_free(en);
    CHECK_INT(byoc_engine_new_host("tcp://127.0.0.1", &en, &e), 0);
    byoc_engine_free(en);
    CHECK_INT(byoc_engine_new_host("127.0.0.1:2375", &en, &e), 0);
    byoc_engine_free(en);
    CHECK_INT(byoc_engine_new_host("tcp://[::1]:2376", &en, &e), 0);
    byoc_engine_free(en);
    static const char *bad[] = {"ssh://user@host", "fd://", "npipe:////./pipe/docker_engine", "unix://", "http://x",
                                "tcp://"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        byoc_err_clear(&e);
        CHECK_INT(byoc_engine_new_host(bad[i], &en, &e), -1);
        CHECK_INT(e.kind, BYOC_E_ENV);
        CHECK_STR(e.what, "DOCKER_HOST");
    }
    /* TLS verification needs the CA file */
    setenv("DOCKER_TLS_VERIFY", "1", 1);
    setenv("DOCKER_CERT_PATH", "/nonexistent-byoc-certs", 1);
    CHECK_INT(byoc_engine_new_host("tcp://127.0.0.1:2376", &en, &e), -1);
    CHECK_STR(e.what, "DOCKER_CERT_PATH");
    unsetenv("DOCKER_TLS_VERIFY");
    unsetenv("DOCKER_CERT_PATH");
}

static void test_encoding(void)
{
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "t", "app:1");
    byoc_query_add(&q, "buildargs", "{\"A\":\"x y&z\"}");
    byoc_query_add_int(&q, "since", 42);
    CHECK_STR(q.data, "t=app%3A1&buildargs=%7B%22A%22%3A%22x%20y%26z%22%7D&since=42");
    byoc_buf_clear(&q);
    char *p = byoc_engine_path_escape("localhost:5000/a/b:1@sha256:ab c?#");
    CHECK_STR(p, "localhost:5000/a/b:1@sha256:ab%20c%3F%23");
    free(p);
}

int main(void)
{
    test_refs();
    test_build_validate();
    test_hosts();
    test_encoding();
    return check_done();
}
