#include "byoc/dockerfile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "byoc/shellword.h"
#include "core/buf.h"
#include "core/files.h"
#include "core/str.h"
#include "core/strmap.h"
#include "core/strv.h"

#define MAX_DIAGS 100

typedef struct {
    const char *s;
    size_t len;
} span;

/* Variables in declaration order, with an index by name: a Dockerfile of
 * thousands of ARG or ENV lines must not cost a scan per reference. */
typedef struct {
    byoc_df_var *v;
    size_t n, cap;
    byoc_strmap by_name;
} varlist;

/* ENV a stage inherits from its base is copied into it. A chain of stages
 * each adding to the last would copy quadratically (a 170 KB Dockerfile took
 * a gigabyte), so the copies stop at this many variables, with a warning. */
#define MAX_INHERITED_ENV 100000

typedef struct parser {
    byoc_dockerfile *df;
    const byoc_df_options *opts;
    span *lines;
    size_t n_lines;
    size_t pos;             /* next physical line to read */
    varlist builtins;       /* TARGETARCH and friends */
    varlist globals;        /* ARGs before the first FROM; moved into df when parsing ends */
    varlist stage_args;     /* ARGs declared in the current stage */
    varlist stage_env;      /* ENV of the current stage; moved into its stage when it ends */
    byoc_strmap stage_names; /* lower-case stage name -> index of its first stage */
    size_t inherited_env;   /* variables copied from base stages so far */
    bool in_stage;
} parser;

static const char *const keywords[] = {"ADD", "ARG", "CMD", "COPY", "ENTRYPOINT", "ENV", "EXPOSE", "FROM",
                                       "HEALTHCHECK", "LABEL", "MAINTAINER", "ONBUILD", "RUN", "SHELL",
                                       "STOPSIGNAL", "USER", "VOLUME", "WORKDIR", NULL};

static bool is_keyword(const char *k)
{
    for (const char *const *p = keywords; *p; p++)
        if (strcmp(*p, k) == 0)
            return true;
    return false;
}

/* ---- diagnostics ------------------------------------------------------- */

static void diag(parser *p, int line, bool error, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void diag(parser *p, int line, bool error, const char *fmt, ...)
{
    byoc_dockerfile *df = p->df;
    if (df->n_diags >= MAX_DIAGS)
        return;
    df->diags = byoc_grow_for_one(df->diags, df->n_diags, sizeof *df->diags);
    byoc_df_diag *d = &df->diags[df->n_diags++];
    d->line = line;
    d->error = error;
    byoc_buf b = BYOC_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (df->n_diags == MAX_DIAGS)
        byoc_buf_puts(&b, " (further problems not shown)");
    d->message = byoc_buf_steal(&b);
    if (error)
        df->n_errors++;
}

/* ---- variables --------------------------------------------------------- */

static byoc_df_var *var_find(varlist *l, const char *name)
{
    size_t i;
    return byoc_strmap_get_str(&l->by_name, name, &i) ? &l->v[i] : NULL;
}

static void var_set(varlist *l, const char *name, const char *value)
{
    byoc_df_var *v = var_find(l, name);
    if (!v) {
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 8;
            l->v = byoc_xrealloc(l->v, l->cap * sizeof *l->v);
        }
        byoc_strmap_put_str(&l->by_name, name, l->n);
        v = &l->v[l->n++];
        v->name = byoc_xstrdup(name);
        v->value = NULL;
    }
    free(v->value);
    v->value = byoc_xstrdup_opt(value);
}

static void var_free_all(byoc_df_var *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].value);
    }
    free(v);
}

static void varlist_copy(varlist *dst, const byoc_df_var *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        var_set(dst, src[i].name, src[i].value);
}

static void varlist_clear(varlist *l)
{
    var_free_all(l->v, l->n);
    byoc_strmap_clear(&l->by_name);
    *l = (varlist){0};
}

/* The array of l, which is left empty; the caller owns the array. */
static byoc_df_var *varlist_take(varlist *l, size_t *n)
{
    byoc_df_var *v = l->v;
    *n = l->n;
    byoc_strmap_clear(&l->by_name);
    *l = (varlist){0};
    return v;
}

