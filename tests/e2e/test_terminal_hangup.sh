#!/bin/bash
# The terminal hangs up and byoc gets no SIGHUP (only a session leader does, and a shell that
# ignores it passes the ignoring on): byoc sees the hang-up on its terminal, ends with 129 and
# does not spin. Run in a pty of this test's own (python3's pty), not tmux: the test closes the
# terminal's other end itself. Each case waits at most 20 s for byoc to end: only a byoc that
# never ends (spinning on reads that return nothing) takes that long.
set -u
: "${BYOC_BIN:?BYOC_BIN must point at the byoc executable}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-hangup.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/empty"
python3 - "$BYOC_BIN" "$WORK/empty" <<'PY'
import os, pty, select, signal, sys, time

byoc, cwd = sys.argv[1], sys.argv[2]
failed = 0


def case(name, shell):
    global failed
    status_file = os.path.join(cwd, "status-" + name)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", BYOC_BIN=byoc, STATUS=status_file)
        env.pop("NO_COLOR", None)
        os.execve("/bin/sh", ["sh", "-c", shell], env)
    seen, end = b"", time.monotonic() + 20
    while b"Welcome to byoc" not in seen and time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    if b"Welcome to byoc" not in seen:
        print("FAIL: %s: byoc did not open its welcome page: %r" % (name, seen[-300:]))
        failed += 1
        os.killpg(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        return
    os.close(fd)  # the terminal hangs up
    end = time.monotonic() + 20
    while not os.path.exists(status_file) and time.monotonic() < end:
        time.sleep(0.1)
    try:
        code = open(status_file).read().strip()
    except OSError:
        code = None
    if code != "129":
        print("FAIL: %s: byoc did not end with 129 after the hang-up (status %r)" % (name, code))
        failed += 1
    else:
        print("ok: %s: byoc ended with 129" % name)
    try:
        os.killpg(pid, signal.SIGKILL)  # the shell's session: a byoc still running too
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)


# the shell ignores SIGHUP and runs byoc as its child: byoc gets no signal, only the hang-up
case("no-sighup", "trap '' HUP; \"$BYOC_BIN\" tui; echo $? > \"$STATUS\"")
sys.exit(1 if failed else 0)
PY
