/* platforms: which platforms ("linux/arm64") an engine on this host can run: its native one
 * (the engine's /version Os/Arch) and those the kernel runs through binfmt_misc handlers,
 * usually qemu-user-static's. Also the platform-string helpers `build --platform` uses.
 *
 * A handler works for containers only with the F ("fix binary") flag: the kernel then opens
 * the interpreter when the handler is registered, so it need not exist inside the image
 * (Linux Documentation/admin-guide/binfmt-misc.rst). */
#ifndef BYOC_DOCKER_PLATFORMS_H
#define BYOC_DOCKER_PLATFORMS_H

#include <stdbool.h>
#include <stddef.h>

#define BYOC_BINFMT_DIR "/proc/sys/fs/binfmt_misc"
#define BYOC_BINFMT_MAX 64

typedef struct byoc_binfmt_entry {
    char name[64];         /* the handler's file name, e.g. "qemu-aarch64" (printable) */
    char interpreter[256]; /* printable */
    char flags[16];        /* e.g. "OCF" */
    char platform[32];     /* the ELF machine its magic matches, "linux/arm64"; "" if not an ELF one we know */
    bool enabled;
    bool fix_binary;       /* F */
} byoc_binfmt_entry;

typedef struct byoc_binfmt {
    bool mounted;   /* the directory has binfmt_misc's "status" file */
    bool enabled;   /* "status" says enabled (off: no handler runs) */
    size_t n;
    byoc_binfmt_entry e[BYOC_BINFMT_MAX];
} byoc_binfmt;

/* Read dir (NULL: BYOC_BINFMT_DIR). Never fails: an unmounted or unreadable directory gives
 * mounted == false and no entries. Each file is read up to 4 KiB. */
void byoc_binfmt_read(const char *dir, byoc_binfmt *out);

/* "linux/amd64" from an engine's Os and Arch (uname or GOARCH spelling: x86_64, aarch64, ...);
 * false when either is empty. */
bool byoc_platform_from_engine(const char *os, const char *arch, char *out, size_t outsz);

/* A --platform value reduced to os/arch ("linux/arm64/v8" -> "linux/arm64", "arm64" ->
 * "linux/arm64", "linux/x86_64" -> "linux/amd64"); false when it is not os[/arch[/variant]]. */
bool byoc_platform_normalize(const char *platform, char *out, size_t outsz);

typedef enum byoc_platform_support {
    BYOC_PLATFORM_NATIVE,
    BYOC_PLATFORM_EMULATED,   /* an enabled handler with the F flag */
    BYOC_PLATFORM_NO_FIX,     /* a handler without F: builds fail unless the image holds the interpreter */
    BYOC_PLATFORM_DISABLED,   /* registered but disabled (or binfmt_misc switched off) */
    BYOC_PLATFORM_NONE,
} byoc_platform_support;

/* How the engine whose native platform is `native` (normalized) runs `platform`. */
byoc_platform_support byoc_platform_check(const char *platform, const char *native, const byoc_binfmt *b);

/* One line on what to do when a build for `platform` will not run here, or NULL when it will. */
const char *byoc_platform_fix(byoc_platform_support s);

/* Before a build for `platform` on an engine whose /version said engine_os/engine_arch: a
 * warning with its fix in out, and true, when the engine will not run that platform's
 * binaries. binfmt_dir (NULL: BYOC_BINFMT_DIR) is read only when engine_local (a unix socket
 * on this host); a remote engine's kernel cannot be seen from here, so that is said instead. */
bool byoc_platform_build_warning(const char *platform, const char *engine_os, const char *engine_arch,
                                 bool engine_local, const char *binfmt_dir, char *out, size_t outsz);

#endif
