/* fuzz_credprocess: the JSON a credential_process prints (aws/credprocess.h).
 * Input: the program's stdout. On success the keys are there; on failure the
 * error message never repeats the secret it saw. */
#include "aws/credprocess.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *json = fuzz_cstr(data, size);
    byoc_aws_creds creds;
    memset(&creds, 0, sizeof creds);
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_aws_credential_process_parse("fuzz", json, &creds, &err) == 0) {
        FUZZ_ASSERT(creds.access_key_id && *creds.access_key_id);
        FUZZ_ASSERT(creds.secret_access_key && *creds.secret_access_key);
        byoc_aws_creds_clear(&creds);
    } else {
        FUZZ_ASSERT(err.kind != BYOC_OK);
        FUZZ_ASSERT(creds.secret_access_key == NULL);
    }
    byoc_secret_clear_all();
    free(json);
    return 0;
}
