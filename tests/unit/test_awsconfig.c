/* AWS config/credentials files and the settings resolved from them, compared
 * with what the AWS CLI (botocore) does for the same files. */
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/config.h"
#include "aws/ini.h"
#include "core/buf.h"
#include "core/log.h"

static char *dir;
static char config_path[4096], creds_path[4096];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void clear_env(void)
{
    static const char *const vars[] = {"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
                                       "AWS_CA_BUNDLE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE",
                                       "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        unsetenv(vars[i]);
}

static const char *CONFIG =
    "# a comment\n"
    "; another comment\n"
    "[default]\n"
    "region = eu-west-1\n"
    "output = json # not a comment: the CLI has no inline comments\n"
    "\n"
    "[profile dev]\n"
    "region=us-west-2\n"
    "aws_access_key_id = AKIDCONFIGDEV\n"
    "s3 =\n"
    "  max_attempts = 7\n"
    "  # comment inside a nested block\n"
    "  addressing_style = path\n"
    "services = local-stack\n"
    "ca_bundle = ~/ca.pem\n"
    "max_attempts = 4\n"
    "retry_mode = adaptive\n"
    "\n"
    "[plainsection]\n"
    "region = ap-south-1\n"
    "\n"
    "[profile \"spaced name\"]\n"
    "region : ca-central-1\n"
    "\n"
    "[services local-stack]\n"
    "ecr =\n"
    "  endpoint_url = http://127.0.0.1:5000\n"
    "cloudwatch_logs =\n"
    "    endpoint_url = http://127.0.0.1:5001\n"
    "\n"
    "[sso-session corp]\n"
    "sso_region = us-east-1\n"
    "sso_start_url = https://corp.awsapps.com/start\n"
    "\n"
    "[profile  multi ]\n"
    "description = first line\n"
    "   second line\n"
    "Region = sa-east-1\n";

static const char *CREDS =
    "[default]\n"
    "aws_access_key_id = AKIDDEFAULT\n"
    "aws_secret_access_key = secret-default-123456\n"
    "[dev]\n"
    "region = us-east-2\n"
    "aws_secret_access_key = secret-dev-1234567\n"
    "[plainsection]\n"
    "aws_access_key_id = AKIDPLAIN\n";

static byoc_aws_config *load(const char *profile, const char *region, byoc_err *err)
{
    byoc_aws_config_opts o = {.profile = profile, .region = region};
    byoc_aws_config *c = NULL;
    if (byoc_aws_config_load(&o, &c, err) != 0)
        return NULL;
    return c;
}

static void test_ini(void)
{
    byoc_ini ini;
    byoc_err err;
    CHECK_INT(byoc_ini_parse(CONFIG, "cfg", &ini, &err), 0);
    const byoc_ini_section *dev = byoc_ini_section_get(&ini, "profile dev");
    CHECK(dev != NULL);
    CHECK_STR(byoc_ini_get(dev, "region"), "us-west-2");
    CHECK_STR(byoc_ini_get(dev, "s3"), "\nmax_attempts = 7\naddressing_style = path");
    char *sub = byoc_ini_get_sub(dev, "s3", "addressing_style");
    CHECK_STR(sub, "path");
    free(sub);
    CHECK(byoc_ini_get_sub(dev, "region", "x") == NULL);
    CHECK_STR(byoc_ini_get(byoc_ini_section_get(&ini, "default"), "output"),
              "json # not a comment: the CLI has no inline comments");
    const byoc_ini_section *multi = byoc_ini_section_get(&ini, "profile  multi ");
    CHECK_STR(byoc_ini_get(multi, "description"), "first line\nsecond line");
    CHECK_STR(byoc_ini_get(multi, "region"), "sa-east-1"); /* keys are lower-cased */
    CHECK_STR(byoc_ini_get(byoc_ini_section_get(&ini, "profile \"spaced name\""), "region"), "ca-central-1");
    byoc_ini_clear(&ini);

    /* What the CLI refuses, we refuse. */
    CHECK_INT(byoc_ini_parse("[a]\nx=1\n[a]\ny=2\n", "f", &ini, &err), -1);
    CHECK(strstr(err.message, "line 3") != NULL);
    CHECK_INT(byoc_ini_parse("x=1\n[a]\n", "f", &ini, &err), -1);
    CHECK_INT(byoc_ini_parse("[a]\njunk line\n", "f", &ini, &err), -1);
    CHECK_INT(byoc_ini_parse("[a]\nx=1\nx=2\n", "f", &ini, &err), -1);
    CHECK_INT(err.kind, BYOC_E_ENV);
    /* CRLF files and an empty file are fine. */
    CHECK_INT(byoc_ini_parse("[a]\r\nx = 1\r\n", "f", &ini, &err), 0);
    CHECK_STR(byoc_ini_get(byoc_ini_section_get(&ini, "a"), "x"), "1");
    byoc_ini_clear(&ini);
    CHECK_INT(byoc_ini_parse("", "f", &ini, &err), 0);
    CHECK_INT(ini.len, 0);
    byoc_ini_clear(&ini);
}

/* A config of 150,000 profiles (single sign-on can generate one per account
 * and role), and a value of 150,000 lines: linear, where the duplicate checks
 * and line joins once scanned or copied everything before (minutes, past the
 * unit timeout). Duplicates are still refused. */
static void test_ini_large(void)
{
    enum { N = 150000 };
    byoc_buf text = BYOC_BUF_INIT;
    for (int i = 0; i < N; i++)
        byoc_buf_printf(&text, "[profile p%d]\nregion = us-east-1\nsso_account_id = %012d\n", i, i);
    byoc_ini ini;
    byoc_err err;
    CHECK_INT(byoc_ini_parse(text.data, "big", &ini, &err), 0);
    CHECK_INT(ini.len, N);
    CHECK_STR(byoc_ini_get(byoc_ini_section_get(&ini, "profile p149999"), "sso_account_id"), "000000149999");
    byoc_ini_clear(&ini);
    byoc_buf_puts(&text, "[profile p0]\n");
    CHECK_INT(byoc_ini_parse(text.data, "big", &ini, &err), -1);
    CHECK(strstr(err.message, "section appears twice") != NULL);
    byoc_buf_clear(&text);

    byoc_buf_puts(&text, "[a]\nx = first\n");
    for (int i = 0; i < N; i++)
        byoc_buf_puts(&text, "  more\n");
    byoc_buf_puts(&text, "\n\nX = 2\n");
    CHECK_INT(byoc_ini_parse(text.data, "long", &ini, &err), -1); /* keys are lower-cased: x twice */
    CHECK(strstr(err.message, "key appears twice") != NULL);
    byoc_buf_clear(&text);
    byoc_buf_puts(&text, "[a]\nx = first\n");
    for (int i = 0; i < N; i++)
        byoc_buf_puts(&text, "  more\n");
    byoc_buf_puts(&text, "\n\ny = 2\n");
    CHECK_INT(byoc_ini_parse(text.data, "long", &ini, &err), 0);
    const char *x = byoc_ini_get(byoc_ini_section_get(&ini, "a"), "x");
    CHECK_INT(x ? strlen(x) : 0, strlen("first") + (size_t)N * strlen("\nmore"));
    CHECK(x && strncmp(x, "first\nmore\nmore", 15) == 0 && x[strlen(x) - 1] == 'e');
    CHECK_STR(byoc_ini_get(byoc_ini_section_get(&ini, "a"), "y"), "2");
    byoc_ini_clear(&ini);
    byoc_buf_clear(&text);
}

static void test_profiles(void)
{
    byoc_err err;
    byoc_aws_config *c = load(NULL, NULL, &err);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_STR(byoc_aws_config_profile(c), "default");
    CHECK_STR(byoc_aws_config_profile_origin(c), "default");
    CHECK(!byoc_aws_config_profile_explicit(c));
    CHECK(byoc_aws_config_has_profile(c, "dev"));
    CHECK(byoc_aws_config_has_profile(c, "spaced name"));
    /* [plainsection] in the config file is no profile, but the credentials file's is. */
    CHECK(byoc_aws_config_has_profile(c, "plainsection"));
    CHECK(byoc_aws_config_get_in(c, BYOC_AWS_FILE_CONFIG, "plainsection", "region") == NULL);
    CHECK_STR(byoc_aws_config_get(c, "plainsection", "aws_access_key_id"), "AKIDPLAIN");
    CHECK(!byoc_aws_config_has_profile(c, "corp"));
    CHECK(!byoc_aws_config_has_profile(c, "local-stack"));
    /* The credentials file wins over the config file, key by key. */
    CHECK_STR(byoc_aws_config_get(c, "dev", "region"), "us-east-2");
    CHECK_STR(byoc_aws_config_get_in(c, BYOC_AWS_FILE_CONFIG, "dev", "region"), "us-west-2");
    CHECK_STR(byoc_aws_config_get(c, "dev", "aws_access_key_id"), "AKIDCONFIGDEV");
    CHECK_STR(byoc_aws_config_get(c, "dev", "aws_secret_access_key"), "secret-dev-1234567");
    CHECK_STR(byoc_aws_config_get(c, "spaced name", "region"), "ca-central-1");
    /* Secrets in the files are registered with the redactor on load. */
    char *red = byoc_redact_dup("key secret-dev-1234567 and secret-default-123456");
    CHECK_STR(red, "key *** and ***");
    free(red);
    /* Sub-keys, services and sso-session sections. */
    char *s = byoc_aws_config_get_sub(c, "dev", "s3", "max_attempts");
    CHECK_STR(s, "7");
    free(s);
    s = byoc_aws_config_service_get(c, "dev", "ecr", "endpoint_url");
    CHECK_STR(s, "http://127.0.0.1:5000");
    free(s);
    s = byoc_aws_config_service_get(c, "dev", "cloudwatch_logs", "endpoint_url");
    CHECK_STR(s, "http://127.0.0.1:5001");
    free(s);
    CHECK(byoc_aws_config_service_get(c, "dev", "s3", "endpoint_url") == NULL);
    CHECK(byoc_aws_config_service_get(c, "default", "ecr", "endpoint_url") == NULL);
    CHECK_STR(byoc_aws_config_sso_session_get(c, "corp", "sso_region"), "us-east-1");
    byoc_aws_config_free(c);

    /* Profile precedence: --profile > AWS_DEFAULT_PROFILE > AWS_PROFILE > default. */
    setenv("AWS_PROFILE", "dev", 1);
    c = load(NULL, NULL, &err);
    CHECK_STR(byoc_aws_config_profile(c), "dev");
    CHECK_STR(byoc_aws_config_profile_origin(c), "AWS_PROFILE");
    CHECK(!byoc_aws_config_profile_explicit(c));
    byoc_aws_config_free(c);
    setenv("AWS_DEFAULT_PROFILE", "spaced name", 1);
    c = load(NULL, NULL, &err);
    CHECK_STR(byoc_aws_config_profile(c), "spaced name");
    CHECK_STR(byoc_aws_config_profile_origin(c), "AWS_DEFAULT_PROFILE");
    byoc_aws_config_free(c);
    c = load("default", NULL, &err);
    CHECK_STR(byoc_aws_config_profile(c), "default");
    CHECK_STR(byoc_aws_config_profile_origin(c), "--profile");
    CHECK(byoc_aws_config_profile_explicit(c));
    byoc_aws_config_free(c);
    unsetenv("AWS_DEFAULT_PROFILE");
    unsetenv("AWS_PROFILE");

    /* A named profile that does not exist is an error; a missing default is not. */
    CHECK(load("nope", NULL, &err) == NULL);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--profile");
    CHECK(strstr(err.message, "(nope)") != NULL);
    setenv("AWS_PROFILE", "nope", 1);
    CHECK(load(NULL, NULL, &err) == NULL);
    CHECK_INT(err.kind, BYOC_E_ENV);
    CHECK_STR(err.what, "AWS_PROFILE");
    unsetenv("AWS_PROFILE");
    /* An empty variable counts as unset. */
    setenv("AWS_PROFILE", "", 1);
    c = load(NULL, NULL, &err);
    CHECK_STR(byoc_aws_config_profile(c), "default");
    byoc_aws_config_free(c);
    unsetenv("AWS_PROFILE");
}

static void test_region(void)
{
    byoc_err err;
    const char *origin;
    byoc_aws_config *c = load("dev", NULL, &err);
    CHECK_STR(byoc_aws_config_region(c, &origin), "us-east-2");
    CHECK_STR(origin, "profile dev");
    setenv("AWS_DEFAULT_REGION", "eu-central-1", 1);
    CHECK_STR(byoc_aws_config_region(c, &origin), "eu-central-1");
    CHECK_STR(origin, "AWS_DEFAULT_REGION");
    setenv("AWS_REGION", "eu-north-1", 1);
    CHECK_STR(byoc_aws_config_region(c, &origin), "eu-north-1");
    CHECK_STR(origin, "AWS_REGION");
    byoc_aws_config_free(c);
    c = load("dev", "ap-northeast-1", &err);
    CHECK_STR(byoc_aws_config_region(c, &origin), "ap-northeast-1");
    CHECK_STR(origin, "--region");
    byoc_aws_config_free(c);
    unsetenv("AWS_REGION");
    unsetenv("AWS_DEFAULT_REGION");
    c = load("spaced name", NULL, &err);
    CHECK_STR(byoc_aws_config_region(c, NULL), "ca-central-1");
    byoc_aws_config_free(c);
    /* No region anywhere. */
    byoc_aws_config_opts o = {.config_file = "/nonexistent/config", .credentials_file = "/nonexistent/creds"};
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), 0);
    CHECK(byoc_aws_config_region(c, &origin) == NULL);
    CHECK_STR(origin, "");
    byoc_aws_config_free(c);
}

