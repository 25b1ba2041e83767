#!/usr/bin/env python3
""".dockerignore lines holding NUL bytes, byoc against the docker CLI 20.10
(/usr/bin/docker). Go strings keep NULs: the CLI cleans such a line as it is,
and a pattern that still holds a NUL never matches a path but is still
syntax-checked (a bad one refuses the context). byoc once cut the line at the
NUL (the fuzzer found "./a/../\\v\\0[" read as the pattern "\\v").
These cases live here, not in ignore-matrix/cases.in, because that file is read
as C text by tests/unit/test_dockerignore.c. The same contexts, the same
machinery: test_docker_ignore_parity.py's build_both and compare."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_docker_ignore_parity as parity  # noqa: E402

CASES = [
    ("nul-in-pattern", b"a.txt\0x\nb.md\n"),              # a.txt stays: the pattern is "a.txt\0x"
    ("nul-only-exception", b"*.md\n!\0\n"),               # "!\0" is not a lone "!"
    ("nul-then-bad-class", b"./a/../\v\0[\n"),            # the fuzzer's input: "\v\0[" is a bad class
    ("nul-cleaned-away", b"x\0/..\nb.md\n"),             # Clean drops the NUL's component
    ("nul-trailing-backslash", b"README\0 \\ \n"),        # trimmed to a trailing '\': refused
    ("nul-after-real-dir", b"docs/\0\nsrc\0/../a.txt\n"),
    ("nul-class-cleaned-away", b"x\0/[\0-b]/..\nb.md\n"),
]
# The one known difference: a NUL inside a [ ] class stands for other characters
# ("[\0-b]" holds 'a' and 'b'); byoc's patterns are C strings, so byoc refuses the file
# (exit 2, saying why) where the CLI uses the class.
REFUSED = [("nul-in-class", b"[\0-b].md\n")]


def main():
    tree, _ = parity.gen_expected.parse_cases(os.path.join(parity.FIX, "ignore-matrix", "cases.in"))
    for name, ignore in CASES:
        tmp = tempfile.mkdtemp(prefix="byoc-nul-")
        try:
            parity.gen_expected.make_context(tmp, tree, ignore)
            la, lb = parity.build_both(tmp, name)
            parity.compare(name, la, lb)
        finally:
            shutil.rmtree(tmp)
    for name, ignore in REFUSED:
        tmp = tempfile.mkdtemp(prefix="byoc-nul-")
        try:
            parity.gen_expected.make_context(tmp, tree, ignore)
            rb = parity.run([parity.BYOC, "build", tmp, "-t", f"byoc-parity/{name}:byoc", "--network", "none",
                             "--no-lint"])
            parity.check(rb.returncode == 2 and b"NUL byte inside a [ ] class" in rb.stderr,
                         f"{name}: byoc refuses with exit 2 and says why: {rb.returncode} {rb.stderr[-300:]}")
        finally:
            shutil.rmtree(tmp)
    print(f"{parity.passed} passed, {parity.failed} failed")
    return 1 if parity.failed else 0


if __name__ == "__main__":
    sys.exit(main())
