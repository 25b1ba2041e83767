#!/usr/bin/env python3
"""byoc push against the topology: dockerd, the TLS registry (password = moto's ECR token
password), moto (SigV4 checked) and the registry -> moto bridge.

Every byoc run goes through tests/topology/ecr_front.py (AWS_ENDPOINT_URL), which counts the
requests by operation, so "sends nothing" is measured, not assumed.

  - create + push with a moto-issued token: the JSON result, the digest equals the registry's
    manifest digest (Docker-Content-Digest and the sha256 of the bytes), DescribeImages lists
    it with the tag (through the bridge), per-layer progress on stderr, no secret in any output,
    no credentials written anywhere
  - a second push to the same repository without --create; a two-layer image's progress
  - --docker-config writes a working auths entry (docker pull with it), 0600
  - bad input gets one clear error and sends nothing: a bad repository name, a bad tag, an
    unknown image, a missing repository without --create (nothing created, nothing pushed)
  - the amazon-braket warning and its suggested name
"""

import base64
import hashlib
import json
import os
import shutil
import ssl
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, env  # noqa: E402
from ecr_front import EcrFront  # noqa: E402

SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
DOCKER = env("BYOC_TEST_DOCKER_CLI")
REGISTRY = env("BYOC_TEST_REGISTRY")
BASE = env("BYOC_TEST_BASE_BUSYBOX")
RUN_ID = "%d-%d" % (os.getpid(), int(time.time()))

checks = Checks("test_push")
ecr = client("ecr")
front = EcrFront(env("AWS_ENDPOINT_URL")).start()
docker_config = tempfile.mkdtemp(prefix="byoc-push-dc-")
with open(os.path.join(docker_config, "config.json"), "w") as f:
    f.write("{}\n")
created_repos = []
local_refs = []


class Run:
    def __init__(self, proc):
        self.rc = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError:
            return None


def byoc(*args, extra_env=None):
    e = dict(os.environ)
    e["AWS_ENDPOINT_URL"] = front.url
    e["DOCKER_CONFIG"] = docker_config
    e.update(extra_env or {})
    proc = subprocess.run([BYOC] + list(args), capture_output=True, text=True, env=e, timeout=300)
    return Run(proc)


def docker(*args, extra_env=None):
    e = dict(os.environ)
    e.update(extra_env or {})
    return subprocess.run([DOCKER] + list(args), capture_output=True, text=True, env=e, timeout=300)


def password():
    token = ecr.get_authorization_token()["authorizationData"][0]["authorizationToken"]
    return base64.b64decode(token).decode().split(":", 1)[1]


def registry_manifest(repo, ref):
    req = urllib.request.Request(
        "https://%s/v2/%s/manifests/%s" % (REGISTRY, repo, ref),
        headers={"Accept": "application/vnd.docker.distribution.manifest.v2+json",
                 "Authorization": "Basic " + base64.b64encode(("AWS:" + password()).encode()).decode()})
    ctx = ssl.create_default_context(cafile=env("BYOC_TEST_REGISTRY_CA"))
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))
    try:
        with opener.open(req, timeout=30) as resp:
            return resp.status, resp.headers.get("Docker-Content-Digest"), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, None, b""


def no_secret(run, name):
    secret = password()
    checks.check(secret not in run.out and secret not in run.err, name + ": the ECR password appears nowhere")
    checks.check(os.environ["AWS_SECRET_ACCESS_KEY"] not in run.out + run.err, name + ": the secret key appears nowhere")


def one_error_line(run, name, *needles):
    lines = [l for l in run.err.splitlines() if l.strip()]
    errors = [l for l in lines if l.startswith("byoc: ")]
    checks.equal(len(errors), 1, name + ": one error line")
    for needle in needles:
        checks.check(any(needle in l for l in errors), name + ": the error says %r" % needle, run.err.strip())
    checks.equal(run.out, "", name + ": nothing on stdout")


