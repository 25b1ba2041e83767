#!/usr/bin/env python3
"""The journeys BYOC is for, from projects written the way users write them
(tests/fixtures/journeys: several files, the manifest at the top): a C++ CMake project with
src/*.cpp, a Rust Cargo project, a Python project that needs 3.13 (src/ layout), and Julia.
Each: decide --scan -> init with no flags -> lint -> run --dry-run with no flags (byoc.json's
job and the project's last pushed image are the defaults; a flag overrides; the plan says
where each value came from). The user's files are never changed; no sample is added.
Builds of C++/Rust need a toolchain base image and are not made here."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import BYOC_BIN as BYOC, Checks, client, env  # noqa: E402

C = Checks("test_init_journeys")
FIX = os.path.join(SOURCE, "tests", "fixtures", "journeys")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
REGION = env("AWS_DEFAULT_REGION")
WORK = tempfile.mkdtemp(prefix="byoc-journeys.")
ROLE = "arn:aws:iam::%s:role/amazon-braket-journeys" % ACCOUNT
PUSHED = "%s.dkr.ecr.%s.amazonaws.com/amazon-braket-journeys:v1" % (ACCOUNT, REGION)


def byoc(cwd, *args):
    e = dict(os.environ)
    e["BRAKET_JOBS_ROLE_ARN"] = ROLE
    r = subprocess.run([BYOC, "--json"] + list(args), cwd=cwd, env=e, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    try:
        doc = json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        doc = None
    return r.returncode, doc, r.stderr


def ensure_ecr_image(repo, tag):
    """An image in moto's ECR (a manifest is enough for run's check that the image exists)."""
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


def digests(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def journey(fixture, language, entry, module, dockerfile_has, python=None):
    name = fixture
    proj = os.path.join(WORK, name)
    shutil.copytree(os.path.join(FIX, fixture), proj)
    before = digests(proj)

    rc, doc, err = byoc(WORK, "decide", "--scan", proj)
    C.equal(rc, 0, "%s: decide exits 0" % name)
    init = (doc or {}).get("init", {})
    C.equal((doc or {}).get("recipe"), "custom-base", "%s: decide says custom-base" % name)
    C.equal(init.get("language"), language, "%s: decide's language" % name)
    C.equal(init.get("python"), python, "%s: decide's Python" % name)

    rc, doc, err = byoc(WORK, "init", proj)
    C.equal(rc, 0, "%s: init with no flags exits 0 (%s)" % (name, err.strip()[-300:]))
    doc = doc or {}
    C.check(doc.get("adopted"), "%s: init adopts the code" % name, doc)
    C.equal((doc.get("source_module"), doc.get("entry_point")), (module, entry), "%s: the job is the user's" % name)
    C.check(not any(f.startswith("algorithm") for f in doc.get("files", [])), "%s: no sample added" % name, doc)
    C.equal(doc.get("kept"), [], "%s: nothing was in the way" % name)
    after = digests(proj)
    C.equal({k: after.get(k) for k in before}, before, "%s: the user's files are unchanged" % name)
    with open(os.path.join(proj, "Dockerfile")) as f:
        dockerfile = f.read()
    for text in dockerfile_has:
        C.check(text in dockerfile, "%s: the Dockerfile has %r" % (name, text), dockerfile[:400])
    C.check("algorithm/" not in dockerfile, "%s: the Dockerfile names no sample file" % name)
    with open(os.path.join(proj, "byoc.json")) as f:
        pj = json.load(f)
    C.equal((pj["recipe"], pj["language"]), ("custom-base", language), "%s: byoc.json recipe and language" % name)

    rc, doc, err = byoc(WORK, "lint", proj)
    errors = [x for x in (doc or {}).get("findings", []) if x["severity"] == "error"]
    C.equal((rc, errors), (0, []), "%s: lint finds no error" % name)

    # the project's last push (as byoc push records it) is run's default image
    pj["pushed"] = {"image_uri": PUSHED, "digest": "sha256:" + "0" * 64}
    with open(os.path.join(proj, "byoc.json"), "w") as f:
        json.dump(pj, f, indent=2)
    rc, doc, err = byoc(proj, "run", "--dry-run")
    C.equal(rc, 0, "%s: run --dry-run with no flags exits 0 (%s)" % (name, err.strip()[-300:]))
    doc = doc or {}
    body = (doc.get("create_job") or {}).get("body") or {}
    spec = body.get("algorithmSpecification", {})
    C.equal(spec.get("scriptModeConfig", {}).get("entryPoint"), entry, "%s: the entry point from byoc.json" % name)
    C.equal(spec.get("containerImage", {}).get("uri"), PUSHED, "%s: the image of the last push" % name)
    origins = doc.get("origins", {})
    C.equal((origins.get("image_uri"), origins.get("source_module"), origins.get("entry_point")),
            ("last push", "byoc.json", "byoc.json"), "%s: the plan says where each value came from" % name)
    other = "%s:v2" % PUSHED.rsplit(":", 1)[0]
    rc, doc, err = byoc(proj, "run", "--dry-run", "--image-uri", other)
    body = ((doc or {}).get("create_job") or {}).get("body") or {}
    C.equal(body.get("algorithmSpecification", {}).get("containerImage", {}).get("uri"), other,
            "%s: a flag overrides" % name)
    C.equal((doc or {}).get("origins", {}).get("image_uri"), "flag", "%s: and is named as the flag" % name)


def main():
    for tag in ("v1", "v2"):
        ensure_ecr_image("amazon-braket-journeys", tag)
    C.run(lambda: journey("cpp-cmake", "cpp", "cpp-cmake/CMakeLists.txt", ".",
                          ["/opt/byoc/bin/install-packages build-tools g++ cmake"]))
    C.run(lambda: journey("rust-cargo", "rust", "rust-cargo/Cargo.toml", ".",
                          ["COPY Cargo.toml /opt/byoc/rust/Cargo.toml"]))
    C.run(lambda: journey("python-313", "python", "qwalk.main:main", "src/qwalk",
                          ["FROM --platform=linux/amd64 public.ecr.aws/docker/library/python:3.13-slim-bookworm",
                           "COPY requirements.txt /opt/byoc/requirements.txt"], python="3.13"))
    C.run(lambda: journey("julia", "julia", "julia/main.jl", ".", ["COPY Project.toml /opt/byoc/julia/Project.toml"]))
    shutil.rmtree(WORK, ignore_errors=True)
    C.done()


if __name__ == "__main__":
    main()
