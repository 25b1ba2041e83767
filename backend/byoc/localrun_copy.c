/* localrun_copy: copying the results out of the container (localrun_internal.h). */
#include "byoc/localrun_internal.h"

#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "byoc/results.h"
#include "core/fs.h"
#include "core/log.h"
#include "docker/containers.h"

/* ---- 6. copying the results out -------------------------------------------------------------------- */

typedef struct spool {
    int fd;
    int error;
} spool;

static int spool_sink(const char *p, size_t n, void *ud)
{
    spool *s = ud;
    while (n) {
        ssize_t w = write(s->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            s->error = errno;
            return 1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The only directory inside dir (the basename the archive used), malloc'd path or NULL. */
static char *single_subdir(const char *dir)
{
    DIR *d = opendir(dir);
    char *found = NULL;
    int count = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        count++;
        free(found);
        found = byoc_xasprintf("%s/%s", dir, e->d_name);
    }
    if (d)
        closedir(d);
    struct stat st;
    if (count != 1 || lstat(found, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(found);
        return NULL;
    }
    return found;
}

/* Copy the container directory ctr_path into the output directory: its
 * contents at the top (as_name NULL), or as <output>/<as_name>. */
void lr_copy_out(run *r, const char *ctr_path, const char *as_name)
{
    const char *outdir = r->out->output_dir;
    char *tmp = byoc_xasprintf("%s/.byoc-copy-XXXXXX", outdir);
    if (!mkdtemp(tmp)) {
        lr_warn(r, "cannot copy %s: %s: %s", ctr_path, outdir, strerror(errno));
        free(tmp);
        return;
    }
    char *tarball = byoc_xasprintf("%s/archive.tar", tmp);
    spool sp = {.fd = open(tarball, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)};
    byoc_err e;
    byoc_err_clear(&e);
    int rc = sp.fd < 0 ? byoc_err_set(&e, BYOC_E_FAILED, tarball, "%s", strerror(errno))
                       : byoc_container_archive_get(r->engine, NULL, r->out->container_id, ctr_path, spool_sink,
                                                    &sp, &e);
    if (sp.fd >= 0)
        close(sp.fd);
    char *unpacked_dir = byoc_xasprintf("%s/unpacked", tmp);
    byoc_unpacked u = {0};
    if (rc != 0) {
        if (e.http_status != 404)
            lr_warn(r, "cannot copy %s out of the container: %s", ctr_path, sp.error ? strerror(sp.error) : e.message);
    } else if (byoc_results_unpack(tarball, unpacked_dir, NULL, NULL, &u, &e) != 0) {
        lr_warn(r, "%s was not copied: %s", ctr_path, e.message);
    } else {
        char *top = single_subdir(unpacked_dir);
        if (!top) {
            lr_warn(r, "%s was not copied: the engine's archive has an unexpected layout", ctr_path);
        } else if (as_name) {
            char *dest = byoc_xasprintf("%s/%s", outdir, as_name);
            if (rename(top, dest) != 0)
                lr_warn(r, "cannot move %s into %s: %s", ctr_path, dest, strerror(errno));
            free(dest);
        } else {
            DIR *d = opendir(top);
            for (struct dirent *de; d && (de = readdir(d));) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                    continue;
                if (strcmp(de->d_name, "log.txt") == 0 || strcmp(de->d_name, "checkpoints") == 0) {
                    lr_warn(r, "%s/%s not copied: %s/%s is the job's %s", ctr_path, de->d_name, outdir, de->d_name,
                         de->d_name[0] == 'l' ? "log" : "checkpoint directory");
                    continue;
                }
                char *from = byoc_xasprintf("%s/%s", top, de->d_name);
                char *to = byoc_xasprintf("%s/%s", outdir, de->d_name);
                if (rename(from, to) != 0)
                    lr_warn(r, "cannot move %s into %s: %s", from, outdir, strerror(errno));
                free(from);
                free(to);
            }
            if (d)
                closedir(d);
        }
        free(top);
        byoc_unpacked_free(&u);
    }
    byoc_remove_tree(tmp);
    free(unpacked_dir);
    free(tarball);
    free(tmp);
}

/* The failure file's text: trimmed, cut to the API's 1024 characters at a UTF-8 boundary. */
char *lr_failure_text(run *r)
{
    char *text = NULL;
    byoc_err e;
    if (lr_read_container_file(r, r->out->container_id, FAILURE_FILE, 256 * 1024, &text, &e) <= 0)
        return NULL;
    size_t n = strlen(text);
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    if (n > FAILURE_REASON_MAX) {
        n = FAILURE_REASON_MAX;
        while (n && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    text[n] = '\0';
    byoc_redact_inplace(text);
    if (!*text) {
        free(text);
        return NULL;
    }
    return text;
}
