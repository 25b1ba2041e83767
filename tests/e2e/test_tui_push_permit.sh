#!/bin/bash
# Push and Permit end to end, in tmux at 80x24, on the topology (engine,
# registry behind moto's ECR): a repository name without amazon-braket is
# warned about and a fixes it; the push shows its layers and the resulting
# URI; u puts the URI into the job form. Permit picks the pushed repository,
# shows its (empty) policy, grants pull to a role after a diff and a
# confirmation docked under the diff (which stays in view and scrolls while
# it is open, through a resize too), refuses "*" unless confirmed (No is the default), and
# checks whether an execution role can pull. The push is recorded in the
# project's byoc.json as "pushed", as `byoc push` records it (Run's default
# image, Permit's default repository).
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
SRC_IMAGE=${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}
P="$E2E_DIR/proj"
mkdir -p "$P"
printf '{"recipe": "extend-prebuilt", "language": "python", "job": {"device": "local:braket/sim"}}\n' >"$P/byoc.json"
REPO="e2e-push-$$"
READER="arn:aws:iam::123456789012:role/e2e-reader-$$"

# The diff's lines in view (inside the content box, "+ ..." or "- ...").
diff_lines() { e2e_capture $s | grep -nE '^[│|].*[│|] [-+] '; }
# The question's title row comes after every diff line in view: nothing of the diff is under it.
question_under_diff() {
    local last q
    last=$(diff_lines | tail -1 | cut -d: -f1)
    q=$(e2e_capture $s | grep -nm1 'Apply the policy change?' | cut -d: -f1)
    if [ -n "$last" ] && [ -n "$q" ] && [ "$last" -lt "$q" ]; then e2e_pass "$1"; else
        e2e_fail "$1: last diff row ${last:-none}, question row ${q:-none}"; e2e_capture $s | sed 's/^/    | /' >&2; fi
}

s=push
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s 3
e2e_wait $s '3 Push' "3 opens Push"
e2e_keys $s e
e2e_type $s "$SRC_IMAGE"
e2e_keys $s Tab
e2e_type $s "$REPO"
e2e_keys $s Tab
e2e_type $s "1"
e2e_keys $s Escape
e2e_wait $s 'Not amazon-braket' "a repository without the prefix is warned about"
e2e_keys $s a
e2e_wait $s "Repository\*? +amazon-braket-$REPO" "a adds the amazon-braket- prefix"
e2e_wait_gone $s 'Not amazon-braket' "and the warning goes"
e2e_keys $s p
e2e_wait $s "^. [0-9]+\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com/amazon-braket-$REPO:1" "the push ends with the image URI"
e2e_has $s 'Layers' "the layers are listed"
e2e_has $s '[0-9a-f]{12} .*[0-9.]+ (B|KiB|MiB)' "each with its bytes"
e2e_has $s 'Digest sha256:[0-9a-f]{40}' "and the digest"
if python3 - "$P/byoc.json" "amazon-braket-$REPO:1" <<'PY'; then e2e_pass "byoc.json records the push"; else
import json, sys
doc = json.load(open(sys.argv[1]))
pushed = doc.get("pushed", {})
sys.exit(0 if pushed.get("image_uri", "").endswith("/" + sys.argv[2]) and pushed.get("digest", "").startswith("sha256:")
         and doc.get("job") == {"device": "local:braket/sim"} else 1)
PY
    e2e_fail "byoc.json lacks the push (or lost the rest): $(cat "$P/byoc.json")"; fi
e2e_keys $s u
e2e_wait $s '5 Run' "u goes to Run"
e2e_wait $s "image URI from Push: [0-9]+\.dkr\.ecr\." "Run says it took the pushed URI"
e2e_keys $s e Tab Tab
e2e_wait $s "Container: image URI .*amazon-braket-e2e-push" "the job form holds the pushed URI"
e2e_keys $s Escape

e2e_keys $s 4
e2e_wait $s "4 Permit: amazon-braket-$REPO" "Permit takes the pushed repository"
e2e_wait $s 'no repository policy' "and shows its current (empty) policy"
e2e_keys $s e Down
e2e_type $s "$READER"
e2e_keys $s Escape
e2e_keys $s a
e2e_wait $s 'Apply the policy change\?' "a shows the diff and asks first"
# The question docks under the diff (issue 19 point 4): the diff stays in view and the
# page keys scroll it while the question is open.
e2e_has $s '^[│|].*[│|] \+ +"' "a line of the diff is in view beside the question"
question_under_diff "with the question under it, covering none of it"
top_before=$(diff_lines | head -1)
e2e_lacks $s 'behind this dialog' "the question no longer says the diff is hidden"
e2e_has $s 'PgDn page' "the hint line offers the scroll keys"
e2e_keys $s PageDown
e2e_wait $s "[│|] \+ .*role/e2e-reader-" "PgDn scrolls the diff to the role while the question is open"
e2e_has $s 'Apply the policy change\?' "and the question stays"
[ "$(diff_lines | head -1)" != "$top_before" ] && e2e_pass "the diff's first line in view changed" ||
    e2e_fail "PgDn did not scroll the diff: first line still '$top_before'"
question_under_diff "still under the diff"
e2e_resize $s 100 30
e2e_wait $s '^[│|].*[│|] \+ .*[│|]$' "after a resize to 100x30 the diff is still in view" &&
    e2e_has $s 'Apply the policy change\?' "and the question too"
e2e_resize $s 80 24
e2e_wait $s '^[│|].*[│|] \+ .*[│|]$' "back at 80x24 the diff is in view" &&
    e2e_has $s 'Apply the policy change\?' "beside the question"
e2e_keys $s n
e2e_wait $s '[│|] ?not applied +[│|]' "No applies nothing"
e2e_keys $s PageDown
e2e_wait $s "\+ .*role/e2e-reader-" "the diff names the role"
e2e_keys $s a
e2e_wait $s 'Apply the policy change\?' "a asks again"
e2e_keys $s y
# The status says exactly "applied" only once the apply task's result is in (a key sent
# while it runs is refused); "not applied" and "(not applied yet)" were on screen before.
e2e_wait $s '[│|] ?applied +[│|]' "y applies it"
e2e_keys $s r
e2e_wait $s 'Current policy' "r shows the policy"
e2e_wait $s "\"arn:aws:iam::[0-9]+:role/e2e-reader-$$" "which now grants the role (in the policy's JSON, not the form)"

e2e_keys $s e C-u
e2e_type $s '*'
e2e_keys $s Escape
e2e_wait $s 'every AWS account can pull' "a loud warning on *"
e2e_keys $s a
e2e_wait $s 'DANGER: anyone may pull' "a on * asks with a danger dialog"
e2e_keys $s Enter
e2e_wait $s 'refused: "\*" was not confirmed' "the default answer refuses it"

e2e_keys $s e Down
e2e_type $s "arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole-e2e"
e2e_keys $s Escape
e2e_keys $s k
e2e_wait $s '(Can the execution role pull\?|error:)' "k checks whether the role can pull"
e2e_has $s '(YES: the role can pull|NO: the role cannot pull|error:)' "with an answer"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s
e2e_done
