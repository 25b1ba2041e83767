#!/usr/bin/env python3
"""The command line's error contract: one line on stderr, `byoc: <what>: <why>` with one
prefix; with --json exactly one JSON document on stdout, {"error": {"what", "why",
"exit_code"}} on failure, and no second document after a verb printed its own.
Standard library only (no boto3), so the whole file is one short python start."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

SOURCE = os.environ.get("BYOC_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BYOC = os.environ.get("BYOC_BIN") or os.path.join(SOURCE, "build", "byoc")
passed = failed = 0


def check(cond, name, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s %s" % (name, detail), file=sys.stderr)


def byoc(*args, env=None):
    p = subprocess.run([BYOC] + list(args), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       env=env or os.environ, timeout=120)
    return p.returncode, p.stdout, p.stderr


def one_document(out, name):
    try:
        doc = json.loads(out)
    except ValueError as e:
        check(False, name, "stdout is not exactly one JSON document (%s): %r" % (e, out[:300]))
        return {}
    check(True, name)
    return doc


def error_doc(args, what, rc_want, why=None):
    rc, out, err = byoc(*args)
    name = " ".join(args)
    check(rc == rc_want, name, "exit %d, want %d; stderr %r" % (rc, rc_want, err))
    e = one_document(out, name).get("error") or {}
    check(e.get("what") == what, name + ": what", repr(e))
    check(e.get("exit_code") == rc, name + ": exit_code", repr(e))
    if why:
        check(e.get("why") == why, name + ": why", repr(e))
    check(len(err.splitlines()) == 1 and err.startswith("byoc: "), name + ": one line on stderr", repr(err))
    return e


tmp = tempfile.mkdtemp()
try:
    rc, out, err = byoc("x")
    check(rc == 2, "unknown verb exit")
    check(err == "byoc: x: unknown verb (see byoc --help)\n", "unknown verb line", repr(err))
    check(out == "", "unknown verb: nothing on stdout", repr(out))

    error_doc(["--json", "x"], "x", 2, "unknown verb (see byoc --help)")
    error_doc(["x", "--json"], "x", 2, "unknown verb (see byoc --help)")
    error_doc(["--json", "--bogus-flag", "doctor"], "--bogus-flag", 2)
    error_doc(["--json", "run", "--bogus"], "run", 2)
    rc, out, _ = byoc("--json", "status", "no-such-job-i17")
    check(rc in (1, 2), "status of a missing job fails", "exit %d" % rc)
    check((one_document(out, "status of a missing job").get("error") or {}).get("exit_code") == rc,
          "status of a missing job: exit_code")

    # lint prints its findings as the document, and exits 1: no error document after it.
    os.mkdir(os.path.join(tmp, "p"))
    with open(os.path.join(tmp, "p", "Dockerfile"), "w") as f:
        f.write("FROM scratch\n")
    rc, out, _ = byoc("--json", "lint", os.path.join(tmp, "p"))
    doc = one_document(out, "lint with findings")
    check("findings" in doc and "error" not in doc, "lint's own document", repr(doc)[:200])

    # No AWS credentials: the cause once, in the report (not "doctor: no AWS credentials: credentials: ...",
    # and not again on stderr, whose one line names the part that is not ready).
    env = {k: v for k, v in os.environ.items()
           if k not in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE")}
    env["AWS_SHARED_CREDENTIALS_FILE"] = env["AWS_CONFIG_FILE"] = os.path.join(tmp, "none")
    rc, out, err = byoc("doctor", env=env)
    check(rc == 3, "doctor without credentials exit", "exit %d" % rc)
    check(out.count("no AWS credentials found") == 1, "doctor: the cause once in the report", repr(out)[:300])
    check(out.count("credentials: no AWS") == 1, "doctor: one prefix", repr(out)[:300])
    check(err.startswith("byoc: doctor: not ready: credentials") and err.count("\n") == 1,
          "doctor: one stderr line naming the part", repr(err))
    check("no AWS credentials found" not in err, "doctor: stderr does not repeat the cause", repr(err))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
