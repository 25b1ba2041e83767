/* What the SDK derives from a job spec: default name (the SDK's quantum_job_creation.py),
 * bucket, base image, token, S3 layout, the CreateJob body, local input
 * prefixes (pathlib glob semantics) and the byoc.json round trip. */
#include "check.h"

#include <ctype.h>
#include <ftw.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/jobspec.h"
#include "byoc/jobspec_files.h"
#include "core/buf.h"

#define TS "1712345678901"
#define ECR "123456789012.dkr.ecr.us-east-1.amazonaws.com/"

static void name_case(const char *image, const char *want)
{
    char *n = byoc_job_default_name(image, TS);
    CHECK_STR(n, want);
    free(n);
}

static void test_default_name(void)
{
    /* Expectations computed with the SDK's regexes (Python re) for the same URIs. */
    name_case(NULL, "braket-job-default-" TS);
    name_case(ECR "amazon-braket-my-qtc:latest", "braket-job-my-qtc-" TS);
    name_case("292282985366.dkr.ecr.us-west-2.amazonaws.com/amazon-braket-base-jobs:latest", "braket-job-base-" TS);
    name_case(ECR "myrepo:v1", "braket-job-" TS);
    name_case(ECR "amazon-braket-foo/bar:tag", "braket-job-foo-" TS);
    name_case(ECR "amazon-braket-a-jobs:x-jobs:y", "braket-job-a-jobs:x-" TS);
    name_case(ECR "team/amazon-braket-x@sha256:aaaa", "braket-job-x@sha256-" TS);
    name_case(ECR "amazon-braket--jobs:1", "braket-job--" TS);
    name_case(ECR "amazon-braket-pytorch-jobs:2.8.0-gpu-py312", "braket-job-pytorch-" TS);

    /* A long repository makes the default invalid: the caller must refuse it. */
    char *n = byoc_job_default_name(ECR "amazon-braket-a-very-long-repository-name-here:1", TS);
    byoc_job_problems p = {0};
    CHECK_INT(byoc_job_check_name(n, BYOC_JF_JOB_NAME, &p), 1);
    byoc_job_problems_clear(&p);
    free(n);
}

static void test_misc_defaults(void)
{
    char *b = byoc_job_default_bucket("eu-west-2", "123456789012");
    CHECK_STR(b, "amazon-braket-eu-west-2-123456789012");
    free(b);
    char *img = byoc_job_base_image("us-west-2");
    CHECK_STR(img, "292282985366.dkr.ecr.us-west-2.amazonaws.com/amazon-braket-base-jobs:latest");
    free(img);
    CHECK(byoc_job_base_image("ap-south-1") == NULL);

    char *r = byoc_job_device_region("arn:aws:braket:us-west-1::device/qpu/rigetti/Ankaa-3");
    CHECK_STR(r, "us-west-1");
    free(r);
    r = byoc_job_device_region("arn:aws:braket:::device/quantum-simulator/amazon/sv1");
    CHECK_STR(r, "");
    free(r);
    r = byoc_job_device_region("local:braket/braket.local.qubit");
    CHECK_STR(r, "");
    free(r);

    char ts[32];
    byoc_job_timestamp(ts, sizeof ts);
    CHECK_INT(strlen(ts), 13);

    char t1[40], t2[40];
    CHECK_INT(byoc_job_client_token(t1, sizeof t1), 0);
    CHECK_INT(byoc_job_client_token(t2, sizeof t2), 0);
    CHECK(strcmp(t1, t2) != 0);
    CHECK_INT(strlen(t1), 36);
    CHECK(t1[8] == '-' && t1[13] == '-' && t1[18] == '-' && t1[23] == '-');
    CHECK(t1[14] == '4');
    CHECK(strchr("89ab", t1[19]) != NULL);
    bool hex = true;
    for (int i = 0; i < 36; i++)
        if (t1[i] != '-' && !(isdigit((unsigned char)t1[i]) || (t1[i] >= 'a' && t1[i] <= 'f')))
            hex = false;
    CHECK(hex);
    char small[10];
    CHECK_INT(byoc_job_client_token(small, sizeof small), -1);
}

