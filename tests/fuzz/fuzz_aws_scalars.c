/* fuzz_aws_scalars: the small text parsers of the AWS layer: ISO 8601 times
 * (aws/request.h), credential_process command lines (aws/shlex.h), S3 URIs
 * (aws/s3.h), ARNs and regions (aws/braket.h, aws/endpoints.h), ECR
 * repository names (aws/ecr.h), error-code cleaning. Input: the string. */
#include "aws/braket.h"
#include "aws/ecr.h"
#include "aws/endpoints.h"
#include "aws/request.h"
#include "aws/s3.h"
#include "aws/shlex.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_cstr(data, size);
    time_t t;
    byoc_aws_parse_time(s, &t);

    byoc_strv argv = BYOC_STRV_INIT;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_shlex_split(s, &argv, &err) == 0) {
        for (size_t i = 0; i < argv.n; i++)
            FUZZ_ASSERT(argv.v[i] != NULL);
        FUZZ_ASSERT(argv.n == 0 || argv.v[argv.n] == NULL);
        byoc_strv_clear(&argv);
    }

    char *bucket = NULL, *key = NULL;
    if (byoc_s3_parse_uri(s, &bucket, &key) == 0)
        FUZZ_ASSERT(bucket != NULL);
    free(bucket);
    free(key);

    free(byoc_braket_arn_region(s));
    byoc_aws_dns_suffix(s);
    byoc_aws_partition(s);
    free(byoc_aws_ecr_registry_host("123456789012", s));
    free(byoc_aws_ecr_registry_host(s, "us-east-1"));
    byoc_aws_s3_virtual_host_ok(s);
    byoc_aws_service_from_name(s);
    char *path = byoc_aws_path_label(s);
    FUZZ_ASSERT(path != NULL && strchr(path, '/') == NULL);
    free(path);

    char why[256] = "";
    if (!byoc_ecr_repository_name_ok(s, why, sizeof why))
        FUZZ_ASSERT(why[0] != '\0');
    else
        FUZZ_ASSERT(strlen(s) >= 2 && strlen(s) <= 256);

    size_t before = strlen(s);
    byoc_aws_clean_error_code(s);
    FUZZ_ASSERT(strlen(s) <= before);
    free(s);
    return 0;
}
