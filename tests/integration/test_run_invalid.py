#!/usr/bin/env python3
"""A catalogue of invalid `byoc run` inputs. Each one must be refused before anything is sent:
exit 2, one line `byoc: <flag> (<API member>): <why>` naming the field, no request in the
Braket stand-in's log and moto's S3 unchanged (every bucket, every key, every ETag)."""

import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import Checks, client, control, env  # noqa: E402

C = Checks("test_run_invalid")
from testkit import BYOC_BIN as BYOC  # noqa: E402
ACCOUNT = env("BYOC_TEST_ACCOUNT")
IMAGE = "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-my-qtc:latest" % ACCOUNT
ROLE = "arn:aws:iam::%s:role/service-role/AmazonBraketJobsExecutionRole-byoc-run" % ACCOUNT
ECR = "%s.dkr.ecr.us-east-1.amazonaws.com/" % ACCOUNT
s3 = client("s3")

BASE = ["--image-uri", IMAGE, "--source-module", "algo.py", "--role-arn", ROLE]


def without(args, flag):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == flag:
            skip = True
            continue
        out.append(a)
    return out


def with_(flag, value, base=None):
    return without(base or BASE, flag) + [flag, value]


def many(flag, values):
    out = list(BASE)
    for v in values:
        out += [flag, v]
    return out


