#!/bin/bash
# Starts the test topology on loopback (see README.md beside this file) and writes
# $BYOC_TOPO_DIR/env (default /tmp/byoc-topology/env) for with-env.sh.
#   up.sh          start what is not running, reuse what is (idempotent)
#   up.sh --hold   the same, and mark the topology held: plain down.sh runs (ctest's
#                  fixture) leave it running until `down.sh --force`
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

HOLD=0
for arg in "$@"; do
    case $arg in
        --hold) HOLD=1 ;;
        *) die "usage: up.sh [--hold]" ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die "up.sh must run as root (dockerd, port 443, /etc/hosts)"
for tool in dockerd "$DOCKER_CLI" /usr/bin/docker-registry htpasswd openssl curl setsid flock; do
    command -v "$tool" >/dev/null || die "missing $tool (see README.md: apt packages)"
done

mkdir -p "$STATE"
chmod 700 "$STATE"
exec 9>"$STATE/lock"
flock 9
T0=$SECONDS
PY=$(topo_python)
"$PY" -c 'import moto, boto3, botocore' 2>/dev/null || die "$PY lacks moto/boto3/botocore"

# Proxies must not see loopback traffic, and dockerd must not send registry traffic to one.
NO_PROXY_LIST="127.0.0.1,localhost,::1,$REGISTRY_HOST,$PREBUILT_HOST"
PROXYLESS=(env -u http_proxy -u https_proxy -u HTTP_PROXY -u HTTPS_PROXY -u all_proxy -u ALL_PROXY
    "NO_PROXY=$NO_PROXY_LIST" "no_proxy=$NO_PROXY_LIST")

# ---- TLS and /etc/hosts (before dockerd: Go caches /etc/hosts for a few seconds) ----
TLS=$STATE/tls
if [ ! -s "$TLS/server.crt" ] || [ ! -s "$TLS/ca.crt" ]; then
    log "making the test CA and the registry certificate"
    mkdir -p "$TLS"
    chmod 700 "$TLS"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=byoc test CA" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -keyout "$TLS/ca.key" -out "$TLS/ca.crt" 2>/dev/null
fi
# The registry's certificate names every host it answers for (made again when a name is new).
if [ ! -s "$TLS/server.crt" ] || ! grep -q "DNS:$PREBUILT_HOST," "$TLS/server.ext" 2>/dev/null; then
    openssl req -newkey rsa:2048 -nodes -subj "/CN=$REGISTRY_HOST" \
        -keyout "$TLS/server.key" -out "$TLS/server.csr" 2>/dev/null
    printf 'subjectAltName=DNS:%s,DNS:%s,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' \
        "$REGISTRY_HOST" "$PREBUILT_HOST" >"$TLS/server.ext"
    openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -CAcreateserial \
        -days 3650 -extfile "$TLS/server.ext" -out "$TLS/server.crt" 2>/dev/null
fi
for host in $REGISTRY_HOSTS; do
    certs_d=/etc/docker/certs.d/$host
    if ! cmp -s "$TLS/ca.crt" "$certs_d/ca.crt"; then
        [ -e "$certs_d" ] || touch "$STATE/certsd-added.$host"
        mkdir -p "$certs_d"
        cp "$TLS/ca.crt" "$certs_d/ca.crt"
    fi
    line=$(hosts_line "$host")
    if grep -qxF "$line" /etc/hosts; then
        touch "$STATE/hosts-added.$host" # our own line, maybe left by a run whose state dir is gone
    elif ! grep -qE "^[[:space:]]*127\.0\.0\.1[[:space:]]+([^#]*[[:space:]])?${host//./\\.}([[:space:]]|$)" /etc/hosts; then
        printf '%s\n' "$line" >>/etc/hosts
        touch "$STATE/hosts-added.$host"
    fi
done

