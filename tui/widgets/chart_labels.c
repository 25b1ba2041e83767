/* chart_labels: the chart's numbers and durations, short enough for an axis
 * (chart_labels.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_labels.h"

/* "1.500" -> "1.5", "2.000" -> "2"; leaves text without a '.' alone. */
static void trim_fraction(char *s)
{
    if (!strchr(s, '.'))
        return;
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '0')
        s[--n] = '\0';
    if (n > 0 && s[n - 1] == '.')
        s[--n] = '\0';
}

/* "1234567.5" -> "1,234,567.5" into out. */
static void group_thousands(const char *digits, char *out, size_t size)
{
    const char *dot = strchr(digits, '.');
    size_t int_len = dot ? (size_t)(dot - digits) : strlen(digits);
    size_t o = 0;
    for (size_t i = 0; i < int_len && o + 2 < size; i++) {
        if (i > 0 && (int_len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
    if (dot)
        snprintf(out + o, size - o, "%s", dot);
}

void tui_chart_number(double v, int sig, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (isnan(v)) {
        snprintf(buf, size, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, size, "%sinf", v < 0 ? "-" : "");
        return;
    }
    if (v == 0) {
        snprintf(buf, size, "0");
        return;
    }
    if (sig < 1)
        sig = 1;
    if (sig > 15)
        sig = 15;
    const char *sign = v < 0 ? "-" : "";
    double a = fabs(v);
    /* the exponent after rounding to sig digits: 999.96 at 3 digits is 1.00e+03 */
    char e[48];
    snprintf(e, sizeof e, "%.*e", sig - 1, a);
    char *ep = strchr(e, 'e');
    int exp10 = ep ? atoi(ep + 1) : 0;
    char num[400];
    if (exp10 >= 6 || exp10 < -2) {
        if (ep)
            *ep = '\0';
        trim_fraction(e);
        snprintf(buf, size, "%s%se%d", sign, e, exp10);
        return;
    }
    int decimals = sig - 1 - exp10;
    snprintf(num, sizeof num, "%.*f", decimals > 0 ? decimals : 0, a);
    trim_fraction(num);
    if (exp10 >= 3) {
        char grouped[420];
        group_thousands(num, grouped, sizeof grouped);
        snprintf(buf, size, "%s%s", sign, grouped);
    } else {
        snprintf(buf, size, "%s%s", sign, num);
    }
}

void tui_chart_duration(double seconds, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (!isfinite(seconds)) {
        tui_chart_number(seconds, 3, buf, size);
        return;
    }
    const char *sign = seconds < 0 ? "-" : "";
    double s = fabs(seconds);
    char n[64];
    if (s >= 59.5)
        s = floor(s + 0.5);   /* whole seconds from a minute up, so 3599.9 s is 1h, not 60m */
    if (s < 60) {
        tui_chart_number(s, 3, n, sizeof n);
        snprintf(buf, size, "%s%ss", sign, n);
        return;
    }
    /* two units at most: 1m30s, 1h5m, 3d4h */
    static const struct {
        double unit;
        const char *name;
        double sub;
        const char *sub_name;
    } units[] = {{86400, "d", 3600, "h"}, {3600, "h", 60, "m"}, {60, "m", 1, "s"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (s < units[i].unit)
            continue;
        double whole = floor(s / units[i].unit);
        if (whole >= 1e5) {   /* centuries: a number of days is clearer than digits */
            tui_chart_number(whole, 3, n, sizeof n);
            snprintf(buf, size, "%s%s%s", sign, n, units[i].name);
            return;
        }
        long long w = (long long)whole;
        long long rest = (long long)floor((s - whole * units[i].unit) / units[i].sub + 0.5);
        if (rest * units[i].sub >= units[i].unit) {   /* 59.6 s rounds up to a whole unit */
            w++;
            rest = 0;
        }
        if (rest)
            snprintf(buf, size, "%s%lld%s%lld%s", sign, w, units[i].name, rest, units[i].sub_name);
        else
            snprintf(buf, size, "%s%lld%s", sign, w, units[i].name);
        return;
    }
}

void tui_chart_label(double min, double max, double last, char *buf, size_t size)
{
    char lo[64] = "-", hi[64] = "-", la[64];
    if (min <= max) {
        tui_chart_number(min, 4, lo, sizeof lo);
        tui_chart_number(max, 4, hi, sizeof hi);
    }
    tui_chart_number(last, 4, la, sizeof la);
    snprintf(buf, size, "min %s  max %s  last %s", lo, hi, la);
}
