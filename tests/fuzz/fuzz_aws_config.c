/* fuzz_aws_config: the config and credentials files as byoc resolves them
 * (aws/config.h, aws/endpoints.h): profile choice, region, retry settings,
 * [services] endpoint overrides, nested keys.
 * Input: config text, "\n----\n", credentials text, "\n----\n", profile name.
 * The credential chain itself is not run: a fuzzed credential_process would
 * execute programs. */
#include <unistd.h>

#include "aws/config.h"
#include "aws/endpoints.h"
#include "fuzz.h"

static char dir[256];
static char config_path[300], creds_path[300];

static void write_file(const char *path, const char *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_ASSERT(f != NULL);
    if (n)
        FUZZ_ASSERT(fwrite(p, 1, n, f) == n);
    fclose(f);
}

static void cleanup(void)
{
    unlink(config_path);
    unlink(creds_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    fuzz_scratch_dir(dir, sizeof dir, "config");
    snprintf(config_path, sizeof config_path, "%s/config", dir);
    snprintf(creds_path, sizeof creds_path, "%s/credentials", dir);
    atexit(cleanup);
    static const char *const unset[] = {"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION",
                                        "AWS_CA_BUNDLE", "AWS_MAX_ATTEMPTS", "AWS_RETRY_MODE", "AWS_ENDPOINT_URL",
                                        "AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BRAKET", "AWS_ENDPOINT_URL_S3",
                                        "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", "AWS_ENDPOINT_URL_STS",
                                        "AWS_ENDPOINT_URL_IAM", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"};
    for (size_t i = 0; i < sizeof unset / sizeof *unset; i++)
        unsetenv(unset[i]);
    setenv("HOME", dir, 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *parts[3];
    size_t lens[3];
    size_t n = fuzz_split(data, size, parts, lens, 3);
    write_file(config_path, parts[0], lens[0]);
    write_file(creds_path, n > 1 ? parts[1] : "", n > 1 ? lens[1] : 0);
    char *profile = n > 2 ? byoc_xstrndup(parts[2], lens[2]) : NULL;

    byoc_aws_config_opts opts = {.profile = profile && *profile ? profile : NULL,
                                 .config_file = config_path,
                                 .credentials_file = creds_path};
    byoc_aws_config *cfg = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_aws_config_load(&opts, &cfg, &err) == 0) {
        FUZZ_ASSERT(cfg != NULL);
        FUZZ_ASSERT(byoc_aws_config_profile(cfg) != NULL);
        const char *origin = NULL;
        const char *region = byoc_aws_config_region(cfg, &origin);
        FUZZ_ASSERT(origin != NULL);
        byoc_aws_config_ca_bundle(cfg);
        byoc_retry_mode mode;
        int attempts = 0;
        if (byoc_aws_config_retry(cfg, &mode, &attempts, &err) == 0)
            FUZZ_ASSERT(attempts >= 1);
        free(byoc_aws_config_get_sub(cfg, NULL, "s3", "addressing_style"));
        byoc_aws_config_sso_session_get(cfg, "x", "sso_region");
        for (int s = 0; s < BYOC_AWS_SERVICE_COUNT; s++) {
            free(byoc_aws_config_service_get(cfg, NULL, byoc_aws_service_name(s), "endpoint_url"));
            byoc_aws_endpoint ep;
            memset(&ep, 0, sizeof ep);
            byoc_err_clear(&err);
            if (byoc_aws_endpoint_resolve(cfg, region ? region : "us-east-1", s, &ep, &err) == 0) {
                FUZZ_ASSERT(ep.url != NULL && ep.signing_region != NULL);
                if (s == BYOC_AWS_S3)
                    free(byoc_aws_s3_url(&ep, "bucket", "a/b c"));
                byoc_aws_endpoint_clear(&ep);
            }
        }
        byoc_aws_config_free(cfg);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
    }
    free(profile);
    byoc_secret_clear_all();
    return 0;
}
