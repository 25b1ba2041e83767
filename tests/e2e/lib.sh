# lib.sh: drive byoc's TUI in detached tmux sessions, for the e2e tests.
#
#   . "$(dirname "$0")/lib.sh"
#   e2e_start main 80 24 TERM=xterm-256color -- tui   # session, size, env, byoc's arguments
#   E2E_CWD=/some/dir e2e_start ...                   # byoc starts in that directory
#   e2e_wait main 'Do you need your own container'    # poll the screen for an ERE
#   e2e_keys main 2 ; e2e_type main ':goto monitor' ; e2e_keys main Enter
#   e2e_resize main 60 20
#   e2e_signal main TERM ; e2e_wait_exit main ; e2e_rc main
#   e2e_stty_same main                               # the terminal is as byoc found it
#   e2e_open_build main DIR ; e2e_build_without_lint main   # Build: lint first off, then build
#   e2e_done                                          # exit status: 0 if every check passed
#
# Every session runs a small runner in its pane: it records `stty -a` of the
# pane's terminal, runs "$BYOC_BIN" (pid in a file, for signals), records the
# exit code and `stty -a` again, prints "BYOC-EXITED rc=N" and waits. All
# sessions live on a private tmux server (its own socket, no user config)
# that is killed, with the scratch directory, when the script exits.

set -u

: "${BYOC_BIN:?BYOC_BIN must point at the byoc executable}"
E2E_TIMEOUT=${E2E_TIMEOUT:-15}       # seconds a wait may take before it fails
E2E_DIR=$(mktemp -d "${TMPDIR:-/tmp}/byoc-e2e.XXXXXX")
E2E_SOCK="$E2E_DIR/tmux.sock"
E2E_FAILED=0
E2E_PASSED=0
# The welcome page (a directory without byoc.json, no --project) is on screen when its title is.
E2E_WELCOME='[─-] Welcome to byoc [─-]'
# A step is on screen when its panel title is ("─ 3 Push ─", "─ 6 Monitor: 12 ─"; "-" in ASCII).
E2E_STEP_TITLES=('[─-] 1 Decide[ :]' '[─-] 2 Build[ :]' '[─-] 3 Push[ :]' '[─-] 4 Permit[ :]' '[─-] 5 Run[ :]'
                 '[─-] 6 Monitor[ :]')

e2e_tmux() { tmux -S "$E2E_SOCK" -f /dev/null "$@"; }

e2e_cleanup() {
    e2e_tmux kill-server >/dev/null 2>&1
    rm -rf "$E2E_DIR"
}
trap e2e_cleanup EXIT

e2e_log() { printf '%s\n' "$*" >&2; }

e2e_fail() {
    E2E_FAILED=$((E2E_FAILED + 1))
    e2e_log "FAIL: $*"
}

e2e_pass() {
    E2E_PASSED=$((E2E_PASSED + 1))
    [ -n "${E2E_VERBOSE:-}" ] && e2e_log "ok: $*"
    return 0
}

# e2e_start NAME COLS ROWS [VAR=VALUE]... [-- BYOC-ARGS...]
# Environment: LANG=C.UTF-8 and TERM=xterm-256color unless given; NO_COLOR
# and BYOC_ASCII are removed unless given. byoc starts in $E2E_CWD when set
# (else where the test runs).
e2e_start() {
    local name=$1 cols=$2 rows=$3
    shift 3
    local envs=() args=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    args=("$@")
    local d="$E2E_DIR/$name"
    mkdir -p "$d"
    local runner="$d/run.sh"
    {
        echo '#!/bin/sh'
        [ -n "${E2E_CWD:-}" ] && echo "cd '$E2E_CWD' || exit 1"
        echo "stty -a > '$d/stty.before'"
        printf "sh -c 'echo \$\$ > \"\$0\"; exec \"\$@\"' '%s' env -u NO_COLOR -u BYOC_ASCII LANG=C.UTF-8 TERM=xterm-256color" "$d/pid"
        local e a
        for e in "${envs[@]}"; do printf " '%s'" "$e"; done
        printf " '%s'" "$BYOC_BIN"
        for a in "${args[@]}"; do printf " '%s'" "$a"; done
        echo
        echo 'rc=$?'
        echo "stty -a > '$d/stty.after'"
        echo "echo \$rc > '$d/rc'"
        echo 'echo "BYOC-EXITED rc=$rc"'
        echo 'exec sleep 3600'
    } > "$runner"
    rm -f "$d/pid" "$d/rc"
    e2e_tmux new-session -d -s "$name" -x "$cols" -y "$rows" "sh '$runner'" || {
        e2e_fail "$name: tmux could not start the session"
        return 1
    }
    local i=0
    while [ ! -s "$d/pid" ] && [ $i -lt $((E2E_TIMEOUT * 10)) ]; do sleep 0.1; i=$((i + 1)); done
}

# Keys by tmux name (Enter, Tab, Escape, Up, C-c, q...), one argument each.
e2e_keys() { local name=$1; shift; e2e_tmux send-keys -t "$name" "$@"; }
# Literal text.
e2e_type() { local name=$1; shift; e2e_tmux send-keys -t "$name" -l "$*"; }

# The screen as text (with -e: with the escape sequences for attributes).
e2e_capture() { e2e_tmux capture-pane -p -t "$1" ${2:+"$2"}; }

# e2e_wait NAME ERE [WHAT]: poll until the screen matches; fails with the screen shown.
e2e_wait() {
    local name=$1 re=$2 what=${3:-"screen shows /$2/"}
    local i=0 limit=$((E2E_TIMEOUT * 10))
    while [ $i -lt $limit ]; do
        if e2e_capture "$name" | grep -Eq -- "$re"; then
            e2e_pass "$name: $what"
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    e2e_fail "$name: $what (timed out after ${E2E_TIMEOUT}s); the screen:"
    e2e_capture "$name" | sed 's/^/    | /' >&2
    return 1
}

