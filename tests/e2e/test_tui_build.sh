#!/bin/bash
# The Build screen and the image browser end to end, in tmux, on the
# topology's engine (DOCKER_HOST from with-env.sh): the settings come from
# byoc.json; the lint runs first and its errors stop the build, shown as
# findings with file:line; with the lint off the build runs with a live log
# and step counter and ends with the image ID and size; the settings are
# saved to byoc.json; "push this" hands the image to Push; a failing build
# names the failing step and highlights the error; a slow build is
# cancelled with c; the image browser lists, filters, shows layers, tags
# and deletes (No first, the default); the status bar shows the engine.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CTX="$SRC/tests/fixtures/contexts"
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
E2E_TIMEOUT=${E2E_TIMEOUT:-30}

cp -r "$CTX/project" "$E2E_DIR/proj"
cp -r "$CTX/failing-run" "$E2E_DIR/fail"
cp -r "$CTX/cancel" "$E2E_DIR/slow"
cleanup_images() {
    local ref
    for ref in $("$DOCKER" images --format '{{.Repository}}:{{.Tag}}' | grep -E '^byoc-e2e/|^(fail|slow):'); do
        "$DOCKER" rmi -f "$ref" >/dev/null 2>&1
    done
}
trap 'cleanup_images; e2e_cleanup' EXIT
cleanup_images

# A session that outlives the others: the tmux server would exit with the
# last session, and a new one started at that moment can fail.
e2e_tmux new-session -d -s keeper "sleep 3600"

# --- the settings from byoc.json; the lint stops the build ---------------------------
s=build
e2e_start $s 80 24 -- --project "$E2E_DIR/proj" tui
e2e_wait $s 'engine [0-9]+\.[0-9]+' "the status bar shows the engine's version"
e2e_keys $s 2
e2e_wait $s 'Write and lint the Dockerfile' "2 opens Build"
e2e_wait $s 'Dockerfile docker/Dockerfile.app' "the Dockerfile comes from byoc.json"
e2e_has $s 'Tags byoc-itest/project:configured' "so do the tags"
e2e_keys $s b
e2e_wait $s 'lint errors? stop the build' "the lint's errors stop the build"
e2e_has $s 'Lint findings' "the findings are shown"
e2e_has $s 'error +docker/Dockerfile.* +sagemaker-program' "a finding has its file and rule"
e2e_keys $s Down
e2e_keys $s Enter
e2e_wait $s '┌─ Lint finding ' "Enter shows a finding in full"
e2e_has $s 'error docker/Dockerfile.app:1 \[sagemaker-program\]' "with its file:line"
e2e_keys $s Enter
e2e_wait_gone $s '┌─ Lint finding ' "and Enter closes it"

# --- lint off, new tags: the build runs and says what it made -------------------------------
e2e_keys $s e
e2e_wait $s 'Tags +byoc-itest/project:configured' "the settings form shows byoc.json's tags"
e2e_keys $s Down Down C-u
e2e_type $s 'byoc-e2e/built:1 byoc-e2e/built:extra'
e2e_keys $s Escape
e2e_wait $s 'Tags byoc-e2e/built:1' "Esc leaves the settings, edits kept"
e2e_build_without_lint $s
e2e_wait $s 'Built [0-9a-f]{12} +[0-9.]+ (B|KiB|MiB)' "the build ends with the image ID and size"
e2e_has $s 'p pushes it' "and offers to push it"
e2e_has $s 'Successfully tagged byoc-e2e/built' "the log shows the engine's output"
e2e_has $s '2 Build: built [0-9a-f]{12}' "the title says built"
if grep -q 'byoc-e2e/built:extra' "$E2E_DIR/proj/byoc.json"; then e2e_pass "the settings were saved to byoc.json"; else
    e2e_fail "byoc.json lacks the new tags: $(cat "$E2E_DIR/proj/byoc.json")"; fi
if grep -q '"WHO": "from-byoc-json"' "$E2E_DIR/proj/byoc.json"; then e2e_pass "byoc.json keeps its build args"; else
    e2e_fail "byoc.json lost its build args"; fi
if "$DOCKER" image inspect byoc-e2e/built:1 >/dev/null 2>&1; then e2e_pass "the engine has the image"; else
    e2e_fail "no byoc-e2e/built:1 on the engine"; fi
e2e_keys $s PageUp
e2e_wait $s 'Step 1/5 : FROM byoc-test/busybox:1' "the log scrolls back to the first step"
e2e_has $s 'paused \(F follows\)' "scrolling up pauses following"
e2e_keys $s F
e2e_wait $s 'follow ' "F follows again"

# --- push this ---------------------------------------------------------------------------------
e2e_keys $s p
e2e_wait $s 'Push: byoc-e2e/built:1 selected' "p hands the image to Push"
e2e_has $s 'Push the image to an ECR repository' "and goes to the Push step"
e2e_keys $s 2
e2e_wait $s 'Built [0-9a-f]{12}' "back on Build, the result stays"

# --- the image browser ------------------------------------------------------------------------------
e2e_keys $s i
e2e_wait $s 'Images: local engine' "i opens the image browser"
e2e_wait $s 'Local images on the Docker engine +[0-9]+ ' "the local images are listed"
e2e_keys $s /
e2e_type $s 'byoc-e2e'
e2e_keys $s Enter
e2e_wait $s '/byoc-e2e +2 of [0-9]+' "the filter keeps the matching rows"
e2e_lacks $s 'byoc-test/busybox' "and hides the others"
e2e_keys $s s
e2e_wait $s 'Repository▲' "s sorts by a column"
e2e_keys $s Enter
e2e_wait $s 'Layers of byoc-e2e/built' "Enter shows the selected image's layers"
e2e_wait $s 'RUN echo "\$WHO" > /who.txt' "a layer shows the command that made it"
e2e_has $s 'COPY file:[0-9a-f]+' "the COPY layer too"
e2e_keys $s Down
e2e_keys $s Enter
e2e_wait $s '┌─ Layer: created by' "Enter on a layer shows what made it"
e2e_has $s '\|1 WHO=from-byoc-json /bin/sh -c echo' "as the engine reports it"
e2e_keys $s Enter
e2e_keys $s Escape
e2e_wait $s 'p push +t tag' "Esc goes back to the images"