static void test_paths(void)
{
    const char *cases[][4] = {
        /* path, normalised, name, stem of name */
        {"./data/", "data", "data", "data"},
        {"a//b/./c", "a/b/c", "c", "c"},
        {"/abs/algo.py", "/abs/algo.py", "algo.py", "algo"},
        {"", ".", "", ""},
        {"a.tar.gz", "a.tar.gz", "a.tar.gz", "a.tar"},
        {".rc", ".rc", ".rc", ".rc"},
        {"x.", "x.", "x.", "x."},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *n = byoc_job_path_normalize(cases[i][0]);
        char *name = byoc_job_path_name(cases[i][0]);
        char *stem = byoc_job_path_stem(name);
        CHECK_STR(n, cases[i][1]);
        CHECK_STR(name, cases[i][2]);
        CHECK_STR(stem, cases[i][3]);
        free(n);
        free(name);
        free(stem);
    }
}

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    fputs("x", f);
    fclose(f);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

/* The pathlib behaviour checked on this machine (python3: Path().glob(p + "*") and the glob of p
 * followed by "*", "/", "**", "/", "*"):
 *   data   -> data.csv data/.hidden data/a.csv data/sub/b.csv data2/c.csv datalink/r.csv
 *   data/  -> data/.hidden data/a.csv data/lnk/r.csv data/sub/b.csv
 *   datal  -> datalink/r.csv */
static char *matched(const char *prefix)
{
    byoc_job_local_file *f;
    size_t n;
    char why[512];
    byoc_buf b = BYOC_BUF_INIT;
    if (byoc_job_local_input_files(prefix, "s3://B/P", &f, &n, why, sizeof why) != 0)
        return byoc_xasprintf("error: %s", why);
    for (size_t i = 0; i < n; i++)
        byoc_buf_printf(&b, "%s%s>%s", i ? " " : "", f[i].path, f[i].s3_uri);
    byoc_job_local_files_free(f, n);
    return byoc_buf_steal(&b);
}

