/* The Engine's streams: the JSON message stream (build/push/pull), the
 * multiplexed stdout/stderr frames of logs, and the line splitter, each fed
 * split at every byte boundary. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/buf.h"
#include "docker/build.h"
#include "docker/frames.h"
#include "docker/jsonmsg.h"
#include "docker/lines.h"

/* ---- JSON messages ---- */

typedef struct {
    byoc_buf log;   /* a one-line summary per message */
} msgs;

static int on_msg(const byoc_jsonmsg *m, void *ud)
{
    msgs *s = ud;
    byoc_buf_printf(&s->log, "[");
    if (m->stream)
        byoc_buf_printf(&s->log, "stream=%s;", m->stream);
    if (m->status)
        byoc_buf_printf(&s->log, "status=%s;", m->status);
    if (m->id)
        byoc_buf_printf(&s->log, "id=%s;", m->id);
    if (m->current >= 0 || m->total >= 0)
        byoc_buf_printf(&s->log, "p=%lld/%lld;", (long long)m->current, (long long)m->total);
    if (m->progress)
        byoc_buf_printf(&s->log, "bar;");
    if (m->aux) {
        const char *id = json_string_value(json_object_get(m->aux, "ID"));
        byoc_buf_printf(&s->log, "aux=%s;", id ? id : "?");
    }
    if (m->error)
        byoc_buf_printf(&s->log, "error=%s(%d);", m->error, m->error_code);
    byoc_buf_printf(&s->log, "]");
    return 0;
}

static const char build_stream[] =
    "{\"stream\":\"Step 1/3 : FROM byoc-test/busybox:1\"}\r\n"
    "{\"stream\":\"\\n\"}\r\n"
    "{\"stream\":\" ---\\u003e 1938f48ccf1e\\n\"}\r\n"
    "{\"status\":\"Downloading\",\"progressDetail\":{\"current\":5,\"total\":10},\"progress\":\"[==>  ]\",\"id\":\"abc123\"}\r\n"
    "{\"aux\":{\"ID\":\"sha256:1111\"}}\r\n"
    "{\"stream\":\"caf\xc3\xa9 \\\"quoted\\\" {braces}\\n\"}\r\n"
    "{\"aux\":{\"ID\":\"sha256:2222\"}}\r\n"
    "{\"errorDetail\":{\"code\":3,\"message\":\"The command returned a non-zero code: 3\"},\"error\":\"The command returned a non-zero code: 3\"}\r\n"
    "{\"error\":\"plain error\"}\r\n";

static const char build_expect[] =
    "[stream=Step 1/3 : FROM byoc-test/busybox:1;][stream=\n;][stream= ---> 1938f48ccf1e\n;]"
    "[status=Downloading;id=abc123;p=5/10;bar;][aux=sha256:1111;][stream=caf\xc3\xa9 \"quoted\" {braces}\n;]"
    "[aux=sha256:2222;][error=The command returned a non-zero code: 3(3);][error=plain error(0);]";

static void test_jsonmsg_splits(void)
{
    size_t n = strlen(build_stream);
    int bad = 0;
    for (size_t cut1 = 0; cut1 <= n; cut1++) {
        /* two cuts: every boundary, with a second cut somewhere after it */
        size_t cut2 = cut1 + (n - cut1) / 2;
        msgs s = {BYOC_BUF_INIT};
        byoc_buf_puts(&s.log, "");
        byoc_jsonmsg_parser p;
        byoc_jsonmsg_init(&p, on_msg, &s);
        int rc = byoc_jsonmsg_feed(&p, build_stream, cut1);
        rc |= byoc_jsonmsg_feed(&p, build_stream + cut1, cut2 - cut1);
        rc |= byoc_jsonmsg_feed(&p, build_stream + cut2, n - cut2);
        rc |= byoc_jsonmsg_finish(&p);
        if (rc != 0 || strcmp(s.log.data, build_expect) != 0) {
            if (bad++ < 3)
                check_fail(__FILE__, __LINE__, "split at %zu/%zu: rc %d\n got  %s\n want %s", cut1, cut2, rc,
                           s.log.data, build_expect);
        } else {
            check_passed++;
        }
        CHECK_INT(p.count, 9);
        byoc_jsonmsg_clear(&p);
        byoc_buf_clear(&s.log);
    }
    /* one byte at a time */
    msgs s = {BYOC_BUF_INIT};
    byoc_buf_puts(&s.log, "");
    byoc_jsonmsg_parser p;
    byoc_jsonmsg_init(&p, on_msg, &s);
    for (size_t i = 0; i < n; i++)
        CHECK_INT(byoc_jsonmsg_feed(&p, build_stream + i, 1), 0);
    CHECK_INT(byoc_jsonmsg_finish(&p), 0);
    CHECK_STR(s.log.data, build_expect);
    byoc_jsonmsg_clear(&p);
    byoc_buf_clear(&s.log);
}

