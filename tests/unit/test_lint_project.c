/* The lint over a project directory (byoc_lint_project): byoc.json's settings,
 * requirements.txt, and the build context rules that follow .dockerignore. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "byoc/lint.h"
#include "check.h"

#define GOOD_CUSTOM                                                         \
    "FROM --platform=linux/amd64 public.ecr.aws/docker/library/python:3.12-slim\n" \
    "RUN pip install --no-cache-dir sagemaker-training==5.1.1\n"            \
    "COPY byoc/ /opt/ml/code/\n"                                            \
    "ENV SAGEMAKER_PROGRAM=byoc_container.py\n"

static void put(const char *dir, const char *rel, const char *text, size_t len)
{
    check_write_file(dir, rel, text, len);
}

static void lint(const char *dir, const char *instance_type, byoc_lint_result *r)
{
    memset(r, 0, sizeof *r);
    byoc_lint_options o = {.dir = dir, .instance_type = instance_type};
    byoc_err err;
    if (byoc_lint_project(&o, r, &err) != 0)
        check_fail(__FILE__, __LINE__, "lint %s: %s: %s", dir, err.what, err.message);
}

static const byoc_finding *find_file(const byoc_lint_result *r, const char *rule, const char *file)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->items[i].rule, rule) && !strcmp(r->items[i].file, file))
            return &r->items[i];
    return NULL;
}

static void test_clean_project(void)
{
    char *dir = check_tmpdir();
    put(dir, "Dockerfile", GOOD_CUSTOM, -1);
    put(dir, "byoc/byoc_container.py", "print(1)\n", -1);
    put(dir, ".dockerignore", ".git\n", -1);
    put(dir, "byoc.json", "{\"recipe\": \"custom-base\", \"job\": {\"instance_type\": \"ml.m5.large\"}}\n", -1);
    byoc_lint_result r;
    lint(dir, NULL, &r);
    for (size_t i = 0; i < r.n; i++)
        check_fail(__FILE__, __LINE__, "unexpected %s %s:%d %s", r.items[i].rule, r.items[i].file, r.items[i].line,
                   r.items[i].message);
    byoc_lint_result_clear(&r);

    /* the same as a task */
    void *result = NULL;
    void (*result_free)(void *) = NULL;
    byoc_lint_options o = {.dir = dir};
    byoc_err err;
    CHECK_INT(byoc_task_run_sync("lint", byoc_lint_task, &o, &result, &result_free, &err, NULL, NULL), 0);
    CHECK(result && ((byoc_lint_result *)result)->n == 0);
    if (result)
        result_free(result);

    /* the instance type comes from byoc.json, or the option */
    put(dir, "byoc.json", "{\"job\": {\"instance_type\": \"ml.p3.2xlarge\"}}\n", -1);
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "gpu-base") != NULL);
    byoc_lint_result_clear(&r);
    lint(dir, "ml.c5.xlarge", &r);
    CHECK(byoc_lint_find(&r, "gpu-base") == NULL);
    byoc_lint_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

static void test_context(void)
{
    char *dir = check_tmpdir();
    put(dir, "Dockerfile", GOOD_CUSTOM, -1);
    put(dir, "byoc/byoc_container.py", "print(1)\n", -1);
    put(dir, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\nxx\n", -1);
    put(dir, ".ssh/known_hosts", "host key\n", -1);
    put(dir, "deploy/key.pem", "-----BEGIN RSA PRIVATE KEY-----\nMII\n", -1);
    put(dir, "certs/ca.pem", "-----BEGIN CERTIFICATE-----\nMII\n", -1);
    put(dir, "config/settings.py", "# settings\n\nAWS_KEY = 'AKIAIOSFODNN7EXAMPLE'\n", -1);
    put(dir, ".env", "X=1\n", -1);
    put(dir, ".git/objects/ab/cdef", "blob", -1);
    put(dir, "ignored/id_rsa", "-----BEGIN RSA PRIVATE KEY-----\n", -1);
    put(dir, ".dockerignore", "ignored\n", -1);
    byoc_lint_result r;
    lint(dir, NULL, &r);
    CHECK(find_file(&r, "context-secret", ".ssh/") != NULL);
    CHECK(find_file(&r, "context-secret", ".ssh/id_ed25519") == NULL); /* the directory is reported once */
    CHECK(find_file(&r, "context-secret", "deploy/key.pem") != NULL);
    CHECK(find_file(&r, "context-secret", "certs/ca.pem") == NULL);   /* a certificate is no secret */
    const byoc_finding *tok = find_file(&r, "context-secret", "config/settings.py");
    CHECK(tok && tok->line == 3);
    if (tok)
        CHECK(strstr(tok->message, "AKIAIOSF") == NULL);
    CHECK(find_file(&r, "context-secret", ".env") != NULL);
    CHECK(find_file(&r, "context-secret", "ignored/id_rsa") == NULL); /* .dockerignore'd: never sent */
    CHECK(find_file(&r, "context-size", ".git/") != NULL);
    CHECK(byoc_lint_find(&r, "no-dockerignore") == NULL);
    CHECK(r.n_errors >= 4);
    byoc_lint_result_clear(&r);

    /* COPY of a certificate is fine, of a private key is not (the context tells them apart) */
    put(dir, "Dockerfile", GOOD_CUSTOM "COPY certs/ca.pem /etc/ssl/certs/\nCOPY deploy/key.pem /etc/ssl/private/\n", -1);
    lint(dir, NULL, &r);
    const byoc_finding *copy = byoc_lint_find(&r, "secret-copy");
    CHECK(copy && copy->line == 6 && strstr(copy->message, "deploy/key.pem"));
    int copies = 0;
    for (size_t i = 0; i < r.n; i++)
        copies += !strcmp(r.items[i].rule, "secret-copy");
    CHECK_INT(copies, 1);
    byoc_lint_result_clear(&r);
    put(dir, "Dockerfile", GOOD_CUSTOM, -1);

    /* .dockerignore fixes it all */
    put(dir, ".dockerignore", "ignored\n.git\n.ssh\n**/*.pem\n.env\nconfig\n", -1);
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "context-secret") == NULL);
    CHECK(byoc_lint_find(&r, "context-size") == NULL);
    byoc_lint_result_clear(&r);

    /* no .dockerignore at all */
    char path[4200];
    snprintf(path, sizeof path, "%s/.dockerignore", dir);
    unlink(path);
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "no-dockerignore") != NULL);
    byoc_lint_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

