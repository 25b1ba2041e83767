#!/usr/bin/env python3
"""faultproxy: an HTTP proxy on loopback that forwards to one upstream and injects faults.

Reliability tests put it between byoc and a real service (moto, the Docker engine)
to see what byoc does when a call fails: retried per the retry mode, a clear error
after the last attempt, nothing done twice. Standard library only.

    faultproxy.py --upstream http://127.0.0.1:45100 [--listen 127.0.0.1:0] [--port-file F] [--log F]
    faultproxy.py --upstream unix:///tmp/byoc-topology/docker.sock ...

byoc then talks to http://127.0.0.1:<port> (AWS_ENDPOINT_URL_STS=..., DOCKER_HOST=tcp://...).
Requests are forwarded as received, Host header included, so SigV4 signatures still
verify upstream. Paths under /_faultproxy/ are the control API (JSON):

    GET    /_faultproxy/health     {"ok": true, "rules": N, "requests": N}
    GET    /_faultproxy/rules      POST one rule or {"rules": [...]}      DELETE
    GET    /_faultproxy/requests[?since=SEQ]                              DELETE
           {"requests": [...], "seq": N, "inflight": N}: a request is logged when its
           handler ends (a stalled one when the client hangs up); "inflight" counts those
           not logged yet, so a test waits for 0 before counting
    POST   /_faultproxy/reset      forget rules and the request log

A rule:
    match    {"method", "path" (prefix of the path without the query), "path_has" (substring of
              it: "/images/json" whatever the API version prefix), "query" (substring of the
              query), "target" (X-Amz-Target suffix, e.g. "DescribeRepositories"), "action"
              (query protocol Action=, e.g. "GetCallerIdentity"), "body" (substring)}
             every given key must match; {} or absent matches every request
    count    how many matching requests it hits (default 1)
    skip     let this many matching requests through untouched first (default 0)
    fault    "status"      answer with status + an error body in the request's protocol
                           (JSON 1.1 {"__type"}, query/REST-XML <Error>, REST-JSON x-amzn-ErrorType)
             "throttle"    "status" with a throttling code: 400 ThrottlingException (JSON),
                           400 Throttling (query), 503 SlowDown (S3), 429 (others)
             "skew"        403 with the service's clock-skew error (RequestTimeTooSkewed /
                           InvalidSignatureException "Signature expired")
             "expired"     403 ExpiredToken(Exception): the session token expired mid-session
             "html"        a proxy's 502 HTML page
             "reset"       close the connection with a TCP reset before forwarding: nothing ran
             "reset_after" forward, then reset instead of answering: the operation ran
             "stall"       hold the request stall_seconds (default 600, or until the client
                           gives up), then close: nothing ran
             "truncate"    forward, answer with the full Content-Length but only
                           truncate_to bytes of the body (default half), then close
             "cut_stream"  forward and relay the answer, but reset the connection after
                           cut_after bytes of the body (streams: build output, logs)
             "stream_error" relay cut_after bytes of an engine JSON stream (push, build),
                           then end it with {"errorDetail": {"message": message}} as the
                           engine does when the registry goes away mid-push
    status, code, message   for "status" (defaults 500, from the status)
    stall_seconds, truncate_to, cut_after

Each request is logged: seq, time, method, path, op (target or action), fault, status.
"""

import argparse
import http.client
import json
import os
import socket
import struct
import sys
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

CONTROL = "/_faultproxy"
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
              "expect"}
STATUS_CODES = {400: "BadRequest", 403: "AccessDenied", 404: "NotFound", 429: "TooManyRequestsException",
                500: "InternalFailure", 502: "BadGateway", 503: "ServiceUnavailable", 504: "GatewayTimeout"}
MATCH_KEYS = {"method", "path", "path_has", "query", "target", "action", "body"}
FAULTS = ("status", "throttle", "skew", "expired", "html", "reset", "reset_after", "stall", "truncate",
          "cut_stream", "stream_error")


