#!/usr/bin/env python3
"""Images pushed into the topology's TLS registry by hand, over its v2 API: no engine, no emulation.

An image whose config merely says its platform (nothing runs it), and what multi-platform pushes look
like: an OCI index with BuildKit's provenance attestation entries (what `docker buildx` pushes by
default), or a Docker manifest list. The registry tells moto's ECR of each manifest through the bridge
(ecr_bridge.py), so DescribeImages lists them with their media type, as ECR does; the repository
must exist in moto first (the bridge records nothing for an unknown one).

Python tests import it (tests/topology is on their path); shell tests run it:

  regpush.py multi REPO TAG    an amd64 and an arm64/v8 image and an OCI index of both with an
                               attestation each; prints the index's digest
  regpush.py image REPO TAG    one single-platform (linux/amd64) image; prints its digest

Both wait until moto's ECR lists the tag.
"""

import base64
import gzip
import hashlib
import io
import json
import ssl
import sys
import tarfile
import time
import urllib.request

from testkit import client, env

HOST = env("BYOC_TEST_REGISTRY")
SSL = ssl.create_default_context(cafile=env("BYOC_TEST_REGISTRY_CA"))
# The ECR token moto hands out is "AWS:<account>-auth-token"; the registry takes the same pair.
AUTH = "Basic " + base64.b64encode(("AWS:%s-auth-token" % env("BYOC_TEST_ACCOUNT")).encode()).decode()

DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json"
DOCKER_LIST = "application/vnd.docker.distribution.manifest.list.v2+json"
OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json"
OCI_INDEX = "application/vnd.oci.image.index.v1+json"


def registry(method, path, body=None, ctype=None, accept=None):
    req = urllib.request.Request("https://%s%s" % (HOST, path), data=body, method=method)
    req.add_header("Authorization", AUTH)
    if ctype:
        req.add_header("Content-Type", ctype)
    if accept:
        req.add_header("Accept", accept)
    with urllib.request.urlopen(req, context=SSL, timeout=30) as r:
        return r.status, dict(r.headers), r.read()


def sha(data):
    return "sha256:" + hashlib.sha256(data).hexdigest()


def push_blob(repo, data):
    _, headers, _ = registry("POST", "/v2/%s/blobs/uploads/" % repo)
    loc = headers["Location"]
    if loc.startswith("https://"):
        loc = loc.split(HOST, 1)[1]
    loc += ("&" if "?" in loc else "?") + "digest=" + sha(data)
    registry("PUT", loc, data, "application/octet-stream")
    return sha(data)


def push_manifest(repo, ref, doc, media_type):
    data = json.dumps(doc).encode()
    registry("PUT", "/v2/%s/manifests/%s" % (repo, ref), data, media_type)
    return sha(data), len(data)


def push_image(repo, tag, arch):
    """A one-layer image whose config says linux/<arch>. Returns (digest, size) of its manifest."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w") as t:
        info = tarfile.TarInfo("hello.txt")
        info.size = 6
        t.addfile(info, io.BytesIO(b"hello\n"))
    layer = gzip.compress(raw.getvalue(), mtime=0)
    # The tag in a label: each push is its own image. Without it two pushes of one arch (a
    # multi-platform push's linux/amd64 child, then a single image) are byte for byte the same
    # image, which ECR lists once with both tags.
    config = json.dumps({"architecture": arch, "os": "linux",
                         "config": {"Env": ["SAGEMAKER_PROGRAM=braket_container.py"], "Cmd": ["train"],
                                    "Labels": {"byoc.test.tag": tag}},
                         "rootfs": {"type": "layers", "diff_ids": [sha(raw.getvalue())]}}).encode()
    push_blob(repo, layer)
    push_blob(repo, config)
    return push_manifest(repo, tag, {
        "schemaVersion": 2, "mediaType": DOCKER_MANIFEST,
        "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "size": len(config),
                   "digest": sha(config)},
        "layers": [{"mediaType": "application/vnd.docker.image.rootfs.diff.tar.gzip", "size": len(layer),
                    "digest": sha(layer)}]}, DOCKER_MANIFEST)


def push_attestation(repo, image_digest):
    """BuildKit's provenance attestation of an image: its index entry (platform unknown/unknown)."""
    statement = json.dumps({"_type": "https://in-toto.io/Statement/v0.1",
                            "predicateType": "https://slsa.dev/provenance/v0.2",
                            "subject": [{"name": "image", "digest": {"sha256": image_digest[7:]}}]}).encode()
    empty = b"{}"
    push_blob(repo, statement)
    push_blob(repo, empty)
    attestation = {
        "schemaVersion": 2, "mediaType": OCI_MANIFEST,
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "size": 2, "digest": sha(empty)},
        "layers": [{"mediaType": "application/vnd.in-toto+json", "size": len(statement), "digest": sha(statement),
                    "annotations": {"in-toto.io/predicate-type": "https://slsa.dev/provenance/v0.2"}}]}
    digest, size = push_manifest(repo, sha(json.dumps(attestation).encode()), attestation, OCI_MANIFEST)
    return {"mediaType": OCI_MANIFEST, "digest": digest, "size": size,
            "annotations": {"vnd.docker.reference.digest": image_digest,
                            "vnd.docker.reference.type": "attestation-manifest"},
            "platform": {"architecture": "unknown", "os": "unknown"}}


def entry(digest, size, arch, variant=None):
    platform = {"architecture": arch, "os": "linux"}
    if variant:
        platform["variant"] = variant
    return {"mediaType": DOCKER_MANIFEST, "digest": digest, "size": size, "platform": platform}


def push_index(repo, tag, entries, media_type=OCI_INDEX):
    return push_manifest(repo, tag, {"schemaVersion": 2, "mediaType": media_type, "manifests": entries}, media_type)


def push_attestation_index(repo, tag, image_tag):
    """What BuildKit pushes by default for one platform: an OCI index of the image (image_tag, already
    pushed) and its provenance attestation."""
    _, _, body = registry("GET", "/v2/%s/manifests/%s" % (repo, image_tag), accept=DOCKER_MANIFEST)
    image_digest = sha(body)
    return push_index(repo, tag, [entry(image_digest, len(body), "amd64"), push_attestation(repo, image_digest)])


def push_multi(repo, tag):
    """A two-platform BuildKit push: linux/amd64 and linux/arm64/v8, an attestation each."""
    amd_digest, amd_size = push_image(repo, tag + "-amd64", "amd64")
    arm_digest, arm_size = push_image(repo, tag + "-arm64", "arm64")
    return push_index(repo, tag, [entry(amd_digest, amd_size, "amd64"), entry(arm_digest, arm_size, "arm64", "v8"),
                                  push_attestation(repo, amd_digest), push_attestation(repo, arm_digest)])


def wait_in_ecr(repo, tag, tries=100):
    ecr = client("ecr")
    for _ in range(tries):
        try:
            ecr.describe_images(repositoryName=repo, imageIds=[{"imageTag": tag}])
            return True
        except Exception:
            time.sleep(0.1)
    return False


def main(argv):
    if len(argv) != 4 or argv[1] not in ("multi", "image"):
        print(__doc__, file=sys.stderr)
        return 2
    _, what, repo, tag = argv
    digest, _ = push_multi(repo, tag) if what == "multi" else push_image(repo, tag, "amd64")
    if not wait_in_ecr(repo, tag):
        print("regpush: moto's ECR does not list %s:%s" % (repo, tag), file=sys.stderr)
        return 1
    print(digest)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
