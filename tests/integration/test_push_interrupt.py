#!/usr/bin/env python3
"""A push interrupted by a registry restart: byoc names the layers that did and did not make
it (exit 1), and the same command run again succeeds with the registry's digest.

The registry of the topology is stopped while byoc reports the big layer as Pushing, kept down
until the engine gives up (its own retries take about a minute), then started again with the
same command line and environment (its pid goes back into $BYOC_TOPO_DIR/registry.pid). The
topology's lock is held meanwhile, so up.sh/down.sh never see it half-way. The registry is
restarted in every case, also when the test fails.
"""

import base64
import fcntl
import hashlib
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, env  # noqa: E402

SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
STATE = env("BYOC_TOPO_DIR")
DOCKER = env("BYOC_TEST_DOCKER_CLI")
REGISTRY = env("BYOC_TEST_REGISTRY")
RUN_ID = "%d-%d" % (os.getpid(), int(time.time()))
REPO = "amazon-braket-itest/interrupt-" + RUN_ID
TAG = "byoc-itest/push-interrupt:" + RUN_ID

checks = Checks("test_push_interrupt")
ecr = client("ecr")


def docker(*args):
    return subprocess.run([DOCKER] + list(args), capture_output=True, text=True, timeout=600)


def registry_status():
    ctx = ssl.create_default_context(cafile=env("BYOC_TEST_REGISTRY_CA"))
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))
    try:
        with opener.open("https://%s/v2/" % REGISTRY, timeout=3) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except (urllib.error.URLError, OSError):
        return 0


def wait_for(cond, seconds):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if cond():
            return True
        time.sleep(0.2)
    return cond()


class Registry:
    """Stop the topology's registry process and start it again exactly as it was."""

    def __init__(self):
        self.lock = open(os.path.join(STATE, "lock"), "a")
        self.argv = self.environ = self.cwd = None
        self.stopped = False

    def stop(self):
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        pid = int(open(os.path.join(STATE, "registry.pid")).read().strip())
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            self.argv = [a.decode() for a in f.read().split(b"\0") if a]
        with open("/proc/%d/environ" % pid, "rb") as f:
            self.environ = dict(kv.decode().split("=", 1) for kv in f.read().split(b"\0") if b"=" in kv)
        self.cwd = os.readlink("/proc/%d/cwd" % pid)
        if not any(a.endswith("/registry/config.yml") for a in self.argv):
            raise RuntimeError("pid %d is not the topology's registry: %r" % (pid, self.argv))
        os.kill(pid, signal.SIGTERM)
        self.stopped = True
        if not wait_for(lambda: not os.path.exists("/proc/%d/cmdline" % pid) or self._zombie(pid), 15):
            os.kill(pid, signal.SIGKILL)
        wait_for(lambda: registry_status() == 0, 10)

    @staticmethod
    def _zombie(pid):
        try:
            return open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return True

    def start(self):
        if not self.stopped:
            return
        with open(os.path.join(STATE, "registry.log"), "ab") as log:
            proc = subprocess.Popen(self.argv, env=self.environ, cwd=self.cwd, stdin=subprocess.DEVNULL, stdout=log,
                                    stderr=log, start_new_session=True)
        with open(os.path.join(STATE, "registry.pid"), "w") as f:
            f.write("%d\n" % proc.pid)
        self.stopped = False
        ok = wait_for(lambda: registry_status() == 401, 30)
        fcntl.flock(self.lock, fcntl.LOCK_UN)
        return ok


def byoc_env():
    e = dict(os.environ)
    e["DOCKER_CONFIG"] = tempfile.mkdtemp(prefix="byoc-interrupt-dc-")
    return e


def build_big_image():
    ctx = tempfile.mkdtemp(prefix="byoc-interrupt-ctx-")
    with open(os.path.join(ctx, "Dockerfile"), "w") as f:
        f.write("FROM %s\nRUN dd if=/dev/urandom of=/blob bs=1M count=192 2>/dev/null\n" % env("BYOC_TEST_BASE_BUSYBOX"))
    b = subprocess.run([DOCKER, "build", "--network", "none", "-t", TAG, ctx], capture_output=True, text=True,
                       env=dict(os.environ, DOCKER_BUILDKIT="0"), timeout=600)
    shutil.rmtree(ctx)
    if b.returncode != 0:
        print(b.stderr)
        return None
    layers = json.loads(docker("image", "inspect", TAG).stdout)[0]["RootFS"]["Layers"]
    return [l.split(":", 1)[1][:12] for l in layers]


