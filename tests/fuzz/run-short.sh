#!/usr/bin/env bash
# run-short.sh FUZZER SEED-DIR [RUNS [SECONDS]]: a bounded libFuzzer run of one target (the ctest
# fuzz.<name>): RUNS executions (default 20000) or SECONDS of fuzzing (default 300), whichever
# ends first. It works on a scratch copy of the seeds: nothing is ever written into SEED-DIR (the
# source tree). Any crash, leak, UBSan report or timeout fails it; the input is kept in
# $BYOC_FUZZ_ARTIFACTS (default: the build's fuzz-artifacts/) and printed as hex.
set -euo pipefail
fuzzer=$1
seeds=$2
runs=${3:-${BYOC_FUZZ_RUNS:-20000}}
seconds=${4:-${BYOC_FUZZ_SECONDS:-300}}
name=$(basename "$fuzzer")
artifacts=${BYOC_FUZZ_ARTIFACTS:-$(dirname "$fuzzer")/fuzz-artifacts}
mkdir -p "$artifacts"
work=$(mktemp -d "${TMPDIR:-/tmp}/byoc-fuzz-short.XXXXXX")
trap 'rm -rf "$work" "$work.log"' EXIT
mkdir "$work/corpus" "$work/seeds"
cp -R "$seeds"/. "$work/seeds/"

dict=()
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/dict/${name#fuzz_}.dict" ] && dict=(-dict="$here/dict/${name#fuzz_}.dict")

status=0
"$fuzzer" -runs="$runs" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/$name-" "${dict[@]}" "$work/corpus" "$work/seeds" \
    >"$work.log" 2>&1 || status=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|INFO: Loaded|Done)' "$work.log" || true
if [ "$status" -ne 0 ]; then
    tail -n 60 "$work.log"
    for f in $(grep -oE "Test unit written to [^ ]+" "$work.log" | awk '{print $5}'); do
        echo "input $f:"
        head -c 4096 "$f" | od -A d -t x1z | head -n 80
    done
    echo "$name: FAILED (exit $status)"
else
    echo "$name: ok"
fi
rm -f "$work.log"
exit "$status"
