#!/bin/bash
# Builds the two local base images the tests use, once; nothing is pulled.
#   byoc-test/busybox:1  FROM scratch + Debian's static /bin/busybox and its applet links
#   byoc-test/busybox-arm64:1  the same from Debian's busybox-static:arm64, only when
#                        BYOC_TEST_EMULATION says the host runs linux/arm64 (emulation.sh);
#                        the .deb is cached in $BYOC_TEST_CACHE_DIR
#   byoc-test/python-arm64:3  an arm64 python3.11 (Debian's python3.11-minimal, its standard
#                        library and their libraries, each .deb unpacked with dpkg-deb) on the
#                        arm64 busybox, only with arm64 emulation: a debootstrap second stage
#                        under qemu takes minutes, unpacking takes seconds; the .debs are cached
#   byoc-test/python:3   debootstrap --variant=minbase of Debian (python3, not python3-minimal),
#                        rootfs tarball cached in $BYOC_TEST_CACHE_DIR (default /var/cache/byoc-test)
#   byoc-test/python-pip:3  byoc-test/python:3 + Debian's python3-pip (apt-get in a container on the
#                        host network, committed; saved to the cache dir) without the PEP 668
#                        EXTERNALLY-MANAGED marker, so `pip install` behaves as in a python base image
#   byoc-test/toolchain:1  byoc-test/python-pip:3 + g++, cmake, make, rustc, cargo, python3-numpy
#                        (the same way, cached the same way): the journeys' offline builds
# An image already in the engine is kept. Needs the topology's dockerd (up.sh calls this).
# BYOC_TEST_SUITE picks the Debian suite (default: this machine's codename, else bookworm).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

docker_ping || die "base-images: no engine at $DOCKER_SOCK (run up.sh)"
have_image() { tdocker image inspect "$1" >/dev/null 2>&1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-base.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

build_busybox() { # build_busybox BUSYBOX IMAGE [PLATFORM]: the native one, or another arch's (run under qemu)
    local bb=$1 image=$2 platform=${3:-} root=$WORK/busybox-$RANDOM
    [ -x "$bb" ] || die "base-images: $bb missing (apt-get install busybox-static)"
    if [ -z "$platform" ] && ldd "$bb" >/dev/null 2>&1; then # ldd fails on a static binary
        die "base-images: $bb is dynamically linked; install busybox-static"
    fi
    mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,root,tmp,proc,sys,dev,var/tmp}
    chmod 1777 "$root/tmp" "$root/var/tmp"
    cp "$bb" "$root/bin/busybox"
    local applet
    while read -r applet; do
        [ -n "$applet" ] && [ ! -e "$root/$applet" ] && ln -s /bin/busybox "$root/$applet"
    done < <("$bb" --list-full)
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
    if [ -n "$platform" ]; then
        # `docker import --platform` needs an experimental 20.10 daemon; a FROM scratch build
        # with the platform records it in the image config.
        local ctx=$WORK/ctx-$RANDOM
        mkdir -p "$ctx"
        tar -C "$root" --numeric-owner --owner=0 --group=0 -cf "$ctx/rootfs.tar" .
        printf '%s\n' 'FROM scratch' 'ADD rootfs.tar /' 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' \
            'CMD ["/bin/sh"]' "LABEL org.byoc.test.base=busybox-$platform" >"$ctx/Dockerfile"
        tdocker build -q --network none --platform "$platform" -t "$image" "$ctx" >/dev/null 2>"$WORK/build.err" ||
            { cat "$WORK/build.err" >&2; die "base-images: building $image failed"; }
        return
    fi
    tar -C "$root" --numeric-owner --owner=0 --group=0 -cf - . |
        tdocker import \
            --change 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["/bin/sh"]' \
            --change 'LABEL org.byoc.test.base=busybox' \
            --message 'byoc test base: busybox-static' - "$image" >/dev/null
}

