#!/usr/bin/env python3
"""A loopback front for moto that tests put between byoc and moto (AWS_ENDPOINT_URL).

It forwards every request to moto unchanged (moto still checks each SigV4 signature) and:
  - counts them by operation (X-Amz-Target for JSON services, Action for query ones), so a
    test can prove that bad input sent nothing;
  - pages DescribeImages, ListImages and DescribeRepositories as ECR does: moto 5 ignores
    maxResults and nextToken and answers everything at once, so the front slices moto's full
    answer (maxResults, default 100 for images, 1000 for repositories; an opaque nextToken)
    and returns one page. The request is forwarded as sent, so the signature is moto's to judge.

  - optionally (simulate="evaluate") answers IAM SimulatePrincipalPolicy, which moto lacks: the
    signature is checked with botocore's signer (standin/sigv4.py) against the topology's key
    (and keys added with front.add_credentials), and the principal's policies read from moto --
    a role's inline and attached policies, or a user's inline and attached policies and those
    of its groups -- plus the ResourcePolicy sent are evaluated (explicit Deny > Allow >
    implicit; Action/Resource wildcards; statements with a Condition or NotAction are skipped).
    simulate="deny" answers 403 AccessDenied, as IAM does for a caller without
    iam:SimulatePrincipalPolicy. Without it the request goes to moto (500).

  - front.answer_next(op, status, doc) makes the next `op` get that JSON answer instead of
    moto's (after moto has checked and served the request), for replies moto cannot produce.

As a module:   front = EcrFront(upstream).start(); front.url; front.count("DescribeImages");
               front.counts(); front.reset(); front.answer_next(...);
               front.add_credentials(key_id, secret) (another moto user's key, for its
               SimulatePrincipalPolicy calls); front.stop()
As a program:  ecr_front.py --upstream URL   prints "PORT=<n>" and serves until stdin closes
               (for C tests); GET /_front/counts -> {"Op": n}, POST /_front/reset.
"""

import argparse
import base64
import collections
import fnmatch
import os
import uuid
import http.client
import http.server
import json
import sys
import threading
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

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


class NoSuchEntity(Exception):
    """Shaped like botocore's ClientError, so the handler answers 404 NoSuchEntity."""

    def __init__(self, message):
        super().__init__(message)
        self.response = {"Error": {"Code": "NoSuchEntity", "Message": message}}


def _as_list(v):
    return [v] if isinstance(v, str) else list(v or [])


