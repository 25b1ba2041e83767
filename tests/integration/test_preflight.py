#!/usr/bin/env python3
"""byoc preflight on the topology: each check made to fail for its real cause, then passing once fixed.

Real parts only: images built on the test engine and pushed with Debian's docker client to the TLS
registry at the ECR-shaped host (moto's ECR learns them through the bridge), hand-made manifests
(an arm64 image, an OCI index with an attestation manifest) pushed over the registry's v2 API
(tests/topology/regpush.py), IAM roles in moto, devices of the Braket stand-in.
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import Checks, client, create_jobs_role, env  # noqa: E402
from ecr_front import EcrFront  # noqa: E402
from regpush import entry, push_attestation_index, push_image, push_index, push_manifest, registry, \
    wait_in_ecr, DOCKER_LIST, DOCKER_MANIFEST, OCI_MANIFEST  # noqa: E402

C = Checks("test_preflight")
from testkit import BYOC_BIN as BYOC  # noqa: E402
FIX = os.path.join(SOURCE, "tests", "fixtures", "preflight")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
HOST = env("BYOC_TEST_REGISTRY")
DOCKER = env("BYOC_TEST_DOCKER_CLI")
RUN_ID = "%x" % random.getrandbits(24)
REPO = "amazon-braket-pf-" + RUN_ID
PLAIN = "pf-plain-" + RUN_ID
ROLE_NAME = "AmazonBraketJobsExecutionRole-pf" + RUN_ID
ROLE = "arn:aws:iam::%s:role/service-role/%s" % (ACCOUNT, ROLE_NAME)
# moto runs without its AWS managed policies loaded: the role gets a customer policy with the managed
# policy's document. byoc's name rule rightly ignores such a look-alike, so IAM's answer comes from
# SimulatePrincipalPolicy, which moto lacks: ecr_front (simulate="evaluate") evaluates the role's real
# policies in moto and sits between byoc and moto for every preflight here.
MANAGED_NAME = "AmazonBraketJobsExecutionPolicy"
MANAGED = "arn:aws:iam::%s:policy/service-role/%s" % (ACCOUNT, MANAGED_NAME)
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
HARMONY = "arn:aws:braket:us-east-1::device/qpu/ionq/Harmony"
PASSWORD = "%s-auth-token" % ACCOUNT

ecr = client("ecr")
iam = client("iam")
DOCKER_CONFIG = tempfile.mkdtemp(prefix="byoc-pf-docker-")


def uri(repo, tag):
    return "%s/%s:%s" % (HOST, repo, tag)


def docker(*args):
    e = dict(os.environ, DOCKER_CONFIG=DOCKER_CONFIG)
    p = subprocess.run([DOCKER] + list(args), capture_output=True, text=True, env=e, timeout=600)
    if p.returncode != 0:
        raise RuntimeError("docker %s: %s%s" % (" ".join(args), p.stdout, p.stderr))
    return p.stdout


FRONT = None


def preflight(*args, region=None, project=None):
    cmd = [BYOC, "--json", "--project", project or os.path.join(FIX, "image")]
    cmd += (["--region", region] if region else []) + ["preflight"] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=dict(os.environ, AWS_ENDPOINT_URL=FRONT.url))
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {"checks": []}
    checks = {c["name"]: c for c in doc.get("checks", [])}
    return p.returncode, doc, checks, p.stderr


def job(image, src="src_ok", entry="src_ok.algo:main", role=ROLE, device=SV1, *extra):
    return ["--image-uri", image, "--source-module", os.path.join(FIX, src), "--entry-point", entry,
            "--role-arn", role, "--device", device] + list(extra)


def status_of(checks, name):
    return checks.get(name, {}).get("status")


def expect(name, checks, check, want, rc=None, want_rc=None):
    got = checks.get(check, {})
    C.check(got.get("status") == want, "%s: %s is %s" % (name, check, want), got or sorted(checks))
    if want == "fail":
        C.check(bool(got.get("fix")) and "\n" not in got.get("fix", ""), "%s: %s names a one-line fix" % (name, check),
                got)
    if want_rc is not None:
        C.equal(rc, want_rc, "%s: exit %d" % (name, want_rc))


# ---- setup -------------------------------------------------------------------------------------

def build_and_push(repo, tag, dockerfile="Dockerfile"):
    ref = uri(repo, tag)
    docker("build", "-q", "-t", ref, "-f", os.path.join(FIX, "image", dockerfile), os.path.join(FIX, "image"))
    docker("push", ref)
    C.check(wait_in_ecr(repo, tag), "setup: %s:%s is in moto's ECR" % (repo, tag))
    return ref


def setup():
    for r in (REPO, PLAIN):
        ecr.create_repository(repositoryName=r)
    create_jobs_role(ROLE_NAME)
    p = subprocess.run([DOCKER, "login", "-u", "AWS", "--password-stdin", HOST], input=PASSWORD, text=True,
                       capture_output=True, env=dict(os.environ, DOCKER_CONFIG=DOCKER_CONFIG))
    if p.returncode != 0:
        raise RuntimeError("docker login: " + p.stderr)


def cleanup():
    for r in (REPO, PLAIN):
        try:
            ecr.delete_repository(repositoryName=r, force=True)
        except Exception:
            pass
    try:
        iam.detach_role_policy(RoleName=ROLE_NAME, PolicyArn=MANAGED)
        iam.delete_role(RoleName=ROLE_NAME)
    except Exception:
        pass
    for tag in ("good", "noprogram", "drift"):
        for repo in (REPO, PLAIN):
            subprocess.run([DOCKER, "rmi", "-f", uri(repo, tag)], capture_output=True)
    for ref in LOCAL_TAGS:
        subprocess.run([DOCKER, "rmi", "-f", ref], capture_output=True)


# ---- cases -------------------------------------------------------------------------------------

GOOD = None


def test_sound_job():
    started = time.monotonic()
    rc, doc, checks, err = preflight(*job(GOOD))
    print("info sound job: preflight took %.1f s (not asserted)" % (time.monotonic() - started))
    C.equal(rc, 0, "sound job: exit 0")
    C.check(doc.get("ok") is True, "sound job: ok", doc)
    for name in ("spec", "credentials", "region", "device", "instance-type", "image.ecr", "image.manifest",
                 "image.architecture", "image.digest", "contract.program", "contract.train", "contract.entrypoint",
                 "contract.python", "contract.sagemaker-training", "code.entry-point", "permissions.pull",
                 "permissions.s3", "permissions.caller"):
        expect("sound job", checks, name, "pass")
    C.check(all(set(c) == {"name", "status", "message", "fix"} for c in doc.get("checks", [])),
            "sound job: every check has name, status, message, fix")
    C.check("Python 3." in checks.get("contract.python", {}).get("message", ""), "sound job: names the Python version",
            checks.get("contract.python"))


def test_region_mismatch():
    rc, _, checks, _ = preflight(*job(GOOD), region="us-west-2")
    expect("image in us-east-1, job in us-west-2", checks, "region", "fail", rc, 1)
    C.check("us-west-2" in checks.get("region", {}).get("message", ""), "region mismatch: names the job's region")


def test_device():
    rc, _, checks, _ = preflight(*job(GOOD, device=HARMONY))
    expect("retired device", checks, "device", "fail", rc, 1)
    rc, _, checks, _ = preflight(*job(GOOD, device=SV1))
    expect("online device", checks, "device", "pass")


def test_instance_type():
    rc, _, checks, _ = preflight(*job(GOOD), "--instance-count", "6")
    expect("6 instances", checks, "instance-type", "fail", rc, 1)


def test_arm64():
    push_image(REPO, "arm64", "arm64")
    rc, _, checks, _ = preflight(*job(uri(REPO, "arm64")))
    expect("arm64 image", checks, "image.architecture", "fail", rc, 1)
    C.check("arm64" in checks.get("image.architecture", {}).get("message", ""), "arm64 image: says arm64")


def test_attestation_index():
    # What BuildKit pushes by default: the job would take the index's linux/amd64 entry, so that entry is
    # judged (it passes); the index itself is a warning with the workaround, as Braket's acceptance of OCI
    # media types is not documented (SageMaker refuses them: aws/amazon-sagemaker-feedback#180).
    push_attestation_index(REPO, "att", "good")
    rc, _, checks, _ = preflight(*job(uri(REPO, "att")))
    expect("attestation index", checks, "image.manifest", "warn")
    man = checks.get("image.manifest", {})
    C.check("attestation" in man.get("message", "") and "linux/amd64" in man.get("message", ""),
            "attestation index: names the attestation and the platform", man)
    C.check("--provenance=false" in (man.get("fix") or "") and "buildx#1533" in (man.get("fix") or ""),
            "attestation index: the fix is the documented workaround", man)
    expect("attestation index", checks, "image.architecture", "pass")
    C.check("linux/amd64 entry" in checks.get("image.architecture", {}).get("message", ""),
            "attestation index: the architecture is its linux/amd64 entry's", checks.get("image.architecture"))


def test_manifest_list_without_amd64():
    # A Docker manifest list with only an arm64 image: fails for the architecture, naming what it holds.
    arm_digest, arm_size = push_image(REPO, "arm64-for-list", "arm64")
    push_index(REPO, "list-arm", [entry(arm_digest, arm_size, "arm64", "v8")], DOCKER_LIST)
    rc, _, checks, _ = preflight(*job(uri(REPO, "list-arm")))
    expect("arm64-only manifest list", checks, "image.manifest", "warn")
    expect("arm64-only manifest list", checks, "image.architecture", "fail", rc, 1)
    msg = checks.get("image.architecture", {}).get("message", "")
    C.check("linux/arm64/v8" in msg, "arm64-only manifest list: names its platforms", msg)


def test_images_show_index_platforms():
    # The image browser reads each index's platforms from the registry (after the two tests above).
    p = subprocess.run([BYOC, "--json", "images", "--repository", REPO], capture_output=True, text=True, timeout=120)
    try:
        images = json.loads(p.stdout).get("images", [])
    except ValueError:
        images = []
    by_tag = {t: im for im in images for t in im.get("tags", [])}
    att, arm = by_tag.get("att", {}), by_tag.get("list-arm", {})
    C.check(att.get("platforms") == ["linux/amd64"] and att.get("attestations") == 1,
            "images --repository: the attestation index holds linux/amd64 and 1 attestation", (att, p.stderr[-300:]))
    C.check(arm.get("platforms") == ["linux/arm64/v8"] and arm.get("attestations") == 0,
            "images --repository: the manifest list holds linux/arm64/v8", arm)
    C.check("platforms" not in by_tag.get("good", {"platforms": 1}), "a single-platform image is not read again",
            by_tag.get("good"))
    p = subprocess.run([BYOC, "images", "--repository", REPO], capture_output=True, text=True, timeout=120)
    C.check("platforms: linux/amd64 +1 attestation" in p.stdout and "platforms: linux/arm64/v8" in p.stdout,
            "images --repository (table): the platforms under each index", p.stdout[-800:])


def test_oci_manifest():
    # A single-platform OCI manifest of the good image's config and layers: judged (amd64 passes), with a
    # warning naming the media type and the workaround.
    _, _, body = registry("GET", "/v2/%s/manifests/%s" % (REPO, "good"), accept=DOCKER_MANIFEST)
    doc = json.loads(body)
    doc["mediaType"] = OCI_MANIFEST
    doc["config"]["mediaType"] = "application/vnd.oci.image.config.v1+json"
    for layer in doc["layers"]:
        layer["mediaType"] = "application/vnd.oci.image.layer.v1.tar+gzip"
    push_manifest(REPO, "oci", doc, OCI_MANIFEST)
    rc, _, checks, _ = preflight(*job(uri(REPO, "oci")))
    expect("OCI manifest", checks, "image.manifest", "warn")
    C.check("oci.image.manifest" in checks.get("image.manifest", {}).get("message", ""),
            "OCI manifest: names the media type", checks.get("image.manifest"))
    expect("OCI manifest", checks, "image.architecture", "pass")


def test_missing_image():
    rc, _, checks, _ = preflight(*job(uri(REPO, "never-pushed")))
    expect("unpushed tag", checks, "image.ecr", "fail", rc, 1)


def test_no_program():
    ref = build_and_push(REPO, "noprogram", "Dockerfile.noprogram")
    rc, _, checks, _ = preflight(*job(ref))
    expect("no SAGEMAKER_PROGRAM", checks, "contract.program", "fail", rc, 1)


def build_local(tag, dockerfile, *build_args):
    """An image on the engine only (the contract checks read the local image)."""
    ref = uri(REPO, tag)
    args = []
    for a in build_args:
        args += ["--build-arg", a]
    docker("build", "-q", "-t", ref, *args, "-f", os.path.join(FIX, "image", dockerfile), os.path.join(FIX, "image"))
    LOCAL_TAGS.append(ref)
    return ref


LOCAL_TAGS = []


def test_contract_variants():
    rc, _, checks, _ = preflight(*job(build_local("missing-program", "Dockerfile", "PROGRAM=missing.py")))
    expect("program file absent", checks, "contract.program", "fail", rc, 1)
    C.check("missing.py" in checks.get("contract.program", {}).get("message", ""), "program file absent: names it")
    rc, _, checks, _ = preflight(*job(build_local("notrain", "Dockerfile.notrain")))
    expect("no train, no ENTRYPOINT", checks, "contract.train", "fail", rc, 1)
    rc, _, checks, _ = preflight(*job(build_local("nosm", "Dockerfile.nosm")))
    expect("train without sagemaker_training", checks, "contract.sagemaker-training", "fail", rc, 1)
    expect("train without sagemaker_training", checks, "contract.train", "pass")
    rc, _, checks, _ = preflight(*job(build_local("entrypoint", "Dockerfile.entrypoint")))
    expect("ENTRYPOINT that swallows train", checks, "contract.entrypoint", "warn")
    rc, _, checks, _ = preflight(*job(build_local("nopython", "Dockerfile.nopython")))
    expect("busybox image", checks, "contract.python", "fail", rc, 1)
    # Judged from the image's files, nothing run in it: a launcher of its own as train passes...
    rc, _, checks, _ = preflight(*job(build_local("customtrain", "Dockerfile.customtrain")))
    for name in ("contract.program", "contract.train", "contract.python", "contract.sagemaker-training",
                 "code.entry-point"):
        expect("custom train launcher", checks, name, "pass")
    C.check("launcher of its own" in checks.get("contract.sagemaker-training", {}).get("message", ""),
            "custom train launcher: noted", checks.get("contract.sagemaker-training"))
    # ...and an image without a shell is judged, not waved through: each missing part named.
    rc, _, checks, _ = preflight(*job(build_local("shellless", "Dockerfile.shellless")))
    C.equal(rc, 1, "shell-less image: exit 1")
    for name, needle in (("contract.train", "no `train`"), ("contract.program", "/opt/ml/code/missing.py"),
                         ("contract.python", "no python3")):
        expect("shell-less image", checks, name, "fail")
        C.check(needle in checks.get(name, {}).get("message", ""), "shell-less image: %s names %s" % (name, needle),
                checks.get(name))


def test_byoc_entry_kinds():
    """byoc's launcher (the image's SAGEMAKER_PROGRAM) starts CMake, Cargo and Julia entry points with
    cmake, cargo and julia: each is looked for on the image's PATH (here cmake and cargo are, julia is not)."""
    ref = build_local("byoclauncher", "Dockerfile.byoclauncher")
    for src, entry, want, needle in (("src_cmake", "src_cmake/CMakeLists.txt", "pass", "/usr/local/bin/cmake"),
                                     ("src_cargo", "src_cargo/Cargo.toml", "pass", "/usr/local/bin/cargo"),
                                     ("src_julia", "src_julia/main.jl", "fail", "julia, which is not on the image's PATH")):
        rc, _, checks, err = preflight(*job(ref, src, entry), "--local")
        name = "byoc launcher, %s" % entry
        expect(name, checks, "code.entry-point", want, rc, 1 if want == "fail" else 0)
        msg = checks.get("code.entry-point", {}).get("message", "")
        C.check(needle in msg, "%s: the message names %r" % (name, needle), (msg, err[-300:]))
        if want == "pass":
            C.check("byoc's launcher starts it with" in msg, "%s: as byoc's launcher starts it" % name, msg)


