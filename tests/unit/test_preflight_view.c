/* The TUI's preflight model (tui/steps/run/preflight_model.h): checks taken from the
 * task's CHECK events as byoc/preflight.h documents them, its progress ignored
 * (even a 2-byte one whose text reads like a check), the report reordered failures first on DONE, the
 * summary line in each state, staleness, cancellation, the failed names,
 * and scrolling that stays within the checks. */
#include <stdlib.h>
#include <string.h>

#include "byoc/preflight.h"
#include "check.h"
#include "core/buf.h"
#include "preflight_model.h"

static byoc_event check_event(const char *key, byoc_pf_status st, const char *message, const char *fix)
{
    byoc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = BYOC_EV_CHECK;
    ev.key = (char *)key;
    ev.text = (char *)message;
    ev.detail = (char *)fix;
    ev.current = st;
    return ev;
}

static byoc_event progress(const char *key, int64_t current, int64_t total, const char *text)
{
    byoc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = BYOC_EV_PROGRESS;
    ev.key = (char *)key;
    ev.text = (char *)text;
    ev.current = current;
    ev.total = total;
    return ev;
}

static void report_add(byoc_preflight_report *r, const char *name, byoc_pf_status st, const char *msg,
                       const char *fix, int order)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 8;
        r->items = byoc_xrealloc(r->items, r->cap * sizeof *r->items);
    }
    r->items[r->n++] = (byoc_pf_check){byoc_xstrdup(name), st, byoc_xstrdup(msg), byoc_xstrdup(fix), order};
}

static bool contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

