#include "byoc/pyspec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"

#define MAX_PARTS 4
#define MAX_CLAUSES 16

typedef struct {
    long part[MAX_PARTS];
    int nparts;
} version;

typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_COMPAT, OP_ARBITRARY } op_kind;

typedef struct {
    op_kind op;
    version v;
    bool wildcard;   /* "==3.10.*" / "!=3.10.*" */
} clause;

/* Past PEP 440 pre/post/dev/local tags ("rc1", ".post2", "-dev0", "+ubuntu.1"). */
static const char *skip_tags(const char *s)
{
    static const char *const tags[] = {"alpha", "beta", "preview", "pre", "post", "dev", "rev", "rc", "a", "b",
                                       "c", "r", NULL};
    for (;;) {
        const char *p = s;
        if (*p == '.' || *p == '-' || *p == '_')
            p++;
        size_t n = 0;
        while (isalpha((unsigned char)p[n]))
            n++;
        bool known = false;
        for (const char *const *t = tags; *t && !known; t++)
            known = strlen(*t) == n && strncasecmp(p, *t, n) == 0;
        if (!n || !known)
            break;
        p += n;
        while (isdigit((unsigned char)*p))
            p++;
        s = p;
    }
    if (*s == '+') {
        s++;
        while (isalnum((unsigned char)*s) || *s == '.')
            s++;
    }
    return s;
}

/* Parse "3", "3.10", "3.10.4" (and ignore a trailing pre/post/dev tag). *end past it. */
static int parse_version(const char *s, version *v, bool *wildcard, const char **end)
{
    memset(v, 0, sizeof *v);
    *wildcard = false;
    if (*s == 'v' || *s == 'V')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    while (isdigit((unsigned char)*s)) {
        char *e;
        long n = strtol(s, &e, 10);
        if (v->nparts < MAX_PARTS)
            v->part[v->nparts++] = n;
        s = e;
        if (*s == '.' && isdigit((unsigned char)s[1])) {
            s++;
            continue;
        }
        if (*s == '.' && s[1] == '*') {
            *wildcard = true;
            s += 2;
        }
        break;
    }
    s = skip_tags(s); /* rc1, .post1, .dev0, +local: irrelevant for series tests */
    *end = s;
    return 0;
}

