/* lint: BYOC-specific findings about a project's Dockerfile and build
 * context, each with a rule id, a file and a line:
 *   dockerfile-missing, dockerfile-unreadable, dockerfile-syntax
 *   sagemaker-program     custom entry point without SAGEMAKER_PROGRAM
 *   program-not-copied    SAGEMAKER_PROGRAM not copied to /opt/ml/code
 *   sagemaker-training    custom base without sagemaker-training or a `train` executable
 *   custom-entrypoint     ENTRYPOINT in the final image (the service runs `train`)
 *   arch-instance         arm64 base vs the x86_64 job instances
 *   gpu-base              GPU instance or gpu project on a non-CUDA base (and the reverse)
 *   secret-copy           COPY/ADD of keys, .ssh/, .aws/, .env, ...
 *   secret-env            ENV/ARG named like a secret; token-looking values in ENV/ARG/LABEL/RUN
 *   ssh-in-build          SSH keys written in a layer, git over SSH without forwarding
 *   many-requirements     recipe 1 with many packages installed at every job start
 *   private-requirements  git+ssh / private-index requirements nothing can fetch at job start
 *   requirements-invalid  an unreadable or binary requirements.txt
 *   base-latest           FROM an untagged or :latest image
 *   context-secret        private keys, .ssh/, .aws/, .env, tokens in the build context
 *                         (and credentials in requirement URLs)
 *   context-size          VCS data, virtualenvs, build outputs or huge files in the context
 *   no-dockerignore       no .dockerignore
 * The context rules follow .dockerignore exactly as the build does
 * (docker/context.h). */
#ifndef BYOC_BYOC_LINT_H
#define BYOC_BYOC_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/project.h"
#include "core/err.h"
#include "core/task.h"

typedef struct json_t json_t;

typedef enum { BYOC_LINT_ERROR, BYOC_LINT_WARNING, BYOC_LINT_INFO } byoc_lint_severity;

typedef struct byoc_finding {
    byoc_lint_severity severity;
    const char *rule;
    char *file;          /* project-relative */
    int line;            /* 0 when the finding is about a whole file */
    char *message;
} byoc_finding;

typedef struct byoc_lint_result {
    byoc_finding *items;
    size_t n;
    size_t n_errors;
} byoc_lint_result;

/* What the Dockerfile rules need to know beyond the file itself. */
typedef struct byoc_lint_config {
    const char *recipe;          /* "extend-prebuilt"/"custom-base"/NULL: taken from FROM */
    const char *arch;            /* the project's target arch, or NULL */
    bool gpu;                    /* the project says GPU */
    const char *instance_type;   /* the job's instance type, or NULL when unknown */
    const char *context_dir;     /* for checks of COPY sources; NULL to skip them */
    const char *dockerfile_name; /* file name in findings */
    const byoc_kv *build_args;
    size_t n_build_args;
} byoc_lint_config;

/* The Dockerfile rules on a text (pure apart from looking up COPY sources in
 * context_dir). Findings are appended to out (initialise it zeroed). */
void byoc_lint_dockerfile(const char *text, size_t len, const byoc_lint_config *cfg, byoc_lint_result *out);

typedef struct byoc_lint_options {
    const char *dir;             /* the project directory */
    const char *instance_type;   /* overrides byoc.json's job.instance_type */
    const char *dockerfile;      /* overrides byoc.json's dockerfile (relative to dir) */
} byoc_lint_options;

/* Everything: byoc.json, the Dockerfile rules, requirements.txt, the build
 * context. Fails only when dir is not a directory or byoc.json is invalid
 * (kind USAGE); problems in the project are findings. */
int byoc_lint_project(const byoc_lint_options *o, byoc_lint_result *out, byoc_err *err);

/* The project lint as a task (core/task.h): arg is a byoc_lint_options whose strings
 * outlive the task; the DONE event's result is a byoc_lint_result * (sorted). */
int byoc_lint_task(byoc_task *t, void *options, void **result, void (**result_free)(void *), byoc_err *err);

void byoc_lint_add(byoc_lint_result *r, byoc_lint_severity sev, const char *rule, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void byoc_lint_result_clear(byoc_lint_result *r);
/* Sort by file, then line, then severity. */
void byoc_lint_sort(byoc_lint_result *r);
const char *byoc_lint_severity_name(byoc_lint_severity s); /* "error", "warning", "info" */
/* Find the first finding of a rule (tests, the TUI), or NULL. */
const byoc_finding *byoc_lint_find(const byoc_lint_result *r, const char *rule);

/* {"findings": [{"severity", "rule", "file", "line", "message"}]}. Caller decrefs. */
json_t *byoc_lint_to_json(const byoc_lint_result *r);

#endif
