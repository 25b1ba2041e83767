#!/usr/bin/env python3
"""The Braket stand-in behaves like the service where byoc depends on it: SigV4 checked
with botocore's signer, parameters checked server-side against botocore's model,
clientToken idempotency, paging, job states, devices, tags, and fault injection.
Run: tests/topology/with-env.sh python3 tests/integration/test_braket_standin.py
"""

import json
import os
import subprocess
import sys
import time
import uuid
from urllib.parse import quote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "topology"))
from testkit import Checks, client, control, env, signed_request  # noqa: E402

import botocore.auth  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError, ConnectionClosedError  # noqa: E402

T = Checks("test_braket_standin")
RUN = uuid.uuid4().hex[:6]
ACCOUNT = env("BYOC_TEST_ACCOUNT")
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
QPU_OFFLINE = "arn:aws:braket:us-east-1::device/qpu/ionq/Aria-1"
QPU_RETIRED = "arn:aws:braket:us-east-1::device/qpu/ionq/Harmony"
braket = client("braket")


def job_request(name, **overrides):
    req = {
        "clientToken": str(uuid.uuid4()),
        "jobName": name,
        "roleArn": "arn:aws:iam::%s:role/AmazonBraketJobsExecutionRole" % ACCOUNT,
        "algorithmSpecification": {
            "scriptModeConfig": {"entryPoint": "algo.main:start", "s3Uri": "s3://bucket/src/source.tar.gz",
                                 "compressionType": "GZIP"},
            "containerImage": {"uri": "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-byoc:latest" % ACCOUNT},
        },
        "outputDataConfig": {"s3Path": "s3://bucket/jobs/%s/output" % name},
        "checkpointConfig": {"s3Uri": "s3://bucket/jobs/%s/checkpoints" % name},
        "instanceConfig": {"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": 1},
        "stoppingCondition": {"maxRuntimeInSeconds": 3600},
        "hyperParameters": {"shots": "100"},
        "deviceConfig": {"device": SV1},
        "tags": {"run": RUN},
    }
    req.update(overrides)
    return req


def name(tag):
    return "t%s-%s" % (RUN, tag)


def manual_clock():
    control("POST", "/config", {"auto_advance": False})


def error_code(call):
    try:
        call()
    except ClientError as exc:
        return exc.response["Error"]["Code"]
    return None


def set_status(job_arn, status, **extra):
    code, body = control("POST", "/jobs/%s/set-status" % quote(job_arn, safe=""), dict(extra, status=status))
    if code != 200:
        raise AssertionError("set-status %s -> %s %s" % (status, code, body))
    return body


