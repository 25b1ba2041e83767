#!/bin/bash
# One journey through the whole TUI at 80x24, as a new user walks it (issue 17): a C++ project
# (tests/fixtures/journeys/cpp-cmake: CMakeLists.txt, src/*.cpp, include/, no byoc.json) is taken
# from the welcome page to a job on the Braket stand-in with nothing but keys:
#   welcome  h starts a project here;
#   Decide   pre-answered by the scan: C++, custom-base; s scaffolds into the project itself
#            (Dockerfile, byoc.json, byoc's launcher; the job runs the user's code);
#   Build    the settings from byoc.json; the build args BYOC_SAGEMAKER_TRAINING=offline and
#            network none typed into the settings form (the engine has no network); the lint
#            first; built, p hands the image to Push;
#   Push     a unique amazon-braket-* repository, created by the push; byoc.json records it;
#   Permit   the pushed repository; the job's role (made in moto's IAM) is granted pull after
#            the diff; k says the role can pull;
#   Run      the form prefilled from byoc.json (source ., entry point cpp-cmake/CMakeLists.txt)
#            and the last push (the image); a job name and the role typed; the review names
#            where each value came from and sends the C++ entry point; its preflight passes;
#            y sends;
#   Monitor  shows the created job; Enter opens it (status, the entry point in its config);
#            C-c quits from there, its watch still running, with exit code 0.
# The stand-in's control API then says the job exists with the image and the C++ entry point.
# "[Ns] Step" lines on stderr say how long each step took (not checked).
# The build is offline: the engine holds the base the Dockerfile names, as a user's engine does
# once it has pulled it (the topology's toolchain image, tagged with that name).
# IAM's SimulatePrincipalPolicy (Permit's k, preflight's permissions) is answered by
# tests/topology/ecr_front.py in front of moto, as test_toolchain_journeys does.
E2E_TIMEOUT=${E2E_TIMEOUT:-120}    # generous: the build and the push are slow on a busy machine
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
: "${AWS_ENDPOINT_URL_BRAKET:?run through tests/topology/with-env.sh}"
: "${BYOC_STANDIN_CONTROL:?run through tests/topology/with-env.sh}"
: "${BYOC_TEST_REGISTRY:?run through tests/topology/with-env.sh}"
SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
PY=${BYOC_TEST_PYTHON:-python3}
TOOLCHAIN=${BYOC_TEST_BASE_TOOLCHAIN:-byoc-test/toolchain:1}
ACCOUNT=${BYOC_TEST_ACCOUNT:-123456789012}
RUN_ID=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')   # short: the pushed URI fits in 80 columns
P="$E2E_DIR/cpp-cmake"
REPO="amazon-braket-e2e-j$RUN_ID"
ROLE_NAME="AmazonBraketJobsExecutionRole-e2ej$RUN_ID"
ROLE="arn:aws:iam::$ACCOUNT:role/service-role/$ROLE_NAME"
JOB="e2e-j-$RUN_ID"            # whole in Monitor's Name column
TAG="byoc-e2e/journey-$RUN_ID:v1"
ENTRY="cpp-cmake/CMakeLists.txt"

if ! "$DOCKER" image inspect "$TOOLCHAIN" >/dev/null 2>&1; then
    e2e_log "SKIP: the engine has no $TOOLCHAIN (tests/topology/base-images.sh makes it)"
    exit 77
fi
cp -r "$SRC/tests/fixtures/journeys/cpp-cmake" "$P"

# iam create | delete: the job's execution role in moto's IAM, with the managed policy's document
# (moto has no AWS managed policies), as test_toolchain_journeys.py makes it
iam() {
    "$PY" - "$1" "$ROLE_NAME" <<'EOF'
import json, sys, boto3
iam = boto3.session.Session().client("iam")
name, managed_name = sys.argv[2], "AmazonBraketJobsExecutionPolicy"
account = boto3.session.Session().client("sts").get_caller_identity()["Account"]
managed = "arn:aws:iam::%s:policy/service-role/%s" % (account, managed_name)
if sys.argv[1] == "create":
    iam.create_role(RoleName=name, Path="/service-role/", AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"},
                                                "Action": "sts:AssumeRole"}]}))
    try:
        iam.get_policy(PolicyArn=managed)
    except iam.exceptions.NoSuchEntityException:
        import moto.iam.aws_managed_policies as m
        doc = json.loads(m.aws_managed_policies_data)[managed_name]["Document"]
        iam.create_policy(PolicyName=managed_name, Path="/service-role/", PolicyDocument=json.dumps(doc))
    iam.attach_role_policy(RoleName=name, PolicyArn=managed)
