#!/bin/bash
# byoc init (recipe 2, Python, on the local debootstrap python3 base) -> docker build with no
# network -> the job container under the Braket container contract, run the way the service
# starts it (`train`) with a local source: success writes /opt/ml/model and "Metrics -" lines;
# an exception or a failing program writes /opt/ml/output/failure and exits non-zero.
#
# There is no PyPI here: the image is built with --build-arg BYOC_SAGEMAKER_TRAINING=offline,
# which the custom-base template offers for exactly this (byoc's own `train` instead of
# sagemaker-training's; see assets/recipes/partials/contract.tmpl).
set -euo pipefail
: "${BYOC_TEST_BASE_PYTHON:?run through tests/topology/with-env.sh}"
. "$(dirname "$0")/image_test.sh" init-build

PROJ=$WORK/proj

# ---- init ----------------------------------------------------------------------------------
"$BYOC_BIN" --json init "$PROJ" --recipe custom-base --language python --base "$BYOC_TEST_BASE_PYTHON" \
    >"$WORK/init.json" || fail "byoc init exited $?"
python3 - "$WORK/init.json" <<'PY' || fail "init's JSON"
import json, sys
doc = json.load(open(sys.argv[1]))
files = set(doc["files"])
need = {"Dockerfile", ".dockerignore", "byoc.json", "byoc/byoc_container.py", "byoc/train",
        "algorithm/algo.py", "requirements.txt"}
missing = need - files
assert not missing, missing
assert doc["git"]["created"] and len(doc["git"]["commit"]) == 40, doc["git"]
PY
[ -d "$PROJ/.git" ] || fail "no git repository"
grep -q "^FROM --platform=linux/amd64 $BYOC_TEST_BASE_PYTHON\$" "$PROJ/Dockerfile" || fail "FROM line"
pass "init wrote the project and its first commit"

cp "$PROJ/Dockerfile" "$WORK/Dockerfile.first"
echo "# a line of mine" >>"$PROJ/Dockerfile"
"$BYOC_BIN" init "$PROJ" --recipe custom-base --language python --base "$BYOC_TEST_BASE_PYTHON" >"$WORK/again.out" \
    || fail "a second init exited $?"
grep -q "^Kept as they are" "$WORK/again.out" && grep -qx "  Dockerfile" "$WORK/again.out" ||
    fail "second init's report: $(cat "$WORK/again.out")"
tail -1 "$PROJ/Dockerfile" | grep -qx "# a line of mine" || fail "the second init changed the user's Dockerfile"
cp "$WORK/Dockerfile.first" "$PROJ/Dockerfile"
pass "a second init keeps the file that differs and names it"

"$BYOC_BIN" --json lint "$PROJ" >"$WORK/lint.json" || fail "lint found errors: $(cat "$WORK/lint.json")"
pass "the scaffold lints without errors"

# ---- build (no network) --------------------------------------------------------------------
build_tag "$PROJ"
"$DOCKER" image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$TAG" | grep -qx 'SAGEMAKER_PROGRAM=byoc_container.py' ||
    fail "SAGEMAKER_PROGRAM is not set in the image"
[ "$("$DOCKER" image inspect -f '{{.Architecture}}' "$TAG")" = amd64 ] || fail "not an amd64 image"
pass "docker build --network none"

# ---- preflight judges byoc's own offline image as the service would meet it ------------------
# Its `train` is byoc's small launcher (a link to /opt/byoc/bin/train), not sagemaker-training's:
# no check may fail. --local: the contract and the code only.
"$BYOC_BIN" --json --project "$PROJ" preflight --local --image-uri "$TAG" --source-module "$PROJ/algorithm" \
    --entry-point algorithm.algo >"$WORK/preflight.json" 2>"$WORK/preflight.err" || true
python3 - "$WORK/preflight.json" <<'PY' || { cat "$WORK/preflight.err" >&2; fail "preflight of byoc's own image"; }
import json, sys
doc = json.load(open(sys.argv[1]))
checks = {c["name"]: c for c in doc["checks"]}
failed = [c for c in doc["checks"] if c["status"] == "fail"]
assert not failed, failed
for name in ("contract.program", "contract.train", "contract.python", "contract.sagemaker-training"):
    assert checks[name]["status"] == "pass", checks[name]
assert "launcher of its own" in checks["contract.sagemaker-training"]["message"], checks["contract.sagemaker-training"]
PY
pass "preflight: byoc's offline image has no failure (its own train is a launcher, not a fault)"

# ---- the job container ---------------------------------------------------------------------
mkdir -p "$WORK/src"
cp -r "$PROJ/algorithm" "$WORK/src/"
cat >"$WORK/src/algorithm/run.sh" <<'SH'
#!/bin/sh
# a non-Python entry point: metrics on stdout, a result, and the exit code it is told
echo "Metrics - timestamp=1700000000.0; energy=-1.5; iteration_number=0;"
echo "{\"iterations\": \"$SM_HP_ITERATIONS\"}" > "$AMZN_BRAKET_JOB_RESULTS_DIR/shell.json"
exit "${SM_HP_EXIT_CODE:-0}"
SH
tar -C "$WORK/src" -czf "$WORK/source.tar.gz" algorithm

