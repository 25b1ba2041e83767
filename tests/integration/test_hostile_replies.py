#!/usr/bin/env python3
# byoc-test: self-contained (tests/CMakeLists.txt: runs without the shared topology)
"""byoc against hostile AWS services: Braket, CloudWatch Logs, ECR, IAM, STS and S3 played by a small
server of its own on loopback, beside a fake Docker engine; it needs none of the shared topology.

Every verb that prints service fields (jobs, status, logs, cancel; images --repository and doctor in
test_images_shapes and test_doctor_shapes), plain and --json:
- escape sequences in every job field never reach the terminal plain; --json keeps them exactly;
- replies with missing and mistyped fields never crash byoc;
- SearchJobs answering the same nextToken forever: a clear error, no endless paging; distinct
  tokens forever: the page bound ends it;
- the same for every other paginator a verb reaches (its own endpoints for ECR, IAM and STS):
  images --repository (DescribeRepositories, DescribeImages), permit --check (SimulatePrincipalPolicy,
  ListAttachedRolePolicies), run's default role (ListRoles) and --copy-checkpoints-from-job
  (ListObjectsV2), status's metrics (DescribeLogStreams, FilterLogEvents);
- a registry (a CONNECT proxy that answers TLS for the ECR registry host itself) whose index for
  images --repository never ends or drips: the 4 MiB manifest cap, the API deadline;
- results whose model.tar.gz is larger than BYOC_RESULTS_MAX_BYTES: refused by Content-Length or
  while streaming, nothing left behind;
- a reply far larger than any API reply: a clear error after the cap, not all of it in memory;
- results without -o: a job name from the reply that is no job name ('../x') is refused, nothing written;
- a reply that drips a byte at a time: the API deadline (BYOC_API_TIMEOUT, short here) ends it, and
  it bounds the call with its retries (test_deadline_retries: five attempts allowed, one or two made);
- images --repository against ECR listings and a registry index with escapes, missing and mistyped
  fields, digests that are paths (never fetched); doctor against an engine and STS doing the same.

And the verbs that print ECR, IAM, STS, GetDevice, CreateJob and S3 fields (permit show, --allow,
--revoke, --check; run --dry-run and submit; preflight; push against a fake engine), on a pipe and on
a terminal (a pty): the raw bytes of stdout and stderr hold no ESC, BEL or C1 control (U+0080-U+009F
as UTF-8), and --json's raw bytes escape U+009B as \\u009b; a field cut to its buffer mid-character
is still in the --json document.
Run: python3 tests/integration/test_hostile_replies.py [CASE...] (BYOC_BIN names the byoc to test; the
caller's AWS_*, DOCKER_* and BYOC_* settings are dropped)
"""

import base64
import json
import os
import pty
import re
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import BYOC_BIN as BYOC, Checks  # noqa: E402

T = Checks("test_hostile_replies")
ARN = "arn:aws:braket:us-east-1:123456789012:job/hostile"
EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\x07"
STATE = {"mode": "escape", "calls": 0, "ops": {}, "sent": 0}
ACCOUNT = "123456789012"
REG_HOST = "987654321098.dkr.ecr.us-east-1.amazonaws.com"  # not the topology's registry host
REPO = "hostile-repo"
INDEX_DIGEST = "sha256:" + "ab" * 32
OCI_INDEX = "application/vnd.oci.image.index.v1+json"


def evil(word):
    return word + EVIL


# expat refuses C0 controls even as character references: XML replies carry C1 CSIs and a CR
XML_EVIL = "&#x9b;2J&#x9b;31m&#xd;FAKE"
REGISTRY = "123456789012.dkr.ecr.us-east-1.amazonaws.com"
IMAGE = REGISTRY + "/amazon-braket-hostile:latest"
ROLE = "arn:aws:iam::123456789012:role/service-role/AmazonBraketJobsExecutionRole"
DIGEST = "sha256:" + "b" * 64


def policy():
    return {"Version": "2012-10-17", "Statement": [
        {"Sid": evil("Sid"), "Effect": "Allow", "Principal": {"AWS": evil("arn:aws:iam::123456789012:root")},
         "Action": ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]},
        # a Sid and a principal longer than a lint finding holds, cut mid-character before the fix
        {"Sid": "s" * 78 + "\u00e9" * 3, "Effect": "Allow", "Principal": {"AWS": "not-an-arn" + "\u00e9" * 200},
         "Action": ["ecr:BatchGetImage"]}]}


def ecr(op, body):
    # the registry host as ECR names it, in the URI and the token's endpoint: hostile, or valid so a push goes on
    host = REGISTRY if "clean-host" in STATE["mode"] else REGISTRY + EVIL
    if op in ("DescribeRepositories", "CreateRepository"):
        if op == "DescribeRepositories" and "no-repo" in STATE["mode"]:
            return {"__type": "RepositoryNotFoundException", "message": evil("no repository")}, 400
        name = (body.get("repositoryNames") or [body.get("repositoryName") or "x"])[0]
        repo = {"repositoryName": name, "repositoryArn": evil("arn:aws:ecr:us-east-1:123456789012:repository/x"),
                "registryId": "123456789012", "repositoryUri": host + "/" + name}
        return ({"repositories": [repo]} if op == "DescribeRepositories" else {"repository": repo}), 200
    if op in ("DescribeImages", "ListImages"):
        return {"imageDetails": [{"imageDigest": DIGEST, "imageTags": ["latest", evil("tag")],
                                  "imagePushedAt": 1700000000, "imageSizeInBytes": 1000,
                                  "imageManifestMediaType": evil("application/vnd.docker")}]}, 200
    if op == "GetAuthorizationToken":
        if STATE["mode"] == "no-token":
            return {"__type": "AccessDeniedException", "message": evil("not allowed")}, 400
        return {"authorizationData": [{"authorizationToken": "QVdTOnB3", "proxyEndpoint": "https://" + host,
                                       "expiresAt": 1900000000}]}, 200
    if op == "GetRepositoryPolicy":
        return {"registryId": "123456789012", "repositoryName": evil("x"), "policyText": json.dumps(policy())}, 200
    if op in ("SetRepositoryPolicy", "DeleteRepositoryPolicy"):
        return {"registryId": "123456789012", "repositoryName": evil("x"),
                "policyText": body.get("policyText", "")}, 200
    return {"__type": "UnknownOperationException", "message": evil(op)}, 400


