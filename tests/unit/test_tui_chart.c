/* chart: a series rendered into a grid of cells: the line in braille and in
 * ASCII, the y labels (max, middle, min), the x ticks (time since the first
 * point, or iterations), one point, a flat series, non-finite and huge
 * values, thousands of points; and the compact numbers and durations. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "check.h"
#include "text.h"

/* Every row is exactly the grid's width in columns. */
static void check_widths(const tui_chart *c)
{
    for (int r = 0; r < c->height; r++)
        CHECK_INT(tui_text_width(c->rows[r]), c->width);
}

static void test_ascii_line(void)
{
    tui_chart c;
    /* five points 30 s apart, falling then flat */
    double xs[] = {1700000000, 1700000030, 1700000060, 1700000090, 1700000120};
    double ys[] = {0.9, 0.5, 0.2, 0.25, 0.21};
    CHECK_INT(tui_chart_render(&c, xs, ys, 5, 40, 8, false, TUI_CHART_X_TIME), 0);
    CHECK_INT((int)c.used, 5);
    CHECK_INT((int)c.skipped, 0);
    CHECK_INT(c.plot_x, 5);
    CHECK_INT(c.plot_h, 6);
    CHECK_STR(c.rows[0], " 0.9+'-.                                ");
    CHECK_STR(c.rows[1], "    |   '-.                             ");
    CHECK_STR(c.rows[2], "0.55+     '-.                           ");
    CHECK_STR(c.rows[5], " 0.2+               '-.....--------.....");
    CHECK_STR(c.rows[6], "    ++----------------+----------------+");
    CHECK_STR(c.rows[7], "     0s              1m               2m");
    check_widths(&c);
    tui_chart_clear(&c);
}

static void test_braille_line(void)
{
    tui_chart c;
    double xs[] = {1700000000, 1700000030, 1700000060, 1700000090, 1700000120};
    double ys[] = {0.9, 0.5, 0.2, 0.25, 0.21};
    CHECK_INT(tui_chart_render(&c, xs, ys, 5, 40, 8, true, TUI_CHART_X_TIME), 0);
    /* the first point is the top-left dot of the first cell (U+2801 + the line's next dots) */
    CHECK_STR(c.rows[0], " 0.9\u2524\u2811\u2824\u2840                                ");
    CHECK(strncmp(c.rows[2], "0.55\u2524", 7) == 0);
    CHECK(strncmp(c.rows[1], "    \u2502", 7) == 0);
    CHECK(strncmp(c.rows[6], "    \u2514\u252C\u2500", 13) == 0);
    CHECK_STR(c.rows[7], "     0s              1m               2m");
    /* the last point is the bottom-right dot region's cell: braille, and the row ends there */
    const char *last = c.rows[5] + strlen(c.rows[5]) - 3;
    CHECK((unsigned char)last[0] == 0xE2 && ((unsigned char)last[1] & 0xFC) == 0xA0);
    /* every plot cell is a space or a braille character */
    for (int r = 0; r < c.plot_h; r++) {
        const char *p = tui_text_skip_cols(c.rows[r], c.plot_x, NULL);
        while (*p) {
            bool braille = (unsigned char)p[0] == 0xE2 && ((unsigned char)p[1] & 0xFC) == 0xA0;
            CHECK(*p == ' ' || braille);
            p += braille ? 3 : 1;
        }
    }
    check_widths(&c);
    tui_chart_clear(&c);
}

static void test_iterations(void)
{
    tui_chart c;
    double it[] = {1, 2, 3};
    double v[] = {0.9, 0.5, 0.2};
    CHECK_INT(tui_chart_render(&c, it, v, 3, 60, 10, false, TUI_CHART_X_ITERATION), 0);
    /* whole iterations get whole ticks: 1 2 3, not 1 1.5 2 2.5 3 */
    CHECK_STR(c.rows[9], "     1                          2                          3");
    CHECK_STR(c.rows[8], "    ++--------------------------+--------------------------+");
    tui_chart_clear(&c);

    /* big iteration numbers keep the digits that tell ticks apart */
    double big[] = {100000, 100010};
    double w[] = {1, 2};
    CHECK_INT(tui_chart_render(&c, big, w, 2, 40, 5, false, TUI_CHART_X_ITERATION), 0);
    CHECK(strstr(c.rows[4], "100,000") != NULL);
    CHECK(strstr(c.rows[4], "100,010") != NULL);
    tui_chart_clear(&c);
}

