#!/usr/bin/env bash
# byoc images --repository: the ECR half of the image browser, against moto's ECR.
set -u
. "$BYOC_SOURCE_DIR/tests/integration/lib.sh"

repo="byoc-images-test-$$"
# A repository with two tagged images, registered through moto's own ECR API (PutImage).
python3 - "$repo" <<'PY' || { echo "setup failed"; exit 1; }
import boto3, json, os, sys
ecr = boto3.client("ecr", endpoint_url=os.environ["AWS_ENDPOINT_URL"])
repo = sys.argv[1]
ecr.create_repository(repositoryName=repo)
for i, tag in enumerate(["v1", "v2"]):
    manifest = {"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "size": 100 + i,
                           "digest": "sha256:" + ("%x" % (i + 1)) * 64},
                "layers": [{"mediaType": "application/vnd.docker.image.rootfs.diff.tar.gzip", "size": 1000 + i,
                            "digest": "sha256:" + ("%x" % (i + 3)) * 64}]}
    ecr.put_image(repositoryName=repo, imageManifest=json.dumps(manifest), imageTag=tag)
PY

run_byoc images --repository "$repo" --json
expect_rc 0 "images --repository"
got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join(sorted(t for i in d["images"] for t in i["tags"])), all(i["digest"].startswith("sha256:") for i in d["images"]))' "$OUT")
expect_eq "$got" "v1 v2 True" "both tags listed with digests"

run_byoc images --repository "$repo"
expect_rc 0 "images --repository (table)"
expect_out '^TAGS +DIGEST'
expect_out '^v1 '

# Bad input: nothing is sent, exit 2, the flag named.
run_byoc images --repository "Not/Valid"
expect_rc 2 "invalid repository name"
expect_err "^byoc: --repository: 'Not/Valid'"
run_byoc images --repository "$repo" --local
expect_rc 2 "--repository with --local"

# A repository that does not exist: the service's answer, exit 1.
run_byoc images --repository "no-such-repo-$$"
expect_rc 1 "missing repository"
expect_err 'RepositoryNotFoundException'

python3 -c 'import boto3,os,sys; boto3.client("ecr", endpoint_url=os.environ["AWS_ENDPOINT_URL"]).delete_repository(repositoryName=sys.argv[1], force=True)' "$repo"
finish