# Debian packages for arm64, downloaded (not installed) once into $CACHE_DIR/arm64-debs: needs
# arm64 among dpkg's architectures and its package lists, which this adds the first time.
# Prints the directory.
arm64_debs() {
    local dir=$CACHE_DIR/arm64-debs p missing=()
    mkdir -p "$dir"
    for p in "$@"; do
        compgen -G "$dir/${p}_*.deb" >/dev/null || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        if ! dpkg --print-foreign-architectures | grep -qx arm64; then
            dpkg --add-architecture arm64
            apt-get update -q >"$WORK/apt-update.log" 2>&1 || { tail -n 20 "$WORK/apt-update.log" >&2; die "base-images: apt-get update for arm64 failed"; }
        fi
        local names=()
        for p in "${missing[@]}"; do
            case $p in *-types | *-common) names+=("$p") ;; *) names+=("$p:arm64") ;; esac # Architecture: all
        done
        (cd "$dir" && apt-get download -q "${names[@]}" >"$WORK/apt-download.log" 2>&1) || {
            apt-get update -q >"$WORK/apt-update.log" 2>&1 # stale lists: the versions moved on
            (cd "$dir" && apt-get download -q "${names[@]}" >"$WORK/apt-download.log" 2>&1)
        } || { tail -n 20 "$WORK/apt-download.log" >&2; die "base-images: apt-get download ${names[*]} failed"; }
    fi
    printf '%s\n' "$dir"
}

# Debian's busybox-static for arm64: prints the path of its binary.
arm64_busybox() {
    local dir deb
    dir=$(arm64_debs busybox-static)
    deb=$(ls "$dir"/busybox-static_*_arm64.deb | head -n1)
    dpkg-deb -x "$deb" "$WORK/bb-arm64" || { rm -f "$deb"; die "base-images: $deb is damaged (removed; run again)"; }
    printf '%s\n' "$WORK/bb-arm64/bin/busybox"
}

# python3.11 and the libraries its standard library loads (apt-cache depends of
# python3.11-minimal and libpython3.11-stdlib, plus libssl3 for ssl/hashlib), for arm64.
ARM64_PYTHON_DEBS="libc6 libgcc-s1 gcc-12-base zlib1g libexpat1 libffi8 libbz2-1.0 liblzma5 libssl3 libuuid1
    libsqlite3-0 libncursesw6 libtinfo6 libreadline8 libcrypt1 libnsl2 libtirpc3 libgssapi-krb5-2 libk5crypto3
    libkeyutils1 libkrb5-3 libkrb5support0 libcom-err2 libdb5.3 libpython3.11-minimal libpython3.11-stdlib
    python3.11-minimal media-types busybox-static"