def test_create_and_push():
    repo = "amazon-braket-itest/push-" + RUN_ID
    created_repos.append(repo)
    front.reset()
    r = byoc("--json", "push", BASE, "--repository", repo, "--create", "--tag", "v1")
    checks.equal(r.rc, 0, "push --create: exit 0")
    if r.rc != 0:
        print(r.err)
        return
    doc = r.json() or {}
    checks.equal(doc.get("image_uri"), "%s/%s:v1" % (REGISTRY, repo), "push: image_uri")
    checks.check(str(doc.get("digest", "")).startswith("sha256:"), "push: a digest")
    checks.equal(doc.get("created_repository"), True, "push: created the repository")
    checks.equal(doc.get("verified"), True, "push: DescribeImages lists the digest")
    checks.equal(doc.get("account"), env("BYOC_TEST_ACCOUNT"), "push: the account (the repository's registry id)")
    checks.equal(doc.get("warnings"), [], "push: no warning for an amazon-braket name")
    checks.check(len(doc.get("layers", [])) >= 1, "push: layers reported")
    # The digest is the registry's manifest digest.
    status, header_digest, body = registry_manifest(repo, "v1")
    checks.equal(status, 200, "registry has the manifest")
    checks.equal(header_digest, doc.get("digest"), "digest = registry's Docker-Content-Digest")
    checks.equal("sha256:" + hashlib.sha256(body).hexdigest(), doc.get("digest"), "digest = sha256 of the manifest")
    # ECR (moto, through the bridge) lists it with the tag.
    details = ecr.describe_images(repositoryName=repo)["imageDetails"]
    checks.equal([(d["imageDigest"], d.get("imageTags")) for d in details], [(doc.get("digest"), ["v1"])],
                 "DescribeImages: the pushed digest and tag")
    # The repository as created.
    checks.equal(ecr.describe_repositories(repositoryNames=[repo])["repositories"][0]["repositoryName"], repo,
                 "moto has the repository")
    counts = front.counts()
    checks.equal(counts.get("CreateRepository"), 1, "one CreateRepository")
    checks.equal(counts.get("GetAuthorizationToken"), 1, "one GetAuthorizationToken")
    checks.equal(counts.get("DescribeRepositories"), 1, "one DescribeRepositories")
    # Progress per layer on stderr.
    layer = doc["layers"][0]["id"]
    checks.check(("%s: " % layer) in r.err, "stderr: a line per layer", r.err)
    checks.check("The push refers to repository" in r.err, "stderr: the engine's own lines")
    no_secret(r, "push")
    with open(os.path.join(docker_config, "config.json")) as f:
        checks.equal(f.read(), "{}\n", "push: config.json untouched without --docker-config")
    checks.equal(sorted(os.listdir(docker_config)), ["config.json"], "push: nothing else written to DOCKER_CONFIG")
    # With debug logging (stderr and the debug log file) no secret appears either.
    state = tempfile.mkdtemp(prefix="byoc-push-state-")
    rv = byoc("-vv", "push", BASE, "--repository", repo, "--tag", "v1", extra_env={"XDG_STATE_HOME": state})
    checks.equal(rv.rc, 0, "push -vv: exit 0")
    no_secret(rv, "push -vv")
    log = os.path.join(state, "byoc", "debug.log")
    text = open(log).read() if os.path.exists(log) else ""
    checks.check("DescribeRepositories" in text, "push -vv: the debug log was written")
    checks.check(password() not in text and "eyJ1c2VybmFtZSI6" not in text,
                 "push -vv: no password or X-Registry-Auth in the debug log")
    shutil.rmtree(state, ignore_errors=True)
    local_refs.append(doc.get("image_uri"))

    # Again, no --create: the repository exists; text output. From a project, the push is recorded in
    # its byoc.json as "pushed" (run's default image, Permit's repository), the rest of the file kept.
    front.reset()
    proj = tempfile.mkdtemp(prefix="byoc-push-proj-")
    with open(os.path.join(proj, "byoc.json"), "w") as f:
        json.dump({"name": "amazon-braket-itest", "job": {"device": "local:braket/sim"}}, f)
    r2 = byoc("--project", proj, "push", BASE, "--repository", repo, "--tag", "v2")
    checks.equal(r2.rc, 0, "second push: exit 0")
    with open(os.path.join(proj, "byoc.json")) as f:
        recorded = json.load(f)
    shutil.rmtree(proj)
    checks.equal(recorded.get("pushed"), {"image_uri": "%s/%s:v2" % (REGISTRY, repo), "digest": doc.get("digest")},
                 "second push: byoc.json records it as \"pushed\"")
    checks.equal(recorded.get("job"), {"device": "local:braket/sim"}, "second push: byoc.json keeps the rest")
    checks.check("image_uri: %s/%s:v2" % (REGISTRY, repo) in r2.out, "second push: prints the image URI", r2.out)
    checks.check("digest:    " + doc.get("digest", "?") in r2.out, "second push: prints the digest", r2.out)
    checks.check("Layer already exists" in r2.err, "second push: the layer is already there", r2.err)
    checks.equal(front.count("CreateRepository"), 0, "second push: no CreateRepository")
    tags = sorted(t for d in ecr.describe_images(repositoryName=repo)["imageDetails"] for t in d.get("imageTags", []))
    checks.equal(tags, ["v1", "v2"], "DescribeImages: both tags")
    local_refs.append("%s/%s:v2" % (REGISTRY, repo))


