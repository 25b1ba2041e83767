#!/bin/bash
# Cancelling a build: Ctrl-C (SIGINT) to `byoc build` while a RUN step's
# container runs closes the connection; the engine then stops the build and
# removes that container. No dangling container may remain.
# Runs through tests/topology/with-env.sh (DOCKER_HOST, BYOC_BIN, BYOC_SOURCE_DIR).
set -u
BYOC=${BYOC_BIN:?BYOC_BIN is not set}
SRC=${BYOC_SOURCE_DIR:?BYOC_SOURCE_DIR is not set}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
T=$(mktemp -d)
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*" >&2
}
trap 'rm -rf "$T"' EXIT

# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds or time runs out
wait_for() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.2
    done
}

cancel_once() { # cancel_once SIGNAL
    local sig=$1 err=$T/err-$1
    : >"$err" # exists, empty, before the background build writes it
    "$BYOC" build "$SRC/tests/fixtures/contexts/cancel" -t "byoc-itest/cancel:$sig" --network none --no-lint \
        --no-cache >"$T/out" 2>"$err" &
    local pid=$!
    if ! wait_for 120 grep -q 'Running in [0-9a-f]' "$err"; then
        bad "$sig: the RUN step never started"
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        return
    fi
    local cid
    cid=$(sed -n 's/.*Running in \([0-9a-f]*\).*/\1/p' "$err" | head -1)
    if "$DOCKER" inspect "$cid" >/dev/null 2>&1; then ok; else bad "$sig: the RUN container $cid is not there"; fi
    wait_for 30 grep -q 'sleeping now' "$err" || true
    kill -s "$sig" "$pid"
    wait "$pid"
    local rc=$?
    if [ "$rc" = 1 ]; then ok; else bad "$sig: byoc exited $rc, want 1"; fi
    if grep -q 'cancelled' "$err"; then ok; else bad "$sig: no 'cancelled' in: $(tail -2 "$err")"; fi
    # The engine removes the container once it notices the closed connection.
    if wait_for 60 bash -c "! '$DOCKER' inspect '$cid' >/dev/null 2>&1"; then
        ok
    else
        bad "$sig: container $cid still exists after the cancel"
        "$DOCKER" rm -f "$cid" >/dev/null 2>&1
    fi
    if [ -z "$("$DOCKER" ps -aq --filter "id=$cid")" ]; then ok; else bad "$sig: $cid listed by docker ps -a"; fi
    if ! "$DOCKER" image inspect "byoc-itest/cancel:$sig" >/dev/null 2>&1; then ok; else bad "$sig: image was tagged"; fi
}

cancel_once INT
cancel_once TERM

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