static void test_local_inputs(void)
{
    char *dir = check_tmpdir();
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK_INT(chdir(dir), 0);
    mkdir("data", 0755);
    mkdir("data/sub", 0755);
    mkdir("data2", 0755);
    mkdir("real", 0755);
    touch("data/.hidden");
    touch("data/a.csv");
    touch("data/sub/b.csv");
    touch("data2/c.csv");
    touch("data.csv");
    touch("real/r.csv");
    CHECK_INT(symlink("../real", "data/lnk"), 0);
    CHECK_INT(symlink("real", "datalink"), 0);

    char *m = matched("data");
    CHECK_STR(m, "data.csv>s3://B/P.csv data/.hidden>s3://B/P/.hidden data/a.csv>s3://B/P/a.csv "
                 "data/sub/b.csv>s3://B/P/sub/b.csv data2/c.csv>s3://B/P2/c.csv datalink/r.csv>s3://B/Plink/r.csv");
    free(m);
    m = matched("data/");
    CHECK_STR(m, "data/.hidden>s3://B/P/.hidden data/a.csv>s3://B/P/a.csv data/lnk/r.csv>s3://B/P/lnk/r.csv "
                 "data/sub/b.csv>s3://B/P/sub/b.csv");
    free(m);
    m = matched("./datal");
    CHECK_STR(m, "./datalink/r.csv>s3://B/Pink/r.csv");
    free(m);
    m = matched("nothing");
    CHECK_STR(m, "");
    free(m);
    m = matched(".");
    CHECK(strncmp(m, "error: ", 7) == 0);
    free(m);
    char abs[4200];
    snprintf(abs, sizeof abs, "%s/data/sub", dir);
    m = matched(abs);
    char want[9000];
    snprintf(want, sizeof want, "%s/data/sub/b.csv>s3://B/P/b.csv", dir);
    CHECK_STR(m, want);
    free(m);

    CHECK_INT(chdir(cwd), 0);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

static void test_create_request(void)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_set(&s.image_uri, ECR "amazon-braket-my-qtc:latest");
    byoc_jobspec_set(&s.source_module, "/nonexistent/algo.py");
    byoc_jobspec_set(&s.entry_point, "algo:main");
    byoc_jobspec_set(&s.instance_type, "ml.c5.xlarge");
    byoc_jobspec_set(&s.instance_count, "2");
    byoc_jobspec_add_hyperparameter(&s, "lr", "0.1");
    byoc_jobspec_add_hyperparameter(&s, "sagemaker_instance_type", "overridden");
    byoc_jobspec_add_channel(&s, "train", "data/train", NULL);
    byoc_jobspec_add_channel(&s, "ref", "s3://other/ref", "text/csv");
    byoc_jobspec_set(&s.kms_key_id, "key-1");
    byoc_jobspec_set(&s.distribution, "data_parallel");
    byoc_jobspec_set(&s.reservation_arn, "arn:aws:braket:us-east-1:123456789012:reservation/r1");
    byoc_jobspec_add_tag(&s, "team", "q");

    char *train_uri = NULL;
    byoc_job_resolved r = {.region = "us-east-1",
                           .bucket = "amazon-braket-us-east-1-123456789012",
                           .timestamp = TS,
                           .job_name = "braket-job-my-qtc-" TS,
                           .role_arn = "arn:aws:iam::123456789012:role/R",
                           .client_token = "tok",
                           .image_uri = ECR "amazon-braket-my-qtc:latest"};
    train_uri = byoc_job_channel_s3_prefix(&r, "train", "data/train");
    const char *uris[] = {train_uri, "s3://other/ref"};
    r.channel_uris = uris;
    json_t *req = byoc_job_create_request(&s, &r);
    const char *want =
        "{\"jobName\": \"braket-job-my-qtc-" TS "\", \"roleArn\": \"arn:aws:iam::123456789012:role/R\", "
        "\"algorithmSpecification\": {\"scriptModeConfig\": {\"entryPoint\": \"algo:main\", \"s3Uri\": "
        "\"s3://amazon-braket-us-east-1-123456789012/jobs/braket-job-my-qtc-" TS "/" TS "/script/source.tar.gz\", "
        "\"compressionType\": \"GZIP\"}, \"containerImage\": {\"uri\": \"" ECR "amazon-braket-my-qtc:latest\"}}, "
        "\"inputDataConfig\": [{\"channelName\": \"train\", \"dataSource\": {\"s3DataSource\": {\"s3Uri\": "
        "\"s3://amazon-braket-us-east-1-123456789012/jobs/braket-job-my-qtc-" TS "/" TS "/data/train/train\"}}}, "
        "{\"channelName\": \"ref\", \"dataSource\": {\"s3DataSource\": {\"s3Uri\": \"s3://other/ref\"}}, "
        "\"contentType\": \"text/csv\"}], "
        "\"instanceConfig\": {\"instanceType\": \"ml.c5.xlarge\", \"volumeSizeInGb\": 30, \"instanceCount\": 2}, "
        "\"outputDataConfig\": {\"s3Path\": \"s3://amazon-braket-us-east-1-123456789012/jobs/braket-job-my-qtc-" TS
        "/" TS "/data\", \"kmsKeyId\": \"key-1\"}, "
        "\"checkpointConfig\": {\"localPath\": \"/opt/jobs/checkpoints\", \"s3Uri\": "
        "\"s3://amazon-braket-us-east-1-123456789012/jobs/braket-job-my-qtc-" TS "/" TS "/checkpoints\"}, "
        "\"deviceConfig\": {\"device\": \"local:none/none\"}, "
        "\"hyperParameters\": {\"lr\": \"0.1\", \"sagemaker_instance_type\": \"ml.c5.xlarge\", "
        "\"sagemaker_distributed_dataparallel_enabled\": \"true\"}, "
        "\"stoppingCondition\": {\"maxRuntimeInSeconds\": 432000}, \"tags\": {\"team\": \"q\"}, "
        "\"associations\": [{\"arn\": \"arn:aws:braket:us-east-1:123456789012:reservation/r1\", \"type\": "
        "\"RESERVATION_TIME_WINDOW_ARN\"}], \"clientToken\": \"tok\"}";
    json_error_t je;
    json_t *expected = json_loads(want, 0, &je);
    CHECK(expected != NULL);
    CHECK(json_equal(req, expected));
    if (!json_equal(req, expected)) {
        char *t = json_dumps(req, JSON_PRESERVE_ORDER);
        fprintf(stderr, "got: %s\n", t);
        free(t);
    }
    byoc_job_problems p = {0};
    CHECK_INT(byoc_job_check_request(req, &s, &p), 0);
    byoc_job_problems_clear(&p);
    json_decref(expected);
    json_decref(req);

    /* Defaults: the entry point is the source module's stem; code location as given, no '/' added. */
    byoc_jobspec_set(&s.entry_point, NULL);
    byoc_jobspec_set(&s.code_location, "s3://mine/code/");
    char *ep = byoc_job_entry_point(&s);
    CHECK_STR(ep, "algo");
    free(ep);
    char *cl = byoc_job_code_location(&s, &r);
    CHECK_STR(cl, "s3://mine/code/");
    free(cl);
    free(train_uri);
    byoc_jobspec_clear(&s);
}