def query(action):
    """STS and IAM (query protocol, XML replies)."""
    x = XML_EVIL
    if action == "GetCallerIdentity" and STATE["mode"] == "mistyped":  # no Account, an Arn of elements
        return ("<GetCallerIdentityResponse><GetCallerIdentityResult><Arn><member>a</member><member>b</member>"
                "</Arn><UserId/></GetCallerIdentityResult></GetCallerIdentityResponse>"), 200
    if action == "GetCallerIdentity":
        return ("<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account>"
                "<Arn>arn:aws:iam::123456789012:user/x%s</Arn><UserId>AIDA%s</UserId></GetCallerIdentityResult>"
                "</GetCallerIdentityResponse>" % (x, x)), 200
    if action == "ListRoles":
        return ("<ListRolesResponse><ListRolesResult><Roles><member><RoleName>AmazonBraketJobsExecutionRole%s"
                "</RoleName><Arn>%s</Arn><Path>/service-role/</Path></member></Roles><IsTruncated>false"
                "</IsTruncated></ListRolesResult></ListRolesResponse>" % (x, ROLE)), 200
    if action == "SimulatePrincipalPolicy":
        return ("<SimulatePrincipalPolicyResponse><SimulatePrincipalPolicyResult><EvaluationResults>"
                "<member><EvalActionName>ecr:BatchGetImage%s</EvalActionName><EvalResourceName>r%s"
                "</EvalResourceName><EvalDecision>implicitDeny%s</EvalDecision></member></EvaluationResults>"
                "<IsTruncated>false</IsTruncated></SimulatePrincipalPolicyResult></SimulatePrincipalPolicyResponse>"
                % (x, x, x)), 200
    if action == "ListAttachedRolePolicies":
        return ("<ListAttachedRolePoliciesResponse><ListAttachedRolePoliciesResult><AttachedPolicies><member>"
                "<PolicyName>P%s</PolicyName><PolicyArn>arn:aws:iam::123456789012:policy/P%s</PolicyArn></member>"
                "</AttachedPolicies><IsTruncated>false</IsTruncated></ListAttachedRolePoliciesResult>"
                "</ListAttachedRolePoliciesResponse>" % (x, x)), 200
    return ("<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>no %s%s</Message></Error>"
            "</ErrorResponse>" % (action, x)), 403


def device(path):
    arn = urllib.parse.unquote(path[len("/device/"):])
    return {"deviceArn": arn, "deviceName": evil("SV1"), "providerName": evil("Amazon"), "deviceType": "SIMULATOR",
            "deviceStatus": evil("ONLINE"), "deviceCapabilities": "{}"}


def get_job(mode):
    if mode == "escape":
        return {"jobArn": ARN, "jobName": evil("hostile"), "status": evil("RUNNING"),
                "deviceConfig": {"device": evil("arn:aws:braket:::device/qpu/x")},
                "createdAt": evil("2026-01-01T00:00:00Z"), "startedAt": evil("2026-01-01T00:01:00Z"),
                "endedAt": evil("2026-01-01T00:02:00Z"), "failureReason": evil("why"),
                "queueInfo": {"queue": "JOBS_QUEUE", "position": evil("3")},
                "events": [{"eventType": evil("WAITING"), "timeOfEvent": evil("t"), "message": evil("m")}]}
    if mode == "cut":  # every field one byte too long for byoc's copy, the last character multi-byte
        return {"jobArn": ARN, "jobName": "a" * 62 + "\u00e9" * 5, "status": "RUNNIN" + "\u00e9" * 5,
                "failureReason": "b" * 1023 + "\u00e9" * 3, "createdAt": "2026-01-01T00:00:00" + "\u00e9" * 20,
                "deviceConfig": {"device": "d" * 258 + "\u00e9" * 3},
                "queueInfo": {"queue": "JOBS_QUEUE", "position": "1234567890123\u00e9\u00e9",
                              "message": "m" * 254 + "\u00e9\u00e9"},
                "outputDataConfig": {"s3Path": "s3://b/" + "k" * 1016 + "\u00e9\u00e9"}}
    if mode.startswith("name:"):  # an ended job whose name is not a job name
        return {"jobArn": ARN, "jobName": mode[5:], "status": "COMPLETED",
                "outputDataConfig": {"s3Path": "s3://hostile-bucket/jobs/x/data"}}
    if ":" in mode:  # a plain ended job, for the paging and archive cases
        return {"jobArn": ARN, "jobName": "hostile", "status": "COMPLETED", "createdAt": "2026-01-01T00:00:00Z",
                "deviceConfig": {"device": "local:none/none"},
                "outputDataConfig": {"s3Path": "s3://hostile-bucket/jobs/hostile/data"},
                "checkpointConfig": {"s3Uri": "s3://hostile-bucket/jobs/hostile/checkpoints"}}
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


def next_token(op, sent):
    """The next token of a page of op: none, unless the mode makes op page without end, with the same
    token every time (repeat:OP) or a new one every time (endless:OP)."""
    STATE["ops"][op] = STATE["ops"].get(op, 0) + 1
    mode = STATE["mode"]
    if mode == "repeat:" + op:
        return "again"
    if mode == "endless:" + op:
        return "t%d" % (int(sent[1:]) + 1 if sent and sent.startswith("t") else 0)
    return None


def paged(op, sent, key, items):
    doc = {key: items}
    tok = next_token(op, sent)
    if tok:
        doc["nextToken"] = tok
    return doc


def ecr_reply(op, body):
    if op == "DescribeRepositories":
        return paged(op, body.get("nextToken"), "repositories", [{
            "repositoryName": REPO, "registryId": ACCOUNT, "repositoryUri": REG_HOST + "/" + REPO,
            "repositoryArn": "arn:aws:ecr:us-east-1:%s:repository/%s" % (ACCOUNT, REPO)}])
    if op == "DescribeImages":
        return paged(op, body.get("nextToken"), "imageDetails", [{
            "registryId": ACCOUNT, "repositoryName": REPO, "imageDigest": INDEX_DIGEST, "imageTags": ["v1"],
            "imageManifestMediaType": OCI_INDEX, "imagePushedAt": 1700000000, "imageSizeInBytes": 1000}])
    if op == "GetAuthorizationToken":
        return {"authorizationData": [{"authorizationToken": base64.b64encode(b"AWS:registry-secret").decode(),
                                       "expiresAt": time.time() + 3600, "proxyEndpoint": "https://" + REG_HOST}]}
    return None


def index_body(how):
    """An OCI index for images --repository to read: entries with escapes in every field, or of every
    wrong type and shape (one well-formed entry among them)."""
    if how == "escape":
        doc = {"schemaVersion": 2, "mediaType": evil(OCI_INDEX), "manifests": [
            {"mediaType": evil("application/vnd.oci.image.manifest.v1+json"), "digest": evil("sha256:1"), "size": 1,
             "platform": {"os": evil("linux"), "architecture": evil("amd64"), "variant": evil("v8"),
                          "os.version": evil("1")}},
            {"digest": "sha256:" + "c" * 64, "platform": {"os": "unknown", "architecture": "unknown"},
             "annotations": {"vnd.docker.reference.type": evil("attestation-manifest")}}]}
    else:
        doc = {"schemaVersion": "2", "mediaType": 5, "manifests": [
            7, None, "x", [], {}, {"platform": "linux/amd64"}, {"platform": {"os": 5, "architecture": None,
                                                                             "variant": []}},
            {"digest": 5, "annotations": [], "platform": {"os": "linux", "architecture": "arm64"}}]}
    return json.dumps(doc).encode()


