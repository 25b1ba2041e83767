#!/usr/bin/env bash
# assets/entrypoint/install-packages decides what to install: only the packages the image lacks,
# and nothing at all (no package lists fetched, no network) when every one is there.
# Each package manager it supports is stood in for by small scripts on an otherwise empty PATH:
# the lookup tool (dpkg-query, rpm, apk info -e) answers from $INSTALLED, and every call that
# would change the system (apt-get, dnf, microdnf, yum, apk add, zypper, rm) is only logged.
set -euo pipefail
src=${BYOC_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
script=$src/assets/entrypoint/install-packages
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# stubs MANAGER: a bin directory with that manager's tools (and no other manager's)
stubs() {
    local bin=$work/bin-$1
    rm -rf "$bin"
    mkdir -p "$bin"
    # shellcheck disable=SC2016 # the stubs expand their own variables
    local log='printf "%s\n" "${0##*/} $*" >>"$LOG"'
    # shellcheck disable=SC2016
    local has='case " $INSTALLED " in *" $1 "*) ;; *) exit 1 ;; esac'
    # rm: only what it was asked (its glob expands against this machine's files)
    # shellcheck disable=SC2016
    printf '#!/bin/sh\nprintf "%%s\\n" "rm $1" >>"$LOG"\n' >"$bin/rm"
    case $1 in
        apt)
            printf '#!/bin/sh\n%s\n' "$log" >"$bin/apt-get"
            # dpkg-query -W -f='${Status}' NAME: a removed package keeps its config files
            # shellcheck disable=SC2016
            printf '#!/bin/sh\nshift 2\ncase " $REMOVED " in *" $1 "*) printf "deinstall ok config-files"; exit 0 ;; esac\n%s\nprintf "install ok installed"\n' \
                "$has" >"$bin/dpkg-query"
            ;;
        apk)
            # apk info -e NAME looks; apk add installs
            # shellcheck disable=SC2016
            printf '#!/bin/sh\nif [ "$1" = info ]; then shift 2; %s; exit 0; fi\n%s\n' "$has" "$log" >"$bin/apk"
            ;;
        *)
            printf '#!/bin/sh\n%s\n' "$log" >"$bin/$1"
            # shellcheck disable=SC2016
            printf '#!/bin/sh\nshift\n%s\n' "$has" >"$bin/rpm"
            ;;
    esac
    chmod 755 "$bin"/*
    printf '%s\n' "$bin"
}

# run MANAGER "INSTALLED" NAME...: runs the script; sets RC, OUT (its output) and CALLS (the log)
run() {
    local mgr=$1 installed=$2 bin
    shift 2
    bin=$(stubs "$mgr")
    : >"$work/log"
    set +e
    OUT=$(env -i PATH="$bin" LOG="$work/log" INSTALLED="$installed" REMOVED="${REMOVED:-}" /bin/sh "$script" "$@" 2>&1)
    RC=$?
    set -e
    CALLS=$(cat "$work/log")
}

expect_calls() { # WHAT WANT
    if [ "$CALLS" = "$2" ]; then ok "$1"; else bad "$1: calls [$CALLS], want [$2] (output: $OUT)"; fi
}

# ---- apt (Debian, Ubuntu) ----
run apt "gcc libc6-dev make g++ cmake" build-tools g++ cmake
[ "$RC" = 0 ] || bad "apt, all present: exit $RC ($OUT)"
expect_calls "apt, all present: no apt-get update, no install" ""
case $OUT in *"already installed: gcc libc6-dev make g++ cmake"*"nothing to install"*) ok "apt, all present: says so" ;;
    *) bad "apt, all present: output [$OUT]" ;; esac

run apt "gcc make" build-tools cmake
[ "$RC" = 0 ] || bad "apt, some missing: exit $RC ($OUT)"
expect_calls "apt, some missing: only those are installed" "apt-get update
apt-get install -y --no-install-recommends libc6-dev cmake
rm -rf"

REMOVED=cmake run apt "cmake" cmake
expect_calls "apt, a removed package (config files left) is installed again" "apt-get update
apt-get install -y --no-install-recommends cmake
rm -rf"

# ---- rpm-based (dnf, microdnf, yum, zypper) ----
for mgr in dnf microdnf yum; do
    run "$mgr" "gcc glibc-devel make gcc-c++" build-tools g++
    expect_calls "$mgr, all present: nothing run" ""
    run "$mgr" "gcc glibc-devel make" build-tools g++ cmake
    expect_calls "$mgr, some missing: only those" "$mgr install -y gcc-c++ cmake
$mgr clean all"
done
run zypper "git" git
expect_calls "zypper, all present: nothing run" ""
run zypper "" git
expect_calls "zypper, missing: installed" "zypper --non-interactive install --no-recommends git
zypper clean --all"

# ---- apk (Alpine) ----
run apk "python3 py3-pip" python3 python3-pip
expect_calls "apk, all present: no apk add" ""
run apk "python3" python3 python3-pip
expect_calls "apk, some missing: only those" "apk add --no-cache py3-pip"

# ---- no package manager ----
run none "" cmake
[ "$RC" = 1 ] || bad "no package manager: exit $RC, want 1"
case $OUT in *"no known package manager"*) ok "no package manager: says so" ;; *) bad "no package manager: [$OUT]" ;; esac

[ "$fails" = 0 ] && echo "all passed"
exit "$fails"
