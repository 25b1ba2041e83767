#include "docker/frames.h"

#include <stdio.h>
#include <string.h>

void byoc_frames_init(byoc_frames *f, bool tty, byoc_frame_fn fn, void *ud)
{
    memset(f, 0, sizeof *f);
    f->raw = tty;
    f->fn = fn;
    f->ud = ud;
}

int byoc_frames_feed(byoc_frames *f, const char *p, size_t n)
{
    if (f->raw)
        return n && f->fn ? f->fn(BYOC_STREAM_STDOUT, p, n, f->ud) : 0;
    while (n > 0) {
        if (f->remaining == 0) {
            size_t take = 8 - f->hdr_len;
            if (take > n)
                take = n;
            memcpy(f->hdr + f->hdr_len, p, take);
            f->hdr_len += take;
            p += take;
            n -= take;
            if (f->hdr_len < 8)
                return 0;
            f->hdr_len = 0;
            if (f->hdr[0] > BYOC_STREAM_SYSERR || f->hdr[1] || f->hdr[2] || f->hdr[3]) {
                snprintf(f->error, sizeof f->error,
                         "malformed log stream: frame header %02x %02x %02x %02x", f->hdr[0], f->hdr[1],
                         f->hdr[2], f->hdr[3]);
                return -1;
            }
            f->stream = f->hdr[0];
            f->remaining = (uint32_t)f->hdr[4] << 24 | (uint32_t)f->hdr[5] << 16 | (uint32_t)f->hdr[6] << 8 |
                           (uint32_t)f->hdr[7];
            continue;
        }
        size_t take = f->remaining < n ? f->remaining : n;
        f->remaining -= (uint32_t)take;
        if (f->fn) {
            int rc = f->fn(f->stream, p, take, f->ud);
            if (rc)
                return rc;
        }
        p += take;
        n -= take;
    }
    return 0;
}

bool byoc_frames_complete(const byoc_frames *f)
{
    return f->raw || (f->hdr_len == 0 && f->remaining == 0);
}
