#!/bin/bash
# The ECR image browser shows the platforms of a multi-platform image, in tmux at 80x24 on the
# topology (TLS registry, moto's ECR behind it). A BuildKit-style push (an OCI index of linux/amd64
# and linux/arm64/v8 with an attestation each, pushed by hand over the registry's v2 API:
# tests/topology/regpush.py) is listed at once, and its platforms, read from the registry in the
# background, appear in the detail line and in its Enter dialog. An index that ECR lists but the
# registry cannot serve says "platforms: unknown (why)", never a guess; a single-platform image says
# nothing of platforms.
. "$(dirname "$0")/lib.sh"

: "${AWS_ENDPOINT_URL:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
SOURCE=${BYOC_SOURCE_DIR:-$(dirname "$0")/../..}
REPO="amazon-braket-e2e-plat-$$"
P="$E2E_DIR/proj"
mkdir -p "$P"

cleanup() {
    e2e_cleanup
    aws ecr delete-repository --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$REPO" --force >/dev/null 2>&1
}
trap cleanup EXIT

short() { local d=${1#sha256:}; printf '%s' "${d:0:12}"; }

setup_fail() { e2e_fail "$1:"; sed 's/^/    | /' "$2" >&2; e2e_done; exit 1; }

aws ecr create-repository --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$REPO" > "$E2E_DIR/create.out" 2>&1 ||
    setup_fail "could not create $REPO" "$E2E_DIR/create.out"
MULTI=$(python3 "$SOURCE/tests/topology/regpush.py" multi "$REPO" multi 2> "$E2E_DIR/push.err") ||
    setup_fail "could not push the index" "$E2E_DIR/push.err"
SINGLE=$(python3 "$SOURCE/tests/topology/regpush.py" image "$REPO" single 2> "$E2E_DIR/push.err") ||
    setup_fail "could not push the single image" "$E2E_DIR/push.err"
# An index in moto's ECR only: the registry has no such manifest, so its platforms cannot be read.
GHOST=$(aws ecr put-image --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$REPO" --image-tag ghost \
    --image-manifest-media-type application/vnd.oci.image.index.v1+json \
    --image-manifest '{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json", "manifests": []}' \
    --query image.imageId.imageDigest --output text 2> "$E2E_DIR/put.err") || setup_fail "could not put the ghost index" "$E2E_DIR/put.err"

s=plat
e2e_start $s 80 24 -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s i
e2e_wait $s 'Local images on the Docker engine' "i opens the local images"
e2e_keys $s e
e2e_wait $s 'ECR repositories in us-east-1  [0-9]' "e lists the ECR repositories"
e2e_keys $s /
e2e_type $s "$REPO"
e2e_keys $s Enter
e2e_wait $s "amazon-braket-e2e-plat.* [0-9]+ [0-9]{4}-" "the repository is listed"
e2e_keys $s Enter
e2e_wait $s "ECR $REPO  [0-9]+ images" "Enter opens the repository"

# The index, alone under the filter (its short digest).
e2e_keys $s /
e2e_type $s "$(short "$MULTI")"
e2e_keys $s Enter
e2e_wait $s "^.multi +$(short "$MULTI") " "the index is listed"
e2e_wait $s "platforms: linux/amd64, linux/arm64/v8 \+2 attestations  scan" \
    "its platforms, read from the registry, in the detail line (at 80 columns)"
e2e_keys $s Enter
e2e_wait $s 'ECR image' "Enter shows the image"
e2e_has $s 'Platforms \(a multi-platform index\):' "the dialog names the platforms"
e2e_has $s 'linux/arm64/v8' "the dialog lists them"
e2e_keys $s Enter
e2e_wait_gone $s 'Platforms \(a multi-platform index\)' "the dialog closes"

# The index the registry does not have.
e2e_keys $s / C-u
e2e_type $s "$(short "$GHOST")"
e2e_keys $s Enter
e2e_wait $s "^.ghost +$(short "$GHOST") " "the unreadable index is listed"
e2e_wait $s "platforms: unknown \(registry answered HTTP 404" "its platforms are unknown, with why (the registry has no such manifest)"
e2e_lacks $s "platforms: (linux|reading)" "and nothing is guessed"

# A single-platform image: nothing read, nothing said.
e2e_keys $s / C-u
e2e_type $s "$(short "$SINGLE")"
e2e_keys $s Enter
e2e_wait $s "^.single +$(short "$SINGLE") " "the single-platform image is listed"
e2e_wait $s "scan [^ ]+  $SINGLE|scan [^ ]+  sha256:" "its detail line"
e2e_lacks $s "platforms:" "says nothing of platforms"

e2e_keys $s C-c
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_done