static void test_one_point_and_flat(void)
{
    tui_chart c;
    double one[] = {5};
    CHECK_INT(tui_chart_render(&c, NULL, one, 1, 20, 5, false, TUI_CHART_X_ITERATION), 0);
    CHECK_INT((int)c.used, 1);
    /* one label (the value), the point at mid-height next to the axis */
    CHECK_STR(c.rows[0], " |                  ");
    CHECK_STR(c.rows[1], "5+-                 ");
    CHECK_STR(c.rows[2], " |                  ");
    CHECK_STR(c.rows[4], "  0                 ");
    tui_chart_clear(&c);

    double flat[] = {2, 2, 2, 2};
    CHECK_INT(tui_chart_render(&c, NULL, flat, 4, 20, 5, false, TUI_CHART_X_ITERATION), 0);
    CHECK_STR(c.rows[1], "2+------------------");
    CHECK(c.ymin == 2 && c.ymax == 2);
    tui_chart_clear(&c);

    /* one point by time: the tick says 0s */
    double t[] = {1700000000};
    CHECK_INT(tui_chart_render(&c, t, one, 1, 20, 5, true, TUI_CHART_X_TIME), 0);
    CHECK_STR(c.rows[4], "  0s                ");
    CHECK(strstr(c.rows[1], "5\u2524") == c.rows[1]);
    tui_chart_clear(&c);
}

static void test_hostile_values(void)
{
    tui_chart c;
    /* NaN and infinities are skipped and counted; huge finite values scale without overflow */
    double huge[] = {-1e308, 1e308, NAN, INFINITY, -INFINITY};
    CHECK_INT(tui_chart_render(&c, NULL, huge, 5, 30, 5, false, TUI_CHART_X_ITERATION), 0);
    CHECK_INT((int)c.used, 2);
    CHECK_INT((int)c.skipped, 3);
    CHECK_STR(c.rows[0], " 1e308+                ..---''");
    CHECK_STR(c.rows[1], "     0+       ...---'''       ");
    CHECK_STR(c.rows[2], "-1e308+..---''                ");
    check_widths(&c);
    tui_chart_clear(&c);

    /* a NaN x is skipped too */
    double xs[] = {0, NAN, 10};
    double ys[] = {1, 2, 3};
    CHECK_INT(tui_chart_render(&c, xs, ys, 3, 20, 4, true, TUI_CHART_X_ITERATION), 0);
    CHECK_INT((int)c.used, 2);
    CHECK_INT((int)c.skipped, 1);
    tui_chart_clear(&c);

    /* nothing finite: blank rows, still the full size */
    double nan_only[] = {NAN, NAN};
    CHECK_INT(tui_chart_render(&c, NULL, nan_only, 2, 15, 3, true, TUI_CHART_X_TIME), 0);
    CHECK_INT((int)c.used, 0);
    CHECK_INT((int)c.skipped, 2);
    CHECK_STR(c.rows[0], "               ");
    tui_chart_clear(&c);

    /* too small or absurd grids are refused */
    CHECK_INT(tui_chart_render(&c, NULL, ys, 3, TUI_CHART_MIN_WIDTH - 1, 5, true, TUI_CHART_X_TIME), -1);
    tui_chart_clear(&c);
    CHECK_INT(tui_chart_render(&c, NULL, ys, 3, 40, TUI_CHART_MIN_HEIGHT - 1, true, TUI_CHART_X_TIME), -1);
    tui_chart_clear(&c);
    CHECK_INT(tui_chart_render(&c, NULL, ys, 3, 1 << 20, 10, true, TUI_CHART_X_TIME), -1);
    tui_chart_clear(&c);
}