def test_two_layers():
    repo = "amazon-braket-itest/layers-" + RUN_ID
    created_repos.append(repo)
    ctx = tempfile.mkdtemp(prefix="byoc-push-ctx-")
    with open(os.path.join(ctx, "Dockerfile"), "w") as f:
        f.write("FROM %s\nRUN dd if=/dev/urandom of=/blob bs=1M count=12 2>/dev/null\n" % BASE)
    tag = "byoc-itest/push-layers:" + RUN_ID
    b = docker("build", "--network", "none", "-t", tag, ctx, extra_env={"DOCKER_BUILDKIT": "0"})
    shutil.rmtree(ctx)
    checks.equal(b.returncode, 0, "build a two-layer image")
    if b.returncode != 0:
        print(b.stderr)
        return
    local_refs.append(tag)
    r = byoc("--json", "push", tag, "--repository", repo, "--create")
    checks.equal(r.rc, 0, "two layers: exit 0")
    doc = r.json() or {}
    checks.equal(doc.get("tag"), RUN_ID, "two layers: the tag comes from REF")
    states = {l["id"]: l["state"] for l in doc.get("layers", [])}
    checks.equal(len(states), 2, "two layers: both reported")
    checks.check(all(s in ("pushed", "exists", "mounted") for s in states.values()), "two layers: all in the registry",
                 states)
    new = [i for i, s in states.items() if s == "pushed"]
    checks.check(len(new) >= 1, "two layers: the new layer was uploaded", states)
    for i in new:
        checks.check("%s: Pushing" % i in r.err and "%s: Pushed" % i in r.err,
                     "two layers: %s went Pushing -> Pushed on stderr" % i, r.err)
    checks.equal(doc.get("verified"), True, "two layers: verified in ECR")
    local_refs.append(doc.get("image_uri"))


def test_docker_config():
    repo = created_repos[0]
    cfg = tempfile.mkdtemp(prefix="byoc-push-login-")
    r = byoc("--json", "push", BASE, "--repository", repo, "--tag", "login", "--docker-config",
             extra_env={"DOCKER_CONFIG": cfg})
    checks.equal(r.rc, 0, "--docker-config: exit 0")
    path = os.path.join(cfg, "config.json")
    checks.check(os.path.exists(path), "--docker-config: config.json written")
    if not os.path.exists(path):
        return
    checks.equal(stat.S_IMODE(os.stat(path).st_mode), 0o600, "--docker-config: mode 0600")
    with open(path) as f:
        auths = json.load(f).get("auths", {})
    checks.equal(list(auths), [REGISTRY], "--docker-config: one auths entry for the registry")
    checks.equal(base64.b64decode(auths.get(REGISTRY, {}).get("auth", "")).decode(), "AWS:" + password(),
                 "--docker-config: auth = base64(AWS:password)")
    checks.equal((r.json() or {}).get("docker_config"), path, "--docker-config: named in the result")
    no_secret(r, "--docker-config")
    # The entry works for docker itself.
    ref = "%s/%s:login" % (REGISTRY, repo)
    docker("rmi", ref)
    pull = docker("pull", ref, extra_env={"DOCKER_CONFIG": cfg})
    checks.check(pull.returncode == 0, "docker pull with the written login", pull.stderr)
    local_refs.append(ref)
    shutil.rmtree(cfg)


