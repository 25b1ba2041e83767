#include "core/str.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/buf.h"

char *byoc_xstrdup_opt(const char *s) { return s ? byoc_xstrdup(s) : NULL; }

void byoc_str_set(char **field, const char *value)
{
    char *copy = byoc_xstrdup_opt(value);   /* before the free: value may point into *field */
    free(*field);
    *field = copy;
}

char *byoc_fmt_bytes(int64_t n, char *buf, size_t size)
{
    static const char *units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (n < 0) {
        snprintf(buf, size, "-");
        return buf;
    }
    if (n < 1024) {
        snprintf(buf, size, "%lld B", (long long)n);
        return buf;
    }
    double v = (double)n / 1024.0;
    size_t u = 0;
    while (v >= 1023.95 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, size, "%.1f %s", v, units[u]);
    return buf;
}

uint64_t byoc_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}
