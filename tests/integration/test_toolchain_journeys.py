#!/usr/bin/env python3
"""The journeys BYOC exists for, walked end to end (issue 17), each from a project written the way
a user writes one (tests/fixtures/journeys: several files, the manifest at the top):

  C++ (CMake), Rust (Cargo), and Python 3.11 (the prebuilt images ship 3.12; src/ layout,
  pyproject.toml with numpy):

  decide --scan -> init with no flags -> build offline -> push -> permit -> preflight with no
  failure -> run (CreateJob on the Braket stand-in, the entry point accepted) -> run --local (the
  program is compiled and run in the container by byoc's launcher, its `Metrics -` lines reach
  log.txt, its results land in ./<job>/) -> status, logs, results of the local job, and status of
  the job the stand-in holds.

The build is offline (--network none): the engine holds the base the Dockerfile names, as a
user's engine does once it has pulled it. Nothing can be pulled here, so the topology's toolchain
base (byoc-test/toolchain:1: Debian 12 with g++, cmake, rustc, cargo, python3.11, numpy) is
tagged with that name; install-packages then finds every package and fetches nothing, pip finds
numpy installed. The image gets byoc's small `train` (BYOC_SAGEMAKER_TRAINING=offline), which
preflight passes with a note.
Run: tests/topology/with-env.sh python3 tests/integration/test_toolchain_journeys.py [NAME...]"""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from ecr_front import EcrFront  # noqa: E402
from testkit import BYOC_BIN as BYOC, Checks, MANAGED_JOBS_POLICY, client, create_jobs_role, env  # noqa: E402

C = Checks("test_toolchain_journeys")
FIX = os.path.join(SOURCE, "tests", "fixtures", "journeys")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
HOST = env("BYOC_TEST_REGISTRY")
DOCKER = env("BYOC_TEST_DOCKER_CLI")
TOOLCHAIN = os.environ.get("BYOC_TEST_BASE_TOOLCHAIN") or "byoc-test/toolchain:1"
RUN_ID = "%x" % random.getrandbits(24)
ROLE_NAME = "AmazonBraketJobsExecutionRole-tc" + RUN_ID
ROLE = "arn:aws:iam::%s:role/service-role/%s" % (ACCOUNT, ROLE_NAME)
MANAGED = "arn:aws:iam::%s:policy/service-role/%s" % (ACCOUNT, MANAGED_JOBS_POLICY)
WORK = tempfile.mkdtemp(prefix="byoc-toolchain.")
FRONT = None
ecr = client("ecr")
iam = client("iam")

# name: (fixture, language, source module, entry point, what the results say)
JOURNEYS = {
    "cpp": ("cpp-cmake", "cpp", ".", "cpp-cmake/CMakeLists.txt", {"language": "c++"}),
    "rust": ("rust-cargo", "rust", ".", "rust-cargo/Cargo.toml", {"language": "rust"}),
    "python": ("python-311", "python", "src/qaoa", "qaoa.main:main", {"language": "python", "python": "3.11"}),
}