def test_python_version():
    rc, _, checks, _ = preflight(*job(GOOD), project=os.path.join(FIX, "project_py313"))
    expect("project asks for Python >=3.13", checks, "contract.python", "warn")
    C.check(">=3.13" in checks.get("contract.python", {}).get("message", ""), "python: names the project's requirement",
            checks.get("contract.python"))


def test_spec_and_credentials():
    rc, _, checks, _ = preflight(*job(GOOD), "--job-name", "not_valid")
    expect("bad job name", checks, "spec", "fail", rc, 1)
    e = dict(os.environ, AWS_SECRET_ACCESS_KEY="x" * 40, AWS_ENDPOINT_URL=FRONT.url)
    p = subprocess.run([BYOC, "--json", "preflight"] + job(GOOD), capture_output=True, text=True, env=e, timeout=300)
    try:
        checks = {c["name"]: c for c in json.loads(p.stdout)["checks"]}
    except (ValueError, KeyError):
        checks = {}
    expect("wrong secret key", checks, "credentials", "fail", p.returncode, 1)


def test_entry_point_does_not_import():
    rc, _, checks, _ = preflight(*job(GOOD, "src_broken", "src_broken.algo:main"))
    expect("broken entry point", checks, "code.entry-point", "fail", rc, 1)
    C.check("byoc_no_such_module" in checks.get("code.entry-point", {}).get("message", ""),
            "broken entry point: names the missing module", checks.get("code.entry-point"))
    rc, _, checks, _ = preflight(*job(GOOD, "src_ok", "src_ok.algo:nope"))
    expect("missing function", checks, "code.entry-point", "fail", rc, 1)
    rc, _, checks, _ = preflight(*job(GOOD, "src_reqs", "src_reqs.algo:main"))
    expect("requirements.txt package not in the image", checks, "code.entry-point", "warn")
    C.check("byoc-preflight-absent-pkg" in checks.get("code.entry-point", {}).get("message", ""),
            "requirements: names the missing package", checks.get("code.entry-point"))


