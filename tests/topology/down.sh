#!/bin/bash
# Stops what up.sh started (see README.md beside this file).
#   down.sh          stop the services that up.sh runs started and nobody stopped yet;
#                    does nothing when BYOC_TOPOLOGY_KEEP=1 or an `up.sh --hold` holds the topology
#   down.sh --force  stop every topology service and drop the hold
# When no service is left running it also removes the /etc/hosts line and the
# /etc/docker/certs.d entry that up.sh added, and the env file.
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

FORCE=0
for arg in "$@"; do
    case $arg in
        --force) FORCE=1 ;;
        *) die "usage: down.sh [--force]" ;;
    esac
done
[ -d "$STATE" ] || { log "nothing to stop ($STATE does not exist)"; exit 0; }
if [ "$FORCE" = 0 ]; then
    if [ "${BYOC_TOPOLOGY_KEEP:-0}" = 1 ]; then
        log "BYOC_TOPOLOGY_KEEP=1: leaving the topology running"
        exit 0
    fi
    if [ -e "$STATE/hold" ]; then
        log "held by up.sh --hold: leaving the topology running (down.sh --force stops it)"
        exit 0
    fi
fi
exec 9>"$STATE/lock"
flock 9

# Processes whose command line names our exec root: dockerd's containerd and shims.
engine_leftovers() {
    local dir pid
    for dir in /proc/[0-9]*; do
        pid=${dir#/proc/}
        pid_is "$pid" "$STATE/exec/" && echo "$pid"
    done
    return 0
}

pid_gone() { ! pid_is "$1" "$2"; }

stop_pid() { # stop_pid PID MARKER GRACE_SECONDS
    local pid=$1 marker=$2 grace=$3
    pid_is "$pid" "$marker" || return 0
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_until "$grace" pid_gone "$pid" "$marker"; then
        log "pid $pid did not stop in ${grace}s; killing it"
        kill -KILL "$pid" 2>/dev/null || true
        wait_until 5 pid_gone "$pid" "$marker" || true
    fi
}

stop_service() {
    local name=$1 pid
    pid=$(svc_pid "$name")
    if svc_alive "$name"; then
        log "stopping $name (pid $pid)"
        case $name in
            dockerd) stop_pid "$pid" "$(svc_marker dockerd)" 60 ;;
            *) stop_pid "$pid" "$(svc_marker "$name")" 15 ;;
        esac
    fi
    if [ "$name" = dockerd ]; then
        local left
        for left in $(engine_leftovers); do
            log "stopping leftover engine process $left"
            stop_pid "$left" "$STATE/exec/" 10
        done
        rm -f "$DOCKER_SOCK" "$STATE/dockerd.pidfile"
    fi
    rm -f "$STATE/$name.pid"
}

if [ "$FORCE" = 1 ]; then
    targets=$SERVICES
else
    targets=$(sort -u "$STATE/started" 2>/dev/null | tr '\n' ' ' || true)
fi
for name in $STOP_ORDER; do
    case " $targets " in *" $name "*) stop_service "$name" ;; esac
done
rm -f "$STATE/started"
[ "$FORCE" = 1 ] && rm -f "$STATE/hold"

still=""
for name in $SERVICES; do svc_alive "$name" && still="$still $name"; done
if [ -n "$still" ]; then
    log "still running (not started by this up.sh run):$still"
    exit 0
fi
# Markers: hosts-added.<host> and certsd-added.<host> (hosts-added and certsd-added from older runs).
[ -e "$STATE/hosts-added" ] && mv "$STATE/hosts-added" "$STATE/hosts-added.$REGISTRY_HOST"
[ -e "$STATE/certsd-added" ] && mv "$STATE/certsd-added" "$STATE/certsd-added.$REGISTRY_HOST"
for host in $REGISTRY_HOSTS; do
    line=$(hosts_line "$host")
    if [ -e "$STATE/hosts-added.$host" ]; then
        if grep -qxF "$line" /etc/hosts; then
            grep -vxF "$line" /etc/hosts >"$STATE/hosts.new" || true
            cat "$STATE/hosts.new" >/etc/hosts # keep the inode: /etc/hosts may be a bind mount
            rm -f "$STATE/hosts.new"
        fi
        rm -f "$STATE/hosts-added.$host"
    fi
    if [ -e "$STATE/certsd-added.$host" ]; then
        rm -rf "/etc/docker/certs.d/$host"
        rm -f "$STATE/certsd-added.$host"
    fi
done
rm -f "$STATE/env" "$STATE/env.sh" "$STATE/standin-credentials.json" "$STATE/moto-check.err" "$STATE/ecr-bridge.json"
log "topology stopped"
