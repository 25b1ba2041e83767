#include "docker/ignore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "docker/goregex.h"

typedef struct {
    char *text;          /* cleaned pattern without the '!' */
    size_t ndirs;        /* number of '/'-separated components */
    bool exception;
    byoc_goregex *re;
} pattern;

struct byoc_ignore {
    pattern *p;
    size_t n;
    bool exceptions;
};

/* bufio.Scanner's default limit: a longer line is an error for the CLI too. */
#define MAX_LINE (64 * 1024)

/* ---- Go string helpers ---- */

/* unicode.IsSpace for the code point starting at s; returns its byte length or 0. */
static size_t space_len(const unsigned char *s, size_t avail)
{
    if (avail >= 1 && (s[0] == ' ' || (s[0] >= '\t' && s[0] <= '\r')))
        return 1;
    if (avail >= 2 && s[0] == 0xC2 && (s[1] == 0x85 || s[1] == 0xA0))
        return 2;
    if (avail >= 3) {
        unsigned c = ((unsigned)(s[0] & 0x0F) << 12) | ((unsigned)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        if ((s[0] & 0xF0) == 0xE0 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
            (c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
             c == 0x205F || c == 0x3000))
            return 3;
    }
    return 0;
}

/* The last code point of s[0..len) if it is a space: its byte length, else 0. */
static size_t trailing_space_len(const unsigned char *s, size_t len)
{
    if (len == 0)
        return 0;
    if (s[len - 1] < 0x80)
        return space_len(s + len - 1, 1);
    for (size_t k = 2; k <= 3 && k <= len; k++)
        if ((s[len - k] & 0xC0) != 0x80)
            return space_len(s + len - k, k) == k ? k : 0;
    return 0;
}

/* strings.TrimSpace in place on [*start, *start+*len). */
static void trim_space(const char **start, size_t *len)
{
    const unsigned char *s = (const unsigned char *)*start;
    size_t n = *len, k;
    while (n > 0 && (k = space_len(s, n)) > 0) {
        s += k;
        n -= k;
    }
    while (n > 0 && (k = trailing_space_len(s, n)) > 0)
        n -= k;
    *start = (const char *)s;
    *len = n;
}

/* Go's path.Clean on the n bytes at path, which may hold NULs (Go strings can):
 * a NUL is an ordinary byte. The result is NUL-terminated; its length in *out_len. */
static char *path_clean_n(const char *path, size_t n, size_t *out_len)
{
    if (n == 0) {
        *out_len = 1;
        return byoc_xstrdup(".");
    }
    bool rooted = path[0] == '/';
    char *out = byoc_xmalloc(n + 2);
    size_t w = 0, r = 0, dotdot = 0;
    if (rooted) {
        out[w++] = '/';
        r = 1;
        dotdot = 1;
    }
    while (r < n) {
        if (path[r] == '/') {
            r++;
        } else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
            r++;
        } else if (path[r] == '.' && r + 1 < n && path[r + 1] == '.' && (r + 2 == n || path[r + 2] == '/')) {
            r += 2;
            if (w > dotdot) {
                w--;
                while (w > dotdot && out[w] != '/')
                    w--;
            } else if (!rooted) {
                if (w > 0)
                    out[w++] = '/';
                out[w++] = '.';
                out[w++] = '.';
                dotdot = w;
            }
        } else {
            if ((rooted && w != 1) || (!rooted && w != 0))
                out[w++] = '/';
            while (r < n && path[r] != '/')
                out[w++] = path[r++];
        }
    }
    if (w == 0)
        out[w++] = '.';
    out[w] = 0;
    *out_len = w;
    return out;
}

char *byoc_path_clean(const char *path)
{
    size_t len;
    return path_clean_n(path, strlen(path), &len);
}

/* ---- reading .dockerignore ---- */

