#!/bin/bash
# The Decide step's m key, end to end in tmux: pip installs a fixture project's
# requirements.txt from a loopback index (tests/fixtures/pip_index.py) in a
# container of byoc-test/python-pip:3 on the host network (byoc.json "decide"
# settings). While the index holds a wheel back the step shows the measurement
# running and m again cancels it (the verdict stays); then a whole measurement
# puts the seconds into the verdict's reason, and a new session shows the
# stored figure without measuring, beside the other side of the comparison: a
# local run's seconds to its first line (the local job record, localjobs.h).
. "$(dirname "$0")/lib.sh"

SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
for v in $(env | sed -n 's/^\(PIP_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
e2e_tmux new-session -d -s keeper "sleep 3600"

INDEX="$E2E_DIR/index"
mkdir -p "$INDEX"
touch "$INDEX/hold"
python3 "$SRC/tests/fixtures/pip_index.py" "$INDEX" &
INDEX_PID=$!
trap 'kill "$INDEX_PID" 2>/dev/null; e2e_cleanup' EXIT
for _ in $(seq 100); do [ -s "$INDEX/port" ] && break; sleep 0.1; done
[ -s "$INDEX/port" ] || { e2e_fail "the loopback index did not start"; e2e_done; exit 1; }
URL="http://127.0.0.1:$(cat "$INDEX/port")/simple/"

PROJECT="$E2E_DIR/project"
mkdir -p "$PROJECT"
printf 'slowpkg\nfastpkg\n' > "$PROJECT/requirements.txt"
printf 'import slowpkg\n' > "$PROJECT/algo.py"
cat > "$PROJECT/byoc.json" <<'JSON'
{"decide": {"measure_base": "byoc-test/python-pip:3", "measure_network": "host", "install_threshold_seconds": 1}}
JSON

STATE="$E2E_DIR/state"
mkdir -p "$STATE/byoc"
s=measure
e2e_start $s 250 50 "PIP_INDEX_URL=$URL" "XDG_STATE_HOME=$STATE" -- --project "$PROJECT" tui
e2e_wait $s 'Not measured: m times pip' "before measuring the step says how"
e2e_has $s 'A baked image: not timed yet; byoc run --local' "and how to time a baked image"
e2e_keys $s m
E2E_TIMEOUT=60 e2e_wait $s 'Measuring: installing \([0-9]+ s\)' "m runs the measurement, with progress"
e2e_keys $s m
E2E_TIMEOUT=60 e2e_wait $s 'Measurement cancelled; nothing changed' "m again cancels it"
e2e_has $s 'Not measured: m times pip' "and nothing was measured"
[ ! -e "$PROJECT/.byoc/measure.json" ] && e2e_pass "nothing stored" || e2e_fail "a cancelled measurement was stored"

rm -f "$INDEX/hold"
e2e_keys $s m
E2E_TIMEOUT=90 e2e_wait $s '\[slow-install\]' "a whole measurement turns into the reason"
e2e_has $s 'Installing these 2 packages took [0-9]+ s here' "the reason quotes the seconds"
e2e_has $s 'BYOC is recommended' "over the threshold BYOC is recommended"
e2e_has $s 'took [0-9.]+ s in byoc-test/python-pip:3' "the start-up cost names the base"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# a local run of the project's image, as byoc run --local records it
cat > "$STATE/byoc/local-jobs.json" <<JSON
{"version": 1, "jobs": [{"job_name": "baked-1", "status": "COMPLETED", "image": "byoc-test/app:1",
 "image_id": "sha256:0123", "created": "2026-12-05T08:00:00.000Z", "started": "2026-12-05T08:00:01.000Z",
 "output_dir": "$PROJECT/baked-1", "first_output_seconds": 2.25}]}
JSON
s=again
e2e_start $s 250 50 "XDG_STATE_HOME=$STATE" -- --project "$PROJECT" tui
e2e_wait $s '\[slow-install\]' "a new session shows the stored figure"
e2e_has $s ', reused;' "saying it was reused"
e2e_has $s 'A baked image \(byoc-test/app:1\) printed its first line 2\.2 s' \
    "beside the baked image's first output"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

e2e_done
