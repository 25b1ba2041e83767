#!/usr/bin/env python3
"""byoc logs / status against moto's CloudWatch Logs and the Braket stand-in.

- `byoc logs --follow` tails a two-instance job while the test writes events with boto3 in
  several batches (more than one GetLogEvents page), the second instance's stream appears
  only later, and the job is driven to COMPLETED through the stand-in's control API: every
  line is printed exactly once, in order per instance, tagged with its instance; the
  follow ends by itself when the job ends.
- `byoc logs` (no follow) prints the same lines again, once each.
- `byoc status` reads the metrics of a fixture log (tests/fixtures/logs/job-metrics.log) as
  the Braket SDK's parser does, and --json carries each metric's points (its series).
- `logs --follow` on a job that ends FAILED exits 1 with the failure reason.
- Ctrl-C (SIGINT) and SIGTERM stop `logs --follow` at once: what was printed is all there,
  exit 1, `byoc: ...: cancelled` on stderr, no sanitizer report.
Run: tests/topology/with-env.sh python3 tests/integration/test_monitor_logs.py
"""

import json
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import Checks, client, control, env  # noqa: E402

T = Checks("test_monitor_logs")
RUN = uuid.uuid4().hex[:6]
ACCOUNT = env("BYOC_TEST_ACCOUNT")
SOURCE = os.environ.get("BYOC_SOURCE_DIR", os.path.join(HERE, "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
GROUP = "/aws/braket/jobs"
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
braket = client("braket")
logs = client("logs")


def create_job(name, instances=1):
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
        "instanceConfig": {"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": instances},
        "deviceConfig": {"device": SV1},
    }
    arn = braket.create_job(**req)["jobArn"]
    set_status(name, "QUEUED")  # pinned: only this test moves it
    return arn


def set_status(name, status, reason=None):
    body = {"status": status}
    if reason:
        body["failureReason"] = reason
    code, out = control("POST", "/jobs/%s/set-status" % name, body)
    assert code == 200, (code, out)


def ensure_group():
    try:
        logs.create_log_group(logGroupName=GROUP)
    except logs.exceptions.ResourceAlreadyExistsException:
        pass


def new_stream(name):
    logs.create_log_stream(logGroupName=GROUP, logStreamName=name)


def put(stream, messages, t0):
    """PutLogEvents in batches the service accepts (<= 10,000 events)."""
    for start in range(0, len(messages), 5000):
        chunk = messages[start:start + 5000]
        events = [{"timestamp": t0 + start + i, "message": m} for i, m in enumerate(chunk)]
        logs.put_log_events(logGroupName=GROUP, logStreamName=stream, logEvents=events)


def byoc(*args, **kw):
    return subprocess.run([BYOC] + list(args), capture_output=True, text=True, timeout=kw.get("timeout", 300))


def check_lines(out, expected, label):
    """expected: {instance: [messages in order]}; out: byoc's text lines."""
    got = {}
    untagged = []
    for line in out.splitlines():
        m = re.match(r"^\[(algo-\d+)\] (.*)$", line)
        if m:
            got.setdefault(m.group(1), []).append(m.group(2))
        else:
            untagged.append(line)
    T.equal(untagged, [], label + ": every line has an instance tag")
    for inst, want in expected.items():
        have = got.get(inst, [])
        dups = len(have) - len(set(have))
        T.equal(dups, 0, "%s: %s has no repeated line" % (label, inst))
        missing = sorted(set(want) - set(have))
        T.check(not missing, "%s: %s misses no line" % (label, inst),
                "%d missing, first %r" % (len(missing), missing[:3]))
        T.check(have == want, "%s: %s lines in order" % (label, inst),
                "got %d lines, want %d" % (len(have), len(want)))
    T.equal(sorted(got), sorted(expected), label + ": exactly the expected instances")


def test_follow_pages_and_late_stream():
    name = "mon%s-follow" % RUN
    create_job(name, instances=2)
    set_status(name, "RUNNING")
    ensure_group()
    uid = uuid.uuid4().hex
    s1 = "%s/%s/algo-1-1700000000" % (name, uid)
    s2 = "%s/%s/algo-2-1700000005" % (name, uid)
    new_stream(s1)
    t0 = int(time.time() * 1000) - 3_600_000
    a1 = ["a1 line %06d" % i for i in range(12000)]  # more than one page (10,000)
    put(s1, a1, t0)

    proc = subprocess.Popen([BYOC, "logs", "--follow", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    out_chunks = []
    reader = threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()))
    reader.start()

    time.sleep(3)
    a2 = ["a1 line %06d" % i for i in range(12000, 23000)]
    put(s1, a2, t0 + 12000)
    time.sleep(2)
    new_stream(s2)  # the second instance shows up late, with older timestamps than the newest of algo-1
    b1 = ["b2 line %06d" % i for i in range(6000)]
    put(s2, b1, t0 + 500)
    time.sleep(3)
    a3 = ["a1 line %06d" % i for i in range(23000, 23500)]
    put(s1, a3, t0 + 23000)
    b2 = ["b2 line %06d" % i for i in range(6000, 6300)]
    put(s2, b2, t0 + 30000)
    time.sleep(2)
    set_status(name, "COMPLETED")
    # the last lines land after the job ended (CloudWatch lags): the final read must get them
    a4 = ["a1 line %06d" % i for i in range(23500, 23510)]
    put(s1, a4, t0 + 40000)

    try:
        proc.wait(timeout=180)
    except subprocess.TimeoutExpired:
        proc.kill()
        T.check(False, "follow ends by itself when the job ends")
    reader.join()
    err = proc.stderr.read()
    T.equal(proc.returncode, 0, "logs --follow exits 0 for a COMPLETED job")
    T.check("RUNNING" in err and "COMPLETED" in err, "status changes reported on stderr", err[-300:])
    out = "".join(out_chunks)
    check_lines(out, {"algo-1": a1 + a2 + a3 + a4, "algo-2": b1 + b2}, "follow")

    again = byoc("logs", name)
    T.equal(again.returncode, 0, "logs (no follow) exits 0")
    check_lines(again.stdout, {"algo-1": a1 + a2 + a3 + a4, "algo-2": b1 + b2}, "logs")
    # merged by time: algo-2's first line (t0+500) comes before algo-1's line 501
    lines = again.stdout.splitlines()
    T.check(lines.index("[algo-2] b2 line 000000") < lines.index("[algo-1] a1 line 000501"),
            "streams merged by timestamp")


def sdk_metrics(lines_with_ms):
    """The SDK's parse of each metrics line, summarised per metric like byoc (last = latest timestamp)."""
    pairs = re.compile(r"(\w+)\s*=\s*([^;]+)\s*;")
    series = {}
    for ms, msg in lines_with_ms:
        if "Metrics -" not in msg:
            continue
        row = {}
        for m in pairs.finditer(msg):
            try:
                row[m.group(1)] = float(m.group(2))
            except ValueError:
                pass
        if not row:
            continue
        ts = row.pop("timestamp", ms / 1000.0)
        it = row.pop("iteration_number", None)
        for k, v in row.items():
            s = series.setdefault(k, {"values": [], "last": None, "ts": None, "points": []})
            s["values"].append(v)
            s["points"].append({"timestamp": ts, "iteration": it, "value": v})
            if s["ts"] is None or ts >= s["ts"]:
                s["last"], s["ts"] = v, ts
    return {k: {"count": len(s["values"]), "min": min(s["values"]), "max": max(s["values"]), "last": s["last"],
                "points": s["points"]}
            for k, s in series.items()}


def running_job_with_stream(name):
    """A RUNNING one-instance job and its (empty) log stream; returns the stream's name."""
    create_job(name)
    set_status(name, "RUNNING")
    ensure_group()
    stream = "%s/%s/algo-1-1700000000" % (name, uuid.uuid4().hex)
    new_stream(stream)
    return stream


def test_status_metrics_from_fixture():
    name = "mon%s-metrics" % RUN
    stream = running_job_with_stream(name)
    with open(os.path.join(SOURCE, "tests", "fixtures", "logs", "job-metrics.log")) as f:
        fixture = f.read().splitlines()
    t0 = int(time.time() * 1000) - 600_000
    put(stream, fixture, t0)
    # a metrics line in another job's stream must not count
    other = "mon%s-other/%s/algo-1" % (RUN, uuid.uuid4().hex)
    new_stream(other)
    put(other, ["Metrics - Cost=99; intruder=1;"], t0)

    r = byoc("--json", "status", name)
    T.equal(r.returncode, 0, "status exits 0")
    doc = json.loads(r.stdout)
    for key in ("job_arn", "job_name", "status", "events", "failure_reason", "metrics"):
        T.check(key in doc, "status has %s" % key)
    T.equal(doc["status"], "RUNNING", "status RUNNING")
    want = sdk_metrics([(t0 + i, m) for i, m in enumerate(fixture)])
    got = doc["metrics"]
    T.equal(sorted(got), sorted(want), "the metric names the SDK finds")
    for k, w in want.items():
        g = got.get(k, {})
        T.equal(g.get("count"), w["count"], "%s count" % k)
        for field in ("min", "max", "last"):
            T.check(g.get(field) is not None and math.isclose(g[field], w[field], rel_tol=1e-9),
                    "%s %s" % (k, field), "got %r want %r" % (g.get(field), w[field]))
    T.check("intruder" not in got, "another job's metrics are not mixed in")
    # the series: every point, in log order, as the SDK reads it (the fixture is short: nothing cut)
    for k, w in want.items():
        series = got.get(k, {}).get("series", {})
        T.equal(series.get("points"), w["points"], "%s series points" % k)
        T.equal(series.get("count"), len(w["points"]), "%s series count" % k)
        T.equal(series.get("truncated"), False, "%s series not truncated" % k)
    T.equal(got.get("Cost", {}).get("iteration"), 12.0, "Cost's last iteration number")

    text = byoc("status", name)
    T.check("Cost" in text.stdout and "RUNNING" in text.stdout, "status text shows the metrics", text.stdout)


def test_follow_failed_job():
    name = "mon%s-fails" % RUN
    arn = create_job(name)
    set_status(name, "RUNNING")

    def fail_later():
        time.sleep(3)
        set_status(name, "FAILED", "AlgorithmError: the script raised ValueError")
    th = threading.Thread(target=fail_later)
    th.start()
    r = byoc("logs", "--follow", arn, timeout=120)  # by ARN this time
    th.join()
    T.equal(r.returncode, 1, "follow of a job that fails exits 1")
    T.check("FAILED" in r.stderr and "ValueError" in r.stderr, "the failure reason is shown", r.stderr[-300:])


def test_follow_interrupted():
    name = "mon%s-intr" % RUN
    stream = running_job_with_stream(name)
    lines = ["intr line %03d" % i for i in range(50)]
    put(stream, lines, int(time.time() * 1000) - 60_000)
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc = subprocess.Popen([BYOC, "logs", "--follow", name], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        got = []
        # read until the last line came: the follow is then waiting for more
        while len(got) < len(lines):
            line = proc.stdout.readline()
            if not line:
                break
            got.append(line.rstrip("\n"))
        T.equal(got, lines, "%s: the lines so far, once each" % sig.name)
        proc.send_signal(sig)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            T.check(False, "%s stops the follow" % sig.name)
        rest, err = proc.communicate()
        T.equal(rest, "", "%s: nothing more printed" % sig.name)
        T.equal(proc.returncode, 1, "%s: exit 1" % sig.name)
        T.check("cancelled" in err and "Sanitizer" not in err and "runtime error" not in err,
                "%s: says it was cancelled" % sig.name, err[-300:])
    set_status(name, "COMPLETED")


def test_usage_errors():
    r = byoc("logs")
    T.equal(r.returncode, 2, "logs without JOB is a usage error")
    r = byoc("logs", "not a name")
    T.equal(r.returncode, 2, "a malformed JOB is a usage error")
    r = byoc("logs", "mon%s-nosuchjob" % RUN)
    T.equal(r.returncode, 1, "an unknown job name fails")
    T.check("no job named" in r.stderr, "says there is no such job", r.stderr)


for fn in (test_follow_pages_and_late_stream, test_status_metrics_from_fixture, test_follow_failed_job,
           test_follow_interrupted, test_usage_errors):
    T.run(fn)
T.done()
