#!/usr/bin/env python3
"""byoc results against moto S3 and the Braket stand-in.

- A finished job's <s3Path>/output/model.tar.gz (made here with tarfile, uploaded with boto3)
  is unpacked into ./<job-name> (and into -o DIR); results.json's dataDictionary is read.
- Hostile tarballs (absolute path, "..", a symlink leading out then a file through it, a
  hard link leading out, a device node) are refused: exit 1, the entry named, nothing
  written, no destination left behind.
- Names holding escape sequences: unpacked under their real names, printed without them.
- A running job, a job without results and an occupied destination fail with clear words.
- Ctrl-C (SIGINT) or SIGTERM while the download hangs (faultproxy.py in front of S3 stalls the
  GET): byoc stops at once, exit 1, says it was cancelled, and leaves no temporary tarball, no
  partial directory and no destination behind.
- Bombs: 80 MiB of zeros in an 80 KB gzip is past the ratio (BYOC_RESULTS_MAX_RATIO lets it
  through, written sparse); a header declaring 1 PiB is past the free disk, and one past
  BYOC_RESULTS_MAX_BYTES names it; each refused before its data, nothing left behind.
Run: tests/topology/with-env.sh python3 tests/integration/test_monitor_results.py
"""

import gzip
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "topology"))
from testkit import Checks, client, control, env  # noqa: E402

T = Checks("test_monitor_results")
RUN = uuid.uuid4().hex[:6]
ACCOUNT = env("BYOC_TEST_ACCOUNT")
SOURCE = os.environ.get("BYOC_SOURCE_DIR", os.path.join(HERE, "..", ".."))
from testkit import BYOC_BIN as BYOC  # noqa: E402
SV1 = "arn:aws:braket:::device/quantum-simulator/amazon/sv1"
BUCKET = "amazon-braket-us-east-1-%s" % ACCOUNT
braket = client("braket")
s3 = client("s3")


def ensure_bucket():
    try:
        s3.create_bucket(Bucket=BUCKET)
    except (s3.exceptions.BucketAlreadyOwnedByYou, s3.exceptions.BucketAlreadyExists):
        pass


def create_job(name, status):
    s3_path = "s3://%s/jobs/%s/1700000000000/data" % (BUCKET, name)
    req = {
        "clientToken": str(uuid.uuid4()),
        "jobName": name,
        "roleArn": "arn:aws:iam::%s:role/AmazonBraketJobsExecutionRole" % ACCOUNT,
        "algorithmSpecification": {
            "scriptModeConfig": {"entryPoint": "algo.main", "s3Uri": "s3://%s/src/source.tar.gz" % BUCKET,
                                 "compressionType": "GZIP"},
            "containerImage": {"uri": "%s.dkr.ecr.us-east-1.amazonaws.com/amazon-braket-byoc:latest" % ACCOUNT},
        },
        "outputDataConfig": {"s3Path": s3_path},
        "instanceConfig": {"instanceType": "ml.m5.large", "volumeSizeInGb": 30, "instanceCount": 1},
        "deviceConfig": {"device": SV1},
    }
    arn = braket.create_job(**req)["jobArn"]
    code, out = control("POST", "/jobs/%s/set-status" % name, {"status": status})
    assert code == 200, (code, out)
    return arn, s3_path