class IamSimulator:
    """SimulatePrincipalPolicy over moto's IAM data (see the module's docstring)."""

    def __init__(self, upstream):
        self.extra_keys = {}
        import boto3
        from botocore.config import Config
        self.iam = boto3.session.Session().client(
            "iam", region_name="us-east-1", endpoint_url=upstream,
            config=Config(retries={"total_max_attempts": 2, "mode": "standard"}),
            aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"])

    @staticmethod
    def check_signature(method, path, headers, body, extra_keys=None):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from standin.sigv4 import AuthError, verify
        raw_path, _, raw_query = path.partition("?")
        keys = dict(extra_keys or {})
        keys[os.environ["AWS_ACCESS_KEY_ID"]] = os.environ["AWS_SECRET_ACCESS_KEY"]
        secrets = lambda k: (keys[k], None) if k in keys else None  # noqa: E731
        try:
            verify(method, raw_path, raw_query, list(headers.items()), body, secrets, "iam")
            return None
        except AuthError as exc:
            return exc

    def _managed_documents(self, attached):
        docs = []
        for a in attached:
            arn = a["PolicyArn"]
            version = self.iam.get_policy(PolicyArn=arn)["Policy"]["DefaultVersionId"]
            docs.append(self.iam.get_policy_version(PolicyArn=arn, VersionId=version)["PolicyVersion"]["Document"])
        return docs

    def role_documents(self, role_arn):
        name = role_arn.rsplit("/", 1)[-1]
        docs = []
        for policy in self.iam.list_role_policies(RoleName=name)["PolicyNames"]:
            docs.append(self.iam.get_role_policy(RoleName=name, PolicyName=policy)["PolicyDocument"])
        docs += self._managed_documents(self.iam.list_attached_role_policies(RoleName=name)["AttachedPolicies"])
        return [json.loads(d) if isinstance(d, str) else d for d in docs]

    def user_documents(self, user_arn):
        """The user's inline and attached policies, then those of each group it is in."""
        name = user_arn.rsplit("/", 1)[-1]
        docs = []
        for policy in self.iam.list_user_policies(UserName=name)["PolicyNames"]:
            docs.append(self.iam.get_user_policy(UserName=name, PolicyName=policy)["PolicyDocument"])
        docs += self._managed_documents(self.iam.list_attached_user_policies(UserName=name)["AttachedPolicies"])
        for group in self.iam.list_groups_for_user(UserName=name)["Groups"]:
            g = group["GroupName"]
            for policy in self.iam.list_group_policies(GroupName=g)["PolicyNames"]:
                docs.append(self.iam.get_group_policy(GroupName=g, PolicyName=policy)["PolicyDocument"])
            docs += self._managed_documents(self.iam.list_attached_group_policies(GroupName=g)["AttachedPolicies"])
        return [json.loads(d) if isinstance(d, str) else d for d in docs]

    def principal_documents(self, arn):
        """IAM's identity-based policies of a role or user ARN (arn:aws:iam::<acct>:role|user/[path/]name)."""
        kind = arn.split(":", 5)[5].split("/", 1)[0] if arn.count(":") >= 5 else ""
        if kind == "user":
            return self.user_documents(arn)
        if kind == "role":
            return self.role_documents(arn)
        raise NoSuchEntity("PolicySourceArn %s is neither an IAM role nor an IAM user" % arn)

    @staticmethod
    def decide(docs, principal, action, resource):
        allowed = False
        account_root = "arn:aws:iam::%s:root" % principal.split(":")[4] if principal.count(":") >= 5 else None
        for doc, is_resource_policy in docs:
            for st in _as_list(doc.get("Statement")):
                if "Condition" in st or "NotAction" in st:
                    continue
                if not any(fnmatch.fnmatchcase(action.lower(), a.lower()) for a in _as_list(st.get("Action"))):
                    continue
                if "Resource" in st and not any(fnmatch.fnmatchcase(resource, r) for r in _as_list(st["Resource"])):
                    continue
                if is_resource_policy:
                    p = st.get("Principal")
                    names = ["*"] if p == "*" else _as_list((p or {}).get("AWS"))
                    names = ["arn:aws:iam::%s:root" % n if n.isdigit() else n for n in names]
                    if not ("*" in names or principal in names or account_root in names):
                        continue
                if st.get("Effect") == "Deny":
                    return "explicitDeny"
                if st.get("Effect") == "Allow":
                    allowed = True
        return "allowed" if allowed else "implicitDeny"

    def answer(self, params):
        principal = params["PolicySourceArn"][0]
        actions = [params[k][0] for k in sorted(params) if k.startswith("ActionNames.member.")]
        resources = [params[k][0] for k in sorted(params) if k.startswith("ResourceArns.member.")] or ["*"]
        docs = [(d, False) for d in self.principal_documents(principal)]
        if "ResourcePolicy" in params:
            docs.append((json.loads(params["ResourcePolicy"][0]), True))
        members = []
        for action in actions:
            for resource in resources:
                decision = self.decide(docs, principal, action, resource)
                members.append("<member><EvalActionName>%s</EvalActionName><EvalResourceName>%s</EvalResourceName>"
                               "<EvalDecision>%s</EvalDecision></member>" % (escape(action), escape(resource), decision))
        return ("<SimulatePrincipalPolicyResponse xmlns=\"https://iam.amazonaws.com/doc/2010-05-08/\">"
                "<SimulatePrincipalPolicyResult><IsTruncated>false</IsTruncated><EvaluationResults>%s"
                "</EvaluationResults></SimulatePrincipalPolicyResult><ResponseMetadata><RequestId>%s</RequestId>"
                "</ResponseMetadata></SimulatePrincipalPolicyResponse>" % ("".join(members), uuid.uuid4())).encode()


def iam_error(status, code, message):
    return status, ("<ErrorResponse xmlns=\"https://iam.amazonaws.com/doc/2010-05-08/\"><Error><Type>Sender</Type>"
                    "<Code>%s</Code><Message>%s</Message></Error><RequestId>%s</RequestId></ErrorResponse>"
                    % (code, escape(message), uuid.uuid4())).encode()


class EcrFront:
    def __init__(self, upstream, host="127.0.0.1", port=0, simulate=None):
        self.simulate = simulate
        self.simulator = IamSimulator(upstream) if simulate == "evaluate" else None
        self.upstream = urlsplit(upstream)
        self.lock = threading.Lock()
        self._counts = collections.Counter()
        self.server = http.server.ThreadingHTTPServer((host, port), self._handler())
        self.server.daemon_threads = True
        self.url = "http://%s:%d" % (host, self.server.server_address[1])
        self.thread = None
        self.canned = {}

    def add_credentials(self, key_id, secret):
        """Accept SimulatePrincipalPolicy calls signed with this key too (another moto user's)."""
        if self.simulator:
            with self.lock:
                self.simulator.extra_keys[key_id] = secret

    def answer_next(self, op, status, doc):
        with self.lock:
            self.canned[op] = (status, json.dumps(doc).encode())

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
                if op == "SimulatePrincipalPolicy" and front.simulate:
                    self._simulate(headers, body)
                    return
                try:
                    status, rheaders, data = front._forward(self.command, self.path, headers, body or None)
                except OSError as exc:
                    self._reply(502, [("Content-Type", "text/plain")], str(exc).encode())
                    return
                with front.lock:
                    canned = front.canned.pop(op, None)
                if canned:
                    status, data = canned
                    rheaders = [("Content-Type", "application/x-amz-json-1.1")]
                target = self.headers.get("X-Amz-Target")
                if target in PAGED:
                    paged = front._page(target, body, status, data)
                    if paged:
                        status, data = paged
                self._reply(status, rheaders, data)

            def _simulate(self, headers, body):
                with front.lock:
                    extra = dict(front.simulator.extra_keys) if front.simulator else {}
                bad = IamSimulator.check_signature(self.command, self.path, headers, body, extra)
                if bad:
                    status, data = iam_error(bad.status, bad.error_type, bad.message)
                elif front.simulate == "deny":
                    status, data = iam_error(403, "AccessDenied", "User: %s is not authorized to perform: "
                                             "iam:SimulatePrincipalPolicy" % os.environ["AWS_ACCESS_KEY_ID"])
                else:
                    try:
                        status, data = 200, front.simulator.answer(parse_qs(body.decode()))
                    except Exception as exc:  # moto's NoSuchEntity and the like
                        code = getattr(exc, "response", {}).get("Error", {}).get("Code", "ServiceFailure")
                        status, data = iam_error(404 if code == "NoSuchEntity" else 500, code, str(exc))
                self._reply(status, [("Content-Type", "text/xml")], data)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _any

        return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--simulate", choices=("evaluate", "deny"))
    args = parser.parse_args()
    front = EcrFront(args.upstream, simulate=args.simulate).start()
    print("PORT=%d" % front.server.server_address[1], flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin
    front.stop()


if __name__ == "__main__":
    main()
