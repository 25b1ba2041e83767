/* Pure parts of the ECR client and the push: repository names against the
 * pattern of botocore's ECR model (these cases agree with Python's re on it), the amazon-braket suggestion, when a login token is refreshed,
 * push layer states and which push errors mean "log in again". */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "aws/ecr.h"
#include "byoc/imagecheck.h"
#include "byoc/pushflow.h"
#include "docker/push.h"

static void test_names(void)
{
    const char *good[] = {"ab", "a1", "amazon-braket-x", "team/app", "a.b_c-d/e__f", "a/b/c/d", "a--b", "a---b_c",
                          "amazon-braket/my_image.v2", "0123456789"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char why[160] = "";
        bool ok = byoc_ecr_repository_name_ok(good[i], why, sizeof why);
        if (!ok)
            fprintf(stderr, "%s: %s\n", good[i], why);
        CHECK(ok);
    }
    const char *bad[] = {"", "a", "A1", "My-repo", "-ab", "ab-", "a___b", "a..b", "a._b", "a-_b", "a//b", "/ab", "ab/", "a b",
                         "a:b", "a@b", "ab\n", "é-x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char why[160] = "";
        CHECK(!byoc_ecr_repository_name_ok(bad[i], why, sizeof why));
        CHECK(why[0] != '\0');
    }
    char *long_name = malloc(258);
    memset(long_name, 'a', 257);
    long_name[257] = 0;
    CHECK(!byoc_ecr_repository_name_ok(long_name, NULL, 0));
    long_name[256] = 0;
    CHECK(byoc_ecr_repository_name_ok(long_name, NULL, 0));
    free(long_name);

    byoc_err err;
    CHECK_INT(byoc_ecr_check_repository_name("Bad", "--repository", &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--repository");
    CHECK(strstr(err.message, "lowercase") != NULL);
}

static void test_braket_names(void)
{
    CHECK(byoc_push_braket_name_ok("amazon-braket-x"));
    CHECK(byoc_push_braket_name_ok("amazon-braket/x"));
    CHECK(!byoc_push_braket_name_ok("my-image"));
    char *s = byoc_push_braket_name_suggestion("my-image");
    CHECK_STR(s, "amazon-braket-my-image");
    free(s);
    s = byoc_push_braket_name_suggestion("team/app");
    CHECK_STR(s, "amazon-braket-team/app");
    free(s);
    CHECK(byoc_push_braket_name_suggestion("amazon-braket-ok") == NULL);
    /* the tag a push gives with none asked (the Push form shows it as the tag's default) */
    const char *refs[][2] = {{"app:v3", "v3"}, {"app", "latest"}, {"localhost:5000/team/app:1.2", "1.2"},
                             {"app@sha256:" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "latest"}};
    for (size_t i = 0; i < sizeof refs / sizeof *refs; i++) {
        s = byoc_push_default_tag(refs[i][0]);
        CHECK_STR(s, refs[i][1]);
        free(s);
    }
}

static void test_token_window(void)
{
    /* A 12-hour token: refreshed a margin before it expires. */
    CHECK_INT(byoc_ecr_token_valid_until(1000, 1000 + 12 * 3600), 1000 + 12 * 3600 - BYOC_ECR_TOKEN_MARGIN_S);
    /* Already expired on arrival (moto's 2015), or too short to trust: a fixed window from the fetch. */
    CHECK_INT(byoc_ecr_token_valid_until(1700000000, 1420070400), 1700000000 + BYOC_ECR_TOKEN_FALLBACK_WINDOW_S);
    CHECK_INT(byoc_ecr_token_valid_until(5000, 5000 + 60), 5000 + BYOC_ECR_TOKEN_FALLBACK_WINDOW_S);
    CHECK_INT(byoc_ecr_token_valid_until(5000, 0), 5000 + BYOC_ECR_TOKEN_FALLBACK_WINDOW_S);
    /* Always in the future of the fetch: refreshing can never loop. */
    for (long e = -100000; e < 100000; e += 997)
        CHECK(byoc_ecr_token_valid_until(1000, 1000 + e) > 1000);
}

static void test_push_words(void)
{
    CHECK_STR(byoc_layer_state_name(BYOC_LAYER_PUSHED), "pushed");
    CHECK_STR(byoc_layer_state_name(BYOC_LAYER_EXISTS), "exists");
    CHECK(byoc_layer_state_done(BYOC_LAYER_MOUNTED));
    CHECK(!byoc_layer_state_done(BYOC_LAYER_RETRYING));
    CHECK(byoc_push_error_is_auth("unauthorized: authentication required"));
    CHECK(byoc_push_error_is_auth("no basic auth credentials"));
    CHECK(byoc_push_error_is_auth("denied: Your authorization token has expired. Reauthenticate and try again."));
    CHECK(!byoc_push_error_is_auth("name unknown: The repository with name 'x' does not exist"));
    CHECK(!byoc_push_error_is_auth("dial tcp 127.0.0.1:443: connect: connection refused"));
    CHECK(!byoc_push_error_is_auth(NULL));
}

static void test_image_uris(void)
{
    byoc_ecr_image_uri u;
    char why[256];
    CHECK(byoc_ecr_image_uri_parse("123456789012.dkr.ecr.us-west-2.amazonaws.com/amazon-braket-x/app:v1", &u, why,
                                   sizeof why));
    CHECK_STR(u.account, "123456789012");
    CHECK_STR(u.region, "us-west-2");
    CHECK_STR(u.repository, "amazon-braket-x/app");
    CHECK_STR(u.tag, "v1");
    CHECK(u.digest == NULL);
    byoc_ecr_image_uri_clear(&u);
    CHECK(byoc_ecr_image_uri_parse("123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn/r1@sha256:abc", &u, why,
                                   sizeof why));
    CHECK_STR(u.region, "cn-north-1");
    CHECK_STR(u.digest, "sha256:abc");
    CHECK(u.tag == NULL);
    byoc_ecr_image_uri_clear(&u);
    CHECK(byoc_ecr_image_uri_parse("123456789012.dkr.ecr-fips.us-east-1.amazonaws.com/r1", &u, why, sizeof why));
    CHECK_STR(u.tag, "latest");
    byoc_ecr_image_uri_clear(&u);
    const char *bad[] = {"busybox:1", "docker.io/library/busybox", "12345.dkr.ecr.us-east-1.amazonaws.com/r:1",
                         "123456789012.dkr.ecr.us-east-1.example.com/r:1", "123456789012.dkr.ecr..amazonaws.com/r",
                         "123456789012.dkr.ecr.us-east-1.amazonaws.com/Bad:1",
                         "123456789012.dkr.ecr.us-east-1.amazonaws.com/r:", NULL};
    for (size_t i = 0; bad[i]; i++) {
        bool ok = byoc_ecr_image_uri_parse(bad[i], &u, why, sizeof why);
        if (ok)
            fprintf(stderr, "accepted %s\n", bad[i]);
        CHECK(!ok);
        CHECK(why[0] != '\0');
    }
}

int main(void)
{
    test_names();
    test_braket_names();
    test_token_window();
    test_push_words();
    test_image_uris();
    return check_done();
}