def test_create_get_cancel_search():
    manual_clock()
    req = job_request(name("basic"))
    arn = braket.create_job(**req)["jobArn"]
    T.check(arn.startswith("arn:aws:braket:us-east-1:%s:job/" % ACCOUNT), "CreateJob returns a job ARN", arn)
    job = braket.get_job(jobArn=arn, additionalAttributeNames=["QueueInfo"])
    T.equal(job["status"], "QUEUED", "new job is QUEUED")
    T.equal(job["jobName"], req["jobName"], "GetJob jobName")
    T.equal(job["roleArn"], req["roleArn"], "GetJob roleArn")
    T.equal(job["algorithmSpecification"], req["algorithmSpecification"], "GetJob algorithmSpecification")
    T.equal(job["instanceConfig"], req["instanceConfig"], "GetJob instanceConfig")
    T.equal(job["outputDataConfig"], req["outputDataConfig"], "GetJob outputDataConfig")
    T.equal(job["stoppingCondition"], req["stoppingCondition"], "GetJob stoppingCondition")
    T.equal(job["hyperParameters"], req["hyperParameters"], "GetJob hyperParameters")
    T.equal(job["tags"], {"run": RUN}, "GetJob tags")
    T.check("createdAt" in job and "startedAt" not in job, "QUEUED job has createdAt, no startedAt")
    T.equal(job.get("queueInfo", {}).get("queue"), "JOBS_QUEUE", "queueInfo when asked for QueueInfo")
    T.check("queueInfo" not in braket.get_job(jobArn=arn), "no queueInfo unless asked")
    T.equal([e["eventType"] for e in job["events"]], ["QUEUED_FOR_EXECUTION"], "first event")

    found = braket.search_jobs(filters=[{"name": "jobArn", "operator": "EQUAL", "values": [arn]}])["jobs"]
    T.equal([j["jobArn"] for j in found], [arn], "SearchJobs by jobArn")
    T.equal(found[0]["device"], SV1, "SearchJobs summary has the device")

    cancel = braket.cancel_job(jobArn=arn)
    T.equal(cancel["cancellationStatus"], "CANCELLING", "CancelJob on a QUEUED job -> CANCELLING")
    T.equal(braket.get_job(jobArn=arn)["status"], "CANCELLING", "job is CANCELLING")
    T.equal(braket.cancel_job(jobArn=arn)["cancellationStatus"], "CANCELLING", "CancelJob again is idempotent")
    set_status(arn, "CANCELLED")
    job = braket.get_job(jobArn=arn)
    T.equal(job["status"], "CANCELLED", "CANCELLING -> CANCELLED")
    T.check("endedAt" in job, "CANCELLED job has endedAt")
    T.equal(braket.cancel_job(jobArn=arn)["cancellationStatus"], "CANCELLED", "CancelJob on CANCELLED says CANCELLED")

    done = braket.create_job(**job_request(name("done")))["jobArn"]
    set_status(done, "COMPLETED")
    T.equal(error_code(lambda: braket.cancel_job(jobArn=done)), "ConflictException",
            "CancelJob on a COMPLETED job -> ConflictException")
    missing = "arn:aws:braket:us-east-1:%s:job/%s" % (ACCOUNT, uuid.uuid4())
    T.equal(error_code(lambda: braket.get_job(jobArn=missing)), "ResourceNotFoundException", "GetJob unknown ARN")
    west = client("braket", region_name="us-west-2")
    T.equal(error_code(lambda: west.get_job(jobArn=done)), "ResourceNotFoundException",
            "a us-east-1 job is not visible from us-west-2")


def test_status_progression_on_the_clock():
    control("POST", "/config", {"auto_advance": True, "queued_seconds": 0.2, "running_seconds": 0.3})
    arn = braket.create_job(**job_request(name("clock")))["jobArn"]
    seen = []
    for _ in range(150):
        status = braket.get_job(jobArn=arn)["status"]
        if not seen or seen[-1] != status:
            seen.append(status)
        if status == "COMPLETED":
            break
        time.sleep(0.1)
    T.equal(seen[-1], "COMPLETED", "job reaches COMPLETED on its own")
    T.check(all(s in ("QUEUED", "RUNNING", "COMPLETED") for s in seen), "only QUEUED/RUNNING/COMPLETED seen", seen)
    job = braket.get_job(jobArn=arn)
    T.equal([e["eventType"] for e in job["events"]],
            ["QUEUED_FOR_EXECUTION", "STARTING_INSTANCE", "DOWNLOADING_DATA", "RUNNING", "UPLOADING_RESULTS",
             "COMPLETED"], "event sequence of a completed job")
    T.check(job["createdAt"] <= job["startedAt"] <= job["endedAt"], "createdAt <= startedAt <= endedAt")
    T.check(isinstance(job.get("billableDuration"), int), "billableDuration is an integer")

    control("POST", "/config", {"final_status": "FAILED", "failure_reason": "AlgorithmError: boom"})
    failed = braket.create_job(**job_request(name("fail")))["jobArn"]
    for _ in range(150):
        job = braket.get_job(jobArn=failed)
        if job["status"] in ("COMPLETED", "FAILED"):
            break
        time.sleep(0.1)
    T.equal(job["status"], "FAILED", "final_status FAILED makes jobs fail")
    T.equal(job.get("failureReason"), "AlgorithmError: boom", "failureReason")
    T.equal(job["events"][-1]["eventType"], "FAILED", "last event FAILED")

    control("POST", "/config", {"final_status": "COMPLETED", "running_seconds": 3600})
    short = braket.create_job(**job_request(name("maxrt"), stoppingCondition={"maxRuntimeInSeconds": 1}))["jobArn"]
    for _ in range(100):
        job = braket.get_job(jobArn=short)
        if job["status"] == "FAILED":
            break
        time.sleep(0.1)
    T.equal(job["status"], "FAILED", "a job past maxRuntimeInSeconds fails")
    T.check("MAX_RUNTIME_EXCEEDED" in [e["eventType"] for e in job["events"]], "MAX_RUNTIME_EXCEEDED event")

    manual_clock()
    pinned = braket.create_job(**job_request(name("pinned")))["jobArn"]
    set_status(pinned, "RUNNING")
    T.equal(braket.get_job(jobArn=pinned)["status"], "RUNNING", "set-status RUNNING")
    T.check("startedAt" in braket.get_job(jobArn=pinned), "RUNNING job has startedAt")
    set_status(pinned, "FAILED", failureReason="custom reason")
    T.equal(braket.get_job(jobArn=pinned).get("failureReason"), "custom reason", "set-status FAILED with reason")