def tarball(entries):
    """entries: (name, kind, data) with kind file|dir|symlink|hardlink|chardev."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, kind, data in entries:
            info = tarfile.TarInfo(name)
            info.mtime = 1700000000
            if kind == "file":
                payload = data.encode() if isinstance(data, str) else data
                info.size = len(payload)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(payload))
                continue
            if kind == "dir":
                info.type, info.mode = tarfile.DIRTYPE, 0o755
            elif kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, data
            elif kind == "hardlink":
                info.type, info.linkname = tarfile.LNKTYPE, data
            elif kind == "chardev":
                info.type, info.devmajor, info.devminor = tarfile.CHRTYPE, 1, 3
            tar.addfile(info)
    return buf.getvalue()


def upload(s3_path, body):
    key = s3_path.split("/", 3)[3] + "/output/model.tar.gz"
    s3.put_object(Bucket=BUCKET, Key=key, Body=body)


def byoc(cwd, *args):
    return subprocess.run([BYOC] + list(args), capture_output=True, text=True, timeout=300, cwd=cwd)


RESULTS = {"braketSchemaHeader": {"name": "braket.jobs_data.persisted_job_data", "version": "1"},
           "dataDictionary": {"energy": -0.2, "converged": True}, "dataFormat": "plaintext"}


def test_unpack():
    ensure_bucket()
    name = "mon%s-res" % RUN
    arn, s3_path = create_job(name, "COMPLETED")
    upload(s3_path, tarball([
        ("results.json", "file", json.dumps(RESULTS)),
        ("plots", "dir", None),
        ("plots/cost.csv", "file", "iteration,cost\n0,1.3\n1,0.85\n"),
        ("plots/latest.csv", "symlink", "cost.csv"),
        ("model.bin", "file", bytes(range(256)) * 64),
    ]))
    work = tempfile.mkdtemp(prefix="byoc-results-")
    try:
        r = byoc(work, "--json", "results", name)
        T.equal(r.returncode, 0, "results exits 0", )
        doc = json.loads(r.stdout) if r.returncode == 0 else {}
        T.equal(doc.get("dir"), "./" + name, "into ./<job-name>")
        T.equal(sorted(doc.get("files", [])), ["model.bin", "plots/cost.csv", "results.json"], "the files")
        T.equal(doc.get("results"), {"energy": -0.2, "converged": True}, "results.json's data")
        target = os.path.join(work, name)
        with open(os.path.join(target, "plots", "cost.csv")) as f:
            T.equal(f.read(), "iteration,cost\n0,1.3\n1,0.85\n", "file content")
        with open(os.path.join(target, "model.bin"), "rb") as f:
            T.equal(f.read(), bytes(range(256)) * 64, "binary content")
        T.equal(os.readlink(os.path.join(target, "plots", "latest.csv")), "cost.csv", "an inner symlink kept")
        T.equal(sorted(os.listdir(work)), [name], "no temporary files left beside it")

        again = byoc(work, "results", name)
        T.equal(again.returncode, 1, "a second download into the same place fails")
        T.check("already exists" in again.stderr, "and says why", again.stderr)

        out = os.path.join(work, "elsewhere")
        r = byoc(work, "--json", "results", arn, "-o", out)
        T.equal(r.returncode, 0, "-o DIR, JOB by ARN")
        T.equal(json.loads(r.stdout)["dir"], out, "-o is the destination")
        T.check(os.path.isfile(os.path.join(out, "results.json")), "results.json in DIR")
        r = byoc(work, "results", name, "-o", os.path.join(work, "text"))
        T.equal(r.returncode, 0, "text output exits 0")
        T.check("3 files in" in r.stdout and "energy" in r.stdout, "text output lists files and results", r.stdout)
        # The Monitor's d fetches into <project>/results/<job>: results/ need not exist yet.
        nested = os.path.join(work, "project", "results", name)
        r = byoc(work, "results", name, "-o", nested)
        T.check(r.returncode == 0, "a destination whose parent does not exist yet", r.stderr)
        T.check(os.path.isfile(os.path.join(nested, "results.json")), "unpacked there")
    finally:
        shutil.rmtree(work)


HOSTILE = {
    "absolute": [("ok.txt", "file", "fine"), ("/tmp/byoc-evil-%s" % RUN, "file", "evil")],
    "dotdot": [("../evil-%s" % RUN, "file", "evil")],
    "symlink-out": [("link", "symlink", "../.."), ("link/evil-%s" % RUN, "file", "evil")],
    "hardlink-out": [("h", "hardlink", "../../etc/passwd")],
    "device": [("null", "chardev", None)],
}
WHY = {"absolute": "absolute path", "dotdot": "'..'", "symlink-out": "symbolic link that leads outside",
       "hardlink-out": "hard link", "device": "device node"}


def test_hostile():
    ensure_bucket()
    for label, entries in HOSTILE.items():
        name = "mon%s-bad-%s" % (RUN, label)
        _, s3_path = create_job(name, "COMPLETED")
        upload(s3_path, tarball(entries))
        parent = tempfile.mkdtemp(prefix="byoc-hostile-")
        work = os.path.join(parent, "cwd")
        os.mkdir(work)
        try:
            r = byoc(work, "results", name)
            T.equal(r.returncode, 1, "%s: refused with exit 1" % label)
            T.check(WHY[label] in r.stderr and "refused" in r.stderr, "%s: the entry and the reason" % label,
                    r.stderr)
            T.equal(os.listdir(work), [], "%s: nothing left in the working directory" % label)
            T.equal(os.listdir(parent), ["cwd"], "%s: nothing written beside it" % label)
            T.check(not os.path.exists("/tmp/byoc-evil-%s" % RUN), "%s: nothing at the absolute path" % label)
        finally:
            shutil.rmtree(parent)


def declared_only(name, size):
    """A gzip'd tar whose one entry declares `size` bytes and carries none (a header is all it takes)."""
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = size, 1700000000, 0o644
    return gzip.compress(info.tobuf(tarfile.PAX_FORMAT) + bytes(1024))


