#!/usr/bin/env bash
# scripts/run.sh opens byoc where the user is (issue 19 point 1): in the caller's directory,
# except from inside byoc's own sources with no arguments (the README's first command), where
# it opens in ~/byoc-projects so that the first screen is the welcome page, not a verdict
# about byoc's code. Arguments for byoc always run where the user is.
# Needs: BYOC_SOURCE_DIR. Only asks run.sh where it would start (--start-dir): nothing is
# installed or built.
set -euo pipefail
src=$(cd "${BYOC_SOURCE_DIR:?BYOC_SOURCE_DIR is not set}" && pwd -P)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
fail=0
expect() { # WHAT WANT GOT
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1: want '$2', got '$3'"; fail=1; fi
}
run() { # DIR ARGS...: where run.sh would open byoc, from DIR
    local dir=$1
    shift
    (cd "$dir" && HOME="$tmp/home" bash "$src/scripts/run.sh" --start-dir "$@")
}

expect "from byoc's sources: ~/byoc-projects" "$tmp/home/byoc-projects" "$(run "$src")"
expect "from a folder of byoc's sources too" "$tmp/home/byoc-projects" "$(run "$src/tui")"
expect "with arguments for byoc: where the user is" "$src" "$(run "$src" doctor)"
mkdir -p "$tmp/project"
expect "from a project: that project" "$tmp/project" "$(run "$tmp/project")"
expect "from a project, with arguments: that project" "$tmp/project" "$(run "$tmp/project" --region us-east-1)"
[ ! -e "$tmp/home/byoc-projects" ] && echo "ok: --start-dir makes nothing" ||
    { echo "FAIL: --start-dir made ~/byoc-projects"; fail=1; }
exit $fail
