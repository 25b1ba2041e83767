#!/usr/bin/env bash
# Benchmark: the TUI's Monitor screen with a large jobs table and a large log view (issue 7):
# peak RSS (VmHWM of the byoc process just before it quits; budget < 64 MiB) and the frame time of
# a key press (microseconds from reading the key to the end of doupdate(), written by byoc when
# BYOC_FRAME_LOG is set; one frame at 60 Hz is 16.7 ms). There is no TUI peer: the same run at a
# small size (100 jobs, 1,000 lines) is the side-by-side reference, to show that memory is bounded
# and the frame time flat as the data grows.
#
# How the data gets there:
#   - the table: every job of the region is listed (all SearchJobs pages, in the background), so
#     the stand-in is topped up to JOBS jobs named bench-jobs-* in us-east-1 for the big run and
#     to 100 jobs named bench-small-* in us-west-2 for the small one (concurrent signed CreateJob
#     calls; the stand-in is never reset: other tests' jobs stay and are listed too), plus a
#     local-jobs record ($XDG_STATE_HOME/byoc/local-jobs.json in a temp dir) of LOCAL jobs;
#   - the log: one RUNNING local job of that record (its pid is a `sleep` this script starts)
#     whose log.txt holds LINES lines; the job view streams the whole file into its ring, which
#     keeps the last 20,000 lines and counts the rest as dropped.
# Keys are sent one at a time through tmux (120x40), KEYS presses in the table (PgDn/PgUp/j/k/
# End/Home and a / name filter) and KEYS in the log view (k/j/PgUp/PgDn, / search, n, End).
#
# usage: tests/topology/with-env.sh bench/monitor_tui.sh       (JOBS=10000 LINES=1000000 KEYS=200)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BYOC_BIN=${BYOC_BIN:-$root/build/byoc}
[ -x "$BYOC_BIN" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
command -v tmux >/dev/null || { echo "bench: tmux is missing" >&2; exit 3; }
export BYOC_BIN E2E_TIMEOUT=${E2E_TIMEOUT:-300}
. "$root/tests/e2e/lib.sh"
big_jobs=${JOBS:-10000}
big_lines=${LINES:-1000000}
local_jobs=${LOCAL:-100}
keys=${KEYS:-200}
pause=${PAUSE:-0.03}
stop_sleepers() { # the sleep standing in for each log job's byoc process
  local f
  for f in "$E2E_DIR"/data-*/sleeper.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; rm -f "$f"; done
  return 0
}
trap 'stop_sleepers; e2e_cleanup' EXIT

# top_up REGION PREFIX N: at least N jobs named PREFIX* in the stand-in's REGION
top_up() {
  BENCH_REGION=$1 BENCH_PREFIX=$2 BENCH_JOBS=$3 BENCH_ROOT=$root python3 - <<'EOF'
import os, sys, uuid
sys.path.insert(0, os.path.join(os.environ["BENCH_ROOT"], "tests", "topology"))
from testkit import control, create_minimal_jobs
region, prefix, want = os.environ["BENCH_REGION"], os.environ["BENCH_PREFIX"], int(os.environ["BENCH_JOBS"])
status, listing = control("GET", "/jobs")
have = sum(1 for j in listing["jobs"] if j["jobName"].startswith(prefix) and j["region"] == region)
missing = want - have
print("bench: %s: %d %s* jobs in the stand-in; creating %d" % (region, have, prefix, max(missing, 0)), file=sys.stderr)
if missing > 0:
    stamp = uuid.uuid4().hex[:8]
    create_minimal_jobs(["%s%s-%05d" % (prefix, stamp, i) for i in range(missing)], region=region)
EOF
}

# make_state DIR JOBS LINES: the local record (JOBS local jobs) and the log job's log.txt
make_state() {
  local dir=$1 n=$2 lines=$3
  mkdir -p "$dir/state/byoc" "$dir/out/bench-log" "$dir/project"
  chmod 700 "$dir/state" "$dir/state/byoc"
  awk -v n="$lines" 'BEGIN {for (i = 0; i < n; i++) printf "step %07d: loss=%.6f lr=0.010 shots=1000\n", i, 1 / (i + 1)}' \
    >"$dir/out/bench-log/log.txt"
  sleep 3600 >/dev/null 2>&1 &
  local pid=$!
  echo "$pid" >"$dir/sleeper.pid"
  BENCH_N=$n BENCH_DIR=$dir BENCH_PID=$pid python3 - <<'EOF'
import json, os
n, d, pid = int(os.environ["BENCH_N"]), os.environ["BENCH_DIR"], int(os.environ["BENCH_PID"])
def job(name, status, created, **kw):
    j = {"job_name": name, "status": status, "created": created, "device": "local:braket/default_simulator",
         "local": True, "image": "byoc-test/python:3", "image_id": None, "started": created,
         "ended": None if status == "RUNNING" else created, "exit_code": None if status == "RUNNING" else 0,
         "failure_reason": None, "output_dir": None, "container_id": None, "pid": None}
    j.update(kw)
    return j
jobs = [job("bench-log", "RUNNING", "2026-12-02T12:00:00.000Z", output_dir=d + "/out/bench-log", pid=pid)]
for i in range(n - 1):
    jobs.append(job("bench-local-%05d" % i, ("COMPLETED", "FAILED", "CANCELLED")[i % 3],
                    "2026-11-%02dT%02d:%02d:00.000Z" % (1 + i // 1440 % 28, i // 60 % 24, i % 60)))
path = d + "/state/byoc/local-jobs.json"
with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
    json.dump({"version": 1, "jobs": jobs}, f)
EOF
}

phase_stats() { # phase_stats TITLE FILE: frame times of one phase, to stderr
  sort -n "$2" | awk -v t="$1" '{a[NR] = $1; if ($1 > 16667) o++}
    END {printf "bench: %s: %d, median %.2f ms, p95 %.2f ms, max %.2f ms, %d over 16.7 ms\n", t, NR,
         (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1000, a[int(NR * 0.95 + 0.999)] / 1000, a[NR] / 1000, o}' >&2
}

press() { e2e_keys "$1" "$2"; sleep "$pause"; }

# run_size LABEL REGION AWS_JOBS LOCAL_JOBS LINES: writes to $E2E_DIR/result-LABEL
# "LABEL rows lines vmhwm_kib frames median_us p95_us max_us over_16.7ms table_vmhwm_kib"
run_size() {
  local label=$1 region=$2 n=$(($3 + $4)) lines=$5 dir="$E2E_DIR/data-$1" s="mon-$1"
  make_state "$dir" "$4" "$lines"
  local frames="$dir/frames"
  e2e_start "$s" 120 40 "XDG_STATE_HOME=$dir/state" "BYOC_FRAME_LOG=$frames" -- --region "$region" \
    --project "$dir/project" tui || return 1
  sleep 1
  press "$s" 6
  local rows=0 t
  for ((t = 0; t < 600; t++)); do
    rows=$(e2e_capture "$s" | sed -n 's/.*Monitor: \([0-9][0-9]*\).*/\1/p' | head -1)
    [ -n "$rows" ] && [ "$rows" -ge "$n" ] && break
    sleep 0.5
  done
  [ -n "$rows" ] && [ "$rows" -ge "$n" ] || { echo "bench: the table never listed $n jobs" >&2; e2e_capture "$s" >&2; return 1; }
  echo "bench: $label: table lists $rows jobs" >&2
  local table_hwm
  local table=(PgDn PgDn PgDn j j k End k k PgUp Home j PgDn PgDn k)
  local i
  for ((i = 0; i < keys; i++)); do
    if ((i == keys / 2)); then          # a name filter, typed a key at a time, then cleared
      press "$s" /; for c in b e n c h - l o c a l - 0 0 1; do press "$s" "$c"; done; press "$s" Enter
      press "$s" /; for ((c = 0; c < 15; c++)); do press "$s" BSpace; done; press "$s" Enter
      i=$((i + 33))
    fi
    press "$s" "${table[i % ${#table[@]}]}"
  done
  table_hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$(e2e_pid "$s")/status")
  echo "bench: $label: peak RSS after the table keys: $table_hwm KiB" >&2
  local table_frames
  table_frames=$(wc -l <"$frames")
  # open the log job: filter down to it, open it, go to its Logs tab
  press "$s" /; e2e_type "$s" bench-log; sleep "$pause"; press "$s" Enter
  e2e_wait "$s" 'bench-log' || return 1
  press "$s" Enter; sleep 0.5; press "$s" Tab
  local logkeys=(k k k PgUp PgUp j PgDn End k k PgUp)
  for ((i = 0; i < keys; i++)); do
    if ((i % 50 == 25)); then            # a search, typed a key at a time, then next/previous
      press "$s" /; for c in s t e p Space 0 0; do press "$s" "$c"; done; press "$s" Enter
      press "$s" n; press "$s" n; press "$s" N
      i=$((i + 11))
    fi
    press "$s" "${logkeys[i % ${#logkeys[@]}]}"
  done
  # the whole log read: the view's status counts the lines it holds plus those its ring dropped;
  # wait until it reaches LINES (or stays the same for 10 s: then a line was lost).
  local got=0 prev=-1 same=0
  for ((t = 0; t < 900 && same < 10; t++)); do
    got=$(e2e_capture "$s" | sed -n 's/.* \([0-9][0-9]*\) lines\( (\([0-9][0-9]*\) dropped)\)\{0,1\}.*/\1 \3/p' | head -1 |
          awk '{print $1 + $2}')
    got=${got:-0}
    [ "$got" -ge "$lines" ] && break
    if [ "$got" = "$prev" ]; then same=$((same + 1)); else same=0; prev=$got; fi
    sleep 1
  done
  echo "bench: $label: the log view received $got of $lines lines" >&2
  local read_frames
  read_frames=$(wc -l <"$frames")
  for ((i = 0; i < 40; i++)); do press "$s" "${logkeys[i % ${#logkeys[@]}]}"; done
  press "$s" End
  local pid hwm
  pid=$(e2e_pid "$s")
  hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")
  e2e_signal "$s" TERM
  e2e_wait_exit "$s" >/dev/null 2>&1
  stop_sleepers
  phase_stats "$label: table frames" <(head -n "$table_frames" "$frames")
  phase_stats "$label: log view frames" <(tail -n +"$((table_frames + 1))" "$frames")
  phase_stats "$label: log view frames once the log was read" <(tail -n +"$((read_frames + 1))" "$frames")
  sort -n "$frames" | awk -v label="$label" -v rows="$rows" -v lines="$got" -v hwm="$hwm" -v thwm="$table_hwm" '
    {a[NR] = $1; if ($1 > 16667) over++}
    END {
      p95 = a[int(NR * 0.95 + 0.999)]; med = (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)
      printf "%s %d %d %d %d %.0f %d %d %d %d\n", label, rows, lines, hwm, NR, med, p95, a[NR], over + 0, thwm
    }' >"$E2E_DIR/result-$label"
}

# not in $(...): the tmux server started inside would hold the substitution's pipe open
top_up us-west-2 bench-small- 100 >&2 || exit 1
top_up us-east-1 bench-jobs- "$big_jobs" >&2 || exit 1
run_size small us-west-2 100 10 1000 >&2 || exit 1
run_size big us-east-1 "$big_jobs" "$local_jobs" "$big_lines" >&2 || exit 1
cat "$E2E_DIR/result-small" "$E2E_DIR/result-big" | awk '
  {label[NR] = $1; rows[NR] = $2; lines[NR] = $3; hwm[NR] = $4; n[NR] = $5; med[NR] = $6; p95[NR] = $7; mx[NR] = $8; over[NR] = $9; thwm[NR] = $10}
  END {
    print "Monitor TUI benchmark, 120x40, one key per frame"
    for (i = 1; i <= 2; i++)
      printf "  %-5s %6d rows, %8d log lines received: peak RSS %6.1f MiB; %d key frames: median %.2f ms, p95 %.2f ms, max %.2f ms, %d over 16.7 ms\n",
             label[i], rows[i], lines[i], hwm[i] / 1024, n[i], med[i] / 1000, p95[i] / 1000, mx[i] / 1000, over[i]
    for (i = 1; i <= 2; i++)
      printf "  %-5s peak RSS after the table keys, before the log view opened: %.1f MiB\n", label[i], thwm[i] / 1024
    printf "  big/small: peak RSS %.2f, median frame %.2f, p95 frame %.2f\n", hwm[2] / hwm[1], med[2] / med[1], p95[2] / p95[1]
    printf "  budget: peak RSS %.1f MiB < 64 MiB: %s; frames within 16.7 ms: %d of %d\n",
           hwm[2] / 1024, (hwm[2] < 65536) ? "MET" : "MISSED", n[2] - over[2], n[2]
  }'