int main(void)
{
    tui_pf_view v;
    tui_pf_view_init(&v);
    char buf[1024];
    CHECK_STR(tui_pf_view_summary(&v, 0, buf, sizeof buf), "Preflight: not run");
    tui_pf_view_mark_stale(&v);
    CHECK(!v.stale);                              /* nothing to be stale */

    tui_pf_view_start(&v, 1000);
    CHECK_INT(v.state, TUI_PF_RUNNING);

    /* checks as preflight posts them; the archive's own progress is not one */
    byoc_event e1 = check_event("credentials", BYOC_PF_PASS, "arn:aws:iam::1:user/me (account 1)", NULL);
    byoc_event e2 = check_event("image.ecr", BYOC_PF_FAIL, "repo:tag is not in ECR",
                                "byoc push IMG --repository repo --create");
    byoc_event e3 = progress("source.tar.gz", 4096, 8192, "algo.py");
    byoc_event e3b = progress("pass.bin", BYOC_PF_FAIL, 2, "fail: a file being packed");
    byoc_event e4 = check_event("permissions.caller", BYOC_PF_WARN, "cannot tell -- fix: a dash",
                                "allow iam:SimulatePrincipalPolicy");
    CHECK(tui_pf_view_is_check(&e1));
    CHECK(tui_pf_view_is_check(&e2));
    CHECK(!tui_pf_view_is_check(&e3));
    CHECK(!tui_pf_view_is_check(&e3b));
    CHECK(!tui_pf_view_event(&v, &e1, 1100));
    CHECK(!tui_pf_view_event(&v, &e2, 1200));
    CHECK(!tui_pf_view_event(&v, &e3, 1250));
    CHECK(!tui_pf_view_event(&v, &e3b, 1260));
    CHECK(!tui_pf_view_event(&v, &e4, 1300));
    CHECK_INT((int)v.n, 3);
    CHECK_STR(v.items[0].name, "credentials");
    CHECK_STR(v.items[0].message, "arn:aws:iam::1:user/me (account 1)");
    CHECK_STR(v.items[0].fix, "");
    CHECK_STR(v.items[1].message, "repo:tag is not in ECR");
    CHECK_STR(v.items[1].fix, "byoc push IMG --repository repo --create");
    CHECK_STR(v.items[2].message, "cannot tell -- fix: a dash");
    CHECK_STR(v.items[2].fix, "allow iam:SimulatePrincipalPolicy");
    CHECK_INT((int)tui_pf_view_count(&v, BYOC_PF_FAIL), 1);
    char *failed = tui_pf_view_failed_names(&v);
    CHECK_STR(failed, "image.ecr");
    free(failed);
    tui_pf_view_summary(&v, 3500, buf, sizeof buf);
    CHECK(contains(buf, "Preflight running (image.ecr): 1 pass, 1 warn, 1 fail, 3 checks so far (2s)"));

    /* DONE: the report replaces what the events said, failures first, then warnings, then passes */
    byoc_preflight_report *r = byoc_xcalloc(1, sizeof *r);
    report_add(r, "spec", BYOC_PF_PASS, "valid", "", 1);
    report_add(r, "credentials", BYOC_PF_PASS, "arn:aws:iam::1:user/me (account 1)", "", 2);
    report_add(r, "image.ecr", BYOC_PF_FAIL, "repo:tag is not in ECR", "byoc push ...", 101);
    report_add(r, "contract.program", BYOC_PF_FAIL, "SAGEMAKER_PROGRAM is not set", "add ENV ...", 201);
    report_add(r, "permissions.caller", BYOC_PF_WARN, "cannot tell", "allow ...", 403);
    byoc_event done;
    memset(&done, 0, sizeof done);
    done.kind = BYOC_EV_DONE;
    done.result = r;
    CHECK(tui_pf_view_event(&v, &done, 4000));
    CHECK_INT(v.state, TUI_PF_DONE);
    CHECK_INT((int)v.n, 5);
    CHECK_STR(v.items[0].name, "image.ecr");
    CHECK_STR(v.items[1].name, "contract.program");
    CHECK_STR(v.items[2].name, "permissions.caller");
    CHECK_STR(v.items[3].name, "spec");
    CHECK_STR(v.items[4].name, "credentials");
    failed = tui_pf_view_failed_names(&v);
    CHECK_STR(failed, "image.ecr, contract.program");
    free(failed);
    tui_pf_view_summary(&v, 9000, buf, sizeof buf);
    CHECK(contains(buf, "Preflight at "));
    CHECK(contains(buf, " FAILED (image.ecr, contract.program): 2 pass, 1 warn, 2 fail in 3.0s"));
    byoc_preflight_report_clear(r);
    free(r);

    /* the checks are a page: a fail and a warning get a fix row under them */
    tui_page_layout(&v.page, 200);
    CHECK_INT((int)v.page.nrows, 8);
    tui_page_set_height(&v.page, 3);
    CHECK(tui_pf_view_handle(&v, TUI_ACT_BOTTOM));
    CHECK_INT(v.page.top, 5);
    CHECK(tui_pf_view_handle(&v, TUI_ACT_DOWN));
    CHECK_INT(v.page.top, 5);                     /* not past the last check */
    CHECK(tui_pf_view_handle(&v, TUI_ACT_TOP));
    CHECK_INT(v.page.top, 0);
    CHECK(!tui_pf_view_handle(&v, TUI_ACT_SEND));

    tui_pf_view_mark_stale(&v);
    tui_pf_view_summary(&v, 9000, buf, sizeof buf);
    CHECK(contains(buf, "Preflight [stale: the job changed] at "));

    /* a new run forgets the old checks and the staleness */
    tui_pf_view_start(&v, 10000);
    CHECK(!v.stale);
    CHECK_INT((int)v.n, 0);
    CHECK(!tui_pf_view_event(&v, &e2, 10100));
    tui_pf_view_cancelled(&v, 10500);
    CHECK_INT(v.state, TUI_PF_CANCELLED);
    tui_pf_view_summary(&v, 11000, buf, sizeof buf);
    CHECK_STR(buf, "Preflight cancelled (image.ecr): 0 pass, 0 warn, 1 fail, 1 checks ran");
    /* the cancelled task's last events change nothing */
    CHECK(!tui_pf_view_event(&v, &e1, 11100));
    byoc_event err;
    memset(&err, 0, sizeof err);
    err.kind = BYOC_EV_ERROR;
    byoc_err_set(&err.err, BYOC_E_CANCELLED, "preflight", "cancelled");
    CHECK(tui_pf_view_event(&v, &err, 11200));
    CHECK_INT(v.state, TUI_PF_CANCELLED);
    CHECK_INT((int)v.n, 1);

    /* a run that could not happen says why */
    tui_pf_view_start(&v, 20000);
    byoc_err_set(&err.err, BYOC_E_ENV, "engine", "no Docker engine at unix:///nowhere");
    CHECK(tui_pf_view_event(&v, &err, 20100));
    CHECK_INT(v.state, TUI_PF_ERROR);
    CHECK_STR(tui_pf_view_summary(&v, 20200, buf, sizeof buf),
              "Preflight could not run: no Docker engine at unix:///nowhere");

    tui_pf_view_clear(&v);
    return check_done();
}
