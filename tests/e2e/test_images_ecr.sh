#!/bin/bash
# The image browser's ECR side end to end, in tmux at 80x24, on the topology
# (engine, TLS registry, moto's ECR behind it). An image pushed with byoc push
# is marked "pushed" in the local list; e switches to ECR: the repository is
# listed, Enter opens it and shows the tag with the "local" mark (the engine
# has that repository@digest); the screen survives resizes; d asks before
# deleting with No as the default: No keeps the image (checked with the aws
# CLI), Yes deletes it (gone for the aws CLI too), the repository's count
# drops to 0. A repository of 150 images is listed whole although ECR pages
# by 100 (the TUI talks to moto through tests/topology/ecr_front.py, which
# pages as ECR does and counts the requests). Back on the local side, the
# "pushed" mark is gone. A second session with NO_COLOR and BYOC_ASCII draws
# the same screens in plain ASCII.
. "$(dirname "$0")/lib.sh"

: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
: "${AWS_ENDPOINT_URL:?run through tests/topology/with-env.sh}"
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
SRC_IMAGE=${BYOC_TEST_BASE_BUSYBOX:-byoc-test/busybox:1}
REGISTRY=${BYOC_TEST_REGISTRY:?}
DOCKER=${BYOC_TEST_DOCKER_CLI:-docker}
REPO="amazon-braket-e2e-ecr-$$"
MANY="e2e-ecr-many-$$"
P="$E2E_DIR/proj"
mkdir -p "$P"
FRONT_PID=

ecr_digests() {
    aws ecr describe-images --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$REPO" \
        --query 'imageDetails[].imageDigest' --output text 2>&1
}

front_counts() {
    python3 -c 'import json,sys,urllib.request; print(json.load(urllib.request.urlopen(sys.argv[1] + "/_front/counts")).get(sys.argv[2], 0))' "$FRONT_URL" "$1"
}

cleanup() {
    e2e_cleanup
    exec 9>&-                                   # the front serves until its stdin closes,
    if [ -n "$FRONT_PID" ]; then                # which the tmux server inherited: make sure
        kill "$FRONT_PID" 2>/dev/null
        wait "$FRONT_PID" 2>/dev/null
    fi
    aws ecr delete-repository --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$MANY" --force >/dev/null 2>&1
    aws ecr delete-repository --endpoint-url "$AWS_ENDPOINT_URL" --repository-name "$REPO" --force >/dev/null 2>&1
    "$DOCKER" rmi "$REGISTRY/$REPO:e2e" "$LOCAL_IMAGE" >/dev/null 2>&1
}
trap cleanup EXIT

# An image of this run's own (a label on the base image), so that its digest is in no other repository,
# pushed the way a user would.
LOCAL_IMAGE="byoc-e2e-ecr:$$"
printf 'FROM %s\nLABEL byoc.e2e.run=%s\n' "$SRC_IMAGE" "$$" |
    DOCKER_BUILDKIT=0 "$DOCKER" build -q -t "$LOCAL_IMAGE" - > "$E2E_DIR/build.out" 2>&1 ||
    { e2e_fail "docker build failed:"; sed 's/^/    | /' "$E2E_DIR/build.out" >&2; e2e_done; exit 1; }
if ! "$BYOC_BIN" --json push "$LOCAL_IMAGE" --repository "$REPO" --create --tag e2e > "$E2E_DIR/push.json" 2> "$E2E_DIR/push.err"; then
    e2e_fail "byoc push failed:"
    sed 's/^/    | /' "$E2E_DIR/push.err" >&2
    e2e_done
    exit 1
fi
DIGEST=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["digest"])' "$E2E_DIR/push.json")
SHORT=${DIGEST#sha256:}
SHORT=${SHORT:0:12}
case "$(ecr_digests)" in *"$DIGEST"*) e2e_pass "ECR lists the pushed digest" ;; *) e2e_fail "ECR does not list $DIGEST" ;; esac

# 150 images in another repository, registered through moto's own ECR API (PutImage).
python3 - "$MANY" <<'PY' || e2e_fail "could not fill $MANY"
import boto3, json, os, sys
ecr = boto3.client("ecr", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
ecr.create_repository(repositoryName=sys.argv[1])
for i in range(150):
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "size": 100,
                           "digest": "sha256:%064x" % (i + 1)},
                "layers": [{"mediaType": "application/vnd.docker.image.rootfs.diff.tar.gzip", "size": 1000,
                            "digest": "sha256:%064x" % (i + 1000)}]}
    ecr.put_image(repositoryName=sys.argv[1], imageManifest=json.dumps(manifest), imageTag="t%03d" % i)
PY

# The front between the TUI and moto.
mkfifo "$E2E_DIR/front.in"
python3 "${BYOC_SOURCE_DIR:-$(dirname "$0")/../..}/tests/topology/ecr_front.py" --upstream "$AWS_ENDPOINT_URL" \
    < "$E2E_DIR/front.in" > "$E2E_DIR/front.out" 2>&1 &
FRONT_PID=$!
exec 9> "$E2E_DIR/front.in"
for _ in $(seq 1 100); do grep -q '^PORT=' "$E2E_DIR/front.out" 2>/dev/null && break; sleep 0.1; done
FRONT_URL="http://127.0.0.1:$(sed -n 's/^PORT=//p' "$E2E_DIR/front.out")"

