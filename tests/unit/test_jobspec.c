/* Job spec validation: each rule refuses what it should, names the flag and
 * the API member, and lets the valid values through. */
#include "check.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/jobspec.h"
#include "core/buf.h"
#include "core/str.h"

#define IMAGE "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-my-qtc:latest"
#define ROLE "arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole"

static char *dir;
static char algo[4096], pkg[4096];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    dir = check_tmpdir();
    snprintf(algo, sizeof algo, "%s/algo.py", dir);
    write_file(algo, "def main():\n    pass\n");
    snprintf(pkg, sizeof pkg, "%s/pkg", dir);
    mkdir(pkg, 0755);
    char p[4200];
    snprintf(p, sizeof p, "%s/__init__.py", pkg);
    write_file(p, "");
    snprintf(p, sizeof p, "%s/sub", pkg);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/sub/mod.py", pkg);
    write_file(p, "def run(): pass\n");
    snprintf(p, sizeof p, "%s/data", dir);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/data/train.csv", dir);
    write_file(p, "1,2\n");
    setenv("BYOC_TEST_UNUSED", "1", 1);
    unsetenv("BRAKET_JOBS_ROLE_ARN");
}

static void base(byoc_jobspec *s)
{
    byoc_jobspec_init(s);
    byoc_jobspec_set(&s->image_uri, IMAGE);
    byoc_jobspec_set(&s->source_module, algo);
    byoc_jobspec_set(&s->role_arn, ROLE);
}

/* The first problem as "what | message", or "ok". */
static char got[2048];
static const char *first_problem(const byoc_jobspec *s)
{
    byoc_job_problems p = {0};
    byoc_job_validate_opts o = {.role_env = ""};
    if (byoc_jobspec_validate(s, &o, &p) == 0)
        snprintf(got, sizeof got, "ok");
    else
        snprintf(got, sizeof got, "%s | %s", p.items[0].what, p.items[0].message);
    byoc_job_problems_clear(&p);
    return got;
}

/* Set one string field on a valid spec and expect the problem to mention each needle. */
static void expect(const char *label, byoc_jobspec *s, const char *what, const char *needle)
{
    const char *r = first_problem(s);
    bool ok = what ? strncmp(r, what, strlen(what)) == 0 && (!needle || strstr(r, needle)) : strcmp(r, "ok") == 0;
    if (ok)
        check_passed++;
    else
        check_fail(__FILE__, __LINE__, "%s: got [%s], want [%s ... %s]", label, r, what ? what : "ok",
                   needle ? needle : "");
    byoc_jobspec_clear(s);
}

#define FIELD_CASE(label, member, value, what, needle) \
    do { byoc_jobspec s_; base(&s_); byoc_jobspec_set(&s_.member, value); expect(label, &s_, what, needle); } while (0)

static void test_valid(void)
{
    byoc_jobspec s;
    base(&s);
    expect("minimal", &s, NULL, NULL);

    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    byoc_jobspec_set(&s.entry_point, "pkg.sub.mod:run");
    byoc_jobspec_set(&s.device, "arn:aws:braket:::device/quantum-simulator/amazon/sv1");
    byoc_jobspec_set(&s.instance_type, "ml.g4dn.xlarge");
    byoc_jobspec_set(&s.instance_count, "5");
    byoc_jobspec_set(&s.volume_gb, "1");
    byoc_jobspec_set(&s.max_runtime, "432000");
    byoc_jobspec_set(&s.job_name, "a");
    byoc_jobspec_set(&s.output_s3, "https://my-bucket.s3.us-east-1.amazonaws.com/out");
    byoc_jobspec_set(&s.checkpoint_s3, "s3://my.dotted.bucket/ckpt");
    byoc_jobspec_set(&s.code_location, "s3://my-bucket/code/");
    byoc_jobspec_set(&s.distribution, "data_parallel");
    byoc_jobspec_set(&s.reservation_arn, "arn:aws:braket:us-east-1:123456789012:reservation/abc");
    byoc_jobspec_set(&s.copy_checkpoints_from_job, "arn:aws:braket:us-east-1:123456789012:job/abc");
    byoc_jobspec_add_hyperparameter(&s, "lr", "0.1");
    byoc_jobspec_add_hyperparameter(&s, "tab", "a\tb");
    byoc_jobspec_add_tag(&s, "team", "");
    char data[4200];
    snprintf(data, sizeof data, "%s/data/tr", dir);
    byoc_jobspec_add_channel(&s, "train", data, NULL);
    byoc_jobspec_add_channel(&s, "ref.v-1_x", "s3://bucket/prefix", "text/csv");
    expect("everything", &s, NULL, NULL);

    FIELD_CASE("digest image", image_uri,
               "123456789012.dkr.ecr.eu-west-2.amazonaws.com/team/repo@sha256:"
               "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
               NULL, NULL);
    FIELD_CASE("50-char name", job_name, "a1234567890123456789012345678901234567890123456789", NULL, NULL);
    FIELD_CASE("name with hyphens", job_name, "a--b", NULL, NULL);
    FIELD_CASE("role without path", role_arn, "arn:aws-cn:iam::123456789012:role/x", NULL, NULL);
    FIELD_CASE("local device", device, "local:braket/braket.local.qubit", NULL, NULL);
    FIELD_CASE("entry point module", entry_point, "algo", NULL, NULL);
    FIELD_CASE("entry point function", entry_point, "algo:main", NULL, NULL);
}

