#include "byoc/adopt.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/files.h"
#include "core/strv.h"

#define PY_READ_MAX (256u * 1024u)

static bool is_file(const char *dir, const char *rel)
{
    char *p = byoc_path_join(dir, rel);
    struct stat st;
    bool yes = lstat(p, &st) == 0 && S_ISREG(st.st_mode);
    free(p);
    return yes;
}

static bool is_dir(const char *dir, const char *rel)
{
    char *p = byoc_path_join(dir, rel);
    struct stat st;
    bool yes = lstat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return yes;
}

/* Directories byoc, builds and tools make: never the user's code. */
static bool skipped_dir(const char *name)
{
    static const char *const skip[] = {"byoc", "build", "target", "dist", "vendor", "node_modules", "venv",
                                       "__pycache__", "tests", "test", "docs", "doc", "examples", NULL};
    if (name[0] == '.')
        return true;
    for (const char *const *s = skip; *s; s++)
        if (!strcmp(name, *s))
            return true;
    return false;
}

/* The subdirectories (sorted, real directories only) of dir/rel. */
static void subdirs(const char *dir, const char *rel, byoc_strv *out)
{
    char *abs = *rel ? byoc_path_join(dir, rel) : byoc_xstrdup(dir);
    DIR *d = opendir(abs);
    if (d) {
        struct dirent *e;
        for (int n = 0; (e = readdir(d)) && n < 4096; n++) {
            if (skipped_dir(e->d_name))
                continue;
            char *r = *rel ? byoc_xasprintf("%s/%s", rel, e->d_name) : byoc_xstrdup(e->d_name);
            if (is_dir(dir, r))
                byoc_strv_push(out, r);
            free(r);
        }
        closedir(d);
    }
    byoc_strv_sort(out);
    free(abs);
}

/* Files of dir/rel ending in ext, sorted. */
static void files_with(const char *dir, const char *rel, const char *ext, byoc_strv *out)
{
    char *abs = *rel ? byoc_path_join(dir, rel) : byoc_xstrdup(dir);
    DIR *d = opendir(abs);
    size_t el = strlen(ext);
    if (d) {
        struct dirent *e;
        for (int n = 0; (e = readdir(d)) && n < 4096; n++) {
            size_t nl = strlen(e->d_name);
            if (e->d_name[0] == '.' || nl <= el || strcmp(e->d_name + nl - el, ext))
                continue;
            char *r = *rel ? byoc_xasprintf("%s/%s", rel, e->d_name) : byoc_xstrdup(e->d_name);
            if (is_file(dir, r))
                byoc_strv_push(out, r);
            free(r);
        }
        closedir(d);
    }
    byoc_strv_sort(out);
    free(abs);
}

/* The name the source module has in the job's archive: the directory's own name. */
static char *module_name(const char *dir, const char *rel)
{
    char *abs = strcmp(rel, ".") ? byoc_path_join(dir, rel) : byoc_xstrdup(dir);
    char *real = realpath(abs, NULL);
    char *name = byoc_xstrdup(byoc_path_base(real ? real : abs));
    free(real);
    free(abs);
    return name;
}

/* The directory ("" = top) holding `manifest`: the top, else the first subdirectory. */
static char *find_manifest_dir(const char *dir, const char *manifest)
{
    if (is_file(dir, manifest))
        return byoc_xstrdup("");
    byoc_strv subs = BYOC_STRV_INIT;
    subdirs(dir, "", &subs);
    char *found = NULL;
    for (size_t i = 0; i < subs.n && !found; i++) {
        char *r = byoc_xasprintf("%s/%s", subs.v[i], manifest);
        if (is_file(dir, r))
            found = byoc_xstrdup(subs.v[i]);
        free(r);
    }
    byoc_strv_clear(&subs);
    return found;
}

static char *rel_in(const char *where, const char *file)
{
    return *where ? byoc_xasprintf("%s/%s", where, file) : byoc_xstrdup(file);
}

/* source module and the launcher's path prefix for a manifest in `where`. */
static void set_module(const char *dir, const char *where, const char *entry_file, byoc_adopt *a)
{
    a->source_module = byoc_xstrdup(*where ? where : ".");
    char *name = module_name(dir, a->source_module);
    a->entry_point = byoc_xasprintf("%s/%s", name, entry_file);
    free(name);
}

static void adopt_manifest(const char *dir, const char *manifest, byoc_adopt *a)
{
    char *where = find_manifest_dir(dir, manifest);
    if (!where)
        return;
    a->found = true;
    a->manifest = rel_in(where, manifest);
    set_module(dir, where, manifest, a);
    if (!strcmp(manifest, "Cargo.toml")) {
        a->cargo_toml = byoc_xstrdup(a->manifest);
        char *lock = rel_in(where, "Cargo.lock");
        if (is_file(dir, lock))
            a->cargo_lock = lock;
        else
            free(lock);
    }
    free(where);
}

static void adopt_julia(const char *dir, byoc_adopt *a)
{
    char *where = find_manifest_dir(dir, "Project.toml");
    if (!where)
        return;
    static const char *const mains[] = {"main.jl", "src/main.jl", "run.jl", "algo.jl", NULL};
    char *program = NULL;
    for (const char *const *m = mains; *m && !program; m++) {
        char *r = rel_in(where, *m);
        if (is_file(dir, r))
            program = byoc_xstrdup(*m);
        free(r);
    }
    if (!program) {
        byoc_strv jl = BYOC_STRV_INIT;
        files_with(dir, where, ".jl", &jl);
        if (jl.n)
            program = byoc_xstrdup(byoc_path_base(jl.v[0]));
        byoc_strv_clear(&jl);
    }
    if (program) {
        a->found = true;
        a->manifest = rel_in(where, "Project.toml");
        a->julia_project = byoc_xstrdup(a->manifest);
        /* Pkg prefers JuliaManifest.toml to Manifest.toml when both are there */
        static const char *const manifests[] = {"JuliaManifest.toml", "Manifest.toml", NULL};
        for (const char *const *m = manifests; *m && !a->julia_manifest; m++) {
            char *r = rel_in(where, *m);
            if (is_file(dir, r))
                a->julia_manifest = r;
            else
                free(r);
        }
        set_module(dir, where, program, a);
        free(program);
    }
    free(where);
}

