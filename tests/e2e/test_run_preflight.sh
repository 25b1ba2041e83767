#!/bin/bash
# The preflight checks on the Run screen's review page, in tmux at 80x24,
# against the topology (moto's STS/ECR/IAM/S3, the Braket stand-in, the
# registry, the engine). The job's image is built on the test engine without
# SAGEMAKER_PROGRAM and pushed to the registry (moto's ECR learns it through
# the bridge), so the dry run accepts it and preflight's contract.program fails:
#   - reaching the review page starts the checks; they appear with their
#     PASS/WARN/FAIL tags and a summary line naming the failed check;
#   - the failure shows its one-line fix;
#   - Tab gives the scroll keys to the checks (the list scrolls at 80x24);
#   - y asks first, naming contract.program, No is the default: Enter keeps
#     the page and sends nothing;
#   - p runs the checks again;
#   - leaving the page while they run (the stand-in holds GetDevice) cancels
#     them; the Run screen shows what ran, and editing the form marks it stale;
#   - reviewing again re-runs the checks; y then "Send anyway" (y) creates
#     the job and the app goes to Monitor.
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
. "$(dirname "$0")/lib.sh"

: "${AWS_ENDPOINT_URL_BRAKET:?run through tests/topology/with-env.sh}"
: "${BYOC_STANDIN_CONTROL:?run through tests/topology/with-env.sh}"
: "${BYOC_TEST_REGISTRY:?run through tests/topology/with-env.sh}"
SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}

P="$E2E_DIR/proj"
mkdir -p "$P"
printf 'def main():\n    print("hello from the job")\n' > "$P/algo.py"
JOB="e2e-pf-$$-$(date +%s)"
REPO="amazon-braket-e2e-pf-$$"
IMAGE="$BYOC_TEST_REGISTRY/$REPO:noprogram"
ROLE="arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-e2epf"
SV1="arn:aws:braket:::device/quantum-simulator/amazon/sv1"
DIV='(─|-) '    # the checks' divider on the review page starts so (the Run log's copies do not)
export DOCKER_CONFIG="$E2E_DIR/docker-config"     # Debian's client logs in here, not byoc's config
mkdir -p "$DOCKER_CONFIG"

# ecr create | wait | delete: the repository in moto's ECR
ecr() {
    python3 - "$1" "$REPO" <<'EOF'
import sys, time, boto3
ecr = boto3.session.Session().client("ecr")
if sys.argv[1] == "create":
    ecr.create_repository(repositoryName=sys.argv[2])
elif sys.argv[1] == "wait":
    for _ in range(100):
        try:
            ecr.describe_images(repositoryName=sys.argv[2], imageIds=[{"imageTag": "noprogram"}])
            sys.exit(0)
        except Exception:
            time.sleep(0.1)
    sys.exit(1)
else:
    ecr.delete_repository(repositoryName=sys.argv[2], force=True)
EOF
}
trap 'ecr delete >/dev/null 2>&1; "$DOCKER" rmi -f "$IMAGE" >/dev/null 2>&1; e2e_cleanup' EXIT
ecr create || e2e_fail "could not create the ECR repository $REPO"
"$DOCKER" build -q --network none -t "$IMAGE" -f "$SRC/tests/fixtures/preflight/image/Dockerfile.noprogram" \
    "$SRC/tests/fixtures/preflight/image" >/dev/null || e2e_fail "docker build $IMAGE"
echo "${BYOC_TEST_ACCOUNT:-123456789012}-auth-token" |
    "$DOCKER" login -u AWS --password-stdin "$BYOC_TEST_REGISTRY" >/dev/null 2>&1 || e2e_fail "docker login"
"$DOCKER" push "$IMAGE" >/dev/null || e2e_fail "docker push $IMAGE"
ecr wait || e2e_fail "$IMAGE did not reach moto's ECR"

job_exists() { curl -sf "$BYOC_STANDIN_CONTROL/jobs/$JOB" | grep -q "\"jobName\": *\"$JOB\""; }

s=pf
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 5
e2e_wait $s 'Ready: e edits the form' "the Run screen is ready"
e2e_keys $s e
e2e_wait $s 'Code: source module' "e opens the job form"
e2e_type $s 'algo.py'
e2e_keys $s Tab
e2e_type $s 'algo:main'
e2e_keys $s Tab
e2e_type $s "$IMAGE"
for i in 1 2 3 4 5 6 7 8 9; do e2e_keys $s Down; done
e2e_type $s "$SV1"
e2e_keys $s Down
e2e_wait $s 'Advanced: job name' "the advanced group is reached"
e2e_type $s "$JOB"
e2e_keys $s Tab
e2e_type $s "$ROLE"
e2e_keys $s C-s
e2e_wait $s 'CreateJob request' "the review page opens"
e2e_wait $s 'Preflight (running|at [0-9:]{8} (FAILED|passed))' "the preflight checks start by themselves"
e2e_wait $s 'FAIL +contract\.program' "the image without SAGEMAKER_PROGRAM fails contract.program"
e2e_wait $s "$DIV"'Preflight at [0-9:]{8} FAILED \(contract\.program\): [0-9]+ pass, [0-9]+ warn, 1 fail' \
    "the summary line counts the checks and names the failed one"