# (label, argv after "run", extra environment, expected flag, expected API member or None)
CATALOGUE = [
    # job name: ^(?!-)[A-Za-z0-9-]{1,50}(?<!-)$
    ("name with _", with_("--job-name", "my_job"), None, "--job-name", "jobName"),
    ("name starts with -", with_("--job-name", "-job"), None, "--job-name", "jobName"),
    ("name ends with -", with_("--job-name", "job-"), None, "--job-name", "jobName"),
    ("name of 51", with_("--job-name", "a" * 51), None, "--job-name", "jobName"),
    ("name with space", with_("--job-name", "my job"), None, "--job-name", "jobName"),
    ("name with dot", with_("--job-name", "v1.2"), None, "--job-name", "jobName"),
    ("default name too long", with_("--image-uri", ECR + "amazon-braket-" + "x" * 40 + ":1"), None,
     "--job-name", "jobName"),
    ("name twice", BASE + ["--job-name", "a", "--job-name", "b"], None, "--job-name", None),
    # role
    ("role not an ARN", with_("--role-arn", "AmazonBraketJobsExecutionRole"), None, "--role-arn", "roleArn"),
    ("role short account", with_("--role-arn", "arn:aws:iam::1234:role/x"), None, "--role-arn", "roleArn"),
    ("role is a user", with_("--role-arn", "arn:aws:iam::%s:user/bob" % ACCOUNT), None, "--role-arn", "roleArn"),
    ("role with space", with_("--role-arn", "arn:aws:iam::%s:role/a b" % ACCOUNT), None, "--role-arn", "roleArn"),
    ("role from env", without(BASE, "--role-arn"), {"BRAKET_JOBS_ROLE_ARN": "not-a-role"},
     "BRAKET_JOBS_ROLE_ARN", "roleArn"),
    # image
    ("image on docker hub", with_("--image-uri", "docker.io/library/python:3.11"), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image without tag", with_("--image-uri", ECR + "amazon-braket-my-qtc"), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image bad digest", with_("--image-uri", ECR + "repo@sha256:1234"), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image upper-case repo", with_("--image-uri", ECR + "Repo:1"), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image bad tag", with_("--image-uri", ECR + "repo:.x"), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image of 256", with_("--image-uri", ECR + "r" * 200 + ":" + "t" * 10), None, "--image-uri",
     "algorithmSpecification.containerImage.uri"),
    ("image missing", without(BASE, "--image-uri"), None, "--image-uri", None),
    # source module and entry point
    ("source missing", with_("--source-module", "nope.py"), None, "--source-module", None),
    ("source S3 not tar.gz", with_("--source-module", "s3://byoc-run-inputs/src.zip") + ["--entry-point", "a"],
     None, "--source-module", None),
    ("source S3 without entry point", with_("--source-module", "s3://byoc-run-inputs/src.tar.gz"), None,
     "--entry-point", "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("source with a symlink loop", with_("--source-module", "loop"), None, "--source-module", None),
    ("source with a broken symlink", with_("--source-module", "broken"), None, "--source-module", None),
    ("entry point elsewhere", BASE + ["--entry-point", "other"], None, "--entry-point",
     "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("entry point empty function", BASE + ["--entry-point", "algo:"], None, "--entry-point",
     "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("entry point bad function", BASE + ["--entry-point", "algo:1st"], None, "--entry-point",
     "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("entry point relative", BASE + ["--entry-point", ".algo"], None, "--entry-point",
     "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("entry point not in package", with_("--source-module", "pkg") + ["--entry-point", "pkg.missing"], None,
     "--entry-point", "algorithmSpecification.scriptModeConfig.entryPoint"),
    ("entry point file path", BASE + ["--entry-point", "algo.py"], None, "--entry-point",
     "algorithmSpecification.scriptModeConfig.entryPoint"),
    # device
    ("device bare name", BASE + ["--device", "sv1"], None, "--device", "deviceConfig.device"),
    ("local device without simulator", BASE + ["--device", "local:braket"], None, "--device",
     "deviceConfig.device"),
    ("local device with space", BASE + ["--device", "local:braket/sv 1"], None, "--device", "deviceConfig.device"),
    ("device of 257", BASE + ["--device", "local:p/" + "d" * 249], None, "--device", "deviceConfig.device"),
    ("device of another service", BASE + ["--device", "arn:aws:s3:::bucket"], None, "--device",
     "deviceConfig.device"),
    # instance
    ("instance type unknown", BASE + ["--instance-type", "ml.m5.huge"], None, "--instance-type",
     "instanceConfig.instanceType"),
    ("instance count 0", BASE + ["--instance-count", "0"], None, "--instance-count", "instanceConfig.instanceCount"),
    ("instance count 6", BASE + ["--instance-count", "6"], None, "--instance-count", "instanceConfig.instanceCount"),
    ("instance count word", BASE + ["--instance-count", "two"], None, "--instance-count",
     "instanceConfig.instanceCount"),
    ("volume 0", BASE + ["--volume-gb", "0"], None, "--volume-gb", "instanceConfig.volumeSizeInGb"),
    ("volume empty", BASE + ["--volume-gb", ""], None, "--volume-gb", "instanceConfig.volumeSizeInGb"),
    ("volume 2^31", BASE + ["--volume-gb", "2147483648"], None, "--volume-gb", "instanceConfig.volumeSizeInGb"),
    # runtime
    ("runtime 0", BASE + ["--max-runtime", "0"], None, "--max-runtime", "stoppingCondition.maxRuntimeInSeconds"),
    ("runtime 432001", BASE + ["--max-runtime", "432001"], None, "--max-runtime",
     "stoppingCondition.maxRuntimeInSeconds"),
    ("runtime 10m", BASE + ["--max-runtime", "10m"], None, "--max-runtime", "stoppingCondition.maxRuntimeInSeconds"),
    # hyperparameters
    ("hyperparameter empty value", BASE + ["--hyperparameter", "lr="], None, "--hyperparameter",
     "hyperParameters[lr]"),
    ("hyperparameter empty key", BASE + ["--hyperparameter", "=1"], None, "--hyperparameter", "hyperParameters key"),
    ("hyperparameter value 2501", BASE + ["--hyperparameter", "v=" + "x" * 2501], None, "--hyperparameter",
     "hyperParameters[v]"),
    ("hyperparameter key 257", BASE + ["--hyperparameter", "k" * 257 + "=1"], None, "--hyperparameter",
     "hyperParameters key"),
    ("hyperparameter twice", BASE + ["--hyperparameter", "a=1", "--hyperparameter", "a=2"], None,
     "--hyperparameter", "hyperParameters[a]"),
    ("101 hyperparameters", many("--hyperparameter", ["k%d=v" % i for i in range(101)]), None, "--hyperparameter",
     "hyperParameters"),
    ("hyperparameter with newline", BASE + ["--hyperparameter", "msg=two\nlines"], None, "--hyperparameter",
     "hyperParameters[msg]"),
    ("hyperparameter not K=V", BASE + ["--hyperparameter", "lr"], None, "--hyperparameter", None),
    ("hyperparameter bad UTF-8", BASE + [b"--hyperparameter", b"k=\xff\xfe"], None, "--hyperparameter",
     "hyperParameters[k]"),
    ("99 hyperparameters + data_parallel", many("--hyperparameter", ["k%d=v" % i for i in range(99)])
     + ["--distribution", "data_parallel"], None, "--hyperparameter", "hyperParameters"),
    # input data
    ("channel name with @", BASE + ["--input-data", "tr@in=s3://byoc-run-inputs/ref/"], None, "--input-data",
     "inputDataConfig[0].channelName"),
    ("channel name of 65", BASE + ["--input-data", "c" * 65 + "=s3://byoc-run-inputs/ref/"], None, "--input-data",
     "inputDataConfig[0].channelName"),
    ("channel twice", BASE + ["--input-data", "a=s3://byoc-run-inputs/x", "--input-data", "a=s3://byoc-run-inputs/y"],
     None, "--input-data", "inputDataConfig[1].channelName"),
    ("21 channels", many("--input-data", ["c%d=s3://byoc-run-inputs/x" % i for i in range(21)]), None,
     "--input-data", "inputDataConfig"),
    ("local input missing", BASE + ["--input-data", "train=nothing/here"], None, "--input-data",
     "inputDataConfig[0].dataSource.s3DataSource.s3Uri"),
    ("input over http", BASE + ["--input-data", "train=http://bucket/key"], None, "--input-data",
     "inputDataConfig[0].dataSource.s3DataSource.s3Uri"),
    ("input bad bucket", BASE + ["--input-data", "train=s3://b!d/key"], None, "--input-data",
     "inputDataConfig[0].dataSource.s3DataSource.s3Uri"),
    ("input named '.'", BASE + ["--input-data", "train=."], None, "--input-data",
     "inputDataConfig[0].dataSource.s3DataSource.s3Uri"),
    # S3 locations
    ("output over http", BASE + ["--output-s3", "http://bucket/out"], None, "--output-s3", "outputDataConfig.s3Path"),
    ("output without scheme", BASE + ["--output-s3", "bucket/out"], None, "--output-s3", "outputDataConfig.s3Path"),
    ("checkpoint of 1030", BASE + ["--checkpoint-s3", "s3://bucket/" + "k" * 1020], None, "--checkpoint-s3",
     "checkpointConfig.s3Uri"),
    ("checkpoint bad bucket", BASE + ["--checkpoint-s3", "s3://a/k"], None, "--checkpoint-s3",
     "checkpointConfig.s3Uri"),
    ("code location over https", BASE + ["--code-location", "https://bucket.s3.us-east-1.amazonaws.com/c"], None,
     "--code-location", None),
    ("checkpoint local path 4097", BASE + ["--checkpoint-local-path", "/" + "p" * 4096], None,
     "--checkpoint-local-path", "checkpointConfig.localPath"),
    ("kms key 2049", BASE + ["--kms-key-id", "k" * 2049], None, "--kms-key-id", "outputDataConfig.kmsKeyId"),
    # tags, distribution, reservation, checkpoints source
    ("tag without key", BASE + ["--tag", "=v"], None, "--tag", "tags key"),
    ("tag twice", BASE + ["--tag", "a=1", "--tag", "a=2"], None, "--tag", "tags[a]"),
    ("tag not K=V", BASE + ["--tag", "team"], None, "--tag", None),
    ("distribution unknown", BASE + ["--distribution", "model_parallel"], None, "--distribution", None),
    ("reservation not Braket", BASE + ["--reservation-arn", "arn:aws:ec2:us-east-1:%s:x" % ACCOUNT], None,
     "--reservation-arn", "associations[0].arn"),
    ("copy from a task ARN", BASE + ["--copy-checkpoints-from-job",
                                     "arn:aws:braket:us-east-1:%s:quantum-task/x" % ACCOUNT], None,
     "--copy-checkpoints-from-job", "jobArn"),
    # the command line itself
    ("local mode, image not on the engine", BASE + ["--local"], None, "--image-uri", None),
    ("local-only flag", BASE + ["--with-credentials"], None, "--with-credentials", None),
    ("unknown flag", BASE + ["--frobnicate"], None, "run", None),
    ("positional argument", BASE + ["extra"], None, "run", None),
    ("flag without value", BASE + ["--job-name"], None, "--job-name", None),
]


def s3_snapshot():
    snap = {}
    for b in s3.list_buckets()["Buckets"]:
        keys = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=b["Name"]):
            for o in page.get("Contents", []):
                keys[o["Key"]] = o["ETag"]
        snap[b["Name"]] = keys
    return snap