def test_bombs():
    ensure_bucket()
    zeros = io.BytesIO()
    with tarfile.open(fileobj=zeros, mode="w:gz") as tar:
        info = tarfile.TarInfo("zeros.bin")
        info.size, info.mtime = 80 << 20, 1700000000
        tar.addfile(info, io.BytesIO(bytes(80 << 20)))
    cases = [
        ("ratio", zeros.getvalue(), {}, ["decompression bomb", "BYOC_RESULTS_MAX_RATIO"]),
        ("disk", declared_only("huge.bin", 1 << 50), {"BYOC_RESULTS_MAX_BYTES": "2000T"}, ["free space", "huge.bin"]),
        ("cap", declared_only("big.bin", 1 << 30), {"BYOC_RESULTS_MAX_BYTES": "1M"},
         ["BYOC_RESULTS_MAX_BYTES", "big.bin"]),
    ]
    for label, body, extra, words in cases:
        name = "mon%s-bomb-%s" % (RUN, label)
        _, s3_path = create_job(name, "COMPLETED")
        upload(s3_path, body)
        work = tempfile.mkdtemp(prefix="byoc-bomb-")
        try:
            e = dict(os.environ)
            e.update(extra)
            r = subprocess.run([BYOC, "results", name], capture_output=True, text=True, timeout=300, cwd=work, env=e)
            T.equal(r.returncode, 1, "%s: refused with exit 1" % label)
            T.check(all(w in r.stderr for w in words) and "refused" in r.stderr, "%s: says why" % label, r.stderr)
            T.equal(os.listdir(work), [], "%s: nothing left behind" % label)
            if label == "ratio":
                e["BYOC_RESULTS_MAX_RATIO"] = "100000"
                r = subprocess.run([BYOC, "results", name], capture_output=True, text=True, timeout=300, cwd=work,
                                   env=e)
                T.equal(r.returncode, 0, "ratio: a higher BYOC_RESULTS_MAX_RATIO lets it through")
                st = os.stat(os.path.join(work, name, "zeros.bin"))
                T.check(st.st_size == 80 << 20 and st.st_blocks * 512 < (8 << 20), "ratio: written sparse",
                        (st.st_size, st.st_blocks))
        finally:
            shutil.rmtree(work)


def test_not_ready_and_missing():
    ensure_bucket()
    work = tempfile.mkdtemp(prefix="byoc-results-")
    try:
        running = "mon%s-res-run" % RUN
        create_job(running, "RUNNING")
        r = byoc(work, "results", running)
        T.equal(r.returncode, 1, "a running job has no results yet")
        T.check("RUNNING" in r.stderr and "when it ends" in r.stderr, "and says so", r.stderr)

        empty = "mon%s-res-none" % RUN
        create_job(empty, "FAILED")
        r = byoc(work, "results", empty)
        T.equal(r.returncode, 1, "no model.tar.gz: exit 1")
        T.check("no results at" in r.stderr and "NoSuchKey" in r.stderr, "a clear message", r.stderr)
        T.equal(os.listdir(work), [], "nothing left behind")

        occupied = os.path.join(work, "full")
        os.mkdir(occupied)
        open(os.path.join(occupied, "x"), "w").close()
        r = byoc(work, "results", empty, "-o", occupied)
        T.equal(r.returncode, 1, "an occupied -o DIR fails before any download")
        T.check("already exists" in r.stderr, "and says why", r.stderr)
    finally:
        shutil.rmtree(work)


def start_faultproxy(work):
    port_file = os.path.join(work, "proxy.port")
    proxy = subprocess.Popen([sys.executable, os.path.join(SOURCE, "tests", "topology", "faultproxy.py"),
                              "--upstream", env("AWS_ENDPOINT_URL"), "--listen", "127.0.0.1:0",
                              "--port-file", port_file], stdout=subprocess.DEVNULL)
    for _ in range(200):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.05)
    return proxy, "http://127.0.0.1:%s" % open(port_file).read().strip()


