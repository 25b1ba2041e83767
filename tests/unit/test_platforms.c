/* platforms: binfmt_misc entries read from a fake directory (enabled, flags, the platform of
 * their ELF magic), platform strings normalized, and which platform the engine runs natively,
 * emulated, or not at all; both directions (arm64 on an amd64 host, amd64 on an arm64 host). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/fs.h"
#include "docker/platforms.h"

static char *root;

static void put(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* Linux's own text for qemu-user-static's handlers (Debian's /usr/lib/binfmt.d/qemu-*.conf). */
#define AARCH64_MAGIC "magic 7f454c460201010000000000000000000200b700\nmask ffffffffffffff00fffffffffffffffffeffffff\n"
#define X86_64_MAGIC "magic 7f454c4602010100000000000000000002003e00\nmask fffffffffffefe00fffffffffffffffffeffffff\n"
#define S390X_MAGIC "magic 7f454c4602020100000000000000000000020016\nmask ffffffffffffff00fffffffffffffffffffeffff\n"

static const byoc_binfmt_entry *entry(const byoc_binfmt *b, const char *name)
{
    for (size_t i = 0; i < b->n; i++)
        if (strcmp(b->e[i].name, name) == 0)
            return &b->e[i];
    return NULL;
}

static void test_read(void)
{
    byoc_binfmt b;
    byoc_binfmt_read(root, &b);
    CHECK(!b.mounted); /* no status file: not binfmt_misc */
    CHECK_INT(b.n, 0);

    put("status", "enabled\n");
    put("register", "");
    put("qemu-aarch64", "enabled\ninterpreter /usr/libexec/qemu-binfmt/aarch64-binfmt-P\nflags: PF\noffset 0\n" AARCH64_MAGIC);
    put("qemu-s390x", "disabled\ninterpreter /usr/libexec/qemu-binfmt/s390x-binfmt-P\nflags: P\noffset 0\n" S390X_MAGIC);
    put("python3.11", "enabled\ninterpreter /usr/bin/python3.11\nflags: \noffset 0\nmagic a70d0d0a\n");
    put("evil", "enabled\ninterpreter /x\033[2J\nflags: F\noffset 0\nmagic 7f45\n");
    byoc_binfmt_read(root, &b);
    CHECK(b.mounted);
    CHECK(b.enabled);
    CHECK_INT(b.n, 4);
    const byoc_binfmt_entry *a = entry(&b, "qemu-aarch64");
    CHECK(a != NULL);
    if (a) {
        CHECK(a->enabled);
        CHECK(a->fix_binary);
        CHECK_STR(a->flags, "PF");
        CHECK_STR(a->platform, "linux/arm64");
        CHECK_STR(a->interpreter, "/usr/libexec/qemu-binfmt/aarch64-binfmt-P");
    }
    const byoc_binfmt_entry *s = entry(&b, "qemu-s390x");
    CHECK(s && !s->enabled && !s->fix_binary);
    CHECK(s && strcmp(s->platform, "linux/s390x") == 0); /* big-endian e_machine */
    const byoc_binfmt_entry *p = entry(&b, "python3.11");
    CHECK(p && p->platform[0] == '\0');
    const byoc_binfmt_entry *e = entry(&b, "evil");
    CHECK(e && !strchr(e->interpreter, '\033')); /* printable */
    CHECK(e && e->platform[0] == '\0');          /* magic too short to name a machine */

    CHECK_INT(byoc_platform_check("linux/arm64", "linux/amd64", &b), BYOC_PLATFORM_EMULATED);
    CHECK_INT(byoc_platform_check("linux/s390x", "linux/amd64", &b), BYOC_PLATFORM_DISABLED);
    CHECK_INT(byoc_platform_check("linux/ppc64le", "linux/amd64", &b), BYOC_PLATFORM_NONE);

    put("qemu-aarch64", "enabled\ninterpreter /usr/bin/qemu-aarch64-static\nflags: \noffset 0\n" AARCH64_MAGIC);
    byoc_binfmt_read(root, &b);
    CHECK_INT(byoc_platform_check("linux/arm64", "linux/amd64", &b), BYOC_PLATFORM_NO_FIX);
    CHECK(strstr(byoc_platform_fix(BYOC_PLATFORM_NO_FIX), "F flag") != NULL);

    put("status", "disabled\n");
    put("qemu-aarch64", "enabled\ninterpreter /q\nflags: F\noffset 0\n" AARCH64_MAGIC);
    byoc_binfmt_read(root, &b);
    CHECK(!b.enabled);
    CHECK_INT(byoc_platform_check("linux/arm64", "linux/amd64", &b), BYOC_PLATFORM_DISABLED);
}

