#include "byoc/scan.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "byoc/dockerfile.h"
#include "byoc/project.h"
#include "byoc/pyspec.h"
#include "byoc/recipe.h"
#include "byoc/requirements.h"
#include "core/buf.h"
#include "core/files.h"

#define SCAN_MAX_DEPTH 10
#define SCAN_MAX_FILES 50000
#define SCAN_MAX_READ (256u * 1024u)   /* bytes read from one source file */
#define SCAN_MAX_INCLUDES 8            /* -r nesting */

typedef struct {
    byoc_scan *s;
    int python_prio;                   /* priority of python_spec's source (lower wins) */
    int python_depth;
    bool have_requirements_txt;
    byoc_requirements pyproject_deps;  /* used only when there is no requirements.txt */
    char *pyproject_deps_file;
    byoc_strv seen_names;
} scan_ctx;

static const char *const skip_dirs[] = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__",
                                        ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache", "target",
                                        "build", "dist", ".eggs", ".ipynb_checkpoints", "site-packages",
                                        ".idea", ".vscode", ".cache", NULL};

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static int depth_of(const char *rel)
{
    int d = 0;
    for (; *rel; rel++)
        d += *rel == '/';
    return d;
}

static void note(scan_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(scan_ctx *c, const char *fmt, ...)
{
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_strv_push_owned(&c->s->notes, byoc_buf_steal(&b));
}

/* Read a text file for scanning; NULL (with a note) if unreadable or binary. */
static char *read_text(scan_ctx *c, const char *rel, size_t *len)
{
    char *path = byoc_path_join(c->s->dir, rel);
    char *data = NULL;
    byoc_err err;
    bool truncated = false;
    if (byoc_file_read(path, SCAN_MAX_READ, &data, len, &truncated, &err) != 0) {
        note(c, "%s: unreadable (%s), skipped", rel, err.message);
        free(path);
        return NULL;
    }
    free(path);
    if (byoc_text_is_binary(data, *len)) {
        note(c, "%s: binary content, not text: ignored", rel);
        free(data);
        return NULL;
    }
    return data;
}

static void add_language(scan_ctx *c, const char *lang, const char *rel)
{
    static const char *const order[] = {"python", "cpp", "rust", "julia", "other"};
    if (byoc_strv_contains(&c->s->languages, lang))
        return;
    byoc_strv_push(&c->s->languages, lang);
    byoc_strv_push(&c->s->language_evidence, rel);
    /* keep the canonical order (insertion sort on two parallel vectors) */
    byoc_strv *L = &c->s->languages, *E = &c->s->language_evidence;
    for (size_t i = L->n - 1; i > 0; i--) {
        int a = 0, b = 0;
        for (int k = 0; k < 5; k++) {
            if (!strcmp(order[k], L->v[i - 1]))
                a = k;
            if (!strcmp(order[k], L->v[i]))
                b = k;
        }
        if (a <= b)
            break;
        char *t = L->v[i]; L->v[i] = L->v[i - 1]; L->v[i - 1] = t;
        t = E->v[i]; E->v[i] = E->v[i - 1]; E->v[i - 1] = t;
    }
}

static void set_cuda(scan_ctx *c, const char *rel, int line)
{
    if (c->s->cuda)
        return;
    c->s->cuda = true;
    c->s->cuda_evidence = line > 0 ? byoc_xasprintf("%s:%d", rel, line) : byoc_xstrdup(rel);
}

static void set_arch(scan_ctx *c, const char *arch, const char *evidence)
{
    if (c->s->arch)
        return;
    c->s->arch = byoc_xstrdup(arch);
    c->s->arch_evidence = byoc_xstrdup(evidence);
}

static void set_python(scan_ctx *c, const char *spec, const char *rel, int line, int prio)
{
    int depth = depth_of(rel);
    if (c->s->python_spec && (prio > c->python_prio || (prio == c->python_prio && depth >= c->python_depth)))
        return;
    char *t = byoc_xstrdup(spec);
    size_t n = strlen(t);
    while (n && (isspace((unsigned char)t[n - 1]) || t[n - 1] == '"' || t[n - 1] == '\''))
        t[--n] = '\0';
    char *p = t;
    while (isspace((unsigned char)*p) || *p == '"' || *p == '\'')
        p++;
    if (!strncmp(p, "python-", 7)) /* runtime.txt: "python-3.10.4" */
        p += 7;
    if (!*p || !byoc_pyspec_valid(p)) {
        if (*p)
            note(c, "%s:%d: Python version '%s' not understood, ignored", rel, line, p);
        free(t);
        return;
    }
    free(c->s->python_spec);
    free(c->s->python_evidence);
    c->s->python_spec = byoc_xstrdup(p);
    c->s->python_evidence = byoc_xasprintf("%s:%d", rel, line);
    c->python_prio = prio;
    c->python_depth = depth;
    free(t);
}

/* Iterate lines: calls fn(line text NUL-terminated, 1-based number). */
typedef void (*line_fn)(scan_ctx *c, const char *rel, char *line, int no, void *ud);
static void each_line(scan_ctx *c, const char *rel, char *text, line_fn fn, void *ud)
{
    int no = 0;
    for (char *p = text; p && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        no++;
        size_t n = strlen(p);
        if (n && p[n - 1] == '\r')
            p[n - 1] = '\0';
        fn(c, rel, p, no, ud);
        if (nl)
            *nl = '\n';
        p = nl ? nl + 1 : NULL;
    }
}

static bool word_in(const char *line, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(line, w); p; p = strstr(p + 1, w)) {
        bool left = p == line || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (left && right)
            return true;
    }
    return false;
}

