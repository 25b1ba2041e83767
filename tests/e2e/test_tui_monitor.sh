#!/bin/bash
# The Monitor screen end to end, in tmux at 80x24, on the topology: jobs
# made with `byoc run` appear in the table; the table follows the states the
# stand-in's control API sets; a job's detail shows its failure reason and
# timeline; the Logs tab follows log events written into moto's CloudWatch
# Logs; the Metrics tab plots one metric at a time (braille, y values, time or
# iteration ticks, min/max/last; ] and [ choose the metric; a NaN is counted, a
# name with a C1 control is made printable; redrawn on resize; ASCII without
# Unicode); a job is cancelled after a confirmation whose default is No; the
# status filter narrows the table.
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
BRAILLE="($("$PY" -c 'print("|".join(chr(c) for c in range(0x2801, 0x2900)))'))"
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

# logs and metrics of A: two metrics 30 s apart, a NaN, and a name with U+009B (a C1 CSI) in it
put_logs "$A" "starting e2e job" "Metrics - timestamp=1700000000; loss=0.9; accuracy=0.5; iteration_number=1;" \
    "Metrics - timestamp=1700000030; loss=0.5; accuracy=0.7; iteration_number=2;" \
    "Metrics - timestamp=1700000045; loss=nan; iteration_number=2;" \
    "$(printf 'Metrics - timestamp=1700000060; e2e\xc2\x9bname=3;')"
e2e_keys $s /
e2e_type $s "$A"
e2e_keys $s Enter
# c on the table asks beside the job's row, never over it (issue 19 point 4), through a resize too
e2e_wait $s "$A +. RUNNING" "the filter leaves job A"
e2e_keys $s c
e2e_wait $s "Cancel job $A\?" "c on the table asks"
e2e_has $s "$A +. RUNNING" "the job's row stays in view beside the question"
e2e_resize $s 100 30
e2e_wait $s "$A +. RUNNING +[a-z]" "after a resize to 100x30 the row is still in view" &&
    e2e_has $s "Cancel job $A\?" "and the question too"
e2e_resize $s 80 24
e2e_wait $s "Cancel job $A\?" "back at 80x24 the question is there" &&
    e2e_has $s "$A +. RUNNING" "beside the row"
e2e_keys $s Escape
e2e_wait_gone $s "Cancel job $A\?" "Esc answers no"
e2e_keys $s Enter
e2e_wait $s "6 Monitor: $A" "Enter opens job A"
e2e_keys $s Tab
e2e_wait $s '\[algo-1\] starting e2e job' "the Logs tab shows the CloudWatch lines"
put_logs "$A" "Metrics - timestamp=1700000090; loss=0.2; accuracy=0.875; iteration_number=3;" "second batch arrives"
e2e_wait $s '\[algo-1\] second batch arrives' "the Logs tab follows new lines"
e2e_keys $s Tab
e2e_wait $s 'loss +min 0.2 +max 0.9 +last 0.2' "the Metrics tab shows the first metric's min/max/last"
e2e_has $s ' loss  +accuracy  +e2e\?name +1/3' "a strip lists the metrics (the C1 control printed as ?)"
e2e_has $s '4 values, 1 not finite: skipped' "the NaN is counted, not drawn"
e2e_has $s ' 0\.9┤' "the y axis has the max"
e2e_has $s '0\.55┤' "the middle value"
e2e_has $s ' 0\.2┤' "and the min"
e2e_has $s "$BRAILLE" "the line is drawn in braille"
e2e_has $s '└┬─+┬' "an x axis with ticks"
e2e_has $s '0s +15s +30s +45s +1m +1m15s +1m30s' "ticks by time since the first point"
e2e_has $s '\] next metric +\[ prev metric +x x-axis' "the hint bar has the Metrics tab's keys"
e2e_keys $s ']'
e2e_wait $s 'accuracy +min 0.5 +max 0.875 +last 0.875' "] charts the next metric"
e2e_has $s '0\.875┤' "with its own y axis"
e2e_has $s '2/3' "the strip says which"
e2e_keys $s Right
e2e_wait $s 'e2e\?name +min 3 +max 3 +last 3' "Right goes on to the third, its name printable"
e2e_has $s ' 3┤' "a one-point series has one y label"
e2e_keys $s '['
e2e_wait $s 'accuracy +min 0.5' "[ goes back"
e2e_keys $s x
e2e_wait $s 'by iteration' "x switches the axis to iterations"
e2e_has $s '  1 +2 +3 *│?$' "ticks by iteration number"
e2e_resize $s 110 30
e2e_wait $s '0\.875┤.{90}' "on resize the chart is redrawn wider"
e2e_resize $s 80 24
e2e_wait_gone $s '0\.875┤.{90}' "and narrower again"
e2e_has $s '0\.875┤' "still with its axis"
e2e_keys $s x

# cancel, with No first
e2e_keys $s c
e2e_wait $s "Cancel job $A" "c asks before cancelling"
e2e_has $s "[─-] 6 Monitor: $A " "the job's title stays in view above the question"
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
e2e_keys $s /
e2e_type $s "$A"
e2e_keys $s Enter Enter
e2e_wait $s "6 Monitor: $A" "job A opens"
e2e_keys $s Tab Tab
e2e_wait $s 'loss +min 0.2 +max 0.9 +last 0.2' "the Metrics tab in ASCII"
e2e_has $s ' 0\.9\+' "the y axis in ASCII"
e2e_has $s "[-.'|]{3}" "the line in ASCII"
e2e_has $s '\+\+-+\+' "the x axis in ASCII"
e2e_lacks $s "$BRAILLE" "no braille"
e2e_keys $s q
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
