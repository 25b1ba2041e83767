#!/usr/bin/env python3
"""A SearchJobs-only Braket endpoint for bench/jobs.sh: N made-up jobs, newest first, 100 a page.

Jobs are generated from their index, never stored, so 100,000 cost nothing; the shared
stand-in is left alone (a region of 100,000 jobs would slow every test that lists it).
Each reply is one write (headers and body together), HTTP/1.1 keep-alive, no signature check.
Prints the port it listens on (127.0.0.1) on stdout, then serves until killed.

usage: bench/searchjobs_server.py JOBS
"""
import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOTAL = int(sys.argv[1])
ACCOUNT = "123456789012"
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
STATUSES = ("COMPLETED", "COMPLETED", "FAILED", "RUNNING", "CANCELLED", "QUEUED")


def iso(i):
    s = 1764800000 + i * 7
    return "2025-12-%02dT%02d:%02d:%02d.%03dZ" % (1 + s // 86400 % 28, s // 3600 % 24, s // 60 % 60, s % 60, i % 1000)


def summary(i):
    status = STATUSES[i % len(STATUSES)]
    job = {"jobArn": "arn:aws:braket:us-east-1:%s:job/%08x-bench-4%03x-8000-%012x" % (ACCOUNT, i, i % 4096, i),
           "jobName": "bench-jobs-%06d" % i, "status": status, "device": SV1, "createdAt": iso(i)}
    if status != "QUEUED":
        job["startedAt"] = iso(i + 1)
    if status in ("COMPLETED", "FAILED", "CANCELLED"):
        job["endedAt"] = iso(i + 9)
    job["tags"] = {"bench": "jobs"}
    return job


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def do_POST(self):
        # botocore sends the headers and the body apart: ACK the headers now, or the client's
        # Nagle waits out our delayed ACK (40-200 ms a page)
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if self.path.split("?")[0] != "/jobs":
            return self.reply(404, {"message": "only SearchJobs here"}, "ResourceNotFoundException")
        size = min(int(body.get("maxResults") or 100), 100)
        start = int(str(body.get("nextToken") or "t0")[1:])
        end = min(start + size, TOTAL)
        out = {"jobs": [summary(TOTAL - 1 - i) for i in range(start, end)]}
        if end < TOTAL:
            out["nextToken"] = "t%d" % end
        self.reply(200, out)

    def reply(self, status, doc, error=None):
        data = json.dumps(doc, separators=(",", ":")).encode()
        head = "HTTP/1.1 %d X\r\nContent-Type: application/json\r\nContent-Length: %d\r\n" % (status, len(data))
        if error:
            head += "x-amzn-ErrorType: %s\r\n" % error
        self.wfile.write(head.encode() + b"\r\n" + data)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