static const char *skip_ws(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* ---- per-language content checks --------------------------------------- */

static void python_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (*s == '#')
        return;
    bool import = !strncmp(s, "import ", 7) || !strncmp(s, "from ", 5);
    if (import && (word_in(s, "cupy") || word_in(s, "pycuda") || word_in(s, "cudaq") ||
                   word_in(s, "cuquantum") || (word_in(s, "numba") && word_in(s, "cuda"))))
        set_cuda(c, rel, no);
    else if (strstr(s, "lightning.gpu") || strstr(s, "torch.cuda") || strstr(s, "\"cuda\"") ||
             strstr(s, "'cuda'") || strstr(s, "\"cuda:") || strstr(s, "'cuda:"))
        set_cuda(c, rel, no);
}

static void julia_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if ((!strncmp(s, "using ", 6) || !strncmp(s, "import ", 7)) && word_in(s, "CUDA"))
        set_cuda(c, rel, no);
    if (!strncmp(s, "CUDA = \"", 8) || !strncmp(s, "CUDA=\"", 6))
        set_cuda(c, rel, no);
}

static void cargo_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (!strncmp(s, "cudarc", 6) || !strncmp(s, "cust ", 5) || !strncmp(s, "cust=", 5) ||
        !strncmp(s, "cuda-", 5) || !strncmp(s, "cuda_", 5))
        set_cuda(c, rel, no);
}

static void cmake_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (*s == '#')
        return;
    if ((strstr(s, "project(") || strstr(s, "project (") || strstr(s, "enable_language")) && word_in(s, "CUDA"))
        set_cuda(c, rel, no);
    if (strstr(s, "find_package(CUDA") || strstr(s, "find_package (CUDA"))
        set_cuda(c, rel, no);
}

static void cpp_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (!strncmp(s, "#include", 8) && (strstr(s, "cuda") || strstr(s, "custatevec") || strstr(s, "cutensornet")))
        set_cuda(c, rel, no);
}

