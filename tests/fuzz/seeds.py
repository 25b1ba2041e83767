#!/usr/bin/env python3
"""Write the generated seeds of tests/fuzz/corpus/ (idempotent).

Seeds are small, typical and edge-case inputs per target; files added by hand
(regressions: inputs that once crashed) sit beside them and are never touched.
Run from anywhere: python3 tests/fuzz/seeds.py
"""
import gzip
import io
import json
import os
import struct
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(SRC, "tests", "fixtures")


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def fixture(path):
    with open(os.path.join(FIX, path), "rb") as f:
        return f.read()


SEP = "\n----\n"

# ---- ini / aws_config / credprocess ------------------------------------------------
put("ini", "config", "[default]\nregion = us-east-1\noutput=json\n\n[profile dev]\nrole_arn = arn:aws:iam::123456789012:role/x\nsource_profile = default\ns3 =\n  max_attempts = 3\n  addressing_style = path\n")
put("ini", "credentials", "[default]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY\n# comment\n; other\n[other]\naws_access_key_id: x\n")
put("ini", "errors", "key = outside\n[dup]\na=1\n[dup]\n  indented\n[unterminated\nnovalue\n")
put("ini", "continuation", "[s]\nv = first\n  second\n\tthird\nw =\nx = y\n")
put("aws_config", "profiles", "[default]\nregion = eu-west-1\nretry_mode = adaptive\nmax_attempts = 7\nservices = local\nca_bundle = ~/ca.pem\n\n[services local]\nbraket =\n  endpoint_url = http://127.0.0.1:45200\ns3 =\n  endpoint_url = http://127.0.0.1:45100\n\n[sso-session x]\nsso_region = us-east-1\n" + SEP + "[default]\naws_access_key_id = AKID\naws_secret_access_key = SECRETSECRET\n" + SEP + "default")
put("aws_config", "named", "[profile dev]\nregion = us-west-2\nendpoint_url = https://example.invalid:8443/base\nretry_mode = legacy\n" + SEP + "[dev]\naws_session_token = TOKENTOKEN\n" + SEP + "dev")
put("aws_config", "bad", "[profile dev]\nretry_mode = sometimes\nmax_attempts = -1\nregion = not a region\n" + SEP + "" + SEP + "missing")
put("credprocess", "full", json.dumps({"Version": 1, "AccessKeyId": "AKIDCP", "SecretAccessKey": "cp-secret-123", "SessionToken": "cp-token-456", "Expiration": "2030-01-01T00:00:00Z"}))
put("credprocess", "minimal", '{"Version":1,"AccessKeyId":"A","SecretAccessKey":"S"}')
put("credprocess", "bad_version", '{"Version":"2","AccessKeyId":"A","SecretAccessKey":"S"}')
put("credprocess", "bad_expiry", '{"Version":1,"AccessKeyId":"A","SecretAccessKey":"SECRET-X","Expiration":"2030-13-45T99:00:00+05:30"}')
put("credprocess", "not_object", '[1,2,3]')

# ---- engine streams ----------------------------------------------------------------
build = [
    {"stream": "Step 1/3 : FROM busybox\n"},
    {"stream": " ---> 3f57d9401f8d\n"},
    {"aux": {"ID": "sha256:0123"}},
    {"status": "Pushing", "id": "a1b2", "progressDetail": {"current": 512, "total": 2048}, "progress": "[==>   ]"},
    {"errorDetail": {"message": "COPY failed", "code": 1}, "error": "COPY failed"},
]
put("jsonmsg", "build", b"\x00" + b"".join(json.dumps(m).encode() + b"\r\n" for m in build))
put("jsonmsg", "chunked", b"\x03" + b"".join(json.dumps(m).encode() + b"\r\n" for m in build))
put("jsonmsg", "garbage", b"\x05{\"stream\": \"x\"}\r\n{not json}\r\n")
put("jsonmsg", "partial", b"\x00{\"status\": \"Pulling fs layer\", \"id\": \"ab")
put("jsonmsg", "scalars", b"\x07" + b"1\r\n\"s\"\r\nnull\r\n[]\r\n{}\r\n")


