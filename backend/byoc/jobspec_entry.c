/* The entry point by launcher: the stock Braket launcher's module rules (as the
 * SDK checks them), every kind byoc's launcher starts (assets/entrypoint/
 * byoc_container.py, plan()), and nothing but the API's String for an image
 * whose launcher byoc does not know. Form, CLI, review and preflight all come
 * here through byoc_jobspec_validate. */
#include "byoc/jobspec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/jobspec_files.h"
#include "core/buf.h"

char *byoc_job_entry_point(const byoc_jobspec *s)
{
    if (s->entry_point)
        return byoc_xstrdup(s->entry_point);
    if (!s->source_module)
        return byoc_xstrdup("");
    /* Path(source_module).resolve(strict=True).stem */
    char *real = realpath(s->source_module, NULL);
    char *name = byoc_job_path_name(real ? real : s->source_module);
    char *stem = byoc_job_path_stem(name);
    free(name);
    free(real);
    return stem;
}

const char *byoc_job_launcher_name(byoc_job_launcher l)
{
    switch (l) {
    case BYOC_LAUNCHER_BRAKET: return "the Braket launcher";
    case BYOC_LAUNCHER_BYOC: return "byoc's launcher";
    default: return "an unknown launcher";
    }
}

/* The SDK's base image and Braket's prebuilt images: <account>.dkr.ecr.<region>.amazonaws.com/amazon-braket-<x>-jobs[:tag]. */
static bool braket_prebuilt(const char *uri)
{
    const char *slash = strchr(uri, '/');
    if (!slash || strncmp(uri, "292282985366.dkr.ecr.", 21) != 0)
        return false;
    const char *repo = slash + 1;
    size_t n = strcspn(repo, ":@");
    return strncmp(repo, "amazon-braket-", 14) == 0 && n > 19 && strncmp(repo + n - 5, "-jobs", 5) == 0;
}

byoc_job_launcher byoc_job_launcher_for(const char *image_uri, const byoc_project *p)
{
    const char *recipe = p ? p->recipe : NULL;
    bool custom = recipe && strcmp(recipe, "custom-base") == 0;
    if (!image_uri || !*image_uri) {
        /* No image given: the one used is the project's last push (run's default), and a
         * custom-base project's job is meant for the project's own image even before it is
         * pushed; only with neither does the job run on the Braket base image. */
        image_uri = byoc_project_pushed_image(p);
        if (!image_uri)
            return custom ? BYOC_LAUNCHER_BYOC : BYOC_LAUNCHER_BRAKET;
    }
    if (braket_prebuilt(image_uri))
        return BYOC_LAUNCHER_BRAKET;
    if (custom)
        return BYOC_LAUNCHER_BYOC;
    if (recipe && (strcmp(recipe, "extend-prebuilt") == 0 || strcmp(recipe, "prebuilt") == 0))
        return BYOC_LAUNCHER_BRAKET;
    return BYOC_LAUNCHER_UNKNOWN;
}

byoc_job_launcher byoc_job_launcher_in(const char *image_uri, const char *project_dir)
{
    if (image_uri && braket_prebuilt(image_uri))
        return BYOC_LAUNCHER_BRAKET;
    byoc_project p;
    bool found = false;
    byoc_err err;
    byoc_err_clear(&err);
    if (!project_dir || byoc_project_load(&p, project_dir, &found, &err) != 0)
        return byoc_job_launcher_for(image_uri, NULL);
    byoc_job_launcher l = byoc_job_launcher_for(image_uri, found ? &p : NULL);
    byoc_project_clear(&p);
    return l;
}

/* ---- the stock launcher: MOD[:FUNC] --------------------------------------------- */

