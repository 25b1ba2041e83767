#!/usr/bin/env python3
"""A loopback front for moto that tests put between byoc and moto (AWS_ENDPOINT_URL).

It forwards every request to moto unchanged (moto still checks each SigV4 signature) and:
  - counts them by operation (X-Amz-Target for JSON services, Action for query ones), so a
    test can prove that bad input sent nothing;
  - pages DescribeImages, ListImages and DescribeRepositories as ECR does: moto 5 ignores
    maxResults and nextToken and answers everything at once, so the front slices moto's full
    answer (maxResults, default 100 for images, 1000 for repositories; an opaque nextToken)
    and returns one page. The request is forwarded as sent, so the signature is moto's to judge.

As a module:   front = EcrFront(upstream).start(); front.url; front.count("DescribeImages");
               front.counts(); front.reset(); front.stop()
As a program:  ecr_front.py --upstream URL   prints "PORT=<n>" and serves until stdin closes
               (for C tests); GET /_front/counts -> {"Op": n}, POST /_front/reset.
"""

import argparse
import base64
import collections
import http.client
import http.server
import json
import sys
import threading
from urllib.parse import parse_qs, urlsplit

PAGED = {
    "AmazonEC2ContainerRegistry_V20150921.DescribeImages": ("imageDetails", 100, "imageIds"),
    "AmazonEC2ContainerRegistry_V20150921.ListImages": ("imageIds", 100, None),
    "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories": ("repositories", 1000, "repositoryNames"),
}
HOP_HEADERS = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection"}


def operation_of(headers, body):
    target = headers.get("X-Amz-Target")
    if target:
        return target.rsplit(".", 1)[-1]
    try:
        action = parse_qs(body.decode("utf-8", "replace")).get("Action")
    except ValueError:
        action = None
    return action[0] if action else "?"


def encode_token(offset, key):
    return base64.urlsafe_b64encode(json.dumps({"o": offset, "k": key}).encode()).decode()


def decode_token(token, key):
    try:
        doc = json.loads(base64.urlsafe_b64decode(token.encode()))
    except (ValueError, TypeError):
        return None
    if not isinstance(doc, dict) or doc.get("k") != key or not isinstance(doc.get("o"), int):
        return None
    return doc["o"]


class EcrFront:
    def __init__(self, upstream, host="127.0.0.1", port=0):
        self.upstream = urlsplit(upstream)
        self.lock = threading.Lock()
        self._counts = collections.Counter()
        self.server = http.server.ThreadingHTTPServer((host, port), self._handler())
        self.server.daemon_threads = True
        self.url = "http://%s:%d" % (host, self.server.server_address[1])
        self.thread = None

    def start(self):
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def count(self, op=None):
        with self.lock:
            return sum(self._counts.values()) if op is None else self._counts.get(op, 0)

    def counts(self):
        with self.lock:
            return dict(self._counts)

    def reset(self):
        with self.lock:
            self._counts.clear()

    def _forward(self, method, path, headers, body):
        conn = http.client.HTTPConnection(self.upstream.hostname, self.upstream.port, timeout=120)
        send = {k: v for k, v in headers.items() if k.lower() not in HOP_HEADERS}
        conn.request(method, path, body=body, headers=send)
        resp = conn.getresponse()
        data = resp.read()
        out = (resp.status, [(k, v) for k, v in resp.getheaders() if k.lower() not in HOP_HEADERS], data)
        conn.close()
        return out

    def _page(self, target, request_body, status, data):
        """Slice moto's full answer into one ECR page. Returns (status, body) or None to pass through."""
        key, default_page, exclusive = PAGED[target]
        try:
            req = json.loads(request_body or b"{}")
            reply = json.loads(data)
        except ValueError:
            return None
        if status != 200 or (exclusive and req.get(exclusive)):
            return None
        items = reply.get(key, [])
        scope = "%s:%s" % (target, req.get("repositoryName", ""))
        offset = 0
        if req.get("nextToken") is not None:
            offset = decode_token(req["nextToken"], scope)
            if offset is None:
                return 400, json.dumps({"__type": "InvalidParameterException",
                                        "message": "Invalid parameter at 'nextToken' failed to satisfy "
                                                   "constraint: 'The token is not valid'"}).encode()
        size = req.get("maxResults") or default_page
        reply[key] = items[offset:offset + size]
        reply.pop("nextToken", None)
        if offset + size < len(items):
            reply["nextToken"] = encode_token(offset + size, scope)
        return 200, json.dumps(reply).encode()

    def _handler(self):
        front = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, fmt, *args):
                pass

            def _reply(self, status, headers, body):
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _control(self):
                if self.path == "/_front/counts":
                    body = json.dumps(front.counts()).encode()
                elif self.path == "/_front/reset" and self.command == "POST":
                    front.reset()
                    body = b"{}"
                else:
                    self._reply(404, [], b"")
                    return
                self._reply(200, [("Content-Type", "application/json")], body)

            def _any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                if self.path.startswith("/_front/"):
                    self._control()
                    return
                headers = {k: v for k, v in self.headers.items()}
                op = operation_of(self.headers, body)
                with front.lock:
                    front._counts[op] += 1
                try:
                    status, rheaders, data = front._forward(self.command, self.path, headers, body or None)
                except OSError as exc:
                    self._reply(502, [("Content-Type", "text/plain")], str(exc).encode())
                    return
                target = self.headers.get("X-Amz-Target")
                if target in PAGED:
                    paged = front._page(target, body, status, data)
                    if paged:
                        status, data = paged
                self._reply(status, rheaders, data)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _any

        return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    args = parser.parse_args()
    front = EcrFront(args.upstream).start()
    print("PORT=%d" % front.server.server_address[1], flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin
    front.stop()


if __name__ == "__main__":
    main()