def frame(stream, payload):
    return struct.pack(">BxxxI", stream, len(payload)) + payload


put("frames", "mux", b"\x00" + frame(1, b"hello\nwor") + frame(2, b"err line\n") + frame(1, b"ld\n") + frame(3, b"engine"))
put("frames", "chunked", b"\x03" + frame(1, b"a" * 200 + b"\r\n") + frame(2, b""))
put("frames", "tty", b"\x81raw tty bytes\r\nmore\n")
put("frames", "bad_header", b"\x00" + frame(1, b"ok\n") + b"\x07\x00\x00\x00\x00\x00\x00\x01x")
put("frames", "truncated", b"\x00" + frame(1, b"abcdef")[:-3] + b"\x01\x00\x00")

# ---- .dockerignore / regexps -------------------------------------------------------
for ctx in ("ignore-basic", "ignore-exceptions", "ignore-regexp"):
    put("dockerignore", ctx, fixture("contexts/%s/.dockerignore" % ctx) + (SEP + "src/app.py\nnode_modules/m/index.js\nbuild/out.bin\n./a/../b\n/abs//x/").encode())
put("dockerignore", "edge", "\ufeff# comment\n!\n**\n!keep/**/*.py\n[a-\n\\\n/\n../up\n*.{a,b}\n" + SEP + "keep/x/y.py\n")
for i, re in enumerate([r"^a/[^/]*\.py(/.*)?$", r"^(?:x|y)+$", r"^a{2,3}b??$", r"^[[:alpha:]\d\s]*$", r"^\.git(/.*)?$", r"(", r"a**", r"[z-a]", r"\p{L}"]):
    put("goregex", "re%d" % i, re + "\0a/b.py\0xyxy\0aab\0.git/config")

# ---- Dockerfiles ---------------------------------------------------------------------
for f in os.listdir(os.path.join(FIX, "dockerfiles")):
    put("dockerfile", f, b"\x00" + fixture("dockerfiles/" + f))
put("dockerfile", "byoc", "\x01# syntax=docker/dockerfile:1\nARG BASE=292282985366.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-base-jobs:latest\nFROM ${BASE} AS base\nENV SAGEMAKER_PROGRAM=braket_container.py\nRUN pip install --no-cache-dir sagemaker-training && \\\n    echo ok\nCOPY --from=base --chown=1000 requirements.txt /opt/ml/code/\nRUN <<EOF\nset -e\necho $HOME\nEOF\nENTRYPOINT [\"python3\", \"/opt/ml/code/braket_container.py\"]\n")
put("dockerfile", "escape", "\xfe# escape=`\nFROM --platform=$TARGETPLATFORM busybox\nRUN echo a `\n  b\nCOPY <<-\"END\" /x\n\tline\n\tEND\nUSER ${U:-root}\nLABEL a=\"b c\" d=${X:+y}\nONBUILD RUN x\nHEALTHCHECK CMD [\"true\"]\n")

# ---- requirements / references / project / jobspec ---------------------------------
put("requirements", "typical", "numpy==1.26.4\npandas>=2,<3 ; python_version >= \"3.9\"\n-r other.txt\n--index-url https://user:pass@pypi.example.com/simple\ngit+ssh://git@github.com/org/private.git@v1.2#egg=private\nmypkg @ git+https://github.com/org/pub.git\n-e .\nhttps://files.example.com/x-1.0-py3-none-any.whl\nfoo[bar,baz]~=1.0 \\\n  --hash=sha256:abcd\n# comment\n")
put("requirements", "git_forms", "git@github.com:org/repo.git\nssh://git@host:2222/o/r.git#egg=r\nfile:///srv/repo.git@main\ngit+https://host/o/..\ngit+ssh://host/o/.git\n")
for i, ref in enumerate(["busybox", "localhost:5000/a/b:tag", "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-x-jobs:1.0", "x@sha256:" + "a" * 64, "UPPER/case", "a//b", ":tag", "a:" + "t" * 129, "[::1]:5000/x"]):
    put("imageref", "ref%d" % i, ref)