e2e_keys $s t
e2e_wait $s 'Tag image' "t asks for the new reference"
e2e_keys $s C-u
e2e_type $s 'Not A Ref'
e2e_keys $s Enter
e2e_wait $s 'invalid reference format|must be lowercase' "a bad reference is refused in the dialog"
e2e_keys $s C-u
e2e_type $s 'byoc-e2e/tagged:2'
e2e_keys $s Enter
e2e_wait $s 'Tagged [0-9a-f]{12} as byoc-e2e/tagged:2' "the image is tagged"
e2e_wait $s 'byoc-e2e/tagged +2 ' "the new tag is listed"
if "$DOCKER" image inspect byoc-e2e/tagged:2 >/dev/null 2>&1; then e2e_pass "the engine has the tag"; else
    e2e_fail "no byoc-e2e/tagged:2 on the engine"; fi

e2e_keys $s d
e2e_wait $s 'Delete image\?' "d asks before deleting"
e2e_has $s 'Remove the tag byoc-e2e/tagged:2' "naming the tag"
e2e_keys $s Enter
e2e_wait_gone $s 'Delete image\?' "Enter answers the default, No"
e2e_has $s 'byoc-e2e/tagged +2 ' "nothing was deleted"
e2e_keys $s d
e2e_wait $s 'Delete image\?' "d asks again"
e2e_keys $s y
e2e_wait $s 'Untagged byoc-e2e/tagged:2' "y deletes the tag"
e2e_wait_gone $s 'byoc-e2e/tagged +2 ' "the tag is gone from the list"
if ! "$DOCKER" image inspect byoc-e2e/tagged:2 >/dev/null 2>&1; then e2e_pass "the engine lost the tag"; else
    e2e_fail "byoc-e2e/tagged:2 is still on the engine"; fi
e2e_keys $s r
e2e_wait $s 'byoc-e2e/built' "r lists again"
e2e_keys $s q
e2e_wait $s 'Write and lint the Dockerfile' "q closes the browser"
e2e_type $s ':images'
e2e_keys $s Enter
e2e_wait $s 'Images: local engine' ":images opens it too"
e2e_keys $s Escape
e2e_wait $s 'Write and lint the Dockerfile' "Esc closes it"

# --- 120x40: the settings always show ----------------------------------------------------------
e2e_resize $s 120 40
e2e_wait $s 'Build args +WHO=from-byoc-json' "on a tall screen the settings stay on show"
e2e_has $s 'Built [0-9a-f]{12}' "with the result below them"
e2e_resize $s 80 24
e2e_wait $s 'Tags byoc-e2e/built:1' "back to 80x24"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- a failing build: the step and the error (NO_COLOR: attributes only) -------------------------------
s=fail
e2e_open_build $s "$E2E_DIR/fail" NO_COLOR=1
e2e_build_without_lint $s
e2e_wait $s 'Failed at step 2/3' "a failing build names the failing step"
e2e_has $s 'RUN echo "about to fail" && exit 3' "the step's command is in the log"
e2e_has $s "error: The command '/bin/sh -c echo" "the engine's error ends the log"
e2e_has $s '\[4merror: The command' "the error is highlighted" -e
e2e_has $s '│Step 2/3 : RUN' "the failing step is highlighted" -e
e2e_has $s '2 Build: failed' "the title says failed"
e2e_keys $s p
e2e_wait $s 'Build an image first' "nothing to push after a failure"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- cancel a slow build -----------------------------------------------------------------------------
s=slow
e2e_open_build $s "$E2E_DIR/slow"
e2e_build_without_lint $s
e2e_wait $s 'sleeping now' "the slow step runs"
e2e_has $s 'Step 2/2 +[0-9]+s +RUN echo "sleeping now"' "the status line counts steps and time"
e2e_keys $s q
e2e_wait $s 'Quit byoc\?' "quitting during a build asks first"
e2e_keys $s Enter
e2e_wait_gone $s 'Quit byoc\?' "and No keeps it running"
e2e_keys $s c
e2e_wait $s 'Build cancelled after' "c cancels the build"
e2e_has $s 'cancelled' "the screen says cancelled"
gone=0
for _ in $(seq 1 150); do
    if ! "$DOCKER" ps -a --no-trunc --format '{{.Command}}' | grep -q 'sleep 300'; then gone=1; break; fi
    sleep 0.1
done
if [ $gone = 1 ]; then e2e_pass "the engine removed the build's container"; else
    e2e_fail "a 'sleep 300' container is left on the engine"; fi
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- no engine: the status bar says so, and so does a build ---------------------------------------
s=noengine
e2e_start $s 80 24 DOCKER_HOST=unix://$E2E_DIR/no-such.sock -- --project "$E2E_DIR/fail" tui
e2e_wait $s 'engine none \(start dockerd\)' "the status bar says there is no engine"
e2e_keys $s 2
e2e_wait $s 'Write and lint the Dockerfile' "noengine: Build"
e2e_build_without_lint $s
e2e_wait $s 'Failed \([0-9]+s\): no Docker engine at' "a build says there is no engine"
e2e_keys $s i
e2e_wait $s 'Local images: no Docker engine at' "so does the image browser"
e2e_keys $s q q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

e2e_done