build_python_arm64() {
    local dir root=$WORK/py-arm64 ctx=$WORK/py-arm64-ctx deb
    # shellcheck disable=SC2086 # a list of package names
    dir=$(arm64_debs $ARM64_PYTHON_DEBS)
    mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,tmp,var/tmp,root,proc,sys,dev,etc,usr/local/bin} "$ctx"
    chmod 1777 "$root/tmp" "$root/var/tmp"
    for deb in "$dir"/*.deb; do
        dpkg-deb -x "$deb" "$root" || { rm -f "$deb"; die "base-images: $deb is damaged (removed; run again)"; }
    done
    ln -sf python3.11 "$root/usr/bin/python3"
    local applet
    while read -r applet; do # busybox's applets where Debian's packages left the name free
        [ -n "$applet" ] && [ ! -e "$root/$applet" ] && [ ! -L "$root/$applet" ] && ln -s /bin/busybox "$root/$applet"
    done < <("$root/bin/busybox" --list-full)
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' >"$root/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"
    tar -C "$root" --numeric-owner --owner=0 --group=0 -cf "$ctx/rootfs.tar" .
    printf '%s\n' 'FROM scratch' 'ADD rootfs.tar /' 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        'ENV LANG=C.UTF-8' 'CMD ["python3"]' 'LABEL org.byoc.test.base=python3-arm64' >"$ctx/Dockerfile"
    tdocker build -q --network none --platform linux/arm64 -t "$BASE_PYTHON_ARM64" "$ctx" >/dev/null 2>"$WORK/build.err" ||
        { cat "$WORK/build.err" >&2; die "base-images: building $BASE_PYTHON_ARM64 failed"; }
    tdocker run --rm --network none --platform linux/arm64 "$BASE_PYTHON_ARM64" python3 -c \
        'import json, tarfile, zipfile, urllib.request, subprocess, platform; assert platform.machine() == "aarch64"' ||
        { tdocker rmi -f "$BASE_PYTHON_ARM64" >/dev/null 2>&1; die "base-images: python3 in $BASE_PYTHON_ARM64 does not run as aarch64"; }
}

# The first Debian mirror URI the machine's apt sources use for SUITE.
apt_mirror() {
    "$(topo_python)" - "$1" <<'EOF'
import glob, re, sys
suite = sys.argv[1]
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    for stanza in open(path).read().split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line.strip().startswith("#") or ":" not in line:
                continue
            key, _, val = line.partition(":")
            fields[key.strip().lower()] = val.split()
        if "deb" in fields.get("types", []) and suite in fields.get("suites", []) \
                and fields.get("enabled", ["yes"])[0] != "no" and fields.get("uris"):
            print(fields["uris"][0]); sys.exit(0)
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        lines = open(path).read().splitlines()
    except OSError:
        continue
    for line in lines:
        words = re.sub(r"\[[^\]]*\]", " ", line.split("#", 1)[0]).split()
        if len(words) >= 3 and words[0] == "deb" and words[2] == suite:
            print(words[1]); sys.exit(0)
print("http://deb.debian.org/debian")
EOF
}

build_python() {
    local suite=${BYOC_TEST_SUITE:-}
    if [ -z "$suite" ]; then
        suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
        suite=${suite:-bookworm}
    fi
    local tarball=$CACHE_DIR/$suite-minbase-python3.tar
    if [ ! -s "$tarball" ]; then
        command -v debootstrap >/dev/null || die "base-images: debootstrap missing (apt-get install debootstrap)"
        local mirror root=$WORK/rootfs keyring=()
        mirror=$(apt_mirror "$suite")
        [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] &&
            keyring=(--keyring=/usr/share/keyrings/debian-archive-keyring.gpg)
        log "debootstrap $suite (minbase + python3) from $mirror; first run only, takes a few minutes"
        mkdir -p "$CACHE_DIR"
        if ! debootstrap --variant=minbase --include=python3 "${keyring[@]}" "$suite" "$root" "$mirror" \
                >"$WORK/debootstrap.log" 2>&1; then
            tail -n 30 "$WORK/debootstrap.log" >&2
            [ -r "$root/debootstrap/debootstrap.log" ] && tail -n 30 "$root/debootstrap/debootstrap.log" >&2
            die "base-images: debootstrap failed"
        fi
        rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
            "$root"/etc/resolv.conf "$root"/etc/hostname "$root"/debootstrap
        chroot "$root" python3 -c 'import json, tarfile' ||
            die "base-images: python3 in the rootfs lacks json/tarfile"
        tar -C "$root" --numeric-owner -cf "$tarball.part" .
        mv "$tarball.part" "$tarball"
    fi
    if ! tdocker import \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'ENV LANG=C.UTF-8' \
            --change 'CMD ["python3"]' \
            --change "LABEL org.byoc.test.base=python3-$suite" \
            --message "byoc test base: debootstrap $suite minbase + python3" "$tarball" "$BASE_PYTHON" >/dev/null; then
        rm -f "$tarball"
        die "base-images: docker import of $tarball failed (cache removed; run again)"
    fi
}

# derive IMAGE FROM CACHE-NAME LABEL SCRIPT: IMAGE is FROM + what SCRIPT (sh, run in a container
# on the host network: apt-get reaches Debian's mirror) installs, committed; saved to the cache dir
# and loaded from there next time.
derive() {
    local image=$1 from=$2 saved=$CACHE_DIR/$3.tar label=$4 script=$5 name=byoc-base-$3-$$
    if [ -s "$saved" ] && tdocker load -i "$saved" >/dev/null 2>&1 && have_image "$image"; then
        return 0
    fi
    tdocker rm -f "$name" >/dev/null 2>&1 || true
    if ! tdocker run --name "$name" --network host "$from" sh -c "$script" >"$WORK/$3.log" 2>&1; then
        tail -n 30 "$WORK/$3.log" >&2
        tdocker rm -f "$name" >/dev/null 2>&1 || true
        die "base-images: building $image from $from failed"
    fi
    tdocker commit --change 'CMD ["python3"]' --change "LABEL org.byoc.test.base=$label" \
        "$name" "$image" >/dev/null
    tdocker rm -f "$name" >/dev/null
    mkdir -p "$CACHE_DIR"
    tdocker save -o "$saved.part" "$image" && mv "$saved.part" "$saved"
}

APT_CLEAN='rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb'

build_python_pip() {
    derive "$BASE_PYTHON_PIP" "$BASE_PYTHON" python-pip-3 python3-pip \
        "export DEBIAN_FRONTEND=noninteractive; apt-get -qq update &&
         apt-get -qq install -y --no-install-recommends python3-pip >/dev/null && $APT_CLEAN &&
         rm -f /usr/lib/python3*/EXTERNALLY-MANAGED && python3 -m pip --version"
}

