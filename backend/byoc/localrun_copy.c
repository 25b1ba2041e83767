/* localrun_copy: copying the results out of the container (localrun_copy.h). */
#include "byoc/localrun_copy.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "byoc/contract.h"
#include "byoc/results.h"
#include "core/fs.h"
#include "core/log.h"
#include "docker/container_files.h"

/* ---- 6. copying the results out -------------------------------------------------------------------- */

static void not_copied(run *r, const char *ctr_path, const char *rel, const char *why)
{
    char *path = rel && *rel ? byoc_xasprintf("%s/%s", ctr_path, rel) : byoc_xstrdup(ctr_path);
    lr_warn(r, "%s was not copied: %s", path, why);
    byoc_strv_push_owned(&r->out->not_copied, path);
}

/* The unpacker judged each link from the unpacked tree; where the tree ends
 * up is what counts, so the same rule runs again there. */
static void recheck_links(run *r, const char *ctr_path, const char *root, const byoc_strv *links, const char *only)
{
    size_t only_len = only ? strlen(only) : 0;
    for (size_t i = 0; i < links->n; i++) {
        const char *rel = links->v[i];
        if (only && (strncmp(rel, only, only_len) != 0 || (rel[only_len] && rel[only_len] != '/')))
            continue;
        if (byoc_results_link_inside(root, rel))
            continue;
        char *full = byoc_xasprintf("%s/%s", root, rel);
        unlink(full);
        free(full);
        not_copied(r, ctr_path, rel, "it is a symbolic link that leads outside the job's directory");
    }
}

/* Copy the container directory ctr_path into the output directory: its
 * contents at the top (as_name NULL), or as <output>/<as_name>. What cannot
 * be copied safely is skipped and named (a warning each, and out->not_copied). */
void lr_copy_out(run *r, const char *ctr_path, const char *as_name)
{
    const char *outdir = r->out->output_dir;
    char *tmp = byoc_xasprintf("%s/.byoc-copy-XXXXXX", outdir);
    if (!mkdtemp(tmp)) {
        lr_warn(r, "cannot copy %s: %s: %s", ctr_path, outdir, strerror(errno));
        byoc_strv_push(&r->out->not_copied, ctr_path);
        free(tmp);
        return;
    }
    /* The engine's tar goes from a thread straight to the unpacker: its limits
     * stop the download as soon as they are passed. */
    byoc_container_feed f;
    if (byoc_container_feed_start(&f, r->engine, r->out->container_id, ctr_path) != 0) {
        lr_warn(r, "cannot copy %s: %s", ctr_path, strerror(errno));
        byoc_strv_push(&r->out->not_copied, ctr_path);
        byoc_remove_tree(tmp);
        free(tmp);
        return;
    }
    bool fed = f.started;
    char *unpacked_dir = byoc_xasprintf("%s/unpacked", tmp);
    byoc_unpacked u = {0};
    byoc_unpack_limits lim = {.skip_unsafe = true, .strip_top = true};
    byoc_err e;
    byoc_err_clear(&e);
    int rc = byoc_results_unpack_fd(f.fd, ctr_path, unpacked_dir, &lim, NULL, &u, &e);
    byoc_container_feed_end(&f);
    if (fed && f.rc != 0 && f.err.http_status == 404) {
        /* nothing at ctr_path: nothing to copy */
    } else if (!fed || rc != 0) {
        /* the download's own failure, unless it failed because the unpacker had stopped */
        const char *why = !fed ? "cannot start the download" : f.rc != 0 && !f.stopped ? f.err.message : e.message;
        lr_warn(r, "%s was not copied: %s", ctr_path, why);
        byoc_strv_push(&r->out->not_copied, ctr_path);
    } else {
        for (size_t i = 0; i < u.skipped.n; i++)
            not_copied(r, ctr_path, u.skipped.v[i], u.skipped_why.v[i]);
        if (as_name) {
            char *dest = byoc_xasprintf("%s/%s", outdir, as_name);
            if (rename(unpacked_dir, dest) != 0) {
                lr_warn(r, "cannot move %s into %s: %s", ctr_path, dest, strerror(errno));
                byoc_strv_push(&r->out->not_copied, ctr_path);
            } else {
                recheck_links(r, ctr_path, dest, &u.links, NULL);
            }
            free(dest);
        } else {
            DIR *d = opendir(unpacked_dir);
            for (struct dirent *de; d && (de = readdir(d));) {
                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                    continue;
                if (strcmp(de->d_name, "log.txt") == 0 || strcmp(de->d_name, "checkpoints") == 0) {
                    lr_warn(r, "%s/%s not copied: %s/%s is the job's %s", ctr_path, de->d_name, outdir, de->d_name,
                         de->d_name[0] == 'l' ? "log" : "checkpoint directory");
                    byoc_strv_push_owned(&r->out->not_copied, byoc_xasprintf("%s/%s", ctr_path, de->d_name));
                    continue;
                }
                char *from = byoc_xasprintf("%s/%s", unpacked_dir, de->d_name);
                char *to = byoc_xasprintf("%s/%s", outdir, de->d_name);
                if (rename(from, to) != 0) {
                    lr_warn(r, "cannot move %s into %s: %s", from, outdir, strerror(errno));
                    byoc_strv_push_owned(&r->out->not_copied, byoc_xasprintf("%s/%s", ctr_path, de->d_name));
                } else {
                    recheck_links(r, ctr_path, outdir, &u.links, de->d_name);
                }
                free(from);
                free(to);
            }
            if (d)
                closedir(d);
        }
    }
    byoc_unpacked_clear(&u);
    byoc_remove_tree(tmp);
    free(unpacked_dir);
    free(tmp);
}

/* The failure file's text: trimmed, cut to the API's 1024 characters at a UTF-8 boundary. */
char *lr_failure_text(run *r)
{
    char *text = NULL;
    byoc_err e;
    if (byoc_container_read_file(r->engine, NULL, r->out->container_id, BYOC_CONTRACT_FAILURE_FILE, 256 * 1024, &text, &e) <= 0)
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
