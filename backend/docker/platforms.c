#include "docker/platforms.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/utf8.h"

#define FILE_MAX 4096

/* The whole (small) file, NUL-terminated; false if unreadable. */
static bool read_small(int dirfd, const char *name, char *buf, size_t bufsz)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    size_t len = 0;
    while (len + 1 < bufsz) {
        ssize_t n = read(fd, buf + len, bufsz - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = '\0';
    return true;
}

/* The value after "key" (and an optional ':') on its own line, copied printable. */
static bool field(const char *text, const char *key, char *out, size_t outsz)
{
    size_t klen = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, klen) != 0)
            continue;
        const char *v = line + klen;
        if (*v == ':')
            v++;
        if (*v != ' ' && *v != '\n' && *v != '\0')
            continue;
        while (*v == ' ')
            v++;
        size_t n = strcspn(v, "\n");
        if (n >= outsz)
            n = outsz - 1;
        memcpy(out, v, n);
        out[n] = '\0';
        byoc_printable_inplace(out);
        return true;
    }
    return false;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Bytes from the hex text of "magic"/"mask"; how many. */
static size_t unhex(const char *hex, unsigned char *out, size_t outsz)
{
    size_t n = 0;
    while (n < outsz && hexval((unsigned char)hex[0]) >= 0 && hexval((unsigned char)hex[1]) >= 0) {
        out[n++] = (unsigned char)(hexval((unsigned char)hex[0]) << 4 | hexval((unsigned char)hex[1]));
        hex += 2;
    }
    return n;
}

static const struct {
    unsigned machine, elfclass, data;
    const char *platform;
} machines[] = {
    {62, 2, 1, "linux/amd64"},    {3, 1, 1, "linux/386"},        {183, 2, 1, "linux/arm64"},
    {40, 1, 1, "linux/arm"},      {243, 2, 1, "linux/riscv64"},  {21, 2, 1, "linux/ppc64le"},
    {22, 2, 2, "linux/s390x"},    {8, 2, 1, "linux/mips64le"},   {258, 2, 1, "linux/loong64"},
};

/* The platform an ELF magic at offset 0 matches: class, byte order and e_machine (bytes 4, 5, 18-19). */
static void platform_of_magic(const char *text, byoc_binfmt_entry *e)
{
    char hex[512], offset[16] = "0";
    unsigned char magic[64], mask[64];
    field(text, "offset", offset, sizeof offset);
    if (strcmp(offset, "0") != 0 || !field(text, "magic", hex, sizeof hex))
        return;
    size_t n = unhex(hex, magic, sizeof magic);
    if (n < 20 || memcmp(magic, "\177ELF", 4) != 0)
        return;
    memset(mask, 0xff, sizeof mask);
    if (field(text, "mask", hex, sizeof hex))
        unhex(hex, mask, sizeof mask);
    /* Only e_machine is masked: qemu's x86_64 mask clears a bit of EI_DATA (scripts/qemu-binfmt-conf.sh). */
    magic[18] &= mask[18];
    magic[19] &= mask[19];
    unsigned machine = magic[5] == 2 ? (unsigned)magic[18] << 8 | magic[19] : (unsigned)magic[19] << 8 | magic[18];
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
        if (machines[i].machine == machine && machines[i].elfclass == magic[4] && machines[i].data == magic[5]) {
            snprintf(e->platform, sizeof e->platform, "%s", machines[i].platform);
            return;
        }
}