# e2e_wait_gone NAME ERE [WHAT]: poll until the screen no longer matches.
e2e_wait_gone() {
    local name=$1 re=$2 what=${3:-"screen no longer shows /$2/"}
    local i=0 limit=$((E2E_TIMEOUT * 10))
    while [ $i -lt $limit ]; do
        if ! e2e_capture "$name" | grep -Eq -- "$re"; then
            e2e_pass "$name: $what"
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    e2e_fail "$name: $what (timed out); the screen:"
    e2e_capture "$name" | sed 's/^/    | /' >&2
    return 1
}

# Check the current screen (no waiting) for an ERE, or its absence.
e2e_has() {
    if e2e_capture "$1" ${4:+"$4"} | grep -Eq -- "$2"; then e2e_pass "$1: ${3:-has /$2/}"; else
        e2e_fail "$1: ${3:-has /$2/}; the screen:"; e2e_capture "$1" | sed 's/^/    | /' >&2; fi
}
e2e_lacks() {
    if e2e_capture "$1" ${4:+"$4"} | grep -Eq -- "$2"; then
        e2e_fail "$1: ${3:-lacks /$2/}; the screen:"; e2e_capture "$1" | sed 's/^/    | /' >&2; else
        e2e_pass "$1: ${3:-lacks /$2/}"; fi
}

# e2e_resize NAME COLS ROWS: resize the window, then wait until the pane's terminal has
# that size. tmux gives a window's size to the pty on a timer (about 250 ms later), so
# without the wait a key sent next could reach byoc before its SIGWINCH, at the old size
# (a key pressed while byoc is "too small" does nothing, and q quits). A stale screen
# still matches a wait for text until byoc redraws; the pty's size does not lie.
# e2e_resize_nowait only asks (a resize storm).
e2e_resize_nowait() { e2e_tmux resize-window -t "$1" -x "$2" -y "$3"; }
e2e_resize() {
    local tty i=0
    e2e_resize_nowait "$@"
    tty=$(e2e_tmux display-message -p -t "$1" '#{pane_tty}')
    while [ "$(stty -F "$tty" size 2>/dev/null)" != "$3 $2" ] && [ $i -lt 50 ]; do
        sleep 0.05
        i=$((i + 1))
    done
}

e2e_pid() { cat "$E2E_DIR/$1/pid" 2>/dev/null; }

# e2e_signal NAME SIG: send a signal to byoc (not to the pane's shell).
e2e_signal() { kill -s "$2" "$(e2e_pid "$1")"; }

# e2e_wait_exit NAME: wait until byoc has exited (and the runner recorded it).
e2e_wait_exit() {
    local name=$1 i=0 limit=$((E2E_TIMEOUT * 10))
    while [ ! -s "$E2E_DIR/$name/rc" ] && [ $i -lt $limit ]; do sleep 0.1; i=$((i + 1)); done
    if [ -s "$E2E_DIR/$name/rc" ]; then
        e2e_pass "$name: byoc exited"
        return 0
    fi
    e2e_fail "$name: byoc did not exit; the screen:"
    e2e_capture "$name" | sed 's/^/    | /' >&2
    return 1
}

e2e_rc() { cat "$E2E_DIR/$1/rc" 2>/dev/null; }

# e2e_expect_rc NAME CODE
e2e_expect_rc() {
    local rc
    rc=$(e2e_rc "$1")
    if [ "$rc" = "$2" ]; then e2e_pass "$1: exit code $2"; else e2e_fail "$1: exit code ${rc:-none}, want $2"; fi
}

# e2e_stty_same NAME: `stty -a` of the pane's terminal after byoc equals before.
e2e_stty_same() {
    local d="$E2E_DIR/$1"
    if [ ! -s "$d/stty.before" ] || [ ! -s "$d/stty.after" ]; then
        e2e_fail "$1: stty records missing"
        return 1
    fi
    if cmp -s "$d/stty.before" "$d/stty.after"; then
        e2e_pass "$1: terminal settings restored"
    else
        e2e_fail "$1: terminal settings differ after byoc:"
        diff "$d/stty.before" "$d/stty.after" | sed 's/^/    | /' >&2
    fi
}

# e2e_open_build NAME DIR [VAR=VALUE]...: byoc at 80x24 on the project DIR, on the Build step.
e2e_open_build() {
    local name=$1 dir=$2
    shift 2
    e2e_start "$name" 80 24 "$@" -- --project "$dir" tui
    e2e_wait "$name" "1 Decide .* 2 Build" "$name: byoc is up (the flow bar is drawn)"
    e2e_keys "$name" 2
    e2e_wait "$name" 'Write and lint the Dockerfile' "$name: Build"
}

# e2e_build_without_lint NAME: on the Build step, go to the settings, turn "Lint first" off (the
# last field) and build.
e2e_build_without_lint() {
    e2e_keys "$1" e
    e2e_wait "$1" 'Lint first +\[x\] on' "$1: e opens the settings"
    local i
    for i in 1 2 3 4 5 6 7 8; do e2e_keys "$1" Down; done
    e2e_keys "$1" Space
    e2e_wait "$1" 'Lint first +\[ \] off' "$1: Space turns the lint off"
    e2e_keys "$1" C-s
}

e2e_stop() { e2e_tmux kill-session -t "$1" >/dev/null 2>&1; }

# Print the tally; exit status 0 when nothing failed.
e2e_done() {
    e2e_log "$E2E_PASSED passed, $E2E_FAILED failed"
    [ "$E2E_FAILED" -eq 0 ]
}