class RuleError(ValueError):
    pass


def normalize_rule(spec):
    if not isinstance(spec, dict):
        raise RuleError("a rule must be a JSON object")
    known = {"match", "count", "skip", "fault", "status", "code", "message", "stall_seconds", "truncate_to",
             "cut_after"}
    unknown = set(spec) - known
    if unknown:
        raise RuleError("unknown rule keys: %s" % ", ".join(sorted(unknown)))
    rule = dict(spec)
    rule.setdefault("match", {})
    rule.setdefault("count", 1)
    rule.setdefault("skip", 0)
    rule.setdefault("fault", "status")
    if rule["fault"] not in FAULTS:
        raise RuleError("fault must be one of %s" % ", ".join(FAULTS))
    if not isinstance(rule["match"], dict) or set(rule["match"]) - MATCH_KEYS:
        raise RuleError("match takes %s" % ", ".join(sorted(MATCH_KEYS)))
    for key in ("count", "skip"):
        if not isinstance(rule[key], int) or rule[key] < (1 if key == "count" else 0):
            raise RuleError("%s must be an integer" % key)
    rule["hits"] = 0
    return rule


class Request:
    """What a rule can match on, parsed once."""

    def __init__(self, method, path, headers, body):
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        target = headers.get("X-Amz-Target") or ""
        self.target = target.rsplit(".", 1)[-1] if target else ""
        self.action = ""
        ctype = (headers.get("Content-Type") or "").lower()
        if "x-www-form-urlencoded" in ctype:
            try:
                self.action = parse_qs(body.decode("utf-8", "replace")).get("Action", [""])[0]
            except ValueError:
                self.action = ""
        auth = headers.get("Authorization") or ""
        self.service = ""
        if "Credential=" in auth:
            scope = auth.split("Credential=", 1)[1].split(",", 1)[0].split("/")
            if len(scope) >= 4:
                self.service = scope[3]
        if self.target:
            self.protocol = "json"
        elif self.action:
            self.protocol = "query"
        elif self.service == "s3":
            self.protocol = "rest-xml"
        else:
            self.protocol = "rest-json"

    @property
    def op(self):
        return self.target or self.action or ("%s %s" % (self.method, self.path.split("?", 1)[0]))

    def matches(self, m):
        if "method" in m and m["method"].upper() != self.method:
            return False
        path, _, query = self.path.partition("?")
        if "path" in m and not path.startswith(m["path"]):
            return False
        if "path_has" in m and m["path_has"] not in path:
            return False
        if "query" in m and m["query"] not in query:
            return False
        if "target" in m and self.target != m["target"]:
            return False
        if "action" in m and self.action != m["action"]:
            return False
        if "body" in m and m["body"].encode() not in self.body:
            return False
        return True


class Rules:
    def __init__(self):
        self._lock = threading.Lock()
        self._rules = []

    def add(self, specs):
        rules = [normalize_rule(s) for s in specs]
        with self._lock:
            self._rules.extend(rules)
            return [dict(r) for r in self._rules]

    def clear(self):
        with self._lock:
            self._rules = []

    def list(self):
        with self._lock:
            return [dict(r) for r in self._rules]

    def take(self, req):
        with self._lock:
            for rule in self._rules:
                if not req.matches(rule["match"]):
                    continue
                if rule["skip"] > 0:
                    rule["skip"] -= 1
                    return None
                rule["count"] -= 1
                rule["hits"] += 1
                if rule["count"] == 0:
                    self._rules.remove(rule)
                return dict(rule)
        return None


