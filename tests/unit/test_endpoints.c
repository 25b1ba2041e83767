/* Endpoint defaults per region/partition and the override precedence table. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/config.h"
#include "aws/endpoints.h"

static const char *ALL_VARS[] = {"AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BRAKET",
                                 "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", "AWS_ENDPOINT_URL_STS",
                                 "AWS_ENDPOINT_URL_IAM", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_PROFILE",
                                 "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION"};

static void clear_env(void)
{
    for (size_t i = 0; i < sizeof ALL_VARS / sizeof *ALL_VARS; i++)
        unsetenv(ALL_VARS[i]);
}

/* Resolve and return "url|signing_region|origin|overridden". */
static char result[1024];
static const char *resolve(const byoc_aws_config *c, const char *region, byoc_aws_service s)
{
    byoc_aws_endpoint e;
    byoc_err err;
    if (byoc_aws_endpoint_resolve(c, region, s, &e, &err) != 0) {
        snprintf(result, sizeof result, "error %s: %s", err.what, err.message);
        return result;
    }
    snprintf(result, sizeof result, "%s|%s|%s|%s|%s", e.url, e.signing_region, e.signing_name, e.origin,
             e.overridden ? "override" : "-");
    byoc_aws_endpoint_clear(&e);
    return result;
}

static void test_defaults(void)
{
    CHECK_STR(resolve(NULL, "us-east-1", BYOC_AWS_ECR), "https://api.ecr.us-east-1.amazonaws.com|us-east-1|ecr|default|-");
    CHECK_STR(resolve(NULL, "eu-west-2", BYOC_AWS_BRAKET), "https://braket.eu-west-2.amazonaws.com|eu-west-2|braket|default|-");
    CHECK_STR(resolve(NULL, "us-west-2", BYOC_AWS_S3), "https://s3.us-west-2.amazonaws.com|us-west-2|s3|default|-");
    CHECK_STR(resolve(NULL, "us-west-1", BYOC_AWS_LOGS), "https://logs.us-west-1.amazonaws.com|us-west-1|logs|default|-");
    CHECK_STR(resolve(NULL, "ap-southeast-2", BYOC_AWS_STS), "https://sts.ap-southeast-2.amazonaws.com|ap-southeast-2|sts|default|-");
    CHECK_STR(resolve(NULL, NULL, BYOC_AWS_STS), "https://sts.amazonaws.com|us-east-1|sts|default|-");
    CHECK_STR(resolve(NULL, "eu-west-1", BYOC_AWS_IAM), "https://iam.amazonaws.com|us-east-1|iam|default|-");
    CHECK_STR(resolve(NULL, NULL, BYOC_AWS_IAM), "https://iam.amazonaws.com|us-east-1|iam|default|-");
    /* Other partitions. */
    CHECK_STR(resolve(NULL, "cn-north-1", BYOC_AWS_ECR), "https://api.ecr.cn-north-1.amazonaws.com.cn|cn-north-1|ecr|default|-");
    CHECK_STR(resolve(NULL, "cn-northwest-1", BYOC_AWS_IAM), "https://iam.cn-north-1.amazonaws.com.cn|cn-north-1|iam|default|-");
    CHECK_STR(resolve(NULL, "us-gov-west-1", BYOC_AWS_IAM), "https://iam.us-gov.amazonaws.com|us-gov-west-1|iam|default|-");
    CHECK_STR(resolve(NULL, "us-gov-east-1", BYOC_AWS_LOGS), "https://logs.us-gov-east-1.amazonaws.com|us-gov-east-1|logs|default|-");
    CHECK_STR(byoc_aws_partition("cn-north-1"), "aws-cn");
    CHECK_STR(byoc_aws_partition("us-gov-west-1"), "aws-us-gov");
    CHECK_STR(byoc_aws_partition("us-east-1"), "aws");
    /* A region is required for regional services, and must look like one. */
    CHECK(strncmp(resolve(NULL, NULL, BYOC_AWS_ECR), "error region: no AWS region", 27) == 0);
    CHECK(strncmp(resolve(NULL, "evil.com/x", BYOC_AWS_ECR), "error region:", 13) == 0);

    char *h = byoc_aws_ecr_registry_host("123456789012", "us-east-1");
    CHECK_STR(h, "123456789012.dkr.ecr.us-east-1.amazonaws.com");
    free(h);
    h = byoc_aws_ecr_registry_host("123456789012", "cn-north-1");
    CHECK_STR(h, "123456789012.dkr.ecr.cn-north-1.amazonaws.com.cn");
    free(h);
    CHECK(byoc_aws_ecr_registry_host("12345", "us-east-1") == NULL);
    CHECK(byoc_aws_ecr_registry_host("12345678901a", "us-east-1") == NULL);
    CHECK_INT(byoc_aws_service_from_name("logs"), BYOC_AWS_LOGS);
    CHECK_INT(byoc_aws_service_from_name("nope"), -1);
}