static void test_json_round_trip(void)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_set(&s.image_uri, ECR "repo:1");
    byoc_jobspec_set(&s.instance_count, "3");
    byoc_jobspec_set(&s.max_runtime, "abc");
    byoc_jobspec_add_hyperparameter(&s, "lr", "0.1");
    byoc_jobspec_add_tag(&s, "k", "v");
    byoc_jobspec_add_channel(&s, "train", "data/", "text/csv");
    json_t *j = byoc_jobspec_to_json(&s);
    CHECK(json_is_integer(json_object_get(j, "instance_count")));
    CHECK(json_is_string(json_object_get(j, "max_runtime")));
    byoc_jobspec back;
    byoc_err err;
    CHECK_INT(byoc_jobspec_from_json(&back, j, &err), 0);
    CHECK_STR(back.image_uri, ECR "repo:1");
    CHECK_STR(back.instance_count, "3");
    CHECK_STR(back.max_runtime, "abc");
    CHECK_INT(back.n_hyperparameters, 1);
    CHECK_STR(back.hyperparameters[0].value, "0.1");
    CHECK_INT(back.n_channels, 1);
    CHECK_STR(back.channels[0].content_type, "text/csv");
    CHECK_STR(back.tags[0].key, "k");
    byoc_jobspec_clear(&back);
    json_decref(j);
    byoc_jobspec_clear(&s);

    json_t *bad = json_loads("{\"image_uri\": 5}", 0, NULL);
    CHECK_INT(byoc_jobspec_from_json(&back, bad, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK(strstr(err.message, "job.image_uri") != NULL);
    json_decref(bad);
    bad = json_loads("{\"hyperparameters\": {\"n\": 3, \"b\": true}}", 0, NULL);
    CHECK_INT(byoc_jobspec_from_json(&back, bad, &err), 0);
    CHECK_STR(back.hyperparameters[0].value, "3");
    CHECK_STR(back.hyperparameters[1].value, "True");
    byoc_jobspec_clear(&back);
    json_decref(bad);

    byoc_project proj;
    byoc_project_init(&proj);
    byoc_jobspec_init(&s);
    byoc_jobspec_set(&s.device, "local:braket/sim");
    byoc_jobspec_remember(&s, NULL, &proj);
    byoc_jobspec_clear(&s);
    CHECK_INT(byoc_jobspec_recall(&back, &proj, &err), 0);
    CHECK_STR(back.device, "local:braket/sim");
    byoc_jobspec_clear(&back);
    byoc_project_clear(&proj);
}

static void test_input_args(void)
{
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_add_input_arg(&s, "train=s3://bucket/k");
    byoc_jobspec_add_input_arg(&s, "s3://bucket/k=1");
    byoc_jobspec_add_input_arg(&s, "data/x");
    byoc_jobspec_add_input_arg(&s, "=data");
    byoc_jobspec_add_input_arg(&s, "tr@in=s3://bucket/k");
    CHECK_INT(s.n_channels, 5);
    CHECK_STR(s.channels[4].name, "tr@in");
    CHECK_STR(s.channels[0].name, "train");
    CHECK_STR(s.channels[0].location, "s3://bucket/k");
    CHECK_STR(s.channels[1].name, "input");
    CHECK_STR(s.channels[1].location, "s3://bucket/k=1");
    CHECK_STR(s.channels[2].name, "input");
    CHECK_STR(s.channels[3].name, "");
    byoc_jobspec_clear(&s);
    char *k, *v;
    CHECK_INT(byoc_jobspec_split_kv("a=b=c", &k, &v), 0);
    CHECK_STR(k, "a");
    CHECK_STR(v, "b=c");
    free(k);
    free(v);
    CHECK_INT(byoc_jobspec_split_kv("novalue", &k, &v), -1);
}

/* byoc.json's job and last push under what the flags gave, with where each came from; the
 * last push is not remembered as the job's image, or it would shadow every later push. */
static void test_project_defaults(void)
{
    byoc_project proj;
    byoc_err err;
    const char *text = "{\"job\": {\"entry_point\": \"a.b\", \"device\": \"local:x/y\", \"source_module\": \"src\", "
                       "\"hyperparameters\": {\"n\": \"1\"}}, \"pushed\": {\"image_uri\": \"" ECR "amazon-braket-p:v7\"}}";
    CHECK_INT(byoc_project_parse(&proj, text, strlen(text), &err), 0);
    byoc_jobspec s;
    byoc_jobspec_init(&s);
    byoc_jobspec_set(&s.device, "local:braket/sim");            /* a flag */
    byoc_job_origin origin[BYOC_JF_COUNT];
    CHECK_INT(byoc_jobspec_fill_defaults(&s, &proj, NULL, origin, &err), 0);
    CHECK_STR(s.image_uri, ECR "amazon-braket-p:v7");
    CHECK_INT(origin[BYOC_JF_IMAGE_URI], BYOC_JO_PUSH);
    CHECK_STR(s.entry_point, "a.b");
    CHECK_INT(origin[BYOC_JF_ENTRY_POINT], BYOC_JO_PROJECT);
    CHECK_STR(s.source_module, "src");                          /* no project_dir: as byoc.json has it */
    CHECK_STR(s.device, "local:braket/sim");
    CHECK_INT(origin[BYOC_JF_DEVICE], BYOC_JO_FLAG);
    CHECK_INT(origin[BYOC_JF_HYPERPARAMETER], BYOC_JO_PROJECT);
    CHECK_INT(origin[BYOC_JF_ROLE_ARN], BYOC_JO_NONE);
    CHECK_STR(byoc_job_origin_name(BYOC_JO_PUSH), "last push");
    byoc_jobspec_remember(&s, origin, &proj);
    CHECK(json_object_get(proj.job, "image_uri") == NULL);
    CHECK_STR(byoc_project_job_string(&proj, "entry_point"), "a.b");
    CHECK_STR(byoc_project_job_string(&proj, "device"), "local:braket/sim");
    byoc_jobspec_remember(&s, NULL, &proj);                     /* a value the user gave is kept */
    CHECK_STR(byoc_project_job_string(&proj, "image_uri"), ECR "amazon-braket-p:v7");
    byoc_jobspec_clear(&s);
    byoc_project_clear(&proj);
}

int main(void)
{
    test_default_name();
    test_misc_defaults();
    test_paths();
    test_local_inputs();
    test_create_request();
    test_json_round_trip();
    test_input_args();
    test_project_defaults();
    return check_done();
}