static void test_requirements(void)
{
    char *dir = check_tmpdir();
    put(dir, "Dockerfile", "FROM 292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-base-jobs:1.0\n", -1);
    put(dir, ".dockerignore", ".git\n", -1);
    char req[2048] = "";
    for (int i = 0; i < 12; i++)
        snprintf(req + strlen(req), sizeof req - strlen(req), "package-%d==1.0\n", i);
    strcat(req, "numpy\ngit+ssh://git@github.com/acme/p.git#egg=p\n");
    put(dir, "requirements.txt", req, -1);
    byoc_lint_result r;
    lint(dir, NULL, &r);
    const byoc_finding *many = byoc_lint_find(&r, "many-requirements");
    CHECK(many && strstr(many->message, "13 packages"));
    const byoc_finding *priv = byoc_lint_find(&r, "private-requirements");
    CHECK(priv && priv->line == 14 && !strcmp(priv->file, "requirements.txt"));
    byoc_lint_result_clear(&r);

    /* installed in the image: no warning */
    put(dir, "Dockerfile",
        "FROM 292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-base-jobs:1.0\n"
        "COPY requirements.txt /tmp/\nRUN pip install -r /tmp/requirements.txt\n",
        -1);
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "many-requirements") == NULL);
    byoc_lint_result_clear(&r);

    /* credentials in a URL; a binary requirements.txt */
    put(dir, "requirements.txt", "x @ https://me:p4ssw0rd@example.com/x.whl\n", -1);
    lint(dir, NULL, &r);
    const byoc_finding *cred = find_file(&r, "context-secret", "requirements.txt");
    CHECK(cred && cred->line == 1 && !strstr(cred->message, "p4ssw0rd"));
    byoc_lint_result_clear(&r);
    put(dir, "requirements.txt", "\x00\x01\x02\x03\xff\xfe", 6);
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "requirements-invalid") != NULL);
    byoc_lint_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

static void test_missing_and_unreadable(void)
{
    char *dir = check_tmpdir();
    byoc_lint_result r;
    const byoc_finding *f;
    lint(dir, NULL, &r);
    CHECK(byoc_lint_find(&r, "dockerfile-missing") != NULL);
    CHECK_INT(r.n_errors, 1);
    byoc_lint_result_clear(&r);

    put(dir, "Dockerfile", GOOD_CUSTOM, -1);
    char path[4200];
    snprintf(path, sizeof path, "%s/Dockerfile", dir);
    chmod(path, 0);
    if (geteuid() != 0) {
        lint(dir, NULL, &r);
        CHECK(byoc_lint_find(&r, "dockerfile-unreadable") != NULL);
        byoc_lint_result_clear(&r);
    }
    chmod(path, 0644);
    /* a directory where the Dockerfile should be: unreadable for anyone, root included */
    put(dir, "byoc.json", "{\"dockerfile\": \"Dockerdir\"}\n", -1);
    put(dir, "Dockerdir/x", "", -1);
    lint(dir, NULL, &r);
    f = byoc_lint_find(&r, "dockerfile-unreadable");
    CHECK(f && !strcmp(f->file, "Dockerdir") && strstr(f->message, "not a regular file"));
    byoc_lint_result_clear(&r);

    /* byoc.json names another Dockerfile and context */
    put(dir, "byoc.json", "{\"dockerfile\": \"docker/Dockerfile.job\", \"context\": \"src\"}\n", -1);
    put(dir, "docker/Dockerfile.job", "FROM python\n", -1);
    mkdir(strcat(strcpy(path, dir), "/src"), 0755);
    lint(dir, NULL, &r);
    f = byoc_lint_find(&r, "base-latest");
    CHECK(f && !strcmp(f->file, "docker/Dockerfile.job") && f->line == 1);
    byoc_lint_result_clear(&r);

    /* an invalid byoc.json is a usage error, not a crash */
    put(dir, "byoc.json", "{\"gpu\": \"maybe\"}", -1);
    byoc_lint_options o = {.dir = dir};
    byoc_err err;
    memset(&r, 0, sizeof r);
    CHECK_INT(byoc_lint_project(&o, &r, &err), -1);
    CHECK_INT(err.kind, BYOC_E_USAGE);
    byoc_lint_result_clear(&r);
    o.dir = "/nonexistent/byoc-lint";
    CHECK_INT(byoc_lint_project(&o, &r, &err), -1);
    byoc_lint_result_clear(&r);

    json_t *j = byoc_lint_to_json(&r);
    CHECK(json_is_array(json_object_get(j, "findings")));
    json_decref(j);
    check_rm_tree(dir);
    free(dir);
}

