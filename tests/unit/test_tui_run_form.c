/* run_form: the job form <-> job spec, and its inline errors that name the field. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/jobspec.h"
#include "check.h"
#include "form.h"
#include "job_status.h"
#include "run_form.h"

static size_t field_index(tui_form *f, const char *key)
{
    return (size_t)(tui_form_field(f, key) - f->fields);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
}

/* The form starts from the job spec's defaults as `byoc run` takes them (byoc.json's job, the
 * image of the last push), each value marked with where it came from; a Julia project's entry
 * point is accepted with the image field emptied (issue 19 point 6, issue 17 points 1 and 5). */
static void test_project_defaults(void)
{
    char dir[] = "/tmp/byoc-runform-proj-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/julia", dir);
    CHECK(mkdir(sub, 0700) == 0);
    write_file(sub, "main.jl", "println(1)\n");
    write_file(dir, "byoc.json",
               "{\"name\": \"jl\", \"recipe\": \"custom-base\", \"language\": \"julia\", "
               "\"job\": {\"source_module\": \"julia\", \"entry_point\": \"julia/main.jl\", "
               "\"role_arn\": \"arn:aws:iam::123456789012:role/jobs\"}, "
               "\"pushed\": {\"image_uri\": \"123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-jl:v7\"}}\n");
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_err err;
    CHECK_INT(tui_run_load_task(NULL, dir, &result, &result_free, &err), 0);
    const tui_run_loaded *l = result;
    CHECK(l != NULL);
    tui_form f;
    tui_form_init(&f);
    tui_run_form_build(&f, dir);
    tui_run_form_from_spec(&f, &l->spec, l->origin);
    result_free(result);
    CHECK_STR(tui_form_value(&f, "image_uri"), "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-jl:v7");
    CHECK_STR(tui_form_origin(&f, tui_form_field(&f, "image_uri")), "last push");
    CHECK_STR(tui_form_value(&f, "source_module"), "julia");      /* as byoc.json has it */
    CHECK_STR(tui_form_origin(&f, tui_form_field(&f, "source_module")), "byoc.json");
    CHECK_STR(tui_form_origin(&f, tui_form_field(&f, "entry_point")), "byoc.json");
    CHECK_STR(tui_form_origin(&f, tui_form_field(&f, "role_arn")), "byoc.json");
    CHECK(tui_form_origin(&f, tui_form_field(&f, "device")) == NULL);  /* nothing filled it */
    size_t ep = field_index(&f, "entry_point");
    CHECK(tui_form_validate_field(&f, ep));

    /* what the form remembers: the last push is not pinned as the job's image */
    byoc_job_origin origin[BYOC_JF_COUNT];
    tui_run_form_origins(&f, origin);
    CHECK_INT(origin[BYOC_JF_IMAGE_URI], BYOC_JO_PUSH);
    CHECK_INT(origin[BYOC_JF_ENTRY_POINT], BYOC_JO_PROJECT);
    tui_form_set_value(&f, "entry_point", "julia/main.jl ");
    tui_run_form_origins(&f, origin);
    CHECK_INT(origin[BYOC_JF_ENTRY_POINT], BYOC_JO_NONE);          /* changed: the user's own */
    tui_form_set_value(&f, "entry_point", "julia/main.jl");

    /* the image field emptied: the launcher is still judged from the project, not Braket's */
    tui_form_set_value(&f, "image_uri", "");
    CHECK(tui_form_validate_field(&f, ep));
    write_file(dir, "byoc.json", "{\"name\": \"jl\", \"recipe\": \"custom-base\", \"language\": \"julia\"}\n");
    CHECK(tui_form_validate_field(&f, ep));                         /* no push either: the recipe decides */
    write_file(dir, "byoc.json", "{\"name\": \"jl\", \"recipe\": \"extend-prebuilt\"}\n");
    CHECK(!tui_form_validate_field(&f, ep));                        /* the Braket launcher: modules only */
    CHECK(strstr(f.fields[ep].msg, "dotted") != NULL);
    tui_form_clear(&f);

    char path[700];
    snprintf(path, sizeof path, "%s/main.jl", sub);
    unlink(path);
    rmdir(sub);
    snprintf(path, sizeof path, "%s/byoc.json", dir);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    char dir[] = "/tmp/byoc-runform-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/algo.py", dir);
    FILE *fp = fopen(path, "w");
    fputs("print(1)\n", fp);
    fclose(fp);
    char data[256];
    snprintf(data, sizeof data, "%s/data", dir);
    CHECK(mkdir(data, 0700) == 0);
    snprintf(data, sizeof data, "%s/data/x", dir);
    fp = fopen(data, "w");
    fputs("1\n", fp);
    fclose(fp);
    setenv(BYOC_JOB_ROLE_ENV, "arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-x", 1);

    tui_form f;
    tui_form_init(&f);
    tui_run_form_build(&f, dir);
    CHECK(tui_form_field(&f, "source_module") != NULL);
    CHECK_STR(f.fields[0].label, "Code: source module");
    CHECK(!tui_run_form_local(&f));

    tui_form_set_value(&f, "source_module", "algo.py");
    tui_form_set_value(&f, "hyperparameters", "lr=0.1 depth=3");
    tui_form_set_value(&f, "tags", "team=q");
    tui_form_set_value(&f, "input_data", "train=data/x s3://my-bucket/k");
    tui_form_set_value(&f, "instance_count", "2");

    byoc_jobspec s;
    byoc_job_problems probs = {0};
    tui_run_form_to_spec(&f, true, &s, &probs);
    CHECK_INT((int)probs.len, 0);
    char want[300];
    snprintf(want, sizeof want, "%s/algo.py", dir);
    CHECK_STR(s.source_module, want);                 /* relative paths are the project's */
    CHECK_INT((int)s.n_hyperparameters, 2);
    CHECK_STR(s.hyperparameters[1].key, "depth");
    CHECK_STR(s.hyperparameters[1].value, "3");
    CHECK_INT((int)s.n_tags, 1);
    CHECK_INT((int)s.n_channels, 2);
    CHECK_STR(s.channels[0].name, "train");
    snprintf(want, sizeof want, "%s/data/x", dir);
    CHECK_STR(s.channels[0].location, want);
    CHECK_STR(s.channels[1].location, "s3://my-bucket/k");
    CHECK_STR(s.instance_count, "2");
    CHECK(s.job_name == NULL);                        /* empty: the SDK default */

    /* round trip through the form, unresolved (what byoc.json keeps) */
    byoc_jobspec raw;
    tui_run_form_to_spec(&f, false, &raw, NULL);
    CHECK_STR(raw.source_module, "algo.py");
    tui_form g;
    tui_form_init(&g);
    tui_run_form_build(&g, dir);
    tui_run_form_from_spec(&g, &raw, NULL);
    CHECK_STR(tui_form_value(&g, "hyperparameters"), "lr=0.1 depth=3");
    CHECK_STR(tui_form_value(&g, "input_data"), "train=data/x input=s3://my-bucket/k");
    tui_form_clear(&g);
    byoc_jobspec_clear(&raw);
    byoc_jobspec_clear(&s);

    /* the form is valid; a bad name is refused inline, naming the flag and API member */
    if (tui_run_form_validate(&f))
        fprintf(stderr, "invalid: %s: %s\n", f.fields[f.focus].key, f.fields[f.focus].msg);
    CHECK_INT((int)tui_run_form_validate(&f), 0);
    tui_form_set_value(&f, "job_name", "Bad_Name!");
    size_t jn = field_index(&f, "job_name");
    CHECK(!tui_form_validate_field(&f, jn));
    CHECK(strstr(f.fields[jn].msg, "--job-name (jobName)") != NULL);
    tui_form_set_value(&f, "job_name", "good-name");
    CHECK(tui_form_validate_field(&f, jn));

    /* an item without '=' is a problem of its field */
    tui_form_set_value(&f, "hyperparameters", "lr");
    tui_run_form_to_spec(&f, true, &s, &probs);
    CHECK_INT((int)probs.len, 1);
    CHECK_INT(probs.items[0].field, BYOC_JF_HYPERPARAMETER);
    byoc_job_problems_clear(&probs);
    byoc_jobspec_clear(&s);
    size_t hp = field_index(&f, "hyperparameters");
    CHECK(!tui_form_validate_field(&f, hp));
    CHECK(strstr(f.fields[hp].msg, "not KEY=VALUE") != NULL);
    tui_form_set_value(&f, "hyperparameters", "");

    /* local mode: the image is an engine reference, not checked as an ECR URI */
    tui_form_set_value(&f, "image_uri", "not an ecr uri");
    size_t im = field_index(&f, "image_uri");
    CHECK(!tui_form_validate_field(&f, im));
    tui_form_set_value(&f, "mode", "this machine (local)");
    CHECK(tui_run_form_local(&f));
    CHECK(tui_form_validate_field(&f, im));
    tui_form_clear(&f);

    /* how statuses look */
    char buf[32];
    CHECK(strstr(tui_job_status_text("FAILED", buf, sizeof buf), "FAILED") != NULL);
    CHECK_STR(tui_job_device_short("arn:aws:braket:::device/quantum-simulator/amazon/sv1"), "amazon/sv1");
    CHECK_STR(tui_job_device_short("arn:aws:braket:us-east-1::device/qpu/ionq/Aria-1"), "ionq/Aria-1");
    CHECK_STR(tui_job_device_short("local:none/none"), "local:none/none");

    unlink(path);
    unlink(data);
    snprintf(data, sizeof data, "%s/data", dir);
    rmdir(data);
    rmdir(dir);
    test_project_defaults();
    return check_done();
}
