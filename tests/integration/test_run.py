#!/usr/bin/env python3
"""byoc run against moto (S3, IAM, STS; SigV4 checked) and the Braket stand-in (SigV4 and the
botocore model checked).

Each case runs the real byoc binary, then checks what arrived against what the Braket SDK would
have sent for the same inputs, computed independently (tests/fixtures/jobs/sdk_expect.py):
  - the CreateJob body, exactly: the expected body is sent again with the recorded clientToken;
    the stand-in answers 201 with the same job only when the body is identical (else 409),
  - the fields of the job as the stand-in stored it (a readable diff when they differ),
  - the S3 objects in moto: source.tar.gz members (tarfile, dereference=True), local input data
    (pathlib prefix semantics), copies, the default bucket (location, public access block, policy).
Plus: multipart upload of a large source, idempotent retry after a dropped connection, --wait
(COMPLETED, FAILED, CANCELLED), --dry-run, byoc.json, refusals that need the services.
"""

import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.parse

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))
sys.path.insert(0, os.path.join(SOURCE, "tests", "fixtures", "jobs"))

from testkit import Checks, client, control, env, signed_request  # noqa: E402
import sdk_expect as sdk  # noqa: E402

C = Checks("test_run")
from testkit import BYOC_BIN as BYOC  # noqa: E402
FIXTURES = os.path.join(SOURCE, "tests", "fixtures", "jobs")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
REGION = env("AWS_DEFAULT_REGION")
ROLE = "arn:aws:iam::%s:role/service-role/AmazonBraketJobsExecutionRole-byoc-run" % ACCOUNT
ENV_ROLE = "arn:aws:iam::%s:role/byoc/EnvRole" % ACCOUNT
INPUTS = "byoc-run-inputs"
OUTPUTS = "byoc-run-outputs"
RUN_ID = "%x" % random.getrandbits(24)

s3 = client("s3")
iam = client("iam")


def image(repo="amazon-braket-my-qtc", tag="latest"):
    return "%s.dkr.ecr.us-east-1.amazonaws.com/%s:%s" % (ACCOUNT, repo, tag)


# ---- the services -----------------------------------------------------------------------

class RequestLog:
    """The stand-in's request log, read incrementally."""

    def __init__(self):
        self.seq = max([r["seq"] for r in control("GET", "/requests")[1]["requests"]] or [0])

    def new(self):
        reqs = control("GET", "/requests?since=%d" % self.seq)[1]["requests"]
        if reqs:
            self.seq = max(r["seq"] for r in reqs)
        return reqs


def standin_job(arn):
    status, job = control("GET", "/jobs/" + urllib.parse.quote(arn, safe=""))
    return job if status == 200 else None


def all_keys(bucket):
    """Every key of a bucket with its bytes' ETag (listed whole: moto's SigV4 check trips on '/' in a prefix)."""
    out = {}
    for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for o in page.get("Contents", []):
            out[o["Key"]] = o["ETag"]
    return out


def s3_snapshot():
    return {b["Name"]: all_keys(b["Name"]) for b in s3.list_buckets()["Buckets"]}


def get_bytes(uri):
    bucket, key = uri[len("s3://"):].split("/", 1)
    return s3.get_object(Bucket=bucket, Key=key)["Body"].read()


def ensure_bucket(name):
    try:
        s3.create_bucket(Bucket=name)
    except s3.exceptions.BucketAlreadyOwnedByYou:
        pass
    except Exception as e:  # moto in us-east-1 may say BucketAlreadyExists for our own
        if "BucketAlready" not in str(e):
            raise


def drop_bucket(name):
    try:
        keys = list(all_keys(name))
    except Exception:
        return
    for k in keys:
        s3.delete_object(Bucket=name, Key=k)
    s3.delete_bucket(Bucket=name)


def ensure_role(name, path):
    trust = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"Service": "braket.amazonaws.com"}, "Action": "sts:AssumeRole"}]})
    try:
        iam.create_role(RoleName=name, Path=path, AssumeRolePolicyDocument=trust)
    except iam.exceptions.EntityAlreadyExistsException:
        pass


