#!/usr/bin/env bash
# Benchmark: exec -> first complete frame at 80x24 for byoc's TUI, htop and tig (issue 22), one
# method for all three: bench/pty_frames.py (a pty, output fed to pyte, timestamped as read; the
# first complete frame is the last write of the first burst, 50 ms of quiet ending it, that
# leaves text on the bottom rows). Runs interleaved, rotating the order; medians and the ratio.
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

frame() { # frame DIR CMD...: prints the first frame's ms
  (cd "$1" && shift && env XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config" HOME="$work" \
     AWS_ACCESS_KEY_ID=AKIDBENCHTUI AWS_SECRET_ACCESS_KEY=bench-tui AWS_REGION=us-east-1 \
     AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true \
     AWS_ENDPOINT_URL=http://127.0.0.1:9 DOCKER_HOST=unix://$work/no-engine.sock \
     /usr/bin/python3 "$root/bench/pty_frames.py" --idle 0.2 -- "$@") |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["first_frame_ms"])'
}

# The method's own floor in the same run: cat writing a 24-line screen and exiting.
seq -f 'line %g' 24 >"$work/screen.txt"
b=(); h=(); t=(); c=()
for ((i = 0; i < runs; i++)); do
  case $((i % 3)) in
    0) b+=("$(frame "$work/project" "$byoc")"); h+=("$(frame "$work" htop)"); t+=("$(frame "$work/repo" tig)") ;;
    1) h+=("$(frame "$work" htop)"); t+=("$(frame "$work/repo" tig)"); b+=("$(frame "$work/project" "$byoc")") ;;
    2) t+=("$(frame "$work/repo" tig)"); b+=("$(frame "$work/project" "$byoc")"); h+=("$(frame "$work" htop)") ;;
  esac
  c+=("$(frame "$work" cat "$work/screen.txt")")
  [ -n "${VERBOSE:-}" ] && echo "run $i: byoc ${b[-1]} ms, htop ${h[-1]} ms, tig ${t[-1]} ms, cat ${c[-1]} ms" >&2
done
awk -v n="$runs" -v b="$(median "${b[@]}")" -v h="$(median "${h[@]}")" -v t="$(median "${t[@]}")" -v c="$(median "${c[@]}")" 'BEGIN {
  printf "TUI start-up, exec -> first complete frame at 80x24, %d interleaved runs, medians\n", n
  printf "  byoc %7.1f ms\n  htop %7.1f ms\n  tig  %7.1f ms\n  cat  %7.1f ms (the method'"'"'s floor: 24 lines, no terminal library)\n", b, h, t, c
  printf "  byoc/htop %.2f, byoc/tig %.2f; target byoc <= htop and <= 30 ms: %s\n", b / h, b / t, (b <= h && b <= 30) ? "met" : "MISSED"
}'
