/* The project scanner (byoc/scan.h) on fixture projects of every kind
 * (tests/fixtures/projects/<kind>), and on malformed ones built here. */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/scan.h"
#include "check.h"

typedef struct {
    byoc_scan s;
    byoc_answers a;
    byoc_decision d;
} result;

static void run(result *r, const char *dir)
{
    byoc_err err;
    if (byoc_scan_project(dir, &r->s, &err) != 0)
        check_fail(__FILE__, __LINE__, "scan %s: %s", dir, err.message);
    byoc_answers_init(&r->a);
    byoc_scan_apply(&r->s, &r->a);
    byoc_decide(&r->a, &r->d);
}

static void run_fixture(result *r, const char *kind)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fixtures/projects/%s", check_source_dir(), kind);
    run(r, dir);
}

static void done(result *r)
{
    byoc_decision_clear(&r->d);
    byoc_answers_clear(&r->a);
    byoc_scan_clear(&r->s);
}

static bool fired(const result *r, const char *rule)
{
    for (size_t i = 0; i < r->d.n_reasons; i++)
        if (!strcmp(r->d.reasons[i].rule, rule))
            return true;
    return false;
}

static const char *answer(const result *r, byoc_question_id q)
{
    return byoc_answer_str(&r->a, q);
}

static void test_python_few(void)
{
    result r;
    run_fixture(&r, "python-few");
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "python");
    CHECK_INT(r.s.n_packages, 3);
    CHECK_INT(r.s.missing.n, 1); /* numpy and networkx are in the prebuilt image */
    CHECK(!byoc_strv_contains(&r.s.missing, "networkx"));
    CHECK(byoc_strv_contains(&r.s.missing, "pyyaml"));
    CHECK_STR(answer(&r, BYOC_Q_MISSING_PACKAGES), "1");
    CHECK_INT(r.a.a[BYOC_Q_MISSING_PACKAGES].source, BYOC_SRC_SCANNED);
    CHECK(strstr(r.a.a[BYOC_Q_MISSING_PACKAGES].evidence, "requirements.txt") != NULL);
    CHECK_STR(answer(&r, BYOC_Q_PRIVATE_DEPS), "false");
    CHECK_INT(r.a.a[BYOC_Q_PRIVATE_DEPS].source, BYOC_SRC_SCANNED);
    CHECK_INT(r.a.a[BYOC_Q_ARCH].source, BYOC_SRC_DEFAULT);
    CHECK_STR(byoc_verdict_name(r.d.verdict), "not-needed");
    CHECK(fired(&r, "few-packages"));
    done(&r);
}

static void test_python_many(void)
{
    result r;
    run_fixture(&r, "python-many");
    CHECK_INT(r.s.requirement_files.n, 2); /* -r extra/more.txt followed */
    CHECK_STR(r.s.requirement_files.v[1], "extra/more.txt");
    CHECK_INT(r.s.missing.n, 12);
    CHECK(byoc_strv_contains(&r.s.missing, "gamma-pkg")); /* normalised from Gamma.Pkg */
    CHECK(byoc_strv_contains(&r.s.missing, "mu"));
    CHECK(!byoc_strv_contains(&r.s.missing, "numpy"));
    CHECK_STR(byoc_verdict_name(r.d.verdict), "recommended");
    CHECK_STR(byoc_recipe_name(r.d.recipe), "extend-prebuilt");
    CHECK(fired(&r, "many-packages"));
    done(&r);
}

static void test_python_private(void)
{
    result r;
    run_fixture(&r, "python-private");
    CHECK_INT(r.s.private_deps.n, 2);
    CHECK(strstr(r.s.private_deps.v[0], "requirements.txt:1") && strstr(r.s.private_deps.v[0], "index"));
    CHECK(strstr(r.s.private_deps.v[1], "requirements.txt:3") && strstr(r.s.private_deps.v[1], "SSH"));
    CHECK_STR(answer(&r, BYOC_Q_PRIVATE_DEPS), "true");
    CHECK(fired(&r, "private-deps"));
    CHECK_STR(byoc_recipe_name(r.d.recipe), "extend-prebuilt");
    done(&r);
}

static void test_python_oldpy(void)
{
    result r;
    run_fixture(&r, "python-oldpy");
    CHECK_STR(r.s.python_spec, ">=3.9,<3.12");          /* [project], not [tool.other] */
    CHECK_STR(r.s.python_evidence, "pyproject.toml:7");
    CHECK_STR(answer(&r, BYOC_Q_PYTHON_VERSION), ">=3.9,<3.12");
    CHECK_INT(r.s.n_packages, 3);                       /* pyproject dependencies: no requirements.txt */
    CHECK(byoc_strv_contains(&r.s.missing, "cirq-core"));
    CHECK(fired(&r, "python-version"));
    CHECK_STR(byoc_recipe_name(r.d.recipe), "custom-base");
    done(&r);
}