s=ecr
e2e_start $s 80 24 AWS_ENDPOINT_URL="$FRONT_URL" -- --project "$P" tui
e2e_wait $s 'Decide' "byoc starts"
e2e_keys $s i
e2e_wait $s 'Local images on the Docker engine  [0-9]' "i opens the local images"
e2e_has $s 'e ECR' "the hint bar offers e for ECR"
e2e_keys $s /
e2e_type $s "$REPO"
e2e_keys $s Enter
e2e_wait $s "e2e +[0-9a-f]{12} .* pushed" "the pushed image is marked pushed in the local list"

e2e_keys $s e
e2e_wait $s 'ECR repositories in us-east-1  [0-9]' "e lists the ECR repositories"
e2e_has $s 'Name +URI +Images +Created +Tags +Scan' "with name, URI, count, created, tag mutability, scan on push"
e2e_has $s 'e local' "the hint bar offers e back to local"
e2e_keys $s /
e2e_type $s "$REPO"
e2e_keys $s Enter
e2e_wait $s "amazon-braket-e2e.* 1 [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5} MUTABLE +no" "the repository, one image"
e2e_has $s "$REGISTRY/$REPO\$|$REGISTRY/$REPO " "the detail shows its URI"
e2e_keys $s Enter
e2e_wait $s "ECR $REPO  1 image, 1 local" "Enter opens the repository"
e2e_has $s "^.e2e +$SHORT +[0-9.]+ (B|KiB|MiB) +[0-9-]{10} [0-9:]{5} +- +local" "the tag, short digest, size, pushed at, scan, local"
e2e_has $s "$REGISTRY/$REPO:e2e" "the detail shows the image URI"

e2e_resize $s 60 20
e2e_wait $s 'Terminal too small' "at 60x20 byoc asks for a larger window"
e2e_resize $s 120 30
e2e_wait $s "e2e +$SHORT .* local" "at 120x30 the whole row shows"
e2e_resize $s 80 24
e2e_wait $s "^.e2e +$SHORT .* local" "back at 80x24"

e2e_keys $s d
e2e_wait $s 'Delete from ECR\?' "d asks before deleting"
e2e_has $s "Delete image $SHORT \(tags: e2e\)" "naming the image and its tags"
e2e_has $s '\[ No \]' "No is the default"
e2e_keys $s n
e2e_wait $s 'Nothing deleted' "n deletes nothing"
e2e_has $s "^.e2e +$SHORT" "the image is still listed"
case "$(ecr_digests)" in *"$DIGEST"*) e2e_pass "aws ecr: the image is still there" ;; *) e2e_fail "aws ecr: the image is gone after No" ;; esac

e2e_keys $s d
e2e_wait $s 'Delete from ECR\?' "d asks again"
e2e_keys $s y
e2e_wait $s "Deleted $SHORT from $REPO" "y deletes it"
e2e_wait $s 'No images in this repository' "the list is refreshed: empty"
e2e_has $s "ECR $REPO  0 images, 0 local" "the header counts 0"
left=$(ecr_digests)
if [ -z "$(printf '%s' "$left" | tr -d '[:space:]')" ]; then e2e_pass "aws ecr: no image left"; else e2e_fail "aws ecr still lists: $left"; fi

e2e_keys $s Escape
e2e_wait $s "amazon-braket-e2e.* 0 [0-9]{4}-" "q/Esc goes back to the repositories, counted again"

e2e_keys $s / C-u
e2e_type $s "$MANY"
e2e_keys $s Enter
e2e_wait $s "e2e-ecr-many-.* 150 [0-9]{4}-" "the repository of 150 images is counted whole"
before=$(front_counts DescribeImages)
e2e_keys $s Enter
e2e_wait $s "ECR $MANY  150 images, 0 local" "and lists all 150 images"
pages=$(( $(front_counts DescribeImages) - before ))
if [ "$pages" -ge 2 ]; then e2e_pass "over $pages DescribeImages pages"; else e2e_fail "DescribeImages pages: $pages, want >= 2"; fi
e2e_keys $s /
e2e_type $s t149
e2e_keys $s Enter
e2e_wait $s "^.t149 +[0-9a-f]{12} " "the last page's image is there (filter t149)"
e2e_keys $s Escape
e2e_wait $s 'ECR repositories in' "Esc: back to the repositories"
e2e_keys $s e
e2e_wait $s 'Local images on the Docker engine' "e goes back to the local images"
e2e_wait_gone $s "e2e +[0-9a-f]{12} .* pushed" "the local image is no longer marked pushed"
e2e_has $s "e2e +[0-9a-f]{12} " "but it is still on the engine"
e2e_keys $s C-c
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s

# Plain: no colours, ASCII lines.
a=ascii
e2e_start $a 80 24 NO_COLOR=1 BYOC_ASCII=1 -- --project "$P" tui
e2e_wait $a 'Decide' "ascii: byoc starts"
e2e_keys $a i
e2e_wait $a 'Local images on the Docker engine  [0-9]' "ascii: the local images"
e2e_keys $a e
e2e_wait $a 'ECR repositories in us-east-1  [0-9]' "ascii: the repositories"
e2e_lacks $a '[─│┌┐└┘]' "ascii: no box-drawing characters"
e2e_lacks $a $'\e\\[([0-9]*;)*(3[1-7]|38;5;[0-9]+)m' "ascii: no colours" -e
e2e_keys $a C-c
e2e_wait_exit $a
e2e_expect_rc $a 0
e2e_done