def ensure_ecr_image(repo, tag):
    ecr = client("ecr")
    try:
        ecr.create_repository(repositoryName=repo)
    except ecr.exceptions.RepositoryAlreadyExistsException:
        pass
    manifest = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
                           "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "size": 2,
                                      "digest": "sha256:" + "0" * 64}, "layers": []})
    try:
        ecr.put_image(repositoryName=repo, imageManifest=manifest, imageTag=tag)
    except ecr.exceptions.ImageAlreadyExistsException:
        pass


def setup():
    ensure_role("AmazonBraketJobsExecutionRole-byoc-run", "/service-role/")
    for b in (INPUTS, OUTPUTS):
        ensure_bucket(b)
    s3.put_object(Bucket=INPUTS, Key="ref/table.csv", Body=b"x,y\n")
    ensure_ecr_image("amazon-braket-my-qtc", "latest")
    ensure_ecr_image("amazon-braket-base-jobs", "1.0")


# ---- running byoc ---------------------------------------------------------------------------

def workdir():
    d = tempfile.mkdtemp(prefix="byoc-run-")
    shutil.copytree(FIXTURES, d, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.pyc", "__pycache__",
                                                                                  "sdk_expect.py"))
    return d


def cli_args(job):
    a = []
    for key, flag in (("image_uri", "--image-uri"), ("source_module", "--source-module"),
                      ("entry_point", "--entry-point"), ("role_arn", "--role-arn"), ("device", "--device"),
                      ("instance_type", "--instance-type"), ("instance_count", "--instance-count"),
                      ("volume_gb", "--volume-gb"), ("output_s3", "--output-s3"), ("kms_key_id", "--kms-key-id"),
                      ("checkpoint_s3", "--checkpoint-s3"), ("checkpoint_local_path", "--checkpoint-local-path"),
                      ("code_location", "--code-location"), ("max_runtime", "--max-runtime"),
                      ("job_name", "--job-name"), ("distribution", "--distribution"),
                      ("reservation_arn", "--reservation-arn"),
                      ("copy_checkpoints_from_job", "--copy-checkpoints-from-job")):
        if job.get(key) is not None:
            a += [flag, str(job[key])]
    for k, v in (job.get("hyperparameters") or {}).items():
        a += ["--hyperparameter", "%s=%s" % (k, v)]
    for k, v in (job.get("input_data") or {}).items():
        a += ["--input-data", "%s=%s" % (k, v)]
    for k, v in (job.get("tags") or {}).items():
        a += ["--tag", "%s=%s" % (k, v)]
    return a


def run_byoc(args, cwd, extra_env=None, global_args=(), json_out=True, timeout=600):
    e = dict(os.environ)
    e["BYOC_JOB_POLL_MS"] = "200"
    e.pop("BRAKET_JOBS_ROLE_ARN", None)
    for k, v in (extra_env or {}).items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    argv = [BYOC] + list(global_args) + (["--json"] if json_out else []) + ["run", "--no-preflight"] + list(args)
    p = subprocess.run(argv, cwd=cwd, env=e, capture_output=True, timeout=timeout)
    p.out = p.stdout.decode("utf-8", "replace")
    p.err = p.stderr.decode("utf-8", "replace")
    return p


def parse_json(p, label):
    try:
        return json.loads(p.out)
    except ValueError:
        C.check(False, label + ": stdout is one JSON document", "%r / stderr %s" % (p.out, p.err[-2000:]))
        return {}


# ---- checking a created job -------------------------------------------------------------------

def timestamp_of(job_screen, name_given):
    import re
    if not name_given:
        m = re.search(r"-(\d{13})$", job_screen["jobName"])
        if m:
            return m.group(1)
    m = re.search(r"/jobs/[^/]+/(\d{13})/", json.dumps(job_screen))
    return m.group(1) if m else "0"


