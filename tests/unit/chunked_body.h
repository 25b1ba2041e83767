/* chunked_body: an aws-chunked request body for tests. The reader frames `data` in chunks of
 * `chunk` bytes, each signed from the seed signature that the request's on_signed hook hands it,
 * then the final empty chunk. Use:
 *   chunked_body cb = {.data = d, .len = n, .chunk = 65536};
 *   call.body_reader = chunked_body_read; call.body_ud = &cb; call.on_signed = chunked_body_signed;
 *   ... chunked_body_free(&cb); */
#ifndef BYOC_TEST_CHUNKED_BODY_H
#define BYOC_TEST_CHUNKED_BODY_H

#include <stdbool.h>
#include <stddef.h>
#include "aws/sigv4.h"
#include "core/buf.h"

typedef struct {
    const char *data;
    size_t len, chunk, data_off, out_off;
    bool final_sent;
    byoc_sigv4_chunker ck;
    byoc_buf out;
} chunked_body;

void chunked_body_signed(void *ud, const byoc_sigv4_params *p, const byoc_sigv4_result *r);
size_t chunked_body_read(char *dst, size_t n, void *ud);
void chunked_body_free(chunked_body *cb);

#endif
