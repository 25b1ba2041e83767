#!/bin/bash
# A build on a base that already has the toolchain needs no network: byoc init's C++ recipe
# (RUN install-packages build-tools g++ cmake) built with `docker build --network none` on a
# Debian base whose dpkg database lists gcc, libc6-dev, make, g++ and cmake as installed
# (stanzas added to the local debootstrap python3 base: this machine has no C++ toolchain base,
# and what is checked is install-packages' decision, not the compilers). install-packages
# looks each package up and runs neither apt-get update nor apt-get install. A package the
# image lacks is still installed (here: tried, and it fails for want of a network).
set -euo pipefail
: "${BYOC_TEST_BASE_PYTHON:?run through tests/topology/with-env.sh}"
. "$(dirname "$0")/image_test.sh" install-packages

# ---- the base: the toolchain's packages in dpkg's database ----------------------------------
mkdir -p "$WORK/base"
# shellcheck disable=SC2016 # $p is the Dockerfile's shell variable
{
    echo "FROM $BYOC_TEST_BASE_PYTHON"
    printf 'RUN for p in gcc libc6-dev make g++ cmake; do \\\n'
    printf '      printf "\\nPackage: %%s\\nStatus: install ok installed\\nPriority: optional\\nSection: devel\\nMaintainer: byoc tests\\nArchitecture: amd64\\nVersion: 1.0\\nDescription: listed by the byoc test\\n" "$p" >>/var/lib/dpkg/status; \\\n'
    printf '    done\n'
} >"$WORK/base/Dockerfile"
build_base "$WORK/base" "building the base"
# shellcheck disable=SC2016 # dpkg-query's own fields
"$DOCKER" run --rm --network none "$BASE" dpkg-query -W -f='${Package} ${Status}\n' cmake g++ |
    grep -qx 'cmake install ok installed' || fail "the base's dpkg database does not list cmake"
pass "a base whose dpkg database lists the toolchain"

# ---- byoc's C++ recipe on it, built with no network ------------------------------------------
PROJ=$WORK/proj
"$BYOC_BIN" init "$PROJ" --recipe custom-base --language cpp --base "$BASE" --no-git >"$WORK/init.out" ||
    fail "byoc init exited $?: $(cat "$WORK/init.out")"
grep -q '^RUN /opt/byoc/bin/install-packages build-tools g++ cmake$' "$PROJ/Dockerfile" ||
    fail "the C++ recipe does not call install-packages as expected"
build_tag "$PROJ" --progress=plain --no-cache
grep -q 'install-packages: already installed: gcc libc6-dev make g++ cmake' "$WORK/build.log" ||
    { cat "$WORK/build.log" >&2; fail "install-packages did not find the listed packages"; }
grep -q 'install-packages: nothing to install' "$WORK/build.log" || fail "install-packages did not skip the install"
if grep -Eq 'Temporary failure resolving|Failed to fetch|Reading package lists' "$WORK/build.log"; then
    cat "$WORK/build.log" >&2
    fail "apt-get ran although every package was there"
fi
pass "docker build --network none: install-packages found everything and fetched nothing"

# ---- a package the image lacks is still installed --------------------------------------------
set +e
"$DOCKER" run --rm --network none "$TAG" /opt/byoc/bin/install-packages python3 byoc-test-absent-package \
    >"$WORK/missing.log" 2>&1
rc=$?
set -e
[ "$rc" != 0 ] || { cat "$WORK/missing.log" >&2; fail "installing an absent package with no network exited 0"; }
if ! grep -q 'already installed: python3$' "$WORK/missing.log" ||
    ! grep -q 'installing: byoc-test-absent-package$' "$WORK/missing.log"; then
    cat "$WORK/missing.log" >&2
    fail "install-packages' report of what it installs"
fi
pass "a missing package is installed (only it; here it fails for want of a network, exit $rc)"

echo "all passed"