static const char *build_arg(const parser *p, const char *name)
{
    if (!p->opts)
        return NULL;
    for (size_t i = 0; i < p->opts->n_build_args; i++)
        if (strcmp(p->opts->build_args[i].key, name) == 0)
            return p->opts->build_args[i].value;
    return NULL;
}

/* Variables visible to the instruction being parsed. */
static const char *lookup(void *ctx, const char *name)
{
    parser *p = ctx;
    if (!p->in_stage) {
        byoc_df_var *v = var_find(&p->globals, name);
        if (v)
            return v->value;
        v = var_find(&p->builtins, name);
        return v ? v->value : NULL;
    }
    byoc_df_var *v = var_find(&p->stage_env, name);
    if (v)
        return v->value;
    v = var_find(&p->stage_args, name);
    return v ? v->value : NULL;
}

/* ---- lines ------------------------------------------------------------- */

static void split_lines(parser *p, const char *text, size_t len)
{
    size_t cap = 64;
    p->lines = byoc_xmalloc(cap * sizeof *p->lines);
    size_t i = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && text[j] != '\n')
            j++;
        size_t n = j - i;
        if (n && text[i + n - 1] == '\r')
            n--;
        if (p->n_lines == cap) {
            cap *= 2;
            p->lines = byoc_xrealloc(p->lines, cap * sizeof *p->lines);
        }
        p->lines[p->n_lines++] = (span){text + i, n};
        i = j + 1;
    }
}

static bool blank(span l)
{
    for (size_t i = 0; i < l.len; i++)
        if (!isspace((unsigned char)l.s[i]))
            return false;
    return true;
}

static bool comment(span l)
{
    size_t i = 0;
    while (i < l.len && isspace((unsigned char)l.s[i]))
        i++;
    return i < l.len && l.s[i] == '#';
}

/* Parser directives: "# name=value" lines at the very top. */
static void read_directives(parser *p)
{
    bool seen_escape = false, seen_syntax = false;
    while (p->pos < p->n_lines) {
        span l = p->lines[p->pos];
        char *t = byoc_xstrndup(l.s, l.len);
        char *s = t;
        while (isspace((unsigned char)*s))
            s++;
        bool taken = false;
        if (*s == '#') {
            s++;
            while (isspace((unsigned char)*s))
                s++;
            size_t n = 0;
            while (isalpha((unsigned char)s[n]))
                n++;
            char *after = s + n;
            while (isspace((unsigned char)*after))
                after++;
            if (n && *after == '=') {
                char *val = after + 1;
                while (isspace((unsigned char)*val))
                    val++;
                size_t vn = strlen(val);
                while (vn && isspace((unsigned char)val[vn - 1]))
                    val[--vn] = '\0';
                if (n == 6 && !strncasecmp(s, "escape", 6) && !seen_escape) {
                    seen_escape = taken = true;
                    if (strcmp(val, "\\") == 0 || strcmp(val, "`") == 0)
                        p->df->escape = val[0];
                    else
                        diag(p, (int)p->pos + 1, true, "invalid escape directive '%s': use \\ or `", val);
                } else if (n == 6 && !strncasecmp(s, "syntax", 6) && !seen_syntax) {
                    seen_syntax = taken = true;
                    p->df->syntax = byoc_xstrdup(val);
                } else if (n == 5 && !strncasecmp(s, "check", 5)) {
                    taken = true;
                }
            }
        }
        free(t);
        if (!taken)
            return;
        p->pos++;
    }
}

/* Does the line end (before trailing blanks) with the escape character? Sets *n to the length
 * without it. */
static bool continues(span l, char esc, size_t *n)
{
    size_t k = l.len;
    while (k && (l.s[k - 1] == ' ' || l.s[k - 1] == '\t'))
        k--;
    if (k && l.s[k - 1] == esc) {
        *n = k - 1;
        return true;
    }
    *n = l.len;
    return false;
}

/* ---- instructions ------------------------------------------------------ */

static byoc_df_instr *new_instr(parser *p)
{
    byoc_dockerfile *df = p->df;
    df->instrs = byoc_grow_for_one(df->instrs, df->n_instrs, sizeof *df->instrs);
    byoc_df_instr *in = &df->instrs[df->n_instrs++];
    memset(in, 0, sizeof *in);
    in->stage = -1;
    return in;
}