def proxy_call(url, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url + "/_faultproxy" + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"{}")


def test_interrupted_download():
    ensure_bucket()
    name = "mon%s-res-intr" % RUN
    _, s3_path = create_job(name, "COMPLETED")
    upload(s3_path, tarball([("results.json", "file", json.dumps(RESULTS)), ("big.bin", "file", os.urandom(1 << 20))]))
    work = tempfile.mkdtemp(prefix="byoc-results-intr-")
    proxy, url = start_faultproxy(work)
    try:
        env_s3 = dict(os.environ, AWS_ENDPOINT_URL_S3=url)
        out = os.path.join(work, "out")
        os.mkdir(out)
        for sig in (signal.SIGINT, signal.SIGTERM):
            proxy_call(url, "DELETE", "/rules")
            proxy_call(url, "POST", "/rules", {"match": {"method": "GET", "path_has": "model.tar.gz"},
                                               "fault": "stall", "stall_seconds": 120})
            p = subprocess.Popen([BYOC, "results", name], cwd=out, env=env_s3, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            stalled = False
            for _ in range(400):
                if proxy_call(url, "GET", "/requests").get("inflight", 0) >= 1:
                    stalled = True
                    break
                time.sleep(0.05)
            T.check(stalled, "%s: the download is under way (stalled by the proxy)" % sig.name)
            T.check(any(f.startswith(".") and "model" in f for f in os.listdir(out)),
                    "%s: its temporary tarball exists meanwhile" % sig.name, os.listdir(out))
            p.send_signal(sig)
            try:
                stdout, stderr = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                stdout, stderr = p.communicate()
                T.check(False, "%s stops the download" % sig.name)
            T.equal(p.returncode, 1, "%s: exit 1" % sig.name)
            T.check("cancelled" in stderr, "%s: says it was cancelled" % sig.name, stderr[-300:])
            T.equal(stdout, "", "%s: no result printed" % sig.name)
            T.equal(os.listdir(out), [], "%s: nothing left behind (no tarball, no partial directory)" % sig.name)
        # and with the proxy out of the way, the same command gets the results
        proxy_call(url, "DELETE", "/rules")
        r = subprocess.run([BYOC, "results", name], cwd=out, env=env_s3, capture_output=True, text=True, timeout=120)
        T.check(r.returncode == 0, "then the download succeeds", r.stderr)
        T.equal(sorted(os.listdir(os.path.join(out, name))) if r.returncode == 0 else [], ["big.bin", "results.json"],
                "the results are all there")
    finally:
        proxy.terminate()
        proxy.wait()
        shutil.rmtree(work)


def no_control(text):
    return not any(ord(c) < 0x20 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in text)


def test_escape_sequences_in_names():
    """A name is the job's to choose, escape sequences included: the file is unpacked under
    its real name, and byoc prints it (and any refusal naming it) without them."""
    ensure_bucket()
    odd = "plots/\x1b]0;pwned\x07x\x1b[2J.csv"
    for label, entries, code in (("kept", [("results.json", "file", '{"dataDictionary": {}}'),
                                           (odd, "file", "1,2\n")], 0),
                                 ("refused", [("../\x1b]52;c;eA==\x07evil", "file", "x")], 1)):
        name = "mon%s-esc-%s" % (RUN, label)
        _, s3_path = create_job(name, "COMPLETED")
        upload(s3_path, tarball(entries))
        work = tempfile.mkdtemp(prefix="byoc-esc-")
        try:
            r = byoc(work, "results", name)
            T.equal(r.returncode, code, "%s: exit %d (%s)" % (label, code, r.stderr.strip()))
            T.check(no_control(r.stdout) and no_control(r.stderr), "%s: no control character printed" % label,
                    repr(r.stdout + r.stderr))
            if code == 0:
                T.check("  plots/x.csv\n" in r.stdout, "kept: the name, printable", repr(r.stdout))
                T.check(os.path.isfile(os.path.join(work, name, odd)), "kept: unpacked under its real name")
            else:
                T.check("'..' component" in r.stderr and "refused" in r.stderr, "refused: says why", repr(r.stderr))
        finally:
            shutil.rmtree(work)


for fn in (test_unpack, test_hostile, test_escape_sequences_in_names, test_bombs, test_not_ready_and_missing,
           test_interrupted_download):
    T.run(fn)
T.done()