def images_ecr(how, op, body):
    """ECR for images --repository: "registry" (well-formed, its index read from the registry stand-in),
    "escape" (escapes in every field the listing shows, and a digest that is a path), "mistyped"
    (image details of every wrong type, a token of the wrong types), "missing" (empty objects),
    "mistyped-repo" (a repository and an image list that are not what they should be)."""
    if how == "registry":
        doc = ecr_reply(op, body)
        return (doc, 200) if doc else ({"__type": "UnknownOperationException", "message": op}, 400)
    digest = "sha256:" + __import__("hashlib").sha256(REGSTATE.get("body", b"")).hexdigest()
    repo = {"repositoryName": REPO, "registryId": ACCOUNT, "repositoryUri": REG_HOST + "/" + REPO,
            "repositoryArn": "arn:aws:ecr:us-east-1:%s:repository/%s" % (ACCOUNT, REPO)}
    if how == "missing":
        replies = {"DescribeRepositories": {"repositories": [{"repositoryUri": REG_HOST + "/" + REPO}]},
                   "DescribeImages": {"imageDetails": [{}, {"imageManifestMediaType": OCI_INDEX},
                                                       {"imageDigest": digest, "imageManifestMediaType": OCI_INDEX}]},
                   "GetAuthorizationToken": {"authorizationData": [{}]}}
        return replies.get(op, {}), 200
    if how == "mistyped-repo":
        replies = {"DescribeRepositories": {"repositories": [5, {"repositoryName": 3, "repositoryUri": ["x"]}]},
                   "DescribeImages": {"imageDetails": 5, "nextToken": 5}}
        return replies.get(op, {}), 200
    if op == "DescribeRepositories":
        return {"repositories": [repo]}, 200
    if op == "GetAuthorizationToken":
        return ecr_reply(op, body), 200
    if op != "DescribeImages":
        return {"__type": "UnknownOperationException", "message": op}, 400
    if how == "escape":
        return {"imageDetails": [
            {"registryId": evil(ACCOUNT), "repositoryName": evil(REPO), "imageDigest": digest,
             "imageTags": [evil("v1"), evil("v2")], "imageManifestMediaType": OCI_INDEX,
             "imagePushedAt": 1700000000, "imageSizeInBytes": 1000, "imageScanStatus": {"status": evil("COMPLETE")},
             "artifactMediaType": evil("x")},
            # digests that are a path and a query: never a URL byoc fetches
            {"imageDigest": evil("sha256:../../../v2/_catalog?n=1#"), "imageTags": [evil("path")],
             "imageManifestMediaType": OCI_INDEX, "imagePushedAt": 1600000000, "imageSizeInBytes": 1},
            {"imageDigest": "sha256:../../../v2/_catalog?n=1#", "imageTags": ["path2"],
             "imageManifestMediaType": OCI_INDEX, "imagePushedAt": 1500000000, "imageSizeInBytes": 1}]}, 200
    return {"imageDetails": [
        5, None, "x", [],
        {"imageDigest": 7, "imageTags": "latest", "imagePushedAt": "yesterday", "imageSizeInBytes": "big",
         "imageManifestMediaType": 3, "imageScanStatus": "done"},
        {"imageDigest": digest, "imageTags": [1, None, "ok"], "imageManifestMediaType": OCI_INDEX,
         "imagePushedAt": [], "imageSizeInBytes": {}, "imageScanStatus": {"status": 5}}], "nextToken": 5}, 200


def query_reply(form):
    """IAM and STS (the query protocol): a reply's XML, or None."""
    op = form.get("Action", [""])[0]
    ns = "https://iam.amazonaws.com/doc/2010-05-08/"
    tok = None
    if op in ("ListRoles", "SimulatePrincipalPolicy", "ListAttachedRolePolicies"):
        tok = next_token(op, form.get("Marker", [None])[0])
    more = "<IsTruncated>true</IsTruncated><Marker>%s</Marker>" % tok if tok else "<IsTruncated>false</IsTruncated>"
    if op == "GetCallerIdentity":
        return ('<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>'
                "<Arn>arn:aws:iam::%s:user/hostile</Arn><UserId>AIDAHOSTILE</UserId><Account>%s</Account>"
                "</GetCallerIdentityResult></GetCallerIdentityResponse>" % (ACCOUNT, ACCOUNT))
    if op == "ListRoles":
        return ('<ListRolesResponse xmlns="%s"><ListRolesResult><Roles/>%s</ListRolesResult></ListRolesResponse>'
                % (ns, more))
    if op == "SimulatePrincipalPolicy":
        return ('<SimulatePrincipalPolicyResponse xmlns="%s"><SimulatePrincipalPolicyResult><EvaluationResults/>%s'
                "</SimulatePrincipalPolicyResult></SimulatePrincipalPolicyResponse>" % (ns, more))
    if op == "ListAttachedRolePolicies":
        return ('<ListAttachedRolePoliciesResponse xmlns="%s"><ListAttachedRolePoliciesResult><AttachedPolicies/>%s'
                "</ListAttachedRolePoliciesResult></ListAttachedRolePoliciesResponse>" % (ns, more))
    return None


