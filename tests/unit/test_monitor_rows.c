/* The Monitor's compact rows (byoc/jobs_rows.h): copies that outlive their
 * source, interned repeated values, growth past many thousands of rows,
 * swap/append; the ARN -> instance map; and the log view's search counts
 * ("/step 3 of 9"), kept up to date as lines come and the ring drops the
 * oldest instead of scanning the ring every frame. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byoc/jobs_rows.h"
#include "check.h"
#include "job_status.h"
#include "logview.h"

static void test_rows(void)
{
    byoc_job_rows r;
    byoc_job_rows_init(&r);
    for (int i = 0; i < 20000; i++) {
        char arn[96], name[32];
        snprintf(arn, sizeof arn, "arn:aws:braket:us-east-1:123456789012:job/%08d", i);
        snprintf(name, sizeof name, "job-%d", i);
        char status[16];
        snprintf(status, sizeof status, "%s", i % 2 ? "COMPLETED" : "RUNNING");
        byoc_job_row src = {.arn = arn, .name = name, .status = status, .device = "amazon/sv1",
                           .instance = i % 3 ? "ml.m5.large" : NULL, .created = i, .started = NAN,
                           .ended = NAN};
        byoc_job_rows_add(&r, &src);
        memset(arn, 'x', 10);           /* the row has its own copy */
        memset(status, 0, sizeof status);
    }
    CHECK_INT(r.n, 20000);
    CHECK_STR(r.items[12345].arn, "arn:aws:braket:us-east-1:123456789012:job/00012345");
    CHECK_STR(r.items[12345].name, "job-12345");
    CHECK_STR(r.items[1].status, "COMPLETED");
    CHECK_STR(r.items[0].instance, "");           /* NULL becomes "" */
    CHECK_STR(r.items[0].failure, "");
    CHECK(r.items[1].status == r.items[3].status); /* interned: one copy */
    CHECK(r.items[1].instance == r.items[2].instance);
    CHECK(r.items[5].created == 5.0 && isnan(r.items[5].started));

    byoc_job_rows more, empty;
    byoc_job_rows_init(&more);
    byoc_job_rows_init(&empty);
    byoc_job_row extra = {.arn = "local:job/x", .name = "x", .status = "FAILED", .local = true};
    byoc_job_rows_add(&more, &extra);
    byoc_job_rows_append(&r, &more);
    CHECK_INT(r.n, 20001);
    byoc_job_rows_clear(&more);
    CHECK_STR(r.items[20000].arn, "local:job/x");  /* copied, not borrowed */
    CHECK(r.items[20000].local);
    byoc_job_rows_swap(&r, &empty);
    CHECK_INT(r.n, 0);
    CHECK_INT(empty.n, 20001);
    byoc_job_rows_clear(&empty);
    byoc_job_rows_clear(&r);

    /* move: into an empty set it takes the rows over; into a filled one it copies them */
    byoc_job_rows a, b;
    byoc_job_rows_init(&a);
    byoc_job_rows_init(&b);
    byoc_job_rows_add(&b, &extra);
    byoc_job_rows_move(&a, &b);
    CHECK_INT(a.n, 1);
    CHECK_INT(b.n, 0);
    byoc_job_row other = {.arn = "local:job/y", .name = "y", .status = "RUNNING", .local = true};
    byoc_job_rows_add(&b, &other);
    byoc_job_rows_move(&a, &b);
    CHECK_INT(a.n, 2);
    CHECK_INT(b.n, 0);
    CHECK_STR(a.items[0].arn, "local:job/x");
    CHECK_STR(a.items[1].arn, "local:job/y");
    byoc_job_rows_clear(&b);
    byoc_job_rows_clear(&a);
}

static void test_known(void)
{
    byoc_job_known k;
    byoc_job_known_init(&k);
    CHECK(byoc_job_known_get(&k, "a") == NULL);
    for (int i = 0; i < 5000; i++) {
        char arn[32];
        snprintf(arn, sizeof arn, "arn-%d", i);
        byoc_job_known_put(&k, arn, i % 2 ? "ml.m5.large x2" : "ml.c5.xlarge");
    }
    CHECK_INT(k.n, 5000);
    CHECK_STR(byoc_job_known_get(&k, "arn-4999"), "ml.m5.large x2");
    CHECK_STR(byoc_job_known_get(&k, "arn-0"), "ml.c5.xlarge");
    byoc_job_known_put(&k, "arn-0", "ml.p3.2xlarge");
    CHECK_INT(k.n, 5000);
    CHECK_STR(byoc_job_known_get(&k, "arn-0"), "ml.p3.2xlarge");
    CHECK(byoc_job_known_get(&k, "arn-5000") == NULL);
    byoc_job_known_clear(&k);
}

static void status(tui_logview *v, char *buf, size_t size)
{
    tui_logview_status(v, buf, size);
}

static void test_search_counts(void)
{
    tui_logview v;
    tui_logview_init(&v, 10, 100000);
    for (int i = 0; i < 10; i++) {
        char line[32];
        snprintf(line, sizeof line, "%s %d", i % 3 == 0 ? "STEP" : "other", i);   /* steps: 0 3 6 9 */
        tui_logview_append(&v, line, 0);
    }
    char buf[256];
    CHECK(tui_logview_search(&v, "step"));
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 1 of 4") != NULL);
    CHECK(tui_logview_next_match(&v, 1));
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 2 of 4") != NULL);
    CHECK(tui_logview_next_match(&v, -1));
    CHECK(tui_logview_next_match(&v, -1));          /* wraps to the last */
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 4 of 4") != NULL);
    CHECK_INT(v.match, 9);
    /* two new lines push out "STEP 0" and "other 1": one match fewer, the current one ranks one lower */
    tui_logview_append(&v, "step 10", 0);
    tui_logview_append(&v, "nothing", 0);
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 3 of 4") != NULL);
    CHECK(strstr(buf, "(2 dropped)") != NULL);
    CHECK(tui_logview_next_match(&v, 1));
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 4 of 4") != NULL);
    CHECK(tui_logview_next_match(&v, 1));           /* wraps to the first */
    status(&v, buf, sizeof buf);
    CHECK(strstr(buf, "/step 1 of 4") != NULL);
    tui_logview_clear(&v);
}

/* An empty table says why: no jobs at all, or a status filter that hides them. */
static void test_empty_text(void)
{
    char buf[128];
    tui_mon_empty_text(0, "all", buf, sizeof buf);
    CHECK_STR(buf, "No jobs yet: Run creates one");
    tui_mon_empty_text(3, "CANCELLED", buf, sizeof buf);
    CHECK(strstr(buf, "No jobs yet") == NULL);
    CHECK(strstr(buf, "CANCELLED") && strstr(buf, "hides all 3") && strstr(buf, "f cycles"));
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
    test_rows();
    test_known();
    test_search_counts();
    test_empty_text();
    return check_done();
}
