#!/usr/bin/env python3
"""The test topology itself works: moto enforces SigV4 for STS/ECR/S3/Logs/IAM with the
byoc-test key, moto's ECR token logs in to the TLS registry under the ECR-shaped name,
Debian's docker client pushes there through the topology's dockerd, the base images run,
and the Braket stand-in answers. Run: tests/topology/with-env.sh python3 tests/integration/test_topology.py
"""

import base64
import os
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, control, env, signed_request  # noqa: E402

import boto3  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

T = Checks("test_topology")
RUN = uuid.uuid4().hex[:8]
REGISTRY = env("BYOC_TEST_REGISTRY")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
MOTO = env("AWS_ENDPOINT_URL")
DOCKER = env("BYOC_TEST_DOCKER_CLI")


def error_of(call):
    """(http status, error code) of a call that must fail."""
    try:
        call()
    except ClientError as exc:
        return exc.response["ResponseMetadata"]["HTTPStatusCode"], exc.response["Error"].get("Code")
    return 200, None


def test_environment():
    for name in ("DOCKER_HOST", "BYOC_TEST_REGISTRY", "BYOC_TEST_REGISTRY_CA", "BYOC_TEST_ACCOUNT",
                 "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BRAKET", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                 "AWS_DEFAULT_REGION", "AWS_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
                 "BYOC_TEST_BASE_BUSYBOX", "BYOC_TEST_BASE_PYTHON", "BYOC_STANDIN_CONTROL", "BYOC_TOPO_DIR"):
        T.check(os.environ.get(name), "env has %s" % name)
    for name in ("AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"):
        T.equal(os.path.getsize(os.environ[name]), 0, "%s is an empty file" % name)
    T.check("AWS_PROFILE" not in os.environ, "no AWS_PROFILE leaks in")
    T.equal(REGISTRY, "%s.dkr.ecr.us-east-1.amazonaws.com" % ACCOUNT, "registry host is ECR-shaped for the account")
    mode = os.stat(os.path.join(env("BYOC_TOPO_DIR"), "env")).st_mode & 0o777
    T.equal(mode, 0o600, "env file (holds the secret key) is 0600")


def test_moto_signed_requests_work():
    ident = client("sts").get_caller_identity()
    T.equal(ident["Account"], ACCOUNT, "STS account")
    T.check(ident["Arn"].endswith(":user/byoc-test"), "STS caller is the byoc-test user", ident["Arn"])
    T.equal(client("iam").get_user(UserName="byoc-test")["User"]["UserName"], "byoc-test", "IAM GetUser")

    ecr = client("ecr")
    repo = "byoc-topology-%s" % RUN
    created = ecr.create_repository(repositoryName=repo)["repository"]
    T.equal(created["repositoryUri"], "%s/%s" % (REGISTRY, repo), "ECR repositoryUri uses the registry host")
    names = [r["repositoryName"] for r in ecr.describe_repositories()["repositories"]]
    T.check(repo in names, "ECR DescribeRepositories lists the new repository")
    ecr.delete_repository(repositoryName=repo, force=True)

    s3 = client("s3")
    bucket = "byoc-topology-%s" % RUN
    s3.create_bucket(Bucket=bucket)
    s3.put_object(Bucket=bucket, Key="a/b.txt", Body=b"hello")
    T.equal(s3.get_object(Bucket=bucket, Key="a/b.txt")["Body"].read(), b"hello", "S3 put/get object")
    s3.delete_object(Bucket=bucket, Key="a/b.txt")
    s3.delete_bucket(Bucket=bucket)

    logs = client("logs")
    group, stream = "/byoc/topology/%s" % RUN, "s1"
    logs.create_log_group(logGroupName=group)
    logs.create_log_stream(logGroupName=group, logStreamName=stream)
    now = int(time.time() * 1000)
    logs.put_log_events(logGroupName=group, logStreamName=stream,
                        logEvents=[{"timestamp": now, "message": "Metrics - timestamp=1; loss=0.5;"}])
    events = logs.get_log_events(logGroupName=group, logStreamName=stream, startFromHead=True)["events"]
    T.equal([e["message"] for e in events], ["Metrics - timestamp=1; loss=0.5;"], "Logs put/get events")
    logs.delete_log_group(logGroupName=group)