def _raw_create(overrides=None, drop=(), **kw):
    req = job_request(name("raw-%s" % uuid.uuid4().hex[:6]))
    for key, value in (overrides or {}).items():
        target = req
        path = key.split(".")
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    for key in drop:
        target = req
        path = key.split(".")
        for part in path[:-1]:
            target = target[part]
        del target[path[-1]]
    return signed_request("POST", "/job", req, **kw)


def expect_validation(resp, field, label):
    ok = resp.status == 400 and resp.error_type == "ValidationException" and ("'%s'" % field) in resp.message
    T.check(ok, "%s -> 400 ValidationException naming %s" % (label, field),
            "%s %s %s" % (resp.status, resp.error_type, resp.message))


def test_server_side_validation():
    manual_clock()
    T.equal(_raw_create().status, 201, "a raw signed valid CreateJob -> 201")
    expect_validation(_raw_create({"jobName": "bad_name!"}), "jobName", "job name breaking the pattern")
    expect_validation(_raw_create({"jobName": "x" * 51}), "jobName", "job name of 51 chars")
    expect_validation(_raw_create({"instanceConfig.instanceCount": 0}), "instanceConfig.instanceCount",
                      "instanceCount 0")
    expect_validation(_raw_create({"stoppingCondition.maxRuntimeInSeconds": 0}),
                      "stoppingCondition.maxRuntimeInSeconds", "maxRuntimeInSeconds 0")
    expect_validation(_raw_create({"stoppingCondition.maxRuntimeInSeconds": 432001}),
                      "stoppingCondition.maxRuntimeInSeconds", "maxRuntimeInSeconds above 5 days")
    expect_validation(_raw_create(drop=["roleArn"]), "roleArn", "missing roleArn")
    expect_validation(_raw_create(drop=["clientToken"]), "clientToken", "missing clientToken")
    expect_validation(_raw_create(drop=["algorithmSpecification.scriptModeConfig.entryPoint"]),
                      "algorithmSpecification.scriptModeConfig.entryPoint", "missing nested entryPoint")
    expect_validation(_raw_create({"instanceConfig.instanceType": "ml.fake.large"}), "instanceConfig.instanceType",
                      "instanceType outside the enum")
    expect_validation(_raw_create({"instanceConfig.volumeSizeInGb": "30"}), "instanceConfig.volumeSizeInGb",
                      "volumeSizeInGb as a string")
    expect_validation(_raw_create({"algorithmSpecification.containerImage.uri": "docker.io/library/python:3"}),
                      "algorithmSpecification.containerImage.uri", "a non-ECR image URI")
    expect_validation(_raw_create({"roleArn": "arn:aws:iam::12345:role/x"}), "roleArn", "malformed role ARN")
    expect_validation(_raw_create({"hyperParameters": {"k": ""}}), "hyperParameters", "empty hyperparameter value")
    channels = [{"channelName": "c%d" % i, "dataSource": {"s3DataSource": {"s3Uri": "s3://b/%d" % i}}}
                for i in range(21)]
    expect_validation(_raw_create({"inputDataConfig": channels}), "inputDataConfig", "21 input channels")
    expect_validation(_raw_create({"inputDataConfig": [{"channelName": "bad name",
                                                        "dataSource": {"s3DataSource": {"s3Uri": "s3://b/x"}}}]}),
                      "inputDataConfig.1.member.channelName", "channel name breaking the pattern")
    expect_validation(_raw_create({"instanceConfig.extra": 1}), "instanceConfig.extra", "unknown nested member")
    expect_validation(_raw_create({"surprise": True}), "surprise", "unknown top-level member")
    expect_validation(signed_request("POST", "/jobs", {"filters": [], "maxResults": 101}), "maxResults",
                      "SearchJobs maxResults 101")
    expect_validation(signed_request("GET", "/job/" + quote("not-an-arn", safe="")), "jobArn", "GetJob bad ARN")
    resp = _raw_create({"jobName": "bad_name!", "instanceConfig.instanceCount": 0})
    T.check(resp.message.startswith("2 validation errors detected"), "two errors reported together", resp.message)
    resp = signed_request("POST", "/job", b"{not json")
    T.equal((resp.status, resp.error_type), (400, "SerializationException"), "malformed JSON body")