/* Is a NUL inside a [ ] class of this pattern (n bytes, syntax already checked)? */
static bool nul_in_class(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            i++;
        } else if (p[i] == '[') {
            i++;
            size_t start = i < n && p[i] == '^' ? i + 1 : i;
            for (i = start; i < n && !(p[i] == ']' && i > start); i++) {
                if (p[i] == '\\')
                    i++;
                if (i < n && p[i] == 0)
                    return true;
            }
        }
    }
    return false;
}

/* A pattern that still holds a NUL after cleaning (the n bytes at clean, '!' already
 * taken off): nonzero, with err set, if it must refuse the file, else 0 (leave the
 * pattern out). NUL is not special to filepath.Clean, filepath.Match or the regexp
 * the pattern becomes, so the CLI's verdict on its syntax is the verdict on the same
 * pattern with each NUL replaced by a plain letter. Outside a [ ] class a NUL can
 * only match a NUL, which no path holds: such a pattern never matches. Inside a
 * class it can stand for other characters ("[\0-b]"): byoc's patterns are C
 * strings and cannot carry it, so that file is refused rather than misread. */
static int nul_pattern_refused(const char *clean, size_t n, bool invert, byoc_err *err)
{
    char *plain = byoc_xmalloc(n + 1);
    for (size_t i = 0; i < n; i++)
        plain[i] = clean[i] ? clean[i] : 'a';
    plain[n] = 0;
    const char *pat = plain + (n > 1 && plain[0] == '/');
    char *full = byoc_xasprintf("%s%s", invert ? "!" : "", pat);
    const char *one[] = {full};
    byoc_ignore *m = byoc_ignore_new(one, 1, err);
    free(full);
    free(plain);
    if (!m) {
        byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "syntax error in a pattern that holds a NUL byte");
        return 1;
    }
    byoc_ignore_free(m);
    if (nul_in_class(clean, n)) {
        byoc_err_set(err, BYOC_E_USAGE, ".dockerignore",
                     "a NUL byte inside a [ ] class is not supported; remove it from the pattern");
        return 1;
    }
    return 0;
}

int byoc_ignore_read(const char *text, size_t len, byoc_strv *out, byoc_err *err)
{
    size_t pos = 0;
    bool first = true;
    while (pos < len) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        const char *line = text + pos;
        size_t ll = end - pos;
        pos = nl ? end + 1 : len;
        if (ll > 0 && line[ll - 1] == '\r')
            ll--;
        if (ll > MAX_LINE)
            return byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "a line is longer than %d bytes", MAX_LINE);
        if (first && ll >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
            line += 3;
            ll -= 3;
        }
        first = false;
        if (ll > 0 && line[0] == '#')
            continue;
        trim_space(&line, &ll);
        if (ll == 0)
            continue;
        bool invert = line[0] == '!';
        if (invert) {
            line++;
            ll--;
            trim_space(&line, &ll);
        }
        char *pat;
        if (ll > 0) {
            size_t cl;
            char *clean = path_clean_n(line, ll, &cl);
            if (memchr(clean, 0, cl)) {
                int refused = nul_pattern_refused(clean, cl, invert, err);
                free(clean);
                if (refused)
                    return -1;
                continue;
            }
            const char *p = clean;
            if (cl > 1 && p[0] == '/')
                p++;
            pat = byoc_xasprintf("%s%s", invert ? "!" : "", p);
            free(clean);
        } else {
            pat = byoc_xstrdup(invert ? "!" : "");
        }
        byoc_strv_push_owned(out, pat);
    }
    return 0;
}

/* ---- pattern syntax (Go filepath.Match's validation) ---- */

static size_t rune_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* getEsc of Go's path/filepath: one class endpoint. */
static bool class_endpoint(const char **pp)
{
    const char *p = *pp;
    if (*p == 0 || *p == '-' || *p == ']')
        return false;
    if (*p == '\\') {
        p++;
        if (*p == 0)
            return false;
    }
    size_t n = rune_len((const unsigned char *)p);
    if (n == 0)
        return false;
    p += n;
    if (*p == 0)
        return false;
    *pp = p;
    return true;
}

