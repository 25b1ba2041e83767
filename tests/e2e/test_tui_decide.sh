#!/bin/bash
# The Decide screen end to end, in tmux: the scan pre-answers the questions
# of a fixture project and the verdict names its rule; the answers show
# their source; overriding an answer changes the verdict at once and C-r
# puts the scanned value back; "scaffold this" asks where, lists the files,
# defaults to No, writes them into a temporary directory on Yes, and asks for
# each file that exists with other content (keep, beside, overwrite); both panes
# at 120x40; NO_COLOR with ASCII.
. "$(dirname "$0")/lib.sh"

SRC=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
PROJECT="$SRC/tests/fixtures/projects/python-many"
TARGET="$E2E_DIR/scaffold target"          # a space in the path on purpose
# A session that outlives the others: the tmux server would exit with the
# last session, and a new one started at that moment can fail.
e2e_tmux new-session -d -s keeper "sleep 3600"

# --- 80x24: the verdict of the scan --------------------------------------------
s=decide
e2e_start $s 80 24 -- --project "$PROJECT" tui
e2e_wait $s 'BYOC is recommended' "the scan leads to a verdict"
e2e_has $s '\[many-packages\]' "the reason names its rule"
e2e_has $s 'extend-prebuilt' "the recipe is shown"
e2e_has $s '1 Decide: BYOC is recommended' "the title carries the verdict"
e2e_has $s 'What it needs' "the step still says what it needs"

# --- the answers, with their sources ----------------------------------------------
e2e_keys $s Enter
e2e_wait $s 'Languages.*python.*scanned' "Enter shows the answers; languages were scanned"
e2e_has $s 'Missing packages.*12.*scanned' "the missing packages were counted by the scan"
e2e_has $s 'GPU \(CUDA\).*off.*default' "an unscanned answer says default"
e2e_has $s 'Which languages does the job' "the focused question is asked in full"

# --- override an answer: the verdict follows at once --------------------------------------
e2e_keys $s Down Down
e2e_wait $s 'How many public PyPI packages' "Down walks to the next question"
e2e_keys $s C-u
e2e_type $s 3
e2e_wait $s 'BYOC is not needed: prebuilt' "3 missing packages: the verdict changes live"
e2e_has $s 'Missing packages.*3 .*user' "the overridden answer says user"
e2e_has $s '\[few-packages\]' "and the reason changes with it"
e2e_keys $s C-r
e2e_wait $s 'Missing packages.*12.*scanned' "C-r puts the scanned answer back"
e2e_wait $s 'BYOC is recommended: extend-prebuilt' "and the verdict with it"

e2e_keys $s Up Up C-u
e2e_type $s 'python, rust'
e2e_wait $s 'BYOC is required: custom-base' "a Rust part makes BYOC required"
e2e_type $s ', cobol'
e2e_wait $s '! .*cobol' "an invalid answer says why under the field"
e2e_has $s 'BYOC is required: custom-base' "and the last valid answer stands"
e2e_keys $s BSpace BSpace BSpace BSpace BSpace BSpace BSpace
e2e_wait_gone $s '! .*cobol' "fixing it clears the message"
e2e_keys $s Escape
e2e_wait $s 'Recipe +custom-base' "Esc goes back to the verdict panel, with the new recipe"
e2e_has $s '• \[non-python\]' "and the rule that fired"

# --- scaffold this: No is the default -------------------------------------------------------
e2e_keys $s s
e2e_wait $s 'Scaffold this' "s asks where to scaffold"
e2e_has $s "python-many" "the project directory is offered"
e2e_keys $s C-u
e2e_type $s "$TARGET"
e2e_keys $s Enter
e2e_wait $s 'Write [0-9]+ files\?' "the files are listed before anything is written"
e2e_has $s 'Dockerfile' "the list names the Dockerfile"
e2e_keys $s Enter
e2e_wait $s 'Nothing written' "Enter on the default button writes nothing"
if [ ! -e "$TARGET/Dockerfile" ]; then e2e_pass "no Dockerfile after No"; else e2e_fail "a Dockerfile after No"; fi

# --- ... and Yes writes them --------------------------------------------------------------------
e2e_keys $s s
e2e_wait $s 'Scaffold this' "s asks again"
e2e_keys $s C-u
e2e_type $s "$TARGET"
e2e_keys $s Enter
e2e_wait $s 'Write [0-9]+ files\?' "the plan again"
e2e_keys $s y
e2e_wait $s 'Wrote [0-9]+ files into' "y scaffolds and says what it wrote"
e2e_has $s 'git: a new repository' "a git repository was made"
for f in Dockerfile byoc.json .dockerignore; do
    if [ -f "$TARGET/$f" ]; then e2e_pass "scaffold wrote $f"; else e2e_fail "scaffold did not write $f"; fi