def test_signatures():
    resp = signed_request("POST", "/jobs", {"filters": []})
    T.equal(resp.status, 200, "correctly signed raw request")

    def flip_signature(headers, body):
        auth = headers["Authorization"]
        last = auth[-1]
        headers["Authorization"] = auth[:-1] + ("0" if last != "0" else "1")
        return headers, body

    resp = signed_request("POST", "/jobs", {"filters": []}, tamper=flip_signature)
    T.equal((resp.status, resp.error_type), (403, "InvalidSignatureException"), "tampered signature -> 403")
    T.check("signature we calculated does not match" in resp.message, "InvalidSignature message", resp.message)

    resp = signed_request("POST", "/jobs", {"filters": []},
                          tamper=lambda h, b: (h, b.replace(b"[]", b"[ ]")))
    T.equal((resp.status, resp.error_type), (403, "InvalidSignatureException"), "body changed after signing -> 403")

    resp = signed_request("POST", "/jobs", {"filters": []}, secret="wrong-secret")
    T.equal((resp.status, resp.error_type), (403, "InvalidSignatureException"), "wrong secret -> 403")

    resp = signed_request("POST", "/jobs", {"filters": []}, key="AKIAUNKNOWN000000000")
    T.equal((resp.status, resp.error_type), (403, "UnrecognizedClientException"), "unknown access key -> 403")

    resp = signed_request("POST", "/jobs", {"filters": []}, service="ecr")
    T.equal((resp.status, resp.error_type), (403, "InvalidSignatureException"), "signed for another service -> 403")

    def strip_auth(headers, body):
        headers.pop("Authorization")
        return headers, body

    resp = signed_request("POST", "/jobs", {"filters": []}, tamper=strip_auth)
    T.equal((resp.status, resp.error_type), (403, "MissingAuthenticationTokenException"), "unsigned -> 403")

    real_now = botocore.auth.get_current_datetime
    botocore.auth.get_current_datetime = lambda: real_now() - __import__("datetime").timedelta(hours=1)
    try:
        resp = signed_request("POST", "/jobs", {"filters": []})
    finally:
        botocore.auth.get_current_datetime = real_now
    T.equal(resp.status, 403, "a signature an hour old -> 403")
    T.check("Signature expired" in resp.message, "expired signature message", resp.message)

    west = client("braket", region_name="us-west-2")
    T.check(isinstance(west.search_jobs(filters=[])["jobs"], list), "region comes from the credential scope")
    T.equal(error_code(lambda: client("braket", aws_secret_access_key="nope",
                                      aws_access_key_id=env("AWS_ACCESS_KEY_ID")).search_jobs(filters=[])),
            "InvalidSignatureException", "boto3 with a wrong secret gets InvalidSignatureException")


