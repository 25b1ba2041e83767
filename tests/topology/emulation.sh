#!/bin/bash
# Makes arm64 binaries runnable on this (x86_64) host through qemu-user-static and binfmt_misc,
# so the engine can build and run linux/arm64 images. Prints one line on stdout:
#   linux/arm64            emulation works (handler registered and enabled, with the F flag)
#   none: REASON           it does not, and why (tests that need it skip with that reason)
# Mounts binfmt_misc if it is not mounted and registers qemu-aarch64 if it is not registered;
# both are kernel-wide and stay after the topology stops (a second run finds them in place).
# The F flag makes the kernel open the interpreter at registration, so it works inside
# containers whose root has no qemu (Linux Documentation/admin-guide/binfmt-misc.rst).
set -uo pipefail

BINFMT=/proc/sys/fs/binfmt_misc
HANDLER=qemu-aarch64
QEMU_CONF=/usr/lib/binfmt.d/qemu-aarch64.conf

none() { printf 'none: %s\n' "$*"; exit 0; }

if [ "$(uname -m)" = aarch64 ]; then
    echo linux/arm64 # native: nothing to emulate
    exit 0
fi
[ -e "$QEMU_CONF" ] || none "qemu-user-static is not installed (apt-get install qemu-user-static)"
if [ ! -e "$BINFMT/register" ]; then
    [ -d "$BINFMT" ] || none "the kernel has no binfmt_misc ($BINFMT missing)"
    mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null ||
        none "cannot mount binfmt_misc on $BINFMT (not allowed in this container or kernel)"
fi
[ -w "$BINFMT/register" ] || none "$BINFMT/register is not writable (binfmt_misc is read-only here)"
if [ ! -e "$BINFMT/$HANDLER" ]; then
    if command -v update-binfmts >/dev/null && [ -e /usr/share/binfmts/$HANDLER ]; then
        update-binfmts --enable "$HANDLER" >/dev/null 2>&1 || true
    fi
    if [ ! -e "$BINFMT/$HANDLER" ]; then
        # The systemd-binfmt line is the kernel's register format (:name:type:offset:magic:mask:interp:flags).
        grep -m1 "^:$HANDLER:" "$QEMU_CONF" >"$BINFMT/register" 2>/dev/null ||
            none "the kernel refused the $HANDLER handler from $QEMU_CONF"
    fi
fi
[ -e "$BINFMT/$HANDLER" ] || none "$HANDLER is not registered"
if ! grep -qx enabled "$BINFMT/$HANDLER"; then
    echo 1 >"$BINFMT/$HANDLER" 2>/dev/null || none "$HANDLER is registered but disabled"
fi
flags=$(sed -n 's/^flags: *//p' "$BINFMT/$HANDLER")
case $flags in
    *F*) ;;
    *) none "$HANDLER is registered without the F flag (flags $flags): containers cannot find its interpreter; re-register it (update-binfmts --disable $HANDLER, then write the line of $QEMU_CONF to $BINFMT/register)" ;;
esac
echo linux/arm64