else:
    iam.detach_role_policy(RoleName=name, PolicyArn=managed)
    iam.delete_role(RoleName=name)
EOF
}
delete_repo() {
    "$PY" - "$REPO" <<'EOF'
import sys, boto3
boto3.session.Session().client("ecr").delete_repository(repositoryName=sys.argv[1], force=True)
EOF
}
# The images this test made: the refs on the engine now that were not there before, of the names
# it gives (the base's tag, the build's tags, the pushed reference).
IMAGES_BEFORE=$("$DOCKER" images --format '{{.Repository}}:{{.Tag}}')
BASE=""
cleanup() {
    local ref
    for ref in $("$DOCKER" images --format '{{.Repository}}:{{.Tag}}'); do
        case $ref in
            "$BASE" | byoc-e2e/journey-*:* | amazon-braket-cpp-cmake:* | "$BYOC_TEST_REGISTRY/$REPO":*) ;;
            *) continue ;;
        esac
        printf '%s\n' "$IMAGES_BEFORE" | grep -qxF -- "$ref" || "$DOCKER" rmi "$ref" >/dev/null 2>&1
    done
    delete_repo >/dev/null 2>&1
    iam delete >/dev/null 2>&1
    [ -n "${FRONT_PID:-}" ] && kill "$FRONT_PID" 2>/dev/null
    e2e_cleanup
}
trap cleanup EXIT

iam create || e2e_fail "could not create the role $ROLE_NAME in moto's IAM"
# moto behind the front, which answers IAM SimulatePrincipalPolicy; it serves until its stdin closes
coproc FRONT { exec "$PY" "$SRC/tests/topology/ecr_front.py" --upstream "$AWS_ENDPOINT_URL" --simulate evaluate; }
read -r -t 30 line <&"${FRONT[0]}" || line=""
case $line in
    PORT=*) ENDPOINT="http://127.0.0.1:${line#PORT=}" ;;
    *) e2e_fail "ecr_front.py did not start: '$line'"; ENDPOINT=$AWS_ENDPOINT_URL ;;
esac

# --- the welcome page: start a project here ------------------------------------------------------
s=journey
E2E_CWD=$P e2e_start $s 80 24 "AWS_ENDPOINT_URL=$ENDPOINT" "XDG_STATE_HOME=$E2E_DIR/state" -- tui
e2e_wait $s "$E2E_WELCOME" "a directory with code and no byoc.json opens on the welcome page"
e2e_has $s "this directory: $P" "naming the directory"
e2e_keys $s h
e2e_wait $s '1 Decide: BYOC is required' "h: Decide, with the scan's verdict"
e2e_has $s 'custom-base' "the recipe is a custom base"
e2e_has $s '\[non-python\]' "because the job runs C++ code"
e2e_keys $s Enter
e2e_wait $s 'Languages.*cpp.*scanned' "the scan answered C++"
e2e_keys $s Escape

e2e_log "[${SECONDS}s] Decide"
# --- Decide: scaffold into the project ------------------------------------------------------------
e2e_keys $s s
e2e_wait $s 'Scaffold this' "s asks where to scaffold"
e2e_has $s "custom-base for cpp on amd64" "for C++ on a custom base"
e2e_keys $s Enter
e2e_wait $s 'Write [0-9]+ files\?' "the project directory is offered: Enter shows the plan"
e2e_has $s 'Dockerfile' "which writes a Dockerfile"
e2e_keys $s y
e2e_wait $s 'Wrote [0-9]+ files into' "y scaffolds"
e2e_has $s "The job runs your code: source" "the job runs the user's code"
e2e_has $s "module \., entry point $ENTRY\." "the project, from its CMakeLists.txt"
e2e_keys $s Enter
e2e_wait_gone $s 'Wrote [0-9]+ files into' "Enter closes the report"
for f in Dockerfile byoc.json byoc/train; do
    [ -f "$P/$f" ] && e2e_pass "scaffold wrote $f" || e2e_fail "scaffold did not write $f"