def check_created(label, job, p, cwd, role, region=REGION):
    """The body, the stored job and the S3 objects of a job byoc created."""
    if not C.equal(p.returncode, 0, label + ": exit 0"):
        print(p.err[-3000:])
        return None
    out = parse_json(p, label)
    arn = out.get("job_arn") or ""
    C.check(arn.startswith("arn:aws:braket:%s:%s:job/" % (region, ACCOUNT)), label + ": job ARN", arn)
    C.equal(sorted(out), ["job_arn", "job_name", "status"], label + ": --json keys")
    view = standin_job(arn)
    if not C.check(view is not None, label + ": the stand-in has the job"):
        return None
    C.equal(out.get("job_name"), view["jobName"], label + ": job_name")
    C.equal(view["region"], region, label + ": job region")
    ts = timestamp_of(view, job.get("job_name"))
    C.check(ts == "0" or abs(int(ts) / 1000.0 - time.time()) < 3600, label + ": the timestamp is epoch ms", ts)
    expected = sdk.expected_body(job, ts, view["clientToken"], region, ACCOUNT, role, cwd)

    # Field by field against what the stand-in stored (GetJob's view: empty tags are not shown).
    for key, want in expected.items():
        if key == "clientToken":
            continue
        got = view.get(key, {} if key == "tags" else None)
        C.equal(got, want, "%s: %s" % (label, key))
    # Exactly: the same token with the same body is the same job; any difference is a 409.
    r = signed_request("POST", "/job", body=expected, region=region)
    C.check(r.status == 201 and (r.json() or {}).get("jobArn") == arn,
            label + ": the SDK's body for these inputs is byte-for-byte the job byoc created",
            "%s %s" % (r.status, r.body[:300]))

    # source.tar.gz
    script = view["algorithmSpecification"]["scriptModeConfig"]["s3Uri"]
    data = get_bytes(script)
    src = job["source_module"]
    if not src.startswith("s3://"):
        members, links = sdk.archive_members(data)
        want = sdk.expected_archive(os.path.join(cwd, src))
        C.equal(sorted(members), sorted(want), label + ": source.tar.gz member names")
        C.check(members == want, label + ": source.tar.gz member contents")
        C.check(not links, label + ": no links in the archive")
        C.equal(data[:2], b"\x1f\x8b", label + ": gzip")

    # local input data
    for i, (channel, location) in enumerate((job.get("input_data") or {}).items()):
        uri = view["inputDataConfig"][i]["dataSource"]["s3DataSource"]["s3Uri"]
        if sdk.is_s3_uri(location):
            continue
        uploads = sdk.expected_input_uploads(location, uri, cwd)
        bucket, key_prefix = uri[len("s3://"):].split("/", 1)
        keys = {k for k in all_keys(bucket) if k.startswith(key_prefix)}
        C.equal(sorted(keys), sorted(u[len("s3://%s/" % bucket):] for u in uploads),
                "%s: input channel %s keys" % (label, channel))
        for u, local in uploads.items():
            with open(local, "rb") as f:
                C.check(get_bytes(u) == f.read(), "%s: %s content" % (label, u))
    return view


# ---- the cases ----------------------------------------------------------------------------------

def case_single_file():
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE}
    p = run_byoc(cli_args(job), cwd, json_out=False)
    C.equal(p.returncode, 0, "single file: exit 0")
    arn = p.out.strip()
    C.check(arn.startswith("arn:aws:braket:") and "\n" not in arn, "single file: stdout is the ARN", p.out)
    view = standin_job(arn)
    if view:
        C.check(view["jobName"].startswith("braket-job-my-qtc-"), "single file: default name from the repo",
                view["jobName"])
        # Same checks through --json on a second run.
    p = run_byoc(cli_args(job), cwd)
    check_created("single file", job, p, cwd, ROLE)
    shutil.rmtree(cwd)


def case_package_every_option():
    cwd = workdir()
    os.makedirs(os.path.join(cwd, "common"))
    with open(os.path.join(cwd, "common", "consts.py"), "w") as f:
        f.write("PI = 3.14159\n")
    os.symlink("util/helpers.py", os.path.join(cwd, "pkg", "helpers_link.py"))
    os.symlink("../common", os.path.join(cwd, "pkg", "common"))
    job = {
        "image_uri": image(), "source_module": "pkg", "entry_point": "pkg.main:run", "role_arn": ROLE,
        "device": "arn:aws:braket:::device/quantum-simulator/amazon/sv1", "instance_type": "ml.c5.xlarge",
        "instance_count": 2, "volume_gb": 50,
        "hyperparameters": {"lr": "0.1", "epochs": "10", "note": "a b=c"},
        "input_data": {"train": "data/tr", "ref": "s3://%s/ref/" % INPUTS},
        "output_s3": "s3://%s/out-%s" % (OUTPUTS, RUN_ID), "kms_key_id": "alias/byoc-test",
        "checkpoint_s3": "s3://%s/ckpt-%s" % (OUTPUTS, RUN_ID), "checkpoint_local_path": "/opt/ckpt",
        "max_runtime": 3600, "job_name": "byoc-every-%s" % RUN_ID, "tags": {"team": "quantum", "cost": "42"},
        "distribution": "data_parallel",
        "reservation_arn": "arn:aws:braket:us-east-1:%s:reservation/byoc-%s" % (ACCOUNT, RUN_ID),
    }
    p = run_byoc(cli_args(job), cwd)
    view = check_created("package, every option", job, p, cwd, ROLE)
    if view:
        C.equal(view.get("associations"), [{"arn": job["reservation_arn"], "type": "RESERVATION_TIME_WINDOW_ARN"}],
                "package: associations")
    shutil.rmtree(cwd)


