# shellcheck shell=bash disable=SC2034
# Shared settings and helpers for the test topology scripts (sourced, not run).
# Everything listens on loopback; every path can be moved with the variables below.

TOPO_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STATE=${BYOC_TOPO_DIR:-/tmp/byoc-topology}
DOCKER_ROOT=${BYOC_TEST_DOCKER_ROOT:-/var/lib/byoc-test-docker}
CACHE_DIR=${BYOC_TEST_CACHE_DIR:-/var/cache/byoc-test}
MOTO_PORT=${BYOC_TEST_MOTO_PORT:-45100}
STANDIN_PORT=${BYOC_TEST_STANDIN_PORT:-45200}
BRIDGE_PORT=${BYOC_TEST_BRIDGE_PORT:-45300}

ACCOUNT=123456789012
REGION=us-east-1
REGISTRY_HOST=$ACCOUNT.dkr.ecr.$REGION.amazonaws.com
REGISTRY_ADDR=127.0.0.1:443
DOCKER_CLI=/usr/bin/docker            # Debian's client, same version as the daemon
DOCKER_SOCK=$STATE/docker.sock
# The registry answers for the prebuilt Braket images' account too, so that pulling the prebuilt
# jobs image (decide --measure) goes to it: one registry, two names, as ECR serves every account.
PREBUILT_HOST=292282985366.dkr.ecr.$REGION.amazonaws.com
REGISTRY_HOSTS="$REGISTRY_HOST $PREBUILT_HOST"
hosts_line() { printf '127.0.0.1 %s # byoc-topology' "$1"; }
BASE_BUSYBOX=byoc-test/busybox:1
BASE_PYTHON=byoc-test/python:3
BASE_PYTHON_PIP=byoc-test/python-pip:3
BASE_TOOLCHAIN=byoc-test/toolchain:1
BASE_BUSYBOX_ARM64=byoc-test/busybox-arm64:1
BASE_PYTHON_ARM64=byoc-test/python-arm64:3

# Start order, and the order down.sh stops them in.
SERVICES="dockerd moto ecrbridge registry standin"
STOP_ORDER="standin registry ecrbridge moto dockerd"

log() { printf 'topology: %s\n' "$*" >&2; }
die() { printf 'topology: error: %s\n' "$*" >&2; exit 1; }

topo_python() {
    if [ -n "${BYOC_TEST_PYTHON:-}" ]; then
        printf '%s\n' "$BYOC_TEST_PYTHON"
    else
        python3 -c 'import sys; print(sys.executable)'
    fi
}

# A string that the command line of each service we start carries, so a recycled
# pid is never taken for ours.
svc_marker() {
    case $1 in
        dockerd)  printf '%s' "--exec-root $STATE/exec" ;;
        moto)     printf '%s' "moto.server -H 127.0.0.1 -p $MOTO_PORT" ;;
        registry) printf '%s' "$STATE/registry/config.yml" ;;
        ecrbridge) printf '%s' "ecr_bridge.py --port $BRIDGE_PORT" ;;
        standin)  printf '%s' "braket_standin.py --port $STANDIN_PORT" ;;
    esac
}

svc_pid() { cat "$STATE/$1.pid" 2>/dev/null || true; }

pid_is() { # pid_is PID MARKER: the live (not zombie) process PID has MARKER on its command line
    local pid=$1 marker=$2 state
    [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
    state=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ "$state" != Z ] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$2"
}

svc_alive() { pid_is "$(svc_pid "$1")" "$(svc_marker "$1")"; }

# Start a daemon detached from our session, stdio to its log, no inherited lock fd.
spawn() { # spawn NAME LOGFILE CMD...
    local name=$1 logfile=$2
    shift 2
    setsid "$@" </dev/null >>"$logfile" 2>&1 9>&- &
    echo $! >"$STATE/$name.pid"
}

port_busy() { # port_busy PORT: something listens on 127.0.0.1:PORT
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_until() { # wait_until SECONDS CMD...: retry CMD every 0.2 s
    local deadline=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}

docker_ping() { curl -sf --max-time 2 --unix-socket "$DOCKER_SOCK" http://localhost/_ping >/dev/null; }

tdocker() { env -u DOCKER_TLS_VERIFY -u DOCKER_CERT_PATH -u DOCKER_CONTEXT "$DOCKER_CLI" -H "unix://$DOCKER_SOCK" "$@"; }

started_add() { echo "$1" >>"$STATE/started"; }
