#!/bin/bash
# `byoc build` and `byoc images` on the real engine of the test topology:
# fixture contexts (multi-stage, build args, a failing RUN, a missing
# Dockerfile, odd names), byoc.json defaults with git tags and OCI labels,
# lint first, input errors (exit 2) and no engine (exit 3).
# Runs through tests/topology/with-env.sh (DOCKER_HOST, BYOC_BIN, BYOC_SOURCE_DIR).
set -u
BYOC=${BYOC_BIN:?BYOC_BIN is not set}
SRC=${BYOC_SOURCE_DIR:?BYOC_SOURCE_DIR is not set}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
FIX=$SRC/tests/fixtures/contexts
T=$(mktemp -d)
passed=0 failed=0

ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $*" >&2
}
check() { # check DESCRIPTION CMD...: CMD must succeed
    local what=$1
    shift
    if "$@"; then ok; else bad "$what"; fi
}
# run WANT_RC CMD...: run with stdout in $T/out, stderr in $T/err; check the exit code
run() {
    local want=$1
    shift
    "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ "$rc" = "$want" ]; then
        ok
    else
        bad "exit $rc, want $want: $*"
        tail -5 "$T/err" >&2
    fi
}
has() { grep -qF -- "$1" "$2"; }
json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {"d": d}))' "$@"; }

