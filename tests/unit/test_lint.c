/* The lint (byoc/lint.h): each Dockerfile rule firing and not firing, and the
 * malformed inputs (syntax errors, binary, unreadable) giving clear findings. */
#include <stdlib.h>
#include <string.h>

#include "byoc/lint.h"
#include "byoc/tokens.h"
#include "check.h"

typedef struct {
    const char *recipe, *arch, *instance_type;
    bool gpu;
} cfg_in;

static void lint_text(const char *text, const cfg_in *in, byoc_lint_result *r)
{
    memset(r, 0, sizeof *r);
    byoc_lint_config cfg = {0};
    if (in) {
        cfg.recipe = in->recipe;
        cfg.arch = in->arch;
        cfg.instance_type = in->instance_type;
        cfg.gpu = in->gpu;
    }
    cfg.dockerfile_name = "Dockerfile";
    byoc_lint_dockerfile(text, strlen(text), &cfg, r);
}

static int count(const byoc_lint_result *r, const char *rule, byoc_lint_severity sev)
{
    int n = 0;
    for (size_t i = 0; i < r->n; i++)
        n += !strcmp(r->items[i].rule, rule) && r->items[i].severity == sev;
    return n;
}

static int line_of(const byoc_lint_result *r, const char *rule)
{
    const byoc_finding *f = byoc_lint_find(r, rule);
    return f ? f->line : -1;
}

/* A custom-base Dockerfile that follows the contract. */
#define GOOD_CUSTOM                                                         \
    "FROM --platform=linux/amd64 public.ecr.aws/docker/library/python:3.12-slim\n" \
    "RUN pip install --no-cache-dir sagemaker-training==5.1.1\n"            \
    "COPY byoc/byoc_container.py /opt/ml/code/byoc_container.py\n"          \
    "ENV SAGEMAKER_PROGRAM=byoc_container.py\n"

#define PREBUILT "292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-base-jobs"

static void test_clean(void)
{
    byoc_lint_result r;
    lint_text(GOOD_CUSTOM, NULL, &r);
    if (r.n)
        check_fail(__FILE__, __LINE__, "unexpected finding %s: %s", r.items[0].rule, r.items[0].message);
    byoc_lint_result_clear(&r);
    lint_text("FROM " PREBUILT "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"
              "RUN pip install networkx\n",
              NULL, &r);
    CHECK_INT(r.n, 0);
    byoc_lint_result_clear(&r);
}

static void test_sagemaker_program(void)
{
    byoc_lint_result r;
    lint_text("FROM python:3.12-slim\nRUN pip install sagemaker-training\nCOPY x.py /opt/ml/code/x.py\n", NULL, &r);
    CHECK_INT(count(&r, "sagemaker-program", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "sagemaker-program"), 1);
    byoc_lint_result_clear(&r);

    lint_text("FROM python:3.12-slim\nRUN pip install sagemaker-training\nENV SAGEMAKER_PROGRAM=\n", NULL, &r);
    CHECK_INT(count(&r, "sagemaker-program", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "sagemaker-program"), 3);
    byoc_lint_result_clear(&r);

    /* the prebuilt image brings its own program */
    lint_text("FROM " PREBUILT ":1.0\n", NULL, &r);
    CHECK_INT(count(&r, "sagemaker-program", BYOC_LINT_ERROR), 0);
    CHECK_INT(count(&r, "sagemaker-training", BYOC_LINT_ERROR), 0);
    byoc_lint_result_clear(&r);
}

static void test_program_copied(void)
{
    byoc_lint_result r;
    lint_text("FROM python:3.12-slim\nRUN pip install sagemaker-training\nENV SAGEMAKER_PROGRAM=run.py\n"
              "COPY run.py /app/run.py\n",
              NULL, &r);
    CHECK_INT(count(&r, "program-not-copied", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "program-not-copied"), 3);
    byoc_lint_result_clear(&r);

    /* the ways of getting it there */
    static const char *const ok[] = {
        "COPY run.py /opt/ml/code/\n",
        "COPY src/*.py /opt/ml/code\n",
        "WORKDIR /opt/ml\nCOPY run.py code/run.py\n",
        "WORKDIR /opt/ml/code\nCOPY run.py .\n",
        "ADD [\"run.py\", \"/opt/ml/code/run.py\"]\n",
        "ARG DEST=/opt/ml/code\nCOPY run.py ${DEST}/\n",
        "RUN cp /usr/share/run.py /opt/ml/code/run.py\n",
        "COPY <<EOF /opt/ml/code/run.py\nprint(1)\nEOF\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char text[1024];
        snprintf(text, sizeof text, "FROM python:3.12-slim\nRUN pip install sagemaker-training\n"
                                    "ENV SAGEMAKER_PROGRAM=run.py\n%s", ok[i]);
        lint_text(text, NULL, &r);
        if (count(&r, "program-not-copied", BYOC_LINT_ERROR))
            check_fail(__FILE__, __LINE__, "fired for: %s", ok[i]);
        else
            check_passed++;
        byoc_lint_result_clear(&r);
    }

    /* recipe 1 replacing the launcher must copy its own */
    lint_text("FROM " PREBUILT ":1.0\nENV SAGEMAKER_PROGRAM=mine.py\n", NULL, &r);
    CHECK_INT(count(&r, "program-not-copied", BYOC_LINT_ERROR), 1);
    byoc_lint_result_clear(&r);

    /* the program comes from an earlier stage of the chain */
    lint_text("FROM python:3.12-slim AS base\nRUN pip install sagemaker-training\n"
              "COPY run.py /opt/ml/code/run.py\nFROM base\nENV SAGEMAKER_PROGRAM=run.py\n",
              NULL, &r);
    CHECK_INT(count(&r, "program-not-copied", BYOC_LINT_ERROR), 0);
    CHECK_INT(count(&r, "sagemaker-program", BYOC_LINT_ERROR), 0);
    byoc_lint_result_clear(&r);
}

