#!/usr/bin/env python3
"""byoc preflight's permissions.caller check on the topology: the caller must be allowed
iam:PassRole on the execution role and braket:CreateJob.

The caller is a fresh IAM user in moto (its own access key, signed requests: moto enforces its
policies too) whose inline policy allows the services preflight reads but not iam:PassRole.
IAM's answer comes from tests/topology/ecr_front.py (simulate="evaluate"), which evaluates the
user's inline, attached and group policies in moto, as IAM's SimulatePrincipalPolicy would:
  - without iam:PassRole        -> fail, naming iam:PassRole and the fix;
  - a managed policy granting it -> pass;
  - a group with an explicit Deny of braket:CreateJob -> fail (explicit deny wins over Allow);
  - out of the group            -> pass again;
  - simulation refused (403)    -> warn, saying IAM could not tell.
"""

import json
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import Checks, client, control, env  # noqa: E402
from ecr_front import EcrFront  # noqa: E402

C = Checks("test_preflight_caller")
from testkit import BYOC_BIN as BYOC  # noqa: E402
FIX = os.path.join(SOURCE, "tests", "fixtures", "preflight")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
HOST = env("BYOC_TEST_REGISTRY")
RUN_ID = "%x" % random.getrandbits(24)
USER = "byoc-pf-caller-" + RUN_ID
USER_ARN = "arn:aws:iam::%s:user/%s" % (ACCOUNT, USER)
ROLE_NAME = "AmazonBraketJobsExecutionRole-pfc" + RUN_ID
ROLE = "arn:aws:iam::%s:role/service-role/%s" % (ACCOUNT, ROLE_NAME)
PASS_POLICY = "byoc-pf-passrole-" + RUN_ID
PASS_POLICY_ARN = "arn:aws:iam::%s:policy/%s" % (ACCOUNT, PASS_POLICY)
GROUP = "byoc-pf-nocreate-" + RUN_ID
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"

# What preflight reads, and nothing of iam:PassRole.
READ_ONLY = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": [
    "sts:*", "ecr:*", "s3:*", "logs:*", "braket:*", "iam:Get*", "iam:List*", "iam:SimulatePrincipalPolicy"],
    "Resource": "*"}]}
GRANT_PASS = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "iam:PassRole",
                                                      "Resource": "arn:aws:iam::%s:role/service-role/*" % ACCOUNT}]}
DENY_CREATE = {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Action": "braket:Create*",
                                                       "Resource": "*"}]}

iam = client("iam")
KEY = {}


def preflight(front):
    cmd = [BYOC, "--json", "--project", os.path.join(FIX, "image"), "preflight",
           "--image-uri", "%s/amazon-braket-pfc-%s:none" % (HOST, RUN_ID),
           "--source-module", os.path.join(FIX, "src_ok"), "--entry-point", "src_ok.algo:main",
           "--role-arn", ROLE, "--device", SV1]
    e = dict(os.environ, AWS_ENDPOINT_URL=front.url, AWS_ACCESS_KEY_ID=KEY["id"], AWS_SECRET_ACCESS_KEY=KEY["secret"])
    e.pop("AWS_SESSION_TOKEN", None)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=e)
    try:
        checks = {c["name"]: c for c in json.loads(p.stdout).get("checks", [])}
    except ValueError:
        checks = {}
    if "permissions.caller" not in checks:
        print("stderr of byoc preflight:\n" + p.stderr[-3000:])
    C.check("Sanitizer" not in p.stderr and "runtime error" not in p.stderr, "byoc preflight: no sanitizer report",
            p.stderr[-3000:])
    return p.returncode, checks


def caller(name, front, want):
    rc, checks = preflight(front)
    got = checks.get("permissions.caller", {})
    C.check(got.get("status") == want, "%s: permissions.caller is %s" % (name, want), got or sorted(checks))
    C.check(checks.get("credentials", {}).get("status") == "pass" and USER_ARN in checks["credentials"]["message"],
            "%s: the caller is the test user" % name, checks.get("credentials"))
    return rc, got