static void test_poetry(void)
{
    result r;
    run_fixture(&r, "poetry");
    CHECK_STR(r.s.python_spec, "~3.10");
    CHECK(fired(&r, "python-version"));
    CHECK(byoc_strv_contains(&r.s.missing, "pulser"));
    CHECK(!byoc_strv_contains(&r.s.missing, "qiskit"));
    done(&r);
}

static void test_rust(void)
{
    result r;
    run_fixture(&r, "rust");
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "rust");
    CHECK_STR(r.a.a[BYOC_Q_LANGUAGES].evidence, "rust: Cargo.toml");
    CHECK(fired(&r, "non-python"));
    CHECK_INT(r.d.language, BYOC_LANG_RUST);
    CHECK(!r.s.cuda);
    done(&r);
}

static void test_julia_gpu(void)
{
    result r;
    run_fixture(&r, "julia-gpu");
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "julia");
    CHECK(r.s.cuda);
    CHECK_STR(answer(&r, BYOC_Q_GPU), "true");
    CHECK_STR(r.s.cuda_evidence, "Project.toml:4");
    CHECK_INT(r.d.language, BYOC_LANG_JULIA);
    CHECK(r.d.gpu);
    done(&r);
}

static void test_cpp_cuda(void)
{
    result r;
    run_fixture(&r, "cpp-cuda");
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "cpp");
    CHECK(r.s.cuda);
    CHECK_STR(r.s.cuda_evidence, "CMakeLists.txt:2");
    CHECK_STR(byoc_verdict_name(r.d.verdict), "required");
    done(&r);
}

static void test_mixed(void)
{
    result r;
    run_fixture(&r, "mixed");
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "python,cpp");
    CHECK_STR(r.s.python_spec, "3.10.4");              /* runtime.txt's python-3.10.4 */
    CHECK(r.s.cuda);
    CHECK_STR(r.s.cuda_evidence, "driver.py:1");        /* import cupy */
    CHECK(fired(&r, "non-python") && fired(&r, "python-version") && fired(&r, "gpu"));
    done(&r);
}

static void test_conda(void)
{
    result r;
    run_fixture(&r, "conda");
    CHECK(r.s.conda);
    CHECK_STR(answer(&r, BYOC_Q_LARGE_STACK), "true");
    CHECK_STR(r.s.python_spec, "=3.11");
    CHECK(fired(&r, "large-stack"));
    done(&r);
}

static void test_arm(void)
{
    result r;
    run_fixture(&r, "arm");
    CHECK_STR(r.s.arch, "arm64");
    CHECK_STR(r.s.arch_evidence, "Dockerfile:1: FROM --platform=linux/arm64");
    CHECK_STR(r.s.dockerfile, "Dockerfile");
    CHECK_STR(r.s.dockerfile_base, "public.ecr.aws/docker/library/python:3.12-slim");
    CHECK_STR(answer(&r, BYOC_Q_ARCH), "arm64");
    CHECK(fired(&r, "arch-arm64"));
    done(&r);
}

static void test_prebuilt_ext(void)
{
    result r;
    run_fixture(&r, "prebuilt-ext");
    json_t *j = byoc_scan_to_json(&r.s);
    json_t *df = json_object_get(j, "dockerfile");
    CHECK(json_is_true(json_object_get(df, "extends_prebuilt")));
    json_decref(j);
    done(&r);
}

static void test_submodule(void)
{
    result r;
    run_fixture(&r, "submodule");
    CHECK_INT(r.s.private_deps.n, 1); /* the https submodule is public */
    CHECK(strstr(r.s.private_deps.v[0], ".gitmodules:3") != NULL);
    CHECK(fired(&r, "private-deps"));
    done(&r);
}

static void test_empty(void)
{
    result r;
    run_fixture(&r, "empty");
    CHECK_INT(r.s.languages.n, 0);
    for (int i = 0; i < BYOC_Q_COUNT; i++)
        CHECK_INT(r.a.a[i].source, BYOC_SRC_DEFAULT);
    CHECK_STR(byoc_verdict_name(r.d.verdict), "not-needed");
    done(&r);
}

