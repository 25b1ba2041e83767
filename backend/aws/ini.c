#include "aws/ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/strmap.h"

static byoc_ini_section *add_section(byoc_ini *ini, const char *name, size_t n)
{
    if (ini->len == ini->cap) {
        ini->cap = ini->cap ? ini->cap * 2 : 8;
        ini->sections = byoc_xrealloc(ini->sections, ini->cap * sizeof *ini->sections);
    }
    byoc_ini_section *s = &ini->sections[ini->len++];
    memset(s, 0, sizeof *s);
    s->name = byoc_xstrndup(name, n);
    return s;
}

static byoc_ini_kv *add_kv(byoc_ini_section *s, char *key, const char *value, size_t n)
{
    if (s->len == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 8;
        s->kv = byoc_xrealloc(s->kv, s->cap * sizeof *s->kv);
    }
    byoc_ini_kv *kv = &s->kv[s->len++];
    kv->key = key;
    kv->value = byoc_xstrndup(value, n);
    return kv;
}

void byoc_ini_clear(byoc_ini *ini)
{
    if (!ini)
        return;
    for (size_t i = 0; i < ini->len; i++) {
        byoc_ini_section *s = &ini->sections[i];
        for (size_t j = 0; j < s->len; j++) {
            free(s->kv[j].key);
            byoc_free_secret(s->kv[j].value);
        }
        free(s->kv);
        free(s->name);
    }
    free(ini->sections);
    memset(ini, 0, sizeof *ini);
}