done
grep -q "\"entry_point\": \"$ENTRY\"" "$P/byoc.json" && e2e_pass "byoc.json names the C++ entry point" ||
    e2e_fail "byoc.json: $(cat "$P/byoc.json")"

# The engine holds the base the Dockerfile names (a user's engine would have pulled it).
BASE=$(sed -nE 's/^FROM (--platform=[^ ]+ )?([^ ]+).*/\2/p' "$P/Dockerfile" | head -1)
if [ -z "$BASE" ]; then
    e2e_fail "no FROM in the scaffolded Dockerfile"
elif ! "$DOCKER" image inspect "$BASE" >/dev/null 2>&1; then
    "$DOCKER" tag "$TOOLCHAIN" "$BASE" || e2e_fail "docker tag $TOOLCHAIN $BASE"
fi

e2e_log "[${SECONDS}s] Build"
# --- Build: offline, the lint first -------------------------------------------------------------------
e2e_keys $s 2
e2e_wait $s "${E2E_STEP_TITLES[1]}" "2 opens Build"
e2e_wait $s 'Dockerfile Dockerfile' "the settings come from byoc.json"
e2e_keys $s e
e2e_wait $s 'Lint first +\[x\] on' "e opens the settings"
e2e_keys $s Down Down C-u
e2e_type $s "$TAG"
e2e_keys $s Down C-u
e2e_type $s 'BYOC_SAGEMAKER_TRAINING=offline'
e2e_keys $s Down Down Down
e2e_wait $s 'Network for RUN' "the network field"
e2e_keys $s Right
e2e_wait $s 'Network for RUN +.*none' "Right chooses none"
e2e_keys $s C-s
e2e_wait $s 'Built [0-9a-f]{12} +[0-9.]+ (B|KiB|MiB|GiB)' "the lint passes and the build ends with the image"
e2e_has $s 'p pushes it' "and offers to push it"
e2e_has $s 'Lint: clean' "the lint found nothing"
grep -q '"BYOC_SAGEMAKER_TRAINING": "offline"' "$P/byoc.json" && e2e_pass "byoc.json keeps the build arg" ||
    e2e_fail "byoc.json lacks the build arg: $(cat "$P/byoc.json")"
"$DOCKER" image inspect "$TAG" >/dev/null 2>&1 && e2e_pass "the engine has $TAG" || e2e_fail "no $TAG on the engine"

e2e_log "[${SECONDS}s] Push"
# --- Push: a new amazon-braket-* repository ---------------------------------------------------------
e2e_keys $s p
e2e_wait $s "Push: $TAG selected" "p hands the image to Push"
e2e_wait $s "${E2E_STEP_TITLES[2]}" "and goes to Push"
e2e_keys $s e Tab C-u
e2e_type $s "$REPO"
e2e_keys $s Escape
e2e_wait $s "Repository\*? +$REPO" "the repository is typed"
e2e_lacks $s 'Not amazon-braket' "an amazon-braket-* name is not warned about"
e2e_keys $s p
e2e_wait $s "^. $BYOC_TEST_REGISTRY/$REPO:v1" "the push creates the repository and ends with the image URI"
e2e_has $s 'Digest sha256:[0-9a-f]{40}' "and the digest"
grep -q "\"image_uri\": \"$BYOC_TEST_REGISTRY/$REPO:v1\"" "$P/byoc.json" && e2e_pass "byoc.json records the push" ||
    e2e_fail "byoc.json lacks the push: $(cat "$P/byoc.json")"

e2e_log "[${SECONDS}s] Permit"
# --- Permit: grant the job role pull ------------------------------------------------------------
e2e_keys $s 4
e2e_wait $s "4 Permit: $REPO" "Permit takes the pushed repository"
e2e_wait $s 'no repository policy' "which has no policy yet"
e2e_keys $s e Down
e2e_type $s "$ROLE"
e2e_keys $s Down C-u
e2e_type $s "$ROLE"
e2e_keys $s Escape
e2e_keys $s a
e2e_wait $s 'Apply the policy change\?' "a shows the diff and asks"
e2e_keys $s y
e2e_wait $s '[│|] ?applied +[│|]' "y grants the role pull"
e2e_keys $s k
e2e_wait $s 'YES: the role can pull' "k: the job role can pull"