def test_client_token_idempotency():
    manual_clock()
    req = job_request(name("idem"))
    first = braket.create_job(**req)["jobArn"]
    second = braket.create_job(**req)["jobArn"]
    T.equal(second, first, "same clientToken + same request -> same job")
    _, jobs = control("GET", "/jobs")
    T.equal(len([j for j in jobs["jobs"] if j["jobName"] == req["jobName"]]), 1, "only one job was created")
    changed = dict(req, hyperParameters={"shots": "200"})
    T.equal(error_code(lambda: braket.create_job(**changed)), "ConflictException",
            "same clientToken + different request -> ConflictException")
    other = dict(req, clientToken=str(uuid.uuid4()))
    T.equal(error_code(lambda: braket.create_job(**other)), "ConflictException",
            "a second job with the same name -> ConflictException")


def test_pagination():
    manual_clock()
    prefix = name("page")
    total = 250
    arns = set()
    for i in range(total):
        arns.add(braket.create_job(**job_request("%s-%03d" % (prefix, i)))["jobArn"])
    filters = [{"name": "jobName", "operator": "CONTAINS", "values": [prefix]}]
    seen, pages, token = [], 0, None
    while True:
        kwargs = {"filters": filters, "maxResults": 100}
        if token:
            kwargs["nextToken"] = token
        page = braket.search_jobs(**kwargs)
        pages += 1
        seen.extend(j["jobArn"] for j in page["jobs"])
        token = page.get("nextToken")
        if not token:
            break
        # A job created between pages must not shift the pages already handed out.
        if pages == 1:
            braket.create_job(**job_request(name("between")))
    T.equal(pages, 3, "250 jobs in pages of 100 -> 3 pages")
    T.equal(len(seen), total, "every job seen once")
    T.equal(set(seen), arns, "the pages hold exactly the created jobs")
    created = [braket.get_job(jobArn=a)["createdAt"] for a in (seen[0], seen[-1])]
    T.check(created[0] >= created[1], "newest first")
    default_page = braket.search_jobs(filters=filters)
    T.equal(len(default_page["jobs"]), 20, "default page size 20")
    paginator = braket.get_paginator("search_jobs")
    count = sum(len(p["jobs"]) for p in paginator.paginate(filters=filters, PaginationConfig={"PageSize": 100}))
    T.equal(count, total, "botocore's paginator walks all pages")
    T.equal(error_code(lambda: braket.search_jobs(filters=filters, nextToken="garbage")), "ValidationException",
            "a forged nextToken -> ValidationException")
    status_filter = [{"name": "status", "operator": "EQUAL", "values": ["QUEUED"]}] + filters
    T.equal(len(list(paginator.paginate(filters=status_filter).build_full_result()["jobs"])), total,
            "status + name filters")


def test_devices_and_tags():
    sv1 = braket.get_device(deviceArn=SV1)
    T.equal((sv1["deviceName"], sv1["deviceType"], sv1["deviceStatus"]), ("SV1", "SIMULATOR", "ONLINE"), "SV1")
    T.check(json.loads(sv1["deviceCapabilities"]).get("paradigm"), "deviceCapabilities is JSON text")
    T.equal(braket.get_device(deviceArn=QPU_OFFLINE)["deviceStatus"], "OFFLINE", "a QPU OFFLINE")
    T.equal(braket.get_device(deviceArn=QPU_RETIRED)["deviceStatus"], "RETIRED", "a QPU RETIRED")
    T.equal(error_code(lambda: braket.get_device(deviceArn="arn:aws:braket:::device/none/x/y")),
            "ResourceNotFoundException", "unknown device")
    online = braket.search_devices(filters=[{"name": "deviceStatus", "values": ["ONLINE"]}])["devices"]
    T.check(online and all(d["deviceStatus"] == "ONLINE" for d in online), "SearchDevices by status")
    T.equal(error_code(lambda: braket.create_job(**job_request(name("retired"), deviceConfig={"device": QPU_RETIRED}))),
            "DeviceRetiredException", "CreateJob on a retired device")
    T.check(braket.create_job(**job_request(name("local"), deviceConfig={"device": "local:braket/braket.local.qubit"})),
            "CreateJob on a local: simulator")
    T.equal(error_code(lambda: braket.create_job(**job_request(name("nodev"),
                                                                  deviceConfig={"device": "arn:aws:braket:::nope"}))),
            "ValidationException", "CreateJob on an unknown device ARN")

    arn = braket.create_job(**job_request(name("tags")))["jobArn"]
    braket.tag_resource(resourceArn=arn, tags={"team": "q", "stage": "dev"})
    T.equal(braket.list_tags_for_resource(resourceArn=arn)["tags"], {"run": RUN, "team": "q", "stage": "dev"},
            "TagResource + ListTagsForResource")
    braket.untag_resource(resourceArn=arn, tagKeys=["stage", "run"])
    T.equal(braket.list_tags_for_resource(resourceArn=arn)["tags"], {"team": "q"}, "UntagResource")


