#!/bin/bash
# The first screen for someone new, end to end at 80x24 (issue 19 point 1): in a
# directory without byoc.json byoc opens on the welcome page (what byoc does, the six
# steps, three choices with their keys, this directory's path), not on a verdict; Esc,
# resize and help behave as elsewhere; s makes a sample project (byoc.json and the
# scaffolded files written) and lands in Decide on it; h in a directory with user code
# lands in Decide on that code; o moves byoc to another directory, refusing one that
# does not exist; a directory with byoc.json, or --project, opens on Decide directly;
# the status line says how to fix a missing region or an unknown profile; NO_COLOR with
# ASCII line drawing, and a non-UTF-8 locale.
. "$(dirname "$0")/lib.sh"

DECIDE_TITLE=${E2E_STEP_TITLES[0]}
VERDICT='1 Decide: BYOC is'
e2e_tmux new-session -d -s keeper "sleep 3600"   # keeps the tmux server between sessions

# --- an empty directory: the welcome page, then a sample project ---------------------------
EMPTY="$E2E_DIR/empty"
mkdir -p "$EMPTY"
s=sample
E2E_CWD=$EMPTY e2e_start $s 80 24 -- tui
e2e_wait $s "$E2E_WELCOME" "an empty directory opens on the welcome page"
e2e_has $s 'Amazon Braket Hybrid Jobs' "it says what byoc does"
e2e_has $s '1 Decide +Do you need your own container' "it lists the steps with their purpose"
e2e_has $s '6 Monitor +Follow jobs' "... all six"
e2e_has $s 'h +Start a project here' "choice h: start a project here"
e2e_has $s "this directory: $EMPTY" "... labelled with this directory's path"
e2e_has $s 'o +Open another directory' "choice o: another directory"
e2e_has $s 's +Make a sample project' "choice s: a sample project"
e2e_has $s 'Enter choose +h here +o other dir +s sample' "the hint bar offers the choices (from the action table)"
e2e_lacks $s 'BYOC is (not needed|required)|files looked at' "no verdict about the empty directory"
e2e_keys $s Escape
e2e_wait $s 'On the top level: q quits' "Esc says how to quit, as on a step"
e2e_has $s "$E2E_WELCOME" "and stays on the welcome page"
e2e_resize $s 100 30
e2e_wait $s "this directory: $EMPTY" "redrawn at 100x30"
e2e_resize $s 80 24
e2e_wait $s 's +Make a sample project' "and at 80x24 again"
e2e_keys $s '?'
e2e_wait $s 'Help: keys and commands' "? opens help"
e2e_has $s '^. Welcome page ' "help starts with the welcome page's keys"
e2e_has $s ':sample +Make a small sample project' "help lists :sample"
e2e_keys $s q
e2e_wait $s "$E2E_WELCOME" "q leaves help for the welcome page"
e2e_keys $s s
e2e_wait $s 'Make a sample project' "s asks where to make the sample"
e2e_has $s '\./byoc-sample' "... offering ./byoc-sample"
e2e_keys $s Enter
e2e_wait $s '[─-] Sample project [─-]' "the sample is written and described"
e2e_has $s "Wrote [0-9]+ files into" "... with the files it wrote"
for f in byoc.json Dockerfile .dockerignore algorithm/algo.py requirements.txt byoc/byoc_container.py .git; do
    if [ -e "$EMPTY/byoc-sample/$f" ]; then e2e_pass "sample: $f written"; else e2e_fail "sample: no $f"; fi
done
grep -q '"recipe": "custom-base"' "$EMPTY/byoc-sample/byoc.json" && e2e_pass "sample: recipe 2 in byoc.json" ||
    e2e_fail "sample: byoc.json does not say custom-base"
