#!/bin/bash
# A real crash of byoc's UI thread gives the terminal back. BYOC_TEST_CRASH (test-only,
# tui/app/tty.c) arms a genuine fault that SIGUSR1 sets off once curses runs: "segv" stores
# through a null pointer, "abort" calls abort(). (test_terminal_signals.sh covers crash
# signals sent from outside with kill; this is the in-process path.) After each crash:
# `stty -a` equals what it was before byoc started, the cursor is visible, the alternate
# screen is off and no TUI is left, byoc said it crashed, the exit code is the crash's,
# and none of the canary credentials in byoc's environment reached the terminal.
. "$(dirname "$0")/lib.sh"

STEPS=("${E2E_STEP_TITLES[@]}")
CANARY_KEY=AKIACANARYCRASH00001
CANARY_SECRET=canarySecretCrash/0123456789abcdefghijKLMNOP
CANARY_TOKEN=canaryTokenCrash+ZYXWVUTSRQPONMLKJIHGFEDCBA
n=0
e2e_tmux new-session -d -s keeper "sleep 3600"
export E2E_CWD="$E2E_DIR/empty"                 # no byoc.json: byoc opens on the welcome page
mkdir -p "$E2E_CWD"

# crash_on KIND PLACE [ENV...]: open the TUI, go to PLACE, crash it, check the terminal.
crash_on() {
    local kind=$1 place=$2
    shift 2
    n=$((n + 1))
    local s="c$n-$kind-$place"
    s=${s//[^A-Za-z0-9-]/_}
    e2e_start "$s" 80 24 BYOC_TEST_CRASH="$kind" AWS_ACCESS_KEY_ID=$CANARY_KEY \
        AWS_SECRET_ACCESS_KEY=$CANARY_SECRET AWS_SESSION_TOKEN=$CANARY_TOKEN "$@" -- tui
    e2e_wait "$s" "$E2E_WELCOME" "opens" || { e2e_stop "$s"; return; }
    case $place in
        welcome) ;;
        [1-6]) e2e_keys "$s" "$place"; e2e_wait "$s" "${STEPS[$((place - 1))]}" "on step $place" ;;
        help) e2e_keys "$s" '?'; e2e_wait "$s" 'Help: keys and commands' "in help" ;;
        prompt) e2e_type "$s" ':goto mon'; e2e_wait "$s" '^:goto mon' "prompt open" ;;
    esac
    # the TUI is really up: alternate screen on, cursor hidden (vt100 has neither)
    case " $* " in
        *" TERM=vt100 "*) ;;
        *)
            [ "$(e2e_tmux display -p -t "$s" '#{alternate_on}')" = 1 ] && e2e_pass "$s: on the alternate screen" ||
                e2e_fail "$s: the TUI is not on the alternate screen"
            [ "$(e2e_tmux display -p -t "$s" '#{cursor_flag}')" = 0 ] && e2e_pass "$s: cursor hidden" ||
                e2e_fail "$s: the TUI did not hide the cursor" ;;
    esac
    e2e_signal "$s" USR1
    e2e_wait_exit "$s"
    local rc want
    rc=$(e2e_rc "$s")
    case $kind in segv) want=139 ;; abort) want=134 ;; esac
    # under AddressSanitizer a SIGSEGV ends in ASan's report and exit code 1
    if [ "$rc" = "$want" ] || { [ "$rc" = 1 ] && [ "$kind" = segv ] &&
        e2e_tmux capture-pane -p -S - -t "$s" | grep -q 'AddressSanitizer'; }; then
        e2e_pass "$s: exit $rc"
    else
        e2e_fail "$s: exit '$rc', want $want"
    fi
    e2e_stty_same "$s"
    e2e_wait "$s" '^BYOC-EXITED rc=' "$s: the shell's screen is back"
    local name
    case $kind in segv) name=SIGSEGV ;; abort) name=SIGABRT ;; esac
    if e2e_tmux capture-pane -p -S - -t "$s" | grep -q "byoc: crashed ($name); the terminal has been restored"; then
        e2e_pass "$s: byoc says it crashed"
    else
        e2e_fail "$s: no crash message; the screen:"; e2e_capture "$s" | sed 's/^/    | /' >&2
    fi
    case " $* " in
        *" TERM=vt100 "* | *" TERM=linux "*) ;;
        *) e2e_lacks "$s" 'Steps|Help: keys' "$s: no TUI left on the screen" ;;
    esac
    [ "$(e2e_tmux display -p -t "$s" '#{alternate_on}')" = 0 ] && e2e_pass "$s: alternate screen off" ||
        e2e_fail "$s: still on the alternate screen"
    [ "$(e2e_tmux display -p -t "$s" '#{cursor_flag}')" = 1 ] && e2e_pass "$s: cursor visible" ||
        e2e_fail "$s: the cursor is still hidden"
    if e2e_tmux capture-pane -p -S - -t "$s" | grep -qF -e "$CANARY_SECRET" -e "$CANARY_TOKEN" -e "$CANARY_KEY"; then
        e2e_fail "$s: a canary credential reached the terminal"
    else
        e2e_pass "$s: no credential in the crash output"
    fi
    e2e_stop "$s"
}

for kind in segv abort; do
    for place in welcome 1 3 6 help prompt; do
        crash_on "$kind" "$place" TERM=xterm-256color
    done
    crash_on "$kind" 4 TERM=screen
    crash_on "$kind" 2 TERM=vt100
    crash_on "$kind" 5 TERM=xterm-256color NO_COLOR=1
done

e2e_done