def test_fault_injection():
    manual_clock()
    control("DELETE", "/requests")
    control("POST", "/faults", {"operation": "SearchJobs", "status": 500, "count": 1})
    retrying = client("braket", config=Config(retries={"total_max_attempts": 3, "mode": "standard"}))
    T.check(isinstance(retrying.search_jobs(filters=[])["jobs"], list), "one injected 500 is retried away")
    _, log = control("GET", "/requests")
    statuses = [r["status"] for r in log["requests"] if r.get("operation") == "SearchJobs"]
    T.equal(statuses, [500, 200], "the request log shows the 500 then the retry")

    control("POST", "/faults", {"operation": "GetDevice", "status": 429, "retry_after": 1})
    T.equal(error_code(lambda: braket.get_device(deviceArn=SV1)), "ThrottlingException", "injected ThrottlingException")
    T.equal(braket.get_device(deviceArn=SV1)["deviceName"], "SV1", "the fault was used up")

    control("POST", "/faults", {"faults": [{"status": 503, "body": "<html>busy</html>", "count": 2}]})
    codes = []
    for _ in range(2):
        resp = signed_request("POST", "/jobs", {"filters": []})
        codes.append((resp.status, resp.headers.get("content-type")))
    T.equal(codes, [(503, "text/html")] * 2, "a non-JSON 503 body twice")

    control("POST", "/faults", {"operation": "SearchJobs", "action": "drop"})
    try:
        braket.search_jobs(filters=[])
        dropped = False
    except ConnectionClosedError:
        dropped = True
    T.check(dropped, "drop: the connection closes with no answer")

    req = job_request(name("dropafter"))
    control("POST", "/faults", {"operation": "CreateJob", "action": "drop_after"})
    arn = retrying.create_job(**req)["jobArn"]
    _, jobs = control("GET", "/jobs")
    same = [j for j in jobs["jobs"] if j["jobName"] == req["jobName"]]
    T.equal(len(same), 1, "drop_after + retry with the same clientToken -> one job")
    T.equal(same[0]["jobArn"] if same else None, arn, "the retry returned the job made by the dropped call")

    control("POST", "/faults", {"operation": "SearchDevices", "action": "delay", "delay_seconds": 0.2})
    T.check(braket.search_devices(filters=[])["devices"], "delay answers normally after the wait")
    T.equal(control("GET", "/faults")[1]["faults"], [], "all faults used up")
    T.equal(control("POST", "/faults", {"action": "explode"})[0], 400, "an unknown fault action is refused")


