/* frames: the Engine's multiplexed stdout/stderr stream (container logs and
 * attach when the container has no TTY).
 *
 * Each frame is an 8-byte header [stream, 0, 0, 0, size as uint32 big-endian]
 * followed by size bytes of payload; stream 0 stdin, 1 stdout, 2 stderr
 * (3 is the engine's own error stream). Frames are split across reads at
 * any byte; the parser keeps only the partial header, never the payload,
 * which it passes on as it arrives. With a TTY the stream is raw: every byte
 * is stdout. */
#ifndef BYOC_DOCKER_FRAMES_H
#define BYOC_DOCKER_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { BYOC_STREAM_STDIN = 0, BYOC_STREAM_STDOUT = 1, BYOC_STREAM_STDERR = 2, BYOC_STREAM_SYSERR = 3 };

/* A piece of a frame's payload (a frame may come in several pieces). Return non-zero to stop. */
typedef int (*byoc_frame_fn)(int stream, const char *p, size_t n, void *ud);

typedef struct byoc_frames {
    unsigned char hdr[8];
    size_t hdr_len;
    uint32_t remaining;   /* payload bytes left in the current frame */
    int stream;
    bool raw;
    byoc_frame_fn fn;
    void *ud;
    char error[96];
} byoc_frames;

void byoc_frames_init(byoc_frames *f, bool tty, byoc_frame_fn fn, void *ud);
/* Returns 0; -1 on a malformed header (f->error); or the callback's non-zero value. */
int byoc_frames_feed(byoc_frames *f, const char *p, size_t n);
/* True when the input so far ended exactly at a frame boundary. */
bool byoc_frames_complete(const byoc_frames *f);

#endif