static void test_sagemaker_training(void)
{
    byoc_lint_result r;
    lint_text("FROM debian:bookworm-slim\nCOPY p.py /opt/ml/code/p.py\nENV SAGEMAKER_PROGRAM=p.py\n", NULL, &r);
    CHECK_INT(count(&r, "sagemaker-training", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "sagemaker-training"), 1);
    byoc_lint_result_clear(&r);

    static const char *const ok[] = {
        "RUN python3 -m pip install 'sagemaker_training'\n",
        "COPY train /usr/local/bin/train\n",
        "RUN ln -s /opt/x/train /usr/local/bin/train\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "FROM debian:bookworm-slim\nCOPY p.py /opt/ml/code/p.py\nENV SAGEMAKER_PROGRAM=p.py\n%s", ok[i]);
        lint_text(text, NULL, &r);
        CHECK_INT(count(&r, "sagemaker-training", BYOC_LINT_ERROR), 0);
        byoc_lint_result_clear(&r);
    }
    /* a base given by a variable: the project's recipe decides */
    cfg_in extend = {.recipe = "extend-prebuilt"};
    lint_text("ARG BASE\nFROM $BASE\n", &extend, &r);
    CHECK_INT(count(&r, "sagemaker-training", BYOC_LINT_ERROR), 0);
    byoc_lint_result_clear(&r);
    lint_text("ARG BASE\nFROM $BASE\n", NULL, &r);
    CHECK_INT(count(&r, "sagemaker-training", BYOC_LINT_ERROR), 1);
    byoc_lint_result_clear(&r);
}

static void test_entrypoint(void)
{
    byoc_lint_result r;
    lint_text(GOOD_CUSTOM "ENTRYPOINT [\"python3\", \"/opt/ml/code/byoc_container.py\"]\n", NULL, &r);
    CHECK_INT(count(&r, "custom-entrypoint", BYOC_LINT_WARNING), 1);
    CHECK_INT(line_of(&r, "custom-entrypoint"), 5);
    byoc_lint_result_clear(&r);
    lint_text(GOOD_CUSTOM "ENTRYPOINT []\nCMD [\"train\"]\n", NULL, &r);
    CHECK_INT(count(&r, "custom-entrypoint", BYOC_LINT_WARNING), 0);
    byoc_lint_result_clear(&r);
    /* an ENTRYPOINT in a build stage that is not the final image is fine */
    lint_text("FROM alpine:3.19 AS tools\nENTRYPOINT [\"x\"]\n" GOOD_CUSTOM, NULL, &r);
    CHECK_INT(count(&r, "custom-entrypoint", BYOC_LINT_WARNING), 0);
    byoc_lint_result_clear(&r);
}

