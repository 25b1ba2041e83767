#!/usr/bin/env python3
""".dockerignore and context parity: byoc and the docker CLI 20.10
(/usr/bin/docker, the daemon's own version) build the same contexts and must
produce images with the same files: names, types, modes, sizes, link targets,
mtimes and contents.

Contexts: the fixture contexts odd-names and ignore-* (FROM scratch + COPY . /ctx/),
and every case of tests/fixtures/contexts/ignore-matrix/cases.in built live.
Runs through tests/topology/with-env.sh (DOCKER_HOST, BYOC_BIN)."""
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

SRC = os.environ.get("BYOC_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BYOC = os.environ["BYOC_BIN"]
DOCKER = os.environ.get("BYOC_TEST_DOCKER_CLI", "/usr/bin/docker")
FIX = os.path.join(SRC, "tests", "fixtures", "contexts")
sys.path.insert(0, os.path.join(FIX, "ignore-matrix"))
import gen_expected  # noqa: E402  (the matrix's tree and cases)

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, file=sys.stderr)


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, **kw)


def listing(image):
    """{path: (type, mode, size, linkname, mtime, sha256)} of what the image holds under /ctx."""
    c = run([DOCKER, "create", image, "/nonexistent"])
    if c.returncode != 0:
        return None
    cid = c.stdout.decode().strip()
    e = run([DOCKER, "export", cid])
    run([DOCKER, "rm", cid])
    out = {}
    with tarfile.open(fileobj=io.BytesIO(e.stdout)) as tf:
        for m in tf.getmembers():
            name = m.name.rstrip("/")
            if not name.startswith("ctx/") and name != "ctx":
                continue
            digest = ""
            if m.isfile():
                digest = hashlib.sha256(tf.extractfile(m).read()).hexdigest()
            # A directory's mtime is when the engine extracted into it: not the context's.
            mtime = None if m.isdir() else m.mtime
            out[name] = (m.type, m.mode, m.size, m.linkname, mtime, digest)
    return out


def build_both(ctx, name):
    """Build ctx with byoc and with the CLI; returns (byoc listing, CLI listing) or Nones."""
    a, b = f"byoc-parity/{name}:byoc", f"byoc-parity/{name}:cli"
    rb = run([BYOC, "build", ctx, "-t", a, "--network", "none", "--no-lint"])
    rd = run([DOCKER, "build", "-q", "-t", b, "--network", "none", ctx])
    # Both succeed or both refuse (the CLI exits 1 for everything; byoc 2 for bad input).
    check((rb.returncode == 0) == (rd.returncode == 0),
          f"{name}: byoc exit {rb.returncode} vs CLI exit {rd.returncode}: {rb.stderr.decode()[-300:]} | "
          f"{rd.stderr.decode()[-300:]}")
    if rb.returncode != 0 or rd.returncode != 0:
        check(rb.returncode != 1, f"{name}: a refused context is an input error (exit 2), not a failed build")
        return None, None
    la, lb = listing(a), listing(b)
    run([DOCKER, "rmi", "-f", a, b])
    return la, lb


def compare(name, la, lb):
    if la is None or lb is None:
        return
    check(len(la) > 0 or len(lb) == 0, f"{name}: empty listing")
    only_a = sorted(set(la) - set(lb))
    only_b = sorted(set(lb) - set(la))
    check(not only_a, f"{name}: only in byoc's image: {only_a[:10]}")
    check(not only_b, f"{name}: only in the CLI's image: {only_b[:10]}")
    diff = [p for p in sorted(set(la) & set(lb)) if la[p] != lb[p]]
    check(not diff, f"{name}: differ: " + "; ".join(f"{p}: {la[p]} vs {lb[p]}" for p in diff[:5]))


def main():
    for name in ["odd-names", "ignore-basic", "ignore-exceptions", "ignore-regexp"]:
        ctx = os.path.join(FIX, name)
        la, lb = build_both(ctx, name)
        compare(name, la, lb)
        if name == "odd-names" and la:
            long_name = "ctx/" + "n" * 200 + ".txt"
            check(long_name in la, "odd-names: the 200-byte name is in the image")
            check(la.get("ctx/link-to-space", ("",) * 4)[3] == "with space.txt", "odd-names: symlink kept")

    tree, cases = gen_expected.parse_cases(os.path.join(FIX, "ignore-matrix", "cases.in"))
    for name, ignore in cases:
        tmp = tempfile.mkdtemp(prefix="byoc-parity-")
        try:
            gen_expected.make_context(tmp, tree, ignore)
            la, lb = build_both(tmp, "m-" + name)
            compare("matrix " + name, la, lb)
        finally:
            shutil.rmtree(tmp)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