static bool cuda_package(const char *name)
{
    static const char *const prefixes[] = {"cupy", "cuda-quantum", "cudaq", "cuquantum", "custatevec",
                                           "cutensornet", "nvidia-", "pennylane-lightning-gpu", "qiskit-aer-gpu",
                                           "pycuda", NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (!strncmp(name, *p, strlen(*p)))
            return true;
    return false;
}

/* ---- requirements ------------------------------------------------------ */

/* "git+ssh://user:***@host/x" — never a credential in a note or in JSON. */
static char *redacted_url(const char *url)
{
    const char *p = strstr(url, "://");
    if (!p)
        return byoc_xstrdup(url);
    const char *host = p + 3, *at = strchr(host, '@'), *slash = strchr(host, '/');
    if (!at || (slash && slash < at) || !memchr(host, ':', (size_t)(at - host)))
        return byoc_xstrdup(url); /* no password: "git@host" is only a user name */
    const char *colon = memchr(host, ':', (size_t)(at - host));
    return byoc_xasprintf("%.*s:***@%s", (int)(colon - url), url, at + 1);
}

static void take_requirements(scan_ctx *c, const char *rel, const byoc_requirements *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const byoc_requirement *it = &r->items[i];
        if (it->private_source) {
            char *u = redacted_url(it->url ? it->url : it->text);
            byoc_strv_pushf(&c->s->private_deps, "%s:%d: %s (%s)", rel, it->line, u, it->why_private);
            free(u);
        }
        if (it->has_credentials)
            byoc_strv_pushf(&c->s->secrets, "%s:%d: credentials in a URL", rel, it->line);
        if (it->kind > BYOC_REQ_PATH)
            continue;
        char *name = it->name ? byoc_xstrdup(it->name)
                              : byoc_xasprintf("%s", it->url ? it->url : it->text);
        if (it->name && cuda_package(it->name))
            set_cuda(c, rel, it->line);
        if (it->kind == BYOC_REQ_PACKAGE && it->text && strstr(it->text, "[gpu]"))
            set_cuda(c, rel, it->line);
        if (!byoc_strv_contains(&c->seen_names, name)) {
            byoc_strv_push(&c->seen_names, name);
            c->s->n_packages++;
            if (!(it->name && byoc_prebuilt_has_package(it->name))) {
                char *shown = it->name ? byoc_xstrdup(name) : redacted_url(name);
                byoc_strv_push_owned(&c->s->missing, shown);
            }
        }
        free(name);
    }
}

static void read_requirements_file(scan_ctx *c, const char *rel, int nesting)
{
    if (byoc_strv_contains(&c->s->requirement_files, rel))
        return;
    size_t len;
    char *text = read_text(c, rel, &len);
    if (!text)
        return;
    byoc_strv_push(&c->s->requirement_files, rel);
    byoc_requirements r;
    byoc_requirements_parse(text, len, &r);
    free(text);
    take_requirements(c, rel, &r);
    for (size_t i = 0; i < r.n; i++) {
        if (r.items[i].kind != BYOC_REQ_INCLUDE || !r.items[i].url || !*r.items[i].url)
            continue;
        const char *inc = r.items[i].url;
        if (nesting >= SCAN_MAX_INCLUDES || inc[0] == '/' || strstr(inc, "..") || strstr(inc, "://")) {
            note(c, "%s:%d: -r %s not followed (outside the project or too deep)", rel, r.items[i].line, inc);
            continue;
        }
        const char *slash = strrchr(rel, '/');
        char *sub = slash ? byoc_xasprintf("%.*s/%s", (int)(slash - rel), rel, inc) : byoc_xstrdup(inc);
        char *abs = byoc_path_join(c->s->dir, sub);
        if (byoc_path_exists(abs))
            read_requirements_file(c, sub, nesting + 1);
        else
            note(c, "%s:%d: included file %s does not exist", rel, r.items[i].line, inc);
        free(abs);
        free(sub);
    }
    byoc_requirements_clear(&r);
}

/* pyproject.toml: [project] requires-python and dependencies; Poetry's python. */
typedef struct {
    char section[128];
    bool in_deps_array;
    byoc_requirements *deps;
} toml_state;

