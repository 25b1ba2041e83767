#!/bin/bash
# Builds the two local base images the tests use, once; nothing is pulled.
#   byoc-test/busybox:1  FROM scratch + Debian's static /bin/busybox and its applet links
#   byoc-test/python:3   debootstrap --variant=minbase of Debian (python3, not python3-minimal),
#                        rootfs tarball cached in $BYOC_TEST_CACHE_DIR (default /var/cache/byoc-test)
#   byoc-test/python-pip:3  byoc-test/python:3 + Debian's python3-pip (apt-get in a container on the
#                        host network, committed; saved to the cache dir) without the PEP 668
#                        EXTERNALLY-MANAGED marker, so `pip install` behaves as in a python base image
# An image already in the engine is kept. Needs the topology's dockerd (up.sh calls this).
# BYOC_TEST_SUITE picks the Debian suite (default: this machine's codename, else bookworm).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

docker_ping || die "base-images: no engine at $DOCKER_SOCK (run up.sh)"
have_image() { tdocker image inspect "$1" >/dev/null 2>&1; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/byoc-base.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

build_busybox() {
    local bb=/bin/busybox root=$WORK/busybox
    [ -x "$bb" ] || die "base-images: $bb missing (apt-get install busybox-static)"
    if ldd "$bb" >/dev/null 2>&1; then # ldd fails on a static binary
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
    tar -C "$root" --numeric-owner --owner=0 --group=0 -cf - . |
        tdocker import \
            --change 'ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin' \
            --change 'CMD ["/bin/sh"]' \
            --change 'LABEL org.byoc.test.base=busybox' \
            --message 'byoc test base: busybox-static' - "$BASE_BUSYBOX" >/dev/null
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

build_python_pip() {
    local saved=$CACHE_DIR/python-pip-3.tar name=byoc-base-pip-$$
    if [ -s "$saved" ] && tdocker load -i "$saved" >/dev/null 2>&1 && have_image "$BASE_PYTHON_PIP"; then
        return 0
    fi
    tdocker rm -f "$name" >/dev/null 2>&1 || true
    if ! tdocker run --name "$name" --network host "$BASE_PYTHON" sh -c \
            'export DEBIAN_FRONTEND=noninteractive; apt-get -qq update &&
             apt-get -qq install -y --no-install-recommends python3-pip >/dev/null &&
             rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb &&
             rm -f /usr/lib/python3*/EXTERNALLY-MANAGED && python3 -m pip --version' >"$WORK/pip.log" 2>&1; then
        tail -n 30 "$WORK/pip.log" >&2
        tdocker rm -f "$name" >/dev/null 2>&1 || true
        die "base-images: installing python3-pip into $BASE_PYTHON failed"
    fi
    tdocker commit --change 'CMD ["python3"]' --change 'LABEL org.byoc.test.base=python3-pip' \
        "$name" "$BASE_PYTHON_PIP" >/dev/null
    tdocker rm -f "$name" >/dev/null
    mkdir -p "$CACHE_DIR"
    tdocker save -o "$saved.part" "$BASE_PYTHON_PIP" && mv "$saved.part" "$saved"
}

if have_image "$BASE_BUSYBOX"; then
    log "base image $BASE_BUSYBOX present"
else
    log "building $BASE_BUSYBOX"
    build_busybox
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
