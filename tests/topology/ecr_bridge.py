#!/usr/bin/env python3
"""The registry -> moto bridge of the test topology.

On real ECR the registry and the control plane are one service: an image pushed with
`docker push` shows up in DescribeImages with the digest of its manifest. In the topology
they are two programs (docker-registry and moto). The registry posts a notification for
every manifest it stores (config.yml `notifications: endpoints:`); this listener takes the
push events, fetches the manifest from the registry (htpasswd credentials, the test CA),
checks its digest, and records it in moto with ECR PutImage (signed by boto3 with the
topology's key), so DescribeImages lists the image with the registry's digest and tag.
A manifest deleted from the registry is deleted from moto too (BatchDeleteImage).

As on ECR, a push to a repository that ECR does not know is not recorded (real ECR refuses
such a push with "name unknown"; the test registry cannot, so the bridge logs it).

  ecr_bridge.py --port PORT --config FILE [--host 127.0.0.1] [--log FILE]

FILE (JSON, mode 0600, read again for every event so a new moto key takes effect):
  {"moto_url", "region", "access_key_id", "secret_access_key",
   "registry_url", "registry_ca", "registry_user", "registry_password", "token"}
The registry must send "Authorization: Bearer <token>"; anything else gets 401.

GET /health  -> {"ok": true, "events": N, "recorded": N, "deleted": N, "ignored": N, "errors": N}
GET /recent  -> the last 200 outcomes [{"time", "action", "repository", "digest", "tag", "outcome"}]
"""

import argparse
import base64
import collections
import hashlib
import http.server
import json
import os
import ssl
import sys
import threading
import time
import urllib.error
import urllib.request

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError, EndpointConnectionError, ConnectionClosedError

MANIFEST_TYPES = (
    "application/vnd.docker.distribution.manifest.v2+json",
    "application/vnd.docker.distribution.manifest.list.v2+json",
    "application/vnd.oci.image.manifest.v1+json",
    "application/vnd.oci.image.index.v1+json",
)
NO_RETRY = Config(retries={"total_max_attempts": 2, "mode": "standard"})


class Transient(Exception):
    """The registry should send the event again later (moto or the registry did not answer)."""