void byoc_binfmt_read(const char *dir, byoc_binfmt *out)
{
    memset(out, 0, sizeof *out);
    int dfd = open(dir ? dir : BYOC_BINFMT_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return;
    char text[FILE_MAX];
    if (!read_small(dfd, "status", text, sizeof text)) {
        close(dfd);
        return;
    }
    out->mounted = true;
    out->enabled = strncmp(text, "enabled", 7) == 0;
    int lfd = dup(dfd);
    DIR *d = lfd >= 0 ? fdopendir(lfd) : NULL;
    if (!d) {
        if (lfd >= 0)
            close(lfd);
        close(dfd);
        return;
    }
    struct dirent *de;
    while ((de = readdir(d)) && out->n < BYOC_BINFMT_MAX) {
        const char *name = de->d_name;
        if (name[0] == '.' || strcmp(name, "status") == 0 || strcmp(name, "register") == 0)
            continue;
        if (!read_small(dfd, name, text, sizeof text))
            continue;
        byoc_binfmt_entry *e = &out->e[out->n];
        memset(e, 0, sizeof *e);
        size_t nl = strnlen(name, sizeof e->name - 1);
        memcpy(e->name, name, nl);
        e->name[nl] = '\0';
        byoc_printable_inplace(e->name);
        e->enabled = strncmp(text, "enabled", 7) == 0;
        field(text, "interpreter", e->interpreter, sizeof e->interpreter);
        field(text, "flags", e->flags, sizeof e->flags);
        e->fix_binary = strchr(e->flags, 'F') != NULL;
        platform_of_magic(text, e);
        out->n++;
    }
    closedir(d);
    close(dfd);
}

static const char *arch_alias(const char *arch)
{
    static const struct {
        const char *alias, *arch;
    } aliases[] = {
        {"x86_64", "amd64"}, {"x86-64", "amd64"}, {"amd64", "amd64"}, {"aarch64", "arm64"}, {"arm64", "arm64"},
        {"i386", "386"},     {"i686", "386"},     {"386", "386"},     {"armv7l", "arm"},    {"armhf", "arm"},
        {"arm", "arm"},      {"ppc64le", "ppc64le"}, {"s390x", "s390x"}, {"riscv64", "riscv64"},
        {"mips64le", "mips64le"}, {"loong64", "loong64"}, {"loongarch64", "loong64"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(arch, aliases[i].alias) == 0)
            return aliases[i].arch;
    return arch;
}

static bool word_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
            return false;
    return true;
}

bool byoc_platform_from_engine(const char *os, const char *arch, char *out, size_t outsz)
{
    if (!os || !arch || !word_ok(os) || !word_ok(arch))
        return false;
    char o[32], a[32];
    snprintf(o, sizeof o, "%s", os);
    snprintf(a, sizeof a, "%s", arch);
    for (char *p = o; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (char *p = a; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return (size_t)snprintf(out, outsz, "%s/%s", o, arch_alias(a)) < outsz;
}

bool byoc_platform_normalize(const char *platform, char *out, size_t outsz)
{
    char buf[96], *parts[3] = {0};
    if (!platform || strlen(platform) >= sizeof buf)
        return false;
    snprintf(buf, sizeof buf, "%s", platform);
    int n = 0;
    for (char *p = buf, *tok; n < 4 && (tok = strsep(&p, "/")); n++) {
        if (n == 3)
            return false;
        parts[n] = tok;
    }
    for (int i = 0; i < n; i++)
        if (!word_ok(parts[i]))
            return false;
    if (n == 1) /* "arm64": docker takes a bare arch as linux's */
        return byoc_platform_from_engine("linux", parts[0], out, outsz);
    return byoc_platform_from_engine(parts[0], parts[1], out, outsz);
}

byoc_platform_support byoc_platform_check(const char *platform, const char *native, const byoc_binfmt *b)
{
    char want[64], have[64];
    if (!byoc_platform_normalize(platform, want, sizeof want))
        return BYOC_PLATFORM_NONE;
    if (native && byoc_platform_normalize(native, have, sizeof have)) {
        if (strcmp(want, have) == 0)
            return BYOC_PLATFORM_NATIVE;
        if (strcmp(want, "linux/386") == 0 && strcmp(have, "linux/amd64") == 0)
            return BYOC_PLATFORM_NATIVE; /* x86_64 kernels run 32-bit x86 binaries */
    }
    byoc_platform_support best = BYOC_PLATFORM_NONE;
    for (size_t i = 0; b && i < b->n; i++) {
        const byoc_binfmt_entry *e = &b->e[i];
        if (strcmp(e->platform, want) != 0)
            continue;
        byoc_platform_support s = !e->enabled || !b->enabled ? BYOC_PLATFORM_DISABLED
                                  : e->fix_binary            ? BYOC_PLATFORM_EMULATED
                                                             : BYOC_PLATFORM_NO_FIX;
        if (s < best)
            best = s;
    }
    return best;
}

const char *byoc_platform_fix(byoc_platform_support s)
{
    switch (s) {
    case BYOC_PLATFORM_NATIVE:
    case BYOC_PLATFORM_EMULATED:
        return NULL;
    case BYOC_PLATFORM_NO_FIX:
        return "its binfmt handler lacks the F flag, so containers cannot find the emulator: reinstall "
               "qemu-user-static (Debian registers it with F), or re-register the handler with F";
    case BYOC_PLATFORM_DISABLED:
        return "its binfmt handler is disabled: update-binfmts --enable (or echo 1 > "
               BYOC_BINFMT_DIR "/<handler>)";
    case BYOC_PLATFORM_NONE:
        break;
    }
    return "install emulation on the engine's host: apt-get install qemu-user-static (mount binfmt_misc on "
           BYOC_BINFMT_DIR " first if it is not mounted), then check with byoc doctor";
}

bool byoc_platform_build_warning(const char *platform, const char *engine_os, const char *engine_arch,
                                 bool engine_local, const char *binfmt_dir, char *out, size_t outsz)
{
    char want[64], native[64];
    if (!platform || !*platform || !byoc_platform_normalize(platform, want, sizeof want))
        return false; /* no platform asked, or a malformed one the engine will refuse with its own words */
    if (!byoc_platform_from_engine(engine_os, engine_arch, native, sizeof native) || strcmp(want, native) == 0)
        return false;
    if (byoc_platform_check(want, native, NULL) == BYOC_PLATFORM_NATIVE)
        return false;
    if (!engine_local) {
        snprintf(out, outsz,
                 "the engine runs %s natively and is not on this host, so byoc cannot see whether it emulates %s; "
                 "if RUN steps fail with \"exec format error\", install qemu-user-static on the engine's host",
                 native, want);
        return true;
    }
    byoc_binfmt *b = calloc(1, sizeof *b);
    if (!b)
        return false;
    byoc_binfmt_read(binfmt_dir, b);
    byoc_platform_support s = byoc_platform_check(want, native, b);
    bool mounted = b->mounted;
    free(b);
    if (s == BYOC_PLATFORM_EMULATED)
        return false;
    snprintf(out, outsz, "the engine runs %s natively and %s; RUN steps and containers for %s will fail "
             "(\"exec format error\"); fix: %s",
             native,
             s == BYOC_PLATFORM_NONE ? (mounted ? "no binfmt emulator is registered for it" : "binfmt_misc is not mounted")
             : s == BYOC_PLATFORM_DISABLED ? "its emulator is disabled"
                                           : "its emulator lacks the F flag",
             want, byoc_platform_fix(s));
    return true;
}
