#!/bin/bash
# The TUI shell end to end, in tmux: layout at 80x24 and 120x40, the six
# steps by number and by sidebar, help generated from the action table and
# its / filter, the command prompt (:goto, completion, unknown commands), the
# too-small notice and recovery, NO_COLOR and --no-color, TERM
# vt100/screen/linux, TERM=dumb refused with exit 3, and the terminal
# restored after q, C-c, SIGTERM, SIGINT, SIGHUP and a crash signal.
. "$(dirname "$0")/lib.sh"

DECIDE='Do you need your own container'
BUILD='Write and lint the Dockerfile'
PUSH='Push the image to an ECR repository'
PERMIT="Let the job's execution role pull the image"
RUN='Create the Hybrid Job, or run it locally'
# Monitor shows its purpose while there are no jobs, and the jobs table (its status filter) once there are.
MONITOR='Follow jobs: status, logs, metrics, results|Status: (all|[A-Z]+) '
STEPS=("$DECIDE" "$BUILD" "$PUSH" "$PERMIT" "$RUN" "$MONITOR")
# byoc starts in an empty directory: the welcome page first (test_tui_welcome.sh), whose
# h ("start a project here") opens Decide, where these tests begin.
export E2E_CWD="$E2E_DIR/empty"
mkdir -p "$E2E_CWD"
open_here() { # SESSION
    e2e_wait "$1" "$E2E_WELCOME" "$1: the welcome page first" &&
        e2e_keys "$1" h && e2e_wait "$1" "${E2E_STEP_TITLES[0]}" "$1: h opens Decide"
}

# --- 80x24: the layout, the six steps by number ------------------------------
s=main
e2e_start $s 80 24 -- tui
open_here $s
e2e_wait $s "$DECIDE" "opens on Decide"
e2e_has $s 'profile .* region .* engine ' "status bar shows profile, region and engine"
e2e_has $s '\? help' "hint bar offers help"
e2e_has $s '1 Decide.*2 Build.*3 Push.*4 Permit.*5 Run.*6 Monitor' "the flow is on top"
e2e_has $s 'What it needs' "the step says what it needs"
for i in 2 3 4 5 6 1; do
    e2e_keys $s "$i"
    e2e_wait $s "${STEPS[$((i - 1))]}" "key $i opens step $i"
done

# --- the sidebar ----------------------------------------------------------------
e2e_keys $s Tab
e2e_wait $s 'Up move' "Tab focuses the step list (its hints show)"
for i in 1 2 3 4 5; do
    e2e_keys $s Down
    e2e_wait $s "${STEPS[$i]}" "sidebar Down reaches step $((i + 1))"
done
e2e_keys $s Down                                   # stays on the last
e2e_wait $s "$MONITOR" "sidebar stops at Monitor"
for i in 4 3; do
    e2e_keys $s k
    e2e_wait $s "${STEPS[$i]}" "sidebar k goes back to step $((i + 1))"
done
e2e_keys $s Enter
# The focused step's own actions are back in the hint bar (Permit's, where the loop above ends).
e2e_wait $s 'a allow +x revoke' "Enter gives the focus back to the step"
e2e_has $s "$PERMIT" "still on Permit"

# --- help, generated from the action table --------------------------------------
e2e_keys $s '?'
e2e_wait $s 'Help: keys and commands' "? opens help"
e2e_has $s '^. Permit step ' "help opened from Permit starts with Permit's keys"
e2e_has $s ':allow +Grant pull' "help lists :allow first"
e2e_keys $s PageDown
e2e_wait $s 'Everywhere' "then the global keys: help is grouped by context"
e2e_has $s ':goto STEP' "help lists :goto"
e2e_has $s ':next-step' "help lists :next-step"
e2e_keys $s End
e2e_wait $s 'Dialogs' "help scrolls to the last context"
e2e_has $s ':switch' "help lists the dialog actions"
# `/` filters help as it filters a list: live while typed, Enter keeps it, Esc clears it
e2e_keys $s /
e2e_type $s 'WRAP'
e2e_wait $s '^│/WRAP +[0-9]+ of [0-9]+ │' "/ starts a filter line, as in the lists"
e2e_has $s ':wrap +Wrap long lines on/off' "the filter narrows help to the matching keys (case-insensitive)"
e2e_lacks $s ':allow' "and hides the others"
e2e_keys $s Enter
e2e_wait $s '/ filter' "Enter keeps the filter (help's own keys are back in the hint bar)"
e2e_has $s ':wrap +Wrap long lines' "the kept filter still narrows help"
e2e_keys $s / C-u
e2e_type $s 'c-o'
e2e_wait $s 'v, C-o +:whole' "a key name matches too"
e2e_keys $s Escape
e2e_wait $s ':allow +Grant pull' "Esc clears the filter: every key again"
e2e_lacks $s '^│/' "and the filter line goes"
e2e_keys $s q
e2e_wait $s "$PERMIT" "q leaves help"