def test_bad_input_sends_nothing():
    front.reset()
    r = byoc("push", BASE, "--repository", "Bad_Repo")
    checks.equal(r.rc, 2, "bad repository name: exit 2")
    one_error_line(r, "bad repository name", "--repository", "lowercase")
    r = byoc("push", BASE, "--repository", "amazon-braket-ok", "--tag", "bad tag")
    checks.equal(r.rc, 2, "bad tag: exit 2")
    one_error_line(r, "bad tag", "--tag")
    r = byoc("push", "byoc-itest/no-such-image:404", "--repository", "amazon-braket-ok")
    checks.equal(r.rc, 2, "unknown image: exit 2")
    one_error_line(r, "unknown image", "no local image 'byoc-itest/no-such-image:404'")
    r = byoc("push", BASE, "--repository", "amazon-braket-ok", "--scan-on-push")
    checks.equal(r.rc, 2, "creation flag without --create: exit 2")
    one_error_line(r, "creation flag without --create", "--create")
    checks.check(front.count() == 0, "bad input: not one AWS request", front.counts())

    missing = "amazon-braket-itest/missing-" + RUN_ID
    front.reset()
    r = byoc("push", BASE, "--repository", missing)
    checks.equal(r.rc, 2, "missing repository: exit 2")
    one_error_line(r, "missing repository", "does not exist", "--create")
    counts = front.counts()
    checks.equal(counts.get("CreateRepository", 0), 0, "missing repository: nothing created")
    checks.equal(counts.get("GetAuthorizationToken", 0), 0, "missing repository: no login")
    try:
        ecr.describe_repositories(repositoryNames=[missing])
        checks.check(False, "missing repository: still missing in moto")
    except ecr.exceptions.RepositoryNotFoundException:
        checks.check(True, "missing repository: still missing in moto")
    status, _, _ = registry_manifest(missing, "1")
    checks.check(status in (401, 404), "missing repository: nothing pushed to the registry", status)
    local = docker("image", "inspect", "%s/%s:1" % (REGISTRY, missing))
    checks.check(local.returncode != 0, "missing repository: not even tagged locally")


def test_name_warning():
    repo = "itest-plain-" + RUN_ID
    created_repos.append(repo)
    r = byoc("--json", "push", BASE, "--repository", repo, "--create", "--scan-on-push", "--immutable-tags")
    checks.equal(r.rc, 0, "plain name: exit 0")
    warning = [l for l in r.err.splitlines() if l.startswith("warning:")]
    checks.check(len(warning) == 1, "plain name: one warning on stderr", r.err)
    checks.check(warning and "--repository amazon-braket-" + repo in warning[0], "plain name: suggests the prefix",
                 warning)
    checks.equal(len((r.json() or {}).get("warnings", [])), 1, "plain name: the warning in the JSON too")
    info = ecr.describe_repositories(repositoryNames=[repo])["repositories"][0]
    checks.equal(info["imageScanningConfiguration"]["scanOnPush"], True, "--scan-on-push applied")
    checks.equal(info["imageTagMutability"], "IMMUTABLE", "--immutable-tags applied")
    local_refs.append((r.json() or {}).get("image_uri"))


def cleanup():
    for repo in created_repos:
        try:
            ecr.delete_repository(repositoryName=repo, force=True)
        except Exception:
            pass
    ours = {"%s/%s" % (REGISTRY, repo) for repo in created_repos}
    listed = docker("images", "--format", "{{.Repository}}:{{.Tag}}").stdout.split()
    for ref in set(local_refs) | {r for r in listed if r.rsplit(":", 1)[0] in ours}:
        if ref:
            docker("rmi", ref)
    shutil.rmtree(docker_config, ignore_errors=True)
    front.stop()


if not os.access(BYOC, os.X_OK):
    print("test_push: %s is not built" % BYOC)
    sys.exit(1)
try:
    for t in (test_create_and_push, test_two_layers, test_docker_config, test_bad_input_sends_nothing,
              test_name_warning):
        checks.run(t)
finally:
    cleanup()
checks.done()