static char *toml_string_value(const char *s)
{
    s = skip_ws(s);
    if (*s != '"' && *s != '\'')
        return NULL;
    char q = *s++;
    const char *e = strchr(s, q);
    return e ? byoc_xstrndup(s, (size_t)(e - s)) : NULL;
}

static void pyproject_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    toml_state *t = ud;
    const char *s = skip_ws(line);
    if (*s == '#')
        return;
    if (t->in_deps_array) {
        /* strings in a multi-line array, until ']' */
        for (const char *p = s; *p;) {
            if (*p == '"' || *p == '\'') {
                char *v = toml_string_value(p);
                if (!v)
                    break;
                byoc_requirements_add_pep508(t->deps, v, no);
                p = strchr(p + 1, *p) + 1;
                free(v);
                continue;
            }
            if (*p == ']') {
                t->in_deps_array = false;
                break;
            }
            if (*p == '#')
                break;
            p++;
        }
        return;
    }
    if (*s == '[') {
        const char *e = strchr(s, ']');
        snprintf(t->section, sizeof t->section, "%.*s", e ? (int)(e - s - 1) : 0, s + 1);
        return;
    }
    if (!strcmp(t->section, "project")) {
        if (!strncmp(s, "requires-python", 15)) {
            const char *eq = strchr(s, '=');
            char *v = eq ? toml_string_value(eq + 1) : NULL;
            if (v)
                set_python(c, v, rel, no, 0);
            free(v);
        } else if (!strncmp(s, "dependencies", 12) && strchr(s, '[')) {
            t->in_deps_array = true;
            pyproject_line(c, rel, (char *)strchr(s, '[') + 1, no, ud);
        }
    } else if (!strcmp(t->section, "tool.poetry.dependencies")) {
        size_t n = strcspn(s, " =");
        if (n == 6 && !strncmp(s, "python", 6)) {
            const char *eq = strchr(s, '=');
            char *v = eq ? toml_string_value(eq + 1) : NULL;
            if (v)
                set_python(c, v, rel, no, 0);
            free(v);
        } else if (n > 0 && strchr(s, '=')) {
            char *name = byoc_xstrndup(s, n);
            byoc_requirements_add_pep508(t->deps, name, no);
            free(name);
        }
    }
}

static void read_pyproject(scan_ctx *c, const char *rel)
{
    size_t len;
    char *text = read_text(c, rel, &len);
    if (!text)
        return;
    toml_state t = {"", false, NULL};
    byoc_requirements deps = {NULL, 0};
    t.deps = &deps;
    each_line(c, rel, text, pyproject_line, &t);
    free(text);
    if (deps.n && !c->pyproject_deps_file) {
        c->pyproject_deps = deps;
        c->pyproject_deps_file = byoc_xstrdup(rel);
    } else {
        byoc_requirements_clear(&deps);
    }
}

static void setup_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *p = strstr(line, "python_requires");
    if (!p)
        return;
    const char *eq = strchr(p, '=');
    if (!eq)
        return;
    eq = skip_ws(eq + 1);
    char *v = (*eq == '"' || *eq == '\'') ? toml_string_value(eq) : byoc_xstrdup(eq);
    if (v)
        set_python(c, v, rel, no, 1);
    free(v);
}

static void pipfile_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (!strncmp(s, "python_version", 14) || !strncmp(s, "python_full_version", 19)) {
        const char *eq = strchr(s, '=');
        char *v = eq ? toml_string_value(eq + 1) : NULL;
        if (v)
            set_python(c, v, rel, no, 2);
        free(v);
    }
}

static void conda_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (*s != '-')
        return;
    s = skip_ws(s + 1);
    if (!strncmp(s, "python", 6) && (s[6] == '=' || s[6] == '<' || s[6] == '>' || s[6] == ' ')) {
        char *v = byoc_xstrdup(s + 6);
        v[strcspn(v, "#")] = '\0';
        set_python(c, v, rel, no, 4);
        free(v);
    }
}

