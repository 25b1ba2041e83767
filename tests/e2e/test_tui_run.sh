#!/bin/bash
# The Run screen end to end, in tmux at 80x24, against the topology's Braket
# stand-in (AWS_ENDPOINT_URL_BRAKET) and moto (STS, S3): an invalid job name
# shows an inline error naming the field (--job-name (jobName)); valid
# values lead to the review page with the exact CreateJob request; y sends
# it, the job exists in the stand-in, and the app jumps to Monitor.
. "$(dirname "$0")/lib.sh"

: "${AWS_ENDPOINT_URL_BRAKET:?run through tests/topology/with-env.sh}"
: "${BYOC_STANDIN_CONTROL:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-30}

P="$E2E_DIR/proj"
mkdir -p "$P"
printf 'print("hello from the job")\n' > "$P/algo.py"
JOB="e2e-run-$$-$(date +%s)"
ROLE="arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-e2e"
IMAGE="111122223333.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-e2e:1"

s=run
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 5
e2e_wait $s '5 Run' "5 opens Run"
e2e_wait $s 'Ready: e edits the form' "the Run screen is ready"
e2e_keys $s e
e2e_wait $s 'Code: source module' "e opens the grouped job form"
e2e_type $s 'algo.py'
e2e_keys $s Tab Tab
e2e_type $s "$IMAGE"
# down to "Advanced: job name" (field 13 of the form)
for i in 1 2 3 4 5 6 7 8 9 10; do e2e_keys $s Down; done
e2e_wait $s 'Advanced: job name' "the advanced group is reached"
e2e_type $s 'Bad_Name!'
e2e_keys $s Tab
e2e_wait $s '--job-name \(jobName\)' "an invalid job name shows an inline error naming the field"
e2e_keys $s Up C-u
e2e_type $s "$JOB"
e2e_keys $s Tab
e2e_wait_gone $s '--job-name \(jobName\)' "a valid name clears the error"
e2e_type $s "$ROLE"
e2e_keys $s C-s
e2e_wait $s 'CreateJob request' "the review page opens"
e2e_keys $s PgDn    # the preflight checks take the lower part of the page at 80x24
e2e_wait $s "\"jobName\": \"$JOB\"" "the review shows the exact request body"
e2e_has $s 'POST .*/job' "and the method and URL"
if curl -sf "$BYOC_STANDIN_CONTROL/jobs/$JOB" >/dev/null; then e2e_fail "the dry run created a job"; else
    e2e_pass "nothing was sent before y"; fi
e2e_keys $s y
e2e_wait $s 'Send anyway' "the image is not in this account's ECR: preflight fails and y asks first"
e2e_keys $s y
# "6 Monitor" is always in the flow bar and the job name in the review page: Monitor's
# panel title is what only the sent job brings (the app goes there when the send is done).
e2e_wait $s "${E2E_STEP_TITLES[5]}" "on success the app jumps to Monitor"
e2e_wait $s "$JOB" "Monitor shows the job"
if curl -sf "$BYOC_STANDIN_CONTROL/jobs/$JOB" | grep -q "\"jobName\": *\"$JOB\""; then
    e2e_pass "the stand-in has the job"; else e2e_fail "the stand-in has no job $JOB"; fi
e2e_keys $s 5
e2e_wait $s "Created $JOB" "Run says what it created"
e2e_resize $s 100 30
e2e_wait $s "Image .*amazon-braket-e2e" "Run redraws after a resize"
e2e_resize $s 80 24
e2e_wait $s "Source .*algo.py" "and after a resize back"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s

# --- run locally: an image with its own ENTRYPOINT on the topology's engine -----------------
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
LOCAL_IMG="byoc-e2e/local-entry:$$"
LJOB="e2e-local-$$"
trap '"$DOCKER" rmi -f "$LOCAL_IMG" >/dev/null 2>&1; e2e_cleanup' EXIT
"$DOCKER" build -q --network none --build-arg "BASE=${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}" \
    -t "$LOCAL_IMG" "$SRC/tests/fixtures/local/images/entrypoint" >/dev/null || e2e_fail "docker build $LOCAL_IMG"
mkdir -p "$E2E_DIR/state"
s=local
e2e_start $s 80 24 "XDG_STATE_HOME=$E2E_DIR/state" -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 5 e C-u
e2e_type $s 'algo.py'
e2e_keys $s Tab Tab C-u
e2e_type $s "$LOCAL_IMG"
for i in 1 2 3 4 5 6 7 8 9 10; do e2e_keys $s Down; done
e2e_keys $s C-u
e2e_type $s "$LJOB"
for i in 1 2 3 4; do e2e_keys $s Down; done
e2e_wait $s 'Run on .*Amazon Braket' "the mode field"
e2e_keys $s Right
e2e_wait $s 'Run on .*this machine' "Right switches to this machine"
e2e_keys $s C-s
e2e_wait $s 'Run on this machine' "the review shows the local run"
e2e_wait $s "\"job_name\": \"$LJOB\"" "with the job"
e2e_keys $s y
e2e_wait $s 'Run anyway|own entry point ran with: train' "y runs it, or asks first when a preflight check failed"
e2e_capture $s | grep -q 'Run anyway' && e2e_keys $s y
e2e_wait $s 'own entry point ran with: train' "the job's output streams into the pane"
e2e_wait $s "Local job $LJOB COMPLETED" "the local job completes"
[ -f "$P/$LJOB/log.txt" ] && e2e_pass "its files are in the project" || e2e_fail "no $P/$LJOB/log.txt"
e2e_keys $s m
e2e_wait $s "6 Monitor" "m opens Monitor"
e2e_wait $s "$LJOB +. COMPLETED +local" "the local job is in the same table"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
