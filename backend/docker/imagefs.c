#include "docker/imagefs.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <openssl/evp.h>

#include "core/buf.h"
#include "docker/container_files.h"
#include "docker/containers.h"

struct byoc_imagefs {
    byoc_engine *engine;
    byoc_task *task;
    char *id;
};

/* Go's os.FileMode type bits, as the engine sends them. */
#define GO_MODE_DIR (1u << 31)
#define GO_MODE_SYMLINK (1u << 27)
#define GO_MODE_TYPE (GO_MODE_DIR | (1u << 30) | (1u << 29) | (1u << 28) | GO_MODE_SYMLINK | (1u << 26) | \
                      (1u << 25) | (1u << 24) | (1u << 21) | (1u << 19))
#define LINK_HOPS 16

int byoc_imagefs_open(byoc_engine *e, byoc_task *t, const char *image, byoc_imagefs **out, byoc_err *err)
{
    *out = NULL;
    /* Never started: the command only has to be there for the engine to create it. */
    const char *cmd[] = {"/byoc-imagefs-never-started"};
    const char *labels[] = {"byoc.preflight=1"};
    byoc_container_spec spec = {
        .image = image,
        .cmd = cmd,
        .n_cmd = 1,
        .entrypoint_set = true,
        .n_entrypoint = 0,
        .labels = labels,
        .n_labels = 1,
        .network_mode = "none",
    };
    char *id = NULL;
    if (byoc_container_create(e, t, &spec, &id, err) != 0)
        return -1;
    byoc_imagefs *fs = byoc_xcalloc(1, sizeof *fs);
    fs->engine = e;
    fs->task = t;
    fs->id = id;
    *out = fs;
    return 0;
}

void byoc_imagefs_close(byoc_imagefs *fs)
{
    if (!fs)
        return;
    byoc_err ignored;
    byoc_err_clear(&ignored);
    byoc_container_remove(fs->engine, NULL, fs->id, true, true, &ignored);
    free(fs->id);
    free(fs);
}

static int parse_stat_header(const char *b64, byoc_imagefs_info *st, byoc_err *err)
{
    size_t n = strlen(b64);
    if (n > 8192)
        return byoc_err_set(err, BYOC_E_FAILED, "engine", "the path stat header is too long");
    unsigned char *raw = byoc_xmalloc(n / 4 * 3 + 4);
    int len = EVP_DecodeBlock(raw, (const unsigned char *)b64, (int)n);
    if (len < 0) {
        free(raw);
        return byoc_err_set(err, BYOC_E_FAILED, "engine", "the path stat header is not base64");
    }
    while (len > 0 && raw[len - 1] == '\0') /* EVP_DecodeBlock counts the padding */
        len--;
    json_t *j = json_loadb((const char *)raw, (size_t)len, 0, NULL);
    free(raw);
    if (!json_is_object(j)) {
        json_decref(j);
        return byoc_err_set(err, BYOC_E_FAILED, "engine", "the path stat header is not a JSON object");
    }
    json_int_t mode = json_integer_value(json_object_get(j, "mode"));
    unsigned m = (unsigned)(mode & 0xffffffff);
    st->exists = true;
    st->is_dir = (m & GO_MODE_DIR) != 0;
    st->is_link = (m & GO_MODE_SYMLINK) != 0;
    st->is_regular = (m & GO_MODE_TYPE) == 0;
    st->perm = m & 07777;
    st->size = json_integer_value(json_object_get(j, "size"));
    const char *target = json_string_value(json_object_get(j, "linkTarget"));
    snprintf(st->link_target, sizeof st->link_target, "%s", target ? target : "");
    json_decref(j);
    return 0;
}

/* lstat of an absolute path (st->exists false when there is none). */
static int byoc_imagefs_lstat(byoc_imagefs *fs, const char *path, byoc_imagefs_info *st, byoc_err *err)
{
    memset(st, 0, sizeof *st);
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "path", path);
    char *esc = byoc_engine_path_escape(fs->id);
    char *p = byoc_xasprintf("/containers/%s/archive", esc);
    free(esc);
    byoc_engine_req r = {.method = "HEAD", .path = p, .query = q.data};
    byoc_http_resp resp = {0};
    int rc = byoc_engine_do(fs->engine, fs->task, &r, &resp, err);
    if (rc == 0 && resp.status == 404) {
        st->exists = false;
    } else if (rc == 0 && resp.status == 200) {
        const char *h = byoc_headers_get(&resp.headers, "X-Docker-Container-Path-Stat");
        rc = h ? parse_stat_header(h, st, err)
               : byoc_err_set(err, BYOC_E_FAILED, "engine", "no X-Docker-Container-Path-Stat for %s", path);
    } else if (rc == 0) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "engine", "stat of %s in the image: HTTP %ld", path, resp.status);
    }
    byoc_http_resp_clear(&resp);
    byoc_buf_clear(&q);
    free(p);
    return rc;
}

int byoc_imagefs_stat(byoc_imagefs *fs, const char *path, byoc_imagefs_info *st, char **real, byoc_err *err)
{
    if (real)
        *real = NULL;
    char *cur = byoc_xstrdup(path);
    for (int hop = 0; hop < LINK_HOPS; hop++) {
        if (byoc_imagefs_lstat(fs, cur, st, err) != 0) {
            free(cur);
            return -1;
        }
        if (!st->exists || !st->is_link || !st->link_target[0] || strcmp(st->link_target, cur) == 0)
            break;
        free(cur);
        cur = byoc_xstrdup(st->link_target);
    }
    if (st->exists && st->is_link)
        st->exists = false; /* a dangling link or a loop: nothing to run there */
    if (real && st->exists)
        *real = cur;
    else
        free(cur);
    return 0;
}

int byoc_imagefs_read(byoc_imagefs *fs, const char *path, size_t max, char **content, size_t *len, byoc_err *err)
{
    *content = NULL;
    if (len)
        *len = 0;
    byoc_imagefs_info st;
    char *real = NULL;
    if (byoc_imagefs_stat(fs, path, &st, &real, err) != 0)
        return -1;
    if (!st.exists || !st.is_regular) {
        free(real);
        return 0;
    }
    int rc = byoc_container_read_entry(fs->engine, fs->task, fs->id, real, max + 4096, max, content, len, err);
    free(real);
    return rc;
}

int byoc_imagefs_which(byoc_imagefs *fs, const char *path_var, const char *name, char **found, byoc_err *err)
{
    *found = NULL;
    if (strchr(name, '/')) {
        byoc_imagefs_info st;
        if (byoc_imagefs_stat(fs, name, &st, NULL, err) != 0)
            return -1;
        if (st.exists && st.is_regular && (st.perm & 0111)) {
            *found = byoc_xstrdup(name);
            return 1;
        }
        return 0;
    }
    char *dirs = byoc_xstrdup(path_var && *path_var ? path_var : BYOC_IMAGEFS_DEFAULT_PATH);
    int rc = 0;
    for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d && rc == 0; d = strtok_r(NULL, ":", &save)) {
        if (d[0] != '/')
            continue; /* a relative PATH entry depends on the working directory: the service's is / */
        char *cand = byoc_xasprintf("%s%s%s", d, d[strlen(d) - 1] == '/' ? "" : "/", name);
        byoc_imagefs_info st;
        if (byoc_imagefs_stat(fs, cand, &st, NULL, err) != 0) {
            rc = -1;
        } else if (st.exists && st.is_regular && (st.perm & 0111)) {
            *found = cand;
            cand = NULL;
            rc = 1;
        }
        free(cand);
    }
    free(dirs);
    return rc;
}