# The toolchains the journeys build with, offline: what byoc's C++, Rust and Python recipes
# install (install-packages then finds them all and fetches nothing), and numpy for a project
# that depends on it (pip finds it installed).
build_toolchain() {
    derive "$BASE_TOOLCHAIN" "$BASE_PYTHON_PIP" toolchain-1 toolchain \
        "export DEBIAN_FRONTEND=noninteractive; apt-get -qq update &&
         apt-get -qq install -y --no-install-recommends gcc libc6-dev make g++ cmake rustc cargo \
             python3-numpy >/dev/null && $APT_CLEAN &&
         g++ --version && cmake --version && cargo --version && python3 -c 'import numpy'"
}

if have_image "$BASE_BUSYBOX"; then
    log "base image $BASE_BUSYBOX present"
else
    log "building $BASE_BUSYBOX"
    build_busybox /bin/busybox "$BASE_BUSYBOX"
fi
if [ "${BYOC_TEST_EMULATION:-none}" = linux/arm64 ]; then
    if have_image "$BASE_BUSYBOX_ARM64"; then
        log "base image $BASE_BUSYBOX_ARM64 present"
    else
        log "building $BASE_BUSYBOX_ARM64"
        build_busybox "$(arm64_busybox)" "$BASE_BUSYBOX_ARM64" linux/arm64
    fi
    if have_image "$BASE_PYTHON_ARM64"; then
        log "base image $BASE_PYTHON_ARM64 present"
    else
        log "building $BASE_PYTHON_ARM64"
        build_python_arm64
    fi
fi
if have_image "$BASE_PYTHON"; then
    log "base image $BASE_PYTHON present"
else
    log "building $BASE_PYTHON"
    build_python
fi
if have_image "$BASE_PYTHON_PIP"; then
    log "base image $BASE_PYTHON_PIP present"
else
    log "building $BASE_PYTHON_PIP"
    build_python_pip
fi
if have_image "$BASE_TOOLCHAIN"; then
    log "base image $BASE_TOOLCHAIN present"
else
    log "building $BASE_TOOLCHAIN (g++, cmake, rustc, cargo, numpy; first run only)"
    build_toolchain
fi