static void test_arch(void)
{
    byoc_lint_result r;
    cfg_in cpu = {.instance_type = "ml.m5.large"};
    lint_text("FROM --platform=linux/arm64 python:3.12-slim\nRUN pip install sagemaker-training\n"
              "COPY a.py /opt/ml/code/\nENV SAGEMAKER_PROGRAM=a.py\n",
              &cpu, &r);
    CHECK_INT(count(&r, "arch-instance", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "arch-instance"), 1);
    byoc_lint_result_clear(&r);

    lint_text("FROM arm64v8/python:3.12-slim\n", NULL, &r); /* no instance type: a warning */
    CHECK_INT(count(&r, "arch-instance", BYOC_LINT_WARNING), 1);
    CHECK(strstr(byoc_lint_find(&r, "arch-instance")->message, "local runs") &&
          strstr(byoc_lint_find(&r, "arch-instance")->message, "--platform linux/amd64"));
    byoc_lint_result_clear(&r);

    cfg_in arm_project = {.arch = "arm64", .instance_type = "ml.c5.xlarge"};
    lint_text(GOOD_CUSTOM, &arm_project, &r); /* FROM --platform=linux/amd64 wins over the project */
    CHECK_INT(count(&r, "arch-instance", BYOC_LINT_ERROR), 0);
    byoc_lint_result_clear(&r);
    lint_text("FROM python:3.12-slim\n", &arm_project, &r);
    CHECK_INT(count(&r, "arch-instance", BYOC_LINT_ERROR), 1);
    CHECK_STR(byoc_lint_find(&r, "arch-instance")->file, "byoc.json");
    byoc_lint_result_clear(&r);

    lint_text(GOOD_CUSTOM, &cpu, &r);
    CHECK_INT(count(&r, "arch-instance", BYOC_LINT_ERROR) + count(&r, "arch-instance", BYOC_LINT_WARNING), 0);
    byoc_lint_result_clear(&r);
}

static void test_gpu(void)
{
    byoc_lint_result r;
    cfg_in gpu_instance = {.instance_type = "ml.g4dn.xlarge"};
    lint_text(GOOD_CUSTOM, &gpu_instance, &r);
    CHECK_INT(count(&r, "gpu-base", BYOC_LINT_WARNING), 1);
    CHECK(strstr(byoc_lint_find(&r, "gpu-base")->message, "ml.g4dn.xlarge") != NULL);
    byoc_lint_result_clear(&r);

    cfg_in gpu_project = {.gpu = true};
    lint_text(GOOD_CUSTOM, &gpu_project, &r);
    CHECK_INT(count(&r, "gpu-base", BYOC_LINT_WARNING), 1);
    byoc_lint_result_clear(&r);

    lint_text("FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\nRUN pip install sagemaker-training\n"
              "COPY a.py /opt/ml/code/a.py\nENV SAGEMAKER_PROGRAM=a.py\n",
              &gpu_instance, &r);
    CHECK_INT(count(&r, "gpu-base", BYOC_LINT_WARNING), 0);
    byoc_lint_result_clear(&r);

    lint_text("FROM " PREBUILT ":1.0\n", &gpu_instance, &r); /* the base image is CPU-only */
    CHECK_INT(count(&r, "gpu-base", BYOC_LINT_WARNING), 1);
    byoc_lint_result_clear(&r);

    cfg_in cpu = {.instance_type = "ml.m5.large"};
    lint_text("FROM 292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-pytorch-jobs:2.8\n", &cpu, &r);
    CHECK_INT(count(&r, "gpu-base", BYOC_LINT_INFO), 1);
    byoc_lint_result_clear(&r);
}

static void test_latest(void)
{
    byoc_lint_result r;
    lint_text("FROM python AS a\nFROM registry.local:5000/team/img AS b\nFROM python:latest AS c\n"
              "FROM a\nFROM scratch\nFROM python:3.12@sha256:abc\n",
              NULL, &r);
    CHECK_INT(count(&r, "base-latest", BYOC_LINT_WARNING), 3);
    for (size_t i = 0; i < r.n; i++)
        if (!strcmp(r.items[i].rule, "base-latest"))
            CHECK(r.items[i].line >= 1 && r.items[i].line <= 3);
    byoc_lint_result_clear(&r);
}

static void test_secrets_in_dockerfile(void)
{
    byoc_lint_result r;
    lint_text(GOOD_CUSTOM "COPY id_rsa /root/.ssh/id_rsa\nADD .aws/credentials /root/.aws/\nCOPY ./.env /app/\n"
                          "COPY certs/ca.pem /etc/ssl/\n",
              NULL, &r);
    CHECK_INT(count(&r, "secret-copy", BYOC_LINT_ERROR), 4); /* ca.pem: no context to look into, so flagged */
    CHECK_INT(line_of(&r, "secret-copy"), 5);
    byoc_lint_result_clear(&r);

    lint_text(GOOD_CUSTOM "ENV GITHUB_TOKEN=abcdef API_URL=https://x TOKEN_FILE=/run/secrets/t\n"
                          "ARG NPM_TOKEN\nARG DB_PASSWORD=hunter2\n"
                          "ENV ID=AKIAABCDEFGHIJKLMNOP\n"
                          "RUN curl -H 'Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ012345' x\n"
                          "LABEL maintainer=me\n",
              NULL, &r);
    CHECK_INT(count(&r, "secret-env", BYOC_LINT_ERROR), 4);  /* GITHUB_TOKEN, DB_PASSWORD, AKIA..., ghp_... */
    CHECK_INT(count(&r, "secret-env", BYOC_LINT_WARNING), 1); /* ARG NPM_TOKEN without a value */
    for (size_t i = 0; i < r.n; i++) /* never the value itself */
        CHECK(!strstr(r.items[i].message, "hunter2") && !strstr(r.items[i].message, "AKIAABCD") &&
              !strstr(r.items[i].message, "ghp_0123"));
    byoc_lint_result_clear(&r);

    lint_text(GOOD_CUSTOM "ENV GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D PATH=/usr/bin\n", NULL, &r);
    CHECK_INT(count(&r, "secret-env", BYOC_LINT_ERROR), 0);
    byoc_lint_result_clear(&r);
}