# the failure's fix is the line under it
if e2e_capture $s | grep -A3 -E 'FAIL +contract\.program' | grep -Eq '│ +fix: add ENV SAGEMAKER_PROGRAM'; then
    e2e_pass "the failed check shows its fix"
else
    e2e_fail "no fix line under FAIL contract.program"; e2e_capture $s | sed 's/^/    | /' >&2
fi
job_exists && e2e_fail "a job was created before y" || e2e_pass "nothing was sent during the review"

# the checks scroll on their own at 80x24
e2e_keys $s Tab
e2e_keys $s End
e2e_wait $s 'PASS +(code|contract|permissions)\.' "Tab then End scrolls the checks to the passes"
e2e_keys $s Home
e2e_wait $s 'FAIL +contract\.program' "Home brings the failure back"
e2e_keys $s Tab

# y with a failed check asks first; No is the default
e2e_keys $s y
e2e_wait $s 'These checks failed: [^.]*contract\.program' "y asks first, naming the failed check"
e2e_has $s 'Send anyway' "the dialog offers Send anyway"
e2e_has $s 'FAIL +contract\.program' "the failed check stays in view under the question (issue 19 point 4)"
e2e_keys $s Enter
e2e_wait $s 'Not sent' "Enter answers No (the default)"
e2e_has $s 'CreateJob request' "the review page stays"
job_exists && e2e_fail "No still sent the job" || e2e_pass "No sends nothing"

# p runs them again: the time of the result changes
first=$(e2e_capture $s | grep -Eo 'Preflight at [0-9:]{8} FAILED' | grep -Eo '[0-9:]{8}')
[ -n "$first" ] && e2e_pass "the summary says when the checks ran" || e2e_fail "no time in the summary"
sleep 1.2
e2e_keys $s p
e2e_wait_gone $s "Preflight at ${first:-none} FAILED" "p runs the checks again"
e2e_wait $s "$DIV"'Preflight at [0-9:]{8} FAILED \(contract\.program\)' "and they fail again"

# P adds the smoke run: the job in local mode on the engine, which fails without SAGEMAKER_PROGRAM
e2e_keys $s P
e2e_wait $s 'Preflight running' "P starts the checks again"
e2e_wait $s 'FAIL +smoke' "P adds the smoke run, and it fails for this image"
e2e_wait $s "$DIV"'Preflight at [0-9:]{8} FAILED \([^)]*smoke' "the summary names the smoke run among the failures"
job_exists && e2e_fail "the smoke run sent a job" || e2e_pass "the smoke run sends nothing to Braket"

# leaving the page cancels checks still running: the stand-in holds the next GetDevice 30 s
curl -sf -X POST "$BYOC_STANDIN_CONTROL/faults" \
    -d '{"operation": "GetDevice", "action": "delay", "delay_seconds": 30, "count": 1}' >/dev/null ||
    e2e_fail "could not post the GetDevice delay"
e2e_keys $s p
e2e_wait $s 'Preflight running' "p starts the checks (GetDevice is held)"
e2e_keys $s q
e2e_wait $s 'Ready: e edits the form' "q goes back to the Run screen"
e2e_wait $s 'Preflight cancelled: left the review page' "leaving the page cancels the checks"
e2e_wait $s 'Preflight cancelled: [0-9]+ pass, [0-9]+ warn, [0-9]+ fail, [0-9]+ checks ran' \
    "the Run screen shows the checks that ran"
curl -sf -X DELETE "$BYOC_STANDIN_CONTROL/faults" >/dev/null
e2e_lacks $s 'stale' "not stale before an edit"
e2e_keys $s e
e2e_wait $s 'Code: source module' "the form opens again"
e2e_keys $s End
e2e_type $s 'x'
e2e_keys $s BSpace Escape
e2e_wait $s 'Preflight \[stale: the job changed\] cancelled' "an edit marks the results stale"

# review again: the checks run again; y, then Send anyway, creates the job
e2e_keys $s s
e2e_wait $s 'CreateJob request' "s reviews again"
e2e_wait $s "$DIV"'Preflight at [0-9:]{8} FAILED \(contract\.program\)' "the checks ran again"
e2e_lacks $s 'stale' "fresh results are not stale"
e2e_keys $s y
e2e_wait $s 'Send anyway' "y asks again"
e2e_keys $s y
e2e_wait $s "${E2E_STEP_TITLES[5]}" "Send anyway sends; the app goes to Monitor when it is done"
job_exists && e2e_pass "the stand-in has the job" || e2e_fail "the stand-in has no job $JOB"
e2e_keys $s C-c
# Checks cancelled by the send may still be ending: then quitting asks first.
for _ in $(seq 1 $((E2E_TIMEOUT * 10))); do
    [ -s "$E2E_DIR/$s/rc" ] && break
    if e2e_capture $s | grep -q 'Quit byoc?'; then e2e_keys $s y; break; fi
    sleep 0.1
done
e2e_wait_exit $s
e2e_expect_rc $s 0     # under ASan a leak or an error shows here
e2e_stty_same $s
e2e_done