static void test_broken(void)
{
    result r;
    run_fixture(&r, "broken");
    bool binary_note = false, syntax_note = false;
    for (size_t i = 0; i < r.s.notes.n; i++) {
        binary_note |= strstr(r.s.notes.v[i], "requirements.txt") && strstr(r.s.notes.v[i], "binary");
        syntax_note |= strstr(r.s.notes.v[i], "Dockerfile") && strstr(r.s.notes.v[i], "syntax");
    }
    CHECK(binary_note);
    CHECK(syntax_note);
    CHECK_INT(r.a.a[BYOC_Q_MISSING_PACKAGES].source, BYOC_SRC_DEFAULT);
    done(&r);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

static void rm_rf(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *dir, const char *rel, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    char cmd_dir[4096];
    snprintf(cmd_dir, sizeof cmd_dir, "%s", path);
    /* rel may have no directory part: then cmd_dir is dir itself and there is nothing to walk. */
    for (char *p = cmd_dir + strlen(dir) + (strlen(cmd_dir) > strlen(dir)); *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(cmd_dir, 0755);
            *p = '/';
        }
    mkdir(cmd_dir, 0755);
    *slash = '/';
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static void test_generated_edge_cases(void)
{
    char *dir = check_tmpdir();
    /* skipped directories: a virtualenv under any name, node_modules, target, .git */
    write_file(dir, "env1/pyvenv.cfg", "home = /usr\n");
    write_file(dir, "env1/lib/x.rs", "fn main() {}\n");
    write_file(dir, "node_modules/a/b.cpp", "int x;\n");
    write_file(dir, "target/debug/y.jl", "1\n");
    write_file(dir, ".git/hooks/z.go", "package z\n");
    write_file(dir, "app/main.py", "import torch\nx = torch.zeros(1).to('cuda')\n");
    /* credentials in a requirement URL: reported without the secret */
    write_file(dir, "requirements.txt", "pkg @ https://user:s3cr3tpassw0rd@example.com/pkg.whl\n");
    /* byoc.json says arm64 and names a Dockerfile elsewhere */
    write_file(dir, "byoc.json", "{\"arch\": \"arm64\", \"gpu\": false, \"future\": 1, "
                                 "\"dockerfile\": \"docker/job.Dockerfile\"}\n");
    write_file(dir, "docker/job.Dockerfile", "FROM public.ecr.aws/docker/library/python:3.12-slim\n");
    /* an unreadable Python file */
    write_file(dir, "app/locked.py", "print(1)\n");
    char locked[4096];
    snprintf(locked, sizeof locked, "%s/app/locked.py", dir);
    chmod(locked, 0);

    result r;
    run(&r, dir);
    CHECK_STR(answer(&r, BYOC_Q_LANGUAGES), "python");
    CHECK(r.s.cuda);
    CHECK_STR(r.s.cuda_evidence, "app/main.py:2");
    CHECK_STR(r.s.arch, "arm64");
    CHECK_STR(r.s.arch_evidence, "byoc.json: arch");
    CHECK(r.s.project_file);
    CHECK_STR(r.s.dockerfile, "docker/job.Dockerfile");
    CHECK_STR(r.s.dockerfile_base, "public.ecr.aws/docker/library/python:3.12-slim");
    CHECK_INT(r.s.secrets.n, 1);
    CHECK(strstr(r.s.secrets.v[0], "requirements.txt:1") != NULL);
    json_t *j = byoc_scan_to_json(&r.s);
    char *text = json_dumps(j, 0);
    CHECK(strstr(text, "s3cr3tpassw0rd") == NULL);
    free(text);
    json_decref(j);
    if (geteuid() != 0) { /* root reads anything */
        bool unreadable = false;
        for (size_t i = 0; i < r.s.notes.n; i++)
            unreadable |= strstr(r.s.notes.v[i], "locked.py") != NULL;
        CHECK(unreadable);
    }
    done(&r);

    /* user answers win over the scan */
    byoc_scan s;
    byoc_err err;
    CHECK_INT(byoc_scan_project(dir, &s, &err), 0);
    byoc_answers a;
    byoc_answers_init(&a);
    CHECK_INT(byoc_answer_assign(&a, "arch=amd64", &err), 0);
    byoc_scan_apply(&s, &a);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_ARCH), "amd64");
    CHECK_INT(a.a[BYOC_Q_ARCH].source, BYOC_SRC_USER);
    CHECK_STR(byoc_answer_str(&a, BYOC_Q_GPU), "true");
    CHECK_INT(a.a[BYOC_Q_GPU].source, BYOC_SRC_SCANNED);
    byoc_answers_clear(&a);
    byoc_scan_clear(&s);

    /* not a directory */
    CHECK_INT(byoc_scan_project("/nonexistent/byoc", &s, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    CHECK_STR(err.what, "--scan");

    chmod(locked, 0644);
    rm_rf(dir);
    free(dir);
}

static void test_task(void)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fixtures/projects/rust", check_source_dir());
    void *out = NULL;
    void (*done_free)(void *) = NULL;
    byoc_err err;
    CHECK_INT(byoc_task_run_sync("scan", byoc_scan_task, dir, &out, &done_free, &err, NULL, NULL), 0);
    CHECK(out != NULL && done_free != NULL);
    if (out) {
        CHECK_STR(((byoc_scan *)out)->languages.v[0], "rust");
        done_free(out);
    }
    out = NULL;
    CHECK(byoc_task_run_sync("scan", byoc_scan_task, "/nonexistent", &out, &done_free, &err, NULL, NULL) != 0);
    CHECK(out == NULL);
}

int main(void)
{
    test_python_few();
    test_python_many();
    test_python_private();
    test_python_oldpy();
    test_poetry();
    test_rust();
    test_julia_gpu();
    test_cpp_cuda();
    test_mixed();
    test_conda();
    test_arm();
    test_prebuilt_ext();
    test_submodule();
    test_empty();
    test_broken();
    test_generated_edge_cases();
    test_task();
    return check_done();
}
