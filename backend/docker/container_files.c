#include "docker/container_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "docker/containers.h"
#include "docker/libarchive_api.h"

#define CHUNK 65536

/* ---- reading a small file ------------------------------------------------------------------------ */

typedef struct {
    byoc_buf b;
    size_t max;
} capped;

static int capped_sink(const char *p, size_t n, void *ud)
{
    capped *c = ud;
    if (c->b.len < c->max)
        byoc_buf_append(&c->b, p, c->b.len + n <= c->max ? n : c->max - c->b.len);
    return 0;
}

int byoc_container_read_entry(byoc_engine *engine, byoc_task *t, const char *id, const char *path, size_t tar_max,
                              size_t max, char **content, size_t *len, byoc_err *err)
{
    *content = NULL;
    if (len)
        *len = 0;
    const byoc_archive_api *ar = byoc_archive_api_get(err);
    if (!ar)
        return -1;
    capped c = {.max = tar_max};
    if (byoc_container_archive_get(engine, t, id, path, capped_sink, &c, err) != 0) {
        byoc_buf_clear(&c.b);
        return -1;
    }
    struct archive *a = ar->archive_read_new();
    ar->archive_read_support_format_tar(a);
    ar->archive_read_support_format_gnutar(a);
    struct archive_entry *e;
    int found = 0;
    if (c.b.len && ar->archive_read_open_memory(a, c.b.data, c.b.len) == ARCHIVE_OK) {
        while (!found && ar->archive_read_next_header(a, &e) == ARCHIVE_OK) {
            if (ar->archive_entry_filetype(e) != AE_IFREG)
                continue;
            byoc_buf text = BYOC_BUF_INIT;
            char buf[8192];
            la_ssize_t got;
            /* a cut-short archive still gives its beginning */
            while (text.len < max && (got = ar->archive_read_data(a, buf, sizeof buf)) > 0)
                byoc_buf_append(&text, buf, text.len + (size_t)got <= max ? (size_t)got : max - text.len);
            if (len)
                *len = text.len;
            byoc_buf_puts(&text, "");
            *content = byoc_buf_steal(&text);
            found = 1;
        }
    }
    ar->archive_read_free(a);
    byoc_buf_clear(&c.b);
    return found;
}

int byoc_container_read_file(byoc_engine *engine, byoc_task *t, const char *id, const char *path, size_t max,
                             char **content, byoc_err *err)
{
    int rc = byoc_container_read_entry(engine, t, id, path, max, SIZE_MAX, content, NULL, err);
    return rc < 0 && err->http_status == 404 ? 0 : rc;
}

/* ---- putting files in ------------------------------------------------------------------------------ */

static bool has_dir(const byoc_put_list *l, const char *path)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->items[i].kind == BYOC_PUT_DIR && strcmp(l->items[i].path, path) == 0)
            return true;
    return false;
}

void byoc_put_list_add(byoc_put_list *l, byoc_put_kind kind, const char *path, const char *host, const char *data,
                       size_t len)
{
    if (kind == BYOC_PUT_DIR && has_dir(l, path))
        return;
    l->items = byoc_xrealloc(l->items, (l->n + 1) * sizeof *l->items);
    byoc_put_item *it = &l->items[l->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->path = byoc_xstrdup(path);
    it->host = host ? byoc_xstrdup(host) : NULL;
    if (data) {
        it->data = byoc_xstrndup(data, len);
        it->len = len;
    }
}

void byoc_put_list_add_dir(byoc_put_list *l, const char *path)
{
    char *p = byoc_xasprintf("%s/", path);
    byoc_put_list_add(l, BYOC_PUT_DIR, p, NULL, NULL, 0);
    free(p);
}

void byoc_put_list_add_dir_chain(byoc_put_list *l, const char *base, const char *rel_file)
{
    byoc_put_list_add_dir(l, base);
    for (const char *s = strchr(rel_file, '/'); s; s = strchr(s + 1, '/')) {
        char *d = byoc_xasprintf("%s/%.*s", base, (int)(s - rel_file), rel_file);
        byoc_put_list_add_dir(l, d);
        free(d);
    }
}

void byoc_put_list_clear(byoc_put_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].path);
        free(l->items[i].host);
        free(l->items[i].data);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