def case_device_region():
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE,
           "device": "arn:aws:braket:us-east-1::device/qpu/ionq/Aria-1"}
    p = run_byoc(cli_args(job), cwd, global_args=("--region", "us-west-2"))
    check_created("device region", job, p, cwd, ROLE, region="us-east-1")
    C.check("OFFLINE" in p.err, "device region: the offline device is reported", p.err[-500:])
    C.check("runs there" in p.err, "device region: the move is reported", p.err[-500:])
    shutil.rmtree(cwd)


def case_new_bucket_region():
    region = "eu-north-1"
    bucket = sdk.default_bucket(region, ACCOUNT)
    drop_bucket(bucket)
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE}
    p = run_byoc(cli_args(job), cwd, global_args=("--region", region))
    check_created("new bucket", job, p, cwd, ROLE, region=region)
    C.equal(s3.get_bucket_location(Bucket=bucket).get("LocationConstraint"), region,
            "new bucket: location constraint")
    pab = s3.get_public_access_block(Bucket=bucket)["PublicAccessBlockConfiguration"]
    C.equal(pab, {"BlockPublicAcls": True, "IgnorePublicAcls": True, "BlockPublicPolicy": True,
                  "RestrictPublicBuckets": True}, "new bucket: public access blocked")
    policy = json.loads(s3.get_bucket_policy(Bucket=bucket)["Policy"])
    st = policy["Statement"][0]
    C.equal((st["Principal"], st["Action"], st["Resource"]),
            ({"Service": ["braket.amazonaws.com"]}, "s3:*",
             ["arn:aws:s3:::%s" % bucket, "arn:aws:s3:::%s/*" % bucket]), "new bucket: Braket's bucket policy")
    # A second run finds the bucket and leaves it as it is.
    p = run_byoc(cli_args(job), cwd, global_args=("--region", region))
    C.equal(p.returncode, 0, "existing bucket: exit 0")
    C.check("creating bucket" not in p.err, "existing bucket: not created again")
    shutil.rmtree(cwd)


def case_roles():
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py"}
    want = sdk.default_jobs_role(iam)
    p = run_byoc(cli_args(job), cwd)
    check_created("default role", job, p, cwd, want)
    p = run_byoc(cli_args(job), cwd, extra_env={"BRAKET_JOBS_ROLE_ARN": ENV_ROLE})
    check_created("role from BRAKET_JOBS_ROLE_ARN", job, p, cwd, ENV_ROLE)
    shutil.rmtree(cwd)


def case_large_source():
    cwd = workdir()
    os.makedirs(os.path.join(cwd, "bigpkg"))
    with open(os.path.join(cwd, "bigpkg", "__init__.py"), "w") as f:
        f.write("")
    with open(os.path.join(cwd, "bigpkg", "blob.bin"), "wb") as f:
        f.write(random.Random(7).randbytes(12 << 20))
    job = {"image_uri": image(), "source_module": "bigpkg", "role_arn": ROLE, "job_name": "byoc-big-%s" % RUN_ID}
    p = run_byoc(cli_args(job), cwd, extra_env={"BYOC_S3_PART_SIZE": str(5 << 20),
                                                "BYOC_S3_MULTIPART_THRESHOLD": str(5 << 20)})
    view = check_created("large source", job, p, cwd, ROLE)
    if view:
        uri = view["algorithmSpecification"]["scriptModeConfig"]["s3Uri"]
        bucket, key = uri[len("s3://"):].split("/", 1)
        etag = s3.head_object(Bucket=bucket, Key=key)["ETag"]
        C.check(etag.strip('"').endswith("-3"), "large source: uploaded in three parts", etag)
        C.check("of %d bytes" % len(get_bytes(uri)) in p.err, "large source: progress reported")
    shutil.rmtree(cwd)


