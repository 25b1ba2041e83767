#!/usr/bin/env python3
"""`byoc decide --measure`: pip installs a fixture project's requirements.txt from a package index
on loopback (tests/fixtures/pip_index.py: PEP 503 pages, wheels written with zipfile) in a container of
byoc-test/python-pip:3 on the host network. One wheel is served late on purpose (the measured
time must include the wait), one requirement names a version the index lacks (it must be named
as failed). A second run reuses the stored result; bad inputs are errors that change nothing.
The other side of the comparison: a local run (byoc run --local) of an image with the software baked
in records how soon its container printed its first line, and decide shows it beside the install
time (startup.baked)."""

import base64
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))
sys.path.insert(0, os.path.join(SOURCE, "tests", "fixtures"))

from pip_index import SLOW_DELAY as DELAY, serve  # noqa: E402
from testkit import BYOC_BIN as BYOC, Checks, client  # noqa: E402

C = Checks("test_decide_measure")
BASE = "byoc-test/python-pip:3"
BASE_BB = os.environ.get("BYOC_TEST_BASE_BUSYBOX", "byoc-test/busybox:1")
DOCKER = os.environ.get("BYOC_TEST_DOCKER_CLI") or "/usr/bin/docker"
STATE = tempfile.mkdtemp(prefix="byoc-measure-state-")  # the local job record of this test only
PREBUILT_HOST = os.environ.get("BYOC_TEST_PREBUILT_REGISTRY", "")
BAKED_DELAY = 1.5


def project(requirements, instance_count=None):
    d = tempfile.mkdtemp(prefix="byoc-measure-")
    with open(os.path.join(d, "requirements.txt"), "w") as f:
        f.write(requirements)
    with open(os.path.join(d, "algo.py"), "w") as f:
        f.write("import slowpkg\n")
    if instance_count:
        with open(os.path.join(d, "byoc.json"), "w") as f:
            json.dump({"job": {"instance_count": str(instance_count)}}, f)
    return d


