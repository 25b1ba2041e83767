#!/bin/bash
# Private dependencies, end to end (issue 17 point 2): a project whose requirements.txt names a
# package in a private git repository over SSH, served by a real sshd on loopback with the user's
# key in a real ssh-agent:
#   decide --scan finds the private dependency; init with no flags writes a Dockerfile that copies
#   vendor/ and installs vendor/requirements.txt; lint refuses to build before `byoc vendor`;
#   byoc vendor without an agent fails naming ssh-agent and leaves nothing; with one it clones the
#   tagged commit into vendor/<name>/ (no .git, no key) and writes vendor/requirements.txt; a
#   second run keeps it; lint is then clean of both findings; the image builds offline and
#   imports the private package.
set -euo pipefail
: "${BYOC_BIN:?BYOC_BIN is not set (run under ctest)}"
: "${DOCKER_HOST:?run through tests/topology/with-env.sh}"
DOCKER=${BYOC_TEST_DOCKER_CLI:-/usr/bin/docker}
BASE=${BYOC_TEST_BASE_TOOLCHAIN:-byoc-test/toolchain:1} # has numpy: pip finds it installed, offline
[ -x /usr/sbin/sshd ] || { echo "FAIL: /usr/sbin/sshd is missing (scripts/deps.sh --test installs openssh-server)" >&2; exit 1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-vendor.XXXXXX")
chmod 755 "$WORK" # sshd's user reads the repository below it
TAG=byoc-test/vendor-journey:$$
FROM_TAGGED=
AGENT_PID=
cleanup() {
    [ -f "$WORK/sshd.pid" ] && kill "$(cat "$WORK/sshd.pid")" 2>/dev/null || true
    [ -n "$AGENT_PID" ] && kill "$AGENT_PID" 2>/dev/null || true
    "$DOCKER" rmi -f "$TAG" ${FROM_TAGGED:+"$FROM_TAGGED"} >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# ---- an sshd on loopback with one key, and a private repository behind it ---------------------
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ME=$(id -un)
ssh-keygen -q -t ed25519 -N '' -f "$WORK/hostkey"
ssh-keygen -q -t ed25519 -N '' -f "$WORK/userkey" -C byoc-vendor-test
cp "$WORK/userkey.pub" "$WORK/authorized_keys"
cat >"$WORK/sshd_config" <<EOF
ListenAddress 127.0.0.1:$PORT
HostKey $WORK/hostkey
AuthorizedKeysFile $WORK/authorized_keys
PidFile $WORK/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $ME
EOF
mkdir -p /run/sshd
/usr/sbin/sshd -f "$WORK/sshd_config" -E "$WORK/sshd.log" || fail "sshd did not start: $(cat "$WORK/sshd.log")"
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null && break
    sleep 0.1
done

SRC=$WORK/qutil-src
mkdir -p "$SRC/qutil"
printf 'from setuptools import setup\n\nsetup(name="qutil", version="1.2", packages=["qutil"])\n' >"$SRC/setup.py"
echo 'VALUE = "tagged"' >"$SRC/qutil/__init__.py"
git -C "$SRC" init -q
git -C "$SRC" -c user.name=t -c user.email=t@example.com add -A
git -C "$SRC" -c user.name=t -c user.email=t@example.com commit -qm v1.2
git -C "$SRC" tag v1.2
echo 'VALUE = "later"' >"$SRC/qutil/__init__.py"
git -C "$SRC" -c user.name=t -c user.email=t@example.com commit -qam later
git clone -q --bare "$SRC" "$WORK/repos/qutil.git"
URL="git+ssh://$ME@127.0.0.1:$PORT$WORK/repos/qutil.git@v1.2#egg=qutil"
# byoc (libgit2) checks the server's key against ~/.ssh/known_hosts as ssh does: a HOME of the
# test's own, first without the key (refused, saying how to accept it), then with it
export HOME=$WORK/home
mkdir -p "$HOME/.ssh"

# ---- the user's project ------------------------------------------------------------------------
P=$WORK/proj
mkdir -p "$P/sweep"
printf 'numpy\n%s\n' "$URL" >"$P/requirements.txt"
printf '' >"$P/sweep/__init__.py"
printf 'import qutil\n\n\ndef main():\n    print("Metrics - value=%%s;" %% qutil.VALUE)\n' >"$P/sweep/run.py"

"$BYOC_BIN" --json decide --scan "$P" >"$WORK/decide.json" || fail "decide exited $?"
python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["init"]["private_deps"] is True, d["init"]' \
    "$WORK/decide.json" || fail "decide did not find the private dependency: $(cat "$WORK/decide.json")"
"$BYOC_BIN" init "$P" --no-git >/dev/null 2>"$WORK/init.err" || fail "init exited $?: $(cat "$WORK/init.err")"
grep -q '^COPY vendor/ /opt/byoc/vendor/$' "$P/Dockerfile" &&
    grep -q 'pip install --no-cache-dir -r /opt/byoc/vendor/requirements.txt' "$P/Dockerfile" ||
    fail "init's Dockerfile does not install vendor/: $(cat "$P/Dockerfile")"
grep -q 'COPY requirements.txt' "$P/Dockerfile" && fail "the Dockerfile still installs requirements.txt (pip would fetch over SSH)"
pass "decide finds the private dependency; init writes a Dockerfile that installs vendor/"

set +e
"$BYOC_BIN" lint "$P" >"$WORK/lint1.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] && grep -q 'byoc vendor.*\[vendor-missing\]' "$WORK/lint1.out" ||
    fail "lint before byoc vendor: exit $rc: $(cat "$WORK/lint1.out")"
pass "lint refuses to build before byoc vendor, saying to run it"

# ---- byoc vendor -------------------------------------------------------------------------------

eval "$(ssh-agent -s -a "$WORK/agent.sock")" >/dev/null
AGENT_PID=$SSH_AGENT_PID
ssh-add -q "$WORK/userkey" 2>/dev/null || fail "ssh-add"
set +e
"$BYOC_BIN" vendor "$P" >/dev/null 2>"$WORK/v0h.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q 'known_hosts' "$WORK/v0h.err" || fail "vendor from an unknown host: exit $rc: $(cat "$WORK/v0h.err")"
[ ! -e "$P/vendor/qutil" ] || fail "a refused host left $P/vendor/qutil"
pass "a server whose host key is not in known_hosts is refused, saying how to accept it"
printf '[127.0.0.1]:%s %s\n' "$PORT" "$(cut -d' ' -f1,2 "$WORK/hostkey.pub")" >"$HOME/.ssh/known_hosts"
set +e
env -u SSH_AUTH_SOCK "$BYOC_BIN" vendor "$P" >"$WORK/v0.out" 2>"$WORK/v0.err"
rc=$?
set -e
[ "$rc" != 0 ] && grep -q 'ssh-agent' "$WORK/v0.err" || fail "vendor without an agent: exit $rc: $(cat "$WORK/v0.err")"
[ ! -e "$P/vendor/qutil" ] || fail "a failed vendor left $P/vendor/qutil"
pass "without an ssh-agent: exit $rc naming ssh-agent, nothing left"
"$BYOC_BIN" --json vendor "$P" >"$WORK/v1.json" 2>"$WORK/v1.err" || fail "vendor exited $?: $(cat "$WORK/v1.err" "$WORK/v1.json")"
python3 - "$WORK/v1.json" <<'PY' || fail "vendor --json: $(cat "$WORK/v1.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["vendored"] == ["qutil"] and d["kept"] == [] and d["requirements"] == "vendor/requirements.txt", d
PY
grep -q '"tagged"' "$P/vendor/qutil/qutil/__init__.py" || fail "not the v1.2 commit: $(cat "$P/vendor/qutil/qutil/__init__.py")"
[ ! -e "$P/vendor/qutil/.git" ] || fail "vendor/qutil/.git was kept"
grep -rqs 'PRIVATE KEY' "$P/vendor" && fail "key material in vendor/"
grep -qx '/opt/byoc/vendor/qutil' "$P/vendor/requirements.txt" && grep -qx numpy "$P/vendor/requirements.txt" &&
    ! grep -q 'ssh://' "$P/vendor/requirements.txt" || fail "vendor/requirements.txt: $(cat "$P/vendor/requirements.txt")"
"$BYOC_BIN" vendor "$P" >"$WORK/v2.out" 2>&1 || fail "the second vendor exited $?"
grep -q '^kept vendor/qutil/' "$WORK/v2.out" || fail "the second vendor: $(cat "$WORK/v2.out")"
pass "byoc vendor clones the tag with the agent into vendor/qutil (no .git, no key), writes the list; again: kept"

"$BYOC_BIN" lint "$P" >"$WORK/lint2.out" 2>&1 || fail "lint after vendor exited $?: $(cat "$WORK/lint2.out")"
grep -q 'vendor-missing\|private-requirements' "$WORK/lint2.out" && fail "lint after vendor: $(cat "$WORK/lint2.out")"
pass "lint after byoc vendor: neither finding"

# ---- the image builds offline and has the private package --------------------------------------
FROM_TAGGED=$(sed -n 's/^FROM \(--platform=[^ ]* \)\{0,1\}\([^ ]*\).*/\2/p' "$P/Dockerfile" | tail -n1)
"$DOCKER" tag "$BASE" "$FROM_TAGGED"
"$BYOC_BIN" build "$P" -t "$TAG" --network none --build-arg BYOC_SAGEMAKER_TRAINING=offline \
    >/dev/null 2>"$WORK/build.err" || fail "build exited $?: $(tail -n 30 "$WORK/build.err")"
[ "$("$DOCKER" run --rm --network none --entrypoint python3 "$TAG" -c 'import qutil; print(qutil.VALUE)')" = tagged ] ||
    fail "the image does not import the vendored package"
pass "the image builds offline from vendor/ and imports the private package"
