#include "core/template.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/files.h"

#define MAX_DEPTH 16
#define MAX_PARTIAL_NESTING 4

typedef struct {
    const byoc_template_vars *v;
    byoc_err *err;
    int partial_nesting;
} renderer;

static const char *var(const byoc_template_vars *v, const char *name, size_t n)
{
    for (size_t i = 0; i < v->n; i++)
        if (strlen(v->vars[i].key) == n && !strncmp(v->vars[i].key, name, n))
            return v->vars[i].value ? v->vars[i].value : "";
    return NULL;
}

static bool truthy(const char *s)
{
    return s && *s && strcmp(s, "false") && strcmp(s, "0");
}

static int render(renderer *r, const char *name, const char *text, byoc_buf *out);

/* A line that is only "{{...}}" (with blanks around): its tag body, else NULL. */
static char *block_tag(const char *line, size_t n)
{
    size_t a = 0;
    while (a < n && (line[a] == ' ' || line[a] == '\t'))
        a++;
    while (n > a && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
        n--;
    if (n - a < 5 || strncmp(line + a, "{{", 2) || strncmp(line + n - 2, "}}", 2))
        return NULL;
    const char *body = line + a + 2;
    size_t bn = n - a - 4;
    if (memmem(body, bn, "{{", 2) || memmem(body, bn, "}}", 2))
        return NULL;
    if (bn && (body[0] == '#' || body[0] == '/' || body[0] == '>'))
        return byoc_xstrndup(body, bn);
    return NULL;
}

static int eval_cond(renderer *r, const char *name, int line, const char *cond, bool *value)
{
    bool neg = false;
    while (*cond == ' ')
        cond++;
    if (*cond == '!') {
        neg = true;
        cond++;
    }
    const char *eq = strchr(cond, '=');
    size_t n = eq ? (size_t)(eq - cond) : strlen(cond);
    while (n && cond[n - 1] == ' ')
        n--;
    const char *val = var(r->v, cond, n);
    if (!val)
        return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: unknown variable '%.*s'", line, (int)n, cond);
    bool b = eq ? strcmp(val, eq + 1) == 0 : truthy(val);
    *value = neg ? !b : b;
    return 0;
}

static int substitute(renderer *r, const char *name, int line, const char *s, size_t n, byoc_buf *out)
{
    size_t i = 0;
    while (i < n) {
        const char *open = memmem(s + i, n - i, "{{", 2);
        if (!open) {
            byoc_buf_append(out, s + i, n - i);
            break;
        }
        byoc_buf_append(out, s + i, (size_t)(open - (s + i)));
        const char *close = memmem(open + 2, n - (size_t)(open + 2 - s), "}}", 2);
        if (!close)
            return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: '{{' without '}}'", line);
        const char *k = open + 2;
        size_t kn = (size_t)(close - k);
        while (kn && *k == ' ')
            k++, kn--;
        while (kn && k[kn - 1] == ' ')
            kn--;
        const char *val = var(r->v, k, kn);
        if (!val)
            return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: unknown variable '%.*s'", line, (int)kn, k);
        byoc_buf_puts(out, val);
        i = (size_t)(close + 2 - s);
    }
    return 0;
}

static int include_partial(renderer *r, const char *name, int line, const char *partial, byoc_buf *out)
{
    if (!r->v->partials_dir)
        return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: partial '%s' but no partials directory", line,
                            partial);
    if (r->partial_nesting >= MAX_PARTIAL_NESTING)
        return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: partials nested too deeply", line);
    if (strchr(partial, '/') || !*partial)
        return byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: bad partial name '%s'", line, partial);
    char *file = byoc_xasprintf("%s.tmpl", partial);
    char *path = byoc_path_join(r->v->partials_dir, file);
    free(file);
    char *text = NULL;
    byoc_err rerr;
    int rc;
    if (byoc_file_read(path, 1u << 20, &text, NULL, NULL, &rerr) != 0) {
        rc = byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: partial '%s': %s", line, partial, rerr.message);
    } else {
        r->partial_nesting++;
        rc = render(r, path, text, out);
        r->partial_nesting--;
    }
    free(text);
    free(path);
    return rc;
}

static int render(renderer *r, const char *name, const char *text, byoc_buf *out)
{
    /* emit[d]: whether lines are kept at nesting depth d; seen_else[d] guards a second {{#else}} */
    bool emit[MAX_DEPTH + 1] = {true}, cond[MAX_DEPTH + 1] = {true}, seen_else[MAX_DEPTH + 1] = {false};
    int depth = 0, line = 0;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        line++;
        char *tag = block_tag(p, n);
        int rc = 0;
        if (tag && !strncmp(tag, "#if ", 4)) {
            if (depth == MAX_DEPTH)
                rc = byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: blocks nested too deeply", line);
            bool v = false;
            if (!rc)
                rc = eval_cond(r, name, line, tag + 4, &v);
            if (!rc) {
                depth++;
                cond[depth] = v;
                seen_else[depth] = false;
                emit[depth] = emit[depth - 1] && v;
            }
        } else if (tag && !strcmp(tag, "#else")) {
            if (depth == 0 || seen_else[depth])
                rc = byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: {{#else}} without {{#if}}", line);
            else {
                seen_else[depth] = true;
                emit[depth] = emit[depth - 1] && !cond[depth];
            }
        } else if (tag && !strcmp(tag, "/if")) {
            if (depth == 0)
                rc = byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: {{/if}} without {{#if}}", line);
            else
                depth--;
        } else if (tag && tag[0] == '>') {
            if (emit[depth]) {
                char *partial = byoc_xstrdup(tag + 1);
                char *s = partial;
                while (*s == ' ')
                    s++;
                rc = include_partial(r, name, line, s, out);
                free(partial);
            }
        } else if (tag) {
            rc = byoc_err_set(r->err, BYOC_E_FAILED, name, "line %d: unknown block tag '{{%s}}'", line, tag);
        } else if (emit[depth]) {
            rc = substitute(r, name, line, p, n, out);
            if (!rc && nl)
                byoc_buf_putc(out, '\n');
        }
        free(tag);
        if (rc)
            return rc;
        p = nl ? nl + 1 : p + n;
    }
    if (depth != 0)
        return byoc_err_set(r->err, BYOC_E_FAILED, name, "{{#if}} not closed at the end");
    return 0;
}

int byoc_template_render(const char *name, const char *text, const byoc_template_vars *v, char **out, byoc_err *err)
{
    renderer r = {v, err, 0};
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_reserve(&b, 1);
    if (render(&r, name, text, &b) != 0) {
        byoc_buf_clear(&b);
        *out = NULL;
        return -1;
    }
    *out = byoc_buf_steal(&b);
    return 0;
}