static void push_arg(byoc_df_instr *in, char *a)
{
    in->args = byoc_grow_for_one(in->args, in->args ? in->n_args + 1 : 0, sizeof *in->args); /* and its NULL */
    in->args[in->n_args++] = a;
    in->args[in->n_args] = NULL;
}

static void push_pair(byoc_df_instr *in, const char *k, const char *v)
{
    in->pairs = byoc_grow_for_one(in->pairs, in->n_pairs, sizeof *in->pairs);
    in->pairs[in->n_pairs].name = byoc_xstrdup(k);
    in->pairs[in->n_pairs].value = byoc_xstrdup_opt(v);
    in->n_pairs++;
}

static bool expands(const char *kw)
{
    static const char *const list[] = {"FROM", "ADD", "COPY", "ENV", "ARG", "LABEL", "EXPOSE",
                                       "STOPSIGNAL", "USER", "VOLUME", "WORKDIR", NULL};
    for (const char *const *k = list; *k; k++)
        if (strcmp(*k, kw) == 0)
            return true;
    return false;
}

static bool takes_flags(const char *kw)
{
    return !strcmp(kw, "FROM") || !strcmp(kw, "COPY") || !strcmp(kw, "ADD") || !strcmp(kw, "RUN") ||
           !strcmp(kw, "HEALTHCHECK");
}

static bool has_heredocs(const char *kw)
{
    return !strcmp(kw, "RUN") || !strcmp(kw, "COPY") || !strcmp(kw, "ADD");
}

/* Leading --flags of `rest`; returns a pointer past them. */
static const char *take_flags(parser *p, byoc_df_instr *in, const char *rest)
{
    const char *s = rest, *end = rest + strlen(rest);
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (s[0] != '-' || s[1] != '-' || !isalpha((unsigned char)s[2]))
            return s;
        size_t tlen = byoc_sw_token_len(s, (size_t)(end - s), p->df->escape);
        char *t = byoc_xstrndup(s, tlen);
        const char *eq = strchr(t, '=');
        in->flags = byoc_grow_for_one(in->flags, in->n_flags, sizeof *in->flags);
        byoc_df_flag *f = &in->flags[in->n_flags++];
        f->name = byoc_xstrndup(t + 2, eq ? (size_t)(eq - t - 2) : tlen - 2);
        f->value = NULL;
        if (eq)
            f->value = byoc_sw_word(eq + 1, strlen(eq + 1), p->df->escape,
                                    expands(in->keyword) ? lookup : NULL, p);
        s += tlen;
        free(t);
    }
}

static void try_json(parser *p, byoc_df_instr *in)
{
    const char *r = in->rest;
    if (*r != '[')
        return;
    json_error_t je;
    json_t *a = json_loads(r, JSON_DECODE_ANY, &je);
    bool ok = json_is_array(a);
    size_t i;
    json_t *e;
    if (ok)
        json_array_foreach(a, i, e) ok = ok && json_is_string(e);
    if (ok) {
        in->json_form = true;
        json_array_foreach(a, i, e) push_arg(in, byoc_xstrdup(json_string_value(e)));
    } else if (!strcmp(in->keyword, "CMD") || !strcmp(in->keyword, "ENTRYPOINT") ||
               !strcmp(in->keyword, "RUN") || !strcmp(in->keyword, "SHELL")) {
        diag(p, in->line, false,
             "%s looks like JSON (exec form) but is not a valid JSON array of strings: it runs as a shell "
             "command (use double quotes in exec form)",
             in->keyword);
    }
    json_decref(a);
}