put("project", "full", json.dumps({"name": "demo", "recipe": "extend-prebuilt", "language": "python", "arch": "arm64", "gpu": True, "base_image": "busybox", "dockerfile": "Dockerfile", "context": ".", "tags": ["demo:1", "demo:latest"], "build_args": {"A": "1"}, "job": {"image_uri": "x", "instance_count": 2, "hyperparameters": {"lr": "0.1"}, "input_data": [{"channel": "input", "location": "s3://b/k"}]}, "unknown": {"kept": [1, 2]}}))
put("project", "wrong_types", '{"gpu": "yes", "tags": "x", "arch": "mips", "job": []}')
put("project", "empty", "{}")
job = {"image_uri": "123456789012.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-demo:1", "source_module": "algo.py", "entry_point": "algo:main", "device": "arn:aws:braket:::device/quantum-simulator/amazon/sv1", "instance_type": "ml.m5.large", "instance_count": 1, "volume_gb": 30, "hyperparameters": {"lr": "0.1", "n": "3"}, "input_data": [{"channel": "input", "location": "s3://bucket/data"}], "output_s3": "s3://bucket/out", "checkpoint_s3": "s3://bucket/ckpt", "max_runtime": 3600, "job_name": "demo-job", "tags": {"team": "q"}, "role_arn": "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole"}
put("jobspec", "valid", json.dumps(job))
bad = dict(job, instance_count=0, job_name="bad_name!", output_s3="s3:/x", max_runtime=-5, volume_gb=10**9)
put("jobspec", "invalid", json.dumps(bad))
put("jobspec", "types", '{"instance_count": "two", "tags": [1], "hyperparameters": {"a": 1}}')
put("jobspec", "string", "braket-job-amazon-braket-x-jobs:1")

