# lib.sh: what the benches share. Source it: . "$(dirname "$0")/lib.sh"
# shellcheck shell=bash
#
#   median 3 1 2           -> 2 (the middle value; the mean of the two middle ones for an even count)
#   printf '3\n1\n' | median   (no arguments: the values one a line on stdin)
#   maxof 3 1 2            -> 3 (no arguments: from stdin, as median)
#   bench_time OUT CMD...  -> "<wall s> <cpu s> <peak RSS KiB>" of one run of CMD
#   bench_time -2 OUT CMD...  (CMD's stderr goes to OUT too)
#
# bench_time: wall time from the clock around the run (date +%s%N), CPU (user+sys) and peak RSS
# from GNU time. CMD's stdout goes to OUT; its stderr is kept aside and shown when CMD fails, and
# then bench_time returns 1 (after printing the measurement all the same).

median() {
  { if [ "$#" -gt 0 ]; then printf '%s\n' "$@"; else cat; fi; } | sort -g |
    awk '{a[NR] = $1} END {print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2)}'
}

maxof() { { if [ "$#" -gt 0 ]; then printf '%s\n' "$@"; else cat; fi; } | sort -g | tail -1; }

BENCH_GNU_TIME=/usr/bin/time

bench_time() {
  local join=0 out tf ef t0 t1 u s m rc=0
  if [ "$1" = -2 ]; then join=1; shift; fi
  out=$1; shift
  [ -x "$BENCH_GNU_TIME" ] || { echo "bench: GNU time is needed: apt-get install time" >&2; return 2; }
  tf=$(mktemp) ef=$(mktemp)
  t0=$(date +%s%N)
  if [ "$join" = 1 ]; then
    "$BENCH_GNU_TIME" -f '%U %S %M' -o "$tf" "$@" >"$out" 2>&1 || rc=$?
  else
    "$BENCH_GNU_TIME" -f '%U %S %M' -o "$tf" "$@" >"$out" 2>"$ef" || rc=$?
  fi
  t1=$(date +%s%N)
  read -r u s m < <(tail -1 "$tf")   # a failed command adds a line before
  [ "$rc" = 0 ] || cat "$ef" >&2
  rm -f "$tf" "$ef"
  awk -v a="$t0" -v b="$t1" -v u="$u" -v s="$s" -v m="$m" 'BEGIN {printf "%.4f %.2f %d\n", (b - a) / 1e9, u + s, m}'
  [ "$rc" = 0 ]
}
