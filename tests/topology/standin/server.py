"""HTTP front of the Braket stand-in: REST-JSON requests in, JSON answers out.

For a Braket request: route by the model (method + requestUri), apply an injected
fault if one matches, verify the SigV4 signature, read and validate the input
against botocore's model, run the operation, check the answer against the output
shape, reply. Paths under /_standin/ are the test control API (no signature):

  GET  /_standin/health                      {"ok": true, ...}
  GET  /_standin/config   POST (partial JSON) the job clock and limits (service.DEFAULT_CONFIG)
  POST /_standin/reset                       forget jobs, faults, request log; default config/devices
  GET  /_standin/jobs                        every job, with clientToken/pinned/region
  GET  /_standin/jobs/<name|arn>             one job
  POST /_standin/jobs/<name|arn>/set-status  {"status", "failureReason"?, "pin"?: true}
  GET  /_standin/devices
  POST /_standin/devices/<arn|name>/set-status {"deviceStatus": "ONLINE"|"OFFLINE"|"RETIRED"}
  GET  /_standin/faults   POST (one fault or {"faults": [...]})   DELETE
  GET  /_standin/requests[?since=SEQ]        the request log (no secrets)   DELETE clears it
  POST /_standin/credentials                 {"accessKeyId", "secretAccessKey", "sessionToken"?}

<arn> in a control path is URL-encoded whole, like in the API.
"""

import datetime
import json
import socket
import struct
import threading
import time
import traceback
import uuid
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

from . import faults as faults_mod
from . import model, sigv4
from .service import Service, ServiceError

ERROR_TYPE_SUFFIX = ":http://internal.amazon.com/coral/com.amazon.braket/"


class Credentials:
    def __init__(self):
        self._lock = threading.Lock()
        self._keys = {}

    def add(self, access_key, secret_key, session_token=None):
        if not access_key or not secret_key:
            raise ValueError("accessKeyId and secretAccessKey are required")
        with self._lock:
            self._keys[access_key] = (secret_key, session_token)

    def load_file(self, path):
        with open(path) as f:
            for entry in json.load(f):
                self.add(entry["accessKeyId"], entry["secretAccessKey"], entry.get("sessionToken"))

    def lookup(self, access_key):
        with self._lock:
            return self._keys.get(access_key)


class StandinServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128
    allow_reuse_address = True

    def __init__(self, address, account, credentials, log_path=None, initial_config=None):
        super().__init__(address, Handler)
        self.service = Service(account)
        self.initial_config = dict(initial_config or {})
        if self.initial_config:
            self.service.update_config(dict(self.initial_config))
        self.service_model = model.load_service_model("braket")
        self.router = model.Router(self.service_model)
        self.credentials = credentials
        self.faults = faults_mod.FaultQueue()
        self.requests = deque(maxlen=20000)
        self.request_seq = 0
        self.record_lock = threading.Lock()
        self.log_file = open(log_path, "a", buffering=1) if log_path else None

    def record(self, entry):
        with self.record_lock:
            self.request_seq += 1
            entry["seq"] = self.request_seq
            self.requests.append(entry)
        self.log_line("%s %s %s %s %s %s key=%s fault=%s" % (
            entry["time"], entry["method"], entry["path"], entry.get("operation") or "-",
            entry["status"], entry.get("error") or "-", entry.get("accessKeyId") or "-",
            entry.get("fault") or "-"))

    def log_line(self, line):
        if self.log_file:
            with self.record_lock:
                self.log_file.write(line + "\n")


