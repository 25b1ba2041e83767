#!/usr/bin/env bash
# ci-short.sh [BUILD-DIR]: the fuzzers' part of the test command (scripts/test.sh).
# Configures a clang build with -DBYOC_FUZZ=ON (libFuzzer + ASan + UBSan) in BUILD-DIR
# (default: build-fuzz at the top of the tree), builds only the fuzz_<name> targets and runs
# the ctest fuzz.<name> of each: a short libFuzzer run from a scratch copy of its seeds
# (BYOC_FUZZ_SECONDS each, default 8; BYOC_FUZZ_RUNS at most, default 1,000,000), all targets
# side by side on the machine's cores. Fails if any target crashes, leaks, trips UBSan or
# times out. Needs clang and libclang-rt-14-dev (scripts/deps.sh --test).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-fuzz}
seconds=${BYOC_FUZZ_SECONDS:-8}
runs=${BYOC_FUZZ_RUNS:-1000000}
jobs=${BYOC_FUZZ_JOBS:-$(nproc)}

targets=()
for f in "$here"/fuzz_*.c; do targets+=("$(basename "$f" .c)"); done

CC=clang cmake -S "$root" -B "$build" -DBYOC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBYOC_FUZZ_SECONDS="$seconds" -DBYOC_FUZZ_RUNS="$runs" >/dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
ctest --test-dir "$build" -R '^fuzz\.' -L fuzz -j"$jobs" --output-on-failure --timeout 600