static void test_job_name(void)
{
    FIELD_CASE("underscore", job_name, "my_job", "--job-name (jobName)",
               "must match ^(?!-)[A-Za-z0-9-]{1,50}(?<!-)$: 'my_job' has '_'");
    FIELD_CASE("leading hyphen", job_name, "-job", "--job-name (jobName)", "starts with '-'");
    FIELD_CASE("trailing hyphen", job_name, "job-", "--job-name (jobName)", "ends with '-'");
    FIELD_CASE("51 chars", job_name, "a12345678901234567890123456789012345678901234567890", "--job-name (jobName)",
               "51 characters");
    FIELD_CASE("space", job_name, "my job", "--job-name (jobName)", "has ' '");
    FIELD_CASE("newline", job_name, "job\nx", "--job-name (jobName)", "has '\\x0a'");
    FIELD_CASE("dot", job_name, "v1.2", "--job-name (jobName)", "has '.'");

    byoc_job_problems p = {0};
    CHECK_INT(byoc_job_check_name("braket-job-my-qtc-1712345678901", BYOC_JF_JOB_NAME, &p), 0);
    CHECK_INT(byoc_job_check_name("", BYOC_JF_JOB_NAME, &p), 1);
    byoc_job_problems_clear(&p);
}

static void test_image_uri(void)
{
    const char *w = "--image-uri (algorithmSpecification.containerImage.uri)";
    FIELD_CASE("no tag", image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/repo", w, ":tag or an @sha256");
    FIELD_CASE("docker hub", image_uri, "docker.io/library/python:3", w, "ECR image");
    FIELD_CASE("short account", image_uri, "12345.dkr.ecr.us-east-1.amazonaws.com/repo:1", w, "API model Uri");
    FIELD_CASE("bad digest", image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/repo@sha256:xyz", w,
               "sha256:<64");
    FIELD_CASE("upper-case repo", image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/MyRepo:1", w,
               "ECR repository name");
    FIELD_CASE("bad tag", image_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/repo:-x", w, "Docker tag");
    char long_uri[400];
    snprintf(long_uri, sizeof long_uri, "123456789012.dkr.ecr.us-east-1.amazonaws.com/%0210d:1", 0);
    FIELD_CASE("256 chars", image_uri, long_uri, w, "1 to 255 characters");
}

static void test_role(void)
{
    FIELD_CASE("not an ARN", role_arn, "AmazonBraketJobsExecutionRole", "--role-arn (roleArn)", "(not an ARN)");
    FIELD_CASE("user ARN", role_arn, "arn:aws:iam::123456789012:user/bob", "--role-arn (roleArn)", "(not a role)");
    FIELD_CASE("11-digit account", role_arn, "arn:aws:iam::12345678901:role/x", "--role-arn (roleArn)",
               "arn:aws[a-z\\-]*:iam::\\d{12}");
    FIELD_CASE("space in name", role_arn, "arn:aws:iam::123456789012:role/my role", "--role-arn (roleArn)", "RoleArn");

    byoc_jobspec s;
    base(&s);
    byoc_jobspec_set(&s.role_arn, NULL);
    byoc_job_problems p = {0};
    byoc_job_validate_opts o = {.role_env = "not-an-arn"};
    CHECK(byoc_jobspec_validate(&s, &o, &p) == 1);
    if (p.len)
        CHECK_STR(p.items[0].what, "BRAKET_JOBS_ROLE_ARN (roleArn)");
    byoc_job_problems_clear(&p);
    byoc_jobspec_clear(&s);
}

static void test_numbers_and_enums(void)
{
    FIELD_CASE("unknown instance", instance_type, "ml.m5.mega", "--instance-type (instanceConfig.instanceType)",
               "InstanceType");
    FIELD_CASE("count 0", instance_count, "0", "--instance-count (instanceConfig.instanceCount)", "got 0");
    FIELD_CASE("count 6", instance_count, "6", "--instance-count (instanceConfig.instanceCount)", "at most 5");
    FIELD_CASE("count abc", instance_count, "abc", "--instance-count (instanceConfig.instanceCount)",
               "'abc' is not");
    FIELD_CASE("count -1", instance_count, "-1", "--instance-count (instanceConfig.instanceCount)", "whole number");
    FIELD_CASE("volume 0", volume_gb, "0", "--volume-gb (instanceConfig.volumeSizeInGb)", "got 0");
    FIELD_CASE("volume huge", volume_gb, "99999999999", "--volume-gb (instanceConfig.volumeSizeInGb)",
               "2147483647");
    FIELD_CASE("runtime 0", max_runtime, "0", "--max-runtime (stoppingCondition.maxRuntimeInSeconds)", "1 to 432000");
    FIELD_CASE("runtime 432001", max_runtime, "432001", "--max-runtime (stoppingCondition.maxRuntimeInSeconds)",
               "got 432001");
    FIELD_CASE("runtime 1e3", max_runtime, "1e3", "--max-runtime (stoppingCondition.maxRuntimeInSeconds)",
               "whole number");
    FIELD_CASE("distribution", distribution, "model_parallel", "--distribution", "data_parallel");
    /* An empty number given on the command line is kept to be refused. */
    byoc_jobspec s;
    base(&s);
    s.instance_count = strdup("");
    expect("count empty", &s, "--instance-count", "whole number");
}

static void test_device(void)
{
    const char *w = "--device (deviceConfig.device)";
    FIELD_CASE("no slash", device, "local:braket", w, "local:<provider>/<simulator>");
    FIELD_CASE("space", device, "local:braket/sv 1", w, "developer guide");
    FIELD_CASE("bare name", device, "sv1", w, "Braket device ARN");
    FIELD_CASE("other service", device, "arn:aws:s3:::bucket", w, "Braket device ARN");
    char long_dev[300];
    snprintf(long_dev, sizeof long_dev, "local:p/%0250d", 0);
    FIELD_CASE("257 chars", device, long_dev, w, "1 to 256");
}

static void test_s3(void)
{
    FIELD_CASE("http", output_s3, "http://bucket/key", "--output-s3 (outputDataConfig.s3Path)", "S3Path");
    FIELD_CASE("no scheme", checkpoint_s3, "bucket/key", "--checkpoint-s3 (checkpointConfig.s3Uri)",
               "not an s3:// URI");
    FIELD_CASE("bad bucket", output_s3, "s3://b!d/key", "--output-s3", "valid S3 bucket");
    FIELD_CASE("https not s3", output_s3, "https://example.com/key", "--output-s3", "parse_s3_uri");
    char long_uri[1100];
    snprintf(long_uri, sizeof long_uri, "s3://bucket/%01020d", 0);
    FIELD_CASE("1032 chars", output_s3, long_uri, "--output-s3", "0 to 1024");
    FIELD_CASE("code https", code_location, "https://bucket.s3.us-east-1.amazonaws.com/code", "--code-location",
               "s3://<bucket>/<prefix>");
    FIELD_CASE("s3 source not tar", source_module, "s3://bucket/src.zip", "--source-module", ".tar.gz");
    CHECK(byoc_job_is_s3_uri("s3://bucket/key"));
    CHECK(byoc_job_is_s3_uri("https://bucket.s3.eu-west-2.amazonaws.com/key"));
    CHECK(!byoc_job_is_s3_uri("s3://bucket\n/key"));
    CHECK(!byoc_job_is_s3_uri("ftp://bucket/key"));
}

static void test_lists(void)
{
    byoc_jobspec s;
    base(&s);
    byoc_jobspec_add_hyperparameter(&s, "lr", "");
    expect("empty value", &s, "--hyperparameter (hyperParameters[lr])", "1 to 2500");

    base(&s);
    char *big = malloc(2502);
    memset(big, 'x', 2501);
    big[2501] = '\0';
    byoc_jobspec_add_hyperparameter(&s, "lr", big);
    free(big);
    expect("2501 value", &s, "--hyperparameter (hyperParameters[lr])", "has 2501");

    base(&s);
    char key[300];
    memset(key, 'k', 257);
    key[257] = '\0';
    byoc_jobspec_add_hyperparameter(&s, key, "1");
    expect("257 key", &s, "--hyperparameter (hyperParameters key)", "1 to 256");

    base(&s);
    byoc_jobspec_add_hyperparameter(&s, "msg", "two\nlines");
    expect("newline value", &s, "--hyperparameter (hyperParameters[msg])", "no line breaks");

    base(&s);
    byoc_jobspec_add_hyperparameter(&s, "a", "1");
    byoc_jobspec_add_hyperparameter(&s, "a", "2");
    expect("duplicate", &s, "--hyperparameter (hyperParameters[a])", "given twice");

    base(&s);
    byoc_jobspec_add_hyperparameter(&s, "bad", "\xff\xfe");
    expect("invalid utf-8", &s, "--hyperparameter", "UTF-8");

    base(&s);
    for (int i = 0; i < 99; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        byoc_jobspec_add_hyperparameter(&s, k, "v");
    }
    expect("99 ok", &s, NULL, NULL);
    base(&s);
    for (int i = 0; i < 99; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        byoc_jobspec_add_hyperparameter(&s, k, "v");
    }
    byoc_jobspec_set(&s.distribution, "data_parallel");
    expect("99 + distribution", &s, "--hyperparameter (hyperParameters)", "101 given");

    base(&s);
    byoc_jobspec_add_channel(&s, "tr ain", "s3://b/k", NULL);
    expect("channel space", &s, "--input-data (inputDataConfig[0].channelName)", "[A-Za-z0-9\\.\\-_]+");
    base(&s);
    byoc_jobspec_add_channel(&s, "x", "s3://bucket/k", NULL);
    byoc_jobspec_add_channel(&s, "x", "s3://bucket/j", NULL);
    expect("channel twice", &s, "--input-data (inputDataConfig[1].channelName)", "given twice");
    base(&s);
    for (int i = 0; i < 21; i++) {
        char n[16];
        snprintf(n, sizeof n, "c%d", i);
        byoc_jobspec_add_channel(&s, n, "s3://bucket/k", NULL);
    }
    expect("21 channels", &s, "--input-data (inputDataConfig)", "at most 20");
    base(&s);
    byoc_jobspec_add_channel(&s, "train", "/nonexistent/prefix", NULL);
    expect("missing local", &s, "--input-data (inputDataConfig[0].dataSource.s3DataSource.s3Uri)", "no local file");
    base(&s);
    byoc_jobspec_add_channel(&s, "train", "http://bucket/k", NULL);
    expect("http channel", &s, "--input-data (inputDataConfig[0].dataSource.s3DataSource.s3Uri)", "S3Path");
    base(&s);
    byoc_jobspec_add_channel(&s, "train", "s3://bucket", NULL);
    expect("bucket only is fine", &s, NULL, NULL);

    base(&s);
    byoc_jobspec_add_tag(&s, "", "v");
    expect("empty tag key", &s, "--tag (tags key)", "a tag needs a key");
    base(&s);
    byoc_jobspec_add_tag(&s, "a", "1");
    byoc_jobspec_add_tag(&s, "a", "2");
    expect("tag twice", &s, "--tag (tags[a])", "given twice");
}

static void test_source_and_entry_point(void)
{
    const char *we = "--entry-point (algorithmSpecification.scriptModeConfig.entryPoint)";
    FIELD_CASE("missing source", source_module, "/nonexistent/algo.py", "--source-module", "not found");
    FIELD_CASE("other module", entry_point, "other", we, "archive holds only algo.py");
    FIELD_CASE("empty function", entry_point, "algo:", we, "Python identifier");
    FIELD_CASE("bad function", entry_point, "algo:1x", we, "Python identifier");
    FIELD_CASE("relative", entry_point, ".algo", we, "relative module");
    FIELD_CASE("file path", entry_point, "algo.py", we, "not in the source module");
    FIELD_CASE("slash path", entry_point, "src/algo", we, "dotted");

    byoc_jobspec s;
    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    byoc_jobspec_set(&s.entry_point, "pkg.missing");
    expect("missing in package", &s, we, "no missing.py or missing/");
    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    byoc_jobspec_set(&s.entry_point, "other.mod");
    expect("wrong package", &s, we, "directory name 'pkg'");
    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    byoc_jobspec_set(&s.entry_point, "pkg.nope.mod");
    expect("missing subpackage", &s, we, "no package nope/");
    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    byoc_jobspec_set(&s.entry_point, "pkg.sub");
    expect("subpackage itself", &s, NULL, NULL);
    base(&s);
    byoc_jobspec_set(&s.source_module, pkg);
    expect("default entry point of a package", &s, NULL, NULL);

    base(&s);
    byoc_jobspec_set(&s.source_module, "s3://bucket/src.tar.gz");
    expect("s3 source needs entry point", &s, we, "required when the source module is an S3 URI");
    base(&s);
    byoc_jobspec_set(&s.source_module, "s3://bucket/src.TAR.GZ");
    byoc_jobspec_set(&s.entry_point, "pkg.main");
    expect("s3 source", &s, NULL, NULL);

    char *resolved = NULL;
    char why[600];
    CHECK_INT(byoc_job_resolve_entry_point(pkg, "pkg.sub.mod:run", &resolved, why, sizeof why), 0);
    char want[4200];
    char *real = realpath(pkg, NULL);
    snprintf(want, sizeof want, "%s/sub/mod.py", real);
    CHECK_STR(resolved, want);
    free(real);
    free(resolved);
}

/* byoc's launcher (custom-base): every kind byoc_container.py starts, inside the source module. */
static void launcher_case(const char *label, byoc_job_launcher l, const char *src, const char *ep, const char *needle)
{
    byoc_jobspec s;
    base(&s);
    s.launcher = l;
    byoc_jobspec_set(&s.source_module, src);
    byoc_jobspec_set(&s.entry_point, ep);
    expect(label, &s, needle ? "--entry-point" : NULL, needle);
}

static void test_entry_point_by_launcher(void)
{
    char proj[4200], alg[4300], p[4400];
    snprintf(proj, sizeof proj, "%s/proj", dir);
    mkdir(proj, 0755);
    snprintf(alg, sizeof alg, "%s/algorithm", proj);
    mkdir(alg, 0755);
    const char *files[] = {"algo.jl", "Project.toml", "main.cpp", "main.rs", "run.sh", "algo.py", "notes.txt"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(p, sizeof p, "%s/%s", alg, files[i]);
        write_file(p, "x\n");
    }
    snprintf(p, sizeof p, "%s/tool", alg);
    write_file(p, "#!/bin/sh\n");
    chmod(p, 0755);
    snprintf(p, sizeof p, "%s/rs", alg);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/rs/Cargo.toml", alg);
    write_file(p, "[package]\n");
    snprintf(p, sizeof p, "%s/cm", alg);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/cm/CMakeLists.txt", alg);
    write_file(p, "add_executable(algo main.cpp)\n");
    snprintf(p, sizeof p, "%s/empty", alg);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/outside.jl", proj);
    write_file(p, "x\n");

    const byoc_job_launcher B = BYOC_LAUNCHER_BYOC;
    launcher_case("byoc: julia", B, alg, "algorithm/algo.jl", NULL);
    launcher_case("byoc: c++", B, alg, "algorithm/main.cpp", NULL);
    launcher_case("byoc: rust file", B, alg, "algorithm/main.rs", NULL);
    launcher_case("byoc: shell", B, alg, "algorithm/run.sh", NULL);
    launcher_case("byoc: python script", B, alg, "algorithm/algo.py", NULL);
    launcher_case("byoc: python module", B, alg, "algorithm.algo", NULL);
    launcher_case("byoc: executable", B, alg, "algorithm/tool", NULL);
    launcher_case("byoc: Cargo.toml", B, alg, "algorithm/rs/Cargo.toml", NULL);
    launcher_case("byoc: Cargo directory", B, alg, "algorithm/rs", NULL);
    launcher_case("byoc: CMakeLists.txt", B, alg, "algorithm/cm/CMakeLists.txt", NULL);
    launcher_case("byoc: CMake target", B, alg, "algorithm/cm/CMakeLists.txt:algo", NULL);
    launcher_case("byoc: CMake directory", B, alg, "algorithm/cm", NULL);
    launcher_case("byoc: path in the image", B, alg, "/usr/local/bin/solver", NULL);
    launcher_case("byoc: missing file", B, alg, "algorithm/nope.jl", "not in the source module");
    launcher_case("byoc: outside the source", B, alg, "outside.jl", "not in the source module");
    launcher_case("byoc: dot-dot", B, alg, "algorithm/../outside.jl", "not in the source module");
    launcher_case("byoc: unknown kind", B, alg, "algorithm/notes.txt", "not executable");
    launcher_case("byoc: directory without manifest", B, alg, "algorithm/empty", "without Cargo.toml");
    launcher_case("byoc: target after a non-CMake file", B, alg, "algorithm/algo.jl:x", "CMake target");
    launcher_case("byoc: missing module", B, alg, "algorithm.nope", "no nope.py");
    launcher_case("byoc: control character", B, alg, "algorithm/a\x01.jl", "control character");
    snprintf(p, sizeof p, "%s/main.cpp", alg);
    launcher_case("byoc: a file source at the archive's root", B, p, "main.cpp", NULL);
    /* The Braket launcher keeps the SDK's module rules; an unknown one takes the API's String. */
    launcher_case("braket: a .jl file", BYOC_LAUNCHER_BRAKET, alg, "algorithm/algo.jl", "dotted");
    launcher_case("braket: module", BYOC_LAUNCHER_BRAKET, alg, "algorithm.algo", NULL);
    launcher_case("unknown: anything", BYOC_LAUNCHER_UNKNOWN, alg, "algorithm/whatever", NULL);

    /* The launcher of an image: the project's recipe, Braket's own images, else unknown. */
    byoc_project pr;
    byoc_project_init(&pr);
    CHECK_INT(byoc_job_launcher_for(IMAGE, NULL), BYOC_LAUNCHER_UNKNOWN);
    CHECK_INT(byoc_job_launcher_for(NULL, NULL), BYOC_LAUNCHER_BRAKET);
    CHECK_INT(byoc_job_launcher_for("292282985366.dkr.ecr.us-west-2.amazonaws.com/amazon-braket-pytorch-jobs:latest",
                                    NULL), BYOC_LAUNCHER_BRAKET);
    CHECK_INT(byoc_job_launcher_for(IMAGE, &pr), BYOC_LAUNCHER_UNKNOWN);
    byoc_str_set(&pr.recipe, "custom-base");
    CHECK_INT(byoc_job_launcher_for(IMAGE, &pr), BYOC_LAUNCHER_BYOC);
    byoc_str_set(&pr.recipe, "extend-prebuilt");
    CHECK_INT(byoc_job_launcher_for(IMAGE, &pr), BYOC_LAUNCHER_BRAKET);
    /* No image given (issue 17 point 1): the image used is the last push, else a custom-base
     * project's own; only with neither is it the Braket base image. */
    CHECK_INT(byoc_job_launcher_for(NULL, &pr), BYOC_LAUNCHER_BRAKET);
    byoc_str_set(&pr.recipe, "custom-base");
    CHECK_INT(byoc_job_launcher_for(NULL, &pr), BYOC_LAUNCHER_BYOC);
    CHECK_INT(byoc_job_launcher_for("", &pr), BYOC_LAUNCHER_BYOC);
    byoc_project_set_pushed(&pr, IMAGE, NULL);
    CHECK_INT(byoc_job_launcher_for(NULL, &pr), BYOC_LAUNCHER_BYOC);
    byoc_project_set_pushed(&pr, "292282985366.dkr.ecr.us-west-2.amazonaws.com/amazon-braket-base-jobs:1", NULL);
    CHECK_INT(byoc_job_launcher_for(NULL, &pr), BYOC_LAUNCHER_BRAKET);   /* the push named Braket's image */
    byoc_str_set(&pr.recipe, NULL);
    byoc_project_set_pushed(&pr, IMAGE, NULL);
    CHECK_INT(byoc_job_launcher_for(NULL, &pr), BYOC_LAUNCHER_UNKNOWN);  /* a pushed image of no known recipe */
    byoc_project_clear(&pr);

    /* From the project directory, as the CLI, the form and preflight ask: a Julia project's
     * entry point is accepted with no image (the form's empty field), refused for extend-prebuilt. */
    snprintf(p, sizeof p, "%s/byoc.json", proj);
    write_file(p, "{\"recipe\": \"custom-base\", \"language\": \"julia\"}\n");
    CHECK_INT(byoc_job_launcher_in(NULL, proj), BYOC_LAUNCHER_BYOC);
    CHECK_INT(byoc_job_launcher_in(NULL, NULL), BYOC_LAUNCHER_BRAKET);
    const char *no_image[] = {"julia, no image", "extend-prebuilt, no image"};
    for (int i = 0; i < 2; i++) {
        byoc_jobspec s;
        base(&s);
        byoc_jobspec_set(&s.image_uri, NULL);
        byoc_jobspec_set(&s.source_module, alg);
        byoc_jobspec_set(&s.entry_point, "algorithm/algo.jl");
        s.launcher = byoc_job_launcher_in(s.image_uri, proj);
        expect(no_image[i], &s, i ? "--entry-point" : NULL, i ? "dotted" : NULL);
        write_file(p, "{\"recipe\": \"extend-prebuilt\"}\n");
    }
    unlink(p);
}

static void test_other_fields(void)
{
    char big[4200];
    memset(big, 'k', 4097);
    big[4097] = '\0';
    FIELD_CASE("local path 4097", checkpoint_local_path, big, "--checkpoint-local-path (checkpointConfig.localPath)",
               "1 to 4096");
    big[2049] = '\0';
    FIELD_CASE("kms 2049", kms_key_id, big, "--kms-key-id (outputDataConfig.kmsKeyId)", "1 to 2048");
    FIELD_CASE("reservation", reservation_arn, "arn:aws:braket:us-east-1:1234:reservation/x",
               "--reservation-arn (associations[0].arn)", "BraketResourceArn");
    FIELD_CASE("copy from", copy_checkpoints_from_job, "arn:aws:braket:us-east-1:123456789012:quantum-task/x",
               "--copy-checkpoints-from-job (jobArn)", "JobArn");
}

static void test_all_problems_reported(void)
{
    byoc_jobspec s;
    base(&s);
    byoc_jobspec_set(&s.job_name, "bad_name");
    byoc_jobspec_set(&s.instance_count, "9");
    byoc_jobspec_set(&s.device, "nope");
    byoc_job_problems p = {0};
    byoc_job_validate_opts o = {.role_env = ""};
    CHECK_INT(byoc_jobspec_validate(&s, &o, &p), 3);
    byoc_err err;
    CHECK_INT(byoc_job_problems_to_err(&p, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--device (deviceConfig.device)");
    byoc_job_problems_clear(&p);
    byoc_jobspec_clear(&s);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

int main(void)
{
    setup();
    test_valid();
    test_job_name();
    test_image_uri();
    test_role();
    test_numbers_and_enums();
    test_device();
    test_s3();
    test_lists();
    test_source_and_entry_point();
    test_entry_point_by_launcher();
    test_other_fields();
    test_all_problems_reported();
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
    return check_done();
}