static bool match_syntax_ok(const char *p)
{
    while (*p) {
        if (*p == '\\') {
            if (p[1] == 0)
                return false;
            p += 2;
        } else if (*p == '[') {
            p++;
            if (*p == '^')
                p++;
            int nrange = 0;
            for (;;) {
                if (*p == ']' && nrange > 0) {
                    p++;
                    break;
                }
                if (!class_endpoint(&p))
                    return false;
                if (*p == '-') {
                    p++;
                    if (!class_endpoint(&p))
                        return false;
                }
                nrange++;
            }
        } else {
            p++;
        }
    }
    return true;
}

/* ---- pattern -> Go regexp (pkg/fileutils Pattern.compile) ---- */

static char *pattern_to_go_regexp(const char *pat)
{
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_putc(&b, '^');
    const char *p = pat;
    while (*p) {
        char c = *p++;
        if (c == '*') {
            if (*p == '*') {
                p++;
                if (*p == '/')
                    p++;
                byoc_buf_puts(&b, *p == 0 ? ".*" : "(.*/)?");
            } else {
                byoc_buf_puts(&b, "[^/]*");
            }
        } else if (c == '?') {
            byoc_buf_puts(&b, "[^/]");
        } else if (c == '.' || c == '$') {
            byoc_buf_putc(&b, '\\');
            byoc_buf_putc(&b, c);
        } else if (c == '\\') {
            byoc_buf_putc(&b, '\\');
            if (*p) {
                size_t n = rune_len((const unsigned char *)p);
                byoc_buf_append(&b, p, n ? n : 1);
                p += n ? n : 1;
            }
        } else {
            byoc_buf_putc(&b, c);
        }
    }
    byoc_buf_putc(&b, '$');
    return byoc_buf_steal(&b);
}

byoc_ignore *byoc_ignore_new(const char *const *patterns, size_t n, byoc_err *err)
{
    byoc_ignore *m = byoc_xcalloc(1, sizeof *m);
    m->p = byoc_xcalloc(n ? n : 1, sizeof *m->p);
    for (size_t i = 0; i < n; i++) {
        const char *raw = patterns[i];
        size_t len = strlen(raw);
        trim_space(&raw, &len);
        if (len == 0)
            continue;
        char *tmp = byoc_xstrndup(raw, len);
        char *clean = byoc_path_clean(tmp);
        free(tmp);
        pattern *pt = &m->p[m->n];
        const char *body = clean;
        if (body[0] == '!') {
            if (body[1] == 0) {
                free(clean);
                byoc_ignore_free(m);
                byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "illegal exclusion pattern: \"!\"");
                return NULL;
            }
            pt->exception = true;
            m->exceptions = true;
            body++;
        }
        if (!match_syntax_ok(body)) {
            byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "syntax error in pattern '%s'", body);
            free(clean);
            byoc_ignore_free(m);
            return NULL;
        }
        char *go = pattern_to_go_regexp(body);
        char why[160];
        pt->re = byoc_goregex_compile(go, why, sizeof why);
        free(go);
        if (!pt->re) {
            byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "pattern '%s': %s", body, why);
            free(clean);
            byoc_ignore_free(m);
            return NULL;
        }
        pt->text = byoc_xstrdup(body);
        pt->ndirs = 1;
        for (const char *q = body; *q; q++)
            pt->ndirs += *q == '/';
        free(clean);
        m->n++;
    }
    return m;
}

void byoc_ignore_free(byoc_ignore *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        free(m->p[i].text);
        byoc_goregex_free(m->p[i].re);
    }
    free(m->p);
    free(m);
}

size_t byoc_ignore_count(const byoc_ignore *m)
{
    return m ? m->n : 0;
}

