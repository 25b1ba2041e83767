/* fuzz_jobspec: the job form's fields as byoc.json stores them
 * (byoc/jobspec.h): from JSON, validation against the Braket model (files
 * not consulted), the CreateJob body for a spec that passed, and the SDK's
 * derived values. A spec that validates yields a request; to_json/from_json
 * round-trips. */
#include <jansson.h>

#include "byoc/jobspec.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static void derived(const byoc_jobspec *s)
{
    byoc_job_resolved r = {.region = "us-east-1",
                           .bucket = "amazon-braket-us-east-1-123456789012",
                           .timestamp = "1700000000000",
                           .job_name = s->job_name ? s->job_name : "braket-job-1700000000000",
                           .role_arn = "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole",
                           .client_token = "00000000-0000-4000-8000-000000000000",
                           .image_uri = s->image_uri ? s->image_uri : "x"};
    const char **uris = byoc_xcalloc(s->n_channels + 1, sizeof *uris);
    for (size_t i = 0; i < s->n_channels; i++)
        uris[i] = "s3://amazon-braket-us-east-1-123456789012/data/input";
    r.channel_uris = uris;
    json_t *req = byoc_job_create_request(s, &r);
    FUZZ_ASSERT(req != NULL);
    byoc_job_problems pr = {0};
    byoc_job_check_request(req, s, &pr);
    byoc_job_problems_clear(&pr);
    free(byoc_job_code_location(s, &r));
    free(byoc_job_entry_point(s));
    json_decref(req);
    free(uris);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_cstr(data, size);
    free(byoc_job_default_name(text, "1700000000000"));
    free(byoc_job_device_region(text));
    byoc_job_is_s3_uri(text);
    byoc_job_problems pr = {0};
    byoc_job_check_name(text, BYOC_JF_JOB_NAME, &pr);
    byoc_job_check_role_arn(text, BYOC_JF_ROLE_ARN, NULL, &pr);
    byoc_job_check_s3_path(text, BYOC_JF_OUTPUT_S3, -1, "outputDataConfig.s3Path", &pr);
    for (size_t i = 0; i < pr.len; i++)
        FUZZ_ASSERT(memchr(pr.items[i].message, 0, sizeof pr.items[i].message) != NULL);
    byoc_job_problems_clear(&pr);
    free(text);

    json_t *j = json_loadb((const char *)data, size, 0, NULL);
    if (!j)
        return 0;
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_jobspec_from_json(&s, j, &err) == 0) {
        byoc_job_validate_opts o = {.role_env = "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole",
                                    .skip_files = true};
        byoc_job_problems probs = {0};
        size_t n = byoc_jobspec_validate(&s, &o, &probs);
        FUZZ_ASSERT(n == probs.len);
        if (n == 0)
            derived(&s);
        else {
            byoc_err_clear(&err);
            FUZZ_ASSERT(byoc_job_problems_to_err(&probs, &err) == -1 && err.kind == BYOC_E_USAGE);
        }
        byoc_job_problems_clear(&probs);
        json_t *back = byoc_jobspec_to_json(&s);
        FUZZ_ASSERT(back != NULL);
        byoc_jobspec again;
        byoc_jobspec_init(&again);
        byoc_err_clear(&err);
        FUZZ_ASSERT(byoc_jobspec_from_json(&again, back, &err) == 0);
        byoc_jobspec_clear(&again);
        json_decref(back);
    } else {
        FUZZ_ASSERT(err.kind == BYOC_E_USAGE);
    }
    byoc_jobspec_clear(&s);
    json_decref(j);
    return 0;
}