def test_config_knobs():
    manual_clock()
    control("POST", "/config", {"arn_style": "name"})
    legacy = braket.create_job(**job_request(name("legacy")))["jobArn"]
    T.check(legacy.endswith(":job/" + name("legacy")), "arn_style name -> legacy job/<jobName> ARN", legacy)
    control("POST", "/config", {"arn_style": "uuid"})

    control("POST", "/reset")
    manual_clock()
    arns = [braket.create_job(**job_request(name("q%02d" % i)))["jobArn"] for i in range(17)]
    positions = [braket.get_job(jobArn=a, additionalAttributeNames=["QueueInfo"])["queueInfo"]["position"]
                 for a in (arns[0], arns[14], arns[16])]
    T.equal(positions, ["1", "15", ">15"], "queue positions, '>15' past 15")
    T.equal(braket.get_device(deviceArn=SV1)["deviceQueueInfo"][-1],
            {"queue": "JOBS_QUEUE", "queueSize": "17"}, "GetDevice deviceQueueInfo counts queued jobs")

    first = braket.get_job(jobArn=arns[0])["createdAt"].timestamp()
    last = braket.get_job(jobArn=arns[-1])["createdAt"].timestamp()
    between = braket.search_jobs(filters=[{"name": "createdAt", "operator": "BETWEEN",
                                           "values": [str(first), str(last)]}], maxResults=100)["jobs"]
    T.equal(len(between), 17, "createdAt BETWEEN (epoch seconds)")
    T.equal(error_code(lambda: braket.search_jobs(filters=[{"name": "owner", "operator": "EQUAL",
                                                             "values": ["x"]}])),
            "ValidationException", "unknown SearchJobs filter name")

    control("POST", "/config", {"max_active_jobs": 17})
    T.equal(error_code(lambda: braket.create_job(**job_request(name("quota")))), "ServiceQuotaExceededException",
            "max_active_jobs -> ServiceQuotaExceededException")
    control("POST", "/config", {"max_active_jobs": None})

    control("POST", "/devices/SV1/set-status", {"deviceStatus": "RETIRED"})
    T.equal(braket.get_device(deviceArn=SV1)["deviceStatus"], "RETIRED", "device status set through control")
    control("POST", "/reset")
    T.equal(braket.get_device(deviceArn=SV1)["deviceStatus"], "ONLINE", "reset restores the devices")
    T.equal(control("POST", "/config", {"no_such_knob": 1})[0], 400, "unknown config key refused")


def test_independent_signer_curl():
    """libcurl's own SigV4 (curl --aws-sigv4), chunked upload included, is accepted too."""
    config = 'user = "%s:%s"\n' % (env("AWS_ACCESS_KEY_ID"), env("AWS_SECRET_ACCESS_KEY"))
    base = ["curl", "-s", "-K", "-", "--noproxy", "*", "--aws-sigv4", "aws:amz:%s:braket" % env("AWS_DEFAULT_REGION"),
            "-H", "Content-Type: application/json", "-X", "POST"]
    for label, extra in (("Content-Length", []), ("chunked", ["-H", "Transfer-Encoding: chunked"])):
        out = subprocess.run(base + extra + ["-d", '{"filters":[{"name":"deviceType","values":["QPU"]}]}',
                                             env("AWS_ENDPOINT_URL_BRAKET") + "/devices"],
                             input=config, capture_output=True, text=True, timeout=30)
        try:
            devices = json.loads(out.stdout).get("devices", [])
        except ValueError:
            devices = []
        T.check(devices and all(d["deviceType"] == "QPU" for d in devices),
                "curl --aws-sigv4 SearchDevices (%s)" % label, out.stdout[:300])


def test_log_has_no_secrets():
    path = os.path.join(env("BYOC_TOPO_DIR"), "braket.log")
    with open(path) as f:
        text = f.read()
    T.check(text, "braket.log is written")
    T.check(env("AWS_SECRET_ACCESS_KEY") not in text, "braket.log holds no secret key")
    T.check("Signature=" not in text, "braket.log holds no signatures")


if __name__ == "__main__":
    status, _ = control("POST", "/reset")
    if status != 200:
        print("cannot reset the stand-in (%s)" % status)
        sys.exit(1)
    for test in (test_create_get_cancel_search, test_status_progression_on_the_clock, test_server_side_validation,
                 test_signatures, test_client_token_idempotency, test_pagination, test_devices_and_tags,
                 test_fault_injection, test_config_knobs, test_independent_signer_curl, test_log_has_no_secrets):
        T.run(test)
    control("POST", "/reset")
    T.done()