def byoc(args, index_url, **env_over):
    """byoc with the loopback index; env_over sets variables (None removes one)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_INDEX_URL"] = index_url
    env["XDG_STATE_HOME"] = STATE
    for k, v in env_over.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    p = subprocess.run([BYOC] + args, env=env, capture_output=True, text=True, timeout=300)
    doc = None
    if p.returncode == 0 and "--json" in args:
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            pass
    return p, doc


def measure_args(d, *extra):
    return ["decide", "--scan", d, "--json", "--measure", "--measure-base", BASE, "--measure-network", "host"] + \
        list(extra)


def baked_image(tag):
    """An image whose entry point (its own ENTRYPOINT, started as `<entrypoint> train`) waits
    BAKED_DELAY seconds before its first line, as a job does while its baked software loads."""
    ctx = tempfile.mkdtemp(prefix="byoc-measure-img-")
    with open(os.path.join(ctx, "entry.sh"), "w") as f:
        f.write("sleep %s\necho 'the job speaks'\necho 'second line'\n" % BAKED_DELAY)
    with open(os.path.join(ctx, "Dockerfile"), "w") as f:
        f.write('FROM %s\nCOPY entry.sh /entry.sh\nENTRYPOINT ["/bin/sh", "/entry.sh"]\n' % BASE_BB)
    r = subprocess.run([DOCKER, "build", "--network", "none", "-q", "-t", tag, ctx], capture_output=True, text=True)
    shutil.rmtree(ctx, ignore_errors=True)
    if r.returncode != 0:
        raise RuntimeError("docker build: " + r.stderr)


def check_baked(passing, url):
    # before any local run: the figure is absent, and the text says how to get it
    p, doc = byoc(["decide", "--scan", passing, "--json"], url)
    C.check("baked" in (doc or {}).get("startup", {}) and doc["startup"]["baked"] is None,
            "no local run yet: startup.baked is null", (doc or {}).get("startup"))
    tag = "byoc-test/measure-baked:%x" % random.getrandbits(24)
    name = "mb-%x" % random.getrandbits(24)
    baked_image(tag)
    try:
        env = dict(os.environ, XDG_STATE_HOME=STATE)
        r = subprocess.run([BYOC, "--json", "run", "--no-preflight", "--local", "--image-uri", tag, "--source-module",
                            os.path.join(passing, "algo.py"), "--entry-point", "algo", "--job-name", name],
                           cwd=passing, env=env, capture_output=True, text=True, timeout=300)
        C.equal(r.returncode, 0, "the local run of the baked image completes (%s)" % r.stderr[-300:])
        run_doc = json.loads(r.stdout) if r.stdout.strip() else {}
        first = run_doc.get("first_output_seconds")
        C.check(isinstance(first, float) and BAKED_DELAY * 0.95 <= first < 120,
                "run --local reports the seconds to the container's first line", first)
        p, doc = byoc(measure_args(passing), url)
        baked = (doc or {}).get("startup", {}).get("baked") or {}
        C.equal(doc["startup"].get("reused") if doc else None, True, "the install figure is the stored one")
        C.equal(baked.get("first_output_seconds"), first, "decide --measure shows the local run's figure beside it")
        C.equal(baked.get("image"), tag, "naming the image")
        C.equal(baked.get("job_arn"), "local:job/" + name, "and the run")
        C.check(str(baked.get("image_id", "")).startswith("sha256:"), "with the image's id", baked.get("image_id"))
        p, _ = byoc(["decide", "--scan", passing], url)
        C.check("installing requirements.txt (2 packages) took" in p.stdout and
                "a baked image (%s) printed its first line %.1f s after its container started" % (tag, first)
                in p.stdout, "the text puts the two numbers side by side", p.stdout[-800:])
        p, st = byoc(["--json", "status", "local:job/" + name], url)
        C.equal((st or {}).get("first_output_seconds"), first, "status of the local job carries the figure")
        # a run of this image from elsewhere counts once byoc.json names the image
        other = tempfile.mkdtemp(prefix="byoc-measure-other-")
        with open(os.path.join(other, "requirements.txt"), "w") as f:
            f.write("fastpkg\n")
        p, doc = byoc(["decide", "--scan", other, "--json"], url)
        C.check("startup" not in (doc or {}) or (doc["startup"].get("baked") is None),
                "another project does not take this project's run", (doc or {}).get("startup"))
        with open(os.path.join(other, "byoc.json"), "w") as f:
            json.dump({"tags": [tag]}, f)
        p, doc = byoc(["decide", "--scan", other, "--json"], url)
        C.equal(((doc or {}).get("startup") or {}).get("baked", {}).get("job_arn"), "local:job/" + name,
                "a project whose byoc.json tags the image takes its run")
        shutil.rmtree(other, ignore_errors=True)
    finally:
        subprocess.run([DOCKER, "rmi", "-f", tag], capture_output=True)


def docker(*args, check=True, **kw):
    r = subprocess.run([DOCKER] + list(args), capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError("docker %s: %s" % (" ".join(args), r.stderr))
    return r


def check_prebuilt(url):
    """No --measure-base: the prebuilt jobs image, pulled for linux/amd64 with the caller's ECR token
    (the token of their own account, as `aws ecr get-login-password` gives for the Braket guide's
    `docker login 292282985366.dkr.ecr...`) when the engine lacks it; without credentials a local
    python:3.12 with a note saying why; neither: an error naming both."""
    C.check(PREBUILT_HOST, "the topology names the prebuilt images' registry host")
    if not PREBUILT_HOST:
        return
    ref = PREBUILT_HOST + "/amazon-braket-base-jobs:latest"
    # the topology's one registry answers for the prebuilt account's host too, as ECR serves every account
    auth = client("ecr").get_authorization_token()["authorizationData"][0]
    user, password = base64.b64decode(auth["authorizationToken"]).decode().split(":", 1)
    cfg = tempfile.mkdtemp(prefix="byoc-measure-docker-")
    denv = dict(os.environ, DOCKER_CONFIG=cfg)
    docker("login", "-u", user, "--password-stdin", PREBUILT_HOST, input=password, env=denv)
    docker("tag", BASE, ref)
    docker("push", ref, env=denv)
    shutil.rmtree(cfg, ignore_errors=True)
    docker("rmi", ref)
    base_id = docker("image", "inspect", "-f", "{{.Id}}", BASE).stdout.strip()
    no_creds = {"AWS_ACCESS_KEY_ID": None, "AWS_SECRET_ACCESS_KEY": None, "AWS_SESSION_TOKEN": None,
                "AWS_PROFILE": None, "AWS_CONFIG_FILE": os.devnull, "AWS_SHARED_CREDENTIALS_FILE": os.devnull}
    d = project("fastpkg\n")
    try:
        p, doc = byoc(["decide", "--scan", d, "--json", "--measure", "--measure-network", "host"], url)
        st = (doc or {}).get("startup", {})
        C.equal(p.returncode, 0, "measure with no base named exits 0 (%s)" % p.stderr.strip()[-400:])
        C.equal(st.get("base"), ref, "the base is the prebuilt jobs image")
        C.equal(st.get("base_id"), base_id, "the image the registry holds under that name")
        C.check("pulled" in (st.get("base_note") or ""), "the note says it was pulled", st.get("base_note"))
        C.equal(st.get("failed"), [], "and pip installed into it")
        C.equal(docker("image", "inspect", ref, check=False).returncode, 0, "the engine has it now")
        C.check(not (p.stderr + p.stdout).count(password), "the ECR token is not printed")

        docker("rmi", ref)
        p, _ = byoc(["decide", "--scan", d, "--json", "--measure", "--measure-again", "--measure-network", "host"],
                    url, **no_creds)
        C.equal(p.returncode, 3, "no credentials and no python:3.12: exit 3")
        C.check("could not be pulled" in p.stderr and "python:3.12" in p.stderr and "--measure-base" in p.stderr,
                "naming what was tried and what to do", p.stderr[-600:])
        C.equal(docker("image", "inspect", ref, check=False).returncode, 1, "nothing was pulled")

        docker("tag", BASE, "python:3.12")
        p, doc = byoc(["decide", "--scan", d, "--json", "--measure", "--measure-again", "--measure-network", "host"],
                      url, **no_creds)
        st = (doc or {}).get("startup", {})
        C.equal(st.get("base"), "python:3.12", "without credentials: the local python:3.12")
        note = st.get("base_note") or ""
        C.check("could not be pulled" in note and "closest public Python base" in note, "saying why", note)
        p, _ = byoc(["decide", "--scan", d, "--measure", "--measure-network", "host"], url, **no_creds)
        C.check("  base: the prebuilt jobs image could not be pulled" in p.stdout, "the text says it too",
                p.stdout[-600:])
    finally:
        docker("rmi", "python:3.12", check=False)
        docker("rmi", ref, check=False)
        shutil.rmtree(d, ignore_errors=True)


def rules(doc):
    return {r["rule"]: r["text"] for r in (doc or {}).get("reasons", [])}


def main():
    server = serve()
    url = "http://127.0.0.1:%d/simple/" % server.server_address[1]
    failing = project("slowpkg\nfastpkg\nbadpkg==9.9\n", instance_count=3)
    passing = project("slowpkg\nfastpkg\n")
    try:
        # 1. a failing requirement: named, the slow wheel's wait counted, the result stored 0600
        p, doc = byoc(measure_args(failing), url)
        C.equal(p.returncode, 0, "measure with a failing requirement exits 0 (%s)" % p.stderr.strip()[-300:])
        st = (doc or {}).get("startup", {})
        C.check(st.get("install_seconds", 0) >= DELAY * 0.95, "the install time includes the slow wheel",
                st.get("install_seconds"))
        C.equal(st.get("failed"), ["badpkg==9.9"], "the failing requirement is named")
        C.equal(st.get("packages"), 3, "three packages counted")
        C.equal(st.get("base"), BASE, "the base is named")
        C.equal(st.get("instance_count"), 3, "instanceCount comes from byoc.json")
        C.check(st.get("measured_at"), "measured_at is set")
        C.equal(st.get("reused"), False, "the first run measures")
        C.check("install-failed" in rules(doc) and "badpkg==9.9" in rules(doc)["install-failed"],
                "a reason names the failure", rules(doc))
        state = os.path.join(failing, ".byoc", "measure.json")
        C.check(os.path.isfile(state) and stat.S_IMODE(os.lstat(state).st_mode) == 0o600,
                "the result is kept in .byoc/measure.json, mode 0600")

        # 2. the second run reuses it
        p2, doc2 = byoc(measure_args(failing), url)
        st2 = (doc2 or {}).get("startup", {})
        C.equal(st2.get("reused"), True, "the second run reuses the stored result")
        C.equal(st2.get("measured_at"), st.get("measured_at"), "same measured_at")

        # 3. everything installs: size added, the threshold turns the figure into a recommendation
        p, doc = byoc(measure_args(passing, "--install-threshold", "1"), url)
        st = (doc or {}).get("startup", {})
        C.equal(p.returncode, 0, "measure of a passing project exits 0 (%s)" % p.stderr.strip()[-300:])
        C.equal(st.get("failed"), [], "nothing failed")
        C.equal(st.get("exit_code"), 0, "pip exited 0")
        C.check((st.get("size_bytes") or 0) > 0, "the install's size is reported", st.get("size_bytes"))
        C.equal((doc or {}).get("verdict"), "recommended", "over the threshold BYOC is recommended")
        text = rules(doc).get("slow-install", "")
        C.check("these 2 packages took" in text and "a baked image pays it once" in text,
                "the reason quotes the measured seconds", text)
        # the plain wizard shows the stored figure without measuring (no engine call needed)
        p, plain = byoc(["decide", "--scan", passing, "--json", "--install-threshold", "1"], url)
        C.equal((plain or {}).get("startup", {}).get("reused"), True, "plain decide shows the stored figure")
        C.equal((plain or {}).get("verdict"), "recommended", "and decides with it")

        # 4. bad inputs: clear errors, nothing stored, the verdict unchanged
        before, _ = byoc(["decide", "--scan", failing, "--json"], url)
        missing = project("fastpkg\n")
        os.unlink(os.path.join(missing, "requirements.txt"))
        os.mkdir(os.path.join(missing, "requirements.txt"))
        p, _ = byoc(measure_args(missing), url)
        C.equal(p.returncode, 2, "an unreadable requirements file is exit 2")
        C.check("requirements.txt" in p.stderr, "and names the file", p.stderr)
        C.check(not os.path.exists(os.path.join(missing, ".byoc")), "nothing stored")
        shutil.rmtree(missing)
        p, _ = byoc(["decide", "--scan", failing, "--json", "--measure", "--measure-again", "--measure-base",
                     "byoc-test/absent:0", "--measure-network", "host"], url)
        C.equal(p.returncode, 3, "a base the engine lacks is exit 3")
        C.check("byoc-test/absent:0" in p.stderr and "does not pull a named base" in p.stderr, "naming it and what to do",
                p.stderr)
        p, _ = byoc(["decide", "--scan", failing, "--json", "--measure", "--measure-again", "--measure-base", BASE,
                     "--measure-network", "none"], url)
        C.equal(p.returncode, 2, "network none is refused")
        C.check("none" in p.stderr and "package index" in p.stderr, "saying why", p.stderr)
        after, _ = byoc(["decide", "--scan", failing, "--json"], url)
        C.equal(after.stdout, before.stdout, "the verdict and the stored figure are unchanged")

        # 5. the baked side of the comparison
        check_baked(passing, url)

        # 6. the default base: the prebuilt jobs image, pulled with the user's credentials
        check_prebuilt(url)
    finally:
        server.shutdown()
        shutil.rmtree(failing, ignore_errors=True)
        shutil.rmtree(passing, ignore_errors=True)
        shutil.rmtree(STATE, ignore_errors=True)


C.run(main)
C.done()
