#!/usr/bin/env bash
# Configure and build byoc into build/ (or build-asan/ with --asan).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/build
args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
if [ "${1:-}" = --asan ]; then
  dir=$root/build-asan
  args=(-DCMAKE_BUILD_TYPE=Debug -DBYOC_SANITIZE=ON)
fi
cmake -S "$root" -B "$dir" "${args[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
