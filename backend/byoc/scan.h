/* scan: looks at a project directory and answers what it can of the
 * wizard's questions (decide.h): the languages (by files: *.py, Cargo.toml /
 * *.rs, *.jl / Project.toml, CMakeLists.txt / *.cpp, ...), requirements.txt
 * and pyproject.toml (size, packages missing from the prebuilt image,
 * requires-python), private dependencies (git+ssh, scp-style git URLs, a
 * private index, ssh submodules), CUDA use, the target CPU architecture, an
 * existing Dockerfile and byoc.json.
 *
 * The walk skips VCS, virtualenv and build-output directories, does not
 * follow symlinks and is bounded (depth, file count, bytes read per file).
 * Unreadable or binary files become notes, never failures. */
#ifndef BYOC_BYOC_SCAN_H
#define BYOC_BYOC_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "byoc/decide.h"
#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"

typedef struct json_t json_t;

typedef struct byoc_scan {
    char *dir;
    byoc_strv languages;         /* "python", "cpp", "rust", "julia", "other" in that order */
    byoc_strv language_evidence; /* parallel: the first file that showed each language */
    byoc_strv requirement_files; /* relative paths read (requirements.txt, pyproject.toml, ...) */
    size_t n_packages;           /* package-like requirements over all of them */
    byoc_strv missing;           /* their normalised names that the prebuilt image lacks */
    byoc_strv private_deps;      /* "file:line: what (why)" */
    byoc_strv secrets;           /* "file:line: credentials in a URL" (never the value) */
    char *python_spec;           /* requires-python or similar, or NULL */
    char *python_evidence;       /* "pyproject.toml:7" */
    bool cuda;
    char *cuda_evidence;
    char *arch;                  /* "amd64"/"arm64" when something says so, else NULL */
    char *arch_evidence;
    bool conda;                  /* environment.yml: installs beyond requirements.txt */
    char *conda_evidence;
    char *dockerfile;            /* relative path of a Dockerfile at the top, or NULL */
    char *dockerfile_base;       /* its final stage's root image, or NULL */
    bool project_file;           /* byoc.json exists */
    byoc_strv notes;             /* problems met: "requirements.txt: binary, ignored" */
    size_t files_seen;
    bool truncated;              /* the walk stopped at its bounds */
} byoc_scan;

/* Scan dir. Fails (kind USAGE, what "--scan") only when dir is not a readable directory. */
int byoc_scan_project(const char *dir, byoc_scan *out, byoc_err *err);
void byoc_scan_clear(byoc_scan *s);

/* Put what the scan found into the answers as SCANNED, with evidence. Answers the
 * user gave (source USER) are left alone. */
void byoc_scan_apply(const byoc_scan *s, byoc_answers *a);

/* The "detected" object of `byoc decide --json`. Caller decrefs. */
json_t *byoc_scan_to_json(const byoc_scan *s);

/* The scan as a task (core/task.h) so a screen never waits on the disk:
 * byoc_task_start(q, "scan", byoc_scan_task, byoc_xstrdup(dir), free). The DONE
 * event's result is a byoc_scan * (its result_free frees it). */
int byoc_scan_task(byoc_task *t, void *dir, void **result, void (**result_free)(void *), byoc_err *err);

#endif