def _now_iso():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # a buffered writer, flushed once per response: headers and body leave in one segment
    # (two small writes meet Nagle's algorithm and the client's delayed ACK on every page)
    wbufsize = 64 * 1024
    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def version_string(self):
        return "BraketStandin"

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self._dispatch()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET

    # ---- plumbing ------------------------------------------------------------------

    def _read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            chunks = []
            while True:
                size_line = self.rfile.readline()
                size = int(size_line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status, body, content_type="application/json", extra=None):
        data = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-amzn-RequestId", self.request_id)
        for name, value in (extra or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        self.wfile.flush()
        return status

    def _send_error(self, status, error_type, message, extra=None):
        headers = {"x-amzn-ErrorType": error_type + ERROR_TYPE_SUFFIX}
        headers.update(extra or {})
        self.entry["error"] = error_type
        return self._send(status, {"message": message}, extra=headers)

    def _reset_connection(self):
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass
        return 0

    def _dispatch(self):
        self.request_id = str(uuid.uuid4())
        raw_path, _, raw_query = self.path.partition("?")
        self.entry = {"time": _now_iso(), "method": self.command, "path": raw_path, "requestId": self.request_id}
        try:
            body = self._read_body()
        except (ValueError, OSError):
            self.close_connection = True
            return
        if raw_path.startswith("/_standin/") or raw_path == "/_standin":
            self._control(raw_path, raw_query, body)
            return
        try:
            status = self._api(raw_path, raw_query, body)
        except Exception:  # a stand-in bug must show up as a 500 with a traceback in its output
            traceback.print_exc()
            status = self._send_error(500, "InternalServiceException", "stand-in error; see its output")
        self.entry["status"] = status
        self.server.record(self.entry)

    # ---- the Braket API ------------------------------------------------------------

    def _api(self, raw_path, raw_query, body):
        server = self.server
        route = server.router.match(self.command, raw_path)
        if route is None:
            return self._send_error(404, "UnknownOperationException", "Unknown operation %s %s" % (self.command, raw_path))
        op, labels = route
        self.entry["operation"] = op.name

        fault = server.faults.take(op.name)
        if fault:
            self.entry["fault"] = fault["action"] + (":" + fault["error"] if fault["action"] == "error" else "")
            if fault["delay_seconds"]:
                time.sleep(float(fault["delay_seconds"]))
            if fault["action"] == "drop":
                return self._reset_connection()
            if fault["action"] == "error":
                extra = {"Retry-After": str(fault["retry_after"])} if fault.get("retry_after") is not None else {}
                if fault.get("body") is not None:
                    self.entry["error"] = fault["error"]
                    return self._send(fault["status"], fault["body"].encode(),
                                      content_type=fault.get("content_type", "text/html"), extra=extra)
                return self._send_error(fault["status"], fault["error"], fault["message"], extra)

        try:
            auth = sigv4.verify(self.command, raw_path, raw_query, list(self.headers.items()), body,
                                server.credentials.lookup, "braket",
                                max_skew_seconds=server.service.config["max_clock_skew_seconds"])
        except sigv4.AuthError as exc:
            return self._send_error(exc.status, exc.error_type, exc.message)
        self.entry["accessKeyId"] = auth.access_key
        self.entry["region"] = auth.region

        try:
            query_pairs = sigv4._canonical_query_pairs(raw_query)
            params = model.parse_input(op, labels, query_pairs, list(self.headers.items()), body.decode("utf-8"))
        except UnicodeDecodeError:
            return self._send_error(400, "SerializationException", "The request body is not UTF-8.")
        except model.RequestError as exc:
            return self._send_error(exc.status, exc.error_type, exc.message)
        if isinstance(params.get("clientToken"), str):
            self.entry["clientToken"] = params["clientToken"]
        errors = model.validate(op.input_shape, params) if op.input_shape else []
        if errors:
            return self._send_error(400, "ValidationException", model.summarize(errors))

        operation = getattr(server.service, op.name, None)
        if operation is None:
            return self._send_error(404, "UnknownOperationException",
                                    "The Braket stand-in does not serve %s." % op.name)
        try:
            with server.service.lock:
                status, out = operation(params, {"region": auth.region, "accessKey": auth.access_key})
        except ServiceError as exc:
            return self._send_error(exc.status, exc.error_type, exc.message)

        problems = model.validate(op.output_shape, out) if op.output_shape else []
        if problems:
            self.entry["error"] = "StandinOutputInvalid"
            return self._send_error(500, "InternalServiceException",
                                    "stand-in produced output outside the model: " + model.summarize(problems))
        if fault and fault["action"] == "drop_after":
            return self._reset_connection()
        return self._send(status, out)

    # ---- the control API -----------------------------------------------------------

    def _control(self, raw_path, raw_query, body):
        try:
            doc = json.loads(body) if body.strip() else {}
        except ValueError:
            self._send(400, {"error": "body is not JSON"})
            return
        parts = [unquote(p) for p in raw_path.split("/")[2:] if p]
        server, service = self.server, self.server.service
        method = self.command
        try:
            with service.lock:
                result = self._control_route(method, parts, raw_query, doc, server, service)
        except (ServiceError, faults_mod.FaultError, ValueError, KeyError, TypeError) as exc:
            self._send(400, {"error": getattr(exc, "message", None) or str(exc)})
            server.log_line("%s CONTROL %s %s 400" % (_now_iso(), method, raw_path))
            return
        if result is None:
            status = self._send(404, {"error": "no control endpoint %s %s" % (method, raw_path)})
        else:
            status = self._send(200, result)
        server.log_line("%s CONTROL %s %s %s" % (_now_iso(), method, raw_path, status))

    def _control_route(self, method, parts, raw_query, doc, server, service):
        head = parts[0] if parts else ""
        if head == "health" and method == "GET":
            return {"ok": True, "jobs": len(service.jobs), "faults": len(server.faults.list())}
        if head == "config":
            if method == "POST":
                return service.update_config(dict(doc))
            if method == "GET":
                return dict(service.config)
        if head == "reset" and method == "POST":
            service.reset()
            if server.initial_config:
                service.update_config(dict(server.initial_config))
            server.faults.clear()
            with server.record_lock:
                server.requests.clear()
            return {"ok": True}
        if head == "jobs":
            service.advance_all()
            if len(parts) == 1 and method == "GET":
                return {"jobs": [service.dump_job(j) for j in sorted(service.jobs.values(), key=lambda j: j.seq)]}
            job = service.find_job(parts[1]) if len(parts) > 1 else None
            if job is None:
                raise ServiceError(404, "ResourceNotFoundException", "no job %s" % (parts[1:] or ""))
            if len(parts) == 2 and method == "GET":
                return service.dump_job(job)
            if len(parts) == 3 and parts[2] == "set-status" and method == "POST":
                return service.set_status(job, doc["status"], doc.get("failureReason"), doc.get("pin", True))
        if head == "devices":
            if len(parts) == 1 and method == "GET":
                return {"devices": list(service.devices.values())}
            if len(parts) == 3 and parts[2] == "set-status" and method == "POST":
                device = service.devices.get(parts[1]) or next(
                    (d for d in service.devices.values() if d["deviceName"] == parts[1]), None)
                if device is None:
                    raise ServiceError(404, "ResourceNotFoundException", "no device %s" % parts[1])
                if doc["deviceStatus"] not in ("ONLINE", "OFFLINE", "RETIRED"):
                    raise ValueError("deviceStatus must be ONLINE, OFFLINE or RETIRED")
                device["deviceStatus"] = doc["deviceStatus"]
                return dict(device)
        if head == "faults":
            if method == "GET":
                return {"faults": server.faults.list()}
            if method == "DELETE":
                server.faults.clear()
                return {"faults": []}
            if method == "POST":
                specs = doc["faults"] if "faults" in doc else [doc]
                return {"faults": server.faults.add(specs)}
        if head == "requests":
            if method == "DELETE":
                with server.record_lock:
                    server.requests.clear()
                return {"requests": []}
            if method == "GET":
                since = 0
                for item in raw_query.split("&"):
                    key, _, val = item.partition("=")
                    if key == "since":
                        since = int(val)
                with server.record_lock:
                    return {"requests": [dict(r) for r in server.requests if r["seq"] > since],
                            "last": server.request_seq}
        if head == "credentials" and method == "POST":
            server.credentials.add(doc["accessKeyId"], doc["secretAccessKey"], doc.get("sessionToken"))
            return {"ok": True, "accessKeyId": doc["accessKeyId"]}
        return None