static void test_many_points(void)
{
    enum { N = 5000 };
    double *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
    for (int i = 0; i < N; i++) {
        xs[i] = 1700000000 + i * 2.5;
        ys[i] = sin(i / 300.0) * 1000 + i;
    }
    tui_chart c;
    for (int utf8 = 0; utf8 <= 1; utf8++) {
        CHECK_INT(tui_chart_render(&c, xs, ys, N, 78, 17, utf8, TUI_CHART_X_TIME), 0);
        CHECK_INT((int)c.used, N);
        check_widths(&c);
        /* 0 to 5,286 with the middle between; ticks every 30 minutes over 3.5 hours */
        CHECK(strncmp(c.rows[0], "5,286", 5) == 0);
        CHECK(strncmp(c.rows[c.plot_h - 1], "    0", 5) == 0);
        CHECK(strncmp(c.rows[c.height - 1], "      0s       30m       1h        1h30m      2h", 48) == 0);
        tui_chart_clear(&c);
    }
    /* out of x order: drawn in x order, so the same grid */
    tui_chart d;
    CHECK_INT(tui_chart_render(&c, xs, ys, N, 60, 10, true, TUI_CHART_X_TIME), 0);
    for (int i = 0; i < N / 2; i++) {
        double t = xs[i];
        xs[i] = xs[N - 1 - i];
        xs[N - 1 - i] = t;
        t = ys[i];
        ys[i] = ys[N - 1 - i];
        ys[N - 1 - i] = t;
    }
    CHECK_INT(tui_chart_render(&d, xs, ys, N, 60, 10, true, TUI_CHART_X_TIME), 0);
    for (int r = 0; r < c.height; r++)
        CHECK_STR(d.rows[r], c.rows[r]);
    tui_chart_clear(&c);
    tui_chart_clear(&d);
    free(xs);
    free(ys);
}

static void test_close_values(void)
{
    /* three labels that 3 digits would not tell apart get more digits */
    tui_chart c;
    double ys[] = {1.0001, 1.0003};
    CHECK_INT(tui_chart_render(&c, NULL, ys, 2, 30, 7, false, TUI_CHART_X_ITERATION), 0);
    CHECK(strncmp(c.rows[0], "1.0003+", 7) == 0);
    CHECK(strncmp(c.rows[c.plot_h - 1], "1.0001+", 7) == 0);
    tui_chart_clear(&c);
}

static void test_numbers(void)
{
    char b[64];
#define NUM(v, sig, want)                                                                                      \
    do {                                                                                                       \
        tui_chart_number(v, sig, b, sizeof b);                                                                 \
        CHECK_STR(b, want);                                                                                    \
    } while (0)
    NUM(0, 3, "0");
    NUM(0.0012, 3, "1.2e-3");
    NUM(0.5, 3, "0.5");
    NUM(0.01, 3, "0.01");
    NUM(12.345, 3, "12.3");
    NUM(1234, 3, "1,234");
    NUM(999.96, 3, "1,000");
    NUM(100000.5, 3, "100,000");
    NUM(1234567, 3, "1.23e6");
    NUM(-3.25, 3, "-3.25");
    NUM(1e-300, 3, "1e-300");
    NUM(-1e308, 3, "-1e308");
    NUM(NAN, 3, "nan");
    NUM(-INFINITY, 3, "-inf");
#undef NUM
    double ds[] = {0, 0.5, 30, 59.7, 60, 90, 3599.9, 3600, 3900, 86400 * 3 + 3600 * 4, 1e300};
    const char *want[] = {"0s", "0.5s", "30s", "1m", "1m", "1m30s", "1h", "1h", "1h5m", "3d4h", "1.16e295d"};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        tui_chart_duration(ds[i], b, sizeof b);
        CHECK_STR(b, want[i]);
    }
    char buf[64];
    tui_chart_label(0.5, 12, 3.25, buf, sizeof buf);
    CHECK_STR(buf, "min 0.5  max 12  last 3.25");
    tui_chart_label(INFINITY, -INFINITY, NAN, buf, sizeof buf);
    CHECK_STR(buf, "min -  max -  last nan");
}

int main(void)
{
    test_ascii_line();
    test_braille_line();
    test_iterations();
    test_one_point_and_flat();
    test_hostile_values();
    test_many_points();
    test_close_values();
    test_numbers();
    return check_done();
}
