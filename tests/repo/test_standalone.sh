#!/usr/bin/env bash
# The repository stands alone: nothing in it reaches outside the source tree, and the unit
# tests that read files of the tree pass from a copy that has nothing beside it.
#   1. no tracked text file names a path outside the repository (a sibling folder, an
#      absolute path of this machine) or cites a document the repository does not carry;
#   2. the tracked files, copied into an empty temporary folder, are enough for every unit
#      test that reads the source tree (fixtures, assets, sample projects).
# Needs: BYOC_SOURCE_DIR (the checkout), BYOC_BUILD_DIR (where the unit tests were built).
set -euo pipefail
src=${BYOC_SOURCE_DIR:?BYOC_SOURCE_DIR is not set}
build=${BYOC_BUILD_DIR:?BYOC_BUILD_DIR is not set}
fail=0

tracked() {
    if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git -C "$src" ls-files -z --cached --others --exclude-standard
    else
        (cd "$src" && find . -path ./build -prune -o -path './build-*' -prune -o -type f -print0 | sed -z 's|^\./||')
    fi
}

# ---- 1. references outside the tree ------------------------------------------------------
# The patterns are split so that this file does not match itself.
dots='\.\./'
patterns=(
    "${dots}shared"                                   # the sibling reference folder
    'BYOC_SHARED''_DIR'
    '/wo''rk/'                                        # this machine's absolute paths
    'SOURCE_DIR\}/'"$dots"                            # CMake paths above the source root
    '(DESIGN|braket-jobs|protocols|tui-anchors|user-pain-points)\.md'  # documents not carried
)
found=$(mktemp)
trap 'rm -f "$found"; rm -rf "${copy:-}"' EXIT
args=()
for p in "${patterns[@]}"; do args+=(-e "$p"); done
# Vendored data is copied byte for byte (provenance in its README); this file holds the patterns.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$src" grep -I -n -E "${args[@]}" -- . ':!tests/fixtures/sigv4' ':!tests/repo/test_standalone.sh' \
        >"$found" || true
else
    (cd "$src" && grep -rIn -E "${args[@]}" --exclude-dir=build --exclude-dir='build-*' \
        --exclude-dir=sigv4 --exclude=test_standalone.sh .) >"$found" || true
fi
if [ -s "$found" ]; then
    echo "FAIL: these lines reach outside the repository (cite a public source, or carry the file):"
    sort -u "$found" | head -n 50
    fail=1
else
    echo "ok: no tracked file names a path outside the repository"
fi

# ---- 2. the unit tests that read the tree, from a lone copy -----------------------------------
# Which files the tests find does not depend on the build, so the sanitizer build skips this.
if [ "${BYOC_SANITIZE:-OFF}" = ON ]; then
    echo "skip: the lone-copy run is done by the release build"
    exit $fail
fi
copy=$(mktemp -d)
mkdir "$copy/byoc"
tracked | tar -C "$src" --null -T - -cf - | tar -C "$copy/byoc" -xf -
readers=$(cd "$src/tests/unit" && grep -l -E 'check_source_dir|check_fixture_dir|BYOC_SOURCE_DIR' test_*.c | sed 's/\.c$//')
[ -n "$readers" ] || { echo "FAIL: found no unit test that reads the source tree"; exit 1; }
for t in $readers; do
    bin=$build/tests/$t
    if [ ! -x "$bin" ]; then
        echo "FAIL: $t is not built in $build/tests"
        fail=1
        continue
    fi
    if (cd "$copy" && env BYOC_SOURCE_DIR="$copy/byoc" "$bin" >"$copy/$t.log" 2>&1); then
        echo "ok: $t passes from a lone copy"
    else
        echo "FAIL: $t fails from a lone copy of the tracked files:"
        tail -n 20 "$copy/$t.log"
        fail=1
    fi
done
exit $fail