static int cmp_version(const version *a, const version *b)
{
    int n = a->nparts > b->nparts ? a->nparts : b->nparts;
    for (int i = 0; i < n; i++) {
        long x = i < a->nparts ? a->part[i] : 0, y = i < b->nparts ? b->part[i] : 0;
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* a starts with the components of prefix (for wildcards and ~=). */
static bool has_prefix(const version *a, const version *prefix, int nprefix)
{
    for (int i = 0; i < nprefix; i++) {
        long x = i < a->nparts ? a->part[i] : 0;
        if (x != prefix->part[i])
            return false;
    }
    return true;
}

static bool clause_ok(const clause *c, const version *v)
{
    int cmp = cmp_version(v, &c->v);
    switch (c->op) {
    case OP_EQ: return c->wildcard ? has_prefix(v, &c->v, c->v.nparts) : cmp == 0;
    case OP_ARBITRARY: return cmp == 0;
    case OP_NE: return c->wildcard ? !has_prefix(v, &c->v, c->v.nparts) : cmp != 0;
    case OP_LT: return cmp < 0;
    case OP_LE: return cmp <= 0;
    case OP_GT: return cmp > 0;
    case OP_GE: return cmp >= 0;
    case OP_COMPAT: /* ~=X.Y.Z: >= X.Y.Z and == X.Y.* */
        return cmp >= 0 && has_prefix(v, &c->v, c->v.nparts > 1 ? c->v.nparts - 1 : 1);
    }
    return false;
}

/* One comma/space-separated item; Poetry's ^ and ~ expand to two clauses. */
static int parse_item(const char *s, const char **end, clause *out, int *n)
{
    while (isspace((unsigned char)*s))
        s++;
    op_kind op = OP_EQ;
    int poetry = 0; /* '^' or '~' */
    bool bare = false, single_eq = false;
    if (!strncmp(s, "===", 3)) op = OP_ARBITRARY, s += 3;
    else if (!strncmp(s, "==", 2)) op = OP_EQ, s += 2;
    else if (!strncmp(s, "!=", 2)) op = OP_NE, s += 2;
    else if (!strncmp(s, "<=", 2)) op = OP_LE, s += 2;
    else if (!strncmp(s, ">=", 2)) op = OP_GE, s += 2;
    else if (!strncmp(s, "~=", 2)) op = OP_COMPAT, s += 2;
    else if (*s == '<') op = OP_LT, s++;
    else if (*s == '>') op = OP_GT, s++;
    else if (*s == '=') op = OP_EQ, single_eq = true, s++;
    else if (*s == '^' || *s == '~') poetry = *s++;
    else bare = true;
    while (isspace((unsigned char)*s))
        s++;
    version v;
    bool wildcard;
    if (parse_version(s, &v, &wildcard, end) != 0)
        return -1;
    if (*n + 2 > MAX_CLAUSES)
        return -1;
    if (poetry) {
        /* ^3.10 -> >=3.10,<4 ; ~3.10 -> >=3.10,<3.11 ; ~3 -> >=3,<4 */
        version upper = {{0}, 0};
        int keep = poetry == '^' ? 1 : (v.nparts >= 2 ? 2 : 1);
        if (poetry == '^') {
            /* the first non-zero component is bumped */
            keep = 1;
            for (int i = 0; i < v.nparts && v.part[i] == 0; i++)
                keep = i + 2 <= v.nparts ? i + 2 : v.nparts;
        }
        for (int i = 0; i < keep; i++)
            upper.part[i] = v.part[i];
        upper.nparts = keep;
        upper.part[keep - 1]++;
        out[(*n)++] = (clause){OP_GE, v, false};
        out[(*n)++] = (clause){OP_LT, upper, false};
        return 0;
    }
    if (bare || single_eq) {
        /* "3.10" or "=3.10" (conda/Pipfile style): the series */
        wildcard = true;
    }
    if (op == OP_COMPAT && v.nparts < 2)
        return -1;
    out[(*n)++] = (clause){op, v, wildcard};
    return 0;
}

static int parse_spec(const char *spec, clause *out, int *n)
{
    *n = 0;
    const char *s = spec;
    for (;;) {
        while (isspace((unsigned char)*s) || *s == ',' || *s == '"' || *s == '\'')
            s++;
        if (!*s)
            return 0;
        if (!strncmp(s, "python", 6)) { /* "python-3.10.4" (runtime.txt), "python3.11" */
            s += 6;
            if (*s == '-' || *s == '_')
                s++;
        }
        const char *end;
        if (parse_item(s, &end, out, n) != 0)
            return -1;
        s = end;
        while (isspace((unsigned char)*s) || *s == '"' || *s == '\'')
            s++;
        if (*s && *s != ',' && !strchr("<>=!~^", *s))
            return -1;
    }
}

bool byoc_pyspec_valid(const char *spec)
{
    clause c[MAX_CLAUSES];
    int n;
    return spec && parse_spec(spec, c, &n) == 0;
}

int byoc_pyspec_allows_series(const char *spec, const char *series)
{
    clause c[MAX_CLAUSES];
    int n;
    if (!spec || parse_spec(spec, c, &n) != 0)
        return -1;
    version base;
    bool wc;
    const char *end;
    if (parse_version(series, &base, &wc, &end) != 0 || base.nparts < 2)
        return -1;
    base.nparts = 2;
    /* Candidates: the series' first and a very late patch, and every patch
     * a clause mentions for this series (with its neighbours). */
    long patches[3 * MAX_CLAUSES + 2];
    int np = 0;
    patches[np++] = 0;
    patches[np++] = 100000;
    for (int i = 0; i < n; i++)
        if (c[i].v.nparts >= 3 && c[i].v.part[0] == base.part[0] && c[i].v.part[1] == base.part[1]) {
            patches[np++] = c[i].v.part[2];
            patches[np++] = c[i].v.part[2] + 1;
            if (c[i].v.part[2] > 0)
                patches[np++] = c[i].v.part[2] - 1;
        }
    for (int k = 0; k < np; k++) {
        version v = base;
        v.part[2] = patches[k];
        v.nparts = 3;
        bool ok = true;
        for (int i = 0; i < n && ok; i++)
            ok = clause_ok(&c[i], &v);
        if (ok)
            return 1;
    }
    return 0;
}