/* Heredoc markers among the raw words of `rest`: "<<EOF", "<<-EOF", "<<'EOF'", "<<\"EOF\"". */
static void read_heredocs(parser *p, byoc_df_instr *in)
{
    byoc_strv words = BYOC_STRV_INIT;
    byoc_sw_split_raw(in->rest, p->df->escape, &words);
    for (size_t w = 0; w < words.n; w++) {
        const char *t = words.v[w];
        if (strncmp(t, "<<", 2) != 0 || t[2] == '<')
            continue;
        t += 2;
        bool strip = false;
        if (*t == '-') {
            strip = true;
            t++;
        }
        char q = (*t == '"' || *t == '\'') ? *t : 0;
        size_t n = strlen(t);
        char *delim;
        if (q) {
            if (n < 2 || t[n - 1] != q)
                continue;
            delim = byoc_xstrndup(t + 1, n - 2);
        } else {
            delim = byoc_xstrdup(t);
        }
        bool valid = *delim != '\0';
        for (const char *c = delim; *c && valid; c++)
            valid = isalnum((unsigned char)*c) || *c == '_' || *c == '-' || *c == '.';
        if (!valid) {
            free(delim);
            continue;
        }
        in->heredocs = byoc_grow_for_one(in->heredocs, in->n_heredocs, sizeof *in->heredocs);
        byoc_df_heredoc *h = &in->heredocs[in->n_heredocs++];
        h->delimiter = delim;
        h->expand = !q;
        h->strip_tabs = strip;
        h->line = (int)p->pos + 1;
        byoc_buf body = BYOC_BUF_INIT;
        byoc_buf_reserve(&body, 1);
        bool closed = false;
        while (p->pos < p->n_lines) {
            span l = p->lines[p->pos++];
            size_t k = 0;
            if (strip)
                while (k < l.len && l.s[k] == '\t')
                    k++;
            if (l.len - k == strlen(delim) && memcmp(l.s + k, delim, l.len - k) == 0) {
                closed = true;
                break;
            }
            byoc_buf_append(&body, l.s + k, l.len - k);
            byoc_buf_putc(&body, '\n');
        }
        h->body = byoc_buf_steal(&body);
        in->end_line = (int)p->pos;
        if (!closed)
            diag(p, in->line, true, "heredoc '%s' is never closed: no line with just '%s' follows", delim, delim);
    }
    byoc_strv_clear(&words);
}

/* key=value pairs of ENV/ARG/LABEL (and the legacy "ENV key value" form). */
static void read_pairs(parser *p, byoc_df_instr *in, bool is_arg)
{
    byoc_strv raw = BYOC_STRV_INIT;
    byoc_sw_split_raw(in->rest, p->df->escape, &raw);
    if (raw.n == 0) {
        diag(p, in->line, true, "%s needs at least one argument", in->keyword);
        byoc_strv_clear(&raw);
        return;
    }
    if (!is_arg && !strchr(raw.v[0], '=')) {
        /* legacy: ENV key value with spaces */
        if (raw.n < 2) {
            diag(p, in->line, true, "%s %s has no value (write %s %s=value)", in->keyword, raw.v[0], in->keyword,
                 raw.v[0]);
        } else {
            const char *v = in->rest + strcspn(in->rest, " \t");
            while (isspace((unsigned char)*v))
                v++;
            char *val = byoc_sw_word(v, strlen(v), p->df->escape, lookup, p);
            push_pair(in, raw.v[0], val);
            free(val);
            if (strcmp(in->keyword, "ENV") == 0)
                diag(p, in->line, false, "legacy \"ENV key value\" form: prefer ENV %s=value", raw.v[0]);
        }
        byoc_strv_clear(&raw);
        return;
    }
    for (size_t i = 0; i < raw.n; i++) {
        const char *t = raw.v[i];
        const char *eq = strchr(t, '=');
        if (!eq && !is_arg) {
            diag(p, in->line, true, "%s: '%s' is not key=value", in->keyword, t);
            continue;
        }
        char *key = byoc_sw_word(t, eq ? (size_t)(eq - t) : strlen(t), p->df->escape, NULL, NULL);
        if (!*key) {
            diag(p, in->line, true, "%s: empty name in '%s'", in->keyword, t);
            free(key);
            continue;
        }
        char *val = eq ? byoc_sw_word(eq + 1, strlen(eq + 1), p->df->escape, lookup, p) : NULL;
        push_pair(in, key, val);
        free(key);
        free(val);
    }
    byoc_strv_clear(&raw);
}

static bool valid_stage_name(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
            return false;
    return true;
}

