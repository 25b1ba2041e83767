#!/bin/bash
# An arm64 image on this x86_64 host, for real, through qemu-user-static (tests/topology/emulation.sh):
#   doctor --json lists linux/arm64 as emulated (and, with no binfmt_misc, none with the fix);
#   init --arch arm64 writes an arm64 FROM line;
#   byoc build --platform linux/arm64 of a Dockerfile FROM the arm64 busybox base: its RUN step
#     executes under emulation (uname -m says aarch64);
#   byoc run --local runs the job container under emulation: `train` runs $SAGEMAKER_PROGRAM,
#     results land in ./<job>/;
#   the Python journey on an arm64 python3 base (byoc-test/python-arm64:3): init --arch arm64 (recipe
#     2) -> byoc build --platform linux/arm64 (the template's RUN steps under emulation) -> run --local:
#     byoc's launcher (`train` -> byoc_container.py) fetches the source and runs the user's Python
#     entry point as aarch64; the init'd algorithm's results and metrics come out;
#   byoc push sends it to the registry, and preflight refuses it for ml.m5.large (x86_64) with a fix.
# Skips (exit 77, one line) when the topology found no arm64 emulation.
set -euo pipefail
: "${BYOC_BIN:?BYOC_BIN is not set (run under ctest)}"
: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
if [ "${BYOC_TEST_EMULATION:-none}" != linux/arm64 ] || [ -z "${BYOC_TEST_BASE_BUSYBOX_ARM64:-}" ]; then
    echo "SKIP: no arm64 emulation: ${BYOC_TEST_EMULATION_REASON:-the topology did not set it up (BYOC_TEST_EMULATION unset)}"
    exit 77
fi
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
BASE=$BYOC_TEST_BASE_BUSYBOX_ARM64

WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-arm64.XXXXXX")
TAG=byoc-test/arm64-journey:$$
REPO=amazon-braket-arm64-$$-$RANDOM
REMOTE=$BYOC_TEST_REGISTRY/$REPO:arm64
cleanup() {
    "$DOCKER" rmi -f "$TAG" "$TAG-py" "$REMOTE" >/dev/null 2>&1 || true
    python3 - "$REPO" <<'PY' >/dev/null 2>&1 || true
import sys, boto3
boto3.client("ecr").delete_repository(repositoryName=sys.argv[1], force=True)
PY
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# ---- doctor ----------------------------------------------------------------------------------
"$BYOC_BIN" --json doctor --local >"$WORK/doctor.json" || fail "doctor --local exited $?"
python3 - "$WORK/doctor.json" <<'PY' || fail "doctor's platforms: $(cat "$WORK/doctor.json")"
import json, sys
p = json.load(open(sys.argv[1]))["engine"]["platforms"]
assert p["native"] == "linux/amd64", p
assert "linux/arm64" in p["emulated"], p
h = [h for h in p["handlers"] if h["platform"] == "linux/arm64"]
assert h and h[0]["enabled"] and h[0]["fix_binary"] and "F" in h[0]["flags"], p
PY
mkdir "$WORK/nobinfmt"
BYOC_BINFMT_DIR=$WORK/nobinfmt "$BYOC_BIN" --json doctor --local >"$WORK/doctor-none.json" || fail "doctor (no binfmt) exited $?"
python3 - "$WORK/doctor-none.json" <<'PY' || fail "doctor without binfmt: $(cat "$WORK/doctor-none.json")"
import json, sys
p = json.load(open(sys.argv[1]))["engine"]["platforms"]
assert p["emulated"] == [] and not p["binfmt"]["mounted"], p
assert "apt-get install qemu-user-static" in p["fix"], p
PY
pass "doctor lists linux/arm64 as emulated, and says how to get it when binfmt_misc is missing"

# ---- init --arch arm64 -----------------------------------------------------------------------
"$BYOC_BIN" init "$WORK/initproj" --recipe custom-base --language python --arch arm64 --base "$BASE" --no-git \
    >/dev/null || fail "init --arch arm64 exited $?"
grep -q "^FROM --platform=linux/arm64 $BASE\$" "$WORK/initproj/Dockerfile" ||
    fail "init --arch arm64's FROM line: $(grep FROM "$WORK/initproj/Dockerfile")"
pass "init --arch arm64 writes FROM --platform=linux/arm64"

# ---- build under emulation -------------------------------------------------------------------
P=$WORK/proj
mkdir -p "$P/src"
cat >"$P/Dockerfile" <<EOF
FROM --platform=linux/arm64 $BASE
RUN uname -m > /built-on && mkdir -p /opt/ml/code
COPY train /usr/bin/train
COPY program.sh /opt/ml/code/program.sh
ENV SAGEMAKER_PROGRAM=program.sh
EOF
# The launcher the service starts (`train`): runs the program the image names.
printf '#!/bin/sh\nexec /bin/sh "/opt/ml/code/$SAGEMAKER_PROGRAM"\n' >"$P/train"
chmod 755 "$P/train"
cat >"$P/program.sh" <<'EOF'
#!/bin/sh
{ echo "built-on=$(cat /built-on)"; echo "runs-on=$(uname -m)"; echo "job=$AMZN_BRAKET_JOB_NAME"; } >/opt/ml/model/arch.txt
echo "Metrics - arm64=1;"
EOF
echo "def main(): pass" >"$P/src/prog.py"
"$BYOC_BIN" --json build "$P" -t "$TAG" --platform linux/arm64 --no-lint --network none \
    >"$WORK/build.json" 2>"$WORK/build.err" || fail "build exited $?: $(tail -n 20 "$WORK/build.err")"
grep -q "warning: .*linux/arm64" "$WORK/build.err" && fail "build warned although arm64 is emulated: $(cat "$WORK/build.err")"
[ "$("$DOCKER" image inspect -f '{{.Architecture}}' "$TAG")" = arm64 ] || fail "the image is not arm64"
[ "$("$DOCKER" run --rm --network none --platform linux/arm64 --entrypoint /bin/cat "$TAG" /built-on)" = aarch64 ] ||
    fail "the RUN step did not execute as aarch64"
pass "byoc build --platform linux/arm64 ran its RUN step under emulation (aarch64)"

BYOC_BINFMT_DIR=$WORK/nobinfmt "$BYOC_BIN" --json build "$P" -t "$TAG" --platform linux/arm64 --no-lint \
    --network none >/dev/null 2>"$WORK/build2.err" || fail "the cached build exited $?: $(tail -n 5 "$WORK/build2.err")"
grep -q "^warning: the engine runs linux/amd64 natively and binfmt_misc is not mounted; .*apt-get install qemu-user-static" \
    "$WORK/build2.err" || fail "no warning before a build the engine cannot run: $(cat "$WORK/build2.err")"
pass "build warns, with the fix, when the platform is neither native nor emulated"

# ---- run --local under emulation -------------------------------------------------------------
JOB=arm64-journey-$$
(cd "$WORK" && XDG_STATE_HOME=$WORK/state "$BYOC_BIN" --json run --no-preflight --local --image-uri "$TAG" \
    --source-module "$P/src" --entry-point src.prog:main --job-name "$JOB" </dev/null >"$WORK/run.json" 2>"$WORK/run.err") ||
    fail "run --local exited $?: $(tail -n 20 "$WORK/run.err")"
[ -f "$WORK/$JOB/arch.txt" ] || fail "no results in ./$JOB/: $(ls -R "$WORK/$JOB" 2>&1 | head -20)"
grep -qx "built-on=aarch64" "$WORK/$JOB/arch.txt" && grep -qx "runs-on=aarch64" "$WORK/$JOB/arch.txt" &&
    grep -qx "job=$JOB" "$WORK/$JOB/arch.txt" || fail "arch.txt: $(cat "$WORK/$JOB/arch.txt")"
pass "run --local ran train -> \$SAGEMAKER_PROGRAM under emulation; results in ./$JOB/"

# ---- the Python journey: byoc's own launcher and the user's entry point under emulation -------
PYBASE=${BYOC_TEST_BASE_PYTHON_ARM64:-}
[ -n "$PYBASE" ] || fail "the topology set up emulation but no arm64 python base (BYOC_TEST_BASE_PYTHON_ARM64)"
PY=$WORK/pyproj
"$BYOC_BIN" init "$PY" --recipe custom-base --language python --arch arm64 --base "$PYBASE" --no-git >/dev/null ||
    fail "init --arch arm64 (python) exited $?"
printf '%s\n' 'import os' 'import platform' '' '' 'def main():' \
    '    with open(os.path.join(os.environ["AMZN_BRAKET_JOB_RESULTS_DIR"], "arch.txt"), "w") as f:' \
    '        f.write(platform.machine() + "\n")' \
    '    print("Metrics - machine_is_aarch64=%d;" % (platform.machine() == "aarch64"))' >"$PY/algorithm/arch.py"
"$BYOC_BIN" --json build "$PY" -t "$TAG-py" --platform linux/arm64 --no-lint --network none \
    --build-arg BYOC_SAGEMAKER_TRAINING=offline >"$WORK/pybuild.json" 2>"$WORK/pybuild.err" ||
    fail "build of the init'd arm64 project exited $?: $(tail -n 20 "$WORK/pybuild.err")"
[ "$("$DOCKER" image inspect -f '{{.Architecture}}' "$TAG-py")" = arm64 ] || fail "the python image is not arm64"
pass "init --arch arm64 + byoc build: the recipe's RUN steps ran under emulation"
py_job() { # py_job NAME ENTRY_POINT: run --local of the python image in $WORK
    (cd "$WORK" && XDG_STATE_HOME=$WORK/state "$BYOC_BIN" --json run --no-preflight --local --image-uri "$TAG-py" \
        --source-module "$PY/algorithm" --entry-point "$2" --hyperparameter iterations=2 --job-name "$1" \
        </dev/null >"$WORK/$1.json" 2>"$WORK/$1.err") || fail "run --local of $2 exited $?: $(tail -n 30 "$WORK/$1.err")"
}
py_job "arm64-algo-$$" algorithm.algo:main
grep -q '"loss"' "$WORK/arm64-algo-$$/results.json" 2>/dev/null ||
    fail "the init'd algorithm's results.json: $(ls -R "$WORK/arm64-algo-$$" 2>&1 | head)"
[ "$(grep -c '^Metrics - timestamp=' "$WORK/arm64-algo-$$/log.txt")" = 2 ] ||
    fail "want 2 metric lines: $(tail -n 20 "$WORK/arm64-algo-$$/log.txt")"
py_job "arm64-arch-$$" algorithm.arch:main
[ "$(cat "$WORK/arm64-arch-$$/arch.txt" 2>/dev/null)" = aarch64 ] ||
    fail "the entry point did not run as aarch64: $(cat "$WORK/arm64-arch-$$/log.txt")"
grep -q "Metrics - machine_is_aarch64=1;" "$WORK/arm64-arch-$$/log.txt" ||
    fail "log.txt: $(tail -n 20 "$WORK/arm64-arch-$$/log.txt")"
pass "run --local: byoc's launcher ran the user's Python entry points as aarch64; results and metrics out"

# ---- push, then preflight for an x86_64 instance ---------------------------------------------
"$BYOC_BIN" --json push "$TAG" --repository "$REPO" --create --tag arm64 >"$WORK/push.json" 2>"$WORK/push.err" ||
    fail "push exited $?: $(tail -n 20 "$WORK/push.err")"
set +e
"$BYOC_BIN" --json preflight --image-uri "$REMOTE" --source-module "$P/src" --entry-point src.prog:main \
    --device arn:aws:braket:::device/quantum-simulator/amazon/sv1 --instance-type ml.m5.large \
    >"$WORK/pf.json" 2>"$WORK/pf.err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "preflight exited $rc, want 1: $(tail -n 5 "$WORK/pf.err")"
python3 - "$WORK/pf.json" <<'PY' || fail "preflight's image.architecture: $(cat "$WORK/pf.json")"
import json, sys
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))["checks"]}
a = checks["image.architecture"]
assert a["status"] == "fail", a
assert "arm64" in a["message"], a
assert a.get("fix") and "amd64" in a["fix"], a
PY
pass "preflight refuses the arm64 image for ml.m5.large, with its fix"
