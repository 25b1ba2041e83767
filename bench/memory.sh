#!/usr/bin/env bash
# Benchmark: peak RSS against the library floor (issue 22), in one run: the floor (bench/curl_floor.c,
# a program that links Debian's libcurl and calls curl_global_init), `byoc doctor --json` (GNU time
# %M), and the TUI idle after its first frame (bench/pty_frames.py at 80x24: VmHWM 1 s after the
# first complete frame, no keys). Runs interleaved; medians. Targets: doctor and the idle TUI each
# <= floor + 3 MiB. Run it through tests/topology/with-env.sh for a doctor that reaches the
# topology's engine and STS; without it doctor's checks fail fast (still measured, said so).
#
# usage: [tests/topology/with-env.sh] bench/memory.sh [RUNS]      (RUNS=9)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-${RUNS:-9}}
byoc=${BYOC_BIN:-$root/build/byoc}
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
/usr/bin/python3 -c 'import pyte' 2>/dev/null ||
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends python3-pyte >&2
work=$(mktemp -d /tmp/byoc-bench-mem.XXXXXX)
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/floor" "$root/bench/curl_floor.c" -lcurl
mkdir -p "$work/project"
[ -n "${AWS_ENDPOINT_URL:-}" ] && where="the topology" || where="no topology: doctor's checks fail fast"

hwm() { { bench_time /dev/null "$@" 2>/dev/null || true; } | awk '{print $3}'; }   # doctor may fail: measured all the same
tui() {
  (cd "$work/project" && XDG_STATE_HOME="$work/state" /usr/bin/python3 "$root/bench/pty_frames.py" --idle 1 -- "$byoc") |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["hwm_kib"])'
}
f=(); d=(); t=()
for ((i = 0; i < runs; i++)); do
  f+=("$(hwm "$work/floor")"); d+=("$(hwm "$byoc" doctor --json)"); t+=("$(tui)")
  [ -n "${VERBOSE:-}" ] && echo "run $i: floor ${f[-1]} KiB, doctor ${d[-1]} KiB, tui ${t[-1]} KiB" >&2
done
awk -v n="$runs" -v w="$where" -v f="$(median "${f[@]}")" -v d="$(median "${d[@]}")" -v t="$(median "${t[@]}")" 'BEGIN {
  printf "peak RSS against the libcurl floor, %d interleaved runs, medians (%s)\n", n, w
  printf "  floor (libcurl + curl_global_init) %7d KiB\n", f
  printf "  byoc doctor --json                 %7d KiB  floor %+.1f MiB (target <= +3: %s)\n", d, (d - f) / 1024, (d - f) / 1024 <= 3 ? "met" : "MISSED"
  printf "  byoc TUI idle after first frame    %7d KiB  floor %+.1f MiB (target <= +3: %s)\n", t, (t - f) / 1024, (t - f) / 1024 <= 3 ? "met" : "MISSED"
}'