done
if grep -q '"recipe": "custom-base"' "$TARGET/byoc.json" && grep -q '"language": "rust"' "$TARGET/byoc.json"; then
    e2e_pass "byoc.json records the recipe and language of the verdict"
else
    e2e_fail "byoc.json lacks the recipe/language: $(cat "$TARGET/byoc.json")"
fi
e2e_keys $s Enter
e2e_wait_gone $s 'Wrote [0-9]+ files into' "Enter closes the report"

# --- a file that exists with other content gets its own choice: keep (the default), beside, overwrite ----
echo "# mine" > "$TARGET/Dockerfile"
e2e_keys $s s
e2e_wait $s 'Scaffold this' "a third scaffold"
e2e_keys $s C-u
e2e_type $s "$TARGET"
e2e_keys $s Enter
e2e_wait $s '1 exists already' "the plan names the one file that differs"
e2e_keys $s y
e2e_wait $s 'Dockerfile exists' "the file gets its own question"
e2e_has $s 'keep' "keep is the answer offered"
e2e_keys $s Enter
e2e_wait $s 'Wrote nothing into' "Enter keeps the user's file"
e2e_has $s 'Kept' "and the report says so"
if [ "$(cat "$TARGET/Dockerfile")" = "# mine" ]; then e2e_pass "the user's Dockerfile is untouched"; else
    e2e_fail "the Dockerfile was changed by keep"; fi
e2e_keys $s Enter
e2e_keys $s s
e2e_wait $s 'Scaffold this' "a fourth scaffold"
e2e_keys $s C-u
e2e_type $s "$TARGET"
e2e_keys $s Enter
e2e_wait $s '1 exists already' "the plan again"
e2e_keys $s y
e2e_wait $s 'Dockerfile exists' "the question again"
e2e_keys $s C-u
e2e_type $s beside
e2e_keys $s Enter
e2e_wait $s 'Wrote 1 file into' "beside writes byoc's version"
if [ "$(cat "$TARGET/Dockerfile")" = "# mine" ] && grep -q '^FROM' "$TARGET/Dockerfile.byoc"; then
    e2e_pass "byoc's Dockerfile went beside the user's"; else e2e_fail "beside: $(ls "$TARGET")"; fi
e2e_keys $s Enter
e2e_keys $s s
e2e_wait $s 'Scaffold this' "a fifth scaffold"
e2e_keys $s C-u
e2e_type $s "$TARGET"
e2e_keys $s Enter
e2e_wait $s '1 exists already' "the plan once more"
e2e_keys $s y
e2e_wait $s 'Dockerfile exists' "the question once more"
e2e_keys $s C-u
e2e_type $s overwrite
e2e_keys $s Enter
e2e_wait $s 'Wrote 1 file into' "overwrite writes it"
if grep -q '^FROM' "$TARGET/Dockerfile"; then e2e_pass "the Dockerfile is the recipe's again"; else
    e2e_fail "the Dockerfile was not overwritten"; fi
e2e_keys $s Enter

# --- 120x40: the answers and the verdict side by side ------------------------------------------------
e2e_resize $s 120 40
e2e_wait $s 'Languages.*│ *BYOC is required' "120x40 shows the answers beside the verdict"
e2e_has $s 'Keys' "the keys are listed under the answers"
e2e_keys $s Enter Down Down C-u
e2e_type $s 2
e2e_keys $s Up Up C-u
e2e_type $s python
e2e_wait $s '│ *BYOC is not needed' "side by side, the verdict follows the answers"
e2e_keys $s Escape
e2e_resize $s 80 24
e2e_wait $s 'BYOC is not needed' "back to 80x24"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- NO_COLOR and ASCII ---------------------------------------------------------------------------------
s=plain
e2e_start $s 80 24 NO_COLOR=1 BYOC_ASCII=1 -- --project "$SRC/tests/fixtures/projects/rust" tui
e2e_wait $s 'BYOC is required' "NO_COLOR+ASCII: the verdict shows"
e2e_has $s '\[non-python\]' "NO_COLOR+ASCII: with its rule"
e2e_lacks $s '\[(3[0-7]|38;5;[0-9]+)m|\[[0-9;]*;3[0-7]m' "NO_COLOR: no colour codes" -e
e2e_lacks $s '─|│|┌|•' "ASCII: no Unicode drawing"
e2e_keys $s Enter
e2e_wait $s 'Languages.*rust.*scanned' "NO_COLOR+ASCII: the answers show"
e2e_keys $s Escape q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

e2e_done