def case_local_inputs():
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE,
           "input_data": {"train": "data/tr", "one": "data/trial.csv", "all": "data/",
                          "abs": os.path.join(cwd, "data", "train")}}
    p = run_byoc(cli_args(job), cwd)
    check_created("local inputs", job, p, cwd, ROLE)
    shutil.rmtree(cwd)


def case_s3_source_and_code_location():
    cwd = workdir()
    import io
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(os.path.join(cwd, "algo.py"), arcname="algo.py")
    key = "src/code-%s.tar.gz" % RUN_ID
    s3.put_object(Bucket=INPUTS, Key=key, Body=buf.getvalue())
    job = {"image_uri": image(), "source_module": "s3://%s/%s" % (INPUTS, key), "entry_point": "algo",
           "role_arn": ROLE, "code_location": "s3://%s/code-%s" % (OUTPUTS, RUN_ID)}
    p = run_byoc(cli_args(job), cwd)
    view = check_created("S3 source, code location", job, p, cwd, ROLE)
    if view:
        C.equal(get_bytes(view["algorithmSpecification"]["scriptModeConfig"]["s3Uri"]), buf.getvalue(),
                "S3 source: copied to the code location")
    shutil.rmtree(cwd)


def case_copy_checkpoints():
    cwd = workdir()
    prefix = "ckptsrc%s" % RUN_ID
    first = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE,
             "checkpoint_s3": "s3://%s/%s" % (OUTPUTS, prefix)}
    p = run_byoc(cli_args(first), cwd)
    a = check_created("checkpoint source job", first, p, cwd, ROLE)
    s3.put_object(Bucket=OUTPUTS, Key=prefix + "/job_a.json", Body=b'{"step": 3}')
    s3.put_object(Bucket=OUTPUTS, Key=prefix + "/nested/more.json", Body=b"{}")
    if not a:
        return
    second = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE,
              "copy_checkpoints_from_job": a["jobArn"]}
    p = run_byoc(cli_args(second), cwd)
    b = check_created("copy checkpoints", {k: v for k, v in second.items() if k != "copy_checkpoints_from_job"}, p,
                      cwd, ROLE)
    if b:
        dst = b["checkpointConfig"]["s3Uri"]
        C.equal(get_bytes(dst + "/job_a.json"), b'{"step": 3}', "copy checkpoints: job_a.json copied")
        C.equal(get_bytes(dst + "/nested/more.json"), b"{}", "copy checkpoints: nested file copied")
    shutil.rmtree(cwd)