# ---- dockerd -----------------------------------------------------------------------
start_dockerd() {
    mkdir -p "$DOCKER_ROOT" "$STATE/exec"
    echo '{}' >"$STATE/daemon.json"
    rm -f "$STATE/dockerd.pid" "$DOCKER_SOCK"
    log "starting dockerd (socket $DOCKER_SOCK, data root $DOCKER_ROOT)"
    spawn dockerd "$STATE/dockerd.log" "${PROXYLESS[@]}" dockerd \
        --config-file "$STATE/daemon.json" \
        --host "unix://$DOCKER_SOCK" \
        --data-root "$DOCKER_ROOT" \
        --exec-root "$STATE/exec" \
        --pidfile "$STATE/dockerd.pidfile" \
        --containerd-namespace byoc-test \
        --containerd-plugins-namespace byoc-test-plugins \
        --bridge=none --iptables=false --ip-masq=false --ip-forward=false
    wait_until 60 docker_ping || { tail -n 20 "$STATE/dockerd.log" >&2; die "dockerd did not answer /_ping"; }
    started_add dockerd
}
if svc_alive dockerd && docker_ping; then
    log "reusing dockerd (pid $(svc_pid dockerd))"
else
    svc_alive dockerd && die "dockerd pid $(svc_pid dockerd) is alive but does not answer; run down.sh --force"
    start_dockerd
fi

# ---- emulation (qemu-user-static through binfmt_misc) ------------------------------------
EMULATION=$("$TOPO_SRC/emulation.sh")
EMULATION_REASON=""
case $EMULATION in
    none:*) EMULATION_REASON=${EMULATION#none: }; EMULATION=none
            log "no arm64 emulation: $EMULATION_REASON (the tests that need it skip)" ;;
    *) log "emulated platforms: $EMULATION" ;;
esac

BYOC_TEST_EMULATION=$EMULATION "$TOPO_SRC/base-images.sh"

# ---- moto --------------------------------------------------------------------------
MOTO_URL=http://127.0.0.1:$MOTO_PORT
moto_facts=""
read_env_key() { sed -n "s/^$1=//p" "$STATE/env" 2>/dev/null | head -n1; }
if svc_alive moto; then
    if moto_facts=$(AWS_ACCESS_KEY_ID=$(read_env_key AWS_ACCESS_KEY_ID) \
            AWS_SECRET_ACCESS_KEY=$(read_env_key AWS_SECRET_ACCESS_KEY) \
            "${PROXYLESS[@]}" "$PY" "$TOPO_SRC/moto_bootstrap.py" check "$MOTO_URL" 2>"$STATE/moto-check.err"); then
        log "reusing moto_server (pid $(svc_pid moto))"
    else
        die "moto_server pid $(svc_pid moto) is alive but the key in $STATE/env fails ($(cat "$STATE/moto-check.err")); run down.sh --force"
    fi
else
    port_busy "$MOTO_PORT" && die "127.0.0.1:$MOTO_PORT is taken by another program (set BYOC_TEST_MOTO_PORT)"
    log "starting moto_server on $MOTO_URL"
    # 3 = the requests moto_bootstrap.py spends on the IAM user, its key and its policy.
    spawn moto "$STATE/moto.log" "${PROXYLESS[@]}" INITIAL_NO_AUTH_ACTION_COUNT=3 MOTO_ACCOUNT_ID=$ACCOUNT \
        "$PY" -m moto.server -H 127.0.0.1 -p "$MOTO_PORT"
    wait_until 60 port_busy "$MOTO_PORT" || { tail -n 20 "$STATE/moto.log" >&2; die "moto_server did not listen"; }
    moto_facts=$("${PROXYLESS[@]}" "$PY" "$TOPO_SRC/moto_bootstrap.py" bootstrap "$MOTO_URL") ||
        die "moto bootstrap failed (see above)"
    started_add moto
fi
fact() { printf '%s\n' "$moto_facts" | sed -n "s/^$1=//p"; }
KEY_ID=$(fact ACCESS_KEY_ID)
SECRET=$(fact SECRET_ACCESS_KEY)
[ "$(fact ACCOUNT)" = "$ACCOUNT" ] || die "moto runs as account $(fact ACCOUNT), expected $ACCOUNT"
[ "$(fact ECR_PROXY_ENDPOINT)" = "https://$REGISTRY_HOST" ] ||
    die "moto's ECR endpoint is $(fact ECR_PROXY_ENDPOINT), expected https://$REGISTRY_HOST"

