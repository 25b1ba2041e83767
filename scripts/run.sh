#!/usr/bin/env bash
# One command on a fresh Debian 12 machine (as root): install the dependencies, build, open byoc.
# Extra arguments go to byoc (e.g. `scripts/run.sh doctor`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
exec "$root/build/byoc" "$@"