def list_objects(query):
    tok = next_token("ListObjectsV2", query.get("continuation-token", [None])[0])
    more = ("<IsTruncated>true</IsTruncated><NextContinuationToken>%s</NextContinuationToken>" % tok if tok
            else "<IsTruncated>false</IsTruncated>")
    return ('<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name>'
            "<Prefix>%s</Prefix><KeyCount>0</KeyCount>%s</ListBucketResult>" % (query.get("prefix", [""])[0], more))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # no 40 ms per reply

    def reply(self, obj, code=200, ctype="application/json"):
        body = obj.encode() if isinstance(obj, str) else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def stream(self, total, declared):
        """A results archive of total bytes (gzip magic, then zeros), its length declared or not."""
        self.send_response(200)
        self.send_header("Content-Type", "application/x-gzip")
        if declared:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"\x1f\x8b" + bytes((1 << 20) - 2)
        try:
            while STATE["sent"] < total:
                self.wfile.write(chunk)
                STATE["sent"] += len(chunk)
                chunk = bytes(1 << 20)
        except OSError:
            pass
        self.close_connection = True

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

    def do_HEAD(self):
        self.handle_any()

    def do_DELETE(self):
        self.handle_any()

    def send(self, code, body=b"", ctype="application/xml", headers=()):
        body = body.encode() if isinstance(body, str) else body
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def paging_route(self, raw, target, mode):
        """The listings of test_paging_everywhere: True when it replied, else Braket's routes answer."""
        if (self.headers.get("Content-Type") or "").startswith("application/x-www-form-urlencoded"):
            xml = query_reply(parse_qs(raw.decode()))
            if xml:
                self.reply(xml, ctype="text/xml")
            else:
                self.reply({"message": "no such action"}, 400)
            return True
        if target.startswith("Logs_") or target.startswith("AmazonEC2ContainerRegistry"):
            body = json.loads(raw or b"{}")
            op = target.split(".", 1)[-1]
            if op == "DescribeLogStreams":
                streams = [{"logStreamName": "hostile/algo-1-1700000000"}] if mode.endswith(":FilterLogEvents") else []
                self.reply(paged(op, body.get("nextToken"), "logStreams", streams))
            elif op == "FilterLogEvents":
                self.reply(paged(op, body.get("nextToken"), "events", []))
            elif target.startswith("Logs_"):
                self.reply({"logStreams": [], "events": []})
            else:
                doc = ecr_reply(op, body)
                if doc is None:
                    self.reply({"__type": "RepositoryPolicyNotFoundException", "message": "no policy"}, 400,
                               "application/x-amz-json-1.1")
                else:
                    self.reply(doc, ctype="application/x-amz-json-1.1")
            return True
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if self.command == "HEAD":
            self.reply("")
        elif self.command == "PUT" and not url.path.startswith("/job"):
            self.reply("", ctype="text/plain")
        elif "list-type" in query:
            self.reply(list_objects(query), ctype="application/xml")
        else:
            return False
        return True

    def handle_any(self):
        STATE["calls"] += 1
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        mode = STATE["mode"]
        target = self.headers.get("X-Amz-Target") or ""
        if mode.startswith(("repeat:", "endless:")):
            if self.paging_route(raw, target, mode):
                return
            form = {}
            body = json.loads(raw or b"{}") if raw[:1] in (b"{", b"") else {}
        else:
            form = {}
            if self.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded"):
                form = dict(urllib.parse.parse_qsl(raw.decode()))
            try:
                body = json.loads(raw or b"{}") if raw[:1] in (b"", b"{") else {}
            except ValueError:
                body = {}
            if target.startswith("Logs_"):
                return self.reply({"logStreams": [], "events": []})
        if mode.startswith("archive:") and urlsplit(self.path).path.endswith("/model.tar.gz"):
            declared, total = mode.split(":")[1:]
            return self.stream(int(total), declared == "declared")
        if mode == "huge":
            return self.huge()
        if mode == "drip":
            return self.drip()
        if mode == "slow-503":  # each answer takes most of the 1 s deadline
            time.sleep(0.7)
            return self.reply({"__type": "ServiceUnavailableException", "message": "busy"}, 503)
        if target.startswith("AmazonEC2ContainerRegistry") and mode.startswith("images:"):
            obj, code = images_ecr(mode[7:], target.split(".")[-1], body)
            return self.reply(obj, code, "application/x-amz-json-1.1")
        if target.startswith("AmazonEC2ContainerRegistry"):
            obj, code = ecr(target.split(".")[-1], body)
            return self.reply(obj, code)
        if form.get("Action"):
            text, code = query(form["Action"])
            return self.send(code, text, "text/xml")
        if self.path.startswith("/device/"):
            return self.reply(device(self.path))
        if self.path == "/job" and self.command == "POST":
            return self.reply({"jobArn": evil(ARN)})
        if self.path.startswith("/job/") and self.path.endswith("/cancel"):
            return self.reply({"jobArn": ARN, "cancellationStatus": evil("CANCELLING")
                               if mode == "escape" else 5})
        if self.path.startswith("/job/"):
            return self.reply(get_job(mode))
        if self.path == "/job":  # CreateJob
            return self.reply({"jobArn": ARN})
        if self.path == "/jobs":
            return self.reply(search_jobs(mode, body.get("nextToken")))
        if self.command in ("HEAD", "PUT"):  # S3: the bucket exists, every upload lands
            return self.send(200, b"", headers=[("ETag", '"abc"'), ("x-amz-bucket-region", "us-east-1")])
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
    for flags in ([], ["--json"]):
        out_dir = tempfile.mkdtemp(prefix="byoc-hostile-results-")
        code, out, err, _ = byoc(*(flags + ["results", ARN, "-o", os.path.join(out_dir, "o")]))
        T.check(not crashed(code) and no_controls(out + err), "mistyped results %s: no crash" % flags,
                (code, out[-300:], err[-300:]))
        subprocess.run(["rm", "-rf", out_dir])
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


def test_results_archive():
    # results downloads model.tar.gz before unpacking it: an archive past BYOC_RESULTS_MAX_BYTES is
    # refused by its Content-Length before a byte is written, or as soon as the stream passes the
    # limit, and nothing stays behind (the download sits beside -o DIR until it is unpacked).
    ENV["BYOC_RESULTS_MAX_BYTES"] = "1M"
    for declared, what in (("declared", "an archive declared 64 MiB"), ("undeclared", "an archive of unstated length")):
        STATE["mode"] = "archive:%s:%d" % (declared, 64 << 20)
        STATE["sent"] = 0
        work = tempfile.mkdtemp(prefix="byoc-hostile-archive-")
        try:
            code, out, err, _ = byoc("results", ARN, "-o", os.path.join(work, "out"), timeout=60)
            T.check(code == 1 and b"larger than 1048576 bytes" in err and b"BYOC_RESULTS_MAX_BYTES" in err
                    and no_controls(err),
                    "results: %s past BYOC_RESULTS_MAX_BYTES is refused, naming the limit" % what,
                    (code, out[-200:], err[-300:]))
            T.check(os.listdir(work) == [], "results: %s too large leaves nothing behind" % what,
                    os.listdir(work))
            T.check(STATE["sent"] <= (24 << 20), "results: %s too large is not read to its end" % what,
                    "%d MiB sent" % (STATE["sent"] >> 20))
        finally:
            subprocess.run(["rm", "-rf", work])
    del ENV["BYOC_RESULTS_MAX_BYTES"]


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
    out_dir = tempfile.mkdtemp(prefix="byoc-hostile-drip-")
    for args in (["status", ARN], ["--json", "status", ARN], ["logs", ARN], ["cancel", ARN],
                 ["results", ARN, "-o", os.path.join(out_dir, "o")], ["--json", "jobs"]):
        code, out, err, took = byoc(*args, timeout=30)
        T.check(code not in (0, "timeout") and b"BYOC_API_TIMEOUT" in err,
                "a reply that drips: %s ends at the deadline" % " ".join(args), (code, round(took, 1), err[-300:]))
    subprocess.run(["rm", "-rf", out_dir])
    del ENV["BYOC_API_TIMEOUT"]


ENGINE = {"mode": "normal"}