/* The tar, made by libarchive as curl asks for the body: memory stays at one chunk. */
typedef struct tar_stream {
    const byoc_put_item *items;
    size_t n, next;
    struct archive *a;
    byoc_buf out;
    size_t out_pos;
    int fd;
    int64_t left;
    bool done, failed;
    unsigned uid, gid;
    time_t now;
    char error[512];
} tar_stream;

static la_ssize_t tar_write_cb(struct archive *a, void *ud, const void *buf, size_t n)
{
    (void)a;
    tar_stream *ts = ud;
    byoc_buf_append(&ts->out, buf, n);
    return (la_ssize_t)n;
}

static int tar_fail(tar_stream *ts, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int tar_fail(tar_stream *ts, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ts->error, sizeof ts->error, fmt, ap);
    va_end(ap);
    ts->failed = true;
    return -1;
}

static int tar_header(tar_stream *ts, const byoc_put_item *it)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    struct archive_entry *e = ar->archive_entry_new();
    ar->archive_entry_set_pathname(e, it->path);
    ar->archive_entry_set_uid(e, ts->uid);
    ar->archive_entry_set_gid(e, ts->gid);
    ar->archive_entry_set_mtime(e, ts->now, 0);
    int rc = 0;
    if (it->kind == BYOC_PUT_DIR) {
        ar->archive_entry_set_filetype(e, AE_IFDIR);
        ar->archive_entry_set_perm(e, 0755);
    } else if (it->kind == BYOC_PUT_MEM) {
        ar->archive_entry_set_filetype(e, AE_IFREG);
        ar->archive_entry_set_perm(e, 0644);
        ar->archive_entry_set_size(e, (la_int64_t)it->len);
    } else {
        ts->fd = open(it->host, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (ts->fd < 0 || fstat(ts->fd, &st) != 0)
            rc = tar_fail(ts, "%s: %s", it->host, strerror(errno));
        else if (!S_ISREG(st.st_mode))
            rc = tar_fail(ts, "%s: not a regular file", it->host);
        if (rc == 0) {
            ar->archive_entry_set_filetype(e, AE_IFREG);
            ar->archive_entry_set_perm(e, (st.st_mode & 0111) ? 0755 : 0644);
            ar->archive_entry_set_size(e, (la_int64_t)st.st_size);
            ar->archive_entry_set_mtime(e, st.st_mtime, 0);
            ts->left = st.st_size;
        }
    }
    if (rc == 0 && ar->archive_write_header(ts->a, e) != ARCHIVE_OK)
        rc = tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    if (rc == 0 && it->kind == BYOC_PUT_MEM && it->len && ar->archive_write_data(ts->a, it->data, it->len) < 0)
        rc = tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    ar->archive_entry_free(e);
    if (rc == 0 && it->kind == BYOC_PUT_FILE && ts->left == 0) {
        close(ts->fd);
        ts->fd = -1;
    }
    return rc;
}

static int tar_step(tar_stream *ts)
{
    const byoc_archive_api *ar = byoc_archive_api_get(NULL); /* loaded by the public entry point */
    if (ts->fd >= 0) {
        char buf[CHUNK];
        size_t want = ts->left < (int64_t)sizeof buf ? (size_t)ts->left : sizeof buf;
        ssize_t got = read(ts->fd, buf, want);
        if (got < 0 && errno == EINTR)
            return 0;
        if (got <= 0)
            return tar_fail(ts, "%s: %s", ts->items[ts->next - 1].host,
                            got < 0 ? strerror(errno) : "the file shrank while it was being sent");
        if (ar->archive_write_data(ts->a, buf, (size_t)got) < 0)
            return tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
        ts->left -= got;
        if (ts->left == 0) {
            close(ts->fd);
            ts->fd = -1;
        }
        return 0;
    }
    if (ts->next < ts->n)
        return tar_header(ts, &ts->items[ts->next++]);
    if (ar->archive_write_close(ts->a) != ARCHIVE_OK)
        return tar_fail(ts, "tar: %s", ar->archive_error_string(ts->a));
    ts->done = true;
    return 0;
}

