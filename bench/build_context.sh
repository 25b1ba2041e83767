#!/bin/bash
# bench/build_context.sh: byoc and the docker CLI 20.10 (/usr/bin/docker, the
# daemon's own version) send the same large generated build context to the
# same engine, side by side. Measures wall time (runs interleaved, order
# alternating, after one warm-up each) and peak RSS (GNU time's %M) at two
# context sizes, and prints the ratios. Targets: byoc wall <= the CLI's; byoc
# peak RSS <= 16 MiB and flat as the context grows.
#
#   tests/topology/with-env.sh bench/build_context.sh            # needs DOCKER_HOST
#   RUNS=5 SIZES="400 800" BYOC_BIN=build/byoc bench/build_context.sh
#
# SIZES are in MB; a context of S MB holds S*50 files (400 MB = 20,000 files)
# in 100-file directories, sizes spread 0-40 KB, a few .dockerignore patterns.
# Contexts are generated under $BENCH_DIR (default /tmp/byoc-bench-context)
# and removed at the end unless KEEP=1. VERBOSE=1 prints every run ("wall_s rss_kb").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
BYOC=${BYOC_BIN:-$HERE/../build/byoc}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
RUNS=${RUNS:-3}
SIZES=${SIZES:-"400 800"}
WORK=${BENCH_DIR:-/tmp/byoc-bench-context}
BASE=${BENCH_BASE_IMAGE:-byoc-test/busybox:1}

if [ -z "${DOCKER_HOST:-}" ] && [ -r /tmp/byoc-topology/env.sh ]; then
    . /tmp/byoc-topology/env.sh
fi
[ -x "$BYOC" ] || { echo "build_context.sh: no byoc binary at $BYOC (set BYOC_BIN)" >&2; exit 2; }
[ -x "$BENCH_GNU_TIME" ] || { echo "build_context.sh: GNU time ($BENCH_GNU_TIME) is needed: apt-get install time" >&2; exit 2; }
"$DOCKER" image inspect "$BASE" >/dev/null 2>&1 ||
    { echo "build_context.sh: base image $BASE missing (run tests/topology/up.sh)" >&2; exit 3; }

generate() { # generate DIR MB
    python3 - "$1" "$2" "$BASE" <<'EOF'
import os, random, sys
root, mb, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
files = mb * 50
target = mb * 1000 * 1000
rng = random.Random(20261202)
os.makedirs(root, exist_ok=True)
with open(os.path.join(root, "Dockerfile"), "w") as f:
    f.write(f"FROM {base}\nRUN echo context received\n")
with open(os.path.join(root, ".dockerignore"), "w") as f:
    f.write("**/*.tmp\nnode_modules\n!keep/**\n")
written = 0
for i in range(files):
    d = os.path.join(root, f"d{i // 10000:02d}", f"s{(i // 100) % 100:02d}")
    if i % 100 == 0:
        os.makedirs(d, exist_ok=True)
    left = files - i
    size = max(0, min(80_000, int(rng.uniform(0.5, 1.5) * (target - written) / left)))
    with open(os.path.join(d, f"f{i % 100:03d}.bin"), "wb") as f:
        f.write(rng.randbytes(size))
    written += size
print(f"{files} files, {written / 1e6:.0f} MB")
EOF
}

# measure NAME DIR: one run; appends "wall_s rss_kb" to $WORK/NAME.times
measure() {
    local name=$1 dir=$2 got
    if [ "$name" = byoc ]; then
        got=$(bench_time /dev/null "$BYOC" build "$dir" -t byoc-bench/ctx:byoc --network none --no-lint) || exit 1
    else
        got=$(bench_time /dev/null "$DOCKER" build -q -t byoc-bench/ctx:cli --network none "$dir") || exit 1
    fi
    echo "$got" | awk '{print $1, $3}' >>"$WORK/$name.times"
    [ "${VERBOSE:-0}" = 0 ] || echo "  $name $(tail -1 "$WORK/$name.times")" >&2
}

mkdir -p "$WORK"
trap '[ "${KEEP:-0}" = 1 ] || rm -rf "$WORK"; "$DOCKER" rmi -f byoc-bench/ctx:byoc byoc-bench/ctx:cli >/dev/null 2>&1 || true' EXIT

printf '%-8s %-22s %10s %10s %8s %10s %10s %8s\n' size context "byoc s" "cli s" ratio "byoc MiB" "cli MiB" ratio
rss_list=""
for mb in $SIZES; do
    dir=$WORK/ctx-$mb
    desc=$(generate "$dir" "$mb")
    rm -f "$WORK/byoc.times" "$WORK/cli.times"
    measure byoc "$dir" && measure cli "$dir"                # warm-up: page cache, layer cache
    rm -f "$WORK/byoc.times" "$WORK/cli.times"
    for i in $(seq 1 "$RUNS"); do
        if [ $((i % 2)) = 1 ]; then measure byoc "$dir"; measure cli "$dir"; else measure cli "$dir"; measure byoc "$dir"; fi
    done
    bw=$(cut -d' ' -f1 "$WORK/byoc.times" | median)
    cw=$(cut -d' ' -f1 "$WORK/cli.times" | median)
    br=$(cut -d' ' -f2 "$WORK/byoc.times" | maxof)
    cr=$(cut -d' ' -f2 "$WORK/cli.times" | maxof)
    rss_list="$rss_list $br"
    awk -v mb="$mb" -v d="$desc" -v bw="$bw" -v cw="$cw" -v br="$br" -v cr="$cr" 'BEGIN {
        printf "%-8s %-22s %10.2f %10.2f %8.2f %10.1f %10.1f %8.2f\n", mb " MB", d, bw, cw, bw / cw,
               br / 1024, cr / 1024, br / cr }'
    rm -rf "$dir"
done
echo "($RUNS interleaved runs per tool and size after a warm-up; wall = median, RSS = max)"
# shellcheck disable=SC2086
awk -v l="$rss_list" 'BEGIN { n = split(l, r, " "); lo = r[1]; hi = r[1]
    for (i = 2; i <= n; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
    printf "byoc peak RSS: %.1f-%.1f MiB across sizes (target <= 16 MiB, flat)\n", lo / 1024, hi / 1024 }'
