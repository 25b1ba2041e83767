#include "cli_json.h"

#include <string.h>

#include "core/jsonout.h"

/* A value is dumped by jansson as if at the top (it has no starting depth), so
 * every line break it writes gets the spaces of the value's depth. Strings
 * never hold a raw newline (jansson escapes it). */
typedef struct indented {
    byoc_buf *b;
    const char *pad;
} indented;

static int put_indented(const char *p, size_t n, void *ud)
{
    indented *in = ud;
    const char *nl;
    while ((nl = memchr(p, '\n', n)) != NULL) {
        size_t k = (size_t)(nl - p) + 1;
        byoc_buf_append(in->b, p, k);
        byoc_buf_puts(in->b, in->pad);
        p += k;
        n -= k;
    }
    byoc_buf_append(in->b, p, n);
    return 0;
}

static void put_nested(byoc_buf *b, const json_t *v, const char *pad)
{
    indented in = {b, pad};
    byoc_json_dump_callback(v, put_indented, &in, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
}

/* A scalar as byoc_cli_print_json writes it (core/jsonout: reals shortest), straight into b. */
static void put_scalar(byoc_buf *b, const json_t *v)
{
    if (json_is_string(v)) {
        /* byoc_json_dump_callback's bytes without a callback per token: most of a listing's output */
        byoc_json_put_string(b, json_string_value(v), json_string_length(v));
        return;
    }
    if (json_is_real(v)) {
        put_nested(b, v, "");
        return;
    }
    for (size_t room = 64;; room *= 2) {
        byoc_buf_reserve(b, room);
        size_t n = json_dumpb(v, b->data + b->len, room, JSON_ENCODE_ANY);
        if (n <= room) {
            b->len += n;
            b->data[b->len] = '\0';
            return;
        }
    }
}

/* A flat object (every value a scalar) is written here in the layout
 * jansson's JSON_INDENT(2) gives it at depth 2: most listings are made of
 * such items, and jansson's dump hands every token to the callback on its
 * own. Anything else goes through jansson. */
static bool put_flat_object(byoc_buf *b, const json_t *o)
{
    const char *k;
    json_t *v;
    if (!json_is_object(o) || json_object_size(o) == 0)
        return false;
    json_object_foreach((json_t *)o, k, v) {
        if (json_is_object(v) || json_is_array(v))
            return false;
    }
    const char *sep = "{\n      ";
    json_object_foreach((json_t *)o, k, v) {
        byoc_buf_puts(b, sep);
        byoc_json_put_string(b, k, strlen(k));
        byoc_buf_append(b, ": ", 2);
        put_scalar(b, v);
        sep = ",\n      ";
    }
    byoc_buf_puts(b, "\n    }");
    return true;
}

static void put_key(byoc_json_list *l)
{
    byoc_buf_puts(&l->buf, "{\n  ");
    byoc_json_put_string(&l->buf, l->key, strlen(l->key));
}

static void flush(byoc_json_list *l)
{
    if (l->buf.len)
        fwrite(l->buf.data, 1, l->buf.len, l->out);
    fflush(l->out);
    byoc_buf_reset(&l->buf);
}

void byoc_json_list_begin(byoc_json_list *l, FILE *out, const char *key)
{
    l->out = out;
    l->key = key;
    l->n = 0;
    l->buf = (byoc_buf)BYOC_BUF_INIT;
}

void byoc_json_list_add_all(byoc_json_list *l, const json_t *items)
{
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it)
    {
        if (l->n++ == 0) {
            put_key(l);
            byoc_buf_puts(&l->buf, ": [\n    ");
        } else {
            byoc_buf_puts(&l->buf, ",\n    ");
        }
        if (!put_flat_object(&l->buf, it))
            put_nested(&l->buf, it, "    ");
    }
    flush(l);
}

bool byoc_json_list_end(byoc_json_list *l, const json_t *error)
{
    bool wrote = l->n || !error;
    if (!l->n && !error) {
        put_key(l);
        byoc_buf_puts(&l->buf, ": []\n}\n");
    } else if (l->n) {
        byoc_buf_puts(&l->buf, "\n  ]");
        if (error) {
            byoc_buf_puts(&l->buf, ",\n  \"error\": ");
            put_nested(&l->buf, error, "  ");
        }
        byoc_buf_puts(&l->buf, "\n}\n");
    }
    flush(l);
    byoc_buf_clear(&l->buf);
    return wrote;
}
