#include "byoc/lint_base.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "byoc/pyspec.h"
#include "byoc/recipe.h"
#include "byoc/scan.h"
#include "core/buf.h"
#include "core/files.h"

#define REQUIREMENTS_MAX (1024u * 1024u)

/* What a base image's name tells. */
typedef struct base_facts {
    char *python;         /* "3.13", or NULL when the name does not tell */
    bool python_installed; /* by byoc's contract (a CUDA base has none): Ubuntu's python3 */
    const char *ubuntu;   /* a CUDA base's Ubuntu release ("22.04"), else NULL */
    int cuda;             /* a CUDA base's CUDA major, else 0 */
} base_facts;

/* Ubuntu's python3 by release: what install-packages gives a CUDA base. */
static const char *ubuntu_python(const char *release)
{
    static const char *const table[][2] = {{"18.04", "3.6"}, {"20.04", "3.8"}, {"22.04", "3.10"}, {"24.04", "3.12"}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(release, table[i][0]))
            return table[i][1];
    return NULL;
}

/* The image's repository name (after the last '/') and its tag, or false with no tag or a digest. */
static bool name_and_tag(const char *root, const char **name, size_t *name_len, const char **tag)
{
    const char *colon = strrchr(root, ':'), *slash = strrchr(root, '/');
    if (!colon || (slash && colon < slash) || strchr(root, '@'))
        return false;
    *name = slash ? slash + 1 : root;
    *name_len = (size_t)(colon - *name);
    *tag = colon + 1;
    return true;
}

static void base_facts_read(const char *root, base_facts *f)
{
    memset(f, 0, sizeof *f);
    if (byoc_image_is_prebuilt(root)) {
        f->python = byoc_xstrdup(BYOC_PREBUILT_PYTHON);
        return;
    }
    const char *name, *tag;
    size_t n;
    if (!name_and_tag(root, &name, &n, &tag))
        return;
    if (n == 6 && !strncmp(name, "python", 6)) { /* python:3.13-slim-bookworm */
        size_t major = strspn(tag, "0123456789");
        if (!major || tag[major] != '.')
            return;
        size_t minor = strspn(tag + major + 1, "0123456789");
        if (minor)
            f->python = byoc_xstrndup(tag, major + 1 + minor);
        return;
    }
    /* nvidia/cuda:12.4.1-devel-ubuntu22.04 (also under a registry host or mirror) */
    if (n != 4 || strncmp(name, "cuda", 4) || name - root < 7 || strncmp(name - 7, "nvidia/", 7))
        return;
    f->cuda = atoi(tag);
    const char *ub = strstr(tag, "-ubuntu");
    if (ub) {
        f->ubuntu = ub + 7;
        const char *py = ubuntu_python(f->ubuntu);
        if (py) {
            f->python = byoc_xstrdup(py);
            f->python_installed = true;
        }
    }
}

/* Does the Dockerfile bring a Python of its own (deadsnakes, pyenv, conda, uv, python3.N)? */
static bool installs_own_python(const char *text)
{
    static const char *const ways[] = {"deadsnakes", "pyenv", "conda", "mamba", "uv python"};
    for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++)
        if (strstr(text, ways[i]))
            return true;
    for (const char *p = text; (p = strstr(p, "python3.")); p += 8)
        if (isdigit((unsigned char)p[8]))
            return true;
    return false;
}