def byoc(cwd, *args, timeout=900):
    """byoc --json ARGS in cwd, against the front (which answers IAM's simulation as IAM would)."""
    e = dict(os.environ, AWS_ENDPOINT_URL=FRONT.url, BRAKET_JOBS_ROLE_ARN=ROLE, XDG_STATE_HOME=os.path.join(WORK, "state"))
    r = subprocess.run([BYOC, "--json"] + list(args), cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    try:
        doc = json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        doc = None
    return r.returncode, doc, r.stderr, r.stdout


def docker(*args):
    p = subprocess.run([DOCKER] + list(args), capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError("docker %s: %s%s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout


def tail(text, n=600):
    return (text or "").strip()[-n:]


def setup():
    create_jobs_role(ROLE_NAME)


def journey(name):
    fixture, language, module, entry, want_results = JOURNEYS[name]
    proj = os.path.join(WORK, fixture)
    shutil.copytree(os.path.join(FIX, fixture), proj)
    repo = "amazon-braket-tc-%s-%s" % (name, RUN_ID)
    local_tag = "byoc-test/journey-%s:%s" % (name, RUN_ID)
    remote = "%s/%s:v1" % (HOST, repo)

    # ---- decide, init --------------------------------------------------------------------------
    rc, doc, err, _ = byoc(WORK, "decide", "--scan", proj)
    C.check(rc == 0 and (doc or {}).get("recipe") == "custom-base"
            and (doc or {}).get("init", {}).get("language") == language,
            "%s: decide --scan says custom-base, %s" % (name, language), (rc, (doc or {}).get("init"), tail(err)))
    rc, doc, err, _ = byoc(WORK, "init", proj)
    doc = doc or {}
    C.check(rc == 0 and doc.get("adopted") and (doc.get("source_module"), doc.get("entry_point")) == (module, entry),
            "%s: init with no flags adopts the code (%s, %s)" % (name, module, entry),
            (rc, doc.get("source_module"), doc.get("entry_point"), tail(err)))
    with open(os.path.join(proj, "Dockerfile")) as f:
        base = re.search(r"^FROM (?:--platform=\S+ )?(\S+)", f.read(), re.M).group(1)
    docker("tag", TOOLCHAIN, base)

    # ---- build offline -------------------------------------------------------------------------
    rc, doc, err, _ = byoc(proj, "build", "-t", local_tag, "--network", "none", "--no-cache",
                           "--build-arg", "BYOC_SAGEMAKER_TRAINING=offline")
    C.check(rc == 0 and (doc or {}).get("image_id", "").startswith("sha256:"),
            "%s: build offline on the local toolchain base (FROM %s)" % (name, base), (rc, tail(err, 1500)))
    built_tags = (doc or {}).get("tags") or []  # also <project>:<git sha>-dirty (init made a repository)
    if rc != 0:
        return
    C.check("install-packages: installing" not in err and "apt-get update" not in err
            and ("install-packages: nothing to install" in err or language != "cpp"),
            "%s: install-packages found the toolchain and fetched nothing" % name, tail(err, 1500))

    # ---- push, permit --------------------------------------------------------------------------
    rc, doc, err, _ = byoc(proj, "push", local_tag, "--repository", repo, "--create", "--tag", "v1")
    C.check(rc == 0 and (doc or {}).get("image_uri", "").startswith(remote.rsplit(":", 1)[0]),
            "%s: push to ECR (the registry behind moto)" % name, (rc, doc, tail(err)))
    with open(os.path.join(proj, "byoc.json")) as f:
        pushed = json.load(f).get("pushed") or {}
    C.equal(pushed.get("image_uri"), remote, "%s: byoc.json records the push" % name)
    rc, doc, err, _ = byoc(proj, "permit", repo, "--allow", ROLE)
    C.equal(rc, 0, "%s: permit grants the job role pull (%s)" % (name, tail(err)))
    rc, doc, err, _ = byoc(proj, "permit", repo, "--check", ROLE)
    C.equal(rc, 0, "%s: permit --check: the role can pull (%s)" % (name, tail(err)))

    # ---- preflight, run ------------------------------------------------------------------------
    rc, doc, err, _ = byoc(proj, "preflight")
    checks = {c["name"]: c for c in (doc or {}).get("checks", [])}
    failed = {k: c.get("message") for k, c in checks.items() if c.get("status") == "fail"}
    C.check(rc == 0 and checks and not failed, "%s: preflight with no flags finds no failure" % name,
            (rc, failed, tail(err)))
    code = [c for k, c in checks.items() if k.startswith("code")]
    C.check(code and all(c.get("status") == "pass" for c in code),
            "%s: preflight's code check passes the entry point inside the image" % name, code)
    rc, doc, err, _ = byoc(proj, "run", "--no-preflight")
    arn = (doc or {}).get("job_arn") or ""
    C.check(rc == 0 and ":job/" in arn, "%s: run with no flags creates the job on the stand-in" % name,
            (rc, doc, tail(err)))
    if arn:
        rc, doc, err, _ = byoc(proj, "status", arn)
        C.check(rc == 0 and (doc or {}).get("job_arn") == arn and (doc or {}).get("status"),
                "%s: status of the created job" % name, (rc, doc, tail(err)))

    # ---- run --local, then the Monitor's verbs on it --------------------------------------------
    job = "tc-%s-%s" % (name, RUN_ID)
    rc, doc, err, _ = byoc(WORK, "--project", proj, "run", "--local", "--no-preflight", "--job-name", job)
    C.equal(rc, 0, "%s: run --local with the project's defaults exits 0 (%s)" % (name, tail(err, 1500)))
    C.check("not used in local mode" not in err,
            "%s: byoc.json's settings for the AWS run are not warned about in local mode" % name, tail(err, 1500))
    out = os.path.join(WORK, job)
    try:
        with open(os.path.join(out, "results.json")) as f:
            results = json.load(f)
    except (OSError, ValueError):
        results = {}
    C.check(all(results.get(k) == v for k, v in want_results.items()),
            "%s: the program ran in the container and its results are in ./%s/" % (name, job),
            (results, sorted(os.listdir(out)) if os.path.isdir(out) else "no ./%s" % job))
    try:
        with open(os.path.join(out, "log.txt")) as f:
            log = f.read()
    except OSError:
        log = ""
    C.check(len(re.findall(r"^Metrics - iteration=\d+;", log, re.M)) >= 3,
            "%s: its Metrics lines reach log.txt" % name, log[-800:])
    ref = "local:job/" + job
    rc, doc, err, _ = byoc(WORK, "status", ref)
    metrics = (doc or {}).get("metrics") or {}
    C.check(rc == 0 and (doc or {}).get("status") == "COMPLETED"
            and (metrics.get("loss") or metrics.get("cost")),
            "%s: status %s: COMPLETED, with its metrics" % (name, ref), (rc, doc, tail(err)))
    p = subprocess.run([BYOC, "logs", ref], cwd=WORK, capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, XDG_STATE_HOME=os.path.join(WORK, "state")))
    C.check(p.returncode == 0 and "Metrics - iteration=3;" in p.stdout, "%s: logs %s prints log.txt" % (name, ref),
            (p.returncode, p.stdout[-400:], p.stderr[-300:]))
    rc, doc, err, _ = byoc(WORK, "results", ref)
    C.check(rc == 0 and "results.json" in (doc or {}).get("files", []),
            "%s: results %s lists results.json" % (name, ref), (rc, doc, tail(err)))

    if name == "python":  # a flag local mode does not use is still named
        rc, doc, err, _ = byoc(WORK, "--project", proj, "run", "--local", "--no-preflight", "--job-name", job + "-f",
                               "--instance-type", "ml.m5.xlarge")
        C.check(rc == 0 and "--instance-type is not used in local mode" in err,
                "%s: a flag local mode does not use is warned about" % name, (rc, tail(err)))

    for image in [local_tag, remote, base] + built_tags:
        subprocess.run([DOCKER, "rmi", "-f", image], capture_output=True)
    try:
        ecr.delete_repository(repositoryName=repo, force=True)
    except Exception:
        pass


def main():
    global FRONT
    FRONT = EcrFront(env("AWS_ENDPOINT_URL"), simulate="evaluate").start()
    try:
        setup()
        for name in sys.argv[1:] or list(JOURNEYS):
            C.run(lambda: journey(name))
    finally:
        FRONT.stop()
        try:
            iam.detach_role_policy(RoleName=ROLE_NAME, PolicyArn=MANAGED)
            iam.delete_role(RoleName=ROLE_NAME)
        except Exception:
            pass
        shutil.rmtree(WORK, ignore_errors=True)
    C.done()


if __name__ == "__main__":
    main()