static void test_s3_addressing(void)
{
    byoc_aws_endpoint e;
    byoc_err err;
    CHECK_INT(byoc_aws_endpoint_resolve(NULL, "us-west-2", BYOC_AWS_S3, &e, &err), 0);
    CHECK(!e.s3_path_style);
    char *u = byoc_aws_s3_url(&e, "my-bucket", "jobs/a b+c.txt");
    CHECK_STR(u, "https://my-bucket.s3.us-west-2.amazonaws.com/jobs/a%20b%2Bc.txt");
    free(u);
    u = byoc_aws_s3_url(&e, "my-bucket", NULL);
    CHECK_STR(u, "https://my-bucket.s3.us-west-2.amazonaws.com/");
    free(u);
    /* Dots break TLS on virtual hosts: path style. */
    u = byoc_aws_s3_url(&e, "my.bucket", "k");
    CHECK_STR(u, "https://s3.us-west-2.amazonaws.com/my.bucket/k");
    free(u);
    byoc_aws_endpoint_clear(&e);
    CHECK(byoc_aws_s3_virtual_host_ok("abc"));
    CHECK(!byoc_aws_s3_virtual_host_ok("ab"));
    CHECK(!byoc_aws_s3_virtual_host_ok("Abc"));
    CHECK(!byoc_aws_s3_virtual_host_ok("-abc"));

    setenv("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:5000/", 1);
    CHECK_INT(byoc_aws_endpoint_resolve(NULL, "us-west-2", BYOC_AWS_S3, &e, &err), 0);
    CHECK(e.s3_path_style);
    CHECK_STR(e.url, "http://127.0.0.1:5000");
    CHECK_STR(e.signing_region, "us-west-2");
    u = byoc_aws_s3_url(&e, "my-bucket", "a/b c");
    CHECK_STR(u, "http://127.0.0.1:5000/my-bucket/a/b%20c");
    free(u);
    byoc_aws_endpoint_clear(&e);
    unsetenv("AWS_ENDPOINT_URL_S3");
}