static bool py_identifier(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

static bool defines_main(const char *dir, const char *rel)
{
    char *p = byoc_path_join(dir, rel), *text = NULL;
    size_t len = 0;
    byoc_err e;
    bool yes = false;
    if (byoc_file_read(p, PY_READ_MAX, &text, &len, NULL, &e) == 0)
        yes = !strncmp(text, "def main(", 9) || strstr(text, "\ndef main(");
    free(text);
    free(p);
    return yes;
}

/* The module of a package (or a directory of scripts) that starts the program. */
static char *python_main(const char *dir, const char *where)
{
    static const char *const mains[] = {"__main__", "main", "algo", "train", "run", "app", NULL};
    for (const char *const *m = mains; *m; m++) {
        char *f = byoc_xasprintf("%s.py", *m);
        char *r = rel_in(where, f);
        bool yes = is_file(dir, r);
        free(r);
        free(f);
        if (yes)
            return byoc_xstrdup(*m);
    }
    byoc_strv py = BYOC_STRV_INIT;
    files_with(dir, where, ".py", &py);
    char *found = NULL;
    for (size_t i = 0; i < py.n && !found; i++) {
        const char *b = byoc_path_base(py.v[i]);
        if (strcmp(b, "__init__.py") && strcmp(b, "setup.py") && strncmp(b, "test_", 5) &&
            py_identifier(b, strlen(b) - 3))
            found = byoc_xstrndup(b, strlen(b) - 3);
    }
    byoc_strv_clear(&py);
    return found;
}

static char *python_entry(const char *dir, const char *where, const char *module_path, const char *mod)
{
    char *file = byoc_xasprintf("%s.py", mod);
    char *rel = rel_in(where, file);
    bool fn = defines_main(dir, rel);
    free(rel);
    free(file);
    return byoc_xasprintf("%s%s%s%s", module_path, *module_path ? "." : "", mod, fn ? ":main" : "");
}

/* A package (a directory with __init__.py) at the top or under src/. */
static char *python_package(const char *dir)
{
    static const char *const roots[] = {"", "src", NULL};
    for (const char *const *root = roots; *root; root++) {
        byoc_strv subs = BYOC_STRV_INIT;
        subdirs(dir, *root, &subs);
        char *found = NULL;
        for (size_t i = 0; i < subs.n && !found; i++) {
            const char *b = byoc_path_base(subs.v[i]);
            char *init = byoc_xasprintf("%s/__init__.py", subs.v[i]);
            if (strcmp(b, "src") && py_identifier(b, strlen(b)) && is_file(dir, init))
                found = byoc_xstrdup(subs.v[i]);
            free(init);
        }
        byoc_strv_clear(&subs);
        if (found)
            return found;
    }
    return NULL;
}

static void adopt_python(const char *dir, byoc_adopt *a)
{
    if (is_file(dir, "requirements.txt"))
        a->requirements = byoc_xstrdup("requirements.txt");
    if (is_file(dir, "pyproject.toml"))
        a->pyproject = byoc_xstrdup("pyproject.toml");
    char *pkg = python_package(dir);
    if (pkg) {
        char *mod = python_main(dir, pkg);
        const char *name = byoc_path_base(pkg);
        a->found = true;
        a->source_module = byoc_xstrdup(pkg);
        a->manifest = byoc_xasprintf("%s/__init__.py", pkg);
        a->entry_point = mod ? python_entry(dir, pkg, name, mod) : byoc_xstrdup(name);
        free(mod);
        free(pkg);
        return;
    }
    char *mod = python_main(dir, "");
    if (!mod)
        return;
    a->found = true;
    a->manifest = byoc_xasprintf("%s.py", mod);
    char *name = module_name(dir, ".");
    if (py_identifier(name, strlen(name))) { /* the directory is importable under its own name */
        a->source_module = byoc_xstrdup(".");
        a->entry_point = python_entry(dir, "", name, mod);
    } else {                                 /* else the script alone is the source module */
        a->source_module = byoc_xasprintf("%s.py", mod);
        a->entry_point = python_entry(dir, "", "", mod);
    }
    free(name);
    free(mod);
}

void byoc_adopt_find(const char *dir, byoc_language l, byoc_adopt *out)
{
    memset(out, 0, sizeof *out);
    switch (l) {
    case BYOC_LANG_CPP: adopt_manifest(dir, "CMakeLists.txt", out); break;
    case BYOC_LANG_RUST: adopt_manifest(dir, "Cargo.toml", out); break;
    case BYOC_LANG_JULIA: adopt_julia(dir, out); break;
    default: adopt_python(dir, out); break;
    }
}

void byoc_adopt_clear(byoc_adopt *a)
{
    free(a->source_module);
    free(a->entry_point);
    free(a->manifest);
    free(a->requirements);
    free(a->pyproject);
    free(a->cargo_toml);
    free(a->cargo_lock);
    free(a->julia_project);
    free(a->julia_manifest);
    memset(a, 0, sizeof *a);
}
