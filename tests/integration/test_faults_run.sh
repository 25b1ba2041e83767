#!/usr/bin/env bash
# `byoc run` when CreateJob fails, end to end: the job's clientToken is made once per
# run, so a retry after the service created the job but the answer was lost (the
# connection reset after the operation ran) makes no second job; a CreateJob that keeps
# failing gives up with one line that says so and creates nothing; running the same
# command again then succeeds. Braket is a private stand-in (its own fault API, so no
# other test sees these faults); ECR, S3, STS and IAM are the topology's moto.
set -u
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
py=${BYOC_TEST_PYTHON:-python3}

work=$(mktemp -d)
standin_pid=
cleanup() {
  [ -n "$standin_pid" ] && kill "$standin_pid" 2>/dev/null && wait "$standin_pid" 2>/dev/null
  "${BYOC_TEST_DOCKER_CLI:-docker}" image rm -f "byoc-faults/run:$$" >/dev/null 2>&1
  rm -rf "$work" "$OUT" "$ERR"
}
trap cleanup EXIT

port=$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$py" "$src/tests/topology/braket_standin.py" --port "$port" --account "${BYOC_TEST_ACCOUNT:-123456789012}" \
    --credentials-file "$BYOC_TOPO_DIR/standin-credentials.json" >/dev/null 2>&1 &
standin_pid=$!
control=http://127.0.0.1:$port/_standin
for _ in $(seq 100); do curl -sf "$control/health" >/dev/null && break; sleep 0.1; done
curl -sf "$control/health" >/dev/null && pass || fail "the private stand-in did not start"
export AWS_ENDPOINT_URL_BRAKET=http://127.0.0.1:$port
unset AWS_RETRY_MODE AWS_MAX_ATTEMPTS

# an image in ECR for the job
mkdir -p "$work/ctx"
cat >"$work/ctx/Dockerfile" <<EOF
FROM ${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}
ENV SAGEMAKER_PROGRAM=algo.py
EOF
echo 'print("ok")' >"$work/algo.py"
run_byoc build "$work/ctx" -t "byoc-faults/run:$$" --no-lint
expect_rc 0 "build the job image"
run_byoc push "byoc-faults/run:$$" --repository byoc-faults-run --create
expect_rc 0 "push the job image"
image=${BYOC_TEST_REGISTRY:-123456789012.dkr.ecr.us-east-1.amazonaws.com}/byoc-faults-run:$$

jobs_named() { # NAME -> how many jobs the stand-in has with that name
  curl -sf "$control/jobs" | "$py" -c '
import json, sys
doc = json.load(sys.stdin)
jobs = doc if isinstance(doc, list) else doc.get("jobs", [])
print(sum(1 for j in jobs if j.get("jobName") == sys.argv[1]))' "$1"
}
create_requests() { # NAME -> "count distinct-tokens" of CreateJob requests for the job
  curl -sf "$control/requests" | "$py" -c '
import json, sys
reqs = [r for r in json.load(sys.stdin)["requests"] if r.get("operation") == "CreateJob"]
# a request the stand-in failed on purpose was not parsed: it has no token on record
print(len(reqs), len({r["clientToken"] for r in reqs if r.get("clientToken")}))'
}
# An explicit role: on a fresh topology IAM has no AmazonBraketJobsExecutionRole to default to.
role="arn:aws:iam::${BYOC_TEST_ACCOUNT:-123456789012}:role/service-role/AmazonBraketJobsExecutionRole-faults"
fault() { curl -sf -X POST "$control/faults" -d "$1" >/dev/null || fail "could not post fault $1"; }

# 1. the answer to CreateJob is lost after the job was made: one job, one token, two requests
curl -sf -X DELETE "$control/requests" >/dev/null
fault '{"operation": "CreateJob", "action": "drop_after"}'
run_byoc --json run --no-preflight --role-arn "$role" --image-uri "$image" --source-module "$work/algo.py" --job-name "faults-run-a-$$"
expect_rc 0 "run with a lost CreateJob answer"
json_eq .job_name "faults-run-a-$$"
expect_eq "$(jobs_named "faults-run-a-$$")" 1 "one job after the lost answer"
expect_eq "$(create_requests)" "2 1" "two CreateJob requests with one clientToken"

# 2. throttled, then a 500: retried, one job
curl -sf -X DELETE "$control/requests" >/dev/null
fault '{"faults": [{"operation": "CreateJob", "status": 429}, {"operation": "CreateJob", "status": 500}]}'
run_byoc run --no-preflight --role-arn "$role" --image-uri "$image" --source-module "$work/algo.py" --job-name "faults-run-b-$$"
expect_rc 0 "run through throttling and a 500"
expect_eq "$(jobs_named "faults-run-b-$$")" 1 "one job after the retries"
expect_eq "$(create_requests)" "3 1" "three CreateJob requests with one clientToken"

# 3. CreateJob keeps failing: a clear error, no job; the same command again succeeds
curl -sf -X DELETE "$control/requests" >/dev/null
fault '{"operation": "CreateJob", "status": 503, "count": 3}'
run_byoc run --no-preflight --role-arn "$role" --image-uri "$image" --source-module "$work/algo.py" --job-name "faults-run-c-$$"
expect_rc 1 "run when CreateJob keeps failing"
expect_err_lines_matching() { local n; n=$(grep -c '^byoc: ' "$ERR"); expect_eq "$n" 1 "one error line"; }
expect_err_lines_matching
expect_err '^byoc: .*CreateJob.*gave up after 3 attempts'
expect_eq "$(jobs_named "faults-run-c-$$")" 0 "no job when CreateJob failed"
run_byoc run --no-preflight --role-arn "$role" --image-uri "$image" --source-module "$work/algo.py" --job-name "faults-run-c-$$"
expect_rc 0 "the same run again"
expect_eq "$(jobs_named "faults-run-c-$$")" 1 "one job after the second run"

# 4. the connection resets before the service sees CreateJob: retried, one job
fault '{"operation": "CreateJob", "action": "drop", "count": 2}'
run_byoc run --no-preflight --role-arn "$role" --image-uri "$image" --source-module "$work/algo.py" --job-name "faults-run-d-$$"
expect_rc 0 "run through two resets"
expect_eq "$(jobs_named "faults-run-d-$$")" 1 "one job after the resets"

finish