static void gitmodules_line(scan_ctx *c, const char *rel, char *line, int no, void *ud)
{
    (void)ud;
    const char *s = skip_ws(line);
    if (strncmp(s, "url", 3) != 0)
        return;
    const char *eq = strchr(s, '=');
    if (!eq)
        return;
    const char *why;
    char *url = byoc_xstrdup(skip_ws(eq + 1));
    if (byoc_url_is_private(url, &why)) {
        char *u = redacted_url(url);
        byoc_strv_pushf(&c->s->private_deps, "%s:%d: submodule %s (%s)", rel, no, u, why);
        free(u);
    }
    free(url);
}

static void scan_dockerfile(scan_ctx *c, const char *rel)
{
    size_t len;
    char *text = read_text(c, rel, &len);
    if (!text)
        return;
    byoc_dockerfile df;
    byoc_dockerfile_parse(text, len, NULL, &df);
    free(text);
    c->s->dockerfile = byoc_xstrdup(rel);
    const byoc_df_stage *fin = byoc_df_final_stage(&df);
    if (fin) {
        const char *root = byoc_df_stage_root_image(&df, (int)df.n_stages - 1);
        if (root)
            c->s->dockerfile_base = byoc_xstrdup(root);
        byoc_arch a;
        if (fin->platform && byoc_arch_parse(fin->platform, &a) == 0) {
            char *ev = byoc_xasprintf("%s:%d: FROM --platform=%s", rel, fin->line, fin->platform);
            set_arch(c, byoc_arch_name(a), ev);
            free(ev);
        } else if (root && (strstr(root, "arm64v8/") || strstr(root, "aarch64") || strstr(root, "-arm64"))) {
            char *ev = byoc_xasprintf("%s:%d: FROM %s", rel, fin->line, root);
            set_arch(c, "arm64", ev);
            free(ev);
        }
        if (root && byoc_image_is_cuda(root)) {
            char *ev = byoc_xasprintf("%s:%d", rel, fin->line);
            set_cuda(c, ev, 0);
            free(ev);
        }
    }
    if (df.n_errors)
        note(c, "%s: %zu syntax problem%s (run byoc lint)", rel, df.n_errors, df.n_errors == 1 ? "" : "s");
    byoc_dockerfile_clear(&df);
}

static void scan_project_file(scan_ctx *c)
{
    byoc_project p;
    byoc_err err;
    bool found = false;
    if (byoc_project_load(&p, c->s->dir, &found, &err) != 0) {
        note(c, "%s: %s", err.what, err.message);
        return;
    }
    c->s->project_file = found;
    if (found && p.dockerfile && strcmp(p.dockerfile, "Dockerfile") && strcmp(p.dockerfile, "dockerfile")) {
        char *abs = byoc_path_join(c->s->dir, p.dockerfile);
        if (byoc_path_exists(abs)) /* the Dockerfile byoc.json names, wherever it is */
            scan_dockerfile(c, p.dockerfile);
        free(abs);
    }
    if (found && p.arch)
        set_arch(c, p.arch, BYOC_PROJECT_FILE ": arch");
    if (found && p.gpu)
        set_cuda(c, BYOC_PROJECT_FILE ": gpu", 0);
    byoc_project_clear(&p);
}

/* ---- the walk ---------------------------------------------------------- */

static void scan_source(scan_ctx *c, const char *rel, line_fn fn)
{
    size_t len;
    char *text = read_text(c, rel, &len);
    if (text) {
        each_line(c, rel, text, fn, NULL);
        free(text);
    }
}

