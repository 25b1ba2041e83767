#!/bin/bash
# The Push screen's amazon-braket* warning follows the repository policy, in tmux at 80x24 on
# the topology: pushed to a repository whose name lacks the prefix, the warning stays while no
# policy grants the pull; once Permit grants a role pull, back on Push the screen says the
# policy grants it, and the warning is gone. With a job role named in BRAKET_JOBS_ROLE_ARN
# that the policy does not name, the warning stays. When the policy cannot be read (no
# endpoint), it says the grant is unknown, never that the role can pull.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
: "${BYOC_TEST_REGISTRY:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
SRC_IMAGE=${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
P="$E2E_DIR/proj"
mkdir -p "$P"
REPO="e2e-grant-$$"
READER="arn:aws:iam::123456789012:role/e2e-grant-reader-$$"
OTHER="arn:aws:iam::123456789012:role/e2e-grant-other-$$"
trap '"$DOCKER" rmi -f "$BYOC_TEST_REGISTRY/$REPO:1" >/dev/null 2>&1; e2e_cleanup' EXIT

# push_form SESSION: the Push step's form filled with the source image and $REPO
push_form() {
    e2e_keys "$1" 3
    e2e_wait "$1" '3 Push' "3 opens Push"
    e2e_keys "$1" e
    e2e_type "$1" "$SRC_IMAGE"
    e2e_keys "$1" Tab
    e2e_type "$1" "$REPO"
    e2e_keys "$1" Tab
    e2e_type "$1" "1"
    e2e_keys "$1" Escape
}

s=grant
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
push_form $s
e2e_wait $s '! Not amazon-braket\*: the default job role cannot pull it' "a name without the prefix is warned about"
e2e_keys $s p
e2e_wait $s "^. [0-9]+\.dkr\.ecr\.[a-z0-9-]+\.amazonaws\.com/$REPO:1" "the push ends with the image URI"
e2e_wait $s '! Not amazon-braket\*: the default job role cannot pull it' "pushed, no policy yet: still warned"

e2e_keys $s 4
e2e_wait $s "4 Permit: $REPO" "Permit takes the pushed repository"
e2e_wait $s 'no repository policy' "which has no policy"
e2e_keys $s e Down
e2e_type $s "$READER"
e2e_keys $s Escape
e2e_keys $s a
e2e_wait $s 'Apply the policy change\?' "a asks first"
e2e_keys $s y
e2e_wait $s '[│|] ?applied +[│|]' "y grants the role pull"

e2e_keys $s 3
e2e_wait $s "Policy grants pull to arn:aws:iam::[0-9]+:role/e2e-grant-reader-$$" \
    "back on Push: the policy grants the role pull"
e2e_lacks $s 'Not amazon-braket\*:' "and the warning is gone"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_stty_same $s

# The job role is known and the policy does not name it: the warning stays, saying why.
s=other
e2e_start $s 80 24 "BRAKET_JOBS_ROLE_ARN=$OTHER" -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
push_form $s
e2e_wait $s '! Not amazon-braket\*: the default job role cannot pull it' \
    "a job role the policy does not name: still warned"
e2e_lacks $s 'Policy grants pull' "never said to be granted"
e2e_keys $s C-c
e2e_wait_exit $s

# No endpoint answers: the grant is unknown, not a yes and not a no.
s=unknown
e2e_start $s 80 24 "AWS_ENDPOINT_URL=http://127.0.0.1:9" -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
push_form $s
e2e_wait $s '! Not amazon-braket\*; pull grant unknown: ' "a policy that cannot be read: unknown"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_done