def engine_version(mode):
    if mode == "escape":
        return {"ApiVersion": "1.43", "MinAPIVersion": evil("1.12"), "Version": evil("24.0.0"), "Os": evil("linux"),
                "Arch": evil("amd64"), "KernelVersion": evil("6.1"), "GoVersion": evil("go")}
    if mode == "mistyped":
        return {"ApiVersion": "1.43", "MinAPIVersion": 1.12, "Version": [], "Os": None, "Arch": {"x": 1},
                "KernelVersion": 6}
    return {"ApiVersion": "1.43", "Version": "24.0.0", "Os": "linux", "Arch": "amd64"}


class Engine(BaseHTTPRequestHandler):
    """A fake Docker engine on loopback tcp: just enough for push to reach its AWS steps."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, code, obj=None, raw=None):
        body = raw if raw is not None else json.dumps(obj if obj is not None else {}).encode()
        self.send_response(code)
        self.send_header("Api-Version", "1.43")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        path = re.sub(r"^/v1\.\d+", "", self.path.split("?")[0])
        if path == "/_ping":
            return self.send(200, raw=b"OK")
        if path == "/version":
            return self.send(200, engine_version(ENGINE["mode"]))
        if path == "/images/json":  # byoc images (local): names with escapes, and entries of every shape
            return self.send(200, [
                {"Id": "sha256:" + "c" * 64, "RepoTags": [evil("src:latest")], "RepoDigests": [evil("src@sha256:1")],
                 "Created": 1700000000, "Size": 5},
                {"Id": evil("sha256:d"), "RepoTags": 5, "RepoDigests": None, "Created": "x", "Size": []},
                5, None, "x", {}, {"RepoTags": [1, None, "ok:1"], "Created": 1e300, "Size": -1}])
        if path.startswith("/images/") and path.endswith("/json"):
            return self.send(200, {"Id": "sha256:" + "c" * 64, "Architecture": "amd64", "Os": "linux",
                                   "RepoTags": ["src:latest"], "Size": 5, "Created": "2026-01-01T00:00:00Z"})
        if path.endswith("/tag"):
            return self.send(201, raw=b"")
        if path.endswith("/push"):  # the engine's own words quote the registry too
            lines = [{"status": evil("The push refers to repository [x]")},
                     {"status": "latest: digest: %s size: 5" % DIGEST},
                     {"progressDetail": {}, "aux": {"Tag": "latest", "Digest": DIGEST, "Size": 5}}]
            return self.send(200, raw="\r\n".join(json.dumps(x) for x in lines).encode())
        return self.send(404, {"message": "no such route " + path})

    do_GET = do_POST = do_HEAD = do_DELETE = do_PUT = handle_any


def run_pty(args, timeout=60):
    """byoc with stdin, stdout and stderr on a terminal: everything it wrote there, raw."""
    master, slave = pty.openpty()
    p = subprocess.Popen([BYOC] + list(args), stdin=slave, stdout=slave, stderr=slave, env=ENV, cwd=WORK,
                         close_fds=True)
    os.close(slave)
    data, end = b"", time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([master], [], [], 0.5)
        if not ready:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the last holder of the terminal closed it
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    try:
        code = p.wait(timeout=max(1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        code = "timeout"
    return code, data


C1 = re.compile(rb"\xc2[\x80-\x9f]")


def raw_problems(data, terminal=False):
    """What in these raw bytes could drive a terminal: ESC, BEL, other C0 controls, C1 as UTF-8."""
    found = []
    if b"\x1b" in data:
        found.append("ESC")
    if b"\x07" in data:
        found.append("BEL")
    if C1.search(data):
        found.append("C1")
    allowed = b"\n\t" + (b"\r" if terminal else b"")  # a terminal's line discipline writes \r\n
    if any(c < 0x20 and c not in allowed for c in data):
        found.append("C0")
    return found


def outside_verbs():
    """The verbs that print fields of ECR, IAM, STS, GetDevice, CreateJob, S3 and the engine, with the mode
    the hostile services answer them in."""
    run = ["--image-uri", IMAGE, "--source-module", os.path.join(WORK, "algo.py"), "--job-name", "hostile-run",
           "--device", "arn:aws:braket:::device/quantum-simulator/amazon/sv1"]
    repo = "amazon-braket-hostile"
    # (name, arguments, the services' mode, whether --json quotes the services' text as it is: preflight's
    # findings and error documents carry it made printable already)
    return [
        ("images --repository", ["images", "--repository", repo], "escape", True),
        ("images (local)", ["images"], "escape", True),  # the engine's image list (Engine)
        ("doctor", ["doctor"], "escape", True),  # the engine's /version with escapes too (ENGINE)
        ("permit", ["permit", repo], "escape", True),
        ("permit --allow", ["permit", repo, "--allow", ROLE], "escape", True),
        ("permit --allow --dry-run", ["permit", repo, "--allow", "210987654321", "--dry-run"], "escape", True),
        ("permit --revoke", ["permit", repo, "--revoke", "arn:aws:iam::123456789012:root"], "escape", True),
        ("permit --check", ["permit", repo, "--check", ROLE], "escape", True),
        ("run --dry-run", ["run"] + run + ["--dry-run"], "escape", True),
        ("run", ["run"] + run + ["--no-preflight"], "escape", True),
        ("preflight", ["preflight"] + run, "no-token", False),
        # a repository URI whose host is hostile: created, then refused as a reference before the push
        ("push", ["push", "src:latest", "--repository", repo, "--create"], "no-repo", False),
        # a valid host: logged in, pushed by the engine (whose status quotes the registry), checked in ECR
        ("push to a valid host", ["push", "src:latest", "--repository", repo, "--create"], "no-repo clean-host",
         False),
    ]


def test_outside_fields():
    """Every verb, plain on a pipe and on a terminal: the service's words show (made printable), its
    escapes do not; --json escapes them, C1 included."""
    for name, args, mode, json_quotes in outside_verbs():
        STATE["mode"] = mode
        ENGINE["mode"] = "escape" if name == "doctor" else "normal"
        code, out, err, _ = byoc(*args)
        T.check(not crashed(code) and not raw_problems(out) and not raw_problems(err),
                "%s: plain output on a pipe has no ESC, BEL or C1" % name,
                (code, raw_problems(out), raw_problems(err), out[-400:], err[-600:]))
        T.check(b"31m" in out + err, "%s: a hostile field was printed (made printable)" % name,
                (code, out[-300:], err[-600:]))
        code, data = run_pty(args)
        T.check(not crashed(code) and not raw_problems(data, terminal=True),
                "%s: plain output on a terminal has no ESC, BEL or C1" % name,
                (code, raw_problems(data, True), data[-800:]))
        code, out, err, _ = byoc("--json", *args)
        try:
            doc = json.loads(out)
        except ValueError:
            doc = None
        T.check(not crashed(code) and doc is not None and not raw_problems(out) and not raw_problems(err),
                "%s --json: one document, its raw bytes and stderr without ESC, BEL or C1" % name,
                (code, raw_problems(out), raw_problems(err), out[-400:], err[-600:]))
        T.check((b"\\u009b" in out.lower() or not json_quotes) and b"\xc2\x9b" not in out,
                "%s --json: U+009B written as \\u009b, not as the raw code point" % name, out[-400:])
    ENGINE["mode"] = "normal"


def test_cut_fields():
    """A field longer than byoc's copy of it, cut mid-character, is still in the --json document."""
    STATE["mode"] = "escape"
    code, out, err, _ = byoc("--json", "permit", "amazon-braket-hostile")
    doc = json.loads(out) if code == 0 else {}
    T.check(any("s" * 78 in w for w in doc.get("warnings", [])) and b"s" * 78 in err,
            "permit --json: the warning about a statement whose Sid was cut mid-character is in the document",
            (code, doc.get("warnings"), err[-400:]))
    STATE["mode"] = "cut"
    code, out, err, _ = byoc("--json", "status", ARN)
    doc = json.loads(out) if code == 0 else {}
    want = ("job_name", "status", "failure_reason", "device", "created")
    job = doc.get("job", doc)
    T.check(all(isinstance(job.get(k), str) and job.get(k) for k in want),
            "status --json: job_name, status, failure_reason, device, created kept when cut mid-character",
            (code, out[:600], err[-300:]))
    code, out, err, _ = byoc("status", ARN)
    T.check(code == 0 and "\u00e9".encode() in out and b"RUNNIN" in out and not raw_problems(out),
            "status: the cut fields shown, whole characters only", (code, out[:600], err[-300:]))


