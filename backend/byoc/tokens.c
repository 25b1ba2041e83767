#include "byoc/tokens.h"

#include <ctype.h>
#include <fnmatch.h>
#include <string.h>
#include <strings.h>

static size_t run_of(const char *s, size_t len, int (*cls)(int), const char *extra)
{
    size_t n = 0;
    while (n < len && (cls((unsigned char)s[n]) || (extra && s[n] && strchr(extra, s[n]))))
        n++;
    return n;
}

static int is_upper_digit(int c)
{
    return isupper(c) || isdigit(c);
}

static bool boundary_before(const char *s, size_t i)
{
    return i == 0 || !isalnum((unsigned char)s[i - 1]);
}

const char *byoc_token_find(const char *s, size_t len, size_t *offset)
{
    for (size_t i = 0; i < len; i++) {
        const char *p = s + i;
        size_t left = len - i;
        if (left >= 20 && (!strncmp(p, "AKIA", 4) || !strncmp(p, "ASIA", 4)) && boundary_before(s, i) &&
            run_of(p + 4, left - 4, is_upper_digit, NULL) == 16) {
            *offset = i;
            return "an AWS access key id";
        }
        if (left >= 40 && p[0] == 'g' && p[1] == 'h' && strchr("pousr", p[2]) && p[3] == '_' &&
            boundary_before(s, i) && run_of(p + 4, left - 4, isalnum, NULL) >= 36) {
            *offset = i;
            return "a GitHub token";
        }
        if (left >= 30 && !strncmp(p, "github_pat_", 11) && run_of(p + 11, left - 11, isalnum, "_") >= 20) {
            *offset = i;
            return "a GitHub token";
        }
        if (left >= 26 && !strncmp(p, "glpat-", 6) && run_of(p + 6, left - 6, isalnum, "-_") >= 20) {
            *offset = i;
            return "a GitLab token";
        }
        if (left >= 15 && !strncmp(p, "xox", 3) && strchr("abprs", p[3]) && p[4] == '-' &&
            run_of(p + 5, left - 5, isalnum, "-") >= 10) {
            *offset = i;
            return "a Slack token";
        }
        if (left >= 39 && !strncmp(p, "AIza", 4) && run_of(p + 4, left - 4, isalnum, "-_") >= 35) {
            *offset = i;
            return "a Google API key";
        }
        if (left >= 27 && !strncmp(p, "-----BEGIN ", 11)) {
            const char *end = memchr(p + 11, '\n', left - 11);
            size_t n = end ? (size_t)(end - p) : left;
            for (size_t k = 11; k + 16 <= n; k++)
                if (!strncmp(p + k, "PRIVATE KEY-----", 16)) {
                    *offset = i;
                    return "a private key";
                }
        }
    }
    return NULL;
}

const char *byoc_secret_path(const char *rel)
{
    /* directories anywhere in the path */
    static const struct { const char *dir; const char *what; } dirs[] = {
        {".ssh", "an SSH directory"}, {".aws", "AWS credentials"}, {".gnupg", "a GnuPG keyring"},
        {".docker", "Docker registry credentials"}, {".kube", "Kubernetes credentials"}};
    const char *p = rel;
    while (*p) {
        size_t n = strcspn(p, "/");
        for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
            if (n == strlen(dirs[i].dir) && !strncmp(p, dirs[i].dir, n))
                return dirs[i].what;
        p += n;
        if (*p == '/')
            p++;
    }
    const char *base = strrchr(rel, '/');
    base = base ? base + 1 : rel;
    static const struct { const char *pattern; const char *what; } files[] = {
        {"id_rsa", "an SSH private key"}, {"id_dsa", "an SSH private key"}, {"id_ecdsa", "an SSH private key"},
        {"id_ed25519", "an SSH private key"}, {"id_rsa_*", "an SSH private key"}, {"id_ed25519_*", "an SSH private key"},
        {".env", "an environment file (often secrets)"}, {".env.*", "an environment file (often secrets)"},
        {".netrc", "a .netrc (passwords)"}, {".git-credentials", "git credentials"},
        {".pypirc", "PyPI credentials"}, {".npmrc", "npm credentials"}, {"*.pem", "a PEM key or certificate"},
        {"*.key", "a key file"}, {"*.p12", "a PKCS#12 key store"}, {"*.pfx", "a PKCS#12 key store"},
        {"*.keystore", "a key store"}, {"*.jks", "a Java key store"}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (fnmatch(files[i].pattern, base, 0) == 0) {
            if (!strcmp(base, ".env.example") || !strcmp(base, ".env.sample") || !strcmp(base, ".env.template"))
                return NULL;
            return files[i].what;
        }
    return NULL;
}

bool byoc_secret_var_name(const char *name)
{
    static const char *const words[] = {"PASSWORD", "PASSWD", "SECRET", "TOKEN", "PRIVATE_KEY", "API_KEY",
                                        "APIKEY", "ACCESS_KEY", "SSH_KEY", "CREDENTIAL", "AUTH_KEY", NULL};
    static const char *const harmless_suffixes[] = {"_FILE", "_PATH", "_DIR", "_URL", "_ENDPOINT", NULL};
    char up[128];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof up; n++)
        up[n] = (char)toupper((unsigned char)name[n]);
    up[n] = '\0';
    for (const char *const *s = harmless_suffixes; *s; s++) {
        size_t m = strlen(*s);
        if (n >= m && !strcmp(up + n - m, *s))
            return false;
    }
    for (const char *const *w = words; *w; w++)
        if (strstr(up, *w))
            return true;
    return false;
}
