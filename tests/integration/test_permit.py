#!/usr/bin/env python3
"""byoc permit against moto (SigV4 checked), through tests/topology/ecr_front.py, which
counts the requests (so "nothing was sent" is measured) and, where asked, answers IAM
SimulatePrincipalPolicy (moto lacks it) from the role's real policies in moto.

  - show: no policy; a dry run prints a diff and sends nothing
  - grant, grant again (no request), a grant through a foreign account-wide statement
  - foreign statements kept as written and in place through grants and revokes
  - revoke; the last revoke deletes the policy
  - "*" refused (nothing read or sent) unless --force; a foreign wildcard action refused
  - malformed principals, a bad repository name: exit 2, not one request
  - an existing policy that is not valid JSON: one clear error, nothing sent
  - --check: the name rule (moto: no simulation), the repository policy, IAM simulation
    (allowed and denied), and a caller that may not simulate
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, env  # noqa: E402
from ecr_front import EcrFront  # noqa: E402

SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
ACCOUNT = env("BYOC_TEST_ACCOUNT")
RUN_ID = "%d-%d" % (os.getpid(), int(time.time()))
REPO = "amazon-braket-itest/permit-" + RUN_ID
PLAIN = "itest-permit-plain-" + RUN_ID
ROLE_NAME = "byoc-itest-job-" + RUN_ID
ROLE = "arn:aws:iam::%s:role/%s" % (ACCOUNT, ROLE_NAME)
OTHER = "210987654321"
PULL = ["ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]

checks = Checks("test_permit")
ecr = client("ecr")
iam = client("iam")
front = EcrFront(env("AWS_ENDPOINT_URL")).start()


class Run:
    def __init__(self, proc):
        self.rc, self.out, self.err = proc.returncode, proc.stdout, proc.stderr

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError:
            return None


def byoc(*args, endpoint=None):
    e = dict(os.environ, AWS_ENDPOINT_URL=endpoint or front.url)
    return Run(subprocess.run([BYOC] + list(args), capture_output=True, text=True, env=e, timeout=300))


def policy():
    try:
        return json.loads(ecr.get_repository_policy(repositoryName=REPO)["policyText"])
    except ecr.exceptions.RepositoryPolicyNotFoundException:
        return None


def ours(doc):
    return [s for s in (doc or {}).get("Statement", []) if s.get("Sid", "").startswith("ByocPull")]


def one_error(run, name, *needles):
    errors = [l for l in run.err.splitlines() if l.startswith("byoc: ")]
    checks.check(len(errors) == 1, name + ": one error line", run.err)
    for n in needles:
        checks.check(errors and n in errors[0], name + ": the error says %r" % n, run.err)


def test_show_and_dry_run():
    r = byoc("--json", "permit", REPO)
    checks.equal(r.rc, 0, "show: exit 0")
    doc = r.json() or {}
    checks.equal(doc.get("policy"), None, "show: no policy yet")
    checks.equal(doc.get("warnings"), [], "show: no warnings")
    r = byoc("permit", REPO)
    checks.check("has no repository policy" in r.err, "show (text): says there is none", r.err)

    front.reset()
    r = byoc("permit", REPO, "--allow", ROLE, "--dry-run")
    checks.equal(r.rc, 0, "dry run: exit 0")
    checks.check(r.out.startswith("--- %s (current policy)\n+++ %s (new policy)\n@@ " % (REPO, REPO)),
                 "dry run: a unified diff on stdout", r.out)
    checks.check('+      "Sid": "ByocPull",' in r.out and ('+          "%s"' % ROLE) in r.out,
                 "dry run: the new statement in the diff", r.out)
    checks.check("Dry run: nothing was sent." in r.err, "dry run: says so")
    checks.equal(front.count("SetRepositoryPolicy"), 0, "dry run: no SetRepositoryPolicy")
    checks.equal(policy(), None, "dry run: moto still has no policy")
    r = byoc("--json", "permit", REPO, "--allow", ROLE, "--dry-run")
    doc = r.json() or {}
    checks.equal((doc.get("changed"), doc.get("sent")), (True, False), "dry run JSON: changed, not sent")
    checks.check("+++ " in doc.get("diff", ""), "dry run JSON: the diff")
    checks.equal(ours(doc.get("policy"))[0]["Principal"]["AWS"] if ours(doc.get("policy")) else None, [ROLE],
                 "dry run JSON: the policy it would set")


def test_grant_idempotent():
    front.reset()
    r = byoc("--json", "permit", REPO, "--allow", ROLE)
    checks.equal(r.rc, 0, "grant: exit 0")
    doc = r.json() or {}
    checks.equal((doc.get("changed"), doc.get("sent"), doc.get("added")), (True, True, [ROLE]), "grant: sent")
    stored = policy()
    checks.equal(len(ours(stored)), 1, "grant: byoc's statement in moto")
    st = ours(stored)[0] if ours(stored) else {}
    checks.equal((st.get("Effect"), st.get("Principal"), sorted(st.get("Action", []))),
                 ("Allow", {"AWS": [ROLE]}, PULL), "grant: exactly the pull actions for the role")
    checks.equal(doc.get("policy"), stored, "grant: the JSON shows what was set")
    checks.equal(front.count("SetRepositoryPolicy"), 1, "grant: one SetRepositoryPolicy")

    front.reset()
    r = byoc("--json", "permit", REPO, "--allow", ROLE)
    doc = r.json() or {}
    checks.equal((r.rc, doc.get("changed"), doc.get("sent")), (0, False, False), "grant twice: no change")
    checks.check(any("already" in w for w in doc.get("warnings", [])), "grant twice: says it is already granted")
    checks.equal(front.count("SetRepositoryPolicy"), 0, "grant twice: nothing sent")
    checks.equal(policy(), stored, "grant twice: policy unchanged")


FOREIGN = [
    {"Sid": "DenyOld", "Effect": "Deny", "Principal": {"AWS": "arn:aws:iam::%s:role/old" % ACCOUNT},
     "Action": "ecr:BatchGetImage"},
    {"Action": ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer", "ecr:BatchCheckLayerAvailability"],
     "Principal": {"AWS": "arn:aws:iam::%s:root" % "111122223333"}, "Effect": "Allow", "Sid": "Partner"},
]


def test_foreign_statements():
    current = policy()
    mixed = {"Version": "2012-10-17", "Statement": [FOREIGN[0]] + current["Statement"] + [FOREIGN[1]]}
    ecr.set_repository_policy(repositoryName=REPO, policyText=json.dumps(mixed))
    before = policy()["Statement"]
    r = byoc("--json", "permit", REPO, "--allow", OTHER, "--allow", "arn:aws:iam::%s:user/alice" % ACCOUNT)
    checks.equal(r.rc, 0, "foreign: grant two more")
    after = policy()["Statement"]
    checks.equal([after[0], after[2]], [before[0], before[2]], "foreign: other statements kept, in place")
    checks.equal(json.dumps(after[0]), json.dumps(before[0]), "foreign: key order kept")
    checks.equal(ours(policy())[0]["Principal"]["AWS"],
                 [ROLE, "arn:aws:iam::%s:root" % OTHER, "arn:aws:iam::%s:user/alice" % ACCOUNT],
                 "foreign: principals added to byoc's statement (account id -> root ARN)")
    # Granted already by the foreign Partner statement: nothing to do.
    front.reset()
    r = byoc("--json", "permit", REPO, "--allow", "111122223333")
    checks.equal(((r.json() or {}).get("changed"), front.count("SetRepositoryPolicy")), (False, 0),
                 "foreign: an account the Partner statement covers needs no change")
    checks.check(any("Partner" in w for w in (r.json() or {}).get("warnings", [])), "foreign: names the statement")
    # Revoking it: byoc cannot, and says the foreign statement still grants it.
    r = byoc("--json", "permit", REPO, "--revoke", "111122223333")
    checks.check(any("Partner" in w and "leaves as it is" in w for w in (r.json() or {}).get("warnings", [])),
                 "foreign: revoke reports the remaining foreign grant", r.out)

    r = byoc("--json", "permit", REPO, "--revoke", ROLE, "--revoke", OTHER)
    doc = r.json() or {}
    checks.equal(sorted(doc.get("revoked", [])), sorted([ROLE, "arn:aws:iam::%s:root" % OTHER]), "revoke: two")
    checks.equal(ours(policy())[0]["Principal"]["AWS"], ["arn:aws:iam::%s:user/alice" % ACCOUNT], "revoke: one left")
    r = byoc("--json", "permit", REPO, "--revoke", "arn:aws:iam::%s:user/alice" % ACCOUNT)
    checks.equal(ours(policy()), [], "revoke: byoc's statement gone with its last principal")
    checks.equal(policy()["Statement"], [before[0], before[2]], "revoke: the foreign statements remain")
    # Remove the foreign ones, grant and revoke: the policy disappears.
    ecr.delete_repository_policy(repositoryName=REPO)
    byoc("permit", REPO, "--allow", ROLE)
    r = byoc("--json", "permit", REPO, "--revoke", ROLE)
    checks.equal(((r.json() or {}).get("sent"), (r.json() or {}).get("policy")), (True, None),
                 "last revoke: sent, no policy left")
    checks.equal(policy(), None, "last revoke: DeleteRepositoryPolicy")


def test_refusals():
    front.reset()
    r = byoc("permit", REPO, "--allow", "*")
    checks.equal(r.rc, 2, "'*': exit 2")
    one_error(r, "'*'", "--allow", 'Principal "*"', "--force")
    r = byoc("permit", REPO, "--allow", "arn:aws:iam::123:role/x")
    checks.equal(r.rc, 2, "malformed ARN: exit 2")
    one_error(r, "malformed ARN", "--allow", "not an IAM role ARN")
    r = byoc("permit", REPO, "--revoke", "role/x")
    checks.equal(r.rc, 2, "malformed revoke: exit 2")
    one_error(r, "malformed revoke", "--revoke")
    r = byoc("permit", REPO, "--allow", "12345")
    checks.equal(r.rc, 2, "short account id: exit 2")
    r = byoc("permit", "Bad_Name", "--allow", ROLE)
    checks.equal(r.rc, 2, "bad repository name: exit 2")
    one_error(r, "bad repository name", "REPOSITORY")
    r = byoc("permit", REPO, "--check", "arn:aws:iam::%s:user/alice" % ACCOUNT)
    checks.equal(r.rc, 2, "--check with a user ARN: exit 2")
    checks.check(front.count() == 0, "refusals: not one request", front.counts())

    # --force lets "*" through, with the finding as a warning.
    r = byoc("--json", "permit", REPO, "--allow", "*", "--force")
    checks.equal(r.rc, 0, "'*' --force: exit 0")
    checks.equal(ours(policy())[0]["Principal"]["AWS"] if ours(policy()) else None, ["*"], "'*' --force: set")
    checks.check(any('Principal "*"' in w for w in (r.json() or {}).get("warnings", [])), "'*' --force: warned")
    r = byoc("--json", "permit", REPO, "--revoke", "*")
    checks.equal(policy(), None, "'*' revoked")

    # A foreign statement with a wildcard action blocks an edit unless forced.
    wild = {"Version": "2012-10-17", "Statement": [{"Sid": "Wild", "Effect": "Allow", "Principal": {"AWS": ROLE},
                                                    "Action": "ecr:*"}]}
    ecr.set_repository_policy(repositoryName=REPO, policyText=json.dumps(wild))
    front.reset()
    r = byoc("permit", REPO, "--allow", OTHER)
    checks.equal(r.rc, 2, "foreign wildcard action: exit 2")
    one_error(r, "foreign wildcard action", "statement Wild", "wildcard action 'ecr:*'", "nothing was sent")
    checks.equal(front.count("SetRepositoryPolicy"), 0, "foreign wildcard action: nothing sent")
    r = byoc("permit", REPO, "--allow", OTHER, "--force")
    checks.equal(r.rc, 0, "foreign wildcard action --force: exit 0")
    ecr.delete_repository_policy(repositoryName=REPO)

    # An existing policy that is not valid JSON (ECR would not hand one out; the front does).
    front.reset()
    front.answer_next("GetRepositoryPolicy", 200, {"registryId": ACCOUNT, "repositoryName": REPO,
                                                   "policyText": "{\"Version\": \"2012-10-17\", \"Statement\": [}"})
    r = byoc("permit", REPO, "--allow", ROLE)
    checks.equal(r.rc, 1, "invalid policy JSON: exit 1")
    one_error(r, "invalid policy JSON", "not valid", "nothing was changed")
    checks.equal(front.count("SetRepositoryPolicy") + front.count("DeleteRepositoryPolicy"), 0,
                 "invalid policy JSON: nothing sent")

    r = byoc("permit", "amazon-braket-itest/no-such-" + RUN_ID, "--allow", ROLE)
    checks.equal(r.rc, 1, "missing repository: exit 1")
    one_error(r, "missing repository", "RepositoryNotFoundException")


def check_json(r):
    doc = r.json() or {}
    methods = {c["method"]: c["result"] for c in doc.get("checks", [])}
    return doc, methods


def test_check():
    ecr.create_repository(repositoryName=PLAIN)
    # moto has no SimulatePrincipalPolicy (500): the name rule and the repository policy answer.
    r = byoc("--json", "permit", REPO, "--check", ROLE)
    doc, methods = check_json(r)
    checks.equal((r.rc, doc.get("can_pull"), doc.get("method")), (1, False, "name-rule"),
                 "check, no grant: cannot pull, by the name rule")
    checks.equal(methods.get("iam-simulation"), "unavailable", "check: simulation unavailable on moto")
    checks.equal(methods.get("name-rule"), "not-attached", "check: the role lacks the managed policy")
    byoc("permit", REPO, "--allow", ROLE)
    r = byoc("--json", "permit", REPO, "--check", ROLE)
    doc, methods = check_json(r)
    checks.equal((r.rc, doc.get("can_pull"), doc.get("method")), (0, True, "repository-policy"),
                 "check after a grant: the repository policy answers")
    r = byoc("permit", REPO, "--check", ROLE)
    checks.check(r.out.startswith("can pull: ") and "(answered by repository-policy)" in r.out, "check (text)", r.out)
    r = byoc("--json", "permit", PLAIN, "--check", ROLE)
    doc, methods = check_json(r)
    checks.equal((doc.get("can_pull"), methods.get("name-rule")), (False, "not-covered"),
                 "check, plain name: not covered by the managed policy")
    checks.check("amazon-braket-" + PLAIN in doc.get("reason", ""), "check, plain name: suggests the prefix")

    # IAM's own answer: the role gets the pull actions on amazon-braket* (as the managed policy does).
    iam.put_role_policy(RoleName=ROLE_NAME, PolicyName="pull", PolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": PULL, "Resource": "arn:aws:ecr:*:*:repository/amazon-braket*"},
            {"Effect": "Allow", "Action": "ecr:GetAuthorizationToken", "Resource": "*"}]}))
    sim = EcrFront(env("AWS_ENDPOINT_URL"), simulate="evaluate").start()
    byoc("permit", REPO, "--revoke", ROLE, endpoint=sim.url)
    r = byoc("--json", "permit", REPO, "--check", ROLE, endpoint=sim.url)
    doc, methods = check_json(r)
    checks.equal((r.rc, doc.get("can_pull"), doc.get("method")), (0, True, "iam-simulation"),
                 "simulation: allowed by the role's policy")
    checks.equal(sim.count("SimulatePrincipalPolicy"), 1, "simulation: asked once")
    r = byoc("--json", "permit", PLAIN, "--check", ROLE, endpoint=sim.url)
    doc, methods = check_json(r)
    checks.equal((r.rc, doc.get("can_pull"), doc.get("method")), (1, False, "iam-simulation"),
                 "simulation: denied outside amazon-braket*")
    checks.check("implicitDeny" in doc.get("reason", ""), "simulation: says which decision", doc.get("reason"))
    # A repository policy grant counts in the simulation too (sent as ResourcePolicy).
    byoc("permit", PLAIN, "--allow", ROLE, endpoint=sim.url)
    r = byoc("--json", "permit", PLAIN, "--check", ROLE, endpoint=sim.url)
    doc, _ = check_json(r)
    checks.equal((doc.get("can_pull"), doc.get("method")), (True, "iam-simulation"),
                 "simulation: the repository policy grant")
    sim.stop()

    # A caller without iam:SimulatePrincipalPolicy: the other methods answer, and say why.
    deny = EcrFront(env("AWS_ENDPOINT_URL"), simulate="deny").start()
    r = byoc("--json", "permit", PLAIN, "--check", ROLE, endpoint=deny.url)
    doc, methods = check_json(r)
    checks.equal((doc.get("can_pull"), doc.get("method")), (True, "repository-policy"),
                 "no simulation permission: the repository policy answers")
    detail = [c["detail"] for c in doc.get("checks", []) if c["method"] == "iam-simulation"]
    checks.check(detail and "AccessDenied" in detail[0], "no simulation permission: says why", detail)
    deny.stop()


def setup():
    ecr.create_repository(repositoryName=REPO)
    iam.create_role(RoleName=ROLE_NAME, AssumeRolePolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"},
                                                "Action": "sts:AssumeRole"}]}))


def cleanup():
    for repo in (REPO, PLAIN):
        try:
            ecr.delete_repository(repositoryName=repo, force=True)
        except Exception:
            pass
    try:
        for name in iam.list_role_policies(RoleName=ROLE_NAME)["PolicyNames"]:
            iam.delete_role_policy(RoleName=ROLE_NAME, PolicyName=name)
        iam.delete_role(RoleName=ROLE_NAME)
    except Exception:
        pass
    front.stop()


if not os.access(BYOC, os.X_OK):
    print("test_permit: %s is not built" % BYOC)
    sys.exit(1)
try:
    setup()
    for t in (test_show_and_dry_run, test_grant_idempotent, test_foreign_statements, test_refusals, test_check):
        checks.run(t)
finally:
    cleanup()
checks.done()