static void test_jsonmsg_edges(void)
{
    msgs s = {BYOC_BUF_INIT};
    byoc_buf_puts(&s.log, "");
    byoc_jsonmsg_parser p;
    /* messages without separators, a last one without "\r\n", non-objects ignored */
    byoc_jsonmsg_init(&p, on_msg, &s);
    const char *t = "{\"stream\":\"a\"}{\"stream\":\"b\"} [1,2]\n\"str\"\n{\"stream\":\"c\"}";
    CHECK_INT(byoc_jsonmsg_feed(&p, t, strlen(t)), 0);
    CHECK_INT(byoc_jsonmsg_finish(&p), 0);
    CHECK_STR(s.log.data, "[stream=a;][stream=b;][stream=c;]");
    byoc_jsonmsg_clear(&p);

    /* malformed */
    byoc_jsonmsg_init(&p, on_msg, &s);
    CHECK_INT(byoc_jsonmsg_feed(&p, "{\"stream\": nope}\r\n", 18), -1);
    CHECK(strstr(p.error, "malformed") != NULL);
    byoc_jsonmsg_clear(&p);

    /* truncated at the end */
    byoc_jsonmsg_init(&p, on_msg, &s);
    CHECK_INT(byoc_jsonmsg_feed(&p, "{\"stream\":\"x", 12), 0);
    CHECK_INT(byoc_jsonmsg_finish(&p), -1);
    byoc_jsonmsg_clear(&p);

    /* a message over the limit without a newline is refused */
    byoc_jsonmsg_init(&p, on_msg, &s);
    char *big = malloc(BYOC_JSONMSG_MAX + 16);
    memset(big, ' ', BYOC_JSONMSG_MAX + 16);
    big[0] = '{';
    CHECK_INT(byoc_jsonmsg_feed(&p, big, BYOC_JSONMSG_MAX + 16), -1);
    free(big);
    byoc_jsonmsg_clear(&p);
    byoc_buf_clear(&s.log);
}

/* ---- frames ---- */

typedef struct {
    byoc_buf out, err;
} demux;

static int on_frame(int stream, const char *p, size_t n, void *ud)
{
    demux *d = ud;
    byoc_buf_append(stream == BYOC_STREAM_STDERR ? &d->err : &d->out, p, n);
    return 0;
}

static size_t frame(char *dst, int stream, const char *payload, size_t n)
{
    dst[0] = (char)stream;
    dst[1] = dst[2] = dst[3] = 0;
    dst[4] = (char)((n >> 24) & 0xff);
    dst[5] = (char)((n >> 16) & 0xff);
    dst[6] = (char)((n >> 8) & 0xff);
    dst[7] = (char)(n & 0xff);
    memcpy(dst + 8, payload, n);
    return n + 8;
}

