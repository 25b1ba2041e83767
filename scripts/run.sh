#!/usr/bin/env bash
# One command on a fresh Debian 12 machine (as root): install the dependencies, build, open byoc.
#
# byoc opens in the directory you run this from: your project, or an empty directory, where
# the welcome page offers to start a project there, open another directory or make a sample
# project. Run from inside byoc's own sources with no arguments (the README's first command),
# it opens in ~/byoc-projects instead (made if missing): byoc's own code is not a project to
# decide about, and there the welcome page offers the sample.
# Extra arguments go to byoc (e.g. `scripts/run.sh doctor`) and always run where you are.
# `scripts/run.sh --start-dir` only prints the directory byoc would open in (for the tests).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)

start_dir() {
    local here
    here=$(pwd -P)
    case "$here/" in
        "$root"/*) [ $# -eq 0 ] && { echo "$HOME/byoc-projects"; return; } ;;
    esac
    echo "$here"
}

if [ "${1:-}" = --start-dir ]; then
    shift
    start_dir "$@"
    exit 0
fi
start=$(start_dir "$@")
"$root/scripts/deps.sh"
"$root/scripts/build.sh"
if [ "$start" != "$(pwd -P)" ]; then
    mkdir -p "$start"
    echo "byoc opens in $start: these are byoc's own sources, not a project" >&2
    cd "$start"
fi
exec "$root/build/byoc" "$@"