static void trim(const char **s, size_t *n)
{
    while (*n && isspace((unsigned char)**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && isspace((unsigned char)(*s)[*n - 1]))
        (*n)--;
}

/* The option that continuation lines extend, with its value's length and
 * room: a value of many lines grows by doubling, not a copy per line. */
typedef struct {
    byoc_ini_kv *kv;
    size_t len, cap;
} open_option;

static void append_line(open_option *o, const char *s, size_t n)
{
    size_t need = o->len + 1 + n + 1;
    if (need > o->cap) {
        o->cap = need > 2 * o->cap ? need : 2 * o->cap;
        char *v = byoc_xmalloc(o->cap);
        memcpy(v, o->kv->value, o->len + 1);
        byoc_free_secret(o->kv->value); /* a value may be a secret: wiped, not left in freed memory */
        o->kv->value = v;
    }
    o->kv->value[o->len] = '\n';
    memcpy(o->kv->value + o->len + 1, s, n);
    o->len += 1 + n;
    o->kv->value[o->len] = '\0';
}

/* configparser joins continuation lines and strips the end of the result. */
static void rstrip_value(open_option *o)
{
    if (!o->kv)
        return;
    while (o->len && isspace((unsigned char)o->kv->value[o->len - 1]))
        o->kv->value[--o->len] = '\0';
    o->kv = NULL;
}

static int parse_error(byoc_err *err, const char *origin, int line, const char *why)
{
    return byoc_err_set(err, BYOC_E_ENV, "aws config", "unable to parse %s: line %d: %s",
                        origin ? origin : "config", line, why);
}

/* Is key already in section number `section`? Adds it if not. The names seen
 * are indexed, so a file of many thousands of profiles does not cost a scan
 * of all the ones before for each. */
static bool seen_before(byoc_strmap *seen, size_t section, const char *key, size_t n)
{
    char *k = byoc_xasprintf("%zu:%.*s", section, (int)n, key);
    bool seen_it = byoc_strmap_get_str(seen, k, NULL);
    if (!seen_it)
        byoc_strmap_put_str(seen, k, 0);
    free(k);
    return seen_it;
}

static int parse(const char *text, const char *origin, byoc_ini *out, byoc_strmap *seen, byoc_err *err);

int byoc_ini_parse(const char *text, const char *origin, byoc_ini *out, byoc_err *err)
{
    byoc_strmap seen = BYOC_STRMAP_INIT; /* "<section number>:key", and sections as keys of section SIZE_MAX */
    int rc = parse(text, origin, out, &seen, err);
    byoc_strmap_clear(&seen);
    return rc;
}

static int parse(const char *text, const char *origin, byoc_ini *out, byoc_strmap *seen, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_ini_section *cur = NULL;
    open_option opt = {0};
    size_t indent_level = 0;
    int lineno = 0;
    const char *s = text;
    while (*s) {
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        const char *line = s;
        s = eol ? eol + 1 : s + len;
        lineno++;
        if (len && line[len - 1] == '\r')
            len--;

        const char *v = line;
        size_t vn = len;
        trim(&v, &vn);
        if (vn == 0) {
            if (opt.kv)
                append_line(&opt, "", 0); /* kept inside a value, stripped at its end */
            continue;
        }
        if (v[0] == '#' || v[0] == ';')
            continue;
        size_t indent = (size_t)(v - line);
        if (opt.kv && indent > indent_level) {
            append_line(&opt, v, vn);
            continue;
        }
        rstrip_value(&opt);
        indent_level = indent;
        if (v[0] == '[') {
            const char *close = NULL;
            for (size_t i = vn; i > 1; i--)
                if (v[i - 1] == ']') {
                    close = v + i - 1;
                    break;
                }
            if (close && close > v + 1) {
                size_t nn = (size_t)(close - v - 1);
                if (seen_before(seen, SIZE_MAX, v + 1, nn)) {
                    byoc_ini_clear(out);
                    return parse_error(err, origin, lineno, "section appears twice");
                }
                cur = add_section(out, v + 1, nn);
                continue;
            }
        }
        if (!cur) {
            byoc_ini_clear(out);
            return parse_error(err, origin, lineno, "a key before the first [section]");
        }
        size_t d = strcspn(v, "=:");
        if (d >= vn) {
            byoc_ini_clear(out);
            return parse_error(err, origin, lineno, "expected key = value");
        }
        const char *k = v;
        size_t kn = d;
        trim(&k, &kn);
        if (kn == 0) {
            byoc_ini_clear(out);
            return parse_error(err, origin, lineno, "empty key");
        }
        char *key = byoc_xstrndup(k, kn);
        for (char *c = key; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        if (seen_before(seen, out->len - 1, key, kn)) {
            free(key);
            byoc_ini_clear(out);
            return parse_error(err, origin, lineno, "key appears twice in one section");
        }
        const char *val = v + d + 1;
        size_t valn = vn - d - 1;
        trim(&val, &valn);
        opt = (open_option){add_kv(cur, key, val, valn), valn, valn + 1};
    }
    rstrip_value(&opt);
    return 0;
}

int byoc_ini_load(const char *path, byoc_ini *out, bool *found, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    *found = false;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
        return byoc_err_set(err, BYOC_E_ENV, "aws config", "cannot read %s: %s", path, strerror(errno));
    }
    byoc_buf b = BYOC_BUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        byoc_buf_append(&b, chunk, n);
    byoc_wipe(chunk, sizeof chunk);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        byoc_buf_clear(&b);
        return byoc_err_set(err, BYOC_E_ENV, "aws config", "cannot read %s", path);
    }
    *found = true;
    int rc = byoc_ini_parse(byoc_buf_str(&b), path, out, err);
    byoc_buf_clear(&b);
    return rc;
}

const byoc_ini_section *byoc_ini_section_get(const byoc_ini *ini, const char *name)
{
    for (size_t i = 0; i < ini->len; i++)
        if (strcmp(ini->sections[i].name, name) == 0)
            return &ini->sections[i];
    return NULL;
}

const char *byoc_ini_get(const byoc_ini_section *s, const char *key)
{
    if (!s)
        return NULL;
    for (size_t i = 0; i < s->len; i++)
        if (strcmp(s->kv[i].key, key) == 0)
            return s->kv[i].value;
    return NULL;
}

char *byoc_ini_get_sub(const byoc_ini_section *s, const char *key, const char *sub)
{
    const char *v = byoc_ini_get(s, key);
    if (!v || v[0] != '\n')
        return NULL;
    for (const char *p = v + 1; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        if (eq) {
            const char *k = p;
            size_t kn = (size_t)(eq - p);
            trim(&k, &kn);
            if (kn == strlen(sub) && memcmp(k, sub, kn) == 0) {
                const char *val = eq + 1;
                size_t valn = n - (size_t)(eq - p) - 1;
                trim(&val, &valn);
                return byoc_xstrndup(val, valn);
            }
        }
        p = eol ? eol + 1 : p + n;
    }
    return NULL;
}