PAGING_ROLE = "arn:aws:iam::%s:role/service-role/AmazonBraketJobsExecutionRole-hostile" % ACCOUNT


def run_args(*extra):
    src = os.path.join(HOME, "algo.py")
    with open(src, "w") as f:
        f.write("def main():\n    pass\n")
    return ["run", "--image-uri", REG_HOST + "/amazon-braket-hostile:latest", "--source-module", src,
            "--job-name", "hostile-run"] + list(extra)


# Every paginator a verb reaches, with the verb that reaches it and what it says when the listing
# never ends: an error naming the operation, or (where the verb carries on without that listing) a
# warning or a check that says so.
def paginators():
    return [
        ("DescribeRepositories", ["images", "--repository", REPO]),
        ("DescribeImages", ["images", "--repository", REPO]),
        ("DescribeImages", ["--json", "images", "--repository", REPO]),
        ("DescribeRepositories", ["permit", REPO, "--check", PAGING_ROLE]),
        ("SimulatePrincipalPolicy", ["permit", REPO, "--check", PAGING_ROLE]),
        ("ListAttachedRolePolicies", ["--json", "permit", "amazon-braket-x", "--check", PAGING_ROLE]),
        ("ListRoles", run_args("--dry-run")),
        ("DescribeLogStreams", ["status", ARN]),
        ("FilterLogEvents", ["status", ARN]),
        ("FilterLogEvents", ["--json", "status", ARN]),
        ("ListObjectsV2", run_args("--role-arn", PAGING_ROLE, "--no-preflight", "--copy-checkpoints-from-job", ARN)),
    ]


def label(args):
    verb = next(a for a in args if not a.startswith("-"))
    return ("--json " if "--json" in args else "") + verb + (" --check" if "--check" in args else "") + (
        " --copy-checkpoints-from-job" if "--copy-checkpoints-from-job" in args else "")


def test_paging_everywhere():
    cases = paginators()
    for op, args in cases:
        STATE["mode"] = "repeat:" + op
        STATE["ops"] = {}
        code, out, err, _ = byoc(*args, timeout=30)
        T.check(code != "timeout" and not crashed(code) and b"same next token" in out + err and op.encode() in out + err
                and STATE["ops"].get(op, 0) in (2, 3),
                "%s repeating its token: %s ends, naming it" % (op, label(args)),
                (code, STATE["ops"], out[-300:], err[-300:]))
    for op, args in (cases[1], cases[8]):
        STATE["mode"] = "endless:" + op
        STATE["ops"] = {}
        code, out, err, took = byoc(*args, timeout=120)
        T.check(code != "timeout" and b"1000 pages" in out + err and STATE["ops"].get(op, 0) == 1000,
                "%s with a new token forever: %s ends at the page bound" % (op, label(args)),
                (code, STATE["ops"], err[-300:]))
        print("     (%d pages in %.1f s)" % (STATE["ops"].get(op, 0), took))


REGSTATE = {"mode": "declared", "sent": 0, "paths": []}


def read_head(sock):
    """A request's line and headers, or None when the peer hangs up first."""
    head = b""
    while b"\r\n\r\n" not in head:
        data = sock.recv(4096)
        if not data:
            return None
        head += data
    return head


def registry_conn(conn, ctx):
    """One connection through the registry's "proxy": byoc's CONNECT to the ECR registry host is
    answered here, TLS with a certificate for that host, then a manifest GET that never ends
    (declared far too large, or no length at all) or drips."""
    try:
        if read_head(conn) is None:
            return
        conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        tls = ctx.wrap_socket(conn, server_side=True)
        req = read_head(tls)
        if req is None:
            return
        REGSTATE["paths"].append(req.split(b" ")[1].decode("utf-8", "replace"))
        if REGSTATE["mode"] == "body":  # the index REGSTATE holds, whole
            body = REGSTATE["body"]
            tls.sendall(("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                         % (OCI_INDEX, len(body))).encode() + body)
            return
        length = "Content-Length: %d\r\n" % (5 << 30) if REGSTATE["mode"] == "declared" else "Connection: close\r\n"
        tls.sendall(("HTTP/1.1 200 OK\r\nContent-Type: %s\r\n%s\r\n" % (OCI_INDEX, length)).encode())
        while REGSTATE["mode"] == "drip" and REGSTATE["sent"] < 400:  # ~100 s: far past the deadline set
            tls.sendall(b" ")
            REGSTATE["sent"] += 1
            time.sleep(0.25)
        chunk = b"{" + b" " * ((1 << 20) - 1)
        while REGSTATE["sent"] < (256 << 20):  # far past any cap; byoc without one reads all of it
            tls.sendall(chunk)
            REGSTATE["sent"] += len(chunk)
            chunk = b" " * (1 << 20)
    except OSError:
        pass
    finally:
        conn.close()


def start_registry():
    """The registry "proxy" (started once): its certs.d and port, which ENV then names."""
    if "port" not in REGSTATE:
        REGSTATE["certs"], REGSTATE["port"] = start_registry_once()
    ENV.update({"BYOC_DOCKER_CERTS_D": REGSTATE["certs"], "HTTPS_PROXY": "http://127.0.0.1:%d" % REGSTATE["port"]})


def stop_registry():
    for k in ("BYOC_DOCKER_CERTS_D", "HTTPS_PROXY"):
        ENV.pop(k, None)


def start_registry_once():
    d = os.path.join(HOME, "registry")
    os.makedirs(os.path.join(d, "certs.d", REG_HOST))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", "key.pem", "-out", os.path.join("certs.d", REG_HOST, "ca.crt"), "-days", "2",
                    "-subj", "/CN=" + REG_HOST, "-addext", "subjectAltName=DNS:" + REG_HOST],
                   cwd=d, check=True, capture_output=True)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(d, "certs.d", REG_HOST, "ca.crt"), os.path.join(d, "key.pem"))
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=registry_conn, args=(conn, ctx), daemon=True).start()
    threading.Thread(target=serve, daemon=True).start()
    return os.path.join(d, "certs.d"), listener.getsockname()[1]


