/* chart: series to rows of characters, UTF-8 blocks and ASCII. */
#include <math.h>
#include <string.h>

#include "chart.h"
#include "check.h"

int main(void)
{
    tui_chart c;
    double ys[] = {0, 1, 2, 3};
    CHECK_INT(tui_chart_render(&c, NULL, ys, 4, 4, 2, false), 0);
    CHECK_INT((int)c.used, 4);
    /* top row: the two upper values end in it, as '*' */
    CHECK_STR(c.rows[0], "  **");
    /* bottom row: the low values as '*' on their row, the higher ones as '|' below their mark */
    CHECK_STR(c.rows[1], "**||");
    CHECK(c.ymin == 0 && c.ymax == 3);
    tui_chart_free(&c);

    /* UTF-8: the lowest value is a sliver, the highest a full block up to the top */
    CHECK_INT(tui_chart_render(&c, NULL, ys, 4, 4, 1, true), 0);
    CHECK(strncmp(c.rows[0], "\u2581", 3) == 0);
    CHECK(strcmp(c.rows[0] + strlen(c.rows[0]) - 3, "\u2588") == 0);
    tui_chart_free(&c);

    /* by x: points go to their column; columns no point reached stay blank; NaN is skipped */
    double xs[] = {0, 10, NAN};
    double v[] = {5, 5, 7};
    CHECK_INT(tui_chart_render(&c, xs, v, 3, 11, 1, false), 0);
    CHECK_INT((int)c.used, 2);
    CHECK_STR(c.rows[0], "*         *");   /* flat: mid-height, still shown */
    tui_chart_free(&c);

    /* more points than columns: the last value of a column wins */
    double many[] = {0, 9, 0, 9, 9, 0};
    CHECK_INT(tui_chart_render(&c, NULL, many, 6, 2, 1, false), 0);
    CHECK(c.rows[0][0] == '*' && c.rows[0][1] == '*');
    tui_chart_free(&c);

    /* nothing to draw, and a bad size */
    CHECK_INT(tui_chart_render(&c, NULL, ys, 0, 3, 1, true), 0);
    CHECK_STR(c.rows[0], "   ");
    tui_chart_free(&c);
    CHECK_INT(tui_chart_render(&c, NULL, ys, 4, 0, 1, true), -1);
    tui_chart_free(&c);

    char buf[64];
    tui_chart_label(0.5, 12, 3.25, buf, sizeof buf);
    CHECK_STR(buf, "min 0.5  max 12  last 3.25");
    return check_done();
}