/* The project's Python (what decide's scan finds, else byoc.json "python") against the base's. */
static void lint_python(const char *dir, const byoc_project *proj, const char *root, const base_facts *b,
                        const char *df_text, const char *df_rel, int line, byoc_lint_result *out)
{
    if (!b->python || (b->python_installed && installs_own_python(df_text ? df_text : "")))
        return;
    char *evidence = NULL, *spec = NULL;
    byoc_scan sc;
    byoc_err e;
    if (byoc_scan_project(dir, &sc, &e) == 0) {
        if (sc.python_spec) {
            spec = byoc_xstrdup(sc.python_spec);
            evidence = byoc_xstrdup(sc.python_evidence ? sc.python_evidence : "the project");
        }
        byoc_scan_clear(&sc);
    }
    const char *want = json_string_value(json_object_get(proj->doc, "python"));
    if (!spec && want && *want) {
        spec = byoc_xstrdup(want);
        evidence = byoc_xstrdup(BYOC_PROJECT_FILE " python");
    }
    if (spec && byoc_pyspec_allows_series(spec, b->python) == 0) {
        if (b->python_installed)
            byoc_lint_add(out, BYOC_LINT_WARNING, "python-base", df_rel, line,
                          "the project needs Python %s (%s) but the CUDA base image %s has no Python: byoc's "
                          "contract installs Ubuntu %s's python3, Python %s: pick a CUDA base on an Ubuntu "
                          "release with that Python, or install that Python in the Dockerfile",
                          spec, evidence, root, b->ubuntu, b->python);
        else
            byoc_lint_add(out, BYOC_LINT_WARNING, "python-base", df_rel, line,
                          "the project needs Python %s (%s) but the base image %s has Python %s: build on a base "
                          "with that Python (e.g. public.ecr.aws/docker/library/python:<version>-slim-bookworm, "
                          "recipe 2)",
                          spec, evidence, root, b->python);
    }
    free(spec);
    free(evidence);
}

/* The CUDA major a requirement line is built for: cupy-cuda12x, cupy-cuda117, nvidia-*-cu12,
 * cuquantum-python-cu11, cuda-quantum-cu12, jax[cuda12], torch==2.1.0+cu118; else 0. */
static int line_cuda_major(const char *line, size_t n)
{
    char low[256];
    if (n >= sizeof low)
        n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)line[i]);
    low[n] = '\0';
    char *hash = strchr(low, '#');
    if (hash)
        *hash = '\0';
    static const char *const marks[] = {"cuda1", "-cu1", "+cu1", "_cu1"};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        const char *p = strstr(low, marks[i]);
        if (p) {
            p += strlen(marks[i]);
            if (isdigit((unsigned char)*p))
                return 10 + (*p - '0');
        }
    }
    return 0;
}

/* A package of the project's requirements.txt built for another CUDA major than the base's. */
static void lint_cuda(const char *dir, const char *context, const char *root, const base_facts *b,
                      const char *df_rel, int line, byoc_lint_result *out)
{
    if (!b->cuda)
        return;
    char *ctxdir = byoc_path_join(dir, context);
    char *path = byoc_path_join(ctxdir, "requirements.txt");
    free(ctxdir);
    char *text = NULL;
    size_t len = 0;
    bool truncated = false;
    byoc_err e;
    if (byoc_path_exists(path) && byoc_file_read(path, REQUIREMENTS_MAX, &text, &len, &truncated, &e) == 0 &&
        !byoc_text_is_binary(text, len)) {
        int no = 0;
        for (const char *p = text; p < text + len; no++) {
            const char *eol = memchr(p, '\n', (size_t)(text + len - p));
            size_t n = eol ? (size_t)(eol - p) : (size_t)(text + len - p);
            int want = line_cuda_major(p, n);
            if (want && want != b->cuda) {
                char *rel = strcmp(context, ".") ? byoc_xasprintf("%s/requirements.txt", context)
                                                 : byoc_xstrdup("requirements.txt");
                byoc_lint_add(out, BYOC_LINT_WARNING, "cuda-base", df_rel, line,
                              "%s:%d is built for CUDA %d but the base image %s has CUDA %d: it will not find its "
                              "libraries; pick a base of CUDA %d (nvidia/cuda:%d.x-...) or that package's build "
                              "for CUDA %d",
                              rel, no + 1, want, root, b->cuda, want, want, b->cuda);
                free(rel);
                break;
            }
            p += n + 1;
        }
    }
    free(text);
    free(path);
}

void byoc_lint_base(const char *dir, const byoc_project *proj, const char *root, const char *df_text,
                    const char *df_rel, int line, const char *context, byoc_lint_result *out)
{
    base_facts b;
    base_facts_read(root, &b);
    lint_python(dir, proj, root, &b, df_text, df_rel, line, out);
    lint_cuda(dir, context, root, &b, df_rel, line, out);
    free(b.python);
}