def test_registry_huge():
    # images --repository reads each multi-platform index from the registry: one that never ends
    # stops at the manifest cap (4 MiB), declared or not, and the listing still comes out.
    start_registry()
    STATE["mode"] = "images:registry"
    for mode in ("declared", "endless"):
        REGSTATE.update(mode=mode, sent=0, paths=[])
        code, out, err, took = byoc("--json", "images", "--repository", REPO, timeout=90)
        try:
            image = json.loads(out)["images"][0]
        except (ValueError, KeyError, IndexError):
            image = {}
        T.check(code == 0 and REGSTATE["paths"] == ["/v2/%s/manifests/%s" % (REPO, INDEX_DIGEST)]
                and "larger than 4194304 bytes" in image.get("platforms_error", ""),
                "a registry index %s: images --repository lists the image, the index refused at the cap"
                % ("declared at 5 GiB" if mode == "declared" else "that never ends"),
                (code, REGSTATE["paths"], out[-400:], err[-300:]))
        T.check(REGSTATE["sent"] <= (24 << 20), "a registry index %s: byoc stopped reading early" % mode,
                "%d MiB sent" % (REGSTATE["sent"] >> 20))
    code, out, err, _ = byoc("images", "--repository", REPO, timeout=90)
    T.check(code == 0 and b"larger than" in out + err and no_controls(out + err),
            "a registry index that never ends: plain images --repository says why its platforms are unknown",
            (code, out[-300:], err[-300:]))
    # one that drips: the API deadline (BYOC_API_TIMEOUT) ends it as it ends any API call
    REGSTATE.update(mode="drip", sent=0, paths=[])
    ENV["BYOC_API_TIMEOUT"] = "2"
    code, out, err, took = byoc("images", "--repository", REPO, timeout=30)
    T.check(code == 0 and b"BYOC_API_TIMEOUT" in out and REGSTATE["paths"],
            "a registry index that drips: images --repository ends at the API deadline, saying so",
            (code, round(took, 1), out[-300:], err[-300:]))
    del ENV["BYOC_API_TIMEOUT"]
    stop_registry()


def json_doc(out):
    try:
        return json.loads(out)
    except ValueError:
        return None


def test_images_shapes():
    """images --repository, plain (on a pipe and a terminal) and --json, against ECR replies and a
    registry index with escapes in every field, missing fields, and fields of the wrong types."""
    start_registry()
    args = ["images", "--repository", REPO]
    for how in ("escape", "mistyped", "missing", "mistyped-repo"):
        STATE["mode"] = "images:" + how
        REGSTATE.update(mode="body", sent=0, paths=[], body=index_body(how))
        code, out, err, _ = byoc(*args)
        T.check(not crashed(code) and not raw_problems(out) and not raw_problems(err),
                "images --repository, %s replies: no crash, no ESC, BEL or C1 on a pipe" % how,
                (code, raw_problems(out), raw_problems(err), out[-400:], err[-400:]))
        code_t, data = run_pty(args)
        T.check(not crashed(code_t) and not raw_problems(data, terminal=True),
                "images --repository, %s replies: no ESC, BEL or C1 on a terminal" % how,
                (code_t, raw_problems(data, True), data[-400:]))
        jcode, jout, jerr, _ = byoc("--json", *args)
        doc = json_doc(jout)
        T.check(not crashed(jcode) and doc is not None and not raw_problems(jout) and not raw_problems(jerr),
                "images --repository --json, %s replies: one document, raw bytes without ESC, BEL or C1" % how,
                (jcode, jout[-400:], jerr[-400:]))
        bad = [p for p in REGSTATE["paths"] if not re.fullmatch(r"/v2/%s/manifests/sha256:[0-9a-f]{64}" % REPO, p)]
        T.check(not bad, "images --repository, %s replies: only well-formed digests are fetched" % how, bad)
        images = (doc or {}).get("images") or []
        if how == "escape":
            T.check(code == 0 and b"31m" in out and b"linux" in out and b"attestation" in out,
                    "images --repository, escapes: tags and the index's platforms shown, made printable",
                    (code, out[-600:], err[-300:]))
            T.check(jcode == 0 and any(EVIL in x for x in strings(doc)) and b"\\u009b" in jout.lower(),
                    "images --repository --json, escapes: the service's text as it is, U+009B escaped",
                    jout[-600:])
            T.check(len(images) == 3 and sum("not fetched" in im.get("platforms_error", "") for im in images) == 2,
                    "images --repository, a digest that is a path: listed, its platforms unknown, never fetched",
                    (images, REGSTATE["paths"]))
        elif how == "mistyped":
            T.check(code == 0 and b"linux/arm64" in out and b"ok" in out,
                    "images --repository, mistyped: the object entries listed, the well-formed platform shown",
                    (code, out[-600:], err[-300:]))
            T.check(jcode == 0 and len(images) == 2, "images --repository --json, mistyped: the two object entries",
                    (jcode, images))
        elif how == "missing":
            T.check(code == 0 and jcode == 0 and len(images) == 3 and not REGSTATE["paths"]
                    and b"no registry login" in out and b"authorizationToken" in out,
                    "images --repository, empty objects: listed, no token: platforms unknown saying why, nothing fetched",
                    (code, jcode, images, REGSTATE["paths"], out[-300:], err[-300:]))
        else:
            T.check(code in (0, 1) and jcode in (0, 1) and (not doc or "error" in doc or images == []),
                    "images --repository, a repository and an image list of the wrong types: an empty list or "
                    "a clear error", (code, jcode, jout[-300:], jerr[-300:]))
    stop_registry()
    # a reply far larger than any ECR reply, and one that drips: the cap and the API deadline
    STATE["mode"] = "huge"
    for flags in ([], ["--json"]):
        code, out, err, _ = byoc(*(flags + args))
        T.check(code not in (0, "timeout") and b"larger than" in out + err and not raw_problems(out + err),
                "images --repository %s, a 1 GiB reply: stops at the cap with a clear error" % flags, (code, err[-300:]))
    STATE["mode"] = "drip"
    ENV["BYOC_API_TIMEOUT"] = "1"
    for flags in ([], ["--json"]):
        code, out, err, _ = byoc(*(flags + args), timeout=30)
        T.check(code not in (0, "timeout") and b"BYOC_API_TIMEOUT" in out + err,
                "images --repository %s, a reply that drips: ends at the deadline" % flags, (code, err[-300:]))
    del ENV["BYOC_API_TIMEOUT"]


