#!/usr/bin/env bash
# long-run.sh [-r RUNS] [-j JOBS] [-w WORKERS] [-t SECONDS] [TARGET...]: the long libFuzzer run of every
# target (or the ones named), as README.md describes. Needs a BYOC_FUZZ=ON build:
#   CC=clang cmake -S . -B build-fuzz -DBYOC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
#   cmake --build build-fuzz -j2
# Each target runs until RUNS executions (default 10,000,000), SECONDS of wall time per
# target (default 0: no limit) or its first crash; JOBS targets at a time (default 2).
# With -w, each target runs as WORKERS libFuzzer processes sharing its corpus, each to
# RUNS/WORKERS executions (their logs in $BYOC_FUZZ_WORK/logs/<target>-workers/); the
# count is their sum, and one worker's crash stops that worker only.
# The corpus grows in $BYOC_FUZZ_WORK/corpus/<target> (default build-fuzz/fuzz-long), seeded
# from tests/fuzz/corpus/<target>; crashes land in $BYOC_FUZZ_WORK/artifacts/.
# Prints one line per target: target, executions, crashes, seconds, exec/s, and writes the
# same table to $BYOC_FUZZ_WORK/results.md.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BYOC_FUZZ_BUILD:-$root/build-fuzz}
work=${BYOC_FUZZ_WORK:-$build/fuzz-long}
runs=10000000 jobs=2 seconds=0 workers=1
while getopts r:j:t:w: o; do
    case $o in r) runs=$OPTARG ;; j) jobs=$OPTARG ;; t) seconds=$OPTARG ;; w) workers=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in "$here"/fuzz_*.c; do t=$(basename "$f" .c); targets+=("${t#fuzz_}"); done
fi
mkdir -p "$work/corpus" "$work/artifacts" "$work/logs"

one() { # TARGET
    local t=$1 bin=$build/tests/fuzz/fuzz_$1
    [ -x "$bin" ] || { printf '%s\tnot built\n' "$t"; return; }
    mkdir -p "$work/corpus/$t"
    local dict=()
    [ -f "$here/dict/$t.dict" ] && dict=(-dict="$here/dict/$t.dict")
    local start=$SECONDS
    if [ "$workers" -gt 1 ]; then
        local wdir=$work/logs/$t-workers
        rm -rf "$wdir" && mkdir -p "$wdir"
        (cd "$wdir" && "$bin" -jobs="$workers" -workers="$workers" -runs=$((runs / workers)) \
            -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" "${dict[@]}" \
            "$work/corpus/$t" "$here/corpus/$t" >"$work/logs/$t.log" 2>&1)
        local took=$((SECONDS - start)) execs crashes
        execs=$(cat "$wdir"/fuzz-*.log | grep -o 'stat::number_of_executed_units: [0-9]*' | awk '{n += $2} END {print n + 0}')
        crashes=$(cat "$wdir"/fuzz-*.log | grep -c 'Test unit written to')
        printf '%s\t%s\t%s\t%s\t%s\n' "$t" "$execs" "$crashes" "$took" "$((execs / (took > 0 ? took : 1)))"
        return
    fi
    "$bin" -runs="$runs" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2560 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" "${dict[@]}" \
        "$work/corpus/$t" "$here/corpus/$t" >"$work/logs/$t.log" 2>&1
    local rc=$? took=$((SECONDS - start))
    local execs
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/logs/$t.log" | awk '{print $2}' | tail -1)
    [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' "$work/logs/$t.log" | tail -1 | tr -d '#')
    local crashes=0
    [ $rc -ne 0 ] && crashes=1
    printf '%s\t%s\t%s\t%s\t%s\n' "$t" "${execs:-0}" "$crashes" "$took" "$(( ${execs:-0} / (took > 0 ? took : 1) ))"
}
export -f one
export build work runs seconds here workers

printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {} | tee "$work/results.tsv"
{
    echo "| target | executions | crashes | seconds | exec/s |"
    echo "|---|---:|---:|---:|---:|"
    sort "$work/results.tsv" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
} > "$work/results.md"
echo "table: $work/results.md; logs: $work/logs; crashes: $work/artifacts" >&2
