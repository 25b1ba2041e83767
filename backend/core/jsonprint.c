#include "core/jsonprint.h"

#include <stdlib.h>

#include "core/utf8.h"

static json_t *printable_string(const char *s)
{
    char *copy = byoc_printable_dup(s);
    json_t *out = json_string(copy); /* printable output is valid UTF-8 */
    free(copy);
    return out ? out : json_string("?");
}

json_t *byoc_json_printable_copy(const json_t *v)
{
    if (!v)
        return NULL;
    if (json_is_string(v))
        return printable_string(json_string_value(v));
    if (json_is_array(v)) {
        json_t *out = json_array();
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
            json_array_append_new(out, byoc_json_printable_copy(e));
        return out;
    }
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *key;
        json_t *e;
        json_object_foreach((json_t *)v, key, e)
        {
            char *k = byoc_printable_dup(key);
            json_object_set_new(out, k, byoc_json_printable_copy(e));
            free(k);
        }
        return out;
    }
    return json_deep_copy(v);
}

const char *byoc_json_text(const json_t *v, const char *fallback)
{
    return json_is_string(v) ? json_string_value(v) : fallback;
}
