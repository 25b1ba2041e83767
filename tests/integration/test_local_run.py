#!/usr/bin/env python3
"""byoc run --local on the test engine (backend/byoc/localrun.h).

Images are built here from the local bases with Debian's docker CLI and --network none
(tests/fixtures/local/images): byoc's own entry point on byoc-test/python:3, the same as a named
non-root user, and a busybox image with its own ENTRYPOINT. The fixture algorithm
(tests/fixtures/local/algorithm) writes what it sees to its results directory, and the checks
compare that with the container contract (Amazon Braket Developer Guide, "Bring your own container"):
  - the AMZN_BRAKET_* environment, hyperparameters.json, the /opt/ml layout, input channels
    (local directory, local prefix, s3:// from moto), resourceconfig/inputdataconfig;
  - results in ./<job-name>/ (model, log.txt, checkpoints/), the JSON document, exit codes;
  - a failing algorithm: exit 1 and the failure file's text as the reason;
  - credentials only with --with-credentials; network none (only lo) unless --host-network;
  - Ctrl-C: CANCELLED, exit 1, no container left; max runtime: FAILED;
  - --upload: source.tar.gz in moto's S3 where the SDK puts it, and the S3 variables;
  - the record in $XDG_STATE_HOME/byoc/local-jobs.json (0600 in a 0700 directory);
  - refusals (exit 2) that create nothing.
"""

import io
import json
import os
import pty
import random
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "tests", "topology"))

from testkit import Checks, client, env  # noqa: E402

C = Checks("test_local_run")
from testkit import BYOC_BIN as BYOC  # noqa: E402
DOCKER = os.environ.get("BYOC_TEST_DOCKER_CLI") or "/usr/bin/docker"
FIX = os.path.join(SOURCE, "tests", "fixtures", "local")
ALGO = os.path.join(FIX, "algorithm")
DATA = os.path.join(FIX, "data")
ACCOUNT = env("BYOC_TEST_ACCOUNT")
REGION = env("AWS_DEFAULT_REGION")
BASE_PY = env("BYOC_TEST_BASE_PYTHON")
BASE_BB = env("BYOC_TEST_BASE_BUSYBOX")
RUN_ID = "%x" % random.getrandbits(24)
IMG = "byoc-test/local-run:%s" % RUN_ID
IMG_USER = "byoc-test/local-run-user:%s" % RUN_ID
IMG_ENTRY = "byoc-test/local-run-entry:%s" % RUN_ID
LABEL = "byoc.local-job"

WORK = tempfile.mkdtemp(prefix="byoc-local-run.")
STATE = os.path.join(WORK, "state")
RECORD = os.path.join(STATE, "byoc", "local-jobs.json")


