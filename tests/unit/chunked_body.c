#include "chunked_body.h"
#include <string.h>

void chunked_body_signed(void *ud, const byoc_sigv4_params *p, const byoc_sigv4_result *r)
{
    chunked_body *cb = ud;
    byoc_err err;
    byoc_sigv4_chunker_init(&cb->ck, p, r, &err);
}

size_t chunked_body_read(char *dst, size_t n, void *ud)
{
    chunked_body *cb = ud;
    if (cb->out_off == cb->out.len) {
        byoc_buf_reset(&cb->out);
        cb->out_off = 0;
        if (cb->data_off < cb->len) {
            size_t take = cb->len - cb->data_off < cb->chunk ? cb->len - cb->data_off : cb->chunk;
            byoc_sigv4_chunk_frame(&cb->ck, cb->data + cb->data_off, take, &cb->out);
            cb->data_off += take;
        } else if (!cb->final_sent) {
            byoc_sigv4_chunk_frame(&cb->ck, "", 0, &cb->out);
            cb->final_sent = true;
        } else {
            return 0;
        }
    }
    size_t left = cb->out.len - cb->out_off;
    size_t take = left < n ? left : n;
    memcpy(dst, cb->out.data + cb->out_off, take);
    cb->out_off += take;
    return take;
}

void chunked_body_free(chunked_body *cb)
{
    byoc_sigv4_chunker_clear(&cb->ck);
    byoc_buf_clear(&cb->out);
}
