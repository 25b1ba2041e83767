#include "core/jsonnum.h"

/* 2^63 exactly, as a double: int64_t holds [-2^63, 2^63). */
#define TWO_POW_63 9223372036854775808.0

bool byoc_json_int64(const json_t *v, int64_t *out)
{
    if (json_is_integer(v)) {
        *out = (int64_t)json_integer_value(v);
        return true;
    }
    if (!json_is_real(v))
        return false;
    double d = json_real_value(v);
    if (!(d >= -TWO_POW_63 && d < TWO_POW_63)) /* also false for NaN */
        return false;
    *out = (int64_t)d;
    return true;
}

int64_t byoc_json_int64_or(const json_t *v, int64_t fallback)
{
    int64_t n;
    return byoc_json_int64(v, &n) ? n : fallback;
}
