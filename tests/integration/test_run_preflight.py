#!/usr/bin/env python3
"""`byoc run` runs preflight first (backend/byoc/preflight.h). A failing check stops the run with
exit 1 and one line `byoc: preflight: N checks failed (... or pass --no-preflight)`: no job in the
Braket stand-in, moto's S3 unchanged (no bucket, no upload). --no-preflight skips the checks
and the job is created; --dry-run does not run them; an invalid field is refused (exit 2) before them.

The failing check is real: the image is known to moto's ECR only (as `byoc push` would leave it,
minus the registry), so the registry has no manifest for it (image.manifest fails).
"""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import Checks, client, control, env  # noqa: E402

C = Checks("test_run_preflight")
from testkit import BYOC_BIN as BYOC  # noqa: E402
ACCOUNT = env("BYOC_TEST_ACCOUNT")
RUN_ID = "%x" % random.getrandbits(24)
REPO = "amazon-braket-rpf-" + RUN_ID
IMAGE = "%s.dkr.ecr.us-east-1.amazonaws.com/%s:1" % (ACCOUNT, REPO)
ROLE_NAME = "AmazonBraketJobsExecutionRole-rpf" + RUN_ID
ROLE = "arn:aws:iam::%s:role/service-role/%s" % (ACCOUNT, ROLE_NAME)
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")
s3 = client("s3")
ecr = client("ecr")
iam = client("iam")


def setup():
    trust = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"}, "Action": "sts:AssumeRole"}]})
    iam.create_role(RoleName=ROLE_NAME, Path="/service-role/", AssumeRolePolicyDocument=trust)
    ecr.create_repository(repositoryName=REPO)
    manifest = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                           "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "size": 2,
                                      "digest": "sha256:" + "0" * 64}, "layers": []})
    ecr.put_image(repositoryName=REPO, imageManifest=manifest, imageTag="1")
    d = tempfile.mkdtemp(prefix="byoc-run-preflight-")
    with open(os.path.join(d, "algo.py"), "w") as f:
        f.write("def main():\n    pass\n")
    return d


def s3_snapshot():
    snap = {}
    for b in s3.list_buckets()["Buckets"]:
        keys = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=b["Name"]):
            for o in page.get("Contents", []):
                keys[o["Key"]] = o["ETag"]
        snap[b["Name"]] = keys
    return snap


def job_created(name):
    """Whether the Braket stand-in holds a job of that name (other tests may create jobs meanwhile)."""
    return control("GET", "/jobs/" + name)[0] == 200


def run(cwd, *args):
    e = dict(os.environ)
    e.pop("BRAKET_JOBS_ROLE_ARN", None)
    argv = [BYOC, "run", "--image-uri", IMAGE, "--source-module", "algo.py", "--role-arn", ROLE] + list(args)
    p = subprocess.run(argv, cwd=cwd, env=e, capture_output=True, text=True, timeout=300)
    C.check(not any(m in p.stderr for m in SANITIZER_MARKS), "%s: no sanitizer report" % " ".join(args),
            p.stderr[-3000:])
    return p


def byoc_lines(stderr):
    return [l for l in stderr.splitlines() if l.startswith("byoc: ")]


def test_refused(cwd):
    before = s3_snapshot()
    name = "rpf-refused-" + RUN_ID
    p = run(cwd, "--job-name", name)
    C.equal(p.returncode, 1, "a failing check: exit 1")
    lines = byoc_lines(p.stderr)
    C.check(len(lines) == 1 and lines[0].startswith("byoc: preflight: ") and "failed" in lines[0]
            and lines[0].endswith("or pass --no-preflight)"), "one line names preflight and --no-preflight",
            p.stderr[-1500:])
    C.check("preflight: fail image.manifest:" in p.stderr, "the failing check is on stderr", p.stderr[-1500:])
    C.equal(p.stdout, "", "nothing on stdout")
    C.check(not job_created(name), "no job created")
    C.check(s3_snapshot() == before, "S3 unchanged (no bucket made, nothing uploaded)")


def test_bypassed(cwd):
    name = "rpf-bypass-" + RUN_ID
    p = run(cwd, "--job-name", name, "--no-preflight")
    C.equal(p.returncode, 0, "--no-preflight: exit 0")
    C.check("preflight" not in p.stderr, "--no-preflight: no check ran", p.stderr[-1500:])
    C.check(p.stdout.startswith("arn:aws:braket:") and ":job/" in p.stdout, "--no-preflight: the job's ARN on stdout",
            p.stdout)
    C.check(job_created(name), "--no-preflight: the job was created")


def test_dry_run(cwd):
    p = run(cwd, "--job-name", "rpf-dry-" + RUN_ID, "--dry-run")
    C.equal(p.returncode, 0, "--dry-run: exit 0")
    C.check("preflight" not in p.stderr, "--dry-run: no preflight", p.stderr[-1500:])
    C.check(not job_created("rpf-dry-" + RUN_ID), "--dry-run: no job created")


def test_invalid_field_first(cwd):
    p = run(cwd, "--job-name", "bad_name")
    C.equal(p.returncode, 2, "an invalid field: exit 2")
    lines = byoc_lines(p.stderr)
    C.check(len(lines) == 1 and lines[0].startswith("byoc: --job-name"), "an invalid field is named",
            p.stderr[-1500:])
    C.check("preflight" not in p.stderr, "an invalid field: refused before preflight", p.stderr[-1500:])


def test_help():
    p = subprocess.run([BYOC, "run", "--help"], capture_output=True, text=True, timeout=60)
    C.check("--no-preflight" in p.stdout + p.stderr, "run --help names --no-preflight")


def main():
    cwd = setup()
    try:
        test_refused(cwd)
        test_bypassed(cwd)
        test_dry_run(cwd)
        test_invalid_field_first(cwd)
        test_help()
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    C.done()


if __name__ == "__main__":
    main()