cleanup() {
    "$DOCKER" images --format '{{.Repository}}:{{.Tag}}' | grep -E '^byoc-itest(-project)?/?' |
        xargs -r "$DOCKER" rmi -f >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT

# ---- multi-stage, with --json ----
run 0 "$BYOC" --json build "$FIX/multistage" -t byoc-itest/multistage:1 -t byoc-itest/multistage:two \
    --network none --no-lint
check "json image id" [ "$(json_get "$T/out" 'd["image_id"][:7]')" = "sha256:" ]
check "json tags" [ "$(json_get "$T/out" '",".join(d["tags"])')" = "byoc-itest/multistage:1,byoc-itest/multistage:two" ]
check "the log went to stderr" has "Step 1/" "$T/err"
check "stdout is one JSON document" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out"
run 0 "$DOCKER" run --rm --network none byoc-itest/multistage:1
check "multi-stage output" has "built in stage one" "$T/out"
check "multi-stage joined" has "part two" "$T/out"
# --target stops at the first stage
run 0 "$BYOC" build "$FIX/multistage" -t byoc-itest/multistage:stage1 --target build --network none --no-lint
run 0 "$DOCKER" run --rm --network none byoc-itest/multistage:stage1 cat /src/part1.txt
check "target stage content" has "part one" "$T/out"

# ---- build args: K=V, K from the environment, an unset one ----
WHO=from-env run 0 "$BYOC" build "$FIX/buildargs" -t byoc-itest/buildargs:1 --build-arg GREETING=hi \
    --build-arg WHO --build-arg UNSET --network none --no-lint
check "plain text mode prints the image id" grep -qE '^sha256:[0-9a-f]{64}$' "$T/out"
run 0 "$DOCKER" run --rm --network none byoc-itest/buildargs:1
check "build args applied" [ "$(cat "$T/out")" = "hi from-env" ]

# ---- a failing RUN: exit 1 with the engine's message ----
run 1 "$BYOC" build "$FIX/failing-run" -t byoc-itest/failing:1 --network none --no-lint
check "failing step message" has "returned a non-zero code: 3" "$T/err"
check "one error line" grep -q '^byoc: build: ' "$T/err"
check "output before the failure" has "about to fail" "$T/err"
check "no image tagged" bash -c "! '$DOCKER' image inspect byoc-itest/failing:1 >/dev/null 2>&1"
check "the failed step's container is removed" \
    bash -c "! '$DOCKER' ps -a --no-trunc --format '{{.Command}}' | grep -q 'about to fail'"

# ---- input errors: exit 2, nothing sent ----
run 2 "$BYOC" build "$FIX/no-dockerfile" --no-lint
check "missing Dockerfile" has "cannot locate Dockerfile" "$T/err"
run 2 "$BYOC" build "$T/does-not-exist" --no-lint
check "missing context" has "byoc: context:" "$T/err"
run 2 "$BYOC" build "$FIX/buildargs" -f "$FIX/multistage/Dockerfile" --no-lint
check "Dockerfile outside the context" has "outside the build context" "$T/err"
run 2 "$BYOC" build "$FIX/buildargs" -t 'Bad:Tag' --no-lint
check "bad tag names the flag" has "byoc: --tag:" "$T/err"
run 2 "$BYOC" build "$FIX/buildargs" -t 'app:tag:x' --no-lint
run 2 "$BYOC" build "$FIX/buildargs" --build-arg '=oops' --no-lint
check "bad build arg names the flag" has "byoc: --build-arg:" "$T/err"
run 2 "$BYOC" build "$FIX/buildargs" --platform 'linux//amd64' --no-lint
run 2 "$BYOC" build "$FIX/buildargs" --frobnicate
run 2 "$BYOC" build "$FIX/buildargs" "$FIX/multistage"
mkdir -p "$T/badignore" && printf 'FROM scratch\n' >"$T/badignore/Dockerfile" && printf '[\n' >"$T/badignore/.dockerignore"
run 2 "$BYOC" build "$T/badignore" --no-lint
check "bad .dockerignore" has ".dockerignore" "$T/err"
# input errors win over a missing engine: nothing would have been sent anyway
DOCKER_HOST=unix:///nonexistent/docker.sock run 2 "$BYOC" build "$FIX/no-dockerfile" --no-lint

# ---- no engine: exit 3 with the fix ----
DOCKER_HOST=unix:///nonexistent/docker.sock run 3 "$BYOC" build "$FIX/buildargs" --no-lint
check "no engine message" has "no Docker engine at unix:///nonexistent/docker.sock" "$T/err"
check "no engine fix" has "start dockerd or set DOCKER_HOST" "$T/err"
DOCKER_HOST=unix:///nonexistent/docker.sock run 3 "$BYOC" images
DOCKER_HOST=ssh://somewhere run 3 "$BYOC" images
check "unsupported DOCKER_HOST" has "DOCKER_HOST" "$T/err"

# ---- a base image the engine cannot pull: the image, the cause and what to do ----
mkdir -p "$T/nopull" && printf 'FROM public.ecr.aws/docker/library/python:3.13-slim-bookworm\nRUN true\n' >"$T/nopull/Dockerfile"
run 3 "$BYOC" build "$T/nopull" --no-lint
check "unpullable base: image and cause" has "byoc: base image: the base image public.ecr.aws/docker/library/python:3.13-slim-bookworm cannot be pulled (offline: the engine cannot reach public.ecr.aws)" "$T/err"
check "unpullable base: what to do" has "docker save | docker load" "$T/err"

# ---- lint first ----
run 2 "$BYOC" build "$FIX/multistage" -t byoc-itest/multistage:linted --network none
check "lint errors stop the build" has "byoc: lint:" "$T/err"
check "lint suggests --no-lint" has "--no-lint" "$T/err"
check "lint findings listed" grep -q '^error: ' "$T/err"

# ---- odd names ----
run 0 "$BYOC" build "$FIX/odd-names" -t byoc-itest/odd:1 --network none --no-lint
cid=$("$DOCKER" create byoc-itest/odd:1 /nonexistent)
"$DOCKER" export "$cid" | tar -t >"$T/list"
"$DOCKER" rm "$cid" >/dev/null
for f in "ctx/with space.txt" "ctx/ünïcødé-名前.txt" "ctx/-leading-dash" "ctx/--double-dash" \
    "ctx/quote'and\"double.txt" "ctx/star*question?.txt" "ctx/dir with space/sub dir/file.txt" \
    "ctx/$(printf 'n%.0s' $(seq 1 200)).txt" "ctx/link-to-space" "ctx/dangling-absolute" "ctx/link-with-long-target"; do
    check "odd name in the image: $f" grep -qxF -- "$f" "$T/list"
done
check "deep path in the image" grep -q 'deep-file-with-a-long-path.txt$' "$T/list"

# ---- byoc.json defaults, the git revision tag and OCI labels ----
cp -r "$FIX/project" "$T/project"
(
    cd "$T/project" && git init -q && git add -A &&
        GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t \
            GIT_COMMITTER_EMAIL=t@example.invalid git commit -q -m fixture &&
        git remote add origin git@example.invalid:team/project.git
)
sha=$(git -C "$T/project" rev-parse HEAD)
short=$(git -C "$T/project" rev-parse --short HEAD)
run 0 "$BYOC" --json build "$T/project" --network none --no-lint
check "byoc.json tag" has "byoc-itest/project:configured" "$T/out"
check "git revision tag" has "byoc-itest-project:$short" "$T/out"
run 0 "$DOCKER" run --rm --network none byoc-itest/project:configured
check "byoc.json build args" [ "$(cat "$T/out")" = "from-byoc-json" ]
run 0 "$DOCKER" image inspect byoc-itest/project:configured \
    --format '{{index .Config.Labels "org.opencontainers.image.revision"}} {{index .Config.Labels "org.opencontainers.image.source"}} {{index .Config.Labels "org.opencontainers.image.created"}}'
check "revision label" has "$sha" "$T/out"
check "source label" has "example.invalid" "$T/out"
check "created label" grep -qE '[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$T/out"
# a flag beats byoc.json, and a change makes the tag -dirty
echo changed >>"$T/project/app.txt"
run 0 "$BYOC" --json --project "$T/project" build -t byoc-itest/project:flag --build-arg WHO=flag --network none --no-lint
check "flag tag replaces byoc.json's" bash -c "! grep -q configured '$T/out'"
check "dirty tag" has "byoc-itest-project:$short-dirty" "$T/out"
run 0 "$DOCKER" run --rm --network none byoc-itest/project:flag
check "flag build arg wins" [ "$(cat "$T/out")" = "flag" ]

# ---- images ----
run 0 "$BYOC" --json images
check "images JSON lists the build" python3 - "$T/out" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["images"] if r["repository"] == "byoc-itest/multistage" and set(r["tags"]) >= {"1", "two"}]
assert len(rows) == 1, d["images"]
assert all(set(r) >= {"repository", "tags", "digest", "size", "created"} for r in d["images"])
assert isinstance(rows[0]["size"], int) and rows[0]["created"].endswith("Z")
EOF
run 0 "$BYOC" images
check "images table header" grep -q '^REPOSITORY' "$T/out"
check "images table row" grep -qE '^byoc-itest/multistage +two ' "$T/out"
run 2 "$BYOC" images extra-arg

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