/* An arm64 host building for Braket's x86_64 instances: the same code path, other strings. */
static void test_reverse(void)
{
    byoc_binfmt b;
    memset(&b, 0, sizeof b);
    CHECK_INT(byoc_platform_check("linux/amd64", "linux/arm64", &b), BYOC_PLATFORM_NONE);
    CHECK(strstr(byoc_platform_fix(BYOC_PLATFORM_NONE), "apt-get install qemu-user-static") != NULL);
    put("status", "enabled\n");
    put("qemu-x86_64", "enabled\ninterpreter /usr/libexec/qemu-binfmt/x86_64-binfmt-P\nflags: PF\noffset 0\n" X86_64_MAGIC);
    byoc_binfmt_read(root, &b);
    const byoc_binfmt_entry *x = entry(&b, "qemu-x86_64");
    CHECK(x && strcmp(x->platform, "linux/amd64") == 0);
    CHECK_INT(byoc_platform_check("linux/amd64", "linux/arm64", &b), BYOC_PLATFORM_EMULATED);
    CHECK_INT(byoc_platform_check("amd64", "linux/aarch64", &b), BYOC_PLATFORM_EMULATED);
    CHECK_INT(byoc_platform_check("linux/arm64/v8", "linux/aarch64", &b), BYOC_PLATFORM_NATIVE);
    CHECK(byoc_platform_fix(BYOC_PLATFORM_EMULATED) == NULL);
    CHECK(byoc_platform_fix(BYOC_PLATFORM_NATIVE) == NULL);
}

static void test_strings(void)
{
    char out[64];
    CHECK(byoc_platform_from_engine("linux", "x86_64", out, sizeof out));
    CHECK_STR(out, "linux/amd64");
    CHECK(byoc_platform_from_engine("Linux", "aarch64", out, sizeof out));
    CHECK_STR(out, "linux/arm64");
    CHECK(!byoc_platform_from_engine("linux", "", out, sizeof out));
    CHECK(!byoc_platform_from_engine("linux", "a b", out, sizeof out));
    CHECK(byoc_platform_normalize("linux/arm64/v8", out, sizeof out));
    CHECK_STR(out, "linux/arm64");
    CHECK(byoc_platform_normalize("arm64", out, sizeof out));
    CHECK_STR(out, "linux/arm64");
    CHECK(byoc_platform_normalize("linux/arm/v7", out, sizeof out));
    CHECK_STR(out, "linux/arm");
    CHECK(!byoc_platform_normalize("linux/arm64/v8/x", out, sizeof out));
    CHECK(!byoc_platform_normalize("linux//arm64", out, sizeof out));
    CHECK(!byoc_platform_normalize("", out, sizeof out));
    CHECK(!byoc_platform_normalize("linux/\033", out, sizeof out));
    CHECK_INT(byoc_platform_check("linux/386", "linux/amd64", NULL), BYOC_PLATFORM_NATIVE);
    CHECK_INT(byoc_platform_check("nonsense//", "linux/amd64", NULL), BYOC_PLATFORM_NONE);
}

static void test_build_warning(void)
{
    char w[512];
    w[0] = '\0';
    CHECK(!byoc_platform_build_warning(NULL, "linux", "amd64", true, root, w, sizeof w));
    CHECK(!byoc_platform_build_warning("linux/amd64", "linux", "amd64", true, root, w, sizeof w));
    CHECK(!byoc_platform_build_warning("linux/386", "linux", "amd64", true, root, w, sizeof w));
    /* root holds no binfmt_misc yet */
    CHECK(byoc_platform_build_warning("linux/arm64", "linux", "amd64", true, root, w, sizeof w));
    CHECK(strstr(w, "binfmt_misc is not mounted") && strstr(w, "apt-get install qemu-user-static"));
    CHECK(byoc_platform_build_warning("linux/arm64", "linux", "amd64", false, root, w, sizeof w));
    CHECK(strstr(w, "not on this host") != NULL);
    put("status", "enabled\n");
    CHECK(byoc_platform_build_warning("linux/arm64", "linux", "amd64", true, root, w, sizeof w));
    CHECK(strstr(w, "no binfmt emulator is registered for it") && strstr(w, "linux/arm64"));
    put("qemu-aarch64", "enabled\ninterpreter /q\nflags: OCF\noffset 0\n" AARCH64_MAGIC);
    CHECK(!byoc_platform_build_warning("linux/arm64", "linux", "amd64", true, root, w, sizeof w));
    put("qemu-aarch64", "disabled\ninterpreter /q\nflags: OCF\noffset 0\n" AARCH64_MAGIC);
    CHECK(byoc_platform_build_warning("linux/arm64/v8", "linux", "x86_64", true, root, w, sizeof w));
    CHECK(strstr(w, "disabled") != NULL);
}

int main(void)
{
    root = check_tmpdir();
    test_strings();
    test_read();
    byoc_remove_tree(root);
    free(root);
    root = check_tmpdir();
    test_build_warning();
    byoc_remove_tree(root);
    free(root);
    root = check_tmpdir();
    test_reverse();
    byoc_remove_tree(root);
    free(root);
    return check_done();
}