static void visit_file(scan_ctx *c, const char *rel, const char *name, int depth)
{
    if (!strcmp(rel, "byoc/byoc_container.py"))
        return; /* byoc's own entry point, scaffolded by init: not the project's code */
    const char *ext = strrchr(name, '.');
    ext = ext ? ext : "";
    if (!strcmp(ext, ".py") || !strcmp(ext, ".pyx")) {
        add_language(c, "python", rel);
        scan_source(c, rel, python_line);
    } else if (!strcmp(ext, ".ipynb")) {
        add_language(c, "python", rel);
    } else if (!strcmp(name, "Cargo.toml")) {
        add_language(c, "rust", rel);
        scan_source(c, rel, cargo_line);
    } else if (!strcmp(ext, ".rs")) {
        add_language(c, "rust", rel);
    } else if (!strcmp(ext, ".jl")) {
        add_language(c, "julia", rel);
        scan_source(c, rel, julia_line);
    } else if (!strcmp(name, "Project.toml") || !strcmp(name, "JuliaProject.toml")) {
        add_language(c, "julia", rel);
        scan_source(c, rel, julia_line);
    } else if (!strcmp(name, "CMakeLists.txt")) {
        add_language(c, "cpp", rel);
        scan_source(c, rel, cmake_line);
    } else if (!strcmp(ext, ".cpp") || !strcmp(ext, ".cc") || !strcmp(ext, ".cxx") || !strcmp(ext, ".c++") ||
               !strcmp(ext, ".c") || !strcmp(ext, ".hpp") || !strcmp(ext, ".hxx") || !strcmp(ext, ".cu")) {
        add_language(c, "cpp", rel);
        if (!strcmp(ext, ".cu"))
            set_cuda(c, rel, 0);
        else
            scan_source(c, rel, cpp_line);
    } else if (!strcmp(ext, ".go") || !strcmp(name, "go.mod") || !strcmp(ext, ".f90") || !strcmp(ext, ".f95") ||
               !strcmp(ext, ".f") || !strcmp(ext, ".java") || !strcmp(ext, ".hs")) {
        add_language(c, "other", rel);
    }
    if (!strcmp(name, "requirements.txt")) {
        add_language(c, "python", rel);
        c->have_requirements_txt = true;
        read_requirements_file(c, rel, 0);
    } else if (!strcmp(name, "pyproject.toml")) {
        add_language(c, "python", rel);
        read_pyproject(c, rel);
    } else if (!strcmp(name, "setup.py") || !strcmp(name, "setup.cfg")) {
        scan_source(c, rel, setup_line);
    } else if (!strcmp(name, "Pipfile")) {
        scan_source(c, rel, pipfile_line);
    } else if (!strcmp(name, ".python-version") || !strcmp(name, "runtime.txt")) {
        size_t len;
        char *text = read_text(c, rel, &len);
        if (text) {
            text[strcspn(text, "\r\n")] = '\0';
            set_python(c, text, rel, 1, 3);
            free(text);
        }
    } else if (!strcmp(name, "environment.yml") || !strcmp(name, "environment.yaml")) {
        if (!c->s->conda) {
            c->s->conda = true;
            c->s->conda_evidence = byoc_xstrdup(rel);
        }
        scan_source(c, rel, conda_line);
    } else if (!strcmp(name, ".gitmodules") && depth == 0) {
        scan_source(c, rel, gitmodules_line);
    } else if (depth == 0 && !c->s->dockerfile && (!strcmp(name, "Dockerfile") || !strcmp(name, "dockerfile"))) {
        scan_dockerfile(c, rel);
    }
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool skipped_dir(const char *abs, const char *name)
{
    for (const char *const *d = skip_dirs; *d; d++)
        if (!strcmp(name, *d))
            return true;
    if (has_suffix(name, ".egg-info"))
        return true;
    char *cfg = byoc_path_join(abs, "pyvenv.cfg"); /* a virtualenv under any name */
    bool venv = byoc_path_exists(cfg);
    free(cfg);
    return venv;
}

static void walk(scan_ctx *c, const char *rel, int depth)
{
    if (depth > SCAN_MAX_DEPTH) {
        c->s->truncated = true;
        return;
    }
    char *abs = byoc_path_join(c->s->dir, rel);
    DIR *d = opendir(abs);
    if (!d) {
        note(c, "%s: cannot list (%s), skipped", *rel ? rel : ".", strerror(errno));
        free(abs);
        return;
    }
    byoc_strv names = BYOC_STRV_INIT;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            byoc_strv_push(&names, e->d_name);
    closedir(d);
    if (names.n > 1)
        qsort(names.v, names.n, sizeof *names.v, cmp_names);
    for (size_t i = 0; i < names.n; i++) {
        if (c->s->files_seen >= SCAN_MAX_FILES) {
            c->s->truncated = true;
            break;
        }
        char *child_rel = *rel ? byoc_xasprintf("%s/%s", rel, names.v[i]) : byoc_xstrdup(names.v[i]);
        char *child_abs = byoc_path_join(abs, names.v[i]);
        struct stat st;
        if (lstat(child_abs, &st) == 0) {
            if (S_ISDIR(st.st_mode)) {
                if (!skipped_dir(child_abs, names.v[i]))
                    walk(c, child_rel, depth + 1);
            } else if (S_ISREG(st.st_mode)) {
                c->s->files_seen++;
                visit_file(c, child_rel, names.v[i], depth);
            }
        }
        free(child_abs);
        free(child_rel);
    }
    byoc_strv_clear(&names);
    free(abs);
}

int byoc_scan_project(const char *dir, byoc_scan *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!byoc_path_is_dir(dir))
        return byoc_err_set(err, BYOC_E_USAGE, "--scan", "%s is not a directory", dir);
    out->dir = byoc_xstrdup(dir);
    scan_ctx c = {0};
    c.s = out;
    scan_project_file(&c);
    walk(&c, "", 0);
    if (!c.have_requirements_txt && c.pyproject_deps_file) {
        byoc_strv_push(&out->requirement_files, c.pyproject_deps_file);
        take_requirements(&c, c.pyproject_deps_file, &c.pyproject_deps);
    }
    byoc_requirements_clear(&c.pyproject_deps);
    free(c.pyproject_deps_file);
    byoc_strv_clear(&c.seen_names);
    return 0;
}

