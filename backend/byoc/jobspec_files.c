#include "byoc/jobspec_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"

char *byoc_job_path_normalize(const char *path)
{
    byoc_buf b = BYOC_BUF_INIT;
    bool absolute = path[0] == '/';
    if (absolute)
        byoc_buf_putc(&b, '/');
    const char *p = path;
    while (*p) {
        while (*p == '/')
            p++;
        size_t n = strcspn(p, "/");
        if (n == 0)
            break;
        if (!(n == 1 && p[0] == '.')) {
            if (b.len && b.data[b.len - 1] != '/')
                byoc_buf_putc(&b, '/');
            byoc_buf_append(&b, p, n);
        }
        p += n;
    }
    if (b.len == 0)
        byoc_buf_putc(&b, '.');
    return byoc_buf_steal(&b);
}

char *byoc_job_path_name(const char *path)
{
    char *norm = byoc_job_path_normalize(path);
    const char *slash = strrchr(norm, '/');
    char *name = byoc_xstrdup(slash ? slash + 1 : norm);
    free(norm);
    if (strcmp(name, ".") == 0)
        name[0] = '\0';
    return name;
}

char *byoc_job_path_stem(const char *name)
{
    const char *dot = strrchr(name, '.');
    size_t n = strlen(name);
    if (dot && dot > name && (size_t)(dot - name) < n - 1)
        return byoc_xstrndup(name, (size_t)(dot - name));
    return byoc_xstrdup(name);
}

typedef struct {
    byoc_job_local_file *items;
    size_t len, cap;
    const char *prefix_norm;
    const char *s3_prefix;
} collector;

static void add_file(collector *c, const char *path, int64_t size)
{
    if (c->len == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->items = byoc_xrealloc(c->items, c->cap * sizeof *c->items);
    }
    char *norm = byoc_job_path_normalize(path);
    size_t pl = strlen(c->prefix_norm);
    const char *rest = strncmp(norm, c->prefix_norm, pl) == 0 ? norm + pl : norm;
    byoc_job_local_file *f = &c->items[c->len++];
    f->path = byoc_xstrdup(path);
    f->s3_uri = byoc_xasprintf("%s%s", c->s3_prefix, rest);
    f->size = size;
    free(norm);
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    return n && dir[n - 1] == '/' ? byoc_xasprintf("%s%s", dir, name) : byoc_xasprintf("%s/%s", dir, name);
}

/* Every file in dir (symlinked files followed), recursing into real subdirectories only. */
static int walk(collector *c, const char *dir, char *why, size_t why_size, int depth)
{
    if (depth > 256) {
        snprintf(why, why_size, "%s: directories nested too deeply", dir);
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, why_size, "cannot read directory %s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *p = join(dir, e->d_name);
        struct stat st, lst;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            add_file(c, p, (int64_t)st.st_size);
        else if (lstat(p, &lst) == 0 && S_ISDIR(lst.st_mode))
            rc = walk(c, p, why, why_size, depth + 1);
        free(p);
    }
    closedir(d);
    return rc;
}

static int by_path(const void *a, const void *b)
{
    return strcmp(((const byoc_job_local_file *)a)->path, ((const byoc_job_local_file *)b)->path);
}

int byoc_job_local_input_files(const char *local_prefix, const char *s3_prefix, byoc_job_local_file **out,
                               size_t *n, char *why, size_t why_size)
{
    *out = NULL;
    *n = 0;
    char *name = byoc_job_path_name(local_prefix);
    bool nameless = !*name || strcmp(name, "..") == 0;
    free(name);
    if (nameless) {
        snprintf(why, why_size, "'%s' has no name to use in S3: name a file, a directory or a path prefix",
                 local_prefix);
        return -1;
    }
    const char *slash = strrchr(local_prefix, '/');
    char *dir = slash ? (slash == local_prefix ? byoc_xstrdup("/")
                                               : byoc_xstrndup(local_prefix, (size_t)(slash - local_prefix)))
                      : byoc_xstrdup(".");
    const char *start = slash ? slash + 1 : local_prefix;
    size_t sl = strlen(start);
    char *prefix_norm = byoc_job_path_normalize(local_prefix);
    collector c = {.prefix_norm = prefix_norm, .s3_prefix = s3_prefix};
    int rc = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno != ENOENT && errno != ENOTDIR) {
            snprintf(why, why_size, "cannot read directory %s: %s", dir, strerror(errno));
            rc = -1;
        }
    } else {
        struct dirent *e;
        while (rc == 0 && (e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strncmp(e->d_name, start, sl) != 0)
                continue;
            char *p = slash ? join(dir, e->d_name) : byoc_xstrdup(e->d_name);
            struct stat st;
            if (stat(p, &st) == 0) {
                if (S_ISREG(st.st_mode))
                    add_file(&c, p, (int64_t)st.st_size);
                else if (S_ISDIR(st.st_mode))
                    rc = walk(&c, p, why, why_size, 0);
            }
            free(p);
        }
        closedir(d);
    }
    free(dir);
    free(prefix_norm);
    if (rc != 0) {
        byoc_job_local_files_free(c.items, c.len);
        return -1;
    }
    if (c.len)
        qsort(c.items, c.len, sizeof *c.items, by_path);
    *out = c.items;
    *n = c.len;
    return 0;
}

void byoc_job_local_files_free(byoc_job_local_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(files[i].path);
        free(files[i].s3_uri);
    }
    free(files);
}