# ---- registry -> moto bridge (ECR lists what the registry stores, as on real ECR) ---
BRIDGE_URL=http://127.0.0.1:$BRIDGE_PORT
bridge_health() { curl -sf --max-time 2 --noproxy '*' "$BRIDGE_URL/health" >/dev/null; }
[ -s "$STATE/ecr-bridge.token" ] || (umask 077 && openssl rand -hex 16 >"$STATE/ecr-bridge.token")
BRIDGE_TOKEN=$(cat "$STATE/ecr-bridge.token")
(
    umask 077
    printf '{"moto_url": "%s", "region": "%s", "access_key_id": "%s", "secret_access_key": "%s", "registry_url": "https://%s", "registry_ca": "%s", "registry_user": "%s", "registry_password": "%s", "token": "%s"}\n' \
        "$MOTO_URL" "$REGION" "$KEY_ID" "$SECRET" "$REGISTRY_HOST" "$TLS/ca.crt" "$(fact ECR_USER)" \
        "$(fact ECR_PASSWORD)" "$BRIDGE_TOKEN" >"$STATE/ecr-bridge.json.part"
)
mv "$STATE/ecr-bridge.json.part" "$STATE/ecr-bridge.json" # the bridge reads it for every event
if svc_alive ecrbridge && bridge_health; then
    log "reusing the ECR bridge (pid $(svc_pid ecrbridge))"
else
    svc_alive ecrbridge && die "ECR bridge pid $(svc_pid ecrbridge) is alive but does not answer; run down.sh --force"
    port_busy "$BRIDGE_PORT" && die "127.0.0.1:$BRIDGE_PORT is taken by another program (set BYOC_TEST_BRIDGE_PORT)"
    log "starting the registry -> moto ECR bridge on $BRIDGE_URL"
    spawn ecrbridge "$STATE/ecr-bridge.out" "${PROXYLESS[@]}" "$PY" "$TOPO_SRC/ecr_bridge.py" --port "$BRIDGE_PORT" \
        --host 127.0.0.1 --config "$STATE/ecr-bridge.json" --log "$STATE/ecr-bridge.log"
    wait_until 30 bridge_health || { tail -n 20 "$STATE/ecr-bridge.out" >&2; die "the ECR bridge did not answer"; }
    started_add ecrbridge
fi