def case_wait():
    cwd = workdir()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE}
    p = run_byoc(cli_args(job) + ["--wait"], cwd)
    out = parse_json(p, "wait")
    C.equal((p.returncode, out.get("status")), (0, "COMPLETED"), "wait: COMPLETED, exit 0")
    C.check("RUNNING" in p.err and "COMPLETED" in p.err, "wait: status changes on stderr")

    p = run_byoc(cli_args(job) + ["--wait", "--max-runtime", "1"], cwd)
    out = parse_json(p, "wait failed")
    C.equal((p.returncode, out.get("status")), (1, "FAILED"), "wait: a FAILED job exits 1")
    C.check("MaxRuntimeExceeded" in (out.get("failure_reason") or ""), "wait: the failure reason in JSON", out)
    C.check("byoc: job: " in p.err and "ended FAILED: MaxRuntimeExceeded" in p.err,
            "wait: the failure reason on stderr", p.err[-400:])

    name = "byoc-cancel-%s" % RUN_ID
    e = dict(os.environ, BYOC_JOB_POLL_MS="200")
    e.pop("BRAKET_JOBS_ROLE_ARN", None)
    proc = subprocess.Popen([BYOC, "--json", "run", "--no-preflight"] + cli_args(job) + ["--job-name", name, "--wait"], cwd=cwd,
                            env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for _ in range(600):
        status, found = control("GET", "/jobs/" + name)
        if status == 200:
            break
        time.sleep(0.05)
    control("POST", "/jobs/%s/set-status" % name, {"status": "CANCELLED"})
    so, se = proc.communicate(timeout=120)
    C.equal((proc.returncode, json.loads(so or b"{}").get("status")), (1, "CANCELLED"),
            "wait: a CANCELLED job exits 1")
    C.check(b"ended CANCELLED" in se, "wait: cancelled on stderr", se[-300:])
    shutil.rmtree(cwd)


def case_idempotent_retry():
    cwd = workdir()
    log = RequestLog()
    name = "byoc-retry-%s" % RUN_ID
    control("POST", "/faults", {"operation": "CreateJob", "action": "drop_after", "count": 1})
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE, "job_name": name}
    p = run_byoc(cli_args(job), cwd)
    control("DELETE", "/faults")
    # Other tests may share the stand-in: look only at requests carrying this job's token.
    creates = [r for r in log.new() if r.get("operation") == "CreateJob"]
    status, stored = control("GET", "/jobs/" + name)
    token = (stored or {}).get("clientToken")
    mine = [r for r in creates if r.get("clientToken") == token]
    C.equal(len(mine), 2, "retry: CreateJob sent twice with the job's clientToken")
    C.equal([r.get("fault") for r in mine][:1], ["drop_after"], "retry: the first was dropped after it ran")
    view = check_created("retry after a dropped connection", job, p, cwd, ROLE)
    jobs = [j for j in control("GET", "/jobs")[1]["jobs"] if j["jobName"] == name]
    C.equal(len(jobs), 1, "retry: exactly one job exists")
    if view:
        C.equal(jobs[0]["jobArn"] if jobs else None, view["jobArn"], "retry: the ARN printed is that job")
    shutil.rmtree(cwd)


def case_dry_run():
    cwd = workdir()
    log = RequestLog()
    job = {"image_uri": image(), "source_module": "pkg", "entry_point": "pkg.main", "role_arn": ROLE,
           "input_data": {"train": "data/train"}, "hyperparameters": {"lr": "0.5"}}
    p = run_byoc(cli_args(job) + ["--dry-run"], cwd)
    out = parse_json(p, "dry run")
    C.equal(p.returncode, 0, "dry run: exit 0")
    C.equal((out.get("job_arn"), out.get("status")), (None, "DRY_RUN"), "dry run: no job")
    body = (out.get("create_job") or {}).get("body") or {}
    C.equal((out.get("create_job") or {}).get("method"), "POST", "dry run: POST")
    C.check(((out.get("create_job") or {}).get("url") or "").endswith("/job"), "dry run: /job")
    ts = body.get("jobName", "")[-13:]
    want = sdk.expected_body(job, ts, body.get("clientToken"), REGION, ACCOUNT, ROLE, cwd)
    C.equal(body, want, "dry run: the printed request is the SDK's body")
    kinds = sorted((t["kind"], t["to"].rsplit("/", 1)[-1]) for t in out.get("transfers", []))
    C.equal(kinds, [("input", "part-0.csv"), ("input", "part-1.csv"), ("source", "source.tar.gz")],
            "dry run: the uploads it would do")
    # (Other tests may share the stand-in: look for this run's token and name.)
    C.equal([r for r in log.new() if r.get("clientToken") == body.get("clientToken")], [],
            "dry run: no CreateJob sent")
    C.check(control("GET", "/jobs/" + body.get("jobName", "x"))[0] != 200, "dry run: no such job")
    bucket = sdk.default_bucket(REGION, ACCOUNT)
    C.equal([k for k in all_keys(bucket) if k.startswith("jobs/%s/" % body.get("jobName"))], [],
            "dry run: nothing uploaded")
    p = run_byoc(cli_args(job) + ["--dry-run"], cwd, json_out=False)
    C.check("dry run: nothing was created" in p.out and '"clientToken"' in p.out, "dry run: text output", p.out)
    shutil.rmtree(cwd)


