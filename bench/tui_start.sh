#!/usr/bin/env bash
# Benchmark: exec -> first complete frame at 80x24 for byoc's TUI, htop and tig (issue 22), one
# method for all three: bench/pty_frames.py (a pty, output fed to pyte, timestamped as read). Two
# times each: the end of the first burst (the last write of the first burst, 50 ms of quiet ending
# it, that leaves text on the bottom rows: values filled in within 50 ms count) and the layout (the
# first write after which every row holding text at the burst's end holds text). Runs interleaved,
# rotating the order; medians and the ratios.
# byoc starts in an empty project directory with made-up credentials and endpoints that accept
# nothing (127.0.0.1:9), so a first frame that waited on the network would show.
# Targets: byoc's median <= htop's, and <= 30 ms. Installs htop, tig and python3-pyte if missing.
#
# usage: bench/tui_start.sh [RUNS]        (RUNS=15)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/lib.sh"
runs=${1:-${RUNS:-15}}
byoc=${BYOC_BIN:-$root/build/byoc}
[ -x "$byoc" ] || { echo "bench: build byoc first (or set BYOC_BIN)" >&2; exit 3; }
if ! command -v htop >/dev/null || ! command -v tig >/dev/null || ! /usr/bin/python3 -c 'import pyte' 2>/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends htop tig python3-pyte >&2
fi

work=$(mktemp -d /tmp/byoc-bench-tui.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project" "$work/state" "$work/config" "$work/repo"
git -C "$work/repo" init -q
for i in $(seq 30); do echo "$i" >"$work/repo/f"; git -C "$work/repo" add f; git -C "$work/repo" -c user.name=b -c user.email=b@b commit -qm "commit $i"; done

frame() { # frame DIR CMD...: prints "BURST_MS LAYOUT_MS" of the first frame
  (cd "$1" && shift && env XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" HOME="$work" \
     AWS_ACCESS_KEY_ID=AKIDBENCHTUI AWS_SECRET_ACCESS_KEY=bench-tui AWS_REGION=us-east-1 \
     AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true \
     AWS_ENDPOINT_URL=http://127.0.0.1:9 DOCKER_HOST=unix://$work/no-engine.sock \
     /usr/bin/python3 "$root/bench/pty_frames.py" --idle 0.2 -- "$@") |
    /usr/bin/python3 -c 'import json,sys; d = json.load(sys.stdin); print(d["first_frame_ms"], d["layout_ms"])'
}

# The method's own floor in the same run: cat writing a 24-line screen and exiting.
seq -f 'line %g' 24 >"$work/screen.txt"
b=(); h=(); t=(); c=()   # "BURST LAYOUT" per run
run() { # run TOOL: one measurement, appended to its array
  case $1 in
    byoc) b+=("$(frame "$work/project" "$byoc")") ;;
    htop) h+=("$(frame "$work" htop)") ;;
    tig) t+=("$(frame "$work/repo" tig)") ;;
  esac
}
for ((i = 0; i < runs; i++)); do
  case $((i % 3)) in
    0) run byoc; run htop; run tig ;;
    1) run htop; run tig; run byoc ;;
    2) run tig; run byoc; run htop ;;
  esac
  c+=("$(frame "$work" cat "$work/screen.txt")")
  [ -n "${VERBOSE:-}" ] && echo "run $i (burst layout, ms): byoc ${b[-1]}, htop ${h[-1]}, tig ${t[-1]}, cat ${c[-1]}" >&2
done
col() { # col N VALUES...: the median of the Nth field
  local n=$1; shift
  printf '%s\n' "$@" | awk -v n="$n" '{print $n}' | median
}
awk -v n="$runs" -v b="$(col 1 "${b[@]}")" -v h="$(col 1 "${h[@]}")" -v t="$(col 1 "${t[@]}")" -v c="$(col 1 "${c[@]}")" \
    -v bl="$(col 2 "${b[@]}")" -v hl="$(col 2 "${h[@]}")" -v tl="$(col 2 "${t[@]}")" 'BEGIN {
  printf "TUI start-up, exec -> first complete frame at 80x24, %d interleaved runs, medians (ms)\n", n
  printf "        burst end   layout\n"
  printf "  byoc  %9.1f  %7.1f\n  htop  %9.1f  %7.1f\n  tig   %9.1f  %7.1f\n", b, bl, h, hl, t, tl
  printf "  cat   %9.1f           (the method'"'"'s floor: 24 lines, no terminal library)\n", c
  printf "  burst end: byoc/htop %.2f, byoc/tig %.2f; layout: byoc/htop %.2f, byoc/tig %.2f\n", b / h, b / t, bl / hl, bl / tl
  printf "  target byoc <= htop and <= 30 ms (burst end): %s\n", (b <= h && b <= 30) ? "met" : "MISSED"
}'