# ---- registry ----------------------------------------------------------------------
registry_answers() { # the registry asks for credentials over TLS with our CA
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 --noproxy '*' --cacert "$TLS/ca.crt" \
        "https://$REGISTRY_HOST/v2/")" = 401 ]
}
registry_selfcheck() { # log in with moto's ECR token and push a tiny image with Debian's client
    local cfg ref=$REGISTRY_HOST/byoc-topology/selfcheck:1
    cfg=$(mktemp -d "$STATE/selfcheck.XXXXXX")
    local ok=0
    if printf '%s' "$(fact ECR_PASSWORD)" |
        DOCKER_CONFIG=$cfg tdocker login -u "$(fact ECR_USER)" --password-stdin "$REGISTRY_HOST" >/dev/null 2>"$cfg/err" &&
        tdocker tag "$BASE_BUSYBOX" "$ref" &&
        DOCKER_CONFIG=$cfg tdocker push "$ref" >/dev/null 2>>"$cfg/err"; then
        ok=1
    fi
    tdocker rmi "$ref" >/dev/null 2>&1 || true
    [ "$ok" = 1 ] || { cat "$cfg/err" >&2; rm -rf "$cfg"; return 1; }
    rm -rf "$cfg"
}
REG=$STATE/registry
write_registry_config() { # keeps the http secret of an existing config, so upload sessions stay valid
    local secret
    # Keep the secret of an existing config (a restart must not invalidate upload sessions); none on a fresh start.
    secret=""
    [ -f "$REG/config.yml" ] && secret=$(sed -n 's/^  secret: //p' "$REG/config.yml" | head -n1)
    [ -n "$secret" ] || secret=$(openssl rand -hex 16)
    (umask 077 && cat >"$REG/config.yml.part" <<EOF
version: 0.1
log:
  level: info
storage:
  filesystem:
    rootdirectory: $REG/data
  delete:
    enabled: true
  maintenance:
    uploadpurging:
      enabled: false
http:
  addr: $REGISTRY_ADDR
  secret: $secret
  tls:
    certificate: $TLS/server.crt
    key: $TLS/server.key
auth:
  htpasswd:
    realm: https://$REGISTRY_HOST/
    path: $REG/htpasswd
notifications:
  events:
    includereferences: true
  endpoints:
    - name: byoc-ecr-bridge
      url: $BRIDGE_URL/events
      headers:
        Authorization: [Bearer $BRIDGE_TOKEN]
      timeout: 5s
      threshold: 3
      backoff: 1s
      ignore:
        mediatypes:
          - application/octet-stream
        actions:
          - pull
EOF
    )
    mv "$REG/config.yml.part" "$REG/config.yml"
}
registry_bridged() { grep -qF "Bearer $BRIDGE_TOKEN" "$REG/config.yml" 2>/dev/null && grep -qF "$BRIDGE_URL/events" "$REG/config.yml"; }
registry_stopped() { ! pid_is "$1" "$(svc_marker registry)"; }
start_registry() {
    spawn registry "$STATE/registry.log" "${PROXYLESS[@]}" /usr/bin/docker-registry serve "$REG/config.yml"
    wait_until 30 registry_answers || { tail -n 20 "$STATE/registry.log" >&2; die "registry did not answer"; }
    started_add registry
    registry_selfcheck || die "login + push to $REGISTRY_HOST with moto's ECR token failed"
}
if svc_alive registry && registry_answers && registry_bridged; then
    log "reusing registry (pid $(svc_pid registry))"
elif svc_alive registry && registry_answers; then
    # Started before the ECR bridge existed: restart it with notifications, keeping its storage.
    old=$(svc_pid registry)
    log "restarting registry (pid $old) so that it notifies the ECR bridge; its storage is kept"
    kill -TERM "$old" 2>/dev/null || true
    wait_until 15 registry_stopped "$old" || { kill -KILL "$old" 2>/dev/null || true; wait_until 5 registry_stopped "$old" || true; }
    write_registry_config
    start_registry
else
    svc_alive registry && die "registry pid $(svc_pid registry) is alive but does not answer; run down.sh --force"
    port_busy 443 && die "127.0.0.1:443 is taken by another program"
    log "starting registry on https://$REGISTRY_HOST ($REGISTRY_ADDR)"
    rm -rf "$REG/data"
    mkdir -p "$REG/data"
    printf '%s' "$(fact ECR_PASSWORD)" | htpasswd -iBn "$(fact ECR_USER)" >"$REG/htpasswd" 2>/dev/null
    chmod 600 "$REG/htpasswd"
    rm -f "$REG/config.yml"
    write_registry_config
    start_registry
fi

# ---- Braket stand-in ------------------------------------------------------------------
STANDIN_URL=http://127.0.0.1:$STANDIN_PORT
standin_health() { curl -sf --max-time 2 --noproxy '*' "$STANDIN_URL/_standin/health" >/dev/null; }
(umask 077 && printf '[{"accessKeyId": "%s", "secretAccessKey": "%s"}]\n' "$KEY_ID" "$SECRET" \
    >"$STATE/standin-credentials.json")
if svc_alive standin && standin_health; then
    log "reusing Braket stand-in (pid $(svc_pid standin))"
    printf '{"accessKeyId": "%s", "secretAccessKey": "%s"}' "$KEY_ID" "$SECRET" |
        curl -sf --noproxy '*' -X POST --data-binary @- "$STANDIN_URL/_standin/credentials" >/dev/null ||
        die "could not hand the moto key to the stand-in"