# --- the command prompt -----------------------------------------------------------
e2e_type $s ':goto monitor'
e2e_wait $s '^:goto monitor' "the prompt shows what is typed"
e2e_keys $s Enter
e2e_wait $s "$MONITOR" ":goto monitor works"
e2e_type $s ':frobnicate'
e2e_keys $s Enter
e2e_wait $s 'unknown command: frobnicate' "an unknown command says so"
e2e_type $s ':goto bu'
e2e_keys $s Tab
e2e_wait $s '^:goto build' "Tab completes the step name"
e2e_keys $s Enter
e2e_wait $s "$BUILD" "the completed command runs"
e2e_type $s ':he'
e2e_keys $s Tab Enter
e2e_wait $s 'Help: keys and commands' ":help (completed from :he) opens help"
e2e_keys $s Escape
e2e_wait $s "$BUILD" "Esc leaves help"
e2e_type $s ':goto nowhere'
e2e_keys $s Enter
e2e_wait $s 'goto: no step "nowhere"' "a bad argument says so"
e2e_keys $s x
e2e_wait $s 'x does nothing here' "an unbound key says so"

# --- too small, and back ------------------------------------------------------------
e2e_resize $s 60 20
e2e_wait $s 'Terminal too small' "60x20 shows the too-small notice"
e2e_has $s '60x20' "the notice gives the current size"
e2e_has $s '80x24' "the notice gives the needed size"
e2e_keys $s Escape      # Esc never quits, not even while the window is too small (q does)
e2e_resize $s 80 24
e2e_wait $s "$BUILD" "resizing back restores the screen (Esc did not quit)"
e2e_lacks $s 'Terminal too small' "the notice is gone"
e2e_resize $s 120 40
e2e_wait $s 'Steps .*2 Build' "120x40 relayouts"
e2e_resize $s 80 24
e2e_wait $s "$BUILD" "and back to 80x24"

# --- q quits cleanly ------------------------------------------------------------------
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_wait $s '^BYOC-EXITED rc=0' "the shell gets its screen back"
e2e_lacks $s 'Steps' "no TUI remains on the screen"
e2e_stop $s

# --- 120x40 from the start; help lists every action of the table; :quit ------------------
s=big
e2e_start $s 120 40 -- tui
open_here $s
e2e_wait $s "$DECIDE" "opens at 120x40"
e2e_has $s 'Keys' "the whole page fits"
e2e_keys $s '?'
e2e_wait $s 'Help: keys and commands' "help opens at 120x40"
seen="$E2E_DIR/help.txt"
: > "$seen"
page=$(e2e_capture $s)
for _ in $(seq 1 20); do                            # page through, keeping every screen
    printf '%s\n' "$page" >> "$seen"
    grep -q 'Close the dialog' "$seen" && break     # the last context's last row is in
    e2e_keys $s PageDown
    for _ in $(seq 1 $((E2E_TIMEOUT * 10))); do     # until the next page is drawn
        next=$(e2e_capture $s)
        [ "$next" != "$page" ] && break
        sleep 0.1
    done
    [ "$next" = "$page" ] && break                  # the last page: PageDown changed nothing
    page=$next
done
table="${BYOC_SOURCE_DIR:-$(dirname "$0")/../..}/tui/base/action.c"
names=$(grep -o 'ROW([A-Z_]*, [A-Z_]*, "[a-z-]*"' "$table" | sed 's/.*"\(.*\)"/\1/' | sort -u)
[ -n "$names" ] || e2e_fail "no action names found in $table"
missing=""
for n in $names; do grep -q ":$n\b" "$seen" || missing="$missing $n"; done
if [ -z "$missing" ]; then e2e_pass "help lists every action of the table ($(echo $names | wc -w))"; else
    e2e_fail "help lacks:$missing"; fi
e2e_keys $s q
e2e_wait $s "$DECIDE" "q leaves help"
e2e_type $s ':quit'
e2e_keys $s Enter
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

# --- colours: on by default, off with NO_COLOR and --no-color --------------------------
colour_codes='\[(3[0-7]|38;5;[0-9]+)m|\[[0-9;]*;3[0-7]m'
s=colour
e2e_start $s 80 24 -- tui
open_here $s
e2e_wait $s "$DECIDE" "colour run opens"
e2e_has $s "$colour_codes" "colours are used by default" -e
e2e_keys $s C-c
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