# ---- metrics / logs / job info ---------------------------------------------------------
put("metrics", "job", fixture("logs/metrics_lines.txt"))
put("metrics", "edge", "Metrics - timestamp=1700000000.5; loss=0.25; iteration_number=3;\n[node-1]:Metrics - acc=inf; x=nan; y=1_000.5; z= -2e-3 ;\nMetrics - ; =; a==; b=0x10; c=1e309;\nno metrics here\nMetrics - " + "m%d=%d;" * 3 % (1, 1, 2, 2, 3, 3) + "\n")
events = {"events": [{"timestamp": 1700000000000, "ingestionTime": 1700000000100, "message": "Metrics - loss=0.5;"}, {"timestamp": 1, "message": "line\nwith newline", "logStreamName": "job/algo-1", "eventId": "e1"}], "nextForwardToken": "f/1", "nextBackwardToken": "b/1", "nextToken": "n"}
put("logs_json", "events", json.dumps(events))
put("logs_json", "streams", json.dumps({"logStreams": [{"logStreamName": "job/algo-1-1700000000", "creationTime": 1, "firstEventTimestamp": 2, "lastEventTimestamp": 3, "lastIngestionTime": 4, "storedBytes": 5}], "nextToken": "t"}))
put("logs_json", "wrong", '{"events": [{"message": 5}, null, {"timestamp": "x"}], "logStreams": {}}')
get_job = {"jobArn": "arn:aws:braket:us-east-1:123456789012:job/demo", "jobName": "demo", "status": "QUEUED", "createdAt": "2024-01-01T00:00:00Z", "deviceConfig": {"device": "local:none/none"}, "instanceConfig": {"instanceCount": 2}, "outputDataConfig": {"s3Path": "s3://b/o"}, "billableDuration": 100, "queueInfo": {"queue": "JOBS_QUEUE", "position": ">15", "message": "busy"}, "events": [{"eventType": "QUEUED_FOR_EXECUTION", "timeOfEvent": "2024-01-01T00:00:01Z", "message": "m"}], "failureReason": "x" * 2000}
put("job_info", "get_job", json.dumps(get_job))
put("job_info", "summary", json.dumps({"jobArn": "a", "jobName": "n", "status": "RUNNING", "createdAt": "t", "device": "d"}))
put("job_info", "wrong_types", '{"jobArn": 1, "jobName": [], "status": "COMPLETED", "events": {}}')
EVIL = "\x1b]0;PWNED\x07\x1b[2J\u009b31m"
put("job_info", "escapes", json.dumps({"jobArn": "a" + EVIL, "jobName": "n" + EVIL, "status": "RUNNING" + EVIL, "createdAt": EVIL, "deviceConfig": {"device": EVIL}, "queueInfo": {"position": EVIL}, "events": [{"eventType": EVIL, "timeOfEvent": EVIL, "message": EVIL}]}))
put("job_info", "mistyped", json.dumps({"jobArn": "a", "jobName": "n", "status": "RUNNING", "deviceConfig": "x", "createdAt": 12, "startedAt": [], "endedAt": {}, "failureReason": 7, "queueInfo": {"queue": 1, "position": 3, "message": None}, "instanceConfig": [], "billableDuration": "x", "outputDataConfig": 5, "events": [3, None, {"eventType": 1, "timeOfEvent": None, "message": []}, "x"]}))
put("job_info", "summary_missing", json.dumps({"jobArn": "a"}))
put("job_info", "search_page", json.dumps({"jobs": [{"jobArn": "a"}, 7, None, "x", {"jobName": 5, "status": None, "createdAt": [], "device": {}}], "nextToken": 4}))
put("job_info", "not_object", "[1, \"x\", null]")
put("jobs_page", "page", json.dumps({"jobs": [{"jobArn": "arn:aws:braket:us-east-1:1:job/a", "jobName": "a", "status": "RUNNING", "createdAt": "2026-12-05T10:00:00.000Z", "device": "local:braket/default_simulator", "tags": {"k": "v"}}], "nextToken": "t"}))
put("jobs_page", "mistyped", json.dumps({"jobs": [{"jobArn": 1, "jobName": None, "status": True, "createdAt": ["x"], "device": {"a": "b"}}, 7, None, "x", [1]], "nextToken": 4}))
put("jobs_page", "repeated", '{"jobs": [{"jobName": "a", "jobName": "b"}], "jobs": [{"status": "c"}], "nextToken": "x", "nextToken": "y"}')
put("jobs_page", "escapes", '{"jobs": [{"jobName": "a\\u00e9\\ud83d\\ude00\\\\ud800\\n", "status": "\\u001b]0;x\\u0007"}]}')
put("jobs_page", "surrogate", '{"jobs": [{"jobName": "\\ud800"}]}')
put("jobs_page", "numbers", '{"jobs": [{"jobName": "n", "x": 123456789012345678901234567890, "y": -1.5e999, "z": 1e-999}]}')
put("jobs_page", "nested", '{"o": {"jobs": [{"jobName": "no"}]}, "jobs": [[{"jobName": "no"}], {"x": {"jobName": "no"}}]}')
# missing and mistyped fields in every reply parser (issue 23)
put("logs_json", "missing", json.dumps({"events": [{}, {"timestamp": 1}, {"message": "m"}], "logStreams": [{}, {"creationTime": 1}]}))
put("logs_json", "mistyped", json.dumps({"events": [{"timestamp": "t", "message": ["m"], "ingestionTime": None, "logStreamName": 5, "eventId": {}}, 3, "x"], "logStreams": [{"logStreamName": 5, "lastEventTimestamp": "x", "storedBytes": -1}, None], "nextToken": 7, "nextForwardToken": [], "nextBackwardToken": {}}))
put("logs_json", "not_lists", json.dumps({"events": {"message": "m"}, "logStreams": "s", "nextToken": None}))
put("jobs_page", "missing", json.dumps({"jobs": [{}, {"jobArn": "a"}, {"jobName": "n"}, {"status": "RUNNING"}]}))
put("jobs_page", "not_list", json.dumps({"jobs": {"jobName": "n"}, "nextToken": ["t"]}))
put("job_info", "get_job_missing", json.dumps({"jobArn": "a", "events": [{}], "queueInfo": {}, "deviceConfig": {}}))
put("job_info", "empty", "{}")
OCI_INDEX = "application/vnd.oci.image.index.v1+json"
D = "sha256:" + "ab" * 32
put("manifest_index", "oci", json.dumps({"schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [
    {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": D, "size": 1, "platform": {"os": "linux", "architecture": "amd64"}},
    {"mediaType": "application/vnd.oci.image.manifest.v1+json", "digest": "sha256:" + "cd" * 32, "size": 1, "platform": {"os": "linux", "architecture": "arm64", "variant": "v8"}},
    {"digest": "sha256:" + "ef" * 32, "platform": {"os": "unknown", "architecture": "unknown"}, "annotations": {"vnd.docker.reference.type": "attestation-manifest", "vnd.docker.reference.digest": D}}]}))