static size_t tar_read(char *dst, size_t n, void *ud)
{
    tar_stream *ts = ud;
    while (ts->out.len == ts->out_pos && !ts->done && !ts->failed)
        tar_step(ts);
    if (ts->failed)
        return (size_t)-1;
    size_t avail = ts->out.len - ts->out_pos;
    size_t k = avail < n ? avail : n;
    memcpy(dst, ts->out.data + ts->out_pos, k);
    ts->out_pos += k;
    if (ts->out_pos == ts->out.len) {
        byoc_buf_reset(&ts->out);
        ts->out_pos = 0;
    }
    return k;
}

int byoc_container_put_list(byoc_engine *e, byoc_task *t, const char *id, const char *dir, const byoc_put_list *l,
                            unsigned uid, unsigned gid, byoc_err *err)
{
    const byoc_archive_api *ar = byoc_archive_api_get(err);
    if (!ar)
        return -1;
    tar_stream ts = {.items = l->items, .n = l->n, .fd = -1, .uid = uid, .gid = gid, .now = time(NULL)};
    ts.a = ar->archive_write_new();
    ar->archive_write_set_format_pax_restricted(ts.a);
    ar->archive_write_set_bytes_in_last_block(ts.a, 1);
    int rc = 0;
    if (ar->archive_write_open(ts.a, &ts, NULL, tar_write_cb, NULL) != ARCHIVE_OK)
        rc = byoc_err_set(err, BYOC_E_FAILED, "tar", "%s", ar->archive_error_string(ts.a));
    if (rc == 0) {
        rc = byoc_container_archive_put(e, t, id, dir, tar_read, &ts, NULL, 0, err);
        if (rc != 0 && ts.failed && err->kind != BYOC_E_CANCELLED)
            byoc_err_set(err, BYOC_E_FAILED, "input", "%s", ts.error);
    }
    if (ts.fd >= 0)
        close(ts.fd);
    ar->archive_write_free(ts.a);
    byoc_buf_clear(&ts.out);
    return rc;
}

/* ---- streaming a path's tar out ------------------------------------------------------------------- */

/* The engine's tar goes from a thread that downloads it into one end of a
 * socket pair straight to the reader of the other (an unpacker): nothing is spooled,
 * and the reader's limits stop the download as soon as they are passed. */
static int feed_sink(const char *p, size_t n, void *ud)
{
    byoc_container_feed *f = ud;
    while (n) {
        ssize_t w = send(f->write_fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            f->stopped = true; /* the unpacker stopped reading */
            return 1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void *feed_main(void *arg)
{
    byoc_container_feed *f = arg;
    f->rc = byoc_container_archive_get(f->engine, NULL, f->id, f->path, feed_sink, f, &f->err);
    shutdown(f->write_fd, SHUT_WR);
    return NULL;
}

int byoc_container_feed_start(byoc_container_feed *f, byoc_engine *e, const char *id, const char *path)
{
    memset(f, 0, sizeof *f);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return -1;
    f->engine = e;
    f->id = id;
    f->path = path;
    f->write_fd = sv[0];
    f->fd = sv[1];
    byoc_err_clear(&f->err);
    f->started = pthread_create(&f->th, NULL, feed_main, f) == 0;
    if (!f->started)
        shutdown(sv[0], SHUT_WR);
    return 0;
}

void byoc_container_feed_end(byoc_container_feed *f)
{
    shutdown(f->fd, SHUT_RDWR); /* a download still under way stops at its next block */
    if (f->started)
        pthread_join(f->th, NULL);
    close(f->write_fd);
    close(f->fd);
}