def test_moto_refuses_bad_signatures():
    bad = {"aws_access_key_id": env("AWS_ACCESS_KEY_ID"), "aws_secret_access_key": env("AWS_SECRET_ACCESS_KEY") + "x"}
    cases = {
        "sts": lambda c: c.get_caller_identity(),
        "iam": lambda c: c.get_user(UserName="byoc-test"),
        "ecr": lambda c: c.describe_repositories(),
        "s3": lambda c: c.list_buckets(),
        "logs": lambda c: c.describe_log_groups(),
    }
    for service, call in cases.items():
        status, code = error_of(lambda: call(client(service, **bad)))
        T.check(status in (400, 403), "%s refuses a bad signature (%s %s)" % (service, status, code))
    status, code = error_of(lambda: client("sts", aws_access_key_id="AKIAUNKNOWNKEY000000",
                                           aws_secret_access_key="x").get_caller_identity())
    T.check(status == 403, "sts refuses an unknown access key (%s %s)" % (status, code))


def _unsigned(path, data, headers):
    request = urllib.request.Request(MOTO + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_moto_refuses_unsigned_requests():
    # moto answers a request with no Authorization header with 500 (it looks the header up); a refusal either way.
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    cases = {
        "sts": ("/", b"Action=GetCallerIdentity&Version=2011-06-15", form),
        "iam": ("/", b"Action=ListUsers&Version=2010-05-08", form),
        "ecr": ("/", b"{}", {"Content-Type": "application/x-amz-json-1.1",
                             "X-Amz-Target": "AmazonEC2ContainerRegistry_V20150921.DescribeRepositories"}),
        "logs": ("/", b"{}", {"Content-Type": "application/x-amz-json-1.1",
                              "X-Amz-Target": "Logs_20140328.DescribeLogGroups"}),
        "s3": ("/", None, {}),
    }
    for service, (path, data, headers) in cases.items():
        # Without a credential scope moto picks the service from the Host header.
        headers = dict(headers, Host="%s.us-east-1.amazonaws.com" % service)
        status = _unsigned(path, data, headers)
        T.check(status >= 400, "%s refuses an unsigned request (HTTP %s)" % (service, status))


def _registry_get(path, auth=None):
    ctx = ssl.create_default_context(cafile=env("BYOC_TEST_REGISTRY_CA"))
    headers = {"Accept": "application/vnd.docker.distribution.manifest.v2+json"}
    if auth:
        headers["Authorization"] = "Basic " + auth
    request = urllib.request.Request("https://%s%s" % (REGISTRY, path), headers=headers)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=ctx))
    try:
        with opener.open(request, timeout=10) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def ecr_token():
    data = client("ecr").get_authorization_token()["authorizationData"][0]
    return data


def test_ecr_token_and_registry_auth():
    data = ecr_token()
    user, _, password = base64.b64decode(data["authorizationToken"]).decode().partition(":")
    T.equal(user, "AWS", "ECR token user is AWS")
    T.equal(password, "%s-auth-token" % ACCOUNT, "moto's ECR password is <account>-auth-token")
    T.equal(data["proxyEndpoint"], "https://" + REGISTRY, "ECR proxyEndpoint is the test registry")
    T.check(data.get("expiresAt") is not None, "ECR token carries expiresAt")

    status, headers, _ = _registry_get("/v2/")
    T.equal(status, 401, "registry /v2/ without credentials is 401 (TLS verified with the test CA)")
    challenge = headers.get("Www-Authenticate") or headers.get("WWW-Authenticate") or ""
    T.check(challenge.startswith("Basic realm="), "registry asks for Basic auth", challenge)
    status, _, _ = _registry_get("/v2/", data["authorizationToken"])
    T.equal(status, 200, "registry accepts moto's ECR token as Basic credentials")
    wrong = base64.b64encode(b"AWS:not-the-password").decode()
    status, _, _ = _registry_get("/v2/", wrong)
    T.equal(status, 401, "registry refuses a wrong password")


