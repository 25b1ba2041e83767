#include "core/textdiff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

typedef struct {
    const char *p;
    size_t len;
} line;

static line *split_lines(const char *s, size_t *n)
{
    *n = 0;
    if (!s || !*s)
        return byoc_xcalloc(1, sizeof(line));
    size_t cap = 16;
    line *v = byoc_xmalloc(cap * sizeof *v);
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (*n == cap)
            v = byoc_xrealloc(v, (cap *= 2) * sizeof *v);
        v[(*n)++] = (line){s, len};
        s += len + (nl ? 1 : 0);
    }
    return v;
}

static bool same(const line *x, const line *y)
{
    return x->len == y->len && memcmp(x->p, y->p, x->len) == 0;
}

/* One edit-script entry: ' ' keep, '-' from a, '+' from b. */
typedef struct {
    char op;
    size_t ai, bi;  /* positions in a and b before this entry */
} edit;

static edit *script(const line *a, size_t na, const line *b, size_t nb, size_t *n_out)
{
    /* lcs[i][j] = LCS length of a[i..] and b[j..]. */
    size_t w = nb + 1;
    uint32_t *lcs = byoc_xcalloc((na + 1) * w, sizeof *lcs);
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;)
            lcs[i * w + j] = same(&a[i], &b[j]) ? lcs[(i + 1) * w + j + 1] + 1
                             : lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] ? lcs[(i + 1) * w + j]
                                                                          : lcs[i * w + j + 1];
    edit *e = byoc_xmalloc((na + nb + 1) * sizeof *e);
    size_t n = 0, i = 0, j = 0;
    while (i < na || j < nb) {
        if (i < na && j < nb && same(&a[i], &b[j])) {
            e[n++] = (edit){' ', i++, j++};
        } else if (i < na && (j == nb || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])) {
            e[n++] = (edit){'-', i++, j};
        } else {
            e[n++] = (edit){'+', i, j++};
        }
    }
    free(lcs);
    *n_out = n;
    return e;
}

static void put_line(byoc_buf *out, char op, const line *l)
{
    byoc_buf_putc(out, op);
    byoc_buf_append(out, l->p, l->len);
    byoc_buf_putc(out, '\n');
}

char *byoc_unified_diff(const char *a, const char *b, const char *label_a, const char *label_b, int context)
{
    size_t na, nb, ne;
    line *la = split_lines(a, &na), *lb = split_lines(b, &nb);
    edit *e = script(la, na, lb, nb, &ne);
    byoc_buf out = BYOC_BUF_INIT;
    byoc_buf_puts(&out, "");
    size_t ctx = context < 0 ? 0 : (size_t)context;
    size_t k = 0;
    bool header = false;
    while (k < ne) {
        while (k < ne && e[k].op == ' ')
            k++;
        if (k == ne)
            break;
        /* A hunk: from ctx lines before this change to ctx lines after the last change
         * that is no more than 2*ctx keeps away from the previous one. */
        size_t start = k >= ctx ? k - ctx : 0, end = k;
        while (end < ne) {
            if (e[end].op != ' ') {
                end++;
                continue;
            }
            size_t run = end;
            while (run < ne && e[run].op == ' ')
                run++;
            if (run == ne || run - end > 2 * ctx) {
                end = end + ctx < run ? end + ctx : run;
                break;
            }
            end = run;
        }
        if (!header) {
            byoc_buf_printf(&out, "--- %s\n+++ %s\n", label_a ? label_a : "a", label_b ? label_b : "b");
            header = true;
        }
        size_t a0 = e[start].ai, b0 = e[start].bi, ac = 0, bc = 0;
        for (size_t x = start; x < end; x++) {
            ac += e[x].op != '+';
            bc += e[x].op != '-';
        }
        byoc_buf_printf(&out, "@@ -%zu,%zu +%zu,%zu @@\n", ac ? a0 + 1 : a0, ac, bc ? b0 + 1 : b0, bc);
        for (size_t x = start; x < end; x++)
            put_line(&out, e[x].op, e[x].op == '+' ? &lb[e[x].bi] : &la[e[x].ai]);
        k = end;
    }
    free(e);
    free(la);
    free(lb);
    return byoc_buf_steal(&out);
}
