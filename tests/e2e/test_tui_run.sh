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
e2e_wait $s "\"jobName\": \"$JOB\"" "the review shows the exact request body"
e2e_has $s 'POST .*/job' "and the method and URL"
if curl -sf "$BYOC_STANDIN_CONTROL/jobs/$JOB" >/dev/null; then e2e_fail "the dry run created a job"; else
    e2e_pass "nothing was sent before y"; fi
e2e_keys $s y
e2e_wait $s '6 Monitor' "on success the app jumps to Monitor"
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
e2e_done