def setup():
    iam.create_role(RoleName=ROLE_NAME, Path="/service-role/", AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"},
                                                "Action": "sts:AssumeRole"}]}))
    iam.create_user(UserName=USER)
    iam.put_user_policy(UserName=USER, PolicyName="read-only", PolicyDocument=json.dumps(READ_ONLY))
    key = iam.create_access_key(UserName=USER)["AccessKey"]
    KEY.update(id=key["AccessKeyId"], secret=key["SecretAccessKey"])
    # the Braket stand-in (GetDevice) accepts this key too
    status, _ = control("POST", "/credentials", {"accessKeyId": KEY["id"], "secretAccessKey": KEY["secret"]})
    C.equal(status, 200, "setup: the stand-in knows the test user's key")
    iam.create_policy(PolicyName=PASS_POLICY, PolicyDocument=json.dumps(GRANT_PASS))
    iam.create_group(GroupName=GROUP)
    iam.put_group_policy(GroupName=GROUP, PolicyName="deny-create", PolicyDocument=json.dumps(DENY_CREATE))


def cleanup():
    steps = [
        lambda: iam.remove_user_from_group(GroupName=GROUP, UserName=USER),
        lambda: iam.delete_group_policy(GroupName=GROUP, PolicyName="deny-create"),
        lambda: iam.delete_group(GroupName=GROUP),
        lambda: iam.detach_user_policy(UserName=USER, PolicyArn=PASS_POLICY_ARN),
        lambda: iam.delete_policy(PolicyArn=PASS_POLICY_ARN),
        lambda: iam.delete_user_policy(UserName=USER, PolicyName="read-only"),
        lambda: iam.delete_access_key(UserName=USER, AccessKeyId=KEY["id"]),
        lambda: iam.delete_user(UserName=USER),
        lambda: iam.delete_role(RoleName=ROLE_NAME),
    ]
    for step in steps:
        try:
            step()
        except Exception:
            pass


def test_pass_role(front):
    rc, got = caller("no iam:PassRole", front, "fail")
    C.equal(rc, 1, "no iam:PassRole: exit 1")
    msg, fix = got.get("message", ""), got.get("fix", "")
    C.check("iam:PassRole" in msg and ROLE in msg, "no iam:PassRole: the message names the action and the role", msg)
    C.check("braket:CreateJob" not in msg, "no iam:PassRole: CreateJob is not blamed", msg)
    C.check("iam:PassRole" in fix and "\n" not in fix, "no iam:PassRole: a one-line fix naming iam:PassRole", fix)

    iam.attach_user_policy(UserName=USER, PolicyArn=PASS_POLICY_ARN)
    _, got = caller("after attaching a policy granting iam:PassRole", front, "pass")
    C.check(ROLE in got.get("message", ""), "granted: the message names the role", got)


def test_explicit_deny(front):
    iam.add_user_to_group(GroupName=GROUP, UserName=USER)
    _, got = caller("a group denies braket:Create*", front, "fail")
    msg = got.get("message", "")
    C.check("braket:CreateJob" in msg and "explicitDeny" in msg, "explicit deny: named as such", msg)
    iam.remove_user_from_group(GroupName=GROUP, UserName=USER)
    caller("out of the denying group", front, "pass")


def test_simulation_refused():
    deny = EcrFront(env("AWS_ENDPOINT_URL"), simulate="deny").start()
    try:
        _, got = caller("SimulatePrincipalPolicy refused", deny, "warn")
        C.check("cannot tell" in got.get("message", ""), "refused: says IAM could not tell", got)
    finally:
        deny.stop()


def main():
    os.chdir(os.path.join(FIX, "image"))
    front = EcrFront(env("AWS_ENDPOINT_URL"), simulate="evaluate").start()
    try:
        setup()
        front.add_credentials(KEY["id"], KEY["secret"])
        C.run(lambda: test_pass_role(front))
        C.run(lambda: test_explicit_deny(front))
        C.run(test_simulation_refused)
    finally:
        cleanup()
        front.stop()
    C.done()


if __name__ == "__main__":
    main()