bool byoc_ignore_excluded(const byoc_ignore *m, const char *relpath)
{
    if (!m || m->n == 0 || strcmp(relpath, ".") == 0)
        return false;
    /* The parent path and its component count, as filepath.Dir and Split give them. */
    const char *slash = strrchr(relpath, '/');
    size_t parent_len = slash ? (size_t)(slash - relpath) : 0;
    size_t parent_dirs = 1;
    for (size_t i = 0; i < parent_len; i++)
        parent_dirs += relpath[i] == '/';
    char *prefix = NULL;
    size_t prefix_for = 0;
    bool matched = false;
    for (size_t i = 0; i < m->n; i++) {
        const pattern *pt = &m->p[i];
        bool hit = byoc_goregex_match(pt->re, relpath);
        if (!hit && slash && pt->ndirs <= parent_dirs) {
            if (prefix_for != pt->ndirs) {
                /* The first ndirs components of the parent path. */
                size_t cut = 0, comps = 0;
                while (cut < parent_len) {
                    if (relpath[cut] == '/' && ++comps == pt->ndirs)
                        break;
                    cut++;
                }
                free(prefix);
                prefix = byoc_xstrndup(relpath, cut);
                prefix_for = pt->ndirs;
            }
            hit = byoc_goregex_match(pt->re, prefix);
        }
        if (hit)
            matched = !pt->exception;
    }
    free(prefix);
    return matched;
}

bool byoc_ignore_dir_may_reinclude(const byoc_ignore *m, const char *reldir)
{
    if (!m || !m->exceptions)
        return false;
    size_t dl = strlen(reldir);
    for (size_t i = 0; i < m->n; i++) {
        if (!m->p[i].exception)
            continue;
        /* strings.HasPrefix(pattern + "/", dir + "/") */
        const char *t = m->p[i].text;
        size_t tl = strlen(t);
        if (tl + 1 < dl + 1)
            continue;
        if (memcmp(t, reldir, dl) == 0 && (tl == dl || t[dl] == '/'))
            return true;
    }
    return false;
}

static bool matches_fresh(const char *file, const byoc_strv *patterns)
{
    byoc_err e;
    byoc_ignore *m = byoc_ignore_new((const char *const *)patterns->v, patterns->n, &e);
    if (!m)
        return false;
    char *clean = byoc_path_clean(file);
    bool r = byoc_ignore_excluded(m, clean);
    free(clean);
    byoc_ignore_free(m);
    return r;
}

byoc_ignore *byoc_ignore_load(const char *context_dir, const char *rel_dockerfile, byoc_err *err)
{
    char *path = byoc_xasprintf("%s/.dockerignore", context_dir);
    FILE *f = fopen(path, "rb");
    byoc_strv pats = BYOC_STRV_INIT;
    if (!f) {
        if (errno != ENOENT) {
            byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "cannot read %s: %s", path, strerror(errno));
            free(path);
            return NULL;
        }
    } else {
        byoc_buf b = BYOC_BUF_INIT;
        char chunk[8192];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
            byoc_buf_append(&b, chunk, got);
        bool bad = ferror(f);
        fclose(f);
        if (bad) {
            byoc_err_set(err, BYOC_E_USAGE, ".dockerignore", "cannot read %s", path);
            byoc_buf_clear(&b);
            free(path);
            return NULL;
        }
        int rc = byoc_ignore_read(byoc_buf_str(&b), b.len, &pats, err);
        byoc_buf_clear(&b);
        if (rc != 0) {
            byoc_strv_clear(&pats);
            free(path);
            return NULL;
        }
    }
    free(path);
    /* TrimBuildFilesFromExcludes: keep the files the daemon needs. */
    if (matches_fresh(".dockerignore", &pats))
        byoc_strv_push(&pats, "!.dockerignore");
    if (rel_dockerfile && matches_fresh(rel_dockerfile, &pats))
        byoc_strv_pushf(&pats, "!%s", rel_dockerfile);
    byoc_ignore *m = byoc_ignore_new((const char *const *)pats.v, pats.n, err);
    byoc_strv_clear(&pats);
    return m;
}
