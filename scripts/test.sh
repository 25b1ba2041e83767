#!/usr/bin/env bash
# One command on a fresh Debian 12 machine (as root): install the dependencies, build byoc twice
# (release, and ASan+UBSan), start the test services (dockerd, registry, moto, the Braket stand-in),
# run the whole ctest suite against both builds, the unit suite under valgrind's memcheck, and stop
# the services again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

"$root/scripts/deps.sh" --test
"$root/scripts/build.sh"
"$root/scripts/build.sh" --asan

# Hold the services for both ctest runs; down.sh --force stops them whatever happens.
trap '"$root/tests/topology/down.sh" --force || true' EXIT
"$root/tests/topology/up.sh" --hold

status=0
for dir in build build-asan; do
  echo "== ctest in $dir" >&2
  ctest --test-dir "$root/$dir" --output-on-failure --timeout 900 "$@" || status=1
done
echo "== valgrind memcheck of the unit suite (build)" >&2
"$root/scripts/valgrind-unit.sh" "$root/build" -j "$(nproc)" || status=1
exit $status