e2e_keys $s Enter
e2e_wait $s "$VERDICT" "then Decide, with the scan's verdict on the sample"
e2e_has $s "this directory: $EMPTY/byoc-sample" "Decide is on the sample's directory"
e2e_has $s '6 Monitor +…c-sample *$' "the top bar names the sample's directory (its end, at 80 columns)"
e2e_lacks $s "$E2E_WELCOME" "the welcome page is gone"
e2e_keys $s 2
e2e_wait $s "${E2E_STEP_TITLES[1]}" "2 goes on to Build"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- the sample's directory name is taken: the next free one is offered ---------------------
s=taken
E2E_CWD=$EMPTY e2e_start $s 80 24 -- tui
e2e_wait $s "$E2E_WELCOME" "opens on the welcome page again (no byoc.json in $EMPTY)"
e2e_keys $s s
e2e_wait $s '\./byoc-sample-2' "./byoc-sample exists: ./byoc-sample-2 is offered"
e2e_keys $s C-u
e2e_type $s 'byoc-sample'
e2e_keys $s Enter
e2e_wait $s 'exists and is not empty' "a directory with something in it is refused"
e2e_keys $s Escape
e2e_wait_gone $s 'Make a sample project[^ ]' "Esc closes the prompt"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- a directory with user code: start a project here ---------------------------------------
CODE="$E2E_DIR/my code"                      # a space in the path on purpose
mkdir -p "$CODE/algo"
printf 'import numpy\nprint("hello")\n' > "$CODE/algo/train.py"
printf 'numpy\n' > "$CODE/requirements.txt"
s=here
E2E_CWD=$CODE e2e_start $s 80 24 -- tui
e2e_wait $s "$E2E_WELCOME" "a directory with code but no byoc.json opens on the welcome page"
e2e_has $s "this directory: $CODE" "it names the directory"
e2e_keys $s h
e2e_wait $s "$VERDICT" "h: Decide, pre-answered by the scan"
e2e_has $s "this directory: $CODE" "Decide says which directory it scanned"
e2e_keys $s Enter
e2e_wait $s 'scanned' "the answers come from the scan"
e2e_keys $s Escape
[ ! -e "$CODE/byoc.json" ] && e2e_pass "start here writes nothing" || e2e_fail "start here wrote byoc.json"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- open another directory ---------------------------------------------------------------------
OTHER="$E2E_DIR/other"
mkdir -p "$OTHER"
s=open
E2E_CWD=$OTHER e2e_start $s 80 24 -- tui
e2e_wait $s "$E2E_WELCOME" "opens on the welcome page"
e2e_keys $s j Enter
e2e_wait $s 'Which directory should byoc work in' "Down and Enter choose 'open another directory'"
e2e_keys $s C-u
e2e_type $s "$E2E_DIR/nowhere"
e2e_keys $s Enter
e2e_wait $s 'no such directory' "a directory that does not exist is refused"
e2e_keys $s C-u
e2e_type $s "$CODE"
e2e_keys $s Enter
e2e_wait $s "this directory: $CODE" "byoc works in the directory given"
e2e_wait $s "$VERDICT" "... and Decide scans it"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- byoc.json, or --project: Decide at once ---------------------------------------------------
s=known
E2E_CWD="$EMPTY/byoc-sample" e2e_start $s 80 24 -- tui
e2e_wait $s "$VERDICT" "a directory with byoc.json opens on Decide"
e2e_lacks $s "$E2E_WELCOME" "no welcome page there"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s
s=project
E2E_CWD=$OTHER e2e_start $s 80 24 -- --project "$OTHER" tui
e2e_wait $s "$VERDICT" "--project names the directory: Decide at once"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s

# --- the status line: how to fix a missing region, an unknown profile -------------------------
: > "$E2E_DIR/aws-config"
: > "$E2E_DIR/aws-credentials"
noaws=("AWS_CONFIG_FILE=$E2E_DIR/aws-config" "AWS_SHARED_CREDENTIALS_FILE=$E2E_DIR/aws-credentials"
       AWS_REGION= AWS_DEFAULT_REGION= AWS_PROFILE= AWS_DEFAULT_PROFILE=)
s=noregion
E2E_CWD=$OTHER e2e_start $s 80 24 "${noaws[@]}" -- tui
e2e_wait $s 'region not set: export AWS_REGION=us-east-1 or aws configure' \
    "no region: the status line says how to set one, whole at 80 columns"
e2e_lacks $s '\(not set\)' "not the old bare '(not set)'"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s
s=noprofile
E2E_CWD=$OTHER e2e_start $s 80 24 "${noaws[@]}" AWS_PROFILE=nope -- tui
e2e_wait $s 'profile nope \(not found\): unset AWS_PROFILE or aws configure --profile nope' \
    "an unknown profile: the status line says how to fix it"
e2e_wait $s 'AWS profile nope is in neither .*/aws-config nor ' "the message names the two files"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s

# --- NO_COLOR with ASCII; a non-UTF-8 locale --------------------------------------------------
s=ascii
E2E_CWD=$OTHER e2e_start $s 80 24 NO_COLOR=1 BYOC_ASCII=1 -- tui
e2e_wait $s '\+- Welcome to byoc -' "ASCII: the welcome page's box"
e2e_has $s '^\| > +h +Start a project here' "ASCII: the selection marker"
e2e_lacks $s '─|│|┌|▶' "no Unicode"
e2e_keys $s Down
e2e_wait $s '^\| > +o +Open another directory' "Down moves the selection"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s
s=clocale
E2E_CWD=$OTHER e2e_start $s 80 24 LANG=C LC_ALL=C -- tui
e2e_wait $s '\+- Welcome to byoc -' "a non-UTF-8 locale: the welcome page in ASCII"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s

e2e_done
