#!/bin/bash
# Cancelling a LOCAL job from the Monitor, end to end: a real `byoc run --local`
# runs a container on the topology's engine; in the TUI (120x30) the job is in
# the table; c asks first and the default answer (No) leaves it running; y
# cancels: the byoc process running it stops and removes the container and
# records CANCELLED, which the table then shows. Cancelling it again says it
# already ended. Also `byoc cancel local:job/<name>` on a finished job.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
DOCKER=/usr/bin/docker
IMAGE="byoc-test/mon-cancel-local:$$"
NAME="mon-cancel-local-$$"
export XDG_STATE_HOME="$E2E_DIR/state"
mkdir -p "$XDG_STATE_HOME" "$E2E_DIR/ctx" "$E2E_DIR/proj" "$E2E_DIR/out"
chmod 700 "$XDG_STATE_HOME"

printf 'FROM byoc-test/busybox:1\nENTRYPOINT ["sh", "-c", "echo READY; exec sleep 600", "sh"]\n' >"$E2E_DIR/ctx/Dockerfile"
"$DOCKER" build -q -t "$IMAGE" "$E2E_DIR/ctx" >/dev/null || { e2e_fail "docker build of the test image"; e2e_done; exit; }
cleanup_image() { "$DOCKER" rmi -f "$IMAGE" >/dev/null 2>&1; }
trap 'kill "$RUN_PID" 2>/dev/null; cleanup_image; e2e_cleanup' EXIT
printf 'print("unused: the image has its own entry point")\n' >"$E2E_DIR/proj/algo.py"

(cd "$E2E_DIR/out" && exec "$BYOC_BIN" run --local --image-uri "$IMAGE" --source-module "$E2E_DIR/proj/algo.py" \
    --job-name "$NAME" >/dev/null 2>"$E2E_DIR/run.err") &
RUN_PID=$!

containers() { "$DOCKER" ps -aq --filter "label=byoc.local-job=$NAME" | wc -l; }
running=no
for _ in $(seq 300); do
    if grep -q "\"$NAME\"" "$XDG_STATE_HOME/byoc/local-jobs.json" 2>/dev/null && [ "$(containers)" -ge 1 ]; then
        running=yes; break; fi
    sleep 0.2
done
[ $running = yes ] && e2e_pass "byoc run --local started the job's container" ||
    e2e_fail "the local job never started: $(cat "$E2E_DIR/run.err")"

s=mon
e2e_start $s 120 30 "XDG_STATE_HOME=$XDG_STATE_HOME" -- --project "$E2E_DIR/proj" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 6
e2e_wait $s 'updated [0-9]+s ago' "the table is listed"
e2e_keys $s /
e2e_type $s "$NAME"
e2e_keys $s Enter
e2e_wait $s "$NAME +. RUNNING +local" "the running local job is in the table"

e2e_keys $s c
e2e_wait $s "Cancel job $NAME" "c asks before cancelling a local job"
e2e_has $s 'container is stopped and removed' "and says what happens"
e2e_keys $s Enter
e2e_wait_gone $s "Cancel job $NAME\?" "Enter on the default answer (No) closes the dialog"
sleep 1
if kill -0 "$RUN_PID" 2>/dev/null && [ "$(containers)" -ge 1 ]; then
    e2e_pass "No leaves the local job running"; else e2e_fail "the local job changed after No"; fi

e2e_keys $s c
e2e_wait $s "Cancel job $NAME" "c asks again"
e2e_keys $s y
e2e_wait $s 'Cancel sent: the job is CANCELLING' "y sends the cancel to the byoc process running it"
for _ in $(seq 300); do kill -0 "$RUN_PID" 2>/dev/null || break; sleep 0.2; done
if kill -0 "$RUN_PID" 2>/dev/null; then e2e_fail "byoc run --local did not stop"; else
    wait "$RUN_PID"; rc=$?
    [ "$rc" -ne 0 ] && e2e_pass "byoc run --local stopped (exit $rc)" || e2e_fail "byoc run --local exited 0"
fi
[ "$(containers)" -eq 0 ] && e2e_pass "the job's container is removed" || e2e_fail "a container of $NAME is left"
e2e_keys $s r
e2e_wait $s "$NAME +. CANCELLED" "the table shows the local job CANCELLED"

e2e_keys $s c
e2e_wait $s "Cancel job $NAME" "c on the ended job asks"
e2e_keys $s y
e2e_wait $s "already ended" "and then says the job already ended"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s

out=$("$BYOC_BIN" --json cancel "local:job/$NAME" 2>"$E2E_DIR/cancel.err"); rc=$?
[ "$rc" -eq 1 ] && grep -q 'already ended' "$E2E_DIR/cancel.err" &&
    e2e_pass "byoc cancel local:job/NAME on an ended job: exit 1, 'already ended'" ||
    e2e_fail "byoc cancel on the ended local job: rc=$rc out=$out err=$(cat "$E2E_DIR/cancel.err")"
e2e_done