def docker(*args, config=None, stdin=None):
    environ = dict(os.environ)
    if config:
        environ["DOCKER_CONFIG"] = config
    return subprocess.run([DOCKER] + list(args), input=stdin, capture_output=True, text=True, env=environ,
                          timeout=300)


def test_engine_and_base_images():
    version = docker("version", "--format", "{{.Server.Version}} {{.Client.Version}}")
    T.equal(version.returncode, 0, "Debian docker client talks to the topology's dockerd")
    server, _, client_version = version.stdout.strip().partition(" ")
    T.equal(server, client_version, "the daemon and /usr/bin/docker are the same version")
    run = docker("run", "--rm", "--network", "none", env("BYOC_TEST_BASE_BUSYBOX"), "sh", "-c", "echo busybox-ok")
    T.check(run.stdout.strip() == "busybox-ok", "busybox base image runs", run.stderr)
    run = docker("run", "--rm", "--network", "none", env("BYOC_TEST_BASE_PYTHON"), "python3", "-c",
                 "import json, tarfile, ssl; print(json.dumps({'ok': 1}))")
    T.check(run.stdout.strip() == '{"ok": 1}', "python base image has json and tarfile", run.stderr)


def test_login_and_push_with_debian_client():
    data = ecr_token()
    user, _, password = base64.b64decode(data["authorizationToken"]).decode().partition(":")
    ref = "%s/byoc-topology-test/push-%s:1" % (REGISTRY, RUN)
    with tempfile.TemporaryDirectory() as cfg:
        login = docker("login", "-u", user, "--password-stdin", REGISTRY, config=cfg, stdin=password)
        T.check(login.returncode == 0, "docker login with moto's ECR token", login.stderr)
        T.equal(docker("tag", env("BYOC_TEST_BASE_BUSYBOX"), ref).returncode, 0, "docker tag")
        push = docker("push", ref, config=cfg)
        T.check(push.returncode == 0, "docker push to the TLS registry", push.stderr)
        digest = next((w for w in push.stdout.split() if w.startswith("sha256:")), None)
        T.check(digest, "push printed a digest", push.stdout)
        status, headers, _ = _registry_get("/v2/byoc-topology-test/push-%s/manifests/1" % RUN,
                                           data["authorizationToken"])
        T.equal(status, 200, "registry serves the pushed manifest")
        T.equal(headers.get("Docker-Content-Digest"), digest, "registry digest matches the pushed digest")
        docker("rmi", ref)
        pull = docker("pull", ref, config=cfg)
        T.check(pull.returncode == 0, "docker pull back from the registry", pull.stderr)
        docker("rmi", ref)
    with tempfile.TemporaryDirectory() as anonymous:
        docker("tag", env("BYOC_TEST_BASE_BUSYBOX"), ref)
        push = docker("push", ref, config=anonymous)
        T.check(push.returncode != 0, "push without login is refused")
        docker("rmi", ref)


def test_standin_answers():
    status, body = control("GET", "/health")
    T.equal(status, 200, "stand-in control health")
    T.check(body and body.get("ok"), "stand-in reports ok")
    resp = signed_request("POST", "/jobs", {"filters": [], "maxResults": 1})
    T.equal(resp.status, 200, "stand-in accepts a request signed with the moto key")
    devices = client("braket").search_devices(filters=[])["devices"]
    T.check(any(d["deviceName"] == "SV1" for d in devices), "boto3's braket client reaches the stand-in")
    T.equal(boto3.client("braket").meta.endpoint_url, env("AWS_ENDPOINT_URL_BRAKET"),
            "plain boto3 picks the stand-in from AWS_ENDPOINT_URL_BRAKET")
    T.equal(boto3.client("ecr").meta.endpoint_url, MOTO, "plain boto3 picks moto from AWS_ENDPOINT_URL")


if __name__ == "__main__":
    for test in (test_environment, test_moto_signed_requests_work, test_moto_refuses_bad_signatures,
                 test_moto_refuses_unsigned_requests, test_ecr_token_and_registry_auth,
                 test_engine_and_base_images, test_login_and_push_with_debian_client, test_standin_answers):
        T.run(test)
    T.done()
