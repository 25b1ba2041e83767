#include "byoc/logfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"

typedef struct file_source {
    byoc_log_source base;
    char *path;
    off_t offset;                /* bytes of the file taken into `partial` or delivered */
    byoc_buf partial;            /* the start of a line whose newline has not come yet */
} file_source;

static void deliver(byoc_log_line_fn fn, void *ud, const char *s, size_t n, byoc_log_round *out)
{
    byoc_log_line l = {.timestamp_ms = 0, .instance = "", .message = s, .len = n};
    fn(&l, ud);
    out->lines++;
}

/* Lines of the bytes at p, the held partial line first. */
static void split(file_source *s, const char *p, size_t n, byoc_log_line_fn fn, void *ud, byoc_log_round *out)
{
    while (n) {
        const char *nl = memchr(p, '\n', n);
        size_t take = nl ? (size_t)(nl - p) : n;
        size_t room = BYOC_LOGFILE_LINE_MAX - s->partial.len;
        if (take > room) {  /* a line too long to hold: out in pieces */
            byoc_buf_append(&s->partial, p, room);
            deliver(fn, ud, s->partial.data, s->partial.len, out);
            byoc_buf_reset(&s->partial);
            p += room;
            n -= room;
            continue;
        }
        byoc_buf_append(&s->partial, p, take);
        if (!nl)
            return;
        deliver(fn, ud, s->partial.data ? s->partial.data : "", s->partial.len, out);
        byoc_buf_reset(&s->partial);
        p += take + 1;
        n -= take + 1;
    }
}

static int file_poll(byoc_log_source *src, byoc_task *t, bool final, byoc_log_line_fn fn, void *ud,
                     byoc_log_round *out, byoc_err *err)
{
    (void)t;
    file_source *s = (file_source *)src;
    memset(out, 0, sizeof *out);
    int fd = open(s->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0;
        return byoc_err_set(err, BYOC_E_FAILED, "logs", "%s: %s", s->path, strerror(errno));
    }
    out->streams = 1;
    char buf[65536];
    size_t round = 0;
    for (;;) {
        if (round >= BYOC_LOGFILE_ROUND_MAX) {
            out->more = true;
            break;
        }
        ssize_t n = pread(fd, buf, sizeof buf, s->offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            return byoc_err_set(err, BYOC_E_FAILED, "logs", "%s: %s", s->path, strerror(e));
        }
        if (n == 0)
            break;
        s->offset += n;
        round += (size_t)n;
        split(s, buf, (size_t)n, fn, ud, out);
    }
    close(fd);
    if (final && !out->more && s->partial.len) {
        deliver(fn, ud, s->partial.data, s->partial.len, out);
        byoc_buf_reset(&s->partial);
    }
    return 0;
}

static void file_clear(byoc_log_source *src)
{
    file_source *s = (file_source *)src;
    byoc_buf_clear(&s->partial);
    free(s->path);
    free(s);
}

static const byoc_log_source_ops file_ops = {.poll = file_poll, .free = file_clear};

byoc_log_source *byoc_log_source_file(const char *path)
{
    file_source *s = byoc_xcalloc(1, sizeof *s);
    s->base.ops = &file_ops;
    s->path = byoc_xstrdup(path);
    return &s->base;
}