static void lower(char *s)
{
    for (; *s; s++)
        *s = (char)tolower((unsigned char)*s);
}

/* Move the current stage's ENV into it. */
static void end_stage(parser *p)
{
    if (!p->in_stage || p->df->n_stages == 0)
        return;
    byoc_df_stage *st = &p->df->stages[p->df->n_stages - 1];
    st->env = varlist_take(&p->stage_env, &st->n_env);
}

static void on_from(parser *p, byoc_df_instr *in)
{
    byoc_dockerfile *df = p->df;
    end_stage(p);
    p->in_stage = false; /* FROM sees the global scope */
    byoc_strv words = BYOC_STRV_INIT;
    byoc_sw_words(in->rest, df->escape, lookup, p, &words);
    if (byoc_sw_has_unset(in->rest, df->escape, lookup, p))
        diag(p, in->line, false,
             "FROM uses a variable with no value ('%s'): declare it with ARG before the first FROM, with a "
             "default or a build arg",
             in->rest);
    const char *platform = byoc_df_flag_value(in, "platform");
    df->stages = byoc_grow_for_one(df->stages, df->n_stages, sizeof *df->stages);
    byoc_df_stage *st = &df->stages[df->n_stages];
    memset(st, 0, sizeof *st);
    st->base_stage = -1;
    st->line = in->line;
    st->first_instr = df->n_instrs - 1;
    st->platform = byoc_xstrdup_opt(platform);
    if (words.n == 0) {
        diag(p, in->line, true, "FROM needs an image (FROM image [AS name])");
        st->base = byoc_xstrdup("");
    } else {
        st->base = byoc_xstrdup(words.v[0]);
        if (!*st->base)
            diag(p, in->line, true, "FROM image is empty after substitution ('%s')", in->rest);
        /* the base is an earlier stage, looked up before this one takes its name:
         * in FROM a AS a, the base is the image a */
        char *b = byoc_xstrdup(st->base);
        lower(b);
        size_t base;
        if (byoc_strmap_get_str(&p->stage_names, b, &base))
            st->base_stage = (int)base;
        free(b);
        if (words.n == 3 && strcasecmp(words.v[1], "as") == 0) {
            char *name = byoc_xstrdup(words.v[2]);
            lower(name);
            if (!valid_stage_name(name))
                diag(p, in->line, true, "invalid stage name '%s'", words.v[2]);
            else if (byoc_strmap_get_str(&p->stage_names, name, NULL))
                diag(p, in->line, true, "duplicate stage name '%s'", name);
            else
                byoc_strmap_put_str(&p->stage_names, name, df->n_stages);
            st->name = name;
        } else if (words.n != 1) {
            diag(p, in->line, true, "FROM takes an image and an optional AS name, not %zu words", words.n);
        }
    }
    for (size_t i = 0; i < words.n; i++)
        push_arg(in, byoc_xstrdup(words.v[i]));
    byoc_strv_clear(&words);
    in->stage = (int)df->n_stages;
    df->n_stages++;
    /* a new stage: its own ARGs; ENV inherited from a base stage */
    varlist_clear(&p->stage_args);
    if (st->base_stage >= 0) {
        const byoc_df_stage *base = &df->stages[st->base_stage];
        if (p->inherited_env + base->n_env <= MAX_INHERITED_ENV) {
            varlist_copy(&p->stage_env, base->env, base->n_env);
            p->inherited_env += base->n_env;
        } else if (p->inherited_env <= MAX_INHERITED_ENV) {
            p->inherited_env = MAX_INHERITED_ENV + 1; /* warn once */
            diag(p, in->line, false,
                 "stages inherit more than %d ENV variables in all: from here on byoc does not carry a base "
                 "stage's ENV into the stage built on it, so its checks may miss values",
                 MAX_INHERITED_ENV);
        }
    }
    p->in_stage = true;
}

