#!/usr/bin/env python3
"""byoc jobs / status / cancel against the Braket stand-in.

- `jobs` pages through SearchJobs: 260 jobs of this run all listed exactly once, newest
  first; --max cuts the list; --status filters (several allowed).
- `status` follows the transitions the stand-in's control API drives:
  QUEUED (with queue position) -> RUNNING -> FAILED with a failure reason; by name and by ARN.
- a failure reason full of escape sequences is printed as one clean line by `status` and
  in `logs -f`'s error; `--json` keeps it as it is.
- `cancel` of a running job answers CANCELLING; of a finished job a clear message, exit 1;
  of an unknown name exit 1; a malformed JOB exit 2.
Jobs are pinned with set-status, so the stand-in's clock (and other tests' settings) do not
move them.
Run: tests/topology/with-env.sh python3 tests/integration/test_monitor_jobs.py
"""

import json
import os
import subprocess
import tempfile
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import Checks, client, control, env  # noqa: E402

T = Checks("test_monitor_jobs")
RUN = uuid.uuid4().hex[:6]
ACCOUNT = env("BYOC_TEST_ACCOUNT")
SOURCE = os.environ.get("BYOC_SOURCE_DIR", os.path.join(HERE, "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
braket = client("braket")


def create_job(name, status="QUEUED"):
    req = {
        "clientToken": str(uuid.uuid4()),
        "jobName": name,
        "roleArn": "arn:aws:iam::%s:role/AmazonBraketJobsExecutionRole" % ACCOUNT,
        "algorithmSpecification": {
            "scriptModeConfig": {"entryPoint": "algo.main", "s3Uri": "s3://bucket/src/source.tar.gz",
                                 "compressionType": "GZIP"},
            "containerImage": {"uri": "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-byoc:latest" % ACCOUNT},
        },
        "outputDataConfig": {"s3Path": "s3://bucket/jobs/%s/data" % name},
        "instanceConfig": {"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": 1},
        "deviceConfig": {"device": SV1},
    }
    arn = braket.create_job(**req)["jobArn"]
    set_status(name, status)
    return arn


def set_status(name, status, reason=None):
    body = {"status": status}
    if reason:
        body["failureReason"] = reason
    code, out = control("POST", "/jobs/%s/set-status" % name, body)
    assert code == 200, (code, out)


# An empty record of local jobs: these checks count the account's jobs alone.
STATE = tempfile.mkdtemp(prefix="byoc-monitor-jobs-")


def byoc(*args):
    return subprocess.run([BYOC] + list(args), capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, XDG_STATE_HOME=STATE))


def byoc_json(*args):
    r = byoc("--json", *args)
    try:
        return r, json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        return r, None


def test_pagination():
    names = ["mon%s-p%03d" % (RUN, i) for i in range(260)]
    for i, n in enumerate(names):
        create_job(n, "FAILED" if i % 50 == 7 else "COMPLETED")
    seq0 = control("GET", "/requests")[1]["last"] or 0
    r, doc = byoc_json("jobs", "--max", "100000")
    T.equal(r.returncode, 0, "jobs exits 0", )
    jobs = doc["jobs"] if doc else []
    mine = [j["job_name"] for j in jobs if j["job_name"].startswith("mon%s-p" % RUN)]
    T.equal(len(mine), 260, "all 260 jobs listed")
    T.equal(len(set(mine)), 260, "no job listed twice")
    T.equal(mine, list(reversed(names)), "newest first")
    T.check(all(set(j) == {"job_arn", "job_name", "status", "created", "device"} for j in jobs),
            "each job has exactly job_arn, job_name, status, created, device")
    pages = [q for q in control("GET", "/requests?since=%d" % seq0)[1]["requests"] if q["operation"] == "SearchJobs"]
    T.check(len(pages) >= 3, "several SearchJobs pages were read", len(pages))

    r, doc = byoc_json("jobs", "--max", "7")
    T.equal(len(doc["jobs"]), 7, "--max 7 lists 7")
    r, doc = byoc_json("jobs")
    T.equal(len(doc["jobs"]), 100, "the default is 100")

    r, doc = byoc_json("jobs", "--status", "failed", "--max", "100000")
    failed = [j["job_name"] for j in doc["jobs"] if j["job_name"].startswith("mon%s-p" % RUN)]
    T.equal(sorted(failed), sorted(n for i, n in enumerate(names) if i % 50 == 7), "--status FAILED filters")
    T.check(all(j["status"] == "FAILED" for j in doc["jobs"]), "only FAILED jobs")
    r, doc = byoc_json("jobs", "--status", "FAILED", "--status", "COMPLETED", "--max", "100000")
    both = [j for j in doc["jobs"] if j["job_name"].startswith("mon%s-p" % RUN)]
    T.equal(len(both), 260, "two --status values are or-ed")
    r = byoc("jobs", "--status", "DONE")
    T.equal(r.returncode, 2, "an unknown status is a usage error")
    r = byoc("jobs", "--max", "0")
    T.equal(r.returncode, 2, "--max 0 is a usage error")
    r = byoc("jobs", "--max", "3")
    T.equal(len(r.stdout.splitlines()), 4, "the table has a header and 3 rows")


def test_status_transitions():
    name = "mon%s-trans" % RUN
    arn = create_job(name, "QUEUED")
    r, doc = byoc_json("status", name)
    T.equal(r.returncode, 0, "status exits 0")
    T.equal(doc["status"], "QUEUED", "QUEUED")
    T.equal(doc["job_arn"], arn, "the name resolved to the ARN")
    T.check("queue" in doc and doc["queue"].get("position"), "queue position while QUEUED", doc.get("queue"))
    T.equal(doc["failure_reason"], None, "no failure reason yet")

    set_status(name, "RUNNING")
    r, doc = byoc_json("status", arn)
    T.equal(doc["status"], "RUNNING", "RUNNING (by ARN)")
    types = [e["type"] for e in doc["events"]]
    T.check("RUNNING" in types, "a RUNNING event", types)
    T.check("queue" not in doc, "no queue position once running")

    set_status(name, "FAILED", "AlgorithmError: boom")
    r, doc = byoc_json("status", name)
    T.equal(doc["status"], "FAILED", "FAILED")
    T.equal(doc["failure_reason"], "AlgorithmError: boom", "the failure reason")
    T.check("FAILED" in [e["type"] for e in doc["events"]], "a FAILED event")
    T.check(doc.get("ended"), "an end time")
    r = byoc("status", name)
    T.check("FAILED" in r.stdout and "AlgorithmError: boom" in r.stdout, "the text form says it", r.stdout)


def test_cancel():
    running = "mon%s-cancel-run" % RUN
    arn = create_job(running, "RUNNING")
    r, doc = byoc_json("cancel", running)
    T.equal(r.returncode, 0, "cancel of a running job exits 0")
    T.equal(doc, {"job_arn": arn, "status": "CANCELLING"}, "it answers CANCELLING")
    st = control("GET", "/jobs/%s" % running)[1]
    T.check(st["status"] in ("CANCELLING", "CANCELLED"), "the stand-in has it cancelling", st["status"])

    done = "mon%s-cancel-done" % RUN
    create_job(done, "COMPLETED")
    r, doc = byoc_json("cancel", done)
    T.equal(r.returncode, 1, "cancel of a finished job exits 1")
    T.check("already ended (COMPLETED)" in r.stderr and "nothing to cancel" in r.stderr,
            "a clear message", r.stderr)
    err = (doc or {}).get("error") or {}
    T.check(err.get("exit_code") == 1 and "already ended (COMPLETED)" in (err.get("why") or ""),
            "--json: stdout is the one error document", r.stdout)

    cancelled = "mon%s-cancel-twice" % RUN
    create_job(cancelled, "CANCELLED")
    r = byoc("cancel", cancelled)
    T.equal(r.returncode, 1, "cancel of a cancelled job exits 1")
    T.check("already ended (CANCELLED)" in r.stderr, "says it was cancelled already", r.stderr)

    r = byoc("cancel", "mon%s-nope" % RUN)
    T.equal(r.returncode, 1, "cancel of an unknown name exits 1")
    r = byoc("cancel", "-bad-")
    T.equal(r.returncode, 2, "a malformed JOB exits 2")
    r = byoc("cancel")
    T.equal(r.returncode, 2, "no JOB exits 2")


CONTROL = set(range(0x20)) | {0x7F}


def test_hostile_failure_reason():
    """A failure reason is the job's own words: escape sequences in it (OSC 52 writes the
    clipboard, CSI 2J clears the screen) never reach the terminal; --json keeps them,
    escaped, since JSON is for programs."""
    name = "mon%s-hostile" % RUN
    create_job(name, "RUNNING")
    reason = "AlgorithmError: \x1b]52;c;cm0gLXJmIH4=\x07boom\x1b[2J\r\nsecond line\u009b31m"
    set_status(name, "FAILED", reason)
    r = byoc("status", name)
    T.equal(r.returncode, 0, "status exits 0")
    T.check("failure   AlgorithmError: boom second line?31m" in r.stdout, "the reason, printable", repr(r.stdout))
    T.check(not any(ord(c) in CONTROL - {10} or 0x80 <= ord(c) < 0xA0 for c in r.stdout),
            "no control character on stdout", repr(r.stdout))
    r, doc = byoc_json("status", name)
    T.equal(doc and doc["failure_reason"], reason, "--json carries the reason as it is")
    r = byoc("logs", "-f", name)
    T.equal(r.returncode, 1, "logs -f of a failed job exits 1")
    T.check("ended FAILED: AlgorithmError: boom second line?31m" in r.stderr, "the error says why", repr(r.stderr))
    T.check(not any(ord(c) in CONTROL - {10} or 0x80 <= ord(c) < 0xA0 for c in r.stderr),
            "no control character on stderr", repr(r.stderr))


for fn in (test_pagination, test_status_transitions, test_cancel, test_hostile_failure_reason):
    T.run(fn)
T.done()