static void test_precedence(const char *dir)
{
    char cfg[4096], creds[4096];
    snprintf(cfg, sizeof cfg, "%s/config", dir);
    snprintf(creds, sizeof creds, "%s/credentials", dir);
    FILE *f = fopen(cfg, "w");
    fputs("[default]\n"
          "region = us-east-1\n"
          "[profile svc]\n"
          "region = us-west-2\n"
          "endpoint_url = http://127.0.0.1:7001\n"
          "services = local\n"
          "[profile ignoring]\n"
          "endpoint_url = http://127.0.0.1:7001\n"
          "ignore_configured_endpoint_urls = true\n"
          "[profile paths]\n"
          "s3 =\n"
          "  addressing_style = path\n"
          "[services local]\n"
          "ecr =\n"
          "  endpoint_url = http://127.0.0.1:7002\n"
          "s3 =\n"
          "  endpoint_url = http://127.0.0.1:7003\n"
          "cloudwatch_logs =\n"
          "  endpoint_url = http://127.0.0.1:7004\n"
          "iam =\n"
          "  endpoint_url = http://127.0.0.1:7005\n"
          "[profile badurl]\n"
          "endpoint_url = ftp://x\n",
          f);
    fclose(f);
    f = fopen(creds, "w");
    fclose(f);
    byoc_aws_config_opts o = {.profile = "svc", .config_file = cfg, .credentials_file = creds};
    byoc_aws_config *c;
    byoc_err err;
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), 0);

    /* [services] key > profile endpoint_url; no services key -> profile endpoint_url. */
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_ECR), "http://127.0.0.1:7002|us-west-2|ecr|services local|override");
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_LOGS), "http://127.0.0.1:7004|us-west-2|logs|services local|override");
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_BRAKET), "http://127.0.0.1:7001|us-west-2|braket|profile svc|override");
    /* IAM keeps signing us-east-1 under an override. */
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_IAM), "http://127.0.0.1:7005|us-east-1|iam|services local|override");
    /* AWS_ENDPOINT_URL > config. */
    setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:8000", 1);
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_ECR), "http://127.0.0.1:8000|us-west-2|ecr|AWS_ENDPOINT_URL|override");
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_STS), "http://127.0.0.1:8000|us-west-2|sts|AWS_ENDPOINT_URL|override");
    /* AWS_ENDPOINT_URL_<SERVICE> > AWS_ENDPOINT_URL, for each service id. */
    static const struct { const char *var; byoc_aws_service s; } per[] = {
        {"AWS_ENDPOINT_URL_ECR", BYOC_AWS_ECR},   {"AWS_ENDPOINT_URL_BRAKET", BYOC_AWS_BRAKET},
        {"AWS_ENDPOINT_URL_S3", BYOC_AWS_S3},     {"AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", BYOC_AWS_LOGS},
        {"AWS_ENDPOINT_URL_STS", BYOC_AWS_STS},   {"AWS_ENDPOINT_URL_IAM", BYOC_AWS_IAM}};
    for (size_t i = 0; i < sizeof per / sizeof *per; i++) {
        setenv(per[i].var, "https://127.0.0.1:9443/base/", 1);
        byoc_aws_endpoint e;
        CHECK_INT(byoc_aws_endpoint_resolve(c, "us-west-2", per[i].s, &e, &err), 0);
        CHECK_STR(e.url, "https://127.0.0.1:9443/base");
        CHECK_STR(e.origin, per[i].var);
        CHECK(e.overridden);
        byoc_aws_endpoint_clear(&e);
        /* Only that service. */
        CHECK_STR(resolve(c, "us-west-2", per[i].s == BYOC_AWS_ECR ? BYOC_AWS_BRAKET : BYOC_AWS_ECR),
                  per[i].s == BYOC_AWS_ECR ? "http://127.0.0.1:8000|us-west-2|braket|AWS_ENDPOINT_URL|override"
                                           : "http://127.0.0.1:8000|us-west-2|ecr|AWS_ENDPOINT_URL|override");
        unsetenv(per[i].var);
    }
    /* The switch that turns all of them off. */
    setenv("AWS_ENDPOINT_URL_ECR", "http://127.0.0.1:9000", 1);
    setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_ECR), "https://api.ecr.us-west-2.amazonaws.com|us-west-2|ecr|default|-");
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_S3), "https://s3.us-west-2.amazonaws.com|us-west-2|s3|default|-");
    setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "false", 1);
    CHECK_STR(resolve(c, "us-west-2", BYOC_AWS_ECR), "http://127.0.0.1:9000|us-west-2|ecr|AWS_ENDPOINT_URL_ECR|override");
    unsetenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    unsetenv("AWS_ENDPOINT_URL_ECR");
    unsetenv("AWS_ENDPOINT_URL");
    byoc_aws_config_free(c);

    o.profile = "ignoring";
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), 0);
    CHECK_STR(resolve(c, "us-east-1", BYOC_AWS_ECR), "https://api.ecr.us-east-1.amazonaws.com|us-east-1|ecr|default|-");
    byoc_aws_config_free(c);

    o.profile = "paths";
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), 0);
    byoc_aws_endpoint e;
    CHECK_INT(byoc_aws_endpoint_resolve(c, "us-east-1", BYOC_AWS_S3, &e, &err), 0);
    CHECK(e.s3_path_style);
    CHECK(!e.overridden);
    char *u = byoc_aws_s3_url(&e, "bucket", "k");
    CHECK_STR(u, "https://s3.us-east-1.amazonaws.com/bucket/k");
    free(u);
    byoc_aws_endpoint_clear(&e);
    byoc_aws_config_free(c);

    o.profile = "badurl";
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), 0);
    CHECK_INT(byoc_aws_endpoint_resolve(c, "us-east-1", BYOC_AWS_ECR, &e, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "profile badurl");
    byoc_aws_config_free(c);
    unlink(cfg);
    unlink(creds);
}

int main(void)
{
    clear_env();
    char *dir = check_tmpdir();
    test_defaults();
    test_s3_addressing();
    test_precedence(dir);
    rmdir(dir);
    free(dir);
    return check_done();
}
