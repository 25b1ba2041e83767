#!/bin/bash
# The Monitor lists every page of SearchJobs (issue 7): 260 jobs made in a region of their own
# (us-west-1, 100 a page: three pages, the last one partial) all reach the table, counted in
# its title, and stay there across the background refresh; a job made meanwhile appears.
. "$(dirname "$0")/lib.sh"

: "${BYOC_STANDIN_CONTROL:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
PY=${BYOC_TEST_PYTHON:-python3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PREFIX="e2e-pages-$$-"
REGION=us-west-1

# make N jobs named PREFIX<i> (from FIRST) in REGION
make_jobs() {
    BENCH_ROOT=$ROOT "$PY" - "$REGION" "$PREFIX" "$1" "$2" <<'PYEOF' || e2e_fail "creating jobs"
import os, sys
sys.path.insert(0, os.path.join(os.environ["BENCH_ROOT"], "tests", "topology"))
from testkit import create_minimal_jobs
region, prefix, first, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
create_minimal_jobs(["%s%04d" % (prefix, i) for i in range(first, first + n)], region=region, workers=8)
PYEOF
}

make_jobs 0 260
mkdir -p "$E2E_DIR/state" "$E2E_DIR/proj"
chmod 700 "$E2E_DIR/state"
s=pages
e2e_start $s 120 30 "XDG_STATE_HOME=$E2E_DIR/state" -- --region "$REGION" --project "$E2E_DIR/proj" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 6
e2e_wait $s 'updated [0-9]+s ago' "the listing completes"
e2e_keys $s /
e2e_type $s "$PREFIX"
e2e_keys $s Enter
e2e_wait $s "6 Monitor: 260 of [0-9]+" "all 260 jobs of three pages are in the table"
e2e_has $s "${PREFIX}0259" "the newest first"
e2e_keys $s End
e2e_wait $s "${PREFIX}0000" "and the oldest, from the last page, at the end"

make_jobs 260 1
e2e_keys $s r
e2e_wait $s "6 Monitor: 261 of [0-9]+" "a refresh lists the job made meanwhile"
e2e_keys $s Home
e2e_wait $s "${PREFIX}0260" "on top"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
