#include "byoc/vendor.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "byoc/git.h"
#include "byoc/requirements.h"
#include "core/buf.h"
#include "core/files.h"

#define REQUIREMENTS_MAX (1u << 20)

void byoc_vendor_result_clear(byoc_vendor_result *r)
{
    byoc_strv_clear(&r->vendored);
    byoc_strv_clear(&r->kept);
    byoc_strv_clear(&r->skipped);
    free(r->requirements);
    memset(r, 0, sizeof *r);
}

/* A private requirement byoc can vendor: a git URL (its dep filled), else false. */
static bool vendorable(const byoc_requirement *it, byoc_git_dep *dep)
{
    if (!it->private_source || (it->kind != BYOC_REQ_VCS && it->kind != BYOC_REQ_URL))
        return false;
    memset(dep, 0, sizeof *dep);
    return byoc_git_parse_dep(it->text, dep) == 0;
}

size_t byoc_vendor_private_count(const char *text, size_t len)
{
    byoc_requirements r;
    byoc_requirements_parse(text, len, &r);
    size_t n = 0;
    for (size_t i = 0; i < r.n; i++) {
        byoc_git_dep dep;
        if (vendorable(&r.items[i], &dep)) {
            n++;
            byoc_git_dep_clear(&dep);
        }
    }
    byoc_requirements_clear(&r);
    return n;
}

static bool dir_has_entries(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return false;
    struct dirent *e;
    bool any = false;
    while (!any && (e = readdir(d)))
        any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return any;
}

/* requirements text with the logical line starting at each physical line in `at` (1-based, `n`
 * of them, with `names`) replaced by /opt/byoc/vendor/<name>. */
static char *rewrite(const char *text, size_t len, const int *at, char *const *names, size_t n)
{
    byoc_buf out = {0};
    byoc_buf_printf(&out, "# Written by `byoc vendor` from requirements.txt: each private dependency is replaced\n"
                           "# by its copy in vendor/, at its path in the image. Run byoc vendor again after editing.\n");
    int line = 1;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        size_t plen = eol ? (size_t)(eol - p) : (size_t)(end - p);
        size_t k = 0;
        while (k < n && at[k] != line)
            k++;
        if (k < n) { /* skip the continuation lines of this logical line */
            byoc_buf_printf(&out, "%s/%s\n", BYOC_VENDOR_IMAGE_DIR, names[k]);
            while (plen && p[plen - (p[plen - 1] == '\r' ? 2 : 1)] == '\\' && eol) {
                p = eol + 1;
                line++;
                eol = memchr(p, '\n', (size_t)(end - p));
                plen = eol ? (size_t)(eol - p) : (size_t)(end - p);
            }
        } else {
            byoc_buf_append(&out, p, plen);
            byoc_buf_append(&out, "\n", 1);
        }
        if (!eol)
            break;
        p = eol + 1;
        line++;
    }
    return byoc_buf_steal(&out);
}

int byoc_vendor_project(const char *context_dir, byoc_task *task, byoc_vendor_result *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    char *req_path = byoc_path_join(context_dir, "requirements.txt");
    char *text = NULL;
    size_t len = 0;
    bool truncated = false;
    if (!byoc_path_exists(req_path)) {
        free(req_path);
        return 0;
    }
    if (byoc_file_read(req_path, REQUIREMENTS_MAX, &text, &len, &truncated, err) != 0) {
        free(req_path);
        return -1;
    }
    free(req_path);
    if (truncated || byoc_text_is_binary(text, len)) {
        free(text);
        return byoc_err_set(err, BYOC_E_USAGE, "requirements.txt", "not a requirements list (binary, or over 1 MiB)");
    }
    byoc_requirements r;
    byoc_requirements_parse(text, len, &r);
    int *at = byoc_xcalloc(r.n + 1, sizeof *at);
    char **names = byoc_xcalloc(r.n + 1, sizeof *names);
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < r.n && rc == 0; i++) {
        const byoc_requirement *it = &r.items[i];
        byoc_git_dep dep;
        if (!vendorable(it, &dep)) {
            if (it->private_source && it->kind != BYOC_REQ_OPTION)
                byoc_strv_pushf(&out->skipped, "requirements.txt:%d: %s, not a git URL: vendor it by hand", it->line,
                                it->why_private ? it->why_private : "private");
            continue;
        }
        if (n == 0 && byoc_path_check_below(context_dir, BYOC_VENDOR_DIR "/x", err) != 0) {
            byoc_git_dep_clear(&dep);
            rc = -1;
            break;
        }
        char *rel = byoc_xasprintf("%s/%s", BYOC_VENDOR_DIR, dep.name);
        char *dest = byoc_path_join(context_dir, rel);
        struct stat st;
        if (lstat(dest, &st) == 0 && !S_ISDIR(st.st_mode)) {
            rc = byoc_err_set(err, BYOC_E_USAGE, rel, "is not a directory (a link or a file): remove it to vendor %s",
                              dep.name);
        } else if (dir_has_entries(dest)) {
            byoc_strv_push(&out->kept, dep.name);
        } else {
            byoc_task_status(task, "vendoring %s", dep.name);
            rc = byoc_git_vendor(dep.url, dep.ref, dest, false, task, err);
            if (rc == 0)
                byoc_strv_push(&out->vendored, dep.name);
        }
        if (rc == 0) {
            at[n] = it->line;
            names[n++] = byoc_xstrdup(dep.name);
        }
        free(dest);
        free(rel);
        byoc_git_dep_clear(&dep);
    }
    if (rc == 0 && n > 0) {
        char *list = rewrite(text, len, at, names, n);
        rc = byoc_file_write_below(context_dir, BYOC_VENDOR_DIR "/requirements.txt", list, strlen(list), 0644, 0755,
                                   err);
        free(list);
        if (rc == 0)
            out->requirements = byoc_xstrdup(BYOC_VENDOR_DIR "/requirements.txt");
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(at);
    byoc_requirements_clear(&r);
    free(text);
    return rc;
}
