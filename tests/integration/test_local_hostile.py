#!/usr/bin/env python3
"""byoc run --local against a hostile job container (tests/fixtures/local/images/hostile).

The job leaves in /opt/ml/model, beside safe results: links one and two levels out (up1 -> ../x,
sub/up2 -> ../../x), a FIFO, a device node and an 8 MiB sparse file; in the checkpoint directory a
link two levels out. Checked:
  - what is safe is copied, what is not is skipped and named (a warning each, "not_copied"), and no
    link in ./<job-name>/ resolves outside it;
  - --strict makes that exit 1, without it the job still exits 0 (COMPLETED);
  - the sparse file stays sparse on the host;
  - a 2 GiB sparse file past BYOC_RESULTS_MAX_BYTES (set small here) refuses the model's copy with a
    message naming the limit, before its data is written, and the text output says so.
"""

import json
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

from testkit import Checks, env  # noqa: E402

C = Checks("test_local_hostile")
from testkit import BYOC_BIN as BYOC  # noqa: E402
DOCKER = os.environ.get("BYOC_TEST_DOCKER_CLI") or "/usr/bin/docker"
FIX = os.path.join(SOURCE, "tests", "fixtures", "local")
ALGO = os.path.join(FIX, "algorithm")
BASE_BB = env("BYOC_TEST_BASE_BUSYBOX")
RUN_ID = "%x" % random.getrandbits(24)
IMG = "byoc-test/local-hostile:%s" % RUN_ID
LABEL = "byoc.local-job"
WORK = tempfile.mkdtemp(prefix="byoc-local-hostile.")
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def docker(*args, check=True):
    r = subprocess.run([DOCKER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("docker %s: %s" % (" ".join(args), r.stdout))
    return r.stdout


def run_local(name, *extra, json_out=True, extra_env=None):
    argv = [BYOC] + (["--json"] if json_out else []) + [
        "run", "--no-preflight", "--local", "--image-uri", IMG, "--source-module", ALGO, "--entry-point",
        "algorithm.dump:main", "--job-name", name] + list(extra)
    e = dict(os.environ)
    e["XDG_STATE_HOME"] = os.path.join(WORK, "state")
    e.update(extra_env or {})
    r = subprocess.run(argv, cwd=WORK, env=e, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=300)
    C.check(not any(m in r.stderr for m in SANITIZER_MARKS), name + ": no sanitizer report", r.stderr[-3000:])
    doc = None
    if json_out:
        try:
            doc = json.loads(r.stdout)
        except ValueError:
            pass
    return r.returncode, doc, r.stderr


def links_leading_out(top):
    """Symbolic links under top whose target, resolved, is not inside top."""
    real_top = os.path.realpath(top)
    bad = []
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            p = os.path.join(d, n)
            if os.path.islink(p):
                r = os.path.realpath(p)
                if r != real_top and not r.startswith(real_top + os.sep):
                    bad.append(os.path.relpath(p, top))
    return bad


def test_skip_and_name():
    name = "lh-bad-" + RUN_ID
    rc, doc, err = run_local(name, "--strict")
    out = os.path.join(WORK, name)
    C.equal(rc, 1, "--strict: exit 1 when something was not copied")
    if not C.check(doc is not None, "one JSON document", err[-2000:]):
        return
    C.equal(doc["status"], "COMPLETED", "the job itself completed")
    want = ["/opt/ml/model/up1", "/opt/ml/model/sub/up2", "/opt/ml/model/pipe", "/opt/ml/model/null",
            "/opt/jobs/checkpoints/out"]
    C.equal(sorted(doc.get("not_copied", [])), sorted(want), "not_copied names each unsafe entry")
    for w in want:
        C.check(any(w in x and "not copied" in x for x in doc["warnings"]), "a warning names " + w, doc["warnings"])
    for f in ("good.txt", "sub/deep.txt", "checkpoints/ck.txt", "log.txt"):
        C.check(os.path.isfile(os.path.join(out, f)), "copied: " + f)
    C.check(os.path.islink(os.path.join(out, "fine")), "a link that stays inside is copied")
    for f in ("up1", "sub/up2", "pipe", "null", "checkpoints/out"):
        C.check(not os.path.lexists(os.path.join(out, f)), "not copied: " + f)
    C.equal(links_leading_out(out), [], "no link in ./<job-name>/ leads outside it")
    st = os.stat(os.path.join(out, "sparse.bin"))
    C.equal(st.st_size, (8 << 20) + 4, "the sparse file has its size")
    C.check(st.st_blocks * 512 < (1 << 20), "and stays sparse on the host", st.st_blocks)
    C.check("--strict" in err, "the error names --strict", err[-500:])


def test_past_the_cap():
    name = "lh-huge-" + RUN_ID
    rc, _, err = run_local(name, json_out=False, extra_env={"BYOC_RESULTS_MAX_BYTES": "64M"})
    out = os.path.join(WORK, name)
    C.equal(rc, 0, "without --strict the job's exit stands (COMPLETED: 0)")
    C.check("/opt/ml/model was not copied" in err and "BYOC_RESULTS_MAX_BYTES" in err and "huge.bin" in err,
            "the refusal names the file and the limit", err[-1500:])
    C.check("were not copied" in err and "--strict" in err, "the summary says results are incomplete", err[-500:])
    C.check(not os.path.exists(os.path.join(out, "good.txt")), "the model's copy was refused whole")
    used = 0
    for d, _, files in os.walk(out):
        for f in files:
            used += os.lstat(os.path.join(d, f)).st_blocks * 512
    C.check(used < (16 << 20), "nothing big was written", used)
    C.check(not [n for n in os.listdir(out) if n.startswith(".byoc-copy")], "no temporary directory left")


def main():
    try:
        ctx = tempfile.mkdtemp(dir=WORK)
        for f in ("Dockerfile", "hostile.sh"):
            shutil.copy2(os.path.join(FIX, "images", "hostile", f), ctx)
        docker("build", "--network", "none", "--build-arg", "BASE=" + BASE_BB, "-t", IMG, ctx)
        for t in (test_skip_and_name, test_past_the_cap):
            C.run(t)
    finally:
        for c in docker("ps", "-a", "-q", "--filter", "label=" + LABEL, check=False).split():
            if RUN_ID in docker("inspect", "-f", "{{index .Config.Labels \"%s\"}}" % LABEL, c, check=False):
                docker("rm", "-f", c, check=False)
        docker("rmi", "-f", IMG, check=False)
        shutil.rmtree(WORK, ignore_errors=True)
    C.done()


if __name__ == "__main__":
    main()
