/* fuzz_frames: the Engine's multiplexed stdout/stderr log stream
 * (docker/frames.h) in chunks of any size, then the line splitter
 * (docker/lines.h) the log views put behind it.
 * Input: one byte picks the chunk size and TTY mode, the rest is the stream.
 * Checks: the payload handed out is exactly the bytes after the headers, in
 * order, with a valid stream number; lines never exceed the limit. */
#include "docker/frames.h"
#include "docker/lines.h"
#include "fuzz.h"

#define LINE_MAX_LEN 77

typedef struct out {
    byoc_buf payload;
    byoc_lines lines;
    size_t lines_seen;
} out;

static void on_line(const char *line, size_t len, void *ud)
{
    out *o = ud;
    FUZZ_ASSERT(len <= LINE_MAX_LEN);
    FUZZ_ASSERT(memchr(line, '\n', len) == NULL);
    o->lines_seen++;
}

static int on_payload(int stream, const char *p, size_t n, void *ud)
{
    out *o = ud;
    FUZZ_ASSERT(stream >= BYOC_STREAM_STDIN && stream <= BYOC_STREAM_SYSERR);
    FUZZ_ASSERT(n > 0);
    byoc_buf_append(&o->payload, p, n);
    byoc_lines_feed(&o->lines, p, n);
    return 0;
}

/* What the payload must be: walk the frames once, whole. */
static void expected(const uint8_t *p, size_t n, bool tty, byoc_buf *want, bool *valid)
{
    *valid = true;
    if (tty) {
        byoc_buf_append(want, p, n);
        return;
    }
    size_t i = 0;
    while (i < n) {
        if (n - i < 8) {
            /* a partial header: nothing more is delivered */
            return;
        }
        const uint8_t *h = p + i;
        if (h[0] > 3 || h[1] || h[2] || h[3]) {
            *valid = false;
            return;
        }
        uint32_t len = (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];
        i += 8;
        size_t take = len < n - i ? len : n - i;
        byoc_buf_append(want, p + i, take);
        i += take;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in in = {data, size};
    unsigned pick = fuzz_byte(&in);
    bool tty = pick & 0x80;
    size_t chunk = (pick & 0x7f) == 0 ? (in.n ? in.n : 1) : (pick & 0x7f);
    out o;
    memset(&o, 0, sizeof o);
    byoc_lines_init(&o.lines, LINE_MAX_LEN, on_line, &o);
    byoc_frames f;
    byoc_frames_init(&f, tty, on_payload, &o);
    const uint8_t *stream = in.p;
    size_t stream_len = in.n;
    int rc = 0;
    while (in.n > 0 && rc == 0) {
        size_t take = chunk < in.n ? chunk : in.n;
        rc = byoc_frames_feed(&f, (const char *)in.p, take);
        in.p += take;
        in.n -= take;
    }
    byoc_lines_flush(&o.lines);
    byoc_buf want = BYOC_BUF_INIT;
    bool valid;
    expected(stream, stream_len, tty, &want, &valid);
    if (valid) {
        FUZZ_ASSERT(rc == 0);
        FUZZ_ASSERT(o.payload.len == want.len);
        FUZZ_ASSERT(want.len == 0 || memcmp(o.payload.data, want.data, want.len) == 0);
    } else {
        FUZZ_ASSERT(rc == -1 && f.error[0]);
        /* what came before the bad header was delivered intact */
        FUZZ_ASSERT(o.payload.len == want.len);
    }
    byoc_buf_clear(&want);
    byoc_buf_clear(&o.payload);
    byoc_lines_clear(&o.lines);
    return 0;
}