def test_local_differs_from_pushed():
    ref = uri(REPO, "drift")
    docker("build", "-q", "-t", ref, "--build-arg", "PROGRAM=braket_container.py", "-f",
           os.path.join(FIX, "image", "Dockerfile"), os.path.join(FIX, "image"))
    docker("push", ref)
    wait_in_ecr(REPO, "drift")
    docker("tag", uri(REPO, "noprogram"), ref)  # the local tag now names another image
    rc, _, checks, _ = preflight(*job(ref))
    expect("local image changed after push", checks, "image.digest", "fail", rc, 1)


def test_role_cannot_pull():
    ref = build_and_push(PLAIN, "good")
    rc, _, checks, _ = preflight(*job(ref))
    expect("repository outside amazon-braket*", checks, "permissions.pull", "fail", rc, 1)
    p = subprocess.run([BYOC, "permit", PLAIN, "--allow", ROLE], capture_output=True, text=True,
                       env=dict(os.environ, AWS_ENDPOINT_URL=FRONT.url))
    C.equal(p.returncode, 0, "permit --allow: exit 0")
    rc, _, checks, _ = preflight(*job(ref))
    expect("after byoc permit --allow", checks, "permissions.pull", "pass")


def test_s3_bucket_rule():
    rc, _, checks, _ = preflight(*job(GOOD), "--output-s3", "s3://my-results-%s/out" % RUN_ID)
    expect("output outside amazon-braket-*", checks, "permissions.s3", "fail", rc, 1)