put("manifest_index", "docker_list", json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.list.v2+json", "manifests": [{"digest": D, "platform": {"os": "linux", "architecture": "amd64", "features": ["sse4"]}}]}))
put("manifest_index", "missing", json.dumps({"manifests": [{}, {"platform": {}}, {"digest": D}, {"platform": {"os": "linux"}}, {"platform": {"architecture": "amd64"}, "digest": D}]}))
put("manifest_index", "mistyped", json.dumps({"schemaVersion": "2", "mediaType": 5, "manifests": [7, None, "x", [], {"platform": "linux/amd64"}, {"platform": {"os": 5, "architecture": None, "variant": []}}, {"digest": 5, "annotations": [], "platform": {"os": "linux", "architecture": "amd64"}}, {"digest": "sha256:AB" + "ab" * 31, "platform": {"os": "linux", "architecture": "amd64"}}, {"digest": D + "0", "platform": {"os": "linux", "architecture": "amd64"}}]}))
put("manifest_index", "escapes", json.dumps({"mediaType": OCI_INDEX + EVIL, "manifests": [{"digest": D, "platform": {"os": "linux" + EVIL, "architecture": "amd64" + EVIL, "variant": EVIL}}, {"annotations": {"vnd.docker.reference.type": EVIL}}]}))
put("manifest_index", "not_list", json.dumps({"manifests": {"digest": D}}))
put("manifest_index", "not_object", "[1, \"x\", null]")
detail = {"registryId": "123456789012", "repositoryName": "r", "imageDigest": D, "imageTags": ["v1", "latest"], "imageSizeInBytes": 1000, "imagePushedAt": 1700000000.5, "imageManifestMediaType": OCI_INDEX, "artifactMediaType": "application/vnd.oci.image.config.v1+json", "imageScanStatus": {"status": "COMPLETE"}, "imageScanFindingsSummary": {"findingSeverityCounts": {"HIGH": 3, "CRITICAL": 1}}}
put("ecr_images", "page", json.dumps({"imageDetails": [detail, {"imageDigest": "sha256:" + "cd" * 32, "imagePushedAt": "2026-01-01T00:00:00Z"}], "nextToken": "t"}))
put("ecr_images", "missing", json.dumps({"imageDetails": [{}, {"imageManifestMediaType": OCI_INDEX}, {"imageDigest": D}]}))
put("ecr_images", "mistyped", json.dumps({"imageDetails": [5, None, "x", [], {"imageDigest": 7, "imageTags": "latest", "imagePushedAt": "yesterday", "imageSizeInBytes": "big", "imageManifestMediaType": 3, "imageScanStatus": "done", "imageScanFindingsSummary": []}, {"imageDigest": D, "imageTags": [1, None, "ok"], "imageManifestMediaType": OCI_INDEX, "imagePushedAt": [], "imageSizeInBytes": {}, "imageScanStatus": {"status": 5}, "imageScanFindingsSummary": {"findingSeverityCounts": {"HIGH": "3", "LOW": -1}}}], "nextToken": 5}))
put("ecr_images", "times", json.dumps({"imageDetails": [{"imageDigest": D, "imagePushedAt": 1e300}, {"imagePushedAt": -1e300}, {"imagePushedAt": 253402300800}, {"imagePushedAt": "9999-12-31T23:59:59Z"}, {"imageSizeInBytes": 1e300}, {"imageSizeInBytes": -5}]}))
put("ecr_images", "escapes", json.dumps({"imageDetails": [{"imageDigest": D + EVIL, "imageTags": [EVIL, "v" + EVIL], "imageManifestMediaType": OCI_INDEX, "imageScanStatus": {"status": EVIL}}]}))
put("ecr_images", "not_list", json.dumps({"imageDetails": {"imageDigest": D}}))

# ---- AWS errors and scalars ---------------------------------------------------------------
put("aws_error", "json", "\x00x-amzn-ErrorType: ValidationException:http://internal.amazon.com/coral/com.amazonaws.braket/\nx-amzn-RequestId: 1234" + SEP + '{"message": "1 validation error detected"}')
put("aws_error", "json_type", "\x04" + "Content-Type: application/x-amz-json-1.1" + SEP + '{"__type": "com.amazonaws.ecr#ThrottlingException", "Message": "Rate exceeded"}')
put("aws_error", "xml", "\x01x-amz-request-id: abc" + SEP + '<?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type><Code>SignatureDoesNotMatch</Code><Message>Signature expired: 20240101T000000Z is now earlier than ...</Message></Error><RequestId>r-1</RequestId></ErrorResponse>')
put("aws_error", "s3", "\x07x-amz-bucket-region: eu-west-1" + SEP + '<Error><Code>PermanentRedirect</Code><Message>m</Message><RequestId>x</RequestId></Error>')
put("aws_error", "html", "\x06" + "Content-Type: text/html" + SEP + "<html><body><h1>503 Service Unavailable</h1></body></html>")
put("aws_error", "sts", "\x09" + SEP + '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/x</Arn></GetCallerIdentityResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></GetCallerIdentityResponse>')
put("aws_error", "entities", "\x00" + SEP + '<?xml version="1.0"?><!DOCTYPE e [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY ext SYSTEM "file:///etc/passwd">]><Error><Code>&b;</Code><Message>&ext;</Message></Error>')
put("aws_error", "empty", "\x05")
put("aws_error", "escapes", "\x00x-amzn-RequestId: r\x1b]0;t\x07-1" + SEP + '{"__type": "Validation\\u0007Exception", "message": "a\\u001b]52;c;eA==\\u0007b\\r\\nc\\u009b"}')
for i, s in enumerate(["2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123+05:30", "2024-13-01T25:61:61Z", "s3://bucket/key/with space", "S3://B/", "https://bucket.s3.us-east-1.amazonaws.com/k", "cmd --flag 'quoted arg' \"dq \\\" x\" back\\ slash", "'unterminated", "trailing\\", "arn:aws:braket:us-west-2:123456789012:job/x", "cn-north-1", "us-gov-west-1", "com.amazonaws.x#Code:http://y", "a/b:c"]):
    put("aws_scalars", "s%d" % i, s)

# ---- results tarballs --------------------------------------------------------------------------


def tar_bytes(entries, gz=False):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for name, kind, arg in entries:
            ti = tarfile.TarInfo(name)
            if kind == "file":
                ti.size = len(arg)
                t.addfile(ti, io.BytesIO(arg))
                continue
            ti.type = {"dir": tarfile.DIRTYPE, "sym": tarfile.SYMTYPE, "hard": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE, "chr": tarfile.CHRTYPE}[kind]
            if kind in ("sym", "hard"):
                ti.linkname = arg
            t.addfile(ti)
    if not gz:
        return buf.getvalue()
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as z:  # mtime 0: the same bytes every time
        z.write(buf.getvalue())
    return out.getvalue()


def entry(kind, mode, name, target=b"", data=b""):
    kinds = {"file": 0, "dir": 1, "sym": 2, "hard": 3, "fifo": 4, "chr": 5, "blk": 6}
    return bytes([kinds[kind], mode]) + name + b"\0" + target + b"\0" + bytes([len(data)]) + data


put("results_tar", "raw_good", b"\x00" + tar_bytes([("results.json", "file", b'{"braketSchemaHeader": {}, "dataDictionary": {"x": 1}}'), ("out", "dir", None), ("out/a.txt", "file", b"a"), ("out/link", "sym", "a.txt"), ("out/hard", "hard", "out/a.txt")], gz=True))
put("results_tar", "raw_escape", b"\x00" + tar_bytes([("../evil", "file", b"x"), ("/abs", "file", b"y")]))
put("results_tar", "raw_symlink", b"\x00" + tar_bytes([("l", "sym", "../outside"), ("l/x", "file", b"z")]))
put("results_tar", "raw_devices", b"\x02" + tar_bytes([("f", "fifo", None), ("c", "chr", None)]))
put("results_tar", "st_good", b"\x01" + entry("dir", 1, b"d") + entry("file", 0, b"d/f", data=b"data") + entry("sym", 1, b"d/l", b"f") + entry("hard", 0, b"h", b"d/f"))
put("results_tar", "st_dotdot", b"\x01" + entry("file", 0, b"a/../../x", data=b"1") + entry("sym", 1, b"s", b"/etc"))
put("results_tar", "st_chain", b"\x01" + entry("dir", 1, b"d") + entry("sym", 1, b"d/a", b"..") + entry("sym", 1, b"d/b", b"a/../.."))
put("results_tar", "st_chain_reverse", b"\x01" + entry("dir", 1, b"d") + entry("sym", 1, b"d/b", b"a/../..") + entry("sym", 1, b"d/a", b".."))
put("results_tar", "st_setuid", b"\x01" + entry("file", 0xff, b"suid", data=b"#!/bin/sh\n") + entry("blk", 0, b"blk"))
put("results_tar", "st_replace_dir", b"\x01" + entry("dir", 1, b"d") + entry("sym", 1, b"d/x", b"../y") + entry("sym", 1, b"d", b"."))

# ---- repository policies and docker config ------------------------------------------------------
pull = ["ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"]
put("policy", "byoc", "\x00" + json.dumps({"Version": "2012-10-17", "Statement": [{"Sid": "ByocPull", "Effect": "Allow", "Principal": {"AWS": ["arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole"]}, "Action": pull}]}))
put("policy", "foreign", "\x11" + json.dumps({"Version": "2008-10-17", "Statement": [{"Sid": "Mine", "Effect": "Allow", "Principal": "*", "Action": "ecr:*"}, {"Effect": "Deny", "Principal": {"AWS": "123456789012"}, "Action": ["ecr:BatchGetImage"], "Condition": {"StringEquals": {"aws:SourceVpce": "vpce-1"}}}]}))
put("policy", "single", "\x22" + json.dumps({"Statement": {"Effect": "Allow", "Principal": {"AWS": "arn:aws:iam::123456789012:root"}, "Action": pull + ["ecr:PutImage"]}}))
put("policy", "bad", "\x33" + '{"Statement": [1, "x"], "Statement": {}}')
put("policy", "empty", "\x04")
put("policy", "principal", "\x05arn:aws-us-gov:iam::123456789012:role/path/to/Role")
put("docker_config", "full", json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": "dXNlcjpwYXNz"}, "registry.example:5000": {"auth": "b2xkOm9sZA=="}}, "credsStore": "desktop", "credHelpers": {"123456789012.dkr.ecr.us-east-1.amazonaws.com": "ecr-login"}, "psFormat": "table"}, indent=2))
put("docker_config", "empty", "")
put("docker_config", "empty_object", "{}")
put("docker_config", "auths_wrong", '{"auths": [], "x": 1}')
put("docker_config", "broken", '{"auths": {"a": {"auth": ')

# ---- credential detection -------------------------------------------------------------------------
put("tokens", "aws", "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n")
put("tokens", "pem", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n")
put("tokens", "tokens", "GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\nglpat-0123456789abcdefghij xoxb-1234-5678-abcdef\n")
put("tokens", "plain", "print('hello world')\n")
put("requirements", "git_egg_path", "git+https://host/o/x.git#egg=/tmp/evil\ngit+ssh://git@host/o/y.git#egg=../../etc\n")
