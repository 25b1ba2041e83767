#!/usr/bin/env bash
# valgrind-unit.sh [BUILD-DIR] [-j N]: every unit test of a (non-sanitizer) build under
# valgrind's memcheck, with zero errors and zero definite/indirect leaks required.
#
# The tests are what `ctest -L unit` would run (command, arguments, environment and
# working directory taken from ctest itself), so a new unit test is covered without
# touching this script. A test that is not built is a failure, never a silent skip.
# Each test's valgrind log is kept in BUILD-DIR/valgrind/<test>.log.
# Prints one line per test and "N passed, N failed"; exits 1 if any failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
jobs=1
while [ $# -gt 0 ]; do
    case $1 in
        -j) jobs=$2; shift 2 ;;
        -j*) jobs=${1#-j}; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) build=$(cd "$1" && pwd); shift ;;
    esac
done
command -v valgrind >/dev/null || { echo "valgrind-unit: valgrind is not installed (apt-get install valgrind)" >&2; exit 3; }
[ -f "$build/CMakeCache.txt" ] || { echo "valgrind-unit: $build is not a build directory" >&2; exit 2; }
if grep -qE '^BYOC_(SANITIZE|FUZZ):BOOL=ON' "$build/CMakeCache.txt"; then
    echo "valgrind-unit: $build is a sanitizer build; valgrind needs a plain one (scripts/build.sh)" >&2
    exit 2
fi

logs=$build/valgrind
mkdir -p "$logs"
list=$(mktemp)
trap 'rm -f "$list" "$list".*' EXIT

# One test per line: name \t workdir \t env (\x1f-separated) \t argv (\x1f-separated)
ctest --test-dir "$build" -N -L unit --show-only=json-v1 | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    env = props.get("ENVIRONMENT", [])
    cmd = t.get("command")
    if not cmd:
        print("%s\t\t\t" % t["name"])
        continue
    print("\t".join([t["name"], props.get("WORKING_DIRECTORY", ""), "\x1f".join(env), "\x1f".join(cmd)]))
' > "$list" || { echo "valgrind-unit: could not list the unit tests" >&2; exit 2; }

run_one() {
    local name=$1 wd=$2 envs=$3 argv=$4
    local log=$logs/$name.log
    if [ -z "$argv" ]; then
        echo "FAIL $name: not built (ctest has no command for it)" > "$log"
        echo "FAIL $name (not built)"
        return 1
    fi
    local -a e a
    IFS=$'\x1f' read -r -a e <<< "$envs"
    IFS=$'\x1f' read -r -a a <<< "$argv"
    # ctest's own sanitizer options are meaningless here; everything else is kept.
    local -a env_args=()
    local kv
    for kv in "${e[@]}"; do
        case $kv in ASAN_OPTIONS=*|UBSAN_OPTIONS=*) ;; *) env_args+=("$kv") ;; esac
    done
    (
        [ -n "$wd" ] && cd "$wd"
        env "${env_args[@]}" valgrind -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
            --num-callers=30 --log-file="$log.vg" "${a[@]}"
    ) > "$log" 2>&1
    local rc=$?
    cat "$log.vg" >> "$log" 2>/dev/null
    rm -f "$log.vg"
    if [ $rc -eq 0 ]; then
        echo "ok   $name"
        return 0
    elif [ $rc -eq 99 ]; then
        echo "FAIL $name (valgrind errors or leaks: $log)"
    else
        echo "FAIL $name (exit $rc: $log)"
    fi
    return 1
}
export -f run_one
export logs

passed=0 failed=0
results=$list.results
: > "$results"
if [ "$jobs" -gt 1 ]; then
    tr '\t' '\036' < "$list" | xargs -d '\n' -P "$jobs" -I{} bash -c \
        'IFS=$'"'"'\036'"'"' read -r n w e a <<< "$1"; run_one "$n" "$w" "$e" "$a"' _ {} >> "$results"
else
    while IFS=$'\t' read -r n w e a; do
        run_one "$n" "$w" "$e" "$a" >> "$results"
    done < "$list"
fi
sort -k2 "$results"
passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^FAIL ' "$results")
total=$(wc -l < "$list")
if [ $((passed + failed)) -ne "$total" ]; then
    echo "valgrind-unit: $total tests listed but $((passed + failed)) reported" >&2
    failed=$((failed + total - passed - failed))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
