#!/usr/bin/env bash
# One command on a fresh Debian 12 machine (as root): install the dependencies, build byoc twice
# (release, and ASan+UBSan), run a short libFuzzer run of every fuzz target (a clang build in
# build-fuzz), start the test services (dockerd, registry, moto, the Braket stand-in), run the
# whole ctest suite against both builds, the unit suite under valgrind's memcheck, and stop the
# services again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

"$root/scripts/deps.sh" --test
"$root/scripts/build.sh"
"$root/scripts/build.sh" --asan

status=0
echo "== libFuzzer: a short run of every fuzz target (clang, ASan+UBSan)" >&2
"$root/tests/fuzz/ci-short.sh" "$root/build-fuzz" || status=1

# Hold the services for both ctest runs; down.sh --force stops them whatever happens.
trap '"$root/tests/topology/down.sh" --force || true' EXIT
"$root/tests/topology/up.sh" --hold

for dir in build build-asan; do
  echo "== ctest in $dir" >&2
  ctest --test-dir "$root/$dir" --output-on-failure --timeout 900 "$@" || status=1
done
echo "== valgrind memcheck of the unit suite (build)" >&2
"$root/scripts/valgrind-unit.sh" "$root/build" -j "$(nproc)" || status=1
exit $status