class Bridge:
    def __init__(self, config_path, log_path):
        self.config_path = config_path
        self.log_file = open(log_path, "a", buffering=1) if log_path else sys.stderr
        self.lock = threading.Lock()
        self.counts = collections.Counter()
        self.recent = collections.deque(maxlen=200)

    def log(self, message):
        self.log_file.write("%s %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), message))

    def config(self):
        with open(self.config_path) as f:
            return json.load(f)

    def note(self, action, repository, digest, tag, outcome):
        with self.lock:
            self.recent.append({"time": time.time(), "action": action, "repository": repository,
                                "digest": digest, "tag": tag, "outcome": outcome})
        self.log("%s %s@%s%s: %s" % (action, repository, digest, " tag " + tag if tag else "", outcome))

    def ecr(self, cfg):
        return boto3.session.Session().client(
            "ecr", region_name=cfg["region"], endpoint_url=cfg["moto_url"], config=NO_RETRY,
            aws_access_key_id=cfg["access_key_id"], aws_secret_access_key=cfg["secret_access_key"])

    def fetch_manifest(self, cfg, repository, digest, media_type):
        url = "%s/v2/%s/manifests/%s" % (cfg["registry_url"], repository, digest)
        auth = base64.b64encode(("%s:%s" % (cfg["registry_user"], cfg["registry_password"])).encode()).decode()
        request = urllib.request.Request(url, headers={"Authorization": "Basic " + auth,
                                                       "Accept": ", ".join((media_type,) + MANIFEST_TYPES)})
        context = ssl.create_default_context(cafile=cfg["registry_ca"])
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}),
                                             urllib.request.HTTPSHandler(context=context))
        try:
            with opener.open(request, timeout=30) as response:
                return response.read(), response.headers.get("Content-Type", media_type)
        except urllib.error.HTTPError as exc:
            if exc.code == 404:
                return None, None  # deleted again since: nothing to record
            raise Transient("registry answered %d for %s" % (exc.code, url))
        except (urllib.error.URLError, OSError) as exc:
            raise Transient("registry unreachable: %s" % exc)

    def repository_known(self, ecr, repository):
        try:
            ecr.describe_repositories(repositoryNames=[repository])
            return True
        except ClientError as exc:
            if exc.response["Error"]["Code"] == "RepositoryNotFoundException":
                return False
            raise

    def record_push(self, cfg, event):
        target = event.get("target", {})
        repository, digest, tag = target.get("repository"), target.get("digest"), target.get("tag")
        media_type = target.get("mediaType", "")
        if media_type not in MANIFEST_TYPES or not repository or not digest:
            return "ignored"
        body, content_type = self.fetch_manifest(cfg, repository, digest, media_type)
        if body is None:
            self.note("push", repository, digest, tag, "ignored: the manifest is gone from the registry")
            return "ignored"
        actual = "sha256:" + hashlib.sha256(body).hexdigest()
        if actual != digest:
            self.note("push", repository, digest, tag, "error: the registry served %s" % actual)
            return "errors"
        ecr = self.ecr(cfg)
        try:
            if not self.repository_known(ecr, repository):
                self.note("push", repository, digest, tag,
                          "ignored: ECR has no repository %s (real ECR refuses such a push)" % repository)
                return "ignored"
            params = {"repositoryName": repository, "imageManifest": body.decode("utf-8"),
                      "imageManifestMediaType": content_type.split(";")[0].strip() or media_type,
                      "imageDigest": digest}
            if tag:
                params["imageTag"] = tag
            ecr.put_image(**params)
        except ClientError as exc:
            code = exc.response["Error"]["Code"]
            if code == "ImageAlreadyExistsException":
                self.note("push", repository, digest, tag, "already recorded")
                return "recorded"
            if exc.response["ResponseMetadata"].get("HTTPStatusCode", 0) >= 500:
                raise Transient("moto answered %s" % code)
            self.note("push", repository, digest, tag, "error: %s: %s" % (code, exc.response["Error"].get("Message")))
            return "errors"
        except (EndpointConnectionError, ConnectionClosedError) as exc:
            raise Transient("moto unreachable: %s" % exc)
        self.note("push", repository, digest, tag, "recorded in ECR")
        return "recorded"

    def record_delete(self, cfg, event):
        target = event.get("target", {})
        repository, digest = target.get("repository"), target.get("digest")
        if not repository or not digest:
            return "ignored"
        ecr = self.ecr(cfg)
        try:
            if not self.repository_known(ecr, repository):
                return "ignored"
            ecr.batch_delete_image(repositoryName=repository, imageIds=[{"imageDigest": digest}])
        except ClientError as exc:
            self.note("delete", repository, digest, None, "error: %s" % exc.response["Error"]["Code"])
            return "errors"
        except (EndpointConnectionError, ConnectionClosedError) as exc:
            raise Transient("moto unreachable: %s" % exc)
        self.note("delete", repository, digest, None, "deleted from ECR")
        return "deleted"

    def handle(self, envelope):
        cfg = self.config()
        for event in envelope.get("events", []):
            with self.lock:
                self.counts["events"] += 1
            action = event.get("action")
            if action == "push":
                outcome = self.record_push(cfg, event)
            elif action == "delete":
                outcome = self.record_delete(cfg, event)
            else:
                outcome = "ignored"
            with self.lock:
                self.counts[outcome] += 1


def make_handler(bridge):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):
            pass

        def reply(self, status, doc):
            data = json.dumps(doc).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if self.path == "/health":
                with bridge.lock:
                    counts = dict(bridge.counts)
                doc = {"ok": True}
                for key in ("events", "recorded", "deleted", "ignored", "errors"):
                    doc[key] = counts.get(key, 0)
                self.reply(200, doc)
            elif self.path == "/recent":
                with bridge.lock:
                    self.reply(200, list(bridge.recent))
            else:
                self.reply(404, {"error": "unknown path"})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            if self.path != "/events":
                self.reply(404, {"error": "unknown path"})
                return
            try:
                token = bridge.config()["token"]
            except (OSError, ValueError, KeyError) as exc:
                bridge.log("cannot read the config: %s" % exc)
                self.reply(503, {"error": "no config"})
                return
            if self.headers.get("Authorization") != "Bearer " + token:
                self.reply(401, {"error": "unauthorized"})
                return
            try:
                envelope = json.loads(body)
            except ValueError:
                self.reply(400, {"error": "not JSON"})
                return
            try:
                bridge.handle(envelope)
            except Transient as exc:
                bridge.log("will be retried: %s" % exc)
                self.reply(503, {"error": str(exc)})
                return
            except Exception as exc:  # a bug here must not make the registry retry forever
                bridge.log("error: %r" % exc)
                with bridge.lock:
                    bridge.counts["errors"] += 1
            self.reply(200, {"ok": True})

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--config", required=True)
    parser.add_argument("--log")
    args = parser.parse_args()
    if not os.path.exists(args.config):
        sys.exit("ecr_bridge: %s does not exist" % args.config)
    bridge = Bridge(args.config, args.log)
    server = http.server.ThreadingHTTPServer((args.host, args.port), make_handler(bridge))
    bridge.log("listening on http://%s:%d/events" % (args.host, args.port))
    server.serve_forever()


if __name__ == "__main__":
    main()