s=nocolor
e2e_start $s 80 24 NO_COLOR=1 -- tui
open_here $s
e2e_wait $s "$DECIDE" "NO_COLOR run opens"
e2e_lacks $s "$colour_codes" "NO_COLOR: no colour codes" -e
e2e_has $s '\[[0-9;]*7m' "NO_COLOR: reverse video marks the current step" -e
e2e_keys $s 3
e2e_wait $s "$PUSH" "NO_COLOR run navigates"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stty_same $s
e2e_stop $s

s=flagnocolor
e2e_start $s 80 24 -- --no-color tui
open_here $s
e2e_wait $s "$DECIDE" "--no-color run opens"
e2e_lacks $s "$colour_codes" "--no-color: no colour codes" -e
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- ASCII line drawing ---------------------------------------------------------------
s=ascii
e2e_start $s 80 24 BYOC_ASCII=1 -- tui
open_here $s
e2e_wait $s '\+- Steps -+' "BYOC_ASCII=1 draws boxes in ASCII"
e2e_lacks $s '─|│|┌' "no Unicode box drawing"
e2e_keys $s q
e2e_wait_exit $s
e2e_stop $s

s=clocale
e2e_start $s 80 24 LANG=C LC_ALL=C -- tui
open_here $s
e2e_wait $s '\+- Steps -+' "a non-UTF-8 locale falls back to ASCII"
e2e_keys $s q
e2e_wait_exit $s
e2e_expect_rc $s 0
e2e_stop $s

# --- other terminals ----------------------------------------------------------------------
for term in vt100 screen linux; do
    s=term-$term
    e2e_start $s 80 24 TERM=$term -- tui
    open_here $s
    e2e_wait $s "$DECIDE" "TERM=$term opens"
    e2e_keys $s 5
    e2e_wait $s "$RUN" "TERM=$term navigates by number"
    e2e_keys $s Tab Up
    e2e_wait $s "$PERMIT" "TERM=$term navigates by sidebar"
    e2e_keys $s Enter '?'
    e2e_wait $s 'Help: keys and commands' "TERM=$term shows help"
    e2e_keys $s Escape
    e2e_wait $s "$PERMIT" "TERM=$term: Esc leaves help"
    e2e_keys $s q
    e2e_wait_exit $s
    e2e_expect_rc $s 0
    e2e_stty_same $s
    e2e_stop $s
done

# --- TERM=dumb is refused --------------------------------------------------------------------
s=dumb
e2e_start $s 80 24 TERM=dumb -- tui
e2e_wait_exit $s
e2e_expect_rc $s 3
e2e_wait $s 'byoc: tui: this terminal \(TERM=dumb\) cannot run the TUI' "TERM=dumb gets the refusal message"
e2e_stty_same $s
e2e_stop $s
msg=$(TERM=dumb "$BYOC_BIN" tui 2>&1 </dev/null)
rc=$?
want='byoc: tui: this terminal (TERM=dumb) cannot run the TUI; use the commands instead (byoc --help)'
if [ "$msg" = "$want" ] && [ $rc -eq 3 ]; then e2e_pass "dumb: exact message and exit 3"; else
    e2e_fail "dumb: got rc=$rc [$msg], want rc=3 [$want]"; fi

# --- signals restore the terminal ---------------------------------------------------------------
for sig in TERM:143 INT:130 HUP:129; do
    name=${sig%%:*} code=${sig##*:}
    s=sig-$name
    e2e_start $s 80 24 -- tui
    open_here $s
    e2e_wait $s "$DECIDE" "SIG$name run opens"
    e2e_keys $s 2
    e2e_wait $s "$BUILD" "SIG$name run is in raw mode on Build"
    e2e_signal $s $name
    e2e_wait_exit $s
    e2e_expect_rc $s "$code"
    e2e_stty_same $s
    e2e_wait $s "^BYOC-EXITED rc=$code" "SIG$name: the shell's screen is back"
    e2e_stop $s
done

# A crash: the handler restores the terminal, then the signal's default
# action ends the process (under ASan its report ends it with exit code 1).
s=crash
e2e_start $s 80 24 -- tui
open_here $s
e2e_wait $s "$DECIDE" "crash run opens"
e2e_signal $s SEGV
e2e_wait_exit $s
rc=$(e2e_rc $s)
if [ "$rc" != 0 ]; then e2e_pass "crash: non-zero exit ($rc)"; else e2e_fail "crash: exit code 0"; fi
e2e_stty_same $s
e2e_stop $s

e2e_done