# run_job NAME ENTRY_POINT HYPERPARAMETERS_JSON [SOURCE_URI]: sets RC, writes $WORK/NAME.log,
# copies /opt/ml/model to $WORK/NAME.model and /opt/ml/output/failure to $WORK/NAME.failure
run_job() {
    local name=$1 entry=$2 hps=$3 uri=${4:-file:///opt/byoc-test/source.tar.gz} cid
    mkdir -p "$WORK/$name.ml/input/config" "$WORK/$name.in"
    printf '%s' "$hps" >"$WORK/$name.ml/input/config/hyperparameters.json"
    cp "$WORK/source.tar.gz" "$WORK/$name.in/"
    cp -r "$WORK/src/algorithm" "$WORK/$name.in/"
    cid=$("$DOCKER" create --network none \
        -e AMZN_BRAKET_SCRIPT_S3_URI="$uri" \
        -e AMZN_BRAKET_SCRIPT_ENTRY_POINT="$entry" \
        -e AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE=GZIP \
        -e AMZN_BRAKET_JOB_NAME="byoc-test-$name" \
        -e AMZN_BRAKET_DEVICE_ARN=local:braket/braket.local.qubit \
        -e AMZN_BRAKET_HP_FILE=/opt/braket/input/config/hyperparameters.json \
        -e AMZN_BRAKET_JOB_RESULTS_DIR=/opt/braket/model \
        -e AMZN_BRAKET_CHECKPOINT_DIR=/opt/jobs/checkpoints \
        -e AMZN_BRAKET_JOB_TOKEN=test-job-token \
        "$TAG" train)
    CONTAINERS+=("$cid")
    "$DOCKER" cp "$WORK/$name.ml/." "$cid:/opt/ml/"
    "$DOCKER" cp "$WORK/$name.in" "$cid:/opt/byoc-test"
    set +e
    "$DOCKER" start -a "$cid" >"$WORK/$name.log" 2>&1
    RC=$?
    set -e
    "$DOCKER" cp "$cid:/opt/ml/model" "$WORK/$name.model" 2>/dev/null || true
    "$DOCKER" cp "$cid:/opt/ml/output/failure" "$WORK/$name.failure" 2>/dev/null || true
    "$DOCKER" cp "$cid:/opt/braket" - 2>/dev/null | tar -tvf - >"$WORK/$name.braket" 2>/dev/null || true
}

run_job ok algorithm.algo:main '{"iterations": "4"}'
[ "$RC" = 0 ] || { cat "$WORK/ok.log" >&2; fail "the job exited $RC"; }
[ "$(grep -c '^Metrics - timestamp=[0-9.]*; loss=[0-9.e-]*; iteration_number=[0-9]*;$' "$WORK/ok.log")" = 4 ] ||
    { cat "$WORK/ok.log" >&2; fail "want 4 metric lines"; }
grep -q '"loss": 0.0625' "$WORK/ok.model/results.json" || fail "results.json: $(cat "$WORK/ok.model/results.json" 2>&1)"
grep -q '"braket.jobs_data.persisted_job_data"' "$WORK/ok.model/results.json" || fail "results.json header"
[ ! -e "$WORK/ok.failure" ] || fail "a failure file after success: $(cat "$WORK/ok.failure")"
grep -q -- '-> /opt/ml' "$WORK/ok.braket" || fail "/opt/braket is not a link to /opt/ml"
grep -q 'local:braket/braket.local.qubit' "$WORK/ok.model/results.json" || fail "the device ARN did not reach the code"
grep -q 'test-job-token' "$WORK/ok.log" && fail "the job token was printed"
pass "a Python job: results in /opt/ml/model, metrics on stdout, /opt/braket -> /opt/ml"

run_job boom algorithm.algo:main '{"fail": "true"}'
[ "$RC" != 0 ] || fail "a failing job exited 0"
grep -q '^RuntimeError: failing on purpose' "$WORK/boom.failure" || fail "failure file: $(cat "$WORK/boom.failure" 2>&1)"
grep -q 'Traceback' "$WORK/boom.log" || fail "no traceback in the log"
pass "an exception: the failure file names it and the exit code is $RC"

run_job nomod algorithm.nope:main '{}'
[ "$RC" != 0 ] || fail "a missing module exited 0"
grep -q 'ModuleNotFoundError' "$WORK/nomod.failure" || fail "failure file: $(cat "$WORK/nomod.failure" 2>&1)"
pass "a missing entry module fails the job"

run_job shell algorithm/run.sh '{"iterations": "7"}' /opt/byoc-test/algorithm
[ "$RC" = 0 ] || { cat "$WORK/shell.log" >&2; fail "the shell entry point exited $RC"; }
grep -q '^Metrics - timestamp=1700000000.0; energy=-1.5;' "$WORK/shell.log" || fail "shell metrics"
grep -q '"iterations": "7"' "$WORK/shell.model/shell.json" || fail "SM_HP_ITERATIONS did not reach the program"
pass "a non-Python entry point from a source directory, hyperparameters as SM_HP_*"

run_job shellfail algorithm/run.sh '{"exit_code": "3"}'
[ "$RC" = 3 ] || fail "the shell entry point's exit code 3 became $RC"
grep -q 'AlgorithmError: the shell entry point algorithm/run.sh exited with code 3' "$WORK/shellfail.failure" ||
    fail "failure file: $(cat "$WORK/shellfail.failure" 2>&1)"
pass "a failing program: its exit code and a failure file"

run_job nosource algorithm.algo:main '{}' file:///opt/byoc-test/missing.tar.gz
[ "$RC" != 0 ] || fail "a missing source exited 0"
grep -q '^ClientError: the source .* does not exist' "$WORK/nosource.failure" || fail "failure file: $(cat "$WORK/nosource.failure" 2>&1)"
pass "a missing source fails the job (the stock launcher would exit 0 here)"

echo "all passed"