static bool is_identifier(const char *s)
{
    if (!*s || isdigit((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || (unsigned char)*s >= 0x80))
            return false;
    return true;
}

/* The shape of MOD[:FUNC]: dotted non-empty module segments, an identifier after ':'. */
static bool entry_point_shape(const char *ep, char *why, size_t why_size)
{
    const char *colon = strchr(ep, ':');
    size_t mod_len = colon ? (size_t)(colon - ep) : strlen(ep);
    if (mod_len == 0) {
        snprintf(why, why_size, "the module part before ':' is empty");
        return false;
    }
    if (ep[0] == '.') {
        snprintf(why, why_size, "relative module paths (leading '.') cannot be imported by the job container");
        return false;
    }
    for (size_t i = 0; i < mod_len; i++) {
        if (ep[i] == '.' && (i + 1 == mod_len || ep[i + 1] == '.')) {
            snprintf(why, why_size, "the module path has an empty segment");
            return false;
        }
        if (ep[i] == '/' || ep[i] == '\\' || isspace((unsigned char)ep[i]) || (unsigned char)ep[i] < 0x20) {
            snprintf(why, why_size, "a module path is dotted (pkg.module), not a file path");
            return false;
        }
    }
    if (colon && (strchr(colon + 1, ':') || !is_identifier(colon + 1))) {
        snprintf(why, why_size, "the part after ':' must be a function name (a Python identifier)");
        return false;
    }
    return true;
}

int byoc_job_resolve_entry_point(const char *source_module, const char *entry_point, char **resolved, char *why,
                                 size_t why_size)
{
    *resolved = NULL;
    if (!entry_point_shape(entry_point, why, why_size))
        return -1;
    char *src = realpath(source_module, NULL);
    if (!src) {
        snprintf(why, why_size, "the source module %s cannot be found: %s", source_module, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(src, &st) != 0) {
        snprintf(why, why_size, "the source module %s cannot be read: %s", source_module, strerror(errno));
        free(src);
        return -1;
    }
    const char *colon = strchr(entry_point, ':');
    char *mod = byoc_xstrndup(entry_point, colon ? (size_t)(colon - entry_point) : strlen(entry_point));
    const char *name = strrchr(src, '/') + 1;
    size_t seg0 = strcspn(mod, ".");
    int rc = -1;
    if (S_ISREG(st.st_mode)) {
        /* The archive holds the one file at its root: only its own module is importable. */
        size_t nl = strlen(name);
        if (mod[seg0] == '\0' && nl == seg0 + 3 && strncmp(name, mod, seg0) == 0 && strcmp(name + seg0, ".py") == 0) {
            *resolved = byoc_xstrdup(src);
            rc = 0;
        } else if (nl < 4 || strcmp(name + nl - 3, ".py") != 0) {
            snprintf(why, why_size, "module '%s' is not in the source module: %s is not a .py file", mod, name);
        } else {
            snprintf(why, why_size, "module '%s' is not in the source module: the archive holds only %s (module '%.*s')",
                     mod, name, (int)(nl - 3), name);
        }
    } else if (S_ISDIR(st.st_mode)) {
        if (strlen(name) != seg0 || strncmp(name, mod, seg0) != 0) {
            snprintf(why, why_size, "module '%s' is not in the source module: its first part must be the directory name '%s'",
                     mod, name);
        } else {
            byoc_buf path = BYOC_BUF_INIT;
            byoc_buf_puts(&path, src);
            rc = 0;
            for (const char *seg = mod + seg0; *seg == '.' && rc == 0;) {
                seg++;
                size_t sl = strcspn(seg, ".");
                bool last = seg[sl] == '\0';
                size_t keep = path.len;
                byoc_buf_printf(&path, "/%.*s", (int)sl, seg);
                struct stat s2;
                bool is_dir = stat(path.data, &s2) == 0 && S_ISDIR(s2.st_mode);
                if (!is_dir && last) {
                    byoc_buf_puts(&path, ".py");
                    if (stat(path.data, &s2) != 0 || !S_ISREG(s2.st_mode)) {
                        path.len = keep;
                        path.data[keep] = '\0';
                        snprintf(why, why_size, "module '%s' is not in the source module: no %.*s.py or %.*s/ in %s",
                                 mod, (int)sl, seg, (int)sl, seg, path.data);
                        rc = -1;
                    }
                } else if (!is_dir) {
                    path.data[keep] = '\0';
                    snprintf(why, why_size, "module '%s' is not in the source module: no package %.*s/ in %s", mod,
                             (int)sl, seg, path.data);
                    rc = -1;
                }
                seg += sl;
            }
            if (rc == 0)
                *resolved = byoc_buf_steal(&path);
            byoc_buf_clear(&path);
        }
    } else {
        snprintf(why, why_size, "the source module %s is neither a file nor a directory", source_module);
    }
    free(mod);
    free(src);
    return rc;
}

/* ---- byoc's launcher -------------------------------------------------------------- */

/* byoc_container.py takes a name that is no file in the source as a Python module when it matches this. */
static bool python_module_name(const char *entry)
{
    static const char *re = "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*(:[A-Za-z_][A-Za-z0-9_.]*)?$";
    regex_t rx;
    if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    bool ok = regexec(&rx, entry, 0, NULL, 0) == 0;
    regfree(&rx);
    return ok;
}

/* The kind byoc_container.py's plan() gives a file, or NULL when it refuses it. */
static const char *file_kind(const char *path, const char *base, bool executable)
{
    const char *dot = strrchr(base, '.');
    const char *ext = dot && dot != base ? dot : "";
    if (strcmp(base, "Cargo.toml") == 0)
        return "Cargo project";
    if (strcmp(base, "CMakeLists.txt") == 0)
        return "CMake project";
    static const char *const cpp[] = {".cpp", ".cc", ".cxx", ".c++"};
    for (size_t i = 0; i < sizeof cpp / sizeof *cpp; i++)
        if (strcasecmp(ext, cpp[i]) == 0)
            return "C++ source";
    if (strcasecmp(ext, ".rs") == 0)
        return "Rust source";
    if (strcasecmp(ext, ".py") == 0)
        return "Python script";
    if (strcasecmp(ext, ".jl") == 0)
        return "Julia script";
    if (strcasecmp(ext, ".sh") == 0)
        return "shell script";
    (void)path;
    return executable ? "executable" : NULL;
}

/* The archive holds a directory source under its own name and a file source
 * at its root; byoc's launcher resolves relative entry points there. The
 * local path of `rel` inside the source, or NULL when it leaves it. */
static char *local_in_source(const char *src_real, bool src_is_dir, const char *rel)
{
    char *parent = byoc_xstrdup(src_real);
    char *slash = strrchr(parent, '/');
    if (slash)
        *(slash == parent ? slash + 1 : slash) = '\0';
    char *joined = byoc_xasprintf("%s/%s", parent, rel);
    free(parent);
    char *real = realpath(joined, NULL);
    free(joined);
    if (!real)
        return NULL;
    size_t n = strlen(src_real);
    bool inside = strcmp(real, src_real) == 0 || (src_is_dir && strncmp(real, src_real, n) == 0 && real[n] == '/');
    if (!inside) {
        free(real);
        return NULL;
    }
    return real;
}

static int byoc_entry(const char *source_module, const char *entry, byoc_entry_point_check *out, char *why,
                      size_t why_size)
{
    if (!*entry) {
        snprintf(why, why_size, "is empty");
        return -1;
    }
    for (const char *p = entry; *p; p++)
        if ((unsigned char)*p < 0x20) {
            snprintf(why, why_size, "has a control character");
            return -1;
        }
    char *src = source_module ? realpath(source_module, NULL) : NULL;
    if (!src) {
        /* The source is in S3 or not looked at: only the form is known. */
        out->kind = python_module_name(entry) ? "Python module" : entry[0] == '/' ? "path in the image" : "file";
        return 0;
    }
    struct stat st;
    bool src_is_dir = stat(src, &st) == 0 && S_ISDIR(st.st_mode);
    char *candidate = byoc_xstrdup(entry);
    const char *target = NULL;
    char *colon = strrchr(candidate, ':');
    char *path = NULL;
    if (colon) {
        *colon = '\0';
        char *head = candidate[0] == '/' ? NULL : local_in_source(src, src_is_dir, candidate);
        if (head || candidate[0] == '/')
            target = colon + 1;
        else
            *colon = ':';
        path = head;
    }
    int rc = 0;
    if (candidate[0] == '/') {
        /* byoc's launcher also runs an absolute path of the image: preflight looks for it there. */
        out->kind = "path in the image";
        snprintf(out->note, sizeof out->note, "%s is a path in the image, not in the source module", candidate);
    } else {
        if (!path)
            path = local_in_source(src, src_is_dir, candidate);
        if (!path) {
            if (python_module_name(entry)) {
                free(candidate);
                free(src);
                char *resolved = NULL;
                out->kind = "Python module";
                if (byoc_job_resolve_entry_point(source_module, entry, &resolved, why, why_size) != 0)
                    return -1;
                out->path = resolved;
                return 0;
            }
            const char *name = strrchr(src, '/') + 1;
            snprintf(why, why_size,
                     "%s is not in the source module (the archive's root holds %s%s)",
                     candidate, name, src_is_dir ? "/" : "");
            rc = -1;
        }
    }
    if (rc == 0 && path) {
        struct stat ps;
        if (stat(path, &ps) == 0 && S_ISDIR(ps.st_mode)) {
            char *manifest = NULL;
            static const char *const markers[] = {"Cargo.toml", "CMakeLists.txt"};
            for (size_t i = 0; i < 2 && !manifest; i++) {
                char *m = byoc_xasprintf("%s/%s", path, markers[i]);
                if (access(m, F_OK) == 0)
                    manifest = m;
                else
                    free(m);
            }
            if (!manifest) {
                snprintf(why, why_size, "%s is a directory without Cargo.toml or CMakeLists.txt", candidate);
                rc = -1;
            } else {
                free(path);
                path = manifest;
            }
        }
    }
    if (rc == 0 && path) {
        struct stat ps;
        const char *base = strrchr(path, '/') + 1;
        bool exec = stat(path, &ps) == 0 && S_ISREG(ps.st_mode) && (ps.st_mode & 0111);
        out->kind = file_kind(path, base, exec);
        if (!out->kind) {
            snprintf(why, why_size,
                     "%s is no .py, .jl, .sh, .cpp, .rs, Cargo.toml or CMakeLists.txt, and not executable",
                     candidate);
            rc = -1;
        } else if (target && strcmp(base, "CMakeLists.txt") != 0) {
            snprintf(why, why_size, "':%s' names a CMake target: it follows only a CMakeLists.txt", target);
            rc = -1;
        }
    }
    if (rc == 0)
        out->path = path;
    else
        free(path);
    free(candidate);
    free(src);
    return rc;
}

int byoc_job_check_entry_point(byoc_job_launcher l, const char *source_module, const char *entry,
                               byoc_entry_point_check *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (l == BYOC_LAUNCHER_BYOC)
        return byoc_entry(source_module, entry, out, why, why_size);
    if (l == BYOC_LAUNCHER_UNKNOWN) {
        /* The API's scriptModeConfig.entryPoint is a String with no pattern: the image's launcher decides. */
        out->kind = "as given";
        snprintf(out->note, sizeof out->note,
                 "the image's launcher is not known to byoc (no byoc.json recipe): the entry point is sent as it "
                 "is, and only the launcher can say whether it starts");
        return 0;
    }
    out->kind = "Python module";
    if (!source_module)
        return entry_point_shape(entry, why, why_size) ? 0 : -1;
    return byoc_job_resolve_entry_point(source_module, entry, &out->path, why, why_size);
}

void byoc_entry_point_check_clear(byoc_entry_point_check *c)
{
    free(c->path);
    c->path = NULL;
}
