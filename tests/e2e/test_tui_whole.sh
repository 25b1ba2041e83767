#!/bin/bash
# Nothing important is unreadable at 80x24 (issue 19 point 2): one key, v
# (C-o in a text field), opens whole what the screen cut, in a page that
# wraps, scrolls and rewraps on resize; the hint bar offers it only while
# something is cut. Checked on a form error (the Run form's role ARN: its
# whole rule wraps under the field and reads whole behind the key), a
# message longer than the line, a lint finding (Enter still opens it too), a
# build whose RUN fails (the failing step and its output), a base image that cannot be
# pulled (the image, the cause, what to do), and the Build
# step's 80-column hint bar, which keeps w wrap beside its own keys.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
CTX="$SRC/tests/fixtures/contexts"
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
E2E_TIMEOUT=${E2E_TIMEOUT:-30}

P="$E2E_DIR/proj"
mkdir -p "$P"
printf 'print("hello")\n' > "$P/algo.py"
cp -r "$CTX/project" "$E2E_DIR/lint"
cp -r "$CTX/failing-run" "$E2E_DIR/fail"
trap '"$DOCKER" rmi -f fail:latest >/dev/null 2>&1; e2e_cleanup' EXIT
e2e_tmux new-session -d -s keeper "sleep 3600"   # the tmux server outlives the sessions below

# --- a form error: wrapped under the field, whole behind C-o -----------------------------
s=form
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 5
e2e_wait $s 'Ready: e edits the form' "Run is ready"
e2e_keys $s e
e2e_wait $s 'Code: source module' "e opens the job form"
e2e_type $s 'algo.py'
for i in $(seq 13); do e2e_keys $s Down; done
e2e_wait $s '. Advanced: role ARN' "the role ARN field has the focus"
e2e_type $s 'not-an-arn'
e2e_keys $s Tab
e2e_wait $s "! --role-arn \\(roleArn\\): must match" "an invalid role ARN shows its error under the field"
e2e_has $s "\\(API model RoleArn\\): 'not-an-arn' \\(not an ARN\\)" "wrapped, not cut: its end is on screen"
e2e_keys $s Up
e2e_wait $s 'C-o whole' "with the error's field in focus the hint bar offers C-o (v is text in a field)"
e2e_keys $s C-o
e2e_wait $s 'Whole text' "C-o opens the whole-text view"
e2e_has $s 'Advanced: role ARN: not valid' "naming the field"
e2e_has $s 'arn:aws\[a-z.-\]\*:iam::.d\{12\}:role/\?\[a-zA-Z_0-9\+=,\.@.-_/\]\+' "the whole rule is readable"
e2e_has $s "'not-an-arn' \\(not an ARN\\)" "and the value it refused"
e2e_resize $s 100 30
e2e_wait $s "RoleArn\\): 'not-an-arn' \\(not an ARN\\)" "the view rewraps after a resize"
e2e_resize $s 80 24
e2e_wait $s 'Advanced: role ARN: not valid' "and back at 80x24"
e2e_keys $s q
e2e_wait $s '. Advanced: role ARN' "q goes back to the form"
e2e_keys $s Escape
e2e_wait $s 'v whole' "out of the form: Run's cut Ready line gives v"
e2e_keys $s v
e2e_wait $s 's reviews the request before sending' "v shows Run's Ready line whole"
e2e_keys $s Escape
e2e_wait $s 'Ready: e edits the form' "Esc goes back"

# --- a message longer than the line ----------------------------------------------------
long=no-such-command-with-a-rather-long-name-to-cut-the-line
e2e_type $s ":$long"
e2e_keys $s Enter
e2e_wait $s "unknown command: no-such-command.* v whole" "a cut message ends with the key that shows it whole"
e2e_keys $s v
e2e_wait $s 'Whole text' "v opens the view"
e2e_has $s "unknown command: $long" "with the whole message"
e2e_has $s '\(Tab completes; :help lists the commands\)' "to its end"
e2e_keys $s q
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s
e2e_stop $s

# --- a lint finding: Enter opens it, and so does v ------------------------------------
s=lint
e2e_open_build $s "$E2E_DIR/lint"
e2e_wait $s 'Dockerfile docker/Dockerfile.app' "lint: Build has the project's settings"
e2e_keys $s l
e2e_wait $s 'error +docker/Dockerfile.* +sagemaker-program' "l lints: the findings are listed"
e2e_keys $s Down
e2e_wait $s 'v whole' "a selected finding wider than its row gives v"
e2e_keys $s v
e2e_wait $s 'Whole text' "v opens the view"
e2e_has $s 'Lint finding' "on the finding"
e2e_has $s 'error docker/Dockerfile.app:1 \[sagemaker-program\]' "with its file:line and rule"
e2e_has $s 'SAGEMAKER_PROGRAM=<your entry point script> \(copied to /opt/ml/code\)' "and its whole message"
e2e_keys $s q
e2e_keys $s Enter
e2e_wait $s '┌─ Lint finding ' "Enter still opens the finding in a dialog"
e2e_keys $s Enter
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s

# --- a build whose RUN fails: the step and its output, whole ---------------------------
s=fail
e2e_open_build $s "$E2E_DIR/fail"
e2e_has $s 'w wrap' "the Build step's hint bar lists w wrap at 80 columns"
e2e_build_without_lint $s
e2e_wait $s 'Failed at step 2/3' "the build fails at step 2"
e2e_has $s 'v whole .* w wrap' "the hint bar offers v and keeps w wrap"
e2e_keys $s v
e2e_wait $s 'The build failed' "v shows the failure"
e2e_has $s 'The step that failed, and its output:' "with the failing step"
e2e_has $s 'Step 2/3 : RUN echo "about to fail" && exit 3' "its command, whole"
e2e_has $s '^│ *about to fail' "its output"
e2e_has $s "returned a non-zero code: 3" "and the engine's whole error"
e2e_keys $s q
e2e_wait $s '2 Build: failed' "q goes back to Build"
e2e_keys $s w
e2e_wait $s 'wrap +[0-9]+ lines' "w wraps the build log"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- a base image that cannot be pulled (issue 17 point 7): a dialog names the image, the cause
# and what to do, whole, not the engine's text cut at the width. 127.0.0.1:1: nothing listens
PULL="$E2E_DIR/pull"
mkdir -p "$PULL"
printf 'FROM 127.0.0.1:1/braket/base:1.0\nRUN true\n' >"$PULL/Dockerfile"
echo '{}' >"$PULL/byoc.json"
s=pull
e2e_open_build $s "$PULL"
e2e_build_without_lint $s
e2e_wait $s 'The base image cannot be pulled' "a dialog says the base cannot be pulled"
e2e_has $s 'the base image 127.0.0.1:1/braket/base:1.0 cannot be pulled' "naming the image"
e2e_has $s '\(offline: the engine cannot reach 127.0.0.1:1\)' "the cause"
e2e_has $s 'put the image on this engine first' "what to do"
e2e_has $s 'connection refused\)' "and the engine's own words, whole, at the end"
e2e_has $s '2 Build: failed' "the build is marked failed behind it"
e2e_keys $s Enter
e2e_wait_gone $s 'The base image cannot be pulled' "Enter closes it"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

e2e_done
