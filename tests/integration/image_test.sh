# image_test.sh: what the shell tests that build images on the topology's engine share (not a
# shellcheck shell=bash
# test: the glob takes test_*.sh). Source it with the test's name, after set -euo pipefail:
#   . "$(dirname "$0")/image_test.sh" NAME
# It checks that the test runs under ctest through tests/topology/with-env.sh, and gives
#   DOCKER      the docker CLI the topology names
#   WORK        a fresh directory; BASE and TAG, image names of this run (byoc-test/NAME-base:PID,
#               byoc-test/NAME:PID); all three removed at exit
#   CONTAINERS  the test appends the containers it creates: removed at exit
#   fail MSG    says FAIL and exits 1;  pass MSG  says ok
#   build_base DIR WHAT         BASE from DIR, quietly, with no network (fails WHAT)
#   build_tag DIR [ARGS...]     TAG from DIR with no network and byoc's offline build arg;
#                               the log in $WORK/build.log, shown when the build fails
: "${BYOC_BIN:?BYOC_BIN is not set (run under ctest)}"
: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-$1.XXXXXX")
BASE=byoc-test/$1-base:$$
TAG=byoc-test/$1:$$
CONTAINERS=()
image_test_cleanup() {
    local c
    for c in "${CONTAINERS[@]}"; do "$DOCKER" rm -f "$c" >/dev/null 2>&1 || true; done
    "$DOCKER" rmi -f "$TAG" "$BASE" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap image_test_cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

build_base() {
    "$DOCKER" build -q --network none -t "$BASE" "$1" >/dev/null 2>"$WORK/base.err" ||
        { cat "$WORK/base.err" >&2; fail "$2"; }
}

build_tag() {
    local dir=$1
    shift
    "$DOCKER" build "$@" --network none --build-arg BYOC_SAGEMAKER_TRAINING=offline -t "$TAG" "$dir" \
        >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "docker build --network none"; }
}
