#!/usr/bin/env python3
"""The Monitor verbs against a hostile Braket and CloudWatch Logs (a small server of its own on
loopback; it needs none of the shared topology).

Every verb that prints service fields (jobs, status, logs, cancel), plain and --json:
- escape sequences in every job field never reach the terminal plain; --json keeps them exactly;
- replies with missing and mistyped fields never crash byoc;
- SearchJobs answering the same nextToken forever: a clear error, no endless paging; distinct
  tokens forever: the page bound ends it;
- a reply far larger than any API reply: a clear error after the cap, not all of it in memory;
- results without -o: a job name from the reply that is no job name ('../x') is refused, nothing written;
- a reply that drips a byte at a time: the API deadline (BYOC_API_TIMEOUT, short here) ends it.
Run: tests/topology/with-env.sh python3 tests/integration/test_hostile_replies.py
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import BYOC_BIN as BYOC, Checks  # noqa: E402

T = Checks("test_hostile_replies")
ARN = "arn:aws:braket:us-east-1:123456789012:job/hostile"
EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\x07"
STATE = {"mode": "escape", "calls": 0}


def evil(word):
    return word + EVIL


def get_job(mode):
    if mode == "escape":
        return {"jobArn": ARN, "jobName": evil("hostile"), "status": evil("RUNNING"),
                "deviceConfig": {"device": evil("arn:aws:braket:::device/qpu/x")},
                "createdAt": evil("2026-01-01T00:00:00Z"), "startedAt": evil("2026-01-01T00:01:00Z"),
                "endedAt": evil("2026-01-01T00:02:00Z"), "failureReason": evil("why"),
                "queueInfo": {"queue": "JOBS_QUEUE", "position": evil("3")},
                "events": [{"eventType": evil("WAITING"), "timeOfEvent": evil("t"), "message": evil("m")}]}
    if mode.startswith("name:"):  # an ended job whose name is not a job name
        return {"jobArn": ARN, "jobName": mode[5:], "status": "COMPLETED",
                "outputDataConfig": {"s3Path": "s3://hostile-bucket/jobs/x/data"}}
    # mistyped: everything byoc does not need is of the wrong type
    return {"jobArn": ARN, "jobName": "hostile", "status": "RUNNING", "deviceConfig": "x",
            "createdAt": 12, "startedAt": [], "endedAt": {}, "failureReason": 7,
            "queueInfo": {"queue": 1, "position": 3, "message": None}, "instanceConfig": [],
            "billableDuration": "x", "outputDataConfig": 5,
            "events": [3, None, {"eventType": 1, "timeOfEvent": None, "message": []}, "x"]}


def search_jobs(mode, token):
    if mode == "escape":
        return {"jobs": [{"jobArn": ARN, "jobName": evil("hostile"), "status": evil("RUNNING"),
                          "createdAt": evil("2026"), "device": evil("dev")}]}
    if mode == "mistyped":
        return {"jobs": [{"jobArn": ARN}, {"jobArn": ARN, "jobName": 5, "status": None, "createdAt": [],
                                           "device": {}}, 7, None, "x",
                         {"jobArn": ARN, "jobName": "hostile", "status": "RUNNING"}]}
    if mode == "repeat-token":
        return {"jobs": [], "nextToken": "again"}
    if mode == "endless":
        return {"jobs": [], "nextToken": "t%d" % (int(token[1:]) + 1 if token else 0)}
    return {"jobs": 3, "nextToken": 4}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms per reply

    def reply(self, obj, code=200):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def huge(self):
        # far more than any API reply; a capped reader stops long before the end
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b" " * (1 << 20)
        try:
            for _ in range(1024):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass
        self.close_connection = True

    def drip(self):
        body = json.dumps(get_job("mistyped")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            for i in range(len(body)):  # ~50 s in all: far past the deadline the test sets
                self.wfile.write(body[i:i + 1])
                self.wfile.flush()
                time.sleep(0.25)
        except OSError:
            pass
        self.close_connection = True

    def do_GET(self):
        self.handle_any()

    def do_PUT(self):
        self.handle_any()

    def do_POST(self):
        self.handle_any()

    def handle_any(self):
        STATE["calls"] += 1
        n = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(n) or b"{}")
        mode = STATE["mode"]
        target = self.headers.get("X-Amz-Target") or ""
        if target.startswith("Logs_"):
            return self.reply({"logStreams": [], "events": []})
        if mode == "huge":
            return self.huge()
        if mode == "drip":
            return self.drip()
        if self.path.startswith("/job/") and self.path.endswith("/cancel"):
            return self.reply({"jobArn": ARN, "cancellationStatus": evil("CANCELLING")
                               if mode == "escape" else 5})
        if self.path.startswith("/job/"):
            return self.reply(get_job(mode))
        if self.path == "/jobs":
            return self.reply(search_jobs(mode, body.get("nextToken")))
        self.reply({"message": "no such route"}, 404)


def byoc(*args, timeout=60):
    t0 = time.monotonic()
    try:
        r = subprocess.run([BYOC] + list(args), capture_output=True, timeout=timeout, env=ENV)
        if b"Sanitizer" in r.stderr or b"runtime error" in r.stderr:
            T.check(False, "byoc %s: no sanitizer report" % " ".join(args), r.stderr[-2000:])
        return r.returncode, r.stdout, r.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or b"", e.stderr or b"", time.monotonic() - t0


def no_controls(data):
    text = data.decode("utf-8", "replace")
    return not any((ord(c) < 0x20 and c not in "\n") or 0x7f <= ord(c) < 0xa0 for c in text)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


def crashed(code):
    return code == "timeout" or code < 0 or code >= 128


VERBS = [("jobs",), ("status", ARN), ("logs", ARN), ("cancel", ARN)]


def test_escapes():
    STATE["mode"] = "escape"
    for verb in VERBS:
        code, out, err, _ = byoc(*verb)
        T.check(code == 0 and no_controls(out) and no_controls(err),
                "%s: plain output has no control characters" % verb[0], (code, out[:300], err[:300]))
        T.check(b"hostile" in out + err or verb[0] == "cancel", "%s: names the job" % verb[0], out[:200])
        if verb[0] == "logs":
            continue  # logs has no --json: the job's log is text
        code, out, err, _ = byoc("--json", *verb)
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        T.check(code == 0 and any(EVIL in s for s in strings(doc)), "%s --json: the service's text as it is" % verb[0],
                (code, out[:300], err[:300]))


def test_mistyped():
    STATE["mode"] = "mistyped"
    for verb in VERBS:
        for flags in ([], ["--json"]):
            if verb[0] == "logs" and flags:
                continue
            code, out, err, _ = byoc(*(flags + list(verb)))
            T.check(not crashed(code) and no_controls(out + err), "mistyped %s %s: no crash" % (verb[0], flags),
                    (code, out[:300], err[-300:]))
    code, out, err, _ = byoc("jobs")
    T.check(code == 0 and out.count(b"\n") == 4 and b"hostile" in out,
            "mistyped jobs: the three object entries listed, the rest skipped", (code, out, err[-300:]))
    STATE["mode"] = "wrong-list"
    code, out, err, _ = byoc("jobs")
    T.check(code == 0 and out.count(b"\n") == 1, "jobs that is not a list: an empty table", (code, out, err[-300:]))


def test_paging():
    STATE["mode"] = "repeat-token"
    for args in (["jobs"], ["--json", "jobs"], ["status", "hostile"], ["--json", "status", "hostile"],
                 ["logs", "hostile"], ["cancel", "hostile"]):
        STATE["calls"] = 0
        code, out, err, _ = byoc(*args, timeout=30)
        T.check(code not in (0, "timeout") and b"same next token" in err and STATE["calls"] <= 3,
                "repeated nextToken: %s stops with a clear error" % " ".join(args),
                (code, STATE["calls"], err[-300:]))
    STATE["mode"] = "endless"
    STATE["calls"] = 0
    code, out, err, took = byoc("jobs", timeout=60)
    T.check(code not in (0, "timeout") and b"pages" in err and STATE["calls"] <= 1001,
            "endless distinct tokens: the page bound ends jobs", (code, STATE["calls"], err[-300:]))
    print("     (%d pages in %.1f s)" % (STATE["calls"], took))


def test_results_name():
    # results without -o goes to ./<jobName>: a name from the reply that is no job name
    # ('../x', '/abs', '.', escapes) is refused before anything is fetched or written.
    for name in ("../escaped", "/tmp/byoc-hostile-abs", ".", "..", evil("x")):
        STATE["mode"] = "name:" + name
        STATE["calls"] = 0
        work = tempfile.mkdtemp(prefix="byoc-hostile-results-")
        inner = os.path.join(work, "cwd")
        os.mkdir(inner)
        try:
            r = subprocess.run([BYOC, "results", ARN], cwd=inner, capture_output=True, timeout=60, env=ENV)
            made = sorted(os.listdir(work)) + sorted(os.listdir(inner))
            T.check(r.returncode == 1 and b"-o DIR" in r.stderr and b"must match" in r.stderr
                    and no_controls(r.stderr) and r.stdout == b"",
                    "results: job name %r from the reply is refused, naming the rule and -o" % name,
                    (r.returncode, r.stdout[:200], r.stderr[-300:]))
            T.check(made == ["cwd"] and not os.path.exists("/tmp/byoc-hostile-abs") and STATE["calls"] == 1,
                    "results: job name %r: nothing written, nothing fetched" % name, (made, STATE["calls"]))
        finally:
            subprocess.run(["rm", "-rf", work])


def test_huge():
    STATE["mode"] = "huge"
    for args in (["status", ARN], ["--json", "jobs"]):
        code, out, err, took = byoc(*args, timeout=60)
        T.check(code not in (0, "timeout") and b"larger than" in err,
                "a 1 GiB reply: %s stops at the cap with a clear error" % " ".join(args),
                (code, err[-300:]))


def test_drip():
    STATE["mode"] = "drip"
    ENV["BYOC_API_TIMEOUT"] = "1"
    for args in (["status", ARN], ["--json", "status", ARN], ["logs", ARN], ["cancel", ARN]):
        code, out, err, took = byoc(*args, timeout=30)
        T.check(code not in (0, "timeout") and b"BYOC_API_TIMEOUT" in err,
                "a reply that drips: %s ends at the deadline" % " ".join(args), (code, round(took, 1), err[-300:]))
    del ENV["BYOC_API_TIMEOUT"]


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.handle_error = lambda request, address: None  # byoc hanging up mid-reply is the point here
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = "http://127.0.0.1:%d" % server.server_address[1]
HOME = tempfile.mkdtemp(prefix="byoc-hostile-")
ENV = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
ENV.update({
    "HOME": HOME, "XDG_CONFIG_HOME": HOME, "XDG_STATE_HOME": HOME,
    "AWS_ACCESS_KEY_ID": "AKIDEXAMPLEHOSTILE", "AWS_SECRET_ACCESS_KEY": "hostile-secret",
    "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
    "AWS_EC2_METADATA_DISABLED": "true", "AWS_MAX_ATTEMPTS": "1",
    "AWS_ENDPOINT_URL_BRAKET": URL, "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS": URL, "AWS_ENDPOINT_URL_S3": URL, "NO_PROXY": "127.0.0.1",
})
for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"):
    ENV.pop(k, None)

for name in sys.argv[1:] or ["escapes", "mistyped", "results_name", "paging", "huge", "drip"]:
    globals()["test_" + name]()
server.shutdown()
T.done()
