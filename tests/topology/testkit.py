"""Helpers for python integration tests that run under tests/topology/with-env.sh.

  import sys, os
  sys.path.insert(0, os.path.join(os.environ["BYOC_SOURCE_DIR"], "tests", "topology"))  # or a relative path
  from testkit import Checks, client, control, signed_request

Checks        a tiny harness: check(cond, name, detail), equal(a, b, name), done() prints
              'N passed, N failed' and exits non-zero on any failure.
env(name)     a variable that up.sh wrote (fails loudly when missing).
client(svc)   a boto3 client for moto or (svc="braket") the stand-in, from the topology's env.
control(...)  call the stand-in's control API (/_standin/...), returns (status, json).
signed_request(...) send one SigV4-signed HTTP request (botocore's signer) with a body you
              choose, so tests can reach server-side checks that boto3 would stop client-side.
"""

import json
import os
import sys
import traceback
import http.client
from urllib.parse import urlsplit

import boto3
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials


# The byoc under test: $BYOC_BIN (ctest and with-env.sh set it), else the default build's.
SOURCE_DIR = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BYOC_BIN = os.environ.get("BYOC_BIN") or os.path.join(os.environ.get("BYOC_BUILD_DIR") or os.path.join(SOURCE_DIR, "build"),
                                                      "byoc")


def env(name):
    value = os.environ.get(name)
    if not value:
        print("testkit: %s is not set: run under tests/topology/with-env.sh" % name, file=sys.stderr)
        sys.exit(2)
    return value


class Checks:
    def __init__(self, title):
        self.title = title
        self.passed = 0
        self.failed = 0

    def check(self, cond, name, detail=""):
        if cond:
            self.passed += 1
            print("ok   %s" % name)
        else:
            self.failed += 1
            print("FAIL %s%s" % (name, (": " + str(detail)) if detail != "" else ""))
        return bool(cond)

    def equal(self, got, want, name):
        return self.check(got == want, name, "got %r, want %r" % (got, want))

    def run(self, func):
        """Run one test function; an exception counts as one failure."""
        try:
            func()
        except Exception:
            self.failed += 1
            print("FAIL %s raised:\n%s" % (func.__name__, traceback.format_exc()))

    def done(self):
        print("%s: %d passed, %d failed" % (self.title, self.passed, self.failed))
        sys.exit(1 if self.failed else 0)


def client(service, **kwargs):
    config = kwargs.pop("config", None) or Config(retries={"total_max_attempts": 1, "mode": "standard"})
    if service == "braket":
        kwargs.setdefault("endpoint_url", env("AWS_ENDPOINT_URL_BRAKET"))
    return boto3.session.Session().client(service, config=config, **kwargs)


MANAGED_JOBS_POLICY = "AmazonBraketJobsExecutionPolicy"


def create_jobs_role(name):
    """A /service-role/ job execution role in moto's IAM that Braket may assume, with the managed
    jobs policy's document attached. moto runs without AWS's managed policies loaded, so that
    document is a customer policy of the same name and path (created once). Returns the ARN."""
    iam = client("iam")
    role = iam.create_role(RoleName=name, Path="/service-role/", AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"},
                                                "Action": "sts:AssumeRole"}]}))["Role"]
    arn = "arn:aws:iam::%s:policy/service-role/%s" % (env("BYOC_TEST_ACCOUNT"), MANAGED_JOBS_POLICY)
    try:
        iam.get_policy(PolicyArn=arn)
    except iam.exceptions.NoSuchEntityException:
        import moto.iam.aws_managed_policies as managed
        data = json.loads(managed.aws_managed_policies_data)[MANAGED_JOBS_POLICY]
        iam.create_policy(PolicyName=MANAGED_JOBS_POLICY, Path="/service-role/",
                          PolicyDocument=json.dumps(data["Document"]))
    iam.attach_role_policy(RoleName=name, PolicyArn=arn)
    return role["Arn"]


def control(method, path, body=None):
    """(status, parsed JSON) from the stand-in's control API; path is relative to /_standin."""
    url = urlsplit(env("BYOC_STANDIN_CONTROL"))
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, url.path + path, body=data, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    return resp.status, (json.loads(payload) if payload else None)


def create_minimal_jobs(names, region=None, workers=16):
    """CreateJob, through botocore, for each name: the smallest valid job (for listing tests and benches)."""
    import uuid
    from concurrent.futures import ThreadPoolExecutor
    account = env("BYOC_TEST_ACCOUNT")
    kwargs = {"region_name": region} if region else {}
    braket = client("braket", config=Config(max_pool_connections=workers, retries={"total_max_attempts": 3}),
                    **kwargs)

    def create(name):
        braket.create_job(
            clientToken=str(uuid.uuid4()), jobName=name,
            roleArn="arn:aws:iam::%s:role/AmazonBraketJobsExecutionRole" % account,
            algorithmSpecification={"scriptModeConfig": {"entryPoint": "algo", "s3Uri": "s3://b/src/source.tar.gz"},
                                    "containerImage": {"uri": "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-b:1"
                                                       % account}},
            outputDataConfig={"s3Path": "s3://b/jobs/%s/data" % name},
            instanceConfig={"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": 1},
            deviceConfig={"device": "arn:aws:braket:::device/quantum-simulator/amazon/sv1"})

    with ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(create, names):
            pass


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body) if self.body else None

    @property
    def error_type(self):
        value = self.headers.get("x-amzn-errortype") or ""
        return value.split(":", 1)[0]

    @property
    def message(self):
        try:
            return (self.json() or {}).get("message", "")
        except ValueError:
            return ""


def signed_request(method, path, body=None, query="", region=None, key=None, secret=None,
                   endpoint=None, service="braket", tamper=None, extra_headers=None):
    """Sign with botocore's SigV4Auth and send. body: dict (sent as JSON), bytes or None.
    tamper(headers, body) -> (headers, body) may change the request after signing."""
    endpoint = endpoint or env("AWS_ENDPOINT_URL_BRAKET")
    region = region or env("AWS_DEFAULT_REGION")
    key = key or env("AWS_ACCESS_KEY_ID")
    secret = secret or env("AWS_SECRET_ACCESS_KEY")
    if isinstance(body, (dict, list)):
        data = json.dumps(body).encode()
    else:
        data = body or b""
    url = endpoint + path + ("?" + query if query else "")
    headers = {"Content-Type": "application/json"}
    headers.update(extra_headers or {})
    request = AWSRequest(method=method, url=url, data=data, headers=headers)
    SigV4Auth(Credentials(key, secret), service, region).add_auth(request)
    prepared = request.prepare()
    send_headers = dict(prepared.headers.items())
    send_body = prepared.body or b""
    if isinstance(send_body, str):
        send_body = send_body.encode()
    if tamper:
        send_headers, send_body = tamper(send_headers, send_body)
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    conn.request(method, parts.path + ("?" + parts.query if parts.query else ""), body=send_body,
                 headers=send_headers)
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    return Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, payload)
