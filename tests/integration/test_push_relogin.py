#!/usr/bin/env python3
"""byoc push when the registry refuses the login token: byoc fetches a new token once and
pushes again (backend/byoc/pushflow.c, push_with_login), and never loops.

The real parts: dockerd, the TLS registry (htpasswd: the password is moto's ECR token
password), moto (SigV4 checked) behind tests/topology/ecr_front.py. The front serves the
first GetAuthorizationToken from moto as usual (the request is signed and checked) but
hands byoc a token that the registry refuses, as ECR does once a token has expired: its
password is wrong and its expiresAt already past. byoc itself runs unmodified.

  - one refused token: the push succeeds on the second token; exactly two
    GetAuthorizationToken calls; the JSON says login_retried; stderr says why; the
    digest is the registry's and DescribeImages lists it; no password in any output
  - every token refused: one clear error naming the refusal, exit 1, exactly two
    GetAuthorizationToken calls (a refusal after a fresh token is not retried again)
  - a token that is merely stale on arrival (moto's expiresAt is in 2015) but accepted
    is used as is: one GetAuthorizationToken, no retry

Without the refresh in pushflow.c the first case fails (the push ends with the refusal).
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import shutil
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, env  # noqa: E402
from ecr_front import EcrFront  # noqa: E402

SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
DOCKER = env("BYOC_TEST_DOCKER_CLI")
REGISTRY = env("BYOC_TEST_REGISTRY")
BASE = env("BYOC_TEST_BASE_BUSYBOX")
RUN_ID = "%d-%d" % (os.getpid(), int(time.time()))
WRONG_PASSWORD = "expired-token-" + RUN_ID

checks = Checks("test_push_relogin")
ecr = client("ecr")
front = EcrFront(env("AWS_ENDPOINT_URL")).start()
docker_config = tempfile.mkdtemp(prefix="byoc-relogin-dc-")
created_repos = []


class Sticky(dict):
    """A canned-answer table whose answers stay after use (every call gets them)."""

    def pop(self, key, default=None):
        return self.get(key, default)


def refused_token_answer():
    """What GetAuthorizationToken would say for a token that has already expired."""
    token = base64.b64encode(("AWS:" + WRONG_PASSWORD).encode()).decode()
    return {"authorizationData": [{"authorizationToken": token, "expiresAt": time.time() - 3600,
                                   "proxyEndpoint": "https://" + REGISTRY}]}


def byoc(*args):
    e = dict(os.environ)
    e["AWS_ENDPOINT_URL"] = front.url
    e["DOCKER_CONFIG"] = docker_config
    proc = subprocess.run([BYOC] + list(args), capture_output=True, text=True, env=e, timeout=300)
    return proc


def password():
    token = ecr.get_authorization_token()["authorizationData"][0]["authorizationToken"]
    return base64.b64decode(token).decode().split(":", 1)[1]


def no_secret(proc, name):
    text = proc.stdout + proc.stderr
    checks.check(password() not in text, name + ": the ECR password appears nowhere")
    checks.check(WRONG_PASSWORD not in text, name + ": the refused password appears nowhere")


def new_repository():
    repo = "amazon-braket-itest/relogin-%s-%d" % (RUN_ID, len(created_repos))
    ecr.create_repository(repositoryName=repo)
    created_repos.append(repo)
    return repo


def test_refused_once_then_new_token():
    repo = new_repository()
    front.reset()
    front.answer_next("GetAuthorizationToken", 200, refused_token_answer())
    r = byoc("--json", "push", BASE, "--repository", repo, "--tag", "relogin")
    checks.equal(r.returncode, 0, "refused once: the push succeeds")
    if r.returncode != 0:
        print(r.stderr[-3000:])
    checks.equal(front.count("GetAuthorizationToken"), 2, "refused once: exactly one new token fetched")
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = {}
    checks.equal(doc.get("login_retried"), True, "refused once: the result says the login was retried")
    checks.equal(doc.get("verified"), True, "refused once: DescribeImages lists the pushed digest")
    checks.check("refused the login token" in r.stderr, "refused once: stderr says the registry refused the token",
                 r.stderr[-1500:])
    details = ecr.describe_images(repositoryName=repo)["imageDetails"]
    checks.equal([(d["imageDigest"], d.get("imageTags")) for d in details], [(doc.get("digest"), ["relogin"])],
                 "refused once: ECR has the digest byoc reports, with the tag")
    no_secret(r, "refused once")


def test_refused_always_one_clear_error():
    repo = new_repository()
    front.reset()
    saved = front.canned
    front.canned = Sticky({"GetAuthorizationToken": (200, json.dumps(refused_token_answer()).encode())})
    try:
        r = byoc("push", BASE, "--repository", repo, "--tag", "never")
    finally:
        front.canned = saved
    checks.equal(r.returncode, 1, "refused always: exit 1")
    checks.equal(front.count("GetAuthorizationToken"), 2, "refused always: two tokens, no loop")
    errors = [l for l in r.stderr.splitlines() if l.startswith("byoc: ")]
    checks.equal(len(errors), 1, "refused always: one error line")
    checks.check(errors and ("unauthorized" in errors[0].lower() or "authentication" in errors[0].lower()),
                 "refused always: the error says the registry refused the login", errors)
    checks.equal(r.stdout, "", "refused always: nothing on stdout")
    checks.equal(ecr.describe_images(repositoryName=repo)["imageDetails"], [], "refused always: nothing pushed")
    no_secret(r, "refused always")


def test_stale_but_accepted_token_is_used():
    repo = new_repository()
    front.reset()
    r = byoc("--json", "push", BASE, "--repository", repo, "--tag", "stale")
    checks.equal(r.returncode, 0, "stale token: the push succeeds")
    checks.equal(front.count("GetAuthorizationToken"), 1, "stale token (moto's 2015 expiresAt): fetched once")
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = {}
    checks.equal(doc.get("login_retried"), False, "stale token: no retry")


def cleanup():
    for repo in created_repos:
        try:
            ecr.delete_repository(repositoryName=repo, force=True)
        except Exception:
            pass
        for tag in ("relogin", "never", "stale"):
            subprocess.run([DOCKER, "rmi", "%s/%s:%s" % (REGISTRY, repo, tag)], capture_output=True, timeout=120)
    shutil.rmtree(docker_config, ignore_errors=True)
    front.stop()


if not os.access(BYOC, os.X_OK):
    print("test_push_relogin: %s is not built" % BYOC)
    sys.exit(1)
with open(os.path.join(docker_config, "config.json"), "w") as f:
    f.write("{}\n")
try:
    for t in (test_refused_once_then_new_token, test_refused_always_one_clear_error,
              test_stale_but_accepted_token_is_used):
        checks.run(t)
finally:
    cleanup()
checks.done()
