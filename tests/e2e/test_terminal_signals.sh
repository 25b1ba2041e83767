#!/bin/bash
# The terminal is restored whatever ends byoc, wherever it is: SIGTERM, SIGINT and a crash
# signal (SIGSEGV; also SIGABRT and SIGBUS for the crash path) delivered on the welcome page
# (byoc starts in an empty directory), on each of the six steps, in help, with the command prompt half typed, and mid-resize; for TERM
# xterm-256color, and on one screen each for screen, vt100, linux and NO_COLOR. After each:
# `stty -a` equals what it was before byoc started, the shell gets its screen back (no TUI
# left, no alternate screen), and the exit code says what happened (143, 130, non-zero).
. "$(dirname "$0")/lib.sh"

STEPS=("${E2E_STEP_TITLES[@]}")
n=0
# A session that outlives the others, so the private tmux server never shuts down
# between two tests (a new session could race its exit).
e2e_tmux new-session -d -s keeper "sleep 3600"
export E2E_CWD="$E2E_DIR/empty"                 # no byoc.json: byoc opens on the welcome page
mkdir -p "$E2E_CWD"

# end_on SIGNAL PLACE [ENV...]: open the TUI, go to PLACE, deliver SIGNAL, check the terminal.
end_on() {
    local sig=$1 place=$2
    shift 2
    n=$((n + 1))
    local s="s$n-$sig-$place"
    s=${s//[^A-Za-z0-9-]/_}
    e2e_start "$s" 80 24 "$@" -- tui
    e2e_wait "$s" "$E2E_WELCOME" "opens" || { e2e_stop "$s"; return; }
    case $place in
        welcome) ;;
        [1-6]) e2e_keys "$s" "$place"; e2e_wait "$s" "${STEPS[$((place - 1))]}" "on step $place" ;;
        help) e2e_keys "$s" '?'; e2e_wait "$s" 'Help: keys and commands' "in help" ;;
        prompt) e2e_type "$s" ':goto mon'; e2e_wait "$s" '^:goto mon' "prompt open" ;;
        resize) e2e_resize "$s" 120 40; e2e_resize "$s" 40 10; e2e_resize "$s" 200 60; e2e_resize "$s" 80 24 ;;
    esac
    e2e_signal "$s" "$sig"
    e2e_wait_exit "$s"
    local rc
    rc=$(e2e_rc "$s")
    case $sig in
        TERM) [ "$rc" = 143 ] && e2e_pass "$s: exit 143" || e2e_fail "$s: exit $rc, want 143" ;;
        INT) [ "$rc" = 130 ] && e2e_pass "$s: exit 130" || e2e_fail "$s: exit $rc, want 130" ;;
        *) [ -n "$rc" ] && [ "$rc" != 0 ] && e2e_pass "$s: non-zero exit ($rc)" || e2e_fail "$s: exit '$rc'" ;;
    esac
    if [ "$place" = resize ]; then
        # tmux applies queued sizes asynchronously: the size may still change after the
        # signal, so compare the terminal modes without the rows/columns line
        if cmp -s <(sed 1d "$E2E_DIR/$s/stty.before") <(sed 1d "$E2E_DIR/$s/stty.after"); then
            e2e_pass "$s: terminal modes restored"
        else
            e2e_fail "$s: terminal modes differ after byoc"
            diff "$E2E_DIR/$s/stty.before" "$E2E_DIR/$s/stty.after" | sed 's/^/    | /' >&2
        fi
    else
        e2e_stty_same "$s"
    fi
    e2e_wait "$s" '^BYOC-EXITED rc=' "$s: the shell's screen is back"
    # vt100 and linux have no alternate screen: the last frame stays above the prompt there
    case " $* " in
        *" TERM=vt100 "* | *" TERM=linux "*) ;;
        *) e2e_lacks "$s" 'Steps|Help: keys' "$s: no TUI left on the screen" ;;
    esac
    # the alternate screen is left: tmux reports it as off
    if [ "$(e2e_tmux display -p -t "$s" '#{alternate_on}')" = 0 ]; then e2e_pass "$s: alternate screen off"; else
        e2e_fail "$s: still on the alternate screen"; fi
    e2e_stop "$s"
}

for sig in TERM INT SEGV; do
    for place in welcome 1 2 3 4 5 6 help prompt resize; do
        end_on "$sig" "$place" TERM=xterm-256color
    done
done
for sig in ABRT BUS; do
    end_on "$sig" 3 TERM=xterm-256color
done
for term in screen vt100 linux; do
    for sig in TERM INT SEGV; do
        end_on "$sig" 4 TERM=$term
    done
done
for sig in TERM SEGV; do
    end_on "$sig" 5 TERM=xterm-256color NO_COLOR=1
done

e2e_done