def case_project_file():
    cwd = workdir()
    proj = os.path.join(cwd, "proj")
    os.makedirs(proj)
    with open(os.path.join(proj, "byoc.json"), "w") as f:
        json.dump({"name": "qtc", "custom": {"kept": True}}, f)
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE, "instance_count": 2,
           "hyperparameters": {"lr": "0.1"}}
    p = run_byoc(cli_args(job), cwd, global_args=("--project", proj))
    C.equal(p.returncode, 0, "byoc.json: exit 0")
    path = os.path.join(proj, "byoc.json")
    with open(path) as f:
        doc = json.load(f)
    C.equal(doc.get("custom"), {"kept": True}, "byoc.json: unknown keys kept")
    remembered = doc.get("job") or {}
    C.equal((remembered.get("image_uri"), remembered.get("source_module"), remembered.get("instance_count"),
             remembered.get("hyperparameters")), (image(), "algo.py", 2, {"lr": "0.1"}), "byoc.json: job remembered")
    C.equal(stat.S_IMODE(os.stat(path).st_mode), 0o600, "byoc.json: mode 0600")
    # No byoc.json: none is written.
    p = run_byoc(cli_args(job), cwd)
    C.check(not os.path.exists(os.path.join(cwd, "byoc.json")), "byoc.json: not created where there is none")
    shutil.rmtree(cwd)


def case_service_refusals():
    cwd = workdir()
    before = s3_snapshot()
    log = RequestLog()
    job = {"image_uri": image(), "source_module": "algo.py", "role_arn": ROLE,
           "device": "arn:aws:braket:::device/quantum-simulator/amazon/nope"}
    p = run_byoc(cli_args(job), cwd)
    C.equal(p.returncode, 2, "unknown device: exit 2")
    C.check("byoc: --device (deviceConfig.device):" in p.err, "unknown device: named", p.err[-300:])
    C.equal([r["operation"] for r in log.new()], ["GetDevice"], "unknown device: only GetDevice was sent")
    C.check(s3_snapshot() == before, "unknown device: S3 unchanged")

    job["device"] = "arn:aws:braket:us-east-1::device/qpu/ionq/Harmony"
    p = run_byoc(cli_args(job), cwd)
    C.equal(p.returncode, 1, "retired device: the service refuses, exit 1")
    C.check("DeviceRetiredException" in p.err, "retired device: the service's error", p.err[-300:])
    shutil.rmtree(cwd)


def case_image_check():
    cwd = workdir()
    for label, uri, why in (("missing tag", image(tag="not-pushed"), "has no tag not-pushed"),
                            ("missing repository", image(repo="amazon-braket-never-pushed"), "does not exist")):
        name = "byoc-noimage-%s-%s" % (label.split()[1], RUN_ID)
        p = run_byoc(cli_args({"image_uri": uri, "source_module": "algo.py", "role_arn": ROLE, "job_name": name}),
                     cwd)
        C.equal(p.returncode, 2, "image %s: exit 2" % label)
        C.check("byoc: --image-uri (algorithmSpecification.containerImage.uri): the image is not in ECR" in p.err
                and why in p.err, "image %s: named" % label, p.err[-300:])
        C.check(control("GET", "/jobs/" + name)[0] != 200, "image %s: no job" % label)
        C.equal([k for k in all_keys(sdk.default_bucket(REGION, ACCOUNT)) if k.startswith("jobs/%s/" % name)], [],
                "image %s: nothing uploaded" % label)
    # Another account's image (Braket's own) cannot be described: a warning, and the job is made.
    job = {"image_uri": "292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-base-jobs:latest",
           "source_module": "algo.py", "role_arn": ROLE}
    p = run_byoc(cli_args(job), cwd)
    check_created("image of another account", job, p, cwd, ROLE)
    C.check("could not be checked" in p.err and "292282985366" in p.err, "image of another account: warned",
            p.err[-300:])
    shutil.rmtree(cwd)