/* A CUDA base has no Python: byoc's contract installs its Ubuntu's python3, so a project that
 * needs another is warned about, unless the Dockerfile brings its own; a requirement built for
 * another CUDA major than the base's is warned about too. */
static void test_cuda_base(void)
{
    char *dir = check_tmpdir();
    put(dir, "pyproject.toml", "[project]\nname = \"q\"\nrequires-python = \">=3.13\"\n", -1);
    put(dir, ".dockerignore", ".git\n", -1);
    put(dir, "Dockerfile", "FROM --platform=linux/amd64 nvidia/cuda:12.4.1-devel-ubuntu22.04\n", -1);
    byoc_lint_result r;
    lint(dir, "ml.g4dn.xlarge", &r);
    const byoc_finding *py = byoc_lint_find(&r, "python-base");
    CHECK(py && py->severity == BYOC_LINT_WARNING && py->line == 1 && strstr(py->message, ">=3.13") &&
          strstr(py->message, "Ubuntu 22.04's python3, Python 3.10"));
    CHECK(byoc_lint_find(&r, "cuda-base") == NULL);
    byoc_lint_result_clear(&r);

    /* Ubuntu 24.04's 3.12 satisfies >=3.12; a Python the Dockerfile installs is not judged */
    put(dir, "pyproject.toml", "[project]\nname = \"q\"\nrequires-python = \">=3.12\"\n", -1);
    put(dir, "Dockerfile", "FROM nvidia/cuda:12.6.2-runtime-ubuntu24.04\n", -1);
    lint(dir, "ml.g4dn.xlarge", &r);
    CHECK(byoc_lint_find(&r, "python-base") == NULL);
    byoc_lint_result_clear(&r);
    put(dir, "pyproject.toml", "[project]\nname = \"q\"\nrequires-python = \">=3.13\"\n", -1);
    put(dir, "Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n"
                           "RUN add-apt-repository ppa:deadsnakes/ppa && apt-get install -y python3.13\n", -1);
    lint(dir, "ml.g4dn.xlarge", &r);
    CHECK(byoc_lint_find(&r, "python-base") == NULL);
    byoc_lint_result_clear(&r);

    /* CUDA majors: cupy for 11 on a 12 base (line 2), torch +cu121 on it is fine */
    put(dir, "requirements.txt", "torch==2.3.0+cu121\ncupy-cuda11x>=13  # the GPU arrays\n", -1);
    lint(dir, "ml.g4dn.xlarge", &r);
    const byoc_finding *cu = byoc_lint_find(&r, "cuda-base");
    CHECK(cu && cu->severity == BYOC_LINT_WARNING && strstr(cu->message, "requirements.txt:2 is built for CUDA 11") &&
          strstr(cu->message, "has CUDA 12"));
    byoc_lint_result_clear(&r);
    put(dir, "requirements.txt", "torch==2.3.0+cu121\nnvidia-cublas-cu12\ncuda-quantum-cu12\n", -1);
    lint(dir, "ml.g4dn.xlarge", &r);
    CHECK(byoc_lint_find(&r, "cuda-base") == NULL);
    byoc_lint_result_clear(&r);
    /* a base whose name does not tell is not judged */
    put(dir, "requirements.txt", "cupy-cuda11x\n", -1);
    put(dir, "Dockerfile", "FROM registry.example.com/team/gpu-base:7\n", -1);
    lint(dir, "ml.g4dn.xlarge", &r);
    CHECK(byoc_lint_find(&r, "cuda-base") == NULL && byoc_lint_find(&r, "python-base") == NULL);
    byoc_lint_result_clear(&r);
    check_rm_tree(dir);
    free(dir);
}

int main(void)
{
    test_clean_project();
    test_context();
    test_requirements();
    test_cuda_base();
    test_missing_and_unreadable();
    return check_done();
}