static void test_frames(void)
{
    char stream[1024];
    size_t n = 0;
    n += frame(stream + n, 1, "hello\n", 6);
    n += frame(stream + n, 2, "oops: ", 6);
    n += frame(stream + n, 1, "", 0);
    n += frame(stream + n, 2, "error\n", 6);
    char big[300];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    n += frame(stream + n, 1, big, sizeof big);
    n += frame(stream + n, 1, "\0\x01\xff", 3);
    byoc_buf want_out = BYOC_BUF_INIT;
    byoc_buf_append(&want_out, "hello\n", 6);
    byoc_buf_append(&want_out, big, sizeof big);
    byoc_buf_append(&want_out, "\0\x01\xff", 3);
    int bad = 0;
    for (size_t a = 0; a <= n; a++) {
        for (size_t b = a; b <= n; b += (b < a + 20 ? 1 : 37)) {
            demux d = {BYOC_BUF_INIT, BYOC_BUF_INIT};
            byoc_buf_puts(&d.out, "");
            byoc_buf_puts(&d.err, "");
            byoc_frames f;
            byoc_frames_init(&f, false, on_frame, &d);
            int rc = byoc_frames_feed(&f, stream, a);
            rc |= byoc_frames_feed(&f, stream + a, b - a);
            rc |= byoc_frames_feed(&f, stream + b, n - b);
            bool ok = rc == 0 && byoc_frames_complete(&f) && d.out.len == want_out.len &&
                      memcmp(d.out.data, want_out.data, want_out.len) == 0 && strcmp(d.err.data, "oops: error\n") == 0;
            if (!ok && bad++ < 3)
                check_fail(__FILE__, __LINE__, "frames split at %zu,%zu", a, b);
            else if (ok)
                check_passed++;
            byoc_buf_clear(&d.out);
            byoc_buf_clear(&d.err);
        }
    }
    /* incomplete input is detected */
    byoc_frames f;
    demux d = {BYOC_BUF_INIT, BYOC_BUF_INIT};
    byoc_frames_init(&f, false, on_frame, &d);
    CHECK_INT(byoc_frames_feed(&f, stream, 5), 0);
    CHECK(!byoc_frames_complete(&f));
    CHECK_INT(byoc_frames_feed(&f, stream + 5, 5), 0);
    CHECK(!byoc_frames_complete(&f));
    /* a malformed header */
    byoc_frames_init(&f, false, on_frame, &d);
    CHECK_INT(byoc_frames_feed(&f, "\x07\0\0\0\0\0\0\x01x", 9), -1);
    CHECK(strstr(f.error, "malformed") != NULL);
    /* a TTY stream is raw */
    byoc_frames_init(&f, true, on_frame, &d);
    byoc_buf_reset(&d.out);
    CHECK_INT(byoc_frames_feed(&f, "\x01\0raw", 5), 0);
    CHECK_INT(d.out.len, 5);
    byoc_buf_clear(&d.out);
    byoc_buf_clear(&d.err);
    byoc_buf_clear(&want_out);
}

/* ---- lines ---- */

static void on_line(const char *line, size_t len, void *ud)
{
    byoc_buf *b = ud;
    byoc_buf_append(b, "<", 1);
    byoc_buf_append(b, line, len);
    byoc_buf_append(b, ">", 1);
}

static void test_lines(void)
{
    const char *text = "one\r\ntwo\n\nthree-is-long\nfour";
    const char *want = "<one><two><><three-is><-long><four>";
    size_t n = strlen(text);
    for (size_t cut = 0; cut <= n; cut++) {
        byoc_buf got = BYOC_BUF_INIT;
        byoc_buf_puts(&got, "");
        byoc_lines l;
        byoc_lines_init(&l, 8, on_line, &got);
        byoc_lines_feed(&l, text, cut);
        byoc_lines_feed(&l, text + cut, n - cut);
        byoc_lines_flush(&l);
        CHECK_STR(got.data, want);
        byoc_lines_clear(&l);
        byoc_buf_clear(&got);
    }
}

static void test_steps(void)
{
    int n = 0, m = 0;
    CHECK(byoc_build_parse_step("Step 3/9 : RUN make", &n, &m));
    CHECK_INT(n, 3);
    CHECK_INT(m, 9);
    CHECK(!byoc_build_parse_step(" ---> Running in 1234", &n, &m));
    CHECK(!byoc_build_parse_step("Step 10/9 : X", &n, &m));
    CHECK(!byoc_build_parse_step("Step 1/2", &n, &m));
}

int main(void)
{
    test_jsonmsg_splits();
    test_jsonmsg_edges();
    test_frames();
    test_lines();
    test_steps();
    return check_done();
}