e2e_log "[${SECONDS}s] Run"
# --- Run: the form from byoc.json and the last push --------------------------------------------------
e2e_keys $s 5
e2e_wait $s "${E2E_STEP_TITLES[4]}" "5 opens Run"
e2e_wait $s "Image $BYOC_TEST_REGISTRY/amazon-" "the image is the last push's"
e2e_has $s "Source \. +entry $ENTRY" "the code is byoc.json's: the project, the C++ entry point"
e2e_keys $s e
e2e_wait $s 'Code: source module' "e opens the job form"
for i in $(seq 12); do e2e_keys $s Down; done
e2e_wait $s '. Advanced: job name' "the job name field"
e2e_type $s "$JOB"
e2e_keys $s Tab C-u
e2e_type $s "$ROLE"
e2e_keys $s C-s
e2e_wait $s 'CreateJob request' "C-s: the review page"
e2e_wait $s 'Preflight at [0-9:]{8} (FAILED|passed)' "the preflight checks run"
e2e_has $s 'From byoc\.json +source_module, entry_point' "the review names what byoc.json gave"
e2e_has $s 'From last push +image_uri' "and what the last push gave"
e2e_keys $s PgDn
e2e_wait $s "\"entryPoint\": \"$ENTRY\"" "PgDn: the request's entry point is the C++ project's"
if e2e_capture $s | grep -Eq 'Preflight at [0-9:]{8} passed: [0-9]+ pass, [0-9]+ warn, 0 fail'; then
    e2e_pass "$s: preflight passes"
    e2e_keys $s y
else
    e2e_fail "$s: preflight failed: $(e2e_capture $s | grep -E 'Preflight at|FAIL ')"
    e2e_keys $s y
    e2e_wait $s 'Send anyway' "y asks first"
    e2e_keys $s y
fi

e2e_log "[${SECONDS}s] Monitor"
# --- Monitor --------------------------------------------------------------------------------------
e2e_wait $s "${E2E_STEP_TITLES[5]}" "the job is sent and the app goes to Monitor"
e2e_wait $s "$JOB +. (QUEUED|RUNNING|COMPLETED)" "Monitor shows the job with its status"
e2e_keys $s /
e2e_type $s "$JOB"
e2e_keys $s Enter
e2e_wait $s "/$JOB +1 of [0-9]+" "the filter keeps the job"
e2e_keys $s Enter
e2e_wait $s "6 Monitor: $JOB" "Enter opens the job"
e2e_wait $s 'Status +. (QUEUED|RUNNING|COMPLETED)' "its detail shows the status the stand-in gives"
e2e_has $s "\{\"scriptModeConfig\":\{\"entryPoint\":\"cpp-cmake/" "and its config the C++ entry point"

curl -sf "$BYOC_STANDIN_CONTROL/jobs/$JOB" >"$E2E_DIR/job.json"
if "$PY" - "$E2E_DIR/job.json" "$JOB" "$ENTRY" "$BYOC_TEST_REGISTRY/$REPO:v1" "$ROLE" <<'EOF'; then
import json, sys
path, job, entry, image, role = sys.argv[1:]
doc = json.load(open(path))
spec = doc.get("algorithmSpecification", {})
ok = (doc.get("jobName") == job and spec.get("scriptModeConfig", {}).get("entryPoint") == entry
      and spec.get("containerImage", {}).get("uri") == image and doc.get("roleArn") == role)
sys.exit(0 if ok else 1)
EOF
    e2e_pass "the stand-in has the job with the C++ entry point, the pushed image and the role"
else
    e2e_fail "the stand-in's job $JOB: $(cat "$E2E_DIR/job.json")"
fi

e2e_log "[${SECONDS}s] done"
e2e_keys $s C-c      # from the job's detail, its watch still running (it once freed that task twice)
for _ in $(seq 1 $((E2E_TIMEOUT * 10))); do
    [ -s "$E2E_DIR/$s/rc" ] && break
    if e2e_capture $s | grep -q 'Quit byoc?'; then e2e_keys $s y; break; fi
    sleep 0.1
done
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_done
