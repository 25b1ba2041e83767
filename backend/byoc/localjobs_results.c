/* A local job's results: what its output directory holds (localjobs.h). */
#include "byoc/localjobs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/results.h"
#include "core/buf.h"
#include "core/log.h"

#define DEPTH_MAX 64

typedef struct walk {
    byoc_unpacked *out;
    byoc_err *err;
    bool full;
} walk;

/* The files below the directory open at fd, rel its path ("" at the top). */
static int list_dir(walk *w, int fd, const char *rel, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return byoc_err_set(w->err, BYOC_E_FAILED, "results", "%s/%s: %s", w->out->dir, rel, strerror(errno));
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && !w->full && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (!*rel && (strcmp(e->d_name, "log.txt") == 0 || strcmp(e->d_name, "checkpoints") == 0))
            continue;  /* the job's log and its checkpoints: beside the results, not of them */
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;  /* gone since readdir */
        char *path = *rel ? byoc_xasprintf("%s/%s", rel, e->d_name) : byoc_xstrdup(e->d_name);
        if (S_ISREG(st.st_mode)) {
            if (w->out->files.n >= BYOC_LOCAL_RESULTS_MAX) {
                w->full = true;
            } else {
                w->out->bytes += (uint64_t)st.st_size;
                byoc_strv_push_owned(&w->out->files, path);
                path = NULL;
            }
        } else if (S_ISDIR(st.st_mode) && depth < DEPTH_MAX) {
            int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                rc = list_dir(w, sub, path, depth + 1);
        }
        free(path);
    }
    closedir(d);
    return rc;
}

int byoc_local_job_results(const byoc_local_job *j, byoc_unpacked *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    const char *failure;
    const char *status = byoc_local_job_shown_status(j, &failure);
    if (status && strcmp(status, "RUNNING") == 0)
        return byoc_err_set(err, BYOC_E_FAILED, "results",
                            "local job %s is RUNNING: its results are copied out when it ends (wait with: byoc logs "
                            "--follow local:job/%s)",
                            j->name, j->name);
    if (!j->output_dir)
        return byoc_err_set(err, BYOC_E_FAILED, "results", "local job %s has no output directory in the record",
                            j->name);
    int fd = open(j->output_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return byoc_err_set(err, BYOC_E_FAILED, "results", "%s (local job %s's output): %s", j->output_dir, j->name,
                            strerror(errno));
    out->dir = byoc_xstrdup(j->output_dir);
    walk w = {.out = out, .err = err};
    if (list_dir(&w, fd, "", 0) != 0) {
        byoc_unpacked_clear(out);
        return -1;
    }
    if (w.full)
        byoc_log(BYOC_LOG_WARN, "%s: more than %d files: the first %d listed", out->dir, BYOC_LOCAL_RESULTS_MAX,
                 BYOC_LOCAL_RESULTS_MAX);
    byoc_strv_sort(&out->files);
    return 0;
}