static void on_arg(parser *p, byoc_df_instr *in)
{
    for (size_t i = 0; i < in->n_pairs; i++) {
        byoc_df_var *pv = &in->pairs[i];
        const char *given = build_arg(p, pv->name);
        const char *value = given ? given : pv->value;
        if (!p->in_stage) {
            var_set(&p->globals, pv->name, value);
        } else {
            if (!value) { /* re-declared global ARG or builtin */
                byoc_df_var *gv = var_find(&p->globals, pv->name);
                if (!gv)
                    gv = var_find(&p->builtins, pv->name);
                value = gv ? gv->value : NULL;
            }
            var_set(&p->stage_args, pv->name, value);
        }
    }
}

static void on_env(parser *p, byoc_df_instr *in)
{
    for (size_t i = 0; i < in->n_pairs; i++)
        var_set(&p->stage_env, in->pairs[i].name, in->pairs[i].value ? in->pairs[i].value : "");
}

static void check_copy_from(parser *p, byoc_df_instr *in)
{
    const char *from = byoc_df_flag_value(in, "from");
    if (!from)
        return;
    if (!*from) {
        diag(p, in->line, true, "%s --from needs a stage name, index or image", in->keyword);
        return;
    }
    int cur = in->stage;
    char *end;
    long idx = strtol(from, &end, 10);
    if (*end == '\0') {
        if (idx < 0 || idx >= cur)
            diag(p, in->line, true, "%s --from=%ld: only earlier stages (0..%d) can be copied from", in->keyword,
                 idx, cur - 1);
        return;
    }
    char *name = byoc_xstrdup(from);
    lower(name);
    size_t found;
    int st = byoc_strmap_get_str(&p->stage_names, name, &found) ? (int)found : -1;
    if (st >= 0 && st >= cur)
        diag(p, in->line, true, "%s --from=%s refers to %s stage", in->keyword, from,
             st == cur ? "its own" : "a later");
    free(name);
}

static void finish_instr(parser *p, byoc_df_instr *in)
{
    const char *kw = in->keyword;
    bool exp = expands(kw);
    if (!strcmp(kw, "FROM")) {
        on_from(p, in);
        return;
    }
    in->stage = p->in_stage ? (int)p->df->n_stages - 1 : -1;
    if (!p->in_stage && strcmp(kw, "ARG") != 0)
        diag(p, in->line, true, "%s before the first FROM (only ARG may come before FROM)", kw);
    if (!strcmp(kw, "ARG")) {
        read_pairs(p, in, true);
        on_arg(p, in);
        return;
    }
    if (!strcmp(kw, "ENV") || !strcmp(kw, "LABEL")) {
        read_pairs(p, in, false);
        if (!strcmp(kw, "ENV") && p->in_stage)
            on_env(p, in);
        return;
    }
    try_json(p, in);
    if (!in->json_form) {
        if (exp) {
            byoc_strv words = BYOC_STRV_INIT;
            byoc_sw_words(in->rest, p->df->escape, lookup, p, &words);
            for (size_t i = 0; i < words.n; i++)
                push_arg(in, byoc_xstrdup(words.v[i]));
            byoc_strv_clear(&words);
        } else if (*in->rest) {
            push_arg(in, byoc_xstrdup(in->rest));
        }
    } else if (exp) {
        for (size_t i = 0; i < in->n_args; i++) {
            char *e = byoc_sw_word(in->args[i], strlen(in->args[i]), p->df->escape, lookup, p);
            free(in->args[i]);
            in->args[i] = e;
        }
    }
    if (!strcmp(kw, "COPY") || !strcmp(kw, "ADD")) {
        if (in->n_args + (in->n_args ? 0 : in->n_heredocs) < 2 && !(in->n_heredocs && in->n_args >= 1))
            diag(p, in->line, true, "%s needs a source and a destination", kw);
    } else if (!strcmp(kw, "SHELL")) {
        if (!in->json_form)
            diag(p, in->line, true, "SHELL must be in JSON form: SHELL [\"executable\", \"parameters\"]");
    } else if (!strcmp(kw, "MAINTAINER")) {
        diag(p, in->line, false, "MAINTAINER is deprecated: use LABEL org.opencontainers.image.authors=...");
    } else if (!strcmp(kw, "ONBUILD")) {
        char first[32] = "";
        sscanf(in->rest, "%31s", first);
        for (char *c = first; *c; c++)
            *c = (char)toupper((unsigned char)*c);
        if (!is_keyword(first) || !strcmp(first, "ONBUILD") || !strcmp(first, "FROM") ||
            !strcmp(first, "MAINTAINER"))
            diag(p, in->line, true, "ONBUILD needs an instruction other than ONBUILD, FROM or MAINTAINER");
    }
    if (in->n_args == 0 && in->n_heredocs == 0 && strcmp(kw, "CMD") && strcmp(kw, "ENTRYPOINT"))
        diag(p, in->line, true, "%s needs an argument", kw);
}

