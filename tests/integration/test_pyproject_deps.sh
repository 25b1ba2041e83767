#!/bin/bash
# A Python project whose packages are in pyproject.toml ([project] dependencies, no
# requirements.txt): byoc init adopts it, and the image byoc's recipe builds has those packages,
# so the job does not fail on its first import. Built with no network: the base is the local
# python3+pip base with a wheelhouse of one small wheel made here and a pip.conf that installs
# from it only (as an air-gapped host would); byoc's offline build arg skips sagemaker-training.
set -euo pipefail
. "$(dirname "$0")/image_test.sh" pyproject-deps
PIP_BASE=byoc-test/python-pip:3 # tests/topology/base-images.sh

"$DOCKER" image inspect "$PIP_BASE" >/dev/null 2>&1 || fail "$PIP_BASE is missing (tests/topology/up.sh builds it)"

# ---- the base: pip installs from a local wheelhouse only -------------------------------------
mkdir -p "$WORK/base/wheels"
python3 - "$WORK/base/wheels" <<'PY'
import base64, hashlib, os, sys, zipfile
files = {
    "byocdep/__init__.py": "VALUE = 'from the wheelhouse'\n",
    "byocdep-1.2.dist-info/METADATA": "Metadata-Version: 2.1\nName: byocdep\nVersion: 1.2\n",
    "byocdep-1.2.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: byoc-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = []
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    record.append("%s,sha256=%s,%d" % (name, digest, len(text.encode())))
record.append("byocdep-1.2.dist-info/RECORD,,")
files["byocdep-1.2.dist-info/RECORD"] = "\n".join(record) + "\n"
with zipfile.ZipFile(os.path.join(sys.argv[1], "byocdep-1.2-py3-none-any.whl"), "w") as z:
    for name, text in files.items():
        z.writestr(name, text)
PY
printf '[global]\nno-index = true\nfind-links = /opt/wheels\n' >"$WORK/base/pip.conf"
printf 'FROM %s\nCOPY wheels /opt/wheels\nCOPY pip.conf /etc/pip.conf\n' "$PIP_BASE" >"$WORK/base/Dockerfile"
build_base "$WORK/base" "building the wheelhouse base"
pass "a base whose pip installs from a local wheelhouse"

# ---- the user's project: dependencies in pyproject.toml only --------------------------------
PROJ=$WORK/qdeps
mkdir -p "$PROJ/qdeps"
cat >"$PROJ/pyproject.toml" <<'TOML'
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "qdeps"
version = "0.1.0"
dependencies = [
    "byocdep>=1.0",  # the job's one package
]
TOML
: >"$PROJ/qdeps/__init__.py"
printf 'import byocdep\n\n\ndef main():\n    print(byocdep.VALUE)\n' >"$PROJ/qdeps/main.py"

"$BYOC_BIN" --json init "$PROJ" --recipe custom-base --language python --base "$BASE" --no-git >"$WORK/init.json" ||
    fail "byoc init exited $?"
python3 - "$WORK/init.json" <<'PY' || fail "init's JSON: $(cat "$WORK/init.json")"
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["adopted"] and doc["entry_point"] == "qdeps.main:main", doc
assert "requirements.txt" not in doc["files"], doc["files"]
PY
"$BYOC_BIN" --json lint "$PROJ" >"$WORK/lint.json" || fail "lint found errors: $(cat "$WORK/lint.json")"
pass "init adopts the project, and lint finds no error"

build_tag "$PROJ"
out=$("$DOCKER" run --rm --network none "$TAG" python3 -c 'import byocdep, importlib.metadata as m; print(byocdep.VALUE, m.version("byocdep"))') ||
    { cat "$WORK/build.log" >&2; fail "the image lacks pyproject.toml's dependency"; }
[ "$out" = "from the wheelhouse 1.2" ] || fail "import byocdep printed [$out]"
"$DOCKER" run --rm --network none "$TAG" sh -c '! python3 -c "import qdeps" 2>/dev/null && [ ! -e /tmp/byoc-pyproject ]' ||
    fail "the project itself was installed, or the build's scratch directory was left in the image"
pass "the image has pyproject.toml's dependencies (not the project itself, which the job's source brings)"

echo "all passed"
