/* fuzz_jsonmsg: the Engine's JSON message stream (docker/jsonmsg.h) as build
 * and push deliver it, in chunks of any size, and the "Step N/M" lines of the
 * classic builder inside it.
 * Input: one byte picks the chunk size (1-64, or all at once), the rest is the body. */
#include "docker/build.h"
#include "docker/jsonmsg.h"
#include "fuzz.h"

typedef struct seen {
    uint64_t messages;
    size_t text;
} seen;

static int on_message(const byoc_jsonmsg *m, void *ud)
{
    seen *s = ud;
    s->messages++;
    FUZZ_ASSERT(m->raw != NULL);
    if (m->stream) {
        s->text += strlen(m->stream);
        int n = 0, total = 0;
        if (byoc_build_parse_step(m->stream, &n, &total))
            FUZZ_ASSERT(n >= 0 && total >= 0);
    }
    if (m->status)
        s->text += strlen(m->status);
    if (m->error)
        s->text += strlen(m->error);
    if (m->progress)
        s->text += strlen(m->progress);
    if (m->id)
        s->text += strlen(m->id);
    return 0;
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
    size_t chunk = pick == 0 ? (in.n ? in.n : 1) : 1 + pick % 64;
    seen s = {0, 0};
    byoc_jsonmsg_parser p;
    byoc_jsonmsg_init(&p, on_message, &s);
    int rc = 0;
    while (in.n > 0 && rc == 0) {
        size_t take = chunk < in.n ? chunk : in.n;
        rc = byoc_jsonmsg_feed(&p, (const char *)in.p, take);
        in.p += take;
        in.n -= take;
    }
    if (rc == 0)
        rc = byoc_jsonmsg_finish(&p);
    if (rc != 0)
        FUZZ_ASSERT(rc == -1 && p.error[0]);
    FUZZ_ASSERT(p.count == s.messages);
    byoc_jsonmsg_clear(&p);
    return 0;
}