static void test_ssh(void)
{
    byoc_lint_result r;
    lint_text(GOOD_CUSTOM "ARG SSH_PRIVATE_KEY\nRUN mkdir -p /root/.ssh && echo \"$SSH_PRIVATE_KEY\" > /root/.ssh/id_rsa\n"
                          "RUN git clone git@github.com:acme/private.git\n"
                          "RUN --mount=type=ssh git clone git@github.com:acme/ok.git\n"
                          "RUN ssh-keygen -t ed25519 -f /tmp/k -N ''\n",
              NULL, &r);
    CHECK_INT(count(&r, "ssh-in-build", BYOC_LINT_ERROR), 1);
    CHECK_INT(line_of(&r, "ssh-in-build"), 6);
    CHECK_INT(count(&r, "ssh-in-build", BYOC_LINT_WARNING), 1);
    for (size_t i = 0; i < r.n; i++)
        if (!strcmp(r.items[i].rule, "ssh-in-build") && r.items[i].severity == BYOC_LINT_WARNING)
            CHECK_INT(r.items[i].line, 7);
    byoc_lint_result_clear(&r);
}

static void test_malformed(void)
{
    byoc_lint_result r;
    lint_text("FROM\nRUN <<EOF\nnever closed\n", NULL, &r);
    CHECK(count(&r, "dockerfile-syntax", BYOC_LINT_ERROR) >= 2);
    CHECK(r.n_errors >= 2);
    byoc_lint_result_clear(&r);

    static const char bin[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    memset(&r, 0, sizeof r);
    byoc_lint_config cfg = {.dockerfile_name = "Dockerfile"};
    byoc_lint_dockerfile(bin, sizeof bin - 1, &cfg, &r);
    CHECK_INT(r.n, 1);
    CHECK_STR(r.items[0].rule, "dockerfile-syntax");
    CHECK(strstr(r.items[0].message, "binary") != NULL);
    byoc_lint_result_clear(&r);

    lint_text("", NULL, &r);
    CHECK_INT(count(&r, "dockerfile-syntax", BYOC_LINT_ERROR), 1);
    byoc_lint_result_clear(&r);
}

static void test_tokens(void)
{
    size_t off;
    CHECK_STR(byoc_token_find("x=AKIAIOSFODNN7EXAMPLE;", 22, &off), "an AWS access key id");
    CHECK_INT(off, 2);
    CHECK(byoc_token_find("AKIAIOSFODNN7EXAMPL", 19, &off) == NULL); /* too short */
    CHECK(byoc_token_find("XAKIAIOSFODNN7EXAMPLE", 21, &off) == NULL); /* inside a word */
    const char *pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n";
    CHECK_STR(byoc_token_find(pem, strlen(pem), &off), "a private key");
    const char *cert = "-----BEGIN CERTIFICATE-----\nMIIB\n";
    CHECK(byoc_token_find(cert, strlen(cert), &off) == NULL);
    const char *gl = "glpat-abcdefghij0123456789";
    CHECK_STR(byoc_token_find(gl, strlen(gl), &off), "a GitLab token");
    CHECK_STR(byoc_secret_path("a/b/.ssh/config"), "an SSH directory");
    CHECK_STR(byoc_secret_path("keys/id_ed25519"), "an SSH private key");
    CHECK(byoc_secret_path(".env.example") == NULL);
    CHECK(byoc_secret_path("src/main.py") == NULL);
    CHECK(byoc_secret_path("environment.yml") == NULL);
    CHECK(byoc_secret_var_name("AWS_SECRET_ACCESS_KEY"));
    CHECK(byoc_secret_var_name("my_api_key"));
    CHECK(!byoc_secret_var_name("TOKEN_FILE"));
    CHECK(!byoc_secret_var_name("GPG_KEY"));
}

int main(void)
{
    test_clean();
    test_sagemaker_program();
    test_program_copied();
    test_sagemaker_training();
    test_entrypoint();
    test_arch();
    test_gpu();
    test_latest();
    test_secrets_in_dockerfile();
    test_ssh();
    test_malformed();
    test_tokens();
    return check_done();
}
