#include "ecr_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/str.h"
#include "core/utf8.h"
#include "docker/manifest.h"
#include "image_text.h"

const tui_column tui_ecr_repo_columns[6] = {
    {"Name", 24, 3, TUI_ALIGN_LEFT, TUI_SORT_TEXT},    /* the URI differs only by the name: Name first */
    {"URI", 10, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Images", 6, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
    {"Created", 16, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Tags", 9, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Scan", 4, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
};

const tui_column tui_ecr_image_columns[6] = {
    {"Tags", 12, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Digest", 12, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Size", 10, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
    {"Pushed", 16, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Scan", 8, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Local", 5, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
};

/* ---- the reference set ---- */

/* The position of ref, or where it would go. */
static size_t refs_find(const tui_ecr_refs *s, const char *ref, bool *found)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(s->items[mid], ref);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

void tui_ecr_refs_add(tui_ecr_refs *s, const char *ref)
{
    bool found;
    size_t at = refs_find(s, ref, &found);
    if (found)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 16;
        s->items = byoc_xrealloc(s->items, s->cap * sizeof *s->items);
    }
    memmove(&s->items[at + 1], &s->items[at], (s->n - at) * sizeof *s->items);
    s->items[at] = byoc_xstrdup(ref);
    s->n++;
}

bool tui_ecr_refs_has(const tui_ecr_refs *s, const char *ref)
{
    bool found = false;
    if (s && ref && s->n)
        refs_find(s, ref, &found);
    return found;
}

void tui_ecr_refs_clear(tui_ecr_refs *s)
{
    for (size_t i = 0; s && i < s->n; i++)
        free(s->items[i]);
    if (s) {
        free(s->items);
        memset(s, 0, sizeof *s);
    }
}

void tui_ecr_local_refs(const byoc_image_list *l, tui_ecr_refs *out)
{
    for (size_t i = 0; l && i < l->n; i++)
        for (size_t k = 0; k < l->items[i].n_repo_digests; k++)
            tui_ecr_refs_add(out, l->items[i].repo_digests[k]);
}

void tui_ecr_time(double t, char *buf, size_t size)
{
    tui_image_time(t > 0 ? (int64_t)floor(t) : 0, buf, size);
}

/* ---- repositories ---- */

void tui_ecr_repo_entry_free(void *p)
{
    tui_ecr_repo_entry *e = p;
    if (!e)
        return;
    free(e->name);
    free(e->uri);
    free(e->mutability);
    free(e);
}

static const char *or_dash(const char *s)
{
    return s && *s ? s : "-";
}

static void count_text(long n, char *buf, size_t size)
{
    if (n >= 0)
        snprintf(buf, size, "%ld", n);
    else
        snprintf(buf, size, "-");
}

void tui_ecr_repos_fill(tui_list *l, const byoc_ecr_repository *repos, size_t n, const long *image_counts)
{
    tui_ecr_repo_entry *sel = tui_list_selected_data(l);
    char *keep = sel ? byoc_xstrdup(sel->name) : NULL;
    l->data_free = tui_ecr_repo_entry_free;
    tui_list_reset(l);
    for (size_t i = 0; i < n; i++) {
        tui_ecr_repo_entry *e = byoc_xcalloc(1, sizeof *e);
        e->name = byoc_xstrdup(or_dash(repos[i].name));
        e->uri = byoc_xstrdup(or_dash(repos[i].uri));
        e->mutability = byoc_xstrdup(or_dash(repos[i].tag_mutability));
        e->created = repos[i].created_at;
        e->scan_on_push = repos[i].scan_on_push;
        e->images = image_counts ? image_counts[i] : -1;
        char count[24], created[32];
        count_text(e->images, count, sizeof count);
        tui_ecr_time(e->created, created, sizeof created);
        const char *cells[6] = {e->name, e->uri, count, created, e->mutability, e->scan_on_push ? "yes" : "no"};
        tui_list_add(l, cells, e);
    }
    for (size_t i = 0; keep && i < l->nrows; i++)
        if (strcmp(((tui_ecr_repo_entry *)l->rows[i].data)->name, keep) == 0) {
            tui_list_select_row(l, i);
            break;
        }
    free(keep);
}

void tui_ecr_repos_set_counts(tui_list *l, const char *const *names, const long *counts, size_t n)
{
    for (size_t i = 0; i < l->nrows; i++) {
        tui_ecr_repo_entry *e = l->rows[i].data;
        for (size_t k = 0; e && k < n; k++) {
            if (!names[k] || strcmp(names[k], e->name) != 0)
                continue;
            char count[24];
            e->images = counts[k];
            count_text(e->images, count, sizeof count);
            tui_list_set_cell(l, i, 2, count);
            break;
        }
    }
}

/* ---- images ---- */

void tui_ecr_image_entry_free(void *p)
{
    tui_ecr_image_entry *e = p;
    if (!e)
        return;
    free(e->digest);
    free(e->tags);
    free(e->uri);
    free(e->scan);
    free(e->findings);
    free(e->platforms);
    free(e);
}

static tui_ecr_image_entry *image_entry(const char *repo_uri, const byoc_ecr_image *im, const tui_ecr_refs *local)
{
    tui_ecr_image_entry *e = byoc_xcalloc(1, sizeof *e);
    e->digest = byoc_xstrdup(im->digest ? im->digest : "");
    byoc_buf tags = BYOC_BUF_INIT;
    for (size_t k = 0; k < im->n_tags; k++)
        byoc_buf_printf(&tags, "%s%s", k ? ", " : "", im->tags[k]);
    e->tags = tags.len ? byoc_buf_steal(&tags) : byoc_xstrdup("<untagged>");
    byoc_buf_clear(&tags);
    e->uri = im->n_tags ? byoc_xasprintf("%s:%s", repo_uri, im->tags[0]) : byoc_xasprintf("%s@%s", repo_uri, e->digest);
    e->size = im->size;
    e->pushed_at = im->pushed_at;
    e->scan = byoc_xstrdup_opt(im->scan_status);
    e->findings = byoc_xstrdup_opt(im->scan_findings);
    e->index = byoc_manifest_is_index(im->manifest_media_type);
    char *ref = byoc_xasprintf("%s@%s", repo_uri, e->digest);
    e->local = tui_ecr_refs_has(local, ref);
    free(ref);
    return e;
}

void tui_ecr_images_fill(tui_list *l, const char *repo_uri, const byoc_ecr_image_list *images,
                         const tui_ecr_refs *local)
{
    tui_ecr_image_entry *sel = tui_list_selected_data(l);
    char *keep = sel ? byoc_xstrdup(sel->digest) : NULL;
    size_t n_old = 0;
    char **old_digests = byoc_xcalloc(l->nrows + 1, sizeof *old_digests);
    char **old_platforms = byoc_xcalloc(l->nrows + 1, sizeof *old_platforms);
    for (size_t i = 0; i < l->nrows; i++) {
        tui_ecr_image_entry *e = l->rows[i].data;
        if (e && e->platforms) {
            old_digests[n_old] = byoc_xstrdup(e->digest);
            old_platforms[n_old++] = byoc_xstrdup(e->platforms);
        }
    }
    l->data_free = tui_ecr_image_entry_free;
    tui_list_reset(l);
    for (size_t i = 0; images && i < images->n; i++) {
        tui_ecr_image_entry *e = image_entry(repo_uri ? repo_uri : "", &images->items[i], local);
        char id[16], size[32], pushed[32];
        tui_image_short_id(e->digest, id, sizeof id);
        if (e->size >= 0)
            byoc_fmt_bytes(e->size, size, sizeof size);
        else
            snprintf(size, sizeof size, "-");
        tui_ecr_time(e->pushed_at, pushed, sizeof pushed);
        const char *cells[6] = {e->tags, id, size, pushed, or_dash(e->scan), e->local ? "local" : ""};
        tui_list_add(l, cells, e);
    }
    tui_ecr_images_set_platforms(l, (const char *const *)old_digests, (const char *const *)old_platforms, n_old);
    for (size_t i = 0; i < n_old; i++) {
        free(old_digests[i]);
        free(old_platforms[i]);
    }
    free(old_digests);
    free(old_platforms);
    for (size_t i = 0; keep && i < l->nrows; i++)
        if (strcmp(((tui_ecr_image_entry *)l->rows[i].data)->digest, keep) == 0) {
            tui_list_select_row(l, i);
            break;
        }
    free(keep);
}

size_t tui_ecr_images_local_count(const tui_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->nrows; i++)
        n += ((const tui_ecr_image_entry *)l->rows[i].data)->local;
    return n;
}

size_t tui_ecr_images_index_count(const tui_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->nrows; i++)
        n += ((const tui_ecr_image_entry *)l->rows[i].data)->index;
    return n;
}

void tui_ecr_images_set_platforms(tui_list *l, const char *const *digests, const char *const *texts, size_t n)
{
    for (size_t i = 0; i < l->nrows; i++) {
        tui_ecr_image_entry *e = l->rows[i].data;
        for (size_t k = 0; e && e->index && k < n; k++) {
            if (!digests[k] || !texts[k] || strcmp(digests[k], e->digest) != 0)
                continue;
            free(e->platforms);
            e->platforms = byoc_printable_dup(texts[k]);   /* the registry's words, drawn on one line */
            break;
        }
    }
}

const char *tui_ecr_image_platforms(const tui_ecr_image_entry *e, bool reading)
{
    if (!e || !e->index)
        return NULL;
    if (e->platforms)
        return e->platforms;
    return reading ? "reading..." : "not read";
}