def test_doctor_shapes():
    """doctor, plain (pipe and terminal) and --json: an engine and STS answering escapes, missing and
    mistyped fields; an STS reply far too large, one that drips."""
    cases = [("escape", "escape"), ("mistyped", "mistyped"), ("huge", "normal"), ("drip", "normal")]
    ENV["BYOC_API_TIMEOUT"] = "1"
    for mode, engine_mode in cases:
        STATE["mode"] = mode
        ENGINE["mode"] = engine_mode
        code, out, err, _ = byoc("doctor", timeout=60)
        T.check(not crashed(code) and not raw_problems(out) and not raw_problems(err),
                "doctor, %s replies: no crash, no ESC, BEL or C1 on a pipe" % mode,
                (code, raw_problems(out), raw_problems(err), out[-600:], err[-300:]))
        code_t, data = run_pty(["doctor"])
        T.check(not crashed(code_t) and not raw_problems(data, terminal=True),
                "doctor, %s replies: no ESC, BEL or C1 on a terminal" % mode, (code_t, data[-400:]))
        jcode, jout, jerr, _ = byoc("--json", "doctor", timeout=60)
        doc = json_doc(jout)
        T.check(not crashed(jcode) and isinstance(doc, dict) and not raw_problems(jout) and not raw_problems(jerr),
                "doctor --json, %s replies: one document, raw bytes without ESC, BEL or C1" % mode,
                (jcode, jout[-400:], jerr[-300:]))
        doc = doc if isinstance(doc, dict) else {}
        if mode == "escape":
            T.check(b"31m" in out and b"24.0.0" in out and doc.get("arn") and "\x9b" in doc["arn"]
                    and EVIL in (doc.get("engine") or {}).get("server_version", ""),
                    "doctor, escapes: the engine's and STS's words shown printable, quoted as they are in --json",
                    (out[-600:], jout[-600:]))
        elif mode == "mistyped":
            T.check(code == 3 and b"identity" in out and b"FAIL" in out and doc.get("account") is None,
                    "doctor, an identity without Account and an engine of wrong types: identity FAIL, exit 3",
                    (code, out[-600:], jout[-400:]))
        else:
            want = b"larger than" if mode == "huge" else b"BYOC_API_TIMEOUT"
            T.check(code == 3 and want in out and want.decode() in str(doc.get("identity_error")),
                    "doctor, an STS reply that %s: identity FAIL saying why, exit 3"
                    % ("is 1 GiB" if mode == "huge" else "drips"), (code, out[-600:], jout[-400:]))
    ENGINE["mode"] = "normal"
    del ENV["BYOC_API_TIMEOUT"]


def test_deadline_retries():
    """The API deadline bounds a call with its retries: a reply that drips, with five attempts allowed,
    is one attempt and the deadline's error; 503s that each take most of it, one or two."""
    ENV.update({"BYOC_API_TIMEOUT": "1", "AWS_MAX_ATTEMPTS": "5", "AWS_RETRY_MODE": "legacy"})
    for mode, most in (("drip", 1), ("slow-503", 2)):
        STATE["mode"] = mode
        STATE["calls"] = 0
        code, out, err, took = byoc("status", ARN, timeout=60)
        T.check(code == 3 and b"BYOC_API_TIMEOUT" in err and b"retries included" in err
                and 1 <= STATE["calls"] <= most,
                "%s with 5 attempts allowed: status ends at the one deadline after at most %d" % (mode, most),
                (code, STATE["calls"], round(took, 1), err[-300:]))
    ENV.update({"AWS_MAX_ATTEMPTS": "1"})
    for k in ("BYOC_API_TIMEOUT", "AWS_RETRY_MODE"):
        del ENV[k]


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.handle_error = lambda request, address: None  # byoc hanging up mid-reply is the point here
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = "http://127.0.0.1:%d" % server.server_address[1]
HOME = tempfile.mkdtemp(prefix="byoc-hostile-")
KEEP = ("BYOC_BIN", "BYOC_SOURCE_DIR", "BYOC_BUILD_DIR", "BYOC_SANITIZE")
ENV = {k: v for k, v in os.environ.items()
       if not k.startswith(("AWS_", "DOCKER_")) and (not k.startswith("BYOC_") or k in KEEP)}
ENV.update({
    "HOME": HOME, "XDG_CONFIG_HOME": HOME, "XDG_STATE_HOME": HOME,
    "AWS_ACCESS_KEY_ID": "AKIDEXAMPLEHOSTILE", "AWS_SECRET_ACCESS_KEY": "hostile-secret",
    "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
    "AWS_EC2_METADATA_DISABLED": "true", "AWS_MAX_ATTEMPTS": "1",
    "AWS_ENDPOINT_URL_BRAKET": URL, "AWS_ENDPOINT_URL_CLOUDWATCH_LOGS": URL, "AWS_ENDPOINT_URL_S3": URL,
    "AWS_ENDPOINT_URL_ECR": URL, "AWS_ENDPOINT_URL_IAM": URL, "AWS_ENDPOINT_URL_STS": URL, "NO_PROXY": "127.0.0.1",
})
for k in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy", "no_proxy"):
    ENV.pop(k, None)
engine = ThreadingHTTPServer(("127.0.0.1", 0), Engine)
engine.daemon_threads = True
threading.Thread(target=engine.serve_forever, daemon=True).start()
WORK = tempfile.mkdtemp(prefix="byoc-hostile-work-")
with open(os.path.join(WORK, "algo.py"), "w") as f:
    f.write("def main():\n    print('hi')\n")
ENV.update({
    "AWS_ENDPOINT_URL_ECR": URL, "AWS_ENDPOINT_URL_STS": URL, "AWS_ENDPOINT_URL_IAM": URL,
    "DOCKER_HOST": "tcp://127.0.0.1:%d" % engine.server_address[1], "TERM": "xterm",
})
ENV.pop("DOCKER_TLS_VERIFY", None)
ENV.pop("DOCKER_CERT_PATH", None)
ENV.pop("BRAKET_JOBS_ROLE_ARN", None)

for name in sys.argv[1:] or ["escapes", "mistyped", "results_name", "results_archive", "paging", "paging_everywhere",
                             "huge", "registry_huge", "drip", "outside_fields", "cut_fields", "images_shapes",
                             "doctor_shapes", "deadline_retries"]:
    globals()["test_" + name]()
server.shutdown()
engine.shutdown()
subprocess.run(["rm", "-rf", WORK, HOME])
T.done()