def setup_dir():
    d = tempfile.mkdtemp(prefix="byoc-run-invalid-")
    # The image is of an extend-prebuilt project: the Braket launcher's module rules apply.
    with open(os.path.join(d, "byoc.json"), "w") as f:
        f.write('{"recipe": "extend-prebuilt"}\n')
    with open(os.path.join(d, "algo.py"), "w") as f:
        f.write("def main():\n    pass\n")
    os.makedirs(os.path.join(d, "pkg"))
    with open(os.path.join(d, "pkg", "__init__.py"), "w") as f:
        f.write("")
    os.makedirs(os.path.join(d, "loop", "inner"))
    os.symlink("..", os.path.join(d, "loop", "inner", "up"))
    os.makedirs(os.path.join(d, "broken"))
    os.symlink("gone.py", os.path.join(d, "broken", "dangling.py"))
    return d


def main():
    C.check(len(CATALOGUE) >= 50, "the catalogue has at least 50 invalid inputs", len(CATALOGUE))
    cwd = setup_dir()
    seq = max([r["seq"] for r in control("GET", "/requests")[1]["requests"]] or [0])
    before = s3_snapshot()
    for label, args, extra, flag, api in CATALOGUE:
        e = dict(os.environ)
        e.pop("BRAKET_JOBS_ROLE_ARN", None)
        e.update(extra or {})
        argv = [BYOC.encode(), b"run", b"--no-preflight"] + [a if isinstance(a, bytes) else a.encode() for a in args]
        p = subprocess.run(argv, cwd=cwd, env=e, capture_output=True, timeout=120)
        err = p.stderr.decode("utf-8", "replace")
        C.equal(p.returncode, 2, "%s: exit 2" % label)
        lines = [l for l in err.splitlines() if l.startswith("byoc: ")]
        named = "byoc: %s" % flag + (" (%s)" % api if api else "")
        C.check(len(lines) == 1 and lines[0].startswith(named), "%s: names %s" % (label, named), err.strip()[-400:])
        C.equal(p.stdout, b"", "%s: nothing on stdout" % label)
        reqs = control("GET", "/requests?since=%d" % seq)[1]["requests"]
        C.equal(reqs, [], "%s: nothing sent to Braket" % label)
        if reqs:
            seq = max(r["seq"] for r in reqs)
        after = s3_snapshot()
        C.check(after == before, "%s: S3 unchanged" % label)
        before = after
    shutil.rmtree(cwd)
    C.done()


if __name__ == "__main__":
    random.seed(0)
    main()