static void test_settings(void)
{
    byoc_err err;
    byoc_retry_mode mode;
    int attempts;
    byoc_aws_config *c = load("dev", NULL, &err);
    char want[4200];
    snprintf(want, sizeof want, "%s/ca.pem", getenv("HOME"));
    CHECK_STR(byoc_aws_config_ca_bundle(c), want);
    CHECK_INT(byoc_aws_config_retry(c, &mode, &attempts, &err), 0);
    CHECK_INT(mode, BYOC_RETRY_ADAPTIVE);
    CHECK_INT(attempts, 4);
    byoc_aws_config_free(c);

    /* The environment wins over the profile. */
    setenv("AWS_CA_BUNDLE", "/etc/env-ca.pem", 1);
    setenv("AWS_MAX_ATTEMPTS", "9", 1);
    setenv("AWS_RETRY_MODE", "legacy", 1);
    c = load("dev", NULL, &err);
    CHECK_STR(byoc_aws_config_ca_bundle(c), "/etc/env-ca.pem");
    CHECK_INT(byoc_aws_config_retry(c, &mode, &attempts, &err), 0);
    CHECK_INT(mode, BYOC_RETRY_LEGACY);
    CHECK_INT(attempts, 9);
    setenv("AWS_MAX_ATTEMPTS", "zero", 1);
    CHECK_INT(byoc_aws_config_retry(c, &mode, &attempts, &err), -1);
    CHECK_STR(err.what, "AWS_MAX_ATTEMPTS");
    setenv("AWS_MAX_ATTEMPTS", "2", 1);
    setenv("AWS_RETRY_MODE", "aggressive", 1);
    CHECK_INT(byoc_aws_config_retry(c, &mode, &attempts, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "AWS_RETRY_MODE");
    byoc_aws_config_free(c);
    unsetenv("AWS_CA_BUNDLE");
    unsetenv("AWS_MAX_ATTEMPTS");
    unsetenv("AWS_RETRY_MODE");

    /* Nothing set: no CA bundle, the default mode and its attempts. */
    c = load(NULL, NULL, &err);
    CHECK(byoc_aws_config_ca_bundle(c) == NULL);
    CHECK_INT(byoc_aws_config_retry(c, &mode, &attempts, &err), 0);
    CHECK_INT(mode, BYOC_RETRY_DEFAULT_MODE);
    CHECK_INT(attempts, byoc_retry_default_attempts(BYOC_RETRY_DEFAULT_MODE));
    byoc_aws_config_free(c);
}

static void test_files(void)
{
    byoc_err err;
    byoc_aws_config *c;
    /* Files come from AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE with ~ expanded. */
    char home[4200];
    snprintf(home, sizeof home, "%s", getenv("HOME"));
    setenv("HOME", dir, 1);
    setenv("AWS_CONFIG_FILE", "~/config", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "~/credentials", 1);
    CHECK_INT(byoc_aws_config_load(NULL, &c, &err), 0);
    CHECK_STR(byoc_aws_config_config_path(c), config_path);
    CHECK_STR(byoc_aws_config_credentials_path(c), creds_path);
    CHECK_STR(byoc_aws_config_get(c, "dev", "region"), "us-east-2");
    byoc_aws_config_free(c);
    /* Defaults under ~/.aws. */
    unsetenv("AWS_CONFIG_FILE");
    unsetenv("AWS_SHARED_CREDENTIALS_FILE");
    CHECK_INT(byoc_aws_config_load(NULL, &c, &err), 0);
    char want[4300];
    snprintf(want, sizeof want, "%s/.aws/config", dir);
    CHECK_STR(byoc_aws_config_config_path(c), want);
    byoc_aws_config_free(c);
    setenv("HOME", home, 1);
    /* A broken file stops everything with the file and line named. */
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/bad-config", dir);
    write_file(bad, "[default]\nregion = x\n[default]\n");
    byoc_aws_config_opts o = {.config_file = bad, .credentials_file = creds_path};
    CHECK_INT(byoc_aws_config_load(&o, &c, &err), -1);
    CHECK(strstr(err.message, "bad-config") && strstr(err.message, "line 3"));
    unlink(bad);
}

int main(void)
{
    clear_env();
    dir = check_tmpdir();
    snprintf(config_path, sizeof config_path, "%s/config", dir);
    snprintf(creds_path, sizeof creds_path, "%s/credentials", dir);
    write_file(config_path, CONFIG);
    write_file(creds_path, CREDS);
    setenv("AWS_CONFIG_FILE", config_path, 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", creds_path, 1);

    test_ini();
    test_ini_large();
    test_profiles();
    test_region();
    test_settings();
    test_files();

    unlink(config_path);
    unlink(creds_path);
    rmdir(dir);
    free(dir);
    byoc_secret_clear_all();
    return check_done();
}