/* One logical line starting at physical line p->pos (not blank, not a comment). */
static void read_instruction(parser *p)
{
    int first = (int)p->pos + 1;
    byoc_buf logical = BYOC_BUF_INIT;
    char esc = p->df->escape;
    for (;;) {
        span l = p->lines[p->pos++];
        size_t n;
        bool more = continues(l, esc, &n);
        byoc_buf_append(&logical, l.s, n);
        if (!more)
            break;
        /* comments and blank lines inside a continuation are dropped */
        while (p->pos < p->n_lines && (comment(p->lines[p->pos]) || blank(p->lines[p->pos]))) {
            if (blank(p->lines[p->pos]))
                diag(p, (int)p->pos + 1, false, "empty continuation line (a future Docker will reject it)");
            p->pos++;
        }
        if (p->pos >= p->n_lines)
            break;
    }
    char *text = byoc_buf_steal(&logical);
    char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    size_t kn = strcspn(s, " \t");
    byoc_df_instr *in = new_instr(p);
    in->keyword = byoc_xstrndup(s, kn);
    for (char *c = in->keyword; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    in->line = first;
    in->end_line = (int)p->pos;
    const char *rest = s + kn;
    while (isspace((unsigned char)*rest))
        rest++;
    in->original = byoc_xstrdup(rest);
    size_t rn = strlen(in->original);
    while (rn && isspace((unsigned char)in->original[rn - 1]))
        in->original[--rn] = '\0';
    if (!is_keyword(in->keyword)) {
        diag(p, first, true, "unknown instruction '%.40s'", in->keyword);
        in->rest = byoc_xstrdup(in->original);
        in->stage = p->in_stage ? (int)p->df->n_stages - 1 : -1;
        free(text);
        return;
    }
    if (!strcmp(in->keyword, "FROM")) { /* FROM and its flags see the global scope */
        end_stage(p);
        p->in_stage = false;
    }
    const char *after_flags = takes_flags(in->keyword) ? take_flags(p, in, in->original) : in->original;
    in->rest = byoc_xstrdup(after_flags);
    if (has_heredocs(in->keyword))
        read_heredocs(p, in);
    finish_instr(p, in);
    free(text);
}

static void set_builtins(parser *p)
{
    const char *arch = p->opts && p->opts->target_arch ? p->opts->target_arch : "amd64";
    char plat[64];
    snprintf(plat, sizeof plat, "linux/%s", arch);
    const char *names[][2] = {{"TARGETPLATFORM", plat}, {"TARGETOS", "linux"}, {"TARGETARCH", arch},
                              {"TARGETVARIANT", ""},    {"BUILDPLATFORM", plat}, {"BUILDOS", "linux"},
                              {"BUILDARCH", arch},      {"BUILDVARIANT", ""}};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        var_set(&p->builtins, names[i][0], names[i][1]);
}

void byoc_dockerfile_parse(const char *text, size_t len, const byoc_df_options *opts, byoc_dockerfile *out)
{
    memset(out, 0, sizeof *out);
    out->escape = '\\';
    parser p = {0};
    p.df = out;
    p.opts = opts;
    if (len && (memchr(text, '\0', len) || byoc_text_is_binary(text, len))) {
        diag(&p, 1, true, "the file is binary, not a Dockerfile");
        return;
    }
    set_builtins(&p);
    split_lines(&p, text, len);
    read_directives(&p);
    while (p.pos < p.n_lines) {
        span l = p.lines[p.pos];
        if (blank(l) || comment(l)) {
            p.pos++;
            continue;
        }
        read_instruction(&p);
    }
    end_stage(&p);
    for (size_t i = 0; i < out->n_instrs; i++) /* stage names are known only now */
        if (!strcmp(out->instrs[i].keyword, "COPY") || !strcmp(out->instrs[i].keyword, "ADD"))
            check_copy_from(&p, &out->instrs[i]);
    for (size_t s = 0; s < out->n_stages; s++) {
        size_t end = s + 1 < out->n_stages ? out->stages[s + 1].first_instr : out->n_instrs;
        out->stages[s].n_instrs = end - out->stages[s].first_instr;
    }
    if (out->n_instrs == 0)
        diag(&p, 1, true, "the Dockerfile has no instructions");
    else if (out->n_stages == 0)
        diag(&p, 1, true, "no FROM instruction: every build needs a base image");
    free(p.lines);
    out->global_args = varlist_take(&p.globals, &out->n_global_args);
    varlist_clear(&p.builtins);
    varlist_clear(&p.stage_args);
    varlist_clear(&p.stage_env);
    byoc_strmap_clear(&p.stage_names);
}

void byoc_dockerfile_clear(byoc_dockerfile *df)
{
    for (size_t i = 0; i < df->n_instrs; i++) {
        byoc_df_instr *in = &df->instrs[i];
        free(in->keyword);
        free(in->original);
        free(in->rest);
        for (size_t k = 0; k < in->n_flags; k++) {
            free(in->flags[k].name);
            free(in->flags[k].value);
        }
        free(in->flags);
        for (size_t k = 0; k < in->n_args; k++)
            free(in->args[k]);
        free(in->args);
        var_free_all(in->pairs, in->n_pairs);
        for (size_t k = 0; k < in->n_heredocs; k++) {
            free(in->heredocs[k].delimiter);
            free(in->heredocs[k].body);
        }
        free(in->heredocs);
    }
    free(df->instrs);
    for (size_t i = 0; i < df->n_stages; i++) {
        free(df->stages[i].name);
        free(df->stages[i].base);
        free(df->stages[i].platform);
        var_free_all(df->stages[i].env, df->stages[i].n_env);
    }
    free(df->stages);
    for (size_t i = 0; i < df->n_diags; i++)
        free(df->diags[i].message);
    free(df->diags);
    free(df->syntax);
    var_free_all(df->global_args, df->n_global_args);
    memset(df, 0, sizeof *df);
}

const char *byoc_df_flag_value(const byoc_df_instr *in, const char *name)
{
    for (size_t i = 0; i < in->n_flags; i++)
        if (strcmp(in->flags[i].name, name) == 0)
            return in->flags[i].value ? in->flags[i].value : "";
    return NULL;
}

const char *byoc_df_pair_value(const byoc_df_instr *in, const char *name)
{
    for (size_t i = 0; i < in->n_pairs; i++)
        if (strcmp(in->pairs[i].name, name) == 0)
            return in->pairs[i].value;
    return NULL;
}

const byoc_df_stage *byoc_df_final_stage(const byoc_dockerfile *df)
{
    return df->n_stages ? &df->stages[df->n_stages - 1] : NULL;
}

int byoc_df_find_stage(const byoc_dockerfile *df, const char *ref)
{
    char *end;
    long idx = strtol(ref, &end, 10);
    if (*ref && *end == '\0')
        return idx >= 0 && (size_t)idx < df->n_stages ? (int)idx : -1;
    for (size_t i = 0; i < df->n_stages; i++)
        if (df->stages[i].name && strcasecmp(df->stages[i].name, ref) == 0)
            return (int)i;
    return -1;
}

const char *byoc_df_stage_env(const byoc_df_stage *st, const char *name)
{
    for (size_t i = 0; i < st->n_env; i++)
        if (strcmp(st->env[i].name, name) == 0)
            return st->env[i].value;
    return NULL;
}

const char *byoc_df_stage_root_image(const byoc_dockerfile *df, int stage)
{
    for (size_t guard = 0; stage >= 0 && (size_t)stage < df->n_stages && guard <= df->n_stages; guard++) {
        if (df->stages[stage].base_stage < 0)
            return df->stages[stage].base;
        stage = df->stages[stage].base_stage;
    }
    return NULL;
}
