#!/bin/bash
# The Monitor screen end to end, in tmux at 80x24, on the topology: jobs
# made with `byoc run` appear in the table; the table follows the states the
# stand-in's control API sets; a job's detail shows its failure reason and
# timeline; the Logs tab follows log events written into moto's CloudWatch
# Logs; the Metrics tab draws a chart with min/max/last; a job is cancelled
# after a confirmation whose default is No; the status filter narrows the table.
. "$(dirname "$0")/lib.sh"

: "${AWS_ENDPOINT_URL_BRAKET:?run through tests/topology/with-env.sh}"
: "${BYOC_STANDIN_CONTROL:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-30}
PY=${BYOC_TEST_PYTHON:-python3}

P="$E2E_DIR/proj"
mkdir -p "$P"
printf 'print("hi")\n' > "$P/algo.py"
ROLE="arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-e2e"
IMAGE="111122223333.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-e2e:1"
A="e2e-mon-a-$$"
B="e2e-mon-b-$$"

create() {
    (cd "$P" && "$BYOC_BIN" run --image-uri "$IMAGE" --source-module algo.py --entry-point algo \
        --role-arn "$ROLE" --job-name "$1" --no-preflight >/dev/null 2>"$E2E_DIR/run-$1.err") || {
        e2e_fail "byoc run $1: $(cat "$E2E_DIR/run-$1.err")"; return 1; }
    curl -sf -X POST "$BYOC_STANDIN_CONTROL/jobs/$1/set-status" -d "{\"status\": \"$2\"}" >/dev/null ||
        e2e_fail "set-status $1 $2"
}
set_status() {
    curl -sf -X POST "$BYOC_STANDIN_CONTROL/jobs/$1/set-status" -d "$2" >/dev/null || e2e_fail "set-status $1 $2"
}
# put_logs JOB MESSAGE...: log events into /aws/braket/jobs, stream JOB/algo-1-<epoch>
put_logs() {
    "$PY" - "$@" <<'PYEOF'
import sys, time, boto3
job, msgs = sys.argv[1], sys.argv[2:]
c = boto3.client("logs", endpoint_url=__import__("os").environ["AWS_ENDPOINT_URL"])
g, s = "/aws/braket/jobs", job + "/algo-1-1700000000"
try: c.create_log_group(logGroupName=g)
except c.exceptions.ResourceAlreadyExistsException: pass
try: c.create_log_stream(logGroupName=g, logStreamName=s)
except c.exceptions.ResourceAlreadyExistsException: pass
now = int(time.time() * 1000)
c.put_log_events(logGroupName=g, logStreamName=s,
                 logEvents=[{"timestamp": now + i, "message": m} for i, m in enumerate(msgs)])
PYEOF
}

create "$A" RUNNING
create "$B" RUNNING

s=mon
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 6
e2e_wait $s "$A" "job A made with byoc run is in the table"
e2e_wait $s "$B" "and job B"
e2e_wait $s "$B +. RUNNING" "with its status and symbol"
e2e_has $s 'Name +Status +Device +Instance +Created +Duration' "the table has its columns"
e2e_has $s 'updated [0-9]+s ago' "the age of the list is shown"
e2e_has $s 'ml.m5.large' "the instance type is shown"

set_status "$B" '{"status": "FAILED", "failureReason": "AlgorithmError: e2e boom"}'
e2e_wait $s "$B +. FAILED" "the table follows a state set through the control API"

# the status filter
e2e_keys $s f
e2e_wait $s 'Status: active' "f filters by status (active)"
e2e_wait_gone $s "$B" "the failed job is hidden"
e2e_has $s "$A" "the running job stays"
e2e_keys $s f f
e2e_wait $s 'Status: FAILED' "f cycles to FAILED"
e2e_wait $s "$B" "the failed job shows"
e2e_wait_gone $s "$A " "and the running one is hidden"
e2e_keys $s Enter
e2e_wait $s 'Failure reason +AlgorithmError: e2e boom' "the detail shows the failure reason"
e2e_wait $s 'Timeline' "and the status timeline"
e2e_keys $s q
e2e_keys $s f f
e2e_wait $s 'Status: all' "back to all statuses"

# logs and metrics of A
put_logs "$A" "starting e2e job" "Metrics - loss=0.9; iteration_number=1;" "Metrics - loss=0.5; iteration_number=2;"
e2e_keys $s /
e2e_type $s "$A"
e2e_keys $s Enter
e2e_keys $s Enter
e2e_wait $s "6 Monitor: $A" "Enter opens job A"
e2e_keys $s Tab
e2e_wait $s '\[algo-1\] starting e2e job' "the Logs tab shows the CloudWatch lines"
put_logs "$A" "Metrics - loss=0.2; iteration_number=3;" "second batch arrives"
e2e_wait $s '\[algo-1\] second batch arrives' "the Logs tab follows new lines"
e2e_keys $s Tab
e2e_wait $s 'loss +min 0.2 +max 0.9 +last 0.2' "the Metrics tab shows min/max/last"
e2e_has $s '[▁▂▃▄▅▆▇█]' "and a chart in block characters"
e2e_keys $s x
e2e_wait $s 'by iteration' "x switches the axis to iterations"

# cancel, with No first
e2e_keys $s c
e2e_wait $s "Cancel job $A" "c asks before cancelling"
e2e_keys $s Enter
e2e_wait_gone $s "Cancel job $A\?" "Enter on the default answer (No) closes the dialog"
if curl -sf "$BYOC_STANDIN_CONTROL/jobs/$A" | grep -q '"status": *"RUNNING"'; then
    e2e_pass "No leaves the job running"; else e2e_fail "the job changed after No"; fi
e2e_keys $s c
e2e_wait $s "Cancel job $A" "c asks again"
e2e_keys $s y
e2e_wait $s 'Cancel sent' "y cancels"
e2e_wait $s '(CANCELLING|CANCELLED)' "the job's status follows"
e2e_keys $s q
e2e_wait $s "$A +. CANCEL" "the table shows the cancelled job"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s

# ASCII and NO_COLOR
s=ascii
e2e_start $s 80 24 NO_COLOR=1 BYOC_ASCII=1 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts in ASCII"
e2e_keys $s 6
e2e_wait $s "$B +x FAILED" "ASCII status symbols"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