else
    svc_alive standin && die "stand-in pid $(svc_pid standin) is alive but does not answer; run down.sh --force"
    port_busy "$STANDIN_PORT" && die "127.0.0.1:$STANDIN_PORT is taken by another program (set BYOC_TEST_STANDIN_PORT)"
    log "starting the Braket stand-in on $STANDIN_URL"
    spawn standin "$STATE/standin.out" "${PROXYLESS[@]}" "$PY" "$TOPO_SRC/braket_standin.py" --port "$STANDIN_PORT" \
        --host 127.0.0.1 --account "$ACCOUNT" --credentials-file "$STATE/standin-credentials.json" \
        --log "$STATE/braket.log"
    wait_until 30 standin_health || { tail -n 20 "$STATE/standin.out" >&2; die "the stand-in did not answer"; }
    started_add standin
fi

# ---- env -------------------------------------------------------------------------------
mkdir -p "$STATE/aws" "$STATE/docker-config"
: >"$STATE/aws/config"
: >"$STATE/aws/credentials"
[ -s "$STATE/docker-config/config.json" ] || echo '{}' >"$STATE/docker-config/config.json"
ENV_VARS=(
    "BYOC_TOPO_DIR=$STATE"
    "DOCKER_HOST=unix://$DOCKER_SOCK"
    "DOCKER_CONFIG=$STATE/docker-config"
    "BYOC_TEST_DOCKER_CLI=$DOCKER_CLI"
    "BYOC_TEST_REGISTRY=$REGISTRY_HOST"
    "BYOC_TEST_PREBUILT_REGISTRY=$PREBUILT_HOST"
    "BYOC_TEST_REGISTRY_CA=$TLS/ca.crt"
    "BYOC_TEST_ACCOUNT=$ACCOUNT"
    "BYOC_TEST_BASE_BUSYBOX=$BASE_BUSYBOX"
    "BYOC_TEST_BASE_PYTHON=$BASE_PYTHON"
    "BYOC_TEST_BASE_TOOLCHAIN=$BASE_TOOLCHAIN"
    "BYOC_TEST_EMULATION=$EMULATION"
    "BYOC_TEST_EMULATION_REASON=$EMULATION_REASON"
    "BYOC_TEST_BASE_BUSYBOX_ARM64=$([ "$EMULATION" = none ] || echo "$BASE_BUSYBOX_ARM64")"
    "BYOC_TEST_BASE_PYTHON_ARM64=$([ "$EMULATION" = none ] || echo "$BASE_PYTHON_ARM64")"
    "BYOC_TEST_MOTO_URL=$MOTO_URL"
    "BYOC_STANDIN_URL=$STANDIN_URL"
    "BYOC_STANDIN_CONTROL=$STANDIN_URL/_standin"
    "BYOC_TEST_ECR_BRIDGE_URL=$BRIDGE_URL"
    "AWS_ENDPOINT_URL=$MOTO_URL"
    "AWS_ENDPOINT_URL_BRAKET=$STANDIN_URL"
    "AWS_ACCESS_KEY_ID=$KEY_ID"
    "AWS_SECRET_ACCESS_KEY=$SECRET"
    "AWS_DEFAULT_REGION=$REGION"
    "AWS_REGION=$REGION"
    "AWS_CONFIG_FILE=$STATE/aws/config"
    "AWS_SHARED_CREDENTIALS_FILE=$STATE/aws/credentials"
    "AWS_EC2_METADATA_DISABLED=true"
    "NO_PROXY=$NO_PROXY_LIST"
    "no_proxy=$NO_PROXY_LIST"
)
(
    umask 077
    printf '%s\n' "${ENV_VARS[@]}" >"$STATE/env.part"
    for kv in "${ENV_VARS[@]}"; do printf "export %s='%s'\n" "${kv%%=*}" "${kv#*=}"; done >"$STATE/env.sh.part"
)
mv "$STATE/env.part" "$STATE/env"
mv "$STATE/env.sh.part" "$STATE/env.sh"

if [ "$HOLD" = 1 ]; then
    touch "$STATE/hold"
    log "held: plain down.sh runs leave the topology up; stop it with down.sh --force"
fi
log "ready in $((SECONDS - T0)) s; env in $STATE/env (run tests with tests/topology/with-env.sh CMD)"
