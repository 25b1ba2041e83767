#include "byoc/lint_context.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "byoc/tokens.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/str.h"
#include "core/strv.h"
#include "docker/context.h"

#define SCAN_FILE_MAX (256u * 1024u)          /* files larger than this are not read for tokens */
#define SCAN_BUDGET (32u * 1024u * 1024u)     /* bytes read for tokens over the whole context */
#define BIG_FILE (100ull * 1024u * 1024u)
#define BIG_CONTEXT (1024ull * 1024u * 1024u)
#define LARGE_CONTEXT (200ull * 1024u * 1024u)
#define MAX_REPORTS 50                        /* findings per rule */

typedef struct {
    const char *root;
    const char *prefix;
    byoc_lint_result *out;
    byoc_strv secret_dirs;      /* reported directories: their children are not reported again */
    byoc_strv heavy_dirs;       /* .git, node_modules, ... that are sent */
    uint64_t *heavy_bytes;
    uint64_t total;
    uint64_t budget;
    int secrets, bigs;
} ctx_walk;

static const char *const heavy[] = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__",
                                    ".tox", ".mypy_cache", ".pytest_cache", "target", ".ipynb_checkpoints", NULL};

static bool under(const char *rel, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(rel, dir, n) == 0 && rel[n] == '/';
}

static int line_of(const char *data, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += data[i] == '\n';
    return line;
}

static void check_content(ctx_walk *w, const char *rel, const struct stat *st)
{
    if ((uint64_t)st->st_size > SCAN_FILE_MAX || w->budget < (uint64_t)st->st_size)
        return;
    char *path = byoc_path_join(w->root, rel);
    char *data = NULL;
    size_t len = 0;
    byoc_err err;
    if (byoc_file_read(path, SCAN_FILE_MAX, &data, &len, NULL, &err) != 0) {
        free(path);
        return;
    }
    free(path);
    w->budget -= len;
    size_t off;
    const char *what = byoc_text_is_binary(data, len) ? NULL : byoc_token_find(data, len, &off);
    if (what && w->secrets++ < MAX_REPORTS) {
        char *file = byoc_xasprintf("%s%s", w->prefix, rel);
        byoc_lint_add(w->out, BYOC_LINT_ERROR, "context-secret", file, line_of(data, off),
                      "%s in the build context: it is sent to the builder and may end up in the image; move it out "
                      "or add it to .dockerignore",
                      what);
        free(file);
    }
    free(data);
}

static int visit(const char *rel, const struct stat *st, void *ud)
{
    ctx_walk *w = ud;
    for (size_t i = 0; i < w->heavy_dirs.n; i++)
        if (under(rel, w->heavy_dirs.v[i]) && S_ISREG(st->st_mode))
            w->heavy_bytes[i] += (uint64_t)st->st_size;
    if (S_ISREG(st->st_mode))
        w->total += (uint64_t)st->st_size;
    const char *base = byoc_path_base(rel);
    if (S_ISDIR(st->st_mode)) {
        for (const char *const *h = heavy; *h; h++)
            if (!strcmp(base, *h)) {
                byoc_strv_push(&w->heavy_dirs, rel);
                w->heavy_bytes = byoc_xrealloc(w->heavy_bytes, w->heavy_dirs.n * sizeof *w->heavy_bytes);
                w->heavy_bytes[w->heavy_dirs.n - 1] = 0;
            }
    }
    for (size_t i = 0; i < w->secret_dirs.n; i++)
        if (under(rel, w->secret_dirs.v[i]))
            return 0;
    const char *what = byoc_secret_path(rel);
    if (S_ISDIR(st->st_mode)) {
        if (what && w->secrets++ < MAX_REPORTS) {
            byoc_strv_push(&w->secret_dirs, rel);
            char *file = byoc_xasprintf("%s%s/", w->prefix, rel);
            byoc_lint_add(w->out, BYOC_LINT_ERROR, "context-secret", file, 0,
                          "%s in the build context: add it to .dockerignore; for private repositories use SSH "
                          "forwarding or byoc's vendoring (ssh-agent), never keys in the image",
                          what);
            free(file);
        }
        return 0;
    }
    if (!S_ISREG(st->st_mode))
        return 0;
    if ((uint64_t)st->st_size >= BIG_FILE && w->bigs++ < MAX_REPORTS) {
        char *file = byoc_xasprintf("%s%s", w->prefix, rel);
        char h[32];
        byoc_fmt_bytes((int64_t)st->st_size, h, sizeof h);
        byoc_lint_add(w->out, BYOC_LINT_WARNING, "context-size", file, 0,
                      "a %s file in the build context: every build sends it; add it to .dockerignore unless the "
                      "image needs it",
                      h);
        free(file);
    }
    bool needs_content = what && (!strcmp(what, "a PEM key or certificate") || !strcmp(what, "a key file"));
    if (what && !needs_content) {
        if (w->secrets++ < MAX_REPORTS) {
            char *file = byoc_xasprintf("%s%s", w->prefix, rel);
            byoc_lint_add(w->out, BYOC_LINT_ERROR, "context-secret", file, 0,
                          "%s in the build context: add it to .dockerignore (never ship credentials in an image)",
                          what);
            free(file);
        }
        return 0;
    }
    check_content(w, rel, st);
    return 0;
}

