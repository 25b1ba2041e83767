/* Python version specifiers (byoc/pyspec.h) as the wizard reads them. */
#include "byoc/pyspec.h"
#include "check.h"

static void allows(const char *spec, const char *series, int want)
{
    int got = byoc_pyspec_allows_series(spec, series);
    if (got != want)
        check_fail(__FILE__, __LINE__, "spec '%s' series %s: got %d, want %d", spec, series, got, want);
    else
        check_passed++;
}

int main(void)
{
    allows("", "3.12", 1);
    allows(">=3.9", "3.12", 1);
    allows(">=3.9,<3.12", "3.12", 0);
    allows(">=3.9, <3.12", "3.11", 1);
    allows("<3.12", "3.12", 0);
    allows("<=3.12", "3.12", 1);
    allows(">3.12", "3.12", 1);          /* 3.12.1 is > 3.12 */
    allows(">3.12.99999", "3.12", 1);
    allows("==3.12", "3.12", 1);
    allows("==3.12.*", "3.12", 1);
    allows("==3.11.*", "3.12", 0);
    allows("!=3.12.*", "3.12", 0);
    allows("!=3.12.1", "3.12", 1);
    allows("~=3.10", "3.12", 1);         /* >=3.10, ==3.* */
    allows("~=3.10.2", "3.12", 0);       /* >=3.10.2, ==3.10.* */
    allows("~=3.12.3", "3.12", 1);
    allows("^3.10", "3.12", 1);          /* Poetry: >=3.10,<4 */
    allows("~3.10", "3.12", 0);          /* Poetry: >=3.10,<3.11 */
    allows("^0.2", "3.12", 0);
    allows("3.10", "3.12", 0);           /* a bare version is the series */
    allows("3.12", "3.12", 1);
    allows("3.12.4", "3.12", 1);
    allows("=3.11", "3.12", 0);          /* conda */
    allows("python-3.10.4", "3.12", 0);  /* runtime.txt */
    allows(">=3.12.2,<3.12.5", "3.12", 1);
    allows(">=3.12.6,<3.12.5", "3.12", 0);
    allows(">=3.10rc1", "3.12", 1);
    allows("\">=3.9\"", "3.12", 1);
    allows("banana", "3.12", -1);
    allows(">=", "3.12", -1);
    allows("~=3", "3.12", -1);           /* ~= needs two components */
    allows(">=3.9 garbage", "3.12", -1);
    CHECK(byoc_pyspec_valid(">=3.8,!=3.9.*"));
    CHECK(!byoc_pyspec_valid("3.x"));
    CHECK(!byoc_pyspec_valid(NULL));
    return check_done();
}
