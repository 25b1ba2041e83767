#!/bin/bash
# Resize storms on every screen: the welcome page (byoc starts in an empty directory), the
# six steps, help and the command prompt, for
# TERM xterm-256color, screen, vt100 and linux (and NO_COLOR): a burst of sizes from
# 40x10 to 300x100 with no pause between them, then a usable size again. byoc must stay
# up, redraw the screen it was on, show the too-small notice at 40x10, and quit cleanly
# with the terminal as it found it. (Under the ASan build every storm is also a memory
# check of the layout code.)
. "$(dirname "$0")/lib.sh"

STEPS=("${E2E_STEP_TITLES[@]}")
export E2E_CWD="$E2E_DIR/empty"                 # no byoc.json: byoc opens on the welcome page
mkdir -p "$E2E_CWD"
SIZES=(40x10 300x100 41x11 299x99 80x24 45x12 250x90 120x40 60x15 200x60 79x23 300x10 40x100 160x48 43x13
       280x95 100x30 52x14 220x70 81x25 40x10 300x100 90x28 64x20 180x55 150x45 70x21 240x80 110x35 300x100)

storm() { # SESSION: every size at once, no waiting
    local s=$1 wh
    for wh in "${SIZES[@]}"; do e2e_resize_nowait "$s" "${wh%x*}" "${wh#*x}"; done
}

alive() { # SESSION WHAT
    if [ -s "$E2E_DIR/$1/rc" ]; then
        e2e_fail "$1: byoc exited during $2 (rc $(e2e_rc "$1"))"
        e2e_capture "$1" | sed 's/^/    | /' >&2
        return 1
    fi
    e2e_pass "$1: alive after $2"
}

storm_on() { # SESSION REGEX WHAT: a storm on the screen showing REGEX, redrawn at 80x24 after it
    local s=$1 re=$2 what=$3
    e2e_wait "$s" "$re" "$what"
    storm "$s"
    e2e_resize "$s" 80 24
    alive "$s" "a storm on $what" || return 1
    e2e_wait "$s" "$re" "$what redrawn at 80x24 after the storm"
}

more_screens() { # SESSION: the screens below the steps (starts and ends on step 6)
    local s=$1
    e2e_keys "$s" i
    storm_on "$s" 'Images: local engine' "the local image browser" || return 1
    e2e_wait "$s" 'Local images on the Docker engine +[1-9]' "the images listed (d needs a selected one)"
    e2e_keys "$s" d                              # asks first; Escape answers No
    storm_on "$s" 'Delete image\?' "a confirmation dialog" || return 1
    e2e_keys "$s" Escape
    e2e_wait_gone "$s" 'Delete image\?' "the dialog closes"
    e2e_keys "$s" e
    storm_on "$s" 'Images: Amazon ECR' "the ECR repositories" || return 1
    e2e_wait "$s" 'ECR repositories in [a-z0-9-]+  [0-9]+' "the repositories listed"
    if e2e_capture "$s" | grep -Eq 'ECR repositories in [a-z0-9-]+  [1-9]'; then    # one to open
        e2e_keys "$s" Enter
        storm_on "$s" 'Images: ECR ' "an ECR repository's images" || return 1
        e2e_keys "$s" q
    fi
    e2e_keys "$s" q
    e2e_wait "$s" 'Images: local engine' "back to the local images"
    e2e_keys "$s" q
    e2e_keys "$s" 6
    e2e_wait "$s" "${STEPS[5]}" "back on Monitor"
    e2e_wait "$s" 'updated [0-9]' "the jobs listed"
    if e2e_capture "$s" | grep -Eq '[0-9]+/[0-9]+ '; then    # a job to open
        e2e_keys "$s" Enter
        storm_on "$s" '6 Monitor: [^0-9]' "a job's detail" || return 1
        e2e_keys "$s" q
        e2e_wait "$s" "${STEPS[5]}" "back on the jobs table"
    fi
}

run_storms() { # SESSION-NAME ENV...
    local s=$1
    shift
    e2e_start "$s" 80 24 "$@" -- tui
    storm_on "$s" "$E2E_WELCOME" "the welcome page" || return
    local i
    for i in 1 2 3 4 5 6; do
        e2e_keys "$s" "$i"
        e2e_wait "$s" "${STEPS[$((i - 1))]}" "step $i"
        storm "$s"
        e2e_resize "$s" 80 24
        alive "$s" "a storm on step $i" || return
        e2e_wait "$s" "${STEPS[$((i - 1))]}" "step $i redrawn at 80x24 after the storm"
    done
    # help
    e2e_keys "$s" '?'
    e2e_wait "$s" 'Help: keys and commands' "help opens"
    storm "$s"
    e2e_resize "$s" 100 30
    alive "$s" "a storm on help" || return
    e2e_wait "$s" 'Help: keys and commands' "help redrawn after the storm"
    e2e_keys "$s" Escape
    e2e_wait "$s" "${STEPS[5]}" "back on the step"
    [ "${EXTRA:-}" = 1 ] && { more_screens "$s" || return; }
    # the command prompt, half typed
    e2e_type "$s" ':goto bui'
    e2e_wait "$s" '^:goto bui' "prompt open"
    storm "$s"
    e2e_resize "$s" 80 24
    alive "$s" "a storm with the prompt open" || return
    e2e_wait "$s" ':goto bui' "the prompt keeps its text"
    e2e_keys "$s" Tab Enter
    e2e_wait "$s" "${STEPS[1]}" "the prompt still works after the storm"
    # too small, then big
    e2e_resize "$s" 40 10
    e2e_wait "$s" 'too small' "40x10 shows the too-small notice"
    e2e_resize "$s" 300 100
    e2e_wait "$s" "${STEPS[1]}" "300x100 draws the step"
    e2e_resize "$s" 80 24                       # the size stty recorded before byoc started
    e2e_wait "$s" "${STEPS[1]}" "80x24 again"
    e2e_keys "$s" q
    e2e_wait_exit "$s"
    e2e_expect_rc "$s" 0
    e2e_stty_same "$s"
    e2e_stop "$s"
}

EXTRA=1 run_storms xterm TERM=xterm-256color
run_storms screen TERM=screen
run_storms vt100 TERM=vt100
run_storms linux TERM=linux
run_storms nocolor TERM=xterm-256color NO_COLOR=1

e2e_done