void byoc_lint_context(const char *context_dir, const char *dockerfile, const char *prefix, byoc_lint_result *out)
{
    byoc_context *c = NULL;
    byoc_err err;
    if (byoc_context_open(context_dir, dockerfile, &c, &err) != 0) {
        byoc_lint_add(out, BYOC_LINT_WARNING, "context-size", prefix && *prefix ? prefix : ".", 0,
                      "the build context was not checked: %s", err.message);
        return;
    }
    ctx_walk w = {0};
    w.root = byoc_context_root(c);
    w.prefix = prefix ? prefix : "";
    w.out = out;
    w.budget = SCAN_BUDGET;
    if (byoc_context_walk(c, visit, &w, &err) < 0)
        byoc_lint_add(out, BYOC_LINT_WARNING, "context-size", *w.prefix ? w.prefix : ".", 0,
                      "the build context could not be read completely: %s", err.message);
    for (size_t i = 0; i < w.heavy_dirs.n; i++) {
        bool nested = false;
        for (size_t k = 0; k < i && !nested; k++)
            nested = under(w.heavy_dirs.v[i], w.heavy_dirs.v[k]);
        if (nested)
            continue;
        char *file = byoc_xasprintf("%s%s/", w.prefix, w.heavy_dirs.v[i]);
        char h[32];
        byoc_fmt_bytes((int64_t)w.heavy_bytes[i], h, sizeof h);
        byoc_lint_add(out, BYOC_LINT_WARNING, "context-size", file, 0,
                      "%s (%s) is in the build context but a job image does not need it: add %s/ to .dockerignore",
                      w.heavy_dirs.v[i], h, byoc_path_base(w.heavy_dirs.v[i]));
        free(file);
    }
    if (w.total >= LARGE_CONTEXT) {
        char h[32];
        byoc_fmt_bytes((int64_t)w.total, h, sizeof h);
        byoc_lint_add(out, w.total >= BIG_CONTEXT ? BYOC_LINT_WARNING : BYOC_LINT_INFO, "context-size",
                      *w.prefix ? w.prefix : ".", 0,
                      "the build context is %s: every build sends all of it; exclude what the image does not need "
                      "in .dockerignore",
                      h);
    }
    if (byoc_ignore_count(byoc_context_ignore(c)) == 0) {
        char *p = byoc_path_join(w.root, ".dockerignore");
        if (!byoc_path_exists(p))
            byoc_lint_add(out, BYOC_LINT_INFO, "no-dockerignore", *w.prefix ? w.prefix : ".", 0,
                          "no .dockerignore: the whole directory is sent to every build (byoc init writes one)");
        free(p);
    }
    byoc_strv_clear(&w.secret_dirs);
    byoc_strv_clear(&w.heavy_dirs);
    free(w.heavy_bytes);
    byoc_context_free(c);
}