def docker(*args, check=True):
    r = subprocess.run([DOCKER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if check and r.returncode != 0:
        raise RuntimeError("docker %s: %s" % (" ".join(args), r.stdout))
    return r.stdout


def build(tag, context_files, dockerfile_dir, base):
    ctx = tempfile.mkdtemp(dir=WORK)
    for src in context_files:
        shutil.copy2(src, ctx)
    shutil.copy2(os.path.join(dockerfile_dir, "Dockerfile"), ctx)
    docker("build", "--network", "none", "--build-arg", "BASE=" + base, "-t", tag, ctx)


def byoc_env(**extra):
    e = dict(os.environ)
    e["XDG_STATE_HOME"] = STATE
    e.update(extra)
    return e


SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def sanitizer_clean(stderr, what):
    """Under BYOC_SANITIZE builds: no ASan/LSan/UBSan report in byoc's stderr."""
    C.check(not any(m in stderr for m in SANITIZER_MARKS), what + ": no sanitizer report", stderr[-3000:])


def run_local(name, *args, image=IMG, cwd=WORK, extra_env=None):
    """byoc --json run --local ...; returns (rc, doc or None, stderr)."""
    argv = [BYOC, "--json", "run", "--no-preflight", "--local", "--image-uri", image, "--source-module", ALGO,
            "--entry-point", "algorithm.dump:main", "--job-name", name] + list(args)
    r = subprocess.run(argv, cwd=cwd, env=byoc_env(**(extra_env or {})), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    try:
        doc = json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        doc = None
    sanitizer_clean(r.stderr, name)
    return r.returncode, doc, r.stderr


def seen(name, cwd=WORK):
    with open(os.path.join(cwd, name, "seen.json")) as f:
        return json.load(f)


def record_of(name):
    with open(RECORD) as f:
        return next((j for j in json.load(f)["jobs"] if j["job_name"] == name), None)


def containers_of(name):
    return docker("ps", "-a", "-q", "--filter", "label=%s=%s" % (LABEL, name)).split()


def job(tag):
    return "lr-%s-%s" % (tag, RUN_ID)


# ---- cases ---------------------------------------------------------------------------------------

def test_contract():
    name = job("ok")
    rc, doc, err = run_local(name, "--device", "local:braket/braket.local.qubit", "--hyperparameter", "lr=0.1",
                             "--hyperparameter", "iterations=3", "--input-data", "train=" + os.path.join(DATA, "train"),
                             "--input-data", "trial=" + os.path.join(DATA, "trial"))
    C.equal(rc, 0, "a good job exits 0")
    if not C.check(doc is not None, "one JSON document on stdout", err[-2000:]):
        return
    out = os.path.join(WORK, name)
    C.equal(doc["job_arn"], "local:job/" + name, "job_arn")
    C.equal(doc["job_name"], name, "job_name")
    C.equal(doc["status"], "COMPLETED", "status")
    C.equal(doc["exit_code"], 0, "exit_code")
    C.equal(doc["output_dir"], out, "output_dir is ./<job-name>")
    C.check("failure_reason" not in doc, "no failure_reason on success", doc)
    s = seen(name)
    e = s["environ"]
    want = {
        "AMZN_BRAKET_SCRIPT_S3_URI": "file:///opt/ml/input/source/source.tar.gz",
        "AMZN_BRAKET_SCRIPT_ENTRY_POINT": "algorithm.dump:main",
        "AMZN_BRAKET_SCRIPT_COMPRESSION_TYPE": "GZIP",
        "AMZN_BRAKET_JOB_NAME": name,
        "AMZN_BRAKET_DEVICE_ARN": "local:braket/braket.local.qubit",
        "AMZN_BRAKET_JOB_RESULTS_DIR": "/opt/braket/model",
        "AMZN_BRAKET_CHECKPOINT_DIR": "/opt/jobs/checkpoints",
        "AMZN_BRAKET_HP_FILE": "/opt/braket/input/config/hyperparameters.json",
        "AMZN_BRAKET_INPUT_DIR": "/opt/braket/input/data",
        "AWS_DEFAULT_REGION": REGION,
        "SAGEMAKER_PROGRAM": "byoc_container.py",
    }
    for k, v in want.items():
        C.equal(e.get(k), v, "env " + k)
    for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AMZN_BRAKET_JOB_TOKEN",
              "AMZN_BRAKET_OUT_S3_BUCKET", "AMZN_BRAKET_TASK_RESULTS_S3_URI", "AMZN_BRAKET_JOB_RESULTS_S3_PATH"):
        C.check(k not in e, "env has no %s without --with-credentials/--upload" % k)
    C.equal(s["hyperparameters"], {"lr": "0.1", "iterations": "3"}, "hyperparameters.json: strings, as given")
    C.equal(list(s["config"]["hyperparameters.json"]), ["lr", "iterations"], "hyperparameters keep their order")
    C.equal(sorted(s["config"]["inputdataconfig.json"]), ["train", "trial"], "inputdataconfig.json names the channels")
    C.equal(s["config"]["resourceconfig.json"]["current_host"], "algo-1", "resourceconfig.json for `train`")
    C.equal(s["inputs"], {"train/x.csv": "a,b\n1,2\n", "train/sub/y.txt": "deep\n", "trial/trial.csv": "trial\n"},
            "input channels: a directory gives its contents, a prefix its matches (SDK layout)")
    C.equal(s["braket_link"], "/opt/ml", "/opt/braket -> /opt/ml")
    C.equal(s["extracted"], ["algorithm"], "the source archive holds the module under its own name")
    paths = {x["path"] for x in s["opt_ml"]}
    for p in ("/opt/ml/model", "/opt/ml/output", "/opt/ml/input/config/hyperparameters.json",
              "/opt/ml/input/data/train/x.csv", "/opt/ml/input/source/source.tar.gz", "/opt/ml/code/byoc_container.py"):
        C.check(p in paths, "/opt/ml has " + p)
    C.equal(s["interfaces"], ["lo"], "network none: only lo inside")
    C.check(not os.path.exists(os.path.join(DATA, "train", "from-job.txt")), "the job cannot write into the user's tree",
            s.get("wrote_input"))
    C.check(os.path.isfile(os.path.join(out, "sub", "note.txt")), "nested results copied")
    C.check(os.path.isfile(os.path.join(out, "checkpoints", name + ".json")), "checkpoints copied to checkpoints/")
    with open(os.path.join(out, "log.txt")) as f:
        log = f.read()
    C.check("Metrics - timestamp=1700000000.0; loss=0.25; iteration_number=1;\n" in log, "log.txt has the metric line")
    C.check("to stderr\n" in log and "done\n" in log, "log.txt has stdout and stderr")
    C.check("Process exited" not in log, "a job that ends well has no exit-code line")
    C.equal(s["cwd"], "/opt/ml/code", "a Python module runs in /opt/ml/code, as in LocalQuantumJob")
    C.check("Metrics - timestamp=1700000000.0" in err, "the job's output streams to stderr")
    C.equal(containers_of(name), [], "the container is removed")
    st = os.stat(RECORD)
    C.equal(oct(st.st_mode & 0o777), "0o600", "local-jobs.json is 0600")
    C.equal(oct(os.stat(os.path.dirname(RECORD)).st_mode & 0o777), "0o700", "its directory is 0700")
    rec = record_of(name)
    if C.check(rec is not None, "the job is recorded"):
        C.equal(rec["status"], "COMPLETED", "record: status")
        C.equal(rec["exit_code"], 0, "record: exit code")
        C.equal(rec["output_dir"], out, "record: output dir")
        C.equal(rec["image"], IMG, "record: image")
        C.equal(rec["job_arn"], "local:job/" + name, "record: arn")
        C.check(rec["created"] and rec["started"] and rec["ended"], "record: times", rec)
        C.check(len(rec["container_id"] or "") == 64, "record: container id", rec)
        C.check(rec["pid"] is None, "record: no pid once ended")


def test_text_output():
    name = job("text")
    r = subprocess.run([BYOC, "run", "--no-preflight", "--local", "--image-uri", IMG, "--source-module", ALGO, "--entry-point",
                        "algorithm.dump:main", "--job-name", name], cwd=WORK, env=byoc_env(),
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    sanitizer_clean(r.stderr, name)
    C.equal(r.returncode, 0, "text mode exits 0")
    C.equal(r.stdout, "local:job/%s\n" % name, "text mode prints the ARN")
    C.check("job %s: COMPLETED; results in %s" % (name, os.path.join(WORK, name)) in r.stderr, "and the end on stderr",
            r.stderr[-500:])
    s = seen(name)
    C.check("AMZN_BRAKET_INPUT_DIR" not in s["environ"], "no INPUT_DIR without channels")
    C.equal(s["hyperparameters"], {}, "hyperparameters.json is {} when there are none")
    C.equal(s["environ"]["AMZN_BRAKET_DEVICE_ARN"], "local:none/none", "the SDK's default device")


def test_failure():
    name = job("fail")
    rc, doc, err = run_local(name, "--hyperparameter", "fail=boom")
    C.equal(rc, 1, "a failing algorithm exits 1")
    if not C.check(doc is not None, "a failed job still prints its document", err[-1000:]):
        return
    C.equal(doc["status"], "FAILED", "status FAILED")
    C.equal(doc.get("failure_reason"), "RuntimeError: failing on purpose: boom", "the failure file is the reason")
    C.equal(doc["exit_code"], 1, "the container's exit code")
    C.check("byoc: job: %s ended FAILED: RuntimeError: failing on purpose: boom" % name in err, "one error line", err[-500:])
    C.check(os.path.isfile(os.path.join(WORK, name, "seen.json")), "what the job wrote before failing is kept")
    log = open(os.path.join(WORK, name, "log.txt")).read()
    C.check("Traceback" in log, "log.txt has the traceback")
    C.check(log.endswith("\nProcess exited with code: 1\n"), "log.txt ends as the SDK's run_log", log[-300:])
    rec = record_of(name)
    C.check(rec and rec["status"] == "FAILED" and rec["failure_reason"] == doc.get("failure_reason")
            and rec["exit_code"] == 1, "recorded FAILED with its reason", rec)
    C.equal(containers_of(name), [], "the container is removed")


def byoc_cli(*args, cwd=WORK, extra_env=None):
    r = subprocess.run([BYOC] + list(args), cwd=cwd, env=byoc_env(**(extra_env or {})), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sanitizer_clean(r.stderr, " ".join(args))
    return r


def test_monitor_verbs():
    """The Monitor step's verbs answer for local jobs as the Monitor shows them (issue 18): jobs, status,
    logs (and --follow until the end), results; the record is the model both read."""
    ok, fail = job("ok"), job("fail")
    # jobs --local: nothing sent to AWS (no credentials at all), the record's jobs with their shown status
    r = byoc_cli("--json", "jobs", "--local", extra_env={"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "",
                                                         "AWS_PROFILE": "nobody", "AWS_CONFIG_FILE": "/dev/null",
                                                         "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"})
    C.equal(r.returncode, 0, "jobs --local: exit 0 without AWS credentials")
    listed = {j["job_name"]: j for j in json.loads(r.stdout or "{}").get("jobs", [])}
    for name in (ok, fail):
        rec = record_of(name)
        got = listed.get(name, {})
        C.check(got.get("job_arn") == "local:job/" + name and got.get("status") == rec["status"]
                and got.get("created") == rec["created"] and got.get("local") is True,
                "jobs --local: %s as the record has it" % name, (got, rec))
    r = byoc_cli("jobs", "--local", "--status", "failed")
    C.check(r.returncode == 0 and ("local:job/" + fail) in r.stdout and ("local:job/" + ok) not in r.stdout,
            "jobs --local --status FAILED: the table names local:job/<name>, filtered", r.stdout[-500:])
    # default jobs: local ones first, then the account's (moto/stand-in here), one document
    r = byoc_cli("--json", "jobs")
    doc = json.loads(r.stdout or "{}")
    C.check(r.returncode == 0 and doc.get("jobs") and doc["jobs"][0].get("local") is True,
            "jobs: the local jobs lead the list", (r.returncode, r.stdout[:300], r.stderr[-300:]))

    # status: the record plus the metrics of log.txt
    r = byoc_cli("--json", "status", "local:job/" + ok)
    st = json.loads(r.stdout or "{}")
    C.check(r.returncode == 0 and st.get("status") == "COMPLETED" and st.get("exit_code") == 0
            and st.get("output_dir") == os.path.join(WORK, ok) and st.get("events") == [],
            "status local:job: the record's entry", st)
    C.equal((st.get("metrics") or {}).get("loss", {}).get("last"), 0.25, "status local:job: metrics from log.txt")
    C.check(isinstance(st.get("first_output_seconds"), float) and 0 <= st["first_output_seconds"] < 300,
            "status local:job: seconds from the container's start to its first line", st.get("first_output_seconds"))
    r = byoc_cli("status", "local:job/" + fail)
    C.check(r.returncode == 0 and "FAILED" in r.stdout and "failing on purpose" in r.stdout
            and "exit code 1" in r.stdout, "status local:job (text): status, reason, exit code", r.stdout)
    r = byoc_cli("status", "local:job/never-ran")
    C.check(r.returncode == 1 and "no local job never-ran" in r.stderr, "status of an unknown local job: exit 1",
            (r.returncode, r.stderr))

    # logs: log.txt exactly (a pipe)
    r = byoc_cli("logs", "local:job/" + fail)
    C.equal(r.stdout, open(os.path.join(WORK, fail, "log.txt")).read(), "logs local:job: log.txt as it is")
    r = byoc_cli("logs", "--follow", "local:job/" + fail)
    C.check(r.returncode == 1 and "ended FAILED: RuntimeError: failing on purpose" in r.stderr,
            "logs --follow of a failed local job: exit 1 naming the reason", (r.returncode, r.stderr[-300:]))

    # results: listed in place, without log.txt and checkpoints/; -o refused for a local job
    r = byoc_cli("--json", "results", "local:job/" + ok)
    res = json.loads(r.stdout or "{}")
    C.check(r.returncode == 0 and res.get("dir") == os.path.join(WORK, ok)
            and res.get("files") == ["seen.json", "sub/note.txt"],
            "results local:job: the model files in the output directory", (res, r.stderr[-300:]))
    r = byoc_cli("results", "local:job/" + ok, "-o", os.path.join(WORK, "elsewhere"))
    C.check(r.returncode == 2 and not os.path.exists(os.path.join(WORK, "elsewhere")),
            "results -o for a local job: exit 2, nothing written", (r.returncode, r.stderr))

    # a job that runs: logs --follow prints as it goes and ends when the job does
    name = job("follow")
    argv = [BYOC, "--json", "run", "--no-preflight", "--local", "--image-uri", IMG, "--source-module", ALGO,
            "--entry-point", "algorithm.dump:main", "--job-name", name, "--hyperparameter", "sleep=3"]
    p = subprocess.Popen(argv, cwd=WORK, env=byoc_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    for line in p.stderr:
        if line.strip() == "READY":
            break
    r = byoc_cli("results", "local:job/" + name)
    C.check(r.returncode == 1 and "RUNNING" in r.stderr, "results of a running local job: exit 1, says RUNNING",
            (r.returncode, r.stderr))
    r = byoc_cli("logs", "--follow", "local:job/" + name)
    p.communicate(timeout=120)
    C.check(r.returncode == 0 and "READY\n" in r.stdout and "\ndone\n" in r.stdout
            and r.stdout == open(os.path.join(WORK, name, "log.txt")).read(),
            "logs --follow of a running local job: the whole log, to its end", (r.returncode, r.stdout[-300:]))

    # a RUNNING record whose byoc is gone shows FAILED (interrupted), as in the Monitor
    with open(RECORD) as f:
        rec = json.load(f)
    stale = dict(record_of(ok), job_name=job("stale"), status="RUNNING", pid=None, ended=None)
    stale["job_arn"] = "local:job/" + stale["job_name"]
    rec["jobs"].insert(0, stale)
    with open(RECORD, "w") as f:
        json.dump(rec, f)
    r = byoc_cli("--json", "status", stale["job_arn"])
    st = json.loads(r.stdout or "{}")
    C.check(st.get("status") == "FAILED" and "interrupted" in (st.get("failure_reason") or ""),
            "a stale RUNNING local job: FAILED, interrupted", st)

    # a job's log with escape sequences: exact into a pipe, through the printable pass on a terminal
    evil_dir = os.path.join(WORK, job("evil"))
    os.mkdir(evil_dir)
    evil_log = "start\n\x1b]0;PWNED\x07\x1b[2Jhello\x1b]52;c;Zm9v\x07\n"
    with open(os.path.join(evil_dir, "log.txt"), "w") as f:
        f.write(evil_log)
    evil = dict(record_of(ok), job_name=job("evil"), output_dir=evil_dir)
    evil["job_arn"] = "local:job/" + evil["job_name"]
    rec["jobs"].insert(0, evil)
    with open(RECORD, "w") as f:
        json.dump(rec, f)
    r = byoc_cli("logs", evil["job_arn"])
    C.equal(r.stdout, evil_log, "logs into a pipe: the log exactly")
    master, slave = pty.openpty()
    p = subprocess.Popen([BYOC, "logs", evil["job_arn"]], cwd=WORK, env=byoc_env(), stdin=subprocess.DEVNULL,
                         stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    p.wait(timeout=60)
    os.close(master)
    C.check(b"\x1b" not in shown and b"\x07" not in shown and b"hello" in shown and b"start" in shown,
            "logs on a terminal: no escape sequence reaches it", shown)


def test_credentials_and_network():
    name = job("creds")
    secret = os.environ["AWS_SECRET_ACCESS_KEY"]
    rc, doc, err = run_local(name, "--with-credentials", "--host-network")
    C.equal(rc, 0, "--with-credentials --host-network exits 0")
    s = seen(name)
    C.equal(s["environ"].get("AWS_ACCESS_KEY_ID"), os.environ["AWS_ACCESS_KEY_ID"], "the access key is passed")
    C.equal(s["environ"].get("AWS_SECRET_ACCESS_KEY"), secret, "the secret key is passed")
    C.check(secret not in err and secret not in json.dumps(doc), "the secret never reaches stdout or stderr")
    C.check(secret not in open(RECORD).read(), "nor the record")
    host = sorted(os.listdir("/sys/class/net"))
    C.equal(s["interfaces"], host, "--host-network: the host's interfaces")


def test_cancel():
    name = job("cancel")
    argv = [BYOC, "--json", "run", "--no-preflight", "--local", "--image-uri", IMG, "--source-module", ALGO, "--entry-point",
            "algorithm.dump:main", "--job-name", name, "--hyperparameter", "sleep=600"]
    p = subprocess.Popen(argv, cwd=WORK, env=byoc_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lines = []
    for line in p.stderr:
        lines.append(line)
        if line.strip() == "READY":
            break
    running = containers_of(name)
    C.equal(len(running), 1, "one labelled container while it runs")
    rec = record_of(name)
    C.check(rec and rec["status"] == "RUNNING" and rec["pid"] == p.pid and rec["container_id"], "recorded RUNNING", rec)
    p.send_signal(signal.SIGINT)
    out, rest = p.communicate(timeout=120)
    err = "".join(lines) + rest
    sanitizer_clean(err, name)
    C.equal(p.returncode, 1, "Ctrl-C exits 1")
    doc = json.loads(out) if out.strip() else {}
    C.equal(doc.get("status"), "CANCELLED", "status CANCELLED")
    C.check("failure_reason" not in doc, "no failure reason for a cancelled job", doc)
    C.check("was cancelled" in err, "says it was cancelled", err[-500:])
    C.equal(containers_of(name), [], "no container left behind")
    C.check(os.path.isfile(os.path.join(WORK, name, "seen.json")), "what the job wrote is copied out")
    C.check("READY" in open(os.path.join(WORK, name, "log.txt")).read(), "log.txt up to the cancel")
    rec = record_of(name)
    C.check(rec and rec["status"] == "CANCELLED" and rec["ended"], "recorded CANCELLED", rec)


def test_max_runtime():
    name = job("slow")
    rc, doc, err = run_local(name, "--hyperparameter", "sleep=600", "--max-runtime", "3")
    C.equal(rc, 1, "a job past its max runtime exits 1")
    C.equal((doc or {}).get("status"), "FAILED", "FAILED")
    C.check((doc or {}).get("failure_reason", "").startswith("MaxRuntimeExceeded:"), "MaxRuntimeExceeded", doc)
    C.equal(containers_of(name), [], "the container is removed")


def test_user_image():
    name = job("user")
    rc, doc, err = run_local(name, image=IMG_USER)
    C.equal(rc, 0, "a named non-root user's job exits 0")
    if rc != 0:
        print(err[-2000:])
        return
    s = seen(name)
    C.equal(s["uid"], 1234, "it runs as the image's user")
    by_path = {x["path"]: x for x in s["opt_ml"]}
    for p in ("/opt/ml/model", "/opt/ml/output", "/opt/ml/input/config/hyperparameters.json"):
        C.equal(by_path.get(p, {}).get("uid"), 1234, p + " belongs to the job's user")
    C.check(os.path.isfile(os.path.join(WORK, name, "checkpoints", name + ".json")), "it could write its checkpoint")


def test_own_entrypoint():
    name = job("entry")
    rc, doc, err = run_local(name, image=IMG_ENTRY)
    C.equal(rc, 0, "an image with its own ENTRYPOINT exits 0")
    out = os.path.join(WORK, name)
    C.equal(open(os.path.join(out, "args.txt")).read(), "args: train\n", "started as `<entrypoint> train`")
    C.equal(open(os.path.join(out, "cwd.txt")).read(), "/opt/ml/code\n", "in /opt/ml/code, as LocalQuantumJob")
    envs = dict(l.split("=", 1) for l in open(os.path.join(out, "env.txt")).read().splitlines() if "=" in l)
    C.equal(envs.get("AMZN_BRAKET_JOB_NAME"), name, "with the job's environment")
    name = job("entryfail")
    rc, doc, err = run_local(name, "--hyperparameter", "fail=yes", image=IMG_ENTRY)
    C.equal(rc, 1, "its failure exits 1")
    C.equal((doc or {}).get("failure_reason"), "CustomError: the entry point was told to fail", "its failure file")
    C.equal((doc or {}).get("exit_code"), 3, "its exit code")
    log = open(os.path.join(WORK, name, "log.txt")).read()
    C.check(log.endswith("own entry point ran with: train\nProcess exited with code: 3\n"),
            "log.txt ends with the SDK's exit-code line", log[-300:])


def test_upload_and_s3_inputs():
    # moto's SigV4 check refuses a ListObjectsV2 prefix holding '/', so the prefixes here have none
    # (real S3 takes them; test_run.py notes the same).
    s3 = client("s3")
    only = "byoc-local-dir-%s" % RUN_ID     # every key under ds/: a "directory" prefix
    mixed = "byoc-local-mixed-%s" % RUN_ID  # ds also matches dsx/...: a plain prefix
    for bucket in (only, mixed):
        s3.create_bucket(Bucket=bucket)
        s3.put_object(Bucket=bucket, Key="ds/a.txt", Body=b"alpha\n")
        s3.put_object(Bucket=bucket, Key="ds/sub/b.txt", Body=b"beta\n")
    s3.put_object(Bucket=mixed, Key="dsx/other.txt", Body=b"other\n")
    name = job("s3in")
    rc, doc, err = run_local(name, "--input-data", "s3dir=s3://%s/ds" % only, "--input-data", "s3pre=s3://%s/ds" % mixed)
    C.equal(rc, 0, "s3:// channels (downloaded with byoc's credentials) exit 0")
    if rc == 0:
        # LocalQuantumJob: a "directory" prefix gives its contents; a prefix that also matches
        # other keys gives every match relative to the prefix's parent.
        C.equal(seen(name)["inputs"], {"s3dir/a.txt": "alpha\n", "s3dir/sub/b.txt": "beta\n",
                                       "s3pre/ds/a.txt": "alpha\n", "s3pre/ds/sub/b.txt": "beta\n",
                                       "s3pre/dsx/other.txt": "other\n"},
                "S3 channels laid out as LocalQuantumJob lays them out")
    else:
        print(err[-1000:])

    # --upload: the stock launcher's way; the entry-point image shows the environment it got.
    name = job("upload")
    rc, doc, err = run_local(name, "--upload", image=IMG_ENTRY)
    C.equal(rc, 0, "--upload exits 0")
    default_bucket = "amazon-braket-%s-%s" % (REGION, ACCOUNT)
    uri = (doc or {}).get("source_uri") or ""
    prefix = "s3://%s/jobs/%s/" % (default_bucket, name)
    C.check(uri.startswith(prefix) and uri.endswith("/script/source.tar.gz"), "source_uri where the SDK puts it", uri)
    key = uri[len("s3://%s/" % default_bucket):]
    ts = key.split("/")[2] if key.count("/") >= 3 else ""
    C.check(len(ts) == 13 and ts.isdigit(), "with the epoch-ms timestamp level", key)
    body = s3.get_object(Bucket=default_bucket, Key=key)["Body"].read()
    names = sorted(tarfile.open(fileobj=io.BytesIO(body), mode="r:gz").getnames())
    C.equal(names, ["algorithm", "algorithm/__init__.py", "algorithm/dump.py"], "source.tar.gz members")
    envs = dict(l.split("=", 1) for l in open(os.path.join(WORK, name, "env.txt")).read().splitlines() if "=" in l)
    C.equal(envs.get("AMZN_BRAKET_SCRIPT_S3_URI"), uri, "AMZN_BRAKET_SCRIPT_S3_URI is the S3 URI")
    C.equal(envs.get("AMZN_BRAKET_OUT_S3_BUCKET"), default_bucket, "AMZN_BRAKET_OUT_S3_BUCKET")
    C.equal(envs.get("AMZN_BRAKET_TASK_RESULTS_S3_URI"), "s3://%s/jobs/%s/tasks" % (default_bucket, name),
            "AMZN_BRAKET_TASK_RESULTS_S3_URI")
    C.equal(envs.get("AMZN_BRAKET_JOB_RESULTS_S3_PATH"), "jobs/%s/%s/data/%s/output" % (name, ts, name),
            "AMZN_BRAKET_JOB_RESULTS_S3_PATH")
    C.check("AWS_SECRET_ACCESS_KEY" not in envs, "still no credentials without --with-credentials")
    C.check("--with-credentials" in err, "warns that the container needs credentials to fetch it", err[-800:])


def test_refusals():
    before = set(os.listdir(WORK))
    cases = [
        ("a missing image", ["--image-uri", "byoc-test/no-such-image:1"], "--image-uri"),
        ("a bad local device", ["--device", "local:no-simulator"], "--device"),
        ("an S3 source without --upload", ["--source-module", "s3://b/k/source.tar.gz"], "--source-module"),
        ("a relative checkpoint path", ["--checkpoint-local-path", "ckpt"], "--checkpoint-local-path"),
        ("--upload without --local", None, "--upload"),
        ("--dry-run with --local", ["--dry-run"], "--dry-run"),
    ]
    for what, args, flag in cases:
        name = job("refused")
        if args is None:
            argv = [BYOC, "run", "--no-preflight", "--image-uri", IMG, "--source-module", ALGO, "--upload"]
        else:
            argv = [BYOC, "run", "--no-preflight", "--local", "--image-uri", IMG, "--source-module", ALGO, "--entry-point",
                    "algorithm.dump:main", "--job-name", name]
            for i in range(0, len(args), 2):  # later flags replace earlier ones of the same name
                if args[i] in argv and args[i] != "--dry-run":
                    j = argv.index(args[i])
                    del argv[j:j + 2]
            argv += args
        r = subprocess.run(argv, cwd=WORK, env=byoc_env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=120)
        sanitizer_clean(r.stderr, what)
        C.equal(r.returncode, 2, what + ": exit 2")
        C.check(("byoc: " + flag) in r.stderr, what + ": names " + flag, r.stderr[-300:])
    C.equal(set(os.listdir(WORK)), before, "refusals leave no directory behind")
    C.equal(containers_of(job("refused")), [], "and create no container")
    C.check(record_of(job("refused")) is None, "and record nothing")
    name = job("noengine")
    rc, doc, err = run_local(name, extra_env={"DOCKER_HOST": "unix://%s/no.sock" % WORK})
    C.equal(rc, 3, "no engine: exit 3")
    C.check(not os.path.exists(os.path.join(WORK, name)), "no engine: no ./<job-name>/ left")
    os.makedirs(os.path.join(WORK, job("taken"), "x"))
    rc, doc, err = run_local(job("taken"))
    C.equal(rc, 2, "an existing ./<job-name>/ with content: exit 2")
    C.check("already exists" in err, "says so", err[-300:])


def cleanup_s3():
    """Drop this run's buckets and uploads (listed whole: moto trips on '/' in a prefix)."""
    s3 = client("s3")
    for b in [x["Name"] for x in s3.list_buckets()["Buckets"]]:
        mine = b.endswith("-" + RUN_ID) and b.startswith("byoc-local-")
        if not mine and b != "amazon-braket-%s-%s" % (REGION, ACCOUNT):
            continue
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=b):
            for o in page.get("Contents", []):
                if mine or o["Key"].startswith("jobs/%s/" % job("upload")):
                    s3.delete_object(Bucket=b, Key=o["Key"])
        if mine:
            s3.delete_bucket(Bucket=b)


def main():
    try:
        build(IMG, [os.path.join(SOURCE, "assets", "entrypoint", f) for f in ("train", "byoc_container.py")],
              os.path.join(FIX, "images", "byoc"), BASE_PY)
        build(IMG_USER, [], os.path.join(FIX, "images", "user"), IMG)
        build(IMG_ENTRY, [os.path.join(FIX, "images", "entrypoint", "entry.sh")], os.path.join(FIX, "images", "entrypoint"),
              BASE_BB)
        for t in (test_contract, test_text_output, test_failure, test_monitor_verbs, test_credentials_and_network,
                  test_cancel,
                  test_max_runtime, test_user_image, test_own_entrypoint, test_upload_and_s3_inputs, test_refusals):
            C.run(t)
    finally:
        cleanup_s3()
        for c in docker("ps", "-a", "-q", "--filter", "label=" + LABEL, check=False).split():
            if RUN_ID in docker("inspect", "-f", "{{index .Config.Labels \"%s\"}}" % LABEL, c, check=False):
                docker("rm", "-f", c, check=False)
        for tag in (IMG_ENTRY, IMG_USER, IMG):
            docker("rmi", "-f", tag, check=False)
        shutil.rmtree(WORK, ignore_errors=True)
    C.done()


if __name__ == "__main__":
    main()
