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

# Every test runs under ASan+UBSan. The release build runs them all but the fault-injection
# ones, which spend their time in retry back-off (real waits: about 4 minutes) exercising code
# that does not differ between the builds; skipping them there keeps the command under 20 minutes.
echo "== ctest in build" >&2
ctest --test-dir "$root/build" --output-on-failure --timeout 900 \
  -E '^integration\.test_(faults_aws|faults_braket|push_interrupt)$' "$@" || status=1
echo "== ctest in build-asan" >&2
ctest --test-dir "$root/build-asan" --output-on-failure --timeout 900 "$@" || status=1
echo "== valgrind memcheck of the unit suite (build)" >&2
"$root/scripts/valgrind-unit.sh" "$root/build" -j "$(nproc)" || status=1
exit $status