def error_reply(req, rule):
    """(status, headers, body) of an injected service error, in the request's protocol."""
    fault = rule["fault"]
    status = rule.get("status")
    code = rule.get("code")
    message = rule.get("message")
    if fault == "throttle":
        if req.protocol == "json":
            status, code = status or 400, code or "ThrottlingException"
        elif req.protocol == "query":
            status, code = status or 400, code or "Throttling"
        elif req.protocol == "rest-xml":
            status, code = status or 503, code or "SlowDown"
        else:
            status, code = status or 429, code or "ThrottlingException"
        message = message or "Rate exceeded"
    elif fault == "skew":
        status = status or 403
        if req.protocol in ("query", "rest-xml"):
            code = code or "RequestTimeTooSkewed"
            message = message or "The difference between the request time and the current time is too large."
        else:
            code = code or "InvalidSignatureException"
            message = message or "Signature expired: 20200101T000000Z is now earlier than 20240101T000000Z " \
                                 "(20240101T000500Z - 5 min.)"
    elif fault == "expired":
        status = status or 403
        code = code or ("ExpiredToken" if req.protocol in ("query", "rest-xml") else "ExpiredTokenException")
        message = message or "The security token included in the request is expired"
    elif fault == "html":
        body = b"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
        return status or 502, {"Content-Type": "text/html"}, body
    else:
        status = status or 500
        code = code or STATUS_CODES.get(status, "InternalFailure")
        message = message or "Injected fault: %s." % code
    headers = {"x-amzn-RequestId": "faultproxy-%d" % int(time.time() * 1000000)}
    if req.protocol == "json":
        headers["Content-Type"] = "application/x-amz-json-1.1"
        body = json.dumps({"__type": code, "message": message}).encode()
    elif req.protocol == "query":
        headers["Content-Type"] = "text/xml"
        body = ("<ErrorResponse><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error>"
                "<RequestId>faultproxy</RequestId></ErrorResponse>" % (code, message)).encode()
    elif req.protocol == "rest-xml":
        headers["Content-Type"] = "application/xml"
        body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>%s</Code><Message>%s</Message>"
                "<RequestId>faultproxy</RequestId></Error>" % (code, message)).encode()
    else:
        headers["Content-Type"] = "application/json"
        headers["x-amzn-ErrorType"] = code
        body = json.dumps({"message": message}).encode()
    return status, headers, body


class UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self._path)


class ProxyServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address, upstream, log_path=None):
        super().__init__(address, Handler)
        self.upstream = upstream
        parts = urlsplit(upstream)
        self.upstream_unix = parts.path if parts.scheme == "unix" else None
        self.upstream_host = parts.hostname
        self.upstream_port = parts.port or 80
        self.rules = Rules()
        self.requests = deque(maxlen=20000)
        self.seq = 0
        self.inflight = 0
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.log_file = open(log_path, "a", buffering=1) if log_path else None

    def handle_error(self, request, client_address):
        pass  # clients that hang up, resets we made: expected here

    def connect_upstream(self):
        if self.upstream_unix:
            return UnixHTTPConnection(self.upstream_unix, timeout=600)
        return http.client.HTTPConnection(self.upstream_host, self.upstream_port, timeout=600)

    def begin(self):
        with self.lock:
            self.inflight += 1

    def record(self, entry):
        with self.lock:
            self.inflight -= 1
            self.seq += 1
            entry["seq"] = self.seq
            self.requests.append(entry)
        if self.log_file:
            self.log_file.write("%(seq)d %(time).3f %(method)s %(path)s op=%(op)s fault=%(fault)s "
                                "status=%(status)s\n" % entry)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        try:
            if self.path.startswith(CONTROL + "/") or self.path == CONTROL:
                self._control()
            else:
                self._proxy()
        except (ConnectionError, BrokenPipeError, socket.timeout):
            self.close_connection = True

    do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = do_OPTIONS = do_GET

    # ---- plumbing ------------------------------------------------------------------

    def _read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _reply(self, status, headers, body, declared_length=None):
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body) if declared_length is None else declared_length))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.wfile.flush()

    def _reset(self):
        """Close with RST: the client sees 'connection reset by peer'."""
        try:
            self.wfile.flush()
        except OSError:
            pass
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    # ---- control API -------------------------------------------------------------------

    def _control(self):
        server = self.server
        body = self._read_body()
        path, _, query = self.path[len(CONTROL):].partition("?")
        path = path.strip("/")
        try:
            doc = json.loads(body) if body else {}
            if path == "health":
                out = {"ok": True, "rules": len(server.rules.list()), "requests": len(server.requests),
                       "upstream": server.upstream}
            elif path == "rules" and self.command == "GET":
                out = {"rules": server.rules.list()}
            elif path == "rules" and self.command == "DELETE":
                server.rules.clear()
                out = {"rules": []}
            elif path == "rules" and self.command == "POST":
                out = {"rules": server.rules.add(doc["rules"] if "rules" in doc else [doc])}
            elif path == "requests" and self.command == "GET":
                since = int(parse_qs(query).get("since", ["0"])[0])
                with server.lock:
                    out = {"requests": [r for r in server.requests if r["seq"] > since], "seq": server.seq,
                           "inflight": server.inflight}
            elif path == "requests" and self.command == "DELETE":
                server.requests.clear()
                out = {"requests": [], "seq": server.seq}
            elif path == "reset" and self.command == "POST":
                server.rules.clear()
                server.requests.clear()
                out = {"ok": True, "seq": server.seq}
            else:
                return self._reply(404, {"Content-Type": "application/json"},
                                   json.dumps({"message": "no such control call"}).encode())
        except (RuleError, ValueError, KeyError, TypeError) as exc:
            return self._reply(400, {"Content-Type": "application/json"}, json.dumps({"message": str(exc)}).encode())
        self._reply(200, {"Content-Type": "application/json"}, json.dumps(out).encode())

    # ---- forwarding -------------------------------------------------------------------------

    def _proxy(self):
        server = self.server
        server.begin()
        entry = {"time": time.time(), "method": self.command, "path": self.path.split("?", 1)[0],
                 "op": "%s %s" % (self.command, self.path.split("?", 1)[0]), "fault": None, "status": None}
        try:
            try:
                body = self._read_body()
            except (OSError, ValueError):
                entry["status"] = "unreadable"
                self.close_connection = True
                return
            req = Request(self.command, self.path, self.headers, body)
            entry["op"] = req.op
            rule = server.rules.take(req)
            fault = rule["fault"] if rule else None
            entry["fault"] = fault
            if fault in ("status", "throttle", "skew", "expired", "html"):
                status, headers, data = error_reply(req, rule)
                entry["status"] = status
                return self._reply(status, headers, data)
            if fault == "reset":
                entry["status"] = "reset"
                return self._reset()
            if fault == "stall":
                entry["status"] = "stall"
                self._stall(float(rule.get("stall_seconds", 600)))
                return self._reset()
            self._forward(req, entry, rule)
        finally:
            server.record(entry)

    def _stall(self, seconds):
        """Hold the request; return early when the client hangs up."""
        deadline = time.time() + seconds
        self.connection.settimeout(0.2)
        while time.time() < deadline and not self.server.stop_event.is_set():
            try:
                if self.connection.recv(1, socket.MSG_PEEK) == b"":
                    return
            except socket.timeout:
                continue
            except OSError:
                return
            time.sleep(0.2)

    def _forward(self, req, entry, rule):
        fault = rule["fault"] if rule else None
        conn = self.server.connect_upstream()
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
        if body_needs_length(self.command, req.body) or req.body:
            headers["Content-Length"] = str(len(req.body))
        try:
            conn.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
            for k, v in headers.items():
                conn.putheader(k, v)
            conn.endheaders(req.body if req.body else None)
            resp = conn.getresponse()
        except OSError as exc:
            entry["status"] = "upstream-error"
            data = ("faultproxy: upstream %s: %s" % (self.server.upstream, exc)).encode()
            return self._reply(502, {"Content-Type": "text/plain"}, data)
        entry["status"] = resp.status
        if fault == "reset_after":
            resp.read()
            conn.close()
            return self._reset()
        out_headers = [(k, v) for k, v in resp.getheaders() if k.lower() not in HOP_BY_HOP | {"content-length"}]
        bodiless = self.command == "HEAD" or resp.status in (204, 304) or 100 <= resp.status < 200
        if bodiless and fault not in ("truncate", "cut_stream", "stream_error"):
            resp.read()
            conn.close()
            self.send_response(resp.status)
            for k, v in out_headers:
                self.send_header(k, v)
            if resp.getheader("Content-Length") is not None:
                self.send_header("Content-Length", resp.getheader("Content-Length"))
            self.end_headers()
            self.wfile.flush()
            return
        streaming = resp.getheader("Content-Length") is None and self.command != "HEAD"
        if fault == "truncate" or not streaming:
            data = resp.read() if self.command != "HEAD" else b""
            conn.close()
            self.send_response(resp.status)
            for k, v in out_headers:
                self.send_header(k, v)
            declared = resp.getheader("Content-Length") if self.command == "HEAD" else str(len(data))
            if fault == "truncate":
                declared = str(max(len(data), 1))  # an empty body is cut short too: promise one byte
            self.send_header("Content-Length", declared or "0")
            self.end_headers()
            if fault == "truncate":
                cut = int(rule.get("truncate_to", len(data) // 2))
                self.wfile.write(data[:max(0, min(cut, len(data) - 1))])
                self.wfile.flush()
                return self._reset()
            if fault == "cut_stream":
                self.wfile.write(data[:int(rule.get("cut_after", len(data) // 2))])
                return self._reset()
            self.wfile.write(data)
            self.wfile.flush()
            return
        # A stream (chunked from upstream): relay it chunked, as it comes.
        self.send_response(resp.status)
        for k, v in out_headers:
            self.send_header(k, v)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        sent = 0
        cut = int(rule.get("cut_after", 512)) if fault in ("cut_stream", "stream_error") else None
        try:
            while True:
                piece = resp.read1(65536)
                if not piece:
                    break
                if cut is not None and sent + len(piece) >= cut:
                    # whole lines only, so the stream stays well-formed up to the cut
                    piece = piece[:max(0, cut - sent)]
                    if fault == "stream_error":
                        piece = piece[:piece.rfind(b"\n") + 1]
                    if piece:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                    if fault == "stream_error":
                        msg = rule.get("message") or "received unexpected HTTP status: 502 Bad Gateway"
                        line = json.dumps({"errorDetail": {"message": msg}, "error": msg}).encode() + b"\r\n"
                        self.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(line), line))
                        self.wfile.flush()
                        conn.close()
                        return
                    self.wfile.flush()
                    conn.close()
                    return self._reset()
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                self.wfile.flush()
                sent += len(piece)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        finally:
            conn.close()


def body_needs_length(method, body):
    return method in ("POST", "PUT", "PATCH")


def start(upstream, host="127.0.0.1", port=0, log_path=None):
    """Start a proxy in a background thread (for Python tests); returns the server (.server_port)."""
    server = ProxyServer((host, port), upstream, log_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--upstream", required=True, help="http://HOST:PORT or unix:///PATH")
    ap.add_argument("--listen", default="127.0.0.1:0", help="loopback address:port (0: any free port)")
    ap.add_argument("--port-file", help="write the port here once listening")
    ap.add_argument("--log", help="append one line per request here")
    args = ap.parse_args()
    host, _, port = args.listen.rpartition(":")
    if host not in ("127.0.0.1", "::1", "localhost"):
        ap.error("faultproxy listens on loopback only")
    server = ProxyServer((host, int(port)), args.upstream, args.log)
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write("%d\n" % server.server_port)
        os.rename(tmp, args.port_file)
    print("faultproxy: 127.0.0.1:%d -> %s" % (server.server_port, args.upstream), file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop_event.set()
        server.server_close()


if __name__ == "__main__":
    main()