def main():
    layers = build_big_image()
    checks.check(layers is not None and len(layers) == 2, "a two-layer image with a 192 MiB random layer")
    if not layers:
        return
    base, big = layers
    ecr.create_repository(repositoryName=REPO)
    registry = Registry()
    e = byoc_env()
    try:
        proc = subprocess.Popen([BYOC, "--json", "push", TAG, "--repository", REPO, "--tag", "v1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=e)
        err_lines = []
        for line in proc.stderr:
            err_lines.append(line)
            if line.startswith(big + ": Pushing") and not registry.stopped:
                registry.stop()
        out = proc.stdout.read()
        proc.wait(timeout=600)
        checks.check(registry.stopped, "the registry was stopped while %s was being pushed" % big, "".join(err_lines))
        restarted = registry.start()
        checks.check(restarted, "the registry is back")
        err = "".join(err_lines)
        checks.equal(proc.returncode, 1, "interrupted push: exit 1")
        final = [l for l in err_lines if l.startswith("byoc: ")]
        checks.check(len(final) == 1, "interrupted push: one error line", err)
        msg = final[0] if final else ""
        # With --json a failure is still one document on stdout (README, "Commands"), saying what stderr says.
        try:
            failure = json.loads(out).get("error", {})
        except ValueError:
            failure = {}
        checks.equal(failure.get("what"), "push", "interrupted push: the --json error document names the step")
        checks.equal(failure.get("exit_code"), 1, "interrupted push: the error document carries exit code 1")
        checks.check(bool(failure.get("why")) and failure.get("why", "") in msg,
                     "interrupted push: the error document's why is the stderr line's", out)
        not_pushed = re.search(r"not pushed: ([^;]*)", msg)
        checks.check(not_pushed and big in not_pushed.group(1), "the error names %s as not pushed" % big, msg)
        checks.check("of 2 layers in the registry" in msg, "the error counts the layers", msg)
        checks.check("run the push again" in msg, "the error says what to do", msg)
        pushed = re.search(r"; pushed: ([^;]*)", msg)
        if pushed:
            checks.check(base in pushed.group(1) and big not in pushed.group(1), "the base layer listed as pushed", msg)

        # The same command again: it succeeds and ECR agrees with the registry.
        r = subprocess.run([BYOC, "--json", "push", TAG, "--repository", REPO, "--tag", "v1"], capture_output=True,
                           text=True, env=e, timeout=600)
        checks.equal(r.returncode, 0, "retry: exit 0")
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        states = {l["id"]: l["state"] for l in doc.get("layers", [])}
        checks.check(states.get(big) == "pushed", "retry: the big layer uploaded", states)
        checks.equal(doc.get("verified"), True, "retry: DescribeImages lists the digest")
        token = ecr.get_authorization_token()["authorizationData"][0]["authorizationToken"]
        req = urllib.request.Request("https://%s/v2/%s/manifests/v1" % (REGISTRY, REPO), headers={
            "Accept": "application/vnd.docker.distribution.manifest.v2+json", "Authorization": "Basic " + token})
        ctx = ssl.create_default_context(cafile=env("BYOC_TEST_REGISTRY_CA"))
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))
        with opener.open(req, timeout=30) as resp:
            body = resp.read()
        checks.equal("sha256:" + hashlib.sha256(body).hexdigest(), doc.get("digest"), "retry: the registry's digest")
        shutil.rmtree(e["DOCKER_CONFIG"], ignore_errors=True)
    finally:
        if registry.stopped:
            registry.start()
        try:
            ecr.delete_repository(repositoryName=REPO, force=True)
        except Exception:
            pass
        docker("rmi", TAG)
        docker("rmi", "%s/%s:v1" % (REGISTRY, REPO))


checks.run(main)
checks.done()