void byoc_scan_clear(byoc_scan *s)
{
    free(s->dir);
    byoc_strv_clear(&s->languages);
    byoc_strv_clear(&s->language_evidence);
    byoc_strv_clear(&s->requirement_files);
    byoc_strv_clear(&s->missing);
    byoc_strv_clear(&s->private_deps);
    byoc_strv_clear(&s->secrets);
    free(s->python_spec);
    free(s->python_evidence);
    free(s->cuda_evidence);
    free(s->arch);
    free(s->arch_evidence);
    free(s->conda_evidence);
    free(s->dockerfile);
    free(s->dockerfile_base);
    byoc_strv_clear(&s->notes);
    memset(s, 0, sizeof *s);
}

static void apply(byoc_answers *a, byoc_question_id q, const char *value, const char *evidence)
{
    if (a->a[q].source == BYOC_SRC_USER)
        return;
    byoc_err err;
    byoc_answer_set(a, byoc_questions()[q].key, value, BYOC_SRC_SCANNED, evidence, &err);
}

void byoc_scan_apply(const byoc_scan *s, byoc_answers *a)
{
    if (s->languages.n) {
        byoc_buf v = BYOC_BUF_INIT, ev = BYOC_BUF_INIT;
        for (size_t i = 0; i < s->languages.n; i++) {
            byoc_buf_printf(&v, "%s%s", i ? "," : "", s->languages.v[i]);
            byoc_buf_printf(&ev, "%s%s: %s", i ? "; " : "", s->languages.v[i], s->language_evidence.v[i]);
        }
        apply(a, BYOC_Q_LANGUAGES, byoc_buf_str(&v), byoc_buf_str(&ev));
        byoc_buf_clear(&v);
        byoc_buf_clear(&ev);
    }
    if (s->python_spec)
        apply(a, BYOC_Q_PYTHON_VERSION, s->python_spec, s->python_evidence);
    if (s->requirement_files.n) {
        char n[32];
        snprintf(n, sizeof n, "%zu", s->missing.n);
        char *ev = byoc_xasprintf("%s: %zu package%s, %zu not in the prebuilt image", s->requirement_files.v[0],
                                  s->n_packages, s->n_packages == 1 ? "" : "s", s->missing.n);
        apply(a, BYOC_Q_MISSING_PACKAGES, n, ev);
        free(ev);
    }
    if (s->private_deps.n)
        apply(a, BYOC_Q_PRIVATE_DEPS, "true", s->private_deps.v[0]);
    else if (s->requirement_files.n)
        apply(a, BYOC_Q_PRIVATE_DEPS, "false", "no private sources in the requirements");
    if (s->conda) {
        char *ev = byoc_xasprintf("%s: a conda environment (the prebuilt launcher installs only requirements.txt)",
                                  s->conda_evidence);
        apply(a, BYOC_Q_LARGE_STACK, "true", ev);
        free(ev);
    }
    if (s->arch)
        apply(a, BYOC_Q_ARCH, s->arch, s->arch_evidence);
    if (s->cuda)
        apply(a, BYOC_Q_GPU, "true", s->cuda_evidence);
}

