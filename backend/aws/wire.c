/* Reading and writing the AWS wire formats: form bodies and ISO 8601 times (request.h);
 * XML replies are aws/xml.c. */
#include "aws/request.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"

void byoc_aws_form_add(byoc_buf *b, const char *key, const char *value)
{
    if (b->len)
        byoc_buf_putc(b, '&');
    byoc_sigv4_encode(b, key, strlen(key), false);
    byoc_buf_putc(b, '=');
    byoc_sigv4_encode(b, value, strlen(value), false);
}

int byoc_aws_parse_time(const char *s, time_t *out)
{
    struct tm tm = {0};
    int n = 0;
    if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                     &tm.tm_min, &tm.tm_sec, &n) != 6)
        return -1;
    const char *p = s + n;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++)
            ;
    long offset = 0;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int hh, mm, k = 0;
        if (sscanf(p + 1, "%2d:%2d%n", &hh, &mm, &k) != 2 || k != 5)
            return -1;
        offset = (hh * 3600L + mm * 60L) * (*p == '+' ? 1 : -1);
        p += 6;
    }
    if (*p || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    *out = timegm(&tm) - offset;
    return 0;
}

