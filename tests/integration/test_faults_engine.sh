#!/usr/bin/env bash
# Faults between byoc and the Docker engine: tests/topology/faultproxy.py forwards
# tcp://127.0.0.1:<port> to the topology's engine socket and breaks chosen calls.
# The engine going away mid-build and mid-push (the stream cut, the connection reset),
# the registry failing mid-push (the engine's stream ends in an error), a 500, a
# truncated reply and something that is not an engine: byoc exits non-zero with one
# line that says what happened (for a push: what was not pushed), and running the same
# command again succeeds.
set -u
. "$(dirname "$0")/lib.sh"
src=$(cd "$(dirname "$0")/../.." && pwd)
py=${BYOC_TEST_PYTHON:-python3}

work=$(mktemp -d)
trap 'kill "$proxy_pid" 2>/dev/null; wait "$proxy_pid" 2>/dev/null; rm -rf "$work" "$OUT" "$ERR"' EXIT
"$py" "$src/tests/topology/faultproxy.py" --upstream "unix://${DOCKER_HOST#unix://}" \
    --port-file "$work/port" 2>/dev/null &
proxy_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
control=http://127.0.0.1:$port/_faultproxy
engine_socket=$DOCKER_HOST
export DOCKER_HOST=tcp://127.0.0.1:$port

rule() { curl -sf -X POST "$control/rules" -d "$1" >/dev/null || fail "could not add rule $1"; }
clear_rules() { curl -sf -X DELETE "$control/rules" >/dev/null; }
one_line_error() { # WHAT: stderr is exactly one "byoc: <what>: <why>" line
  expect_err_lines 1
  expect_err '^byoc: [^:]+: .+'
  if grep -qiE 'traceback|assert|segmentation|sanitizer' "$ERR"; then fail "$1: a crash"; else pass; fi
}

# ---- the image list --------------------------------------------------------------
run_byoc images --json
expect_rc 0 "images through the proxy"

rule '{"match": {"path_has": "/images/json"}, "fault": "status", "status": 500, "message": "injected engine failure"}'
run_byoc images --json
expect_rc 1 "images with an engine 500"
one_line_error "images 500"
expect_err 'injected engine failure'
run_byoc images --json
expect_rc 0 "images again"

rule '{"match": {"path_has": "/images/json"}, "fault": "truncate"}'
run_byoc images --json
expect_rc_in "1 3" "images with a truncated reply"
one_line_error "images truncated"
run_byoc images --json
expect_rc 0 "images again after the truncated reply"

rule '{"match": {"path_has": "/_ping"}, "fault": "html", "count": 2}'
run_byoc images --json
expect_rc 3 "images when something else answers"
one_line_error "not an engine"
expect_err 'not a Docker engine'
clear_rules

# ---- the engine goes away mid-build -------------------------------------------------
ctx=$work/ctx
mkdir -p "$ctx"
cat >"$ctx/Dockerfile" <<EOF
FROM $BYOC_TEST_BASE_BUSYBOX
RUN echo step-two > /two.txt
RUN echo step-three > /three.txt
EOF
tag=byoc-faults/engine:t$$

rule '{"match": {"path_has": "/build"}, "fault": "cut_stream", "cut_after": 120}'
run_byoc build "$ctx" -t "$tag" --no-lint --no-cache
expect_rc_in "1 3" "build with the stream cut"
expect_err '^byoc: '
if grep -E '^byoc: ' "$ERR" | grep -qiE 'build|engine'; then pass; else
  fail "a build cut mid-stream must say the build/engine connection was lost: $(grep '^byoc: ' "$ERR")"; fi
run_byoc build "$ctx" -t "$tag" --no-lint --no-cache
expect_rc 0 "the same build again"

rule '{"match": {"path_has": "/build"}, "fault": "reset"}'
run_byoc build "$ctx" -t "$tag" --no-lint
expect_rc_in "1 3" "build with the connection reset"
if grep -E '^byoc: ' "$ERR" | grep -qiE 'build|engine'; then pass; else
  fail "a build whose connection is reset must name the build/engine: $(grep '^byoc: ' "$ERR")"; fi
run_byoc build "$ctx" -t "$tag" --no-lint
expect_rc 0 "the build once more"

# ---- the registry and the engine go away mid-push ------------------------------------------
# (the image name has no "push" in it, so the rules hit only the engine's push call)
repo=byoc-faults-pz
rule '{"match": {"path_has": "/push"}, "fault": "stream_error", "cut_after": 200,
       "message": "received unexpected HTTP status: 502 Bad Gateway"}'
run_byoc push "$tag" --repository "$repo" --create
expect_rc 1 "push when the registry fails mid-push"
expect_err '^byoc: push: .*502 Bad Gateway'
expect_err 'not pushed: '
expect_err 'run the push again'
run_byoc push "$tag" --repository "$repo" --create
expect_rc 0 "the same push again"

rule '{"match": {"path_has": "/push"}, "fault": "cut_stream", "cut_after": 200}'
run_byoc push "$tag" --repository "$repo"
expect_rc_in "1 3" "push with the engine connection cut"
if grep -E '^byoc: ' "$ERR" | grep -qiE 'push|engine'; then pass; else
  fail "a push cut mid-stream must say the push/engine connection was lost: $(grep '^byoc: ' "$ERR")"; fi
run_byoc push "$tag" --repository "$repo"
expect_rc 0 "the push once more"

DOCKER_HOST=$engine_socket "${BYOC_TEST_DOCKER_CLI:-docker}" image rm -f "$tag" \
    "${BYOC_TEST_REGISTRY:-123456789012.dkr.ecr.us-east-1.amazonaws.com}/$repo:${tag##*:}" >/dev/null 2>&1
finish
