#!/usr/bin/env python3
"""`byoc jobs --json` streams: each SearchJobs page is printed as it arrives, and the output is
one JSON document, byte for byte what the listing held whole prints (json.dumps with indent 2,
UTF-8 as is: jansson's layout), also when a listing fails midway.

The SearchJobs endpoint is this test's own (a thread on 127.0.0.1), so it can
- hold the second page until byoc's stdout shows the first page's jobs (waited on with a
  deadline: a byoc that holds the listing never shows them, and the test fails, not hangs);
- fail the third page (400 ValidationException, not retried): the document ends with the
  200 jobs so far and "error": {"what", "why", "exit_code", "code"}, and the exit code says
  the failure;
- fail the first page: stdout holds only the CLI's error document {"error": {...}}, as a
  listing held whole would give.
Run: tests/topology/with-env.sh python3 tests/integration/test_jobs_stream.py
"""

import json
import os
import re
import subprocess
import tempfile
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import BYOC_BIN as BYOC, Checks  # noqa: E402

T = Checks("test_jobs_stream")
DEADLINE = 60
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"


def summary(i):
    job = {"jobArn": "arn:aws:braket:us-east-1:123456789012:job/j-%05d" % i, "jobName": "stream-%05d" % i,
           "status": ("COMPLETED", "FAILED", "RUNNING")[i % 3], "device": SV1,
           "createdAt": "2025-12-01T00:%02d:%02d.000Z" % (i // 60 % 60, i % 60), "tags": {"k": "v"}}
    if i == 7:  # every escape jansson writes, and UTF-8 kept as is
        job["jobName"] = "q\"b\\s/\b\f\n\r\t\x01\x1f\x7f caf\u00e9 \u2713 \U0001F600"
    if i == 8:
        del job["createdAt"]  # absent: null
    return job


class Endpoint:
    def __init__(self, total, fail_page=None, hold_second=None):
        self.total, self.fail_page, self.hold_second = total, fail_page, hold_second
        self.pages = 0
        self.streamed = False
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                endpoint.pages += 1
                page = endpoint.pages
                if page == 2 and endpoint.hold_second is not None:
                    endpoint.streamed = endpoint.hold_second.wait(DEADLINE)
                if page == endpoint.fail_page:
                    return self.reply(400, {"message": "page %d: no \"more\"" % page}, "ValidationException")
                start = int(body.get("nextToken") or 0)
                end = min(start + min(body.get("maxResults") or 100, 100), endpoint.total)
                out = {"jobs": [summary(i) for i in range(start, end)]}
                if end < endpoint.total:
                    out["nextToken"] = str(end)
                self.reply(200, out)

            def reply(self, status, doc, error=None):
                data = json.dumps(doc).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if error:
                    self.send_header("x-amzn-ErrorType", error)
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def expected(n):
    jobs = []
    for i in range(n):
        s = summary(i)
        jobs.append({"job_arn": s["jobArn"], "job_name": s["jobName"], "status": s["status"],
                     "created": s.get("createdAt"), "device": s["device"]})
    return jobs


def run_byoc(ep, watch_for=None, seen=None):
    env = dict(os.environ, AWS_ENDPOINT_URL_BRAKET=ep.url(), AWS_ACCESS_KEY_ID="AKIDSTREAMTEST",
               AWS_SECRET_ACCESS_KEY="stream-test-secret", AWS_REGION="us-east-1", AWS_CONFIG_FILE="/dev/null",
               AWS_SHARED_CREDENTIALS_FILE="/dev/null", AWS_PROFILE="", AWS_EC2_METADATA_DISABLED="true")
    env.pop("AWS_PROFILE")
    env["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="byoc-jobs-stream-")  # no local jobs: the account's alone
    p = subprocess.Popen([BYOC, "jobs", "--json", "--max", "100000"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    out = bytearray()

    def read():
        for chunk in iter(lambda: p.stdout.read1(65536), b""):
            out.extend(chunk)
            if watch_for and watch_for.encode() in out:
                seen.set()

    reader = threading.Thread(target=read)
    reader.start()
    err = p.stderr.read()
    p.wait(DEADLINE * 2)
    reader.join(DEADLINE)
    return p.returncode, bytes(out).decode(), err.decode()


def test_streams_one_document():
    seen = threading.Event()
    ep = Endpoint(250, hold_second=seen)
    try:
        code, out, err = run_byoc(ep, watch_for='"stream-00099"', seen=seen)
    finally:
        seen.set()
        ep.close()
    T.equal(code, 0, "a listing of 250 jobs succeeds (%s)" % err.strip())
    T.check(ep.streamed and ep.pages == 3, "the first page was on stdout before the second was answered")
    want = {"jobs": expected(250)}
    T.check(out and json.loads(out) == want, "one JSON document with every job", out[-300:])
    # jansson writes \u001F where Python writes \u001f, and byoc's writer (core/jsonout.h) also
    # escapes DEL, the C1 controls and U+2028/U+2029; the rest is the same layout
    held = re.sub(r"\\u00([0-9a-f]{2})", lambda m: "\\u00" + m.group(1).upper(),
                  json.dumps(want, indent=2, ensure_ascii=False))
    held = re.sub("[\x7f\x80-\x9f\u2028\u2029]", lambda m: "\\u%04X" % ord(m.group(0)), held) + "\n"
    at = next((i for i in range(min(len(out), len(held))) if out[i] != held[i]), min(len(out), len(held)))
    T.check(out == held, "byte for byte the held document's layout", "differs at %d: %r vs %r"
            % (at, out[at - 40:at + 40], held[at - 40:at + 40]))


def test_error_midway():
    ep = Endpoint(250, fail_page=3)
    try:
        code, out, err = run_byoc(ep)
    finally:
        ep.close()
    T.check(code != 0, "a listing that fails on page 3 exits non-zero", code)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    T.check(doc is not None, "stdout is still one JSON document", out[-200:])
    doc = doc or {}
    T.check(doc.get("jobs") == expected(200), "it holds the jobs of the first two pages")
    error = doc.get("error") or {}
    T.check(isinstance(error, dict) and "page 3: no \"more\"" in (error.get("why") or "")
            and error.get("exit_code") == code and error.get("code") == "ValidationException",
            "and the failure as \"error\": {what, why, exit_code, code}", error)
    T.equal(sorted(doc), ["error", "jobs"], "and nothing else")
    T.check("page 3" in err, "stderr says it too", err.strip())


def test_error_first_page():
    ep = Endpoint(250, fail_page=1)
    try:
        code, out, err = run_byoc(ep)
    finally:
        ep.close()
    T.check(code != 0, "a listing that fails on page 1 exits non-zero", code)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    T.check(doc is not None and sorted(doc) == ["error"] and "page 1" in doc["error"].get("why", ""),
            "stdout is the CLI's one error document, as without streaming", out[-300:])


for f in (test_streams_one_document, test_error_midway, test_error_first_page):
    T.run(f)
T.done()