def test_credentials_expiry():
    """Temporary credentials (a credential_process with an Expiration) that end before the max runtime."""
    tmp = tempfile.mkdtemp(prefix="byoc-pf-creds-")
    script = os.path.join(tmp, "creds.sh")
    expires = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 1800))
    with open(script, "w") as f:
        f.write("#!/bin/sh\ncat <<'X'\n%s\nX\n" % json.dumps({
            "Version": 1, "AccessKeyId": os.environ["AWS_ACCESS_KEY_ID"],
            "SecretAccessKey": os.environ["AWS_SECRET_ACCESS_KEY"], "Expiration": expires}))
    os.chmod(script, 0o700)
    config = os.path.join(tmp, "config")
    with open(config, "w") as f:
        f.write("[profile pf]\ncredential_process = %s\nregion = us-east-1\n" % script)
    e = {k: v for k, v in os.environ.items() if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    e.update(AWS_CONFIG_FILE=config, AWS_PROFILE="pf", AWS_ENDPOINT_URL=FRONT.url)

    def run(runtime):
        p = subprocess.run([BYOC, "--json", "preflight"] + job(GOOD) + ["--max-runtime", runtime],
                           capture_output=True, text=True, env=e, timeout=300)
        try:
            return {c["name"]: c for c in json.loads(p.stdout)["checks"]}
        except (ValueError, KeyError):
            return {}
    try:
        expect("credentials expiring in 30 min, max runtime 2 h", run("7200"), "credentials", "warn")
        expect("credentials expiring in 30 min, max runtime 10 min", run("600"), "credentials", "pass")
    finally:
        os.remove(script)
        os.remove(config)
        os.rmdir(tmp)


def test_local_mode():
    """With --local only the image's contract, the code and the smoke run count; any local image name goes."""
    ref = "byoc-pf-local/%s:1" % RUN_ID
    docker("tag", GOOD, ref)
    LOCAL_TAGS.append(ref)
    rc, doc, checks, _ = preflight(*job(ref), "--local")
    C.equal(rc, 0, "local mode: exit 0")
    C.check("region" not in checks and "image.ecr" not in checks and "permissions.pull" not in checks,
            "local mode: no AWS checks", sorted(checks))
    expect("local mode", checks, "contract.program", "pass")
    expect("local mode", checks, "code.entry-point", "pass")


def test_smoke():
    rc, doc, checks, err = preflight(*job(GOOD), "--smoke")
    if "smoke" not in checks:
        print("stderr of the smoke run:\n" + err[-3000:])
    expect("smoke, sound image", checks, "smoke", "pass", rc, 0)
    msg = checks.get("smoke", {}).get("message", "")
    C.check("first output line" in msg and "launcher started" in msg, "smoke: reports the first output line", msg)
    rc, _, checks, _ = preflight(*job(uri(REPO, "noprogram")), "--smoke")
    expect("smoke, image without SAGEMAKER_PROGRAM", checks, "smoke", "fail", rc, 1)


def main():
    global GOOD, FRONT
    os.chdir(os.path.join(FIX, "image"))  # byoc's default --project is ".": a small known directory
    FRONT = EcrFront(env("AWS_ENDPOINT_URL"), simulate="evaluate").start()
    try:
        setup()
        GOOD = build_and_push(REPO, "good")
        for t in (test_sound_job, test_region_mismatch, test_device, test_instance_type, test_arm64,
                  test_attestation_index, test_manifest_list_without_amd64, test_images_show_index_platforms,
                  test_oci_manifest,
                  test_missing_image, test_no_program, test_contract_variants, test_byoc_entry_kinds, test_python_version, test_spec_and_credentials,
                  test_entry_point_does_not_import,
                  test_local_differs_from_pushed, test_role_cannot_pull, test_s3_bucket_rule, test_credentials_expiry, test_local_mode,
                  test_smoke):
            C.run(t)
    finally:
        cleanup()
        FRONT.stop()
    C.done()


if __name__ == "__main__":
    main()