def case_entry_point_by_launcher():
    """The entry point follows the image's launcher: byoc's (a custom-base project) starts .jl files,
    CMake and Cargo projects; the Braket launcher (extend-prebuilt) takes Python modules only; an image
    byoc does not know gets only the API's String."""
    repo = "amazon-braket-launch-" + RUN_ID
    ensure_ecr_image(repo, "latest")
    root = tempfile.mkdtemp(prefix="byoc-run-launcher-")
    for lang in ("julia", "cpp"):
        d = os.path.join(root, lang)
        p = subprocess.run([BYOC, "init", d, "--language", lang], capture_output=True, text=True, timeout=120)
        C.equal(p.returncode, 0, "init %s" % lang)
    jl = ["--image-uri", image(repo=repo), "--source-module", "algorithm", "--entry-point", "algorithm/algo.jl",
          "--role-arn", ROLE, "--dry-run"]
    p = run_byoc(jl, os.path.join(root, "julia"))
    C.equal(p.returncode, 0, "julia project: algorithm/algo.jl accepted (dry run)")
    body = ((parse_json(p, "julia dry run") or {}).get("create_job") or {}).get("body") or {}
    C.equal(body.get("algorithmSpecification", {}).get("scriptModeConfig", {}).get("entryPoint"), "algorithm/algo.jl",
            "julia project: the entry point sent as given")
    for bad, why in (("algorithm/nope.jl", "not in the source module"),
                     ("algorithm/Project.toml", "not executable"),
                     ("../../etc/passwd", "not in the source module")):
        p = run_byoc(jl[:5] + [bad] + jl[6:], os.path.join(root, "julia"))
        C.equal(p.returncode, 2, "julia project: %s refused" % bad)
        C.check("--entry-point" in p.err and why in p.err and "byoc's launcher" in p.err,
                "julia project: %s: why" % bad, p.err[-300:])
    # No --image-uri (issue 17 points 1 and 5): the image is the project's last push, and the entry
    # point is judged for that image's launcher.
    conf = os.path.join(root, "julia", "byoc.json")
    with open(conf) as f:
        doc = json.load(f)
    doc["pushed"] = {"image_uri": image(repo=repo)}
    with open(conf, "w") as f:
        json.dump(doc, f)
    p = run_byoc(jl[2:], os.path.join(root, "julia"))
    C.equal(p.returncode, 0, "julia project, the last push's image: algorithm/algo.jl accepted (dry run)")
    body = ((parse_json(p, "julia dry run, last push") or {}).get("create_job") or {}).get("body") or {}
    C.equal(body.get("algorithmSpecification", {}).get("containerImage", {}).get("uri"), image(repo=repo),
            "julia project: the last push is the image")
    name = "byoc-cmake-" + RUN_ID
    p = run_byoc(["--image-uri", image(repo=repo), "--source-module", "algorithm", "--entry-point",
                  "algorithm/CMakeLists.txt:algo", "--role-arn", ROLE, "--job-name", name], os.path.join(root, "cpp"))
    C.equal(p.returncode, 0, "cpp project: CMakeLists.txt:algo accepted, the job created")
    st, job = control("GET", "/jobs/" + name)
    C.equal((job or {}).get("algorithmSpecification", {}).get("scriptModeConfig", {}).get("entryPoint"),
            "algorithm/CMakeLists.txt:algo", "cpp project: the stand-in got the entry point")
    # The same entry point for the Braket launcher: refused with the module rule.
    with open(conf) as f:
        doc = json.load(f)
    doc["recipe"] = "extend-prebuilt"
    with open(conf, "w") as f:
        json.dump(doc, f)
    p = run_byoc(jl, os.path.join(root, "julia"))
    C.equal(p.returncode, 2, "extend-prebuilt project: algorithm/algo.jl refused")
    C.check("dotted" in p.err and "the Braket launcher" in p.err, "extend-prebuilt: the module rule", p.err[-300:])
    # No byoc.json: byoc cannot know the launcher, and sends what it is given.
    os.remove(conf)
    p = run_byoc(jl, os.path.join(root, "julia"))
    C.equal(p.returncode, 0, "no project: algorithm/algo.jl accepted (dry run)")
    shutil.rmtree(root)


def main():
    setup()
    for case in (case_single_file, case_package_every_option, case_device_region, case_new_bucket_region,
                 case_roles, case_large_source, case_local_inputs, case_s3_source_and_code_location,
                 case_copy_checkpoints, case_wait, case_idempotent_retry, case_dry_run, case_project_file,
                 case_service_refusals, case_image_check, case_entry_point_by_launcher):
        print("--- %s" % case.__name__)
        C.run(case)
    C.done()


if __name__ == "__main__":
    main()
