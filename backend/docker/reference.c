#include "docker/reference.h"

#include <ctype.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#define ALNUM "[a-z0-9]+"
#define SEPARATOR "([_.]|__|[-]*)"
#define COMPONENT ALNUM "(" SEPARATOR ALNUM ")*"
#define LABEL "([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])"
#define DOMAIN LABEL "(\\." LABEL ")*(:[0-9]+)?"
#define ALGORITHM "[A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)*"

/* Bounded repetitions ({0,127}, {32,}, {64}) are checked by hand: glibc
 * expands them into large automata. */
static regex_t re_path, re_domain, re_algorithm;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void compile_all(void)
{
    regcomp(&re_path, "^" COMPONENT "(/" COMPONENT ")*$", REG_EXTENDED | REG_NOSUB);
    regcomp(&re_domain, "^" DOMAIN "$", REG_EXTENDED | REG_NOSUB);
    regcomp(&re_algorithm, "^" ALGORITHM "$", REG_EXTENDED | REG_NOSUB);
}

static bool matches(regex_t *re, const char *s)
{
    pthread_once(&once, compile_all);
    return regexec(re, s, 0, NULL, 0) == 0;
}

static bool is_word(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* [A-Za-z0-9_][A-Za-z0-9_.-]{0,127} */
bool byoc_imageref_valid_tag(const char *tag)
{
    if (!tag || !is_word(tag[0]))
        return false;
    size_t n = 1;
    for (; tag[n]; n++)
        if (!is_word(tag[n]) && tag[n] != '.' && tag[n] != '-')
            return false;
    return n <= 128;
}

static size_t hex_run(const char *s, bool lower_only)
{
    size_t n = 0;
    while (isdigit((unsigned char)s[n]) || (s[n] >= 'a' && s[n] <= 'f') ||
           (!lower_only && s[n] >= 'A' && s[n] <= 'F'))
        n++;
    return n;
}

/* algorithm ":" [0-9a-fA-F]{32,} */
static bool valid_digest(const char *d)
{
    const char *colon = strrchr(d, ':');
    if (!colon || colon == d)
        return false;
    char *alg = byoc_xstrndup(d, (size_t)(colon - d));
    bool ok = matches(&re_algorithm, alg);
    free(alg);
    size_t hex = hex_run(colon + 1, false);
    return ok && hex >= 32 && colon[1 + hex] == 0;
}

static bool is_hex64(const char *s)
{
    return hex_run(s, true) == 64 && s[64] == 0;
}

void byoc_imageref_clear(byoc_imageref *r)
{
    if (!r)
        return;
    free(r->repository);
    free(r->domain);
    free(r->path);
    free(r->tag);
    free(r->digest);
    memset(r, 0, sizeof *r);
}

static bool has_upper(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isupper((unsigned char)s[i]))
            return true;
    return false;
}

int byoc_imageref_parse(const char *s, const char *what, byoc_imageref *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!s || !*s)
        return byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: empty");
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
            return byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: '%s'", s);
    if (is_hex64(s))
        return byoc_err_set(err, BYOC_E_USAGE, what,
                            "invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s);
    char *work = byoc_xstrdup(s);
    char *at = strchr(work, '@');
    if (at) {
        *at = 0;
        if (!valid_digest(at + 1)) {
            free(work);
            return byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: bad digest in '%s'", s);
        }
        out->digest = byoc_xstrdup(at + 1);
    }
    char *slash = strrchr(work, '/');
    char *colon = strrchr(slash ? slash : work, ':');
    if (colon) {
        *colon = 0;
        if (!byoc_imageref_valid_tag(colon + 1)) {
            free(work);
            byoc_imageref_clear(out);
            return byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: bad tag in '%s'", s);
        }
        out->tag = byoc_xstrdup(colon + 1);
    }
    /* The domain split of the normalized parser. */
    const char *name = work;
    char *first_slash = strchr(name, '/');
    const char *remainder = name;
    char *domain = NULL;
    if (first_slash) {
        size_t dl = (size_t)(first_slash - name);
        bool is_domain = memchr(name, '.', dl) || memchr(name, ':', dl) ||
                         (dl == 9 && strncmp(name, "localhost", 9) == 0) || has_upper(name, dl);
        if (is_domain) {
            domain = byoc_xstrndup(name, dl);
            remainder = first_slash + 1;
        }
    }
    int rc = 0;
    if (has_upper(remainder, strlen(remainder))) {
        rc = byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: repository name must be lowercase");
    } else if (domain && !matches(&re_domain, domain)) {
        rc = byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: bad registry in '%s'", s);
    } else if (!matches(&re_path, remainder)) {
        rc = byoc_err_set(err, BYOC_E_USAGE, what, "invalid reference format: '%s'", s);
    } else if (strlen(name) > 255) {
        rc = byoc_err_set(err, BYOC_E_USAGE, what, "repository name must not be more than 255 characters");
    }
    if (rc == 0) {
        out->repository = byoc_xstrdup(name);
        if (!domain || strcmp(domain, "index.docker.io") == 0) {
            out->domain = byoc_xstrdup("docker.io");
            out->path = strchr(remainder, '/') ? byoc_xstrdup(remainder)
                                               : byoc_xasprintf("library/%s", remainder);
        } else {
            out->domain = byoc_xstrdup(domain);
            out->path = byoc_xstrdup(remainder);
        }
    } else {
        byoc_imageref_clear(out);
    }
    free(domain);
    free(work);
    return rc;
}

int byoc_imageref_check_tag(const char *s, const char *what, byoc_err *err)
{
    byoc_imageref r;
    if (byoc_imageref_parse(s, what, &r, err) < 0)
        return -1;
    bool digest = r.digest != NULL;
    byoc_imageref_clear(&r);
    if (digest)
        return byoc_err_set(err, BYOC_E_USAGE, what, "'%s': a build tag cannot carry a digest", s);
    return 0;
}
