#!/usr/bin/env bash
# Install everything byoc needs to build, run and test on Debian 12 (as root).
# Idempotent: installs only what is missing, so a second run is quick.
set -euo pipefail

build_pkgs=(build-essential cmake pkg-config git ca-certificates
            libcurl4-openssl-dev libssl-dev libjansson-dev libarchive-dev libgit2-dev libexpat1-dev libyajl-dev
            libncurses-dev ncurses-term)
run_pkgs=(docker.io)
test_pkgs=(docker-registry busybox-static debootstrap debian-archive-keyring apache2-utils openssl util-linux tmux clang
           libclang-rt-14-dev valgrind python3 python3-botocore hyperfine awscli procps curl time
           man-db groff-base dpkg-dev qemu-user-static binfmt-support zsh fish
           openssh-server)

want=("${build_pkgs[@]}" "${run_pkgs[@]}")
case "${1:-}" in
  --test) want+=("${test_pkgs[@]}") ;;
  "") ;;
  *) echo "usage: scripts/deps.sh [--test]" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" != 0 ]; then
    echo "scripts/deps.sh: missing packages: ${missing[*]}; run as root" >&2
    exit 3
  fi
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # A package's service (openssh-server's sshd) is never started by the install: the tests start
  # their own on loopback. policy-rc.d says so to invoke-rc.d; one already there is kept.
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && own_policy=1
  fi
  rc=0
  apt-get install -y -q --no-install-recommends "${missing[@]}" || rc=$?
  [ "$own_policy" = 0 ] || rm -f "$policy"
  [ "$rc" = 0 ] || exit "$rc"
fi

if [ "${1:-}" = --test ]; then
  # The AWS stand-ins: moto's server mode (ECR, S3, Logs, STS, IAM) and botocore for the
  # Braket stand-in. Debian 12 ships botocore but not moto; the python3 on PATH must have it.
  if ! python3 -c 'import moto, moto.server, botocore' 2>/dev/null; then
    echo "scripts/deps.sh: the tests need python3 with moto >= 5 (server extra) and botocore:" >&2
    echo "  python3 -m pip install 'moto[server]>=5'" >&2
    exit 3
  fi
fi