static json_t *strv_json(const byoc_strv *v)
{
    json_t *a = json_array();
    for (size_t i = 0; i < v->n; i++)
        json_array_append_new(a, json_string(v->v[i]));
    return a;
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

json_t *byoc_scan_to_json(const byoc_scan *s)
{
    json_t *doc = json_object();
    json_t *langs = json_array();
    for (size_t i = 0; i < s->languages.n; i++)
        json_array_append_new(langs, json_pack("{s:s, s:s}", "language", s->languages.v[i], "evidence",
                                               s->language_evidence.v[i]));
    json_object_set_new(doc, "languages", langs);
    json_object_set_new(doc, "requirements",
                        json_pack("{s:o, s:I, s:o}", "files", strv_json(&s->requirement_files), "packages",
                                  (json_int_t)s->n_packages, "missing", strv_json(&s->missing)));
    json_object_set_new(doc, "python",
                        s->python_spec ? json_pack("{s:s, s:s}", "spec", s->python_spec, "evidence",
                                                   s->python_evidence)
                                       : json_null());
    json_object_set_new(doc, "private_deps", strv_json(&s->private_deps));
    json_object_set_new(doc, "secrets", strv_json(&s->secrets));
    json_object_set_new(doc, "cuda", json_boolean(s->cuda));
    json_object_set_new(doc, "cuda_evidence", str_or_null(s->cuda_evidence));
    json_object_set_new(doc, "arch", str_or_null(s->arch));
    json_object_set_new(doc, "arch_evidence", str_or_null(s->arch_evidence));
    json_object_set_new(doc, "conda", json_boolean(s->conda));
    json_object_set_new(doc, "dockerfile",
                        s->dockerfile ? json_pack("{s:s, s:o, s:b}", "path", s->dockerfile, "base",
                                                  str_or_null(s->dockerfile_base), "extends_prebuilt",
                                                  byoc_image_is_prebuilt(s->dockerfile_base))
                                      : json_null());
    json_object_set_new(doc, "project_file", json_boolean(s->project_file));
    json_object_set_new(doc, "notes", strv_json(&s->notes));
    json_object_set_new(doc, "files_seen", json_integer((json_int_t)s->files_seen));
    json_object_set_new(doc, "truncated", json_boolean(s->truncated));
    return doc;
}

BYOC_TASK_FREE(scan_result_free, byoc_scan, byoc_scan_clear)

int byoc_scan_task(byoc_task *t, void *dir, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_task_status(t, "scanning %s", (const char *)dir);
    byoc_scan *s = byoc_xmalloc(sizeof *s);
    if (byoc_scan_project(dir, s, err) != 0) {
        free(s);
        return -1;
    }
    *result = s;
    *result_free = scan_result_free;
    return 0;
}
