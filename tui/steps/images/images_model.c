#include "images_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/str.h"

const tui_column tui_images_columns[6] = {
    {"Repository", 14, 3, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Tag", 8, 1, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"ID", 12, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Size", 10, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
    {"Created", 16, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"ECR", 6, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
};

const tui_column tui_layers_columns[3] = {
    {"Size", 10, 0, TUI_ALIGN_RIGHT, TUI_SORT_NUMBER},
    {"Created", 16, 0, TUI_ALIGN_LEFT, TUI_SORT_TEXT},
    {"Command", 20, 1, TUI_ALIGN_LEFT, TUI_SORT_NONE},
};

void tui_image_entry_free(void *p)
{
    tui_image_entry *e = p;
    if (!e)
        return;
    free(e->repository);
    free(e->tag);
    free(e->ref);
    free(e->id);
    free(e->digest);
    for (size_t i = 0; i < e->n_repo_digests; i++)
        free(e->repo_digests[i]);
    free(e->repo_digests);
    free(e);
}

void tui_layer_command(const char *by, char *buf, size_t size)
{
    if (!by || !*by) {
        snprintf(buf, size, "-");
        return;
    }
    static const char shell[] = "/bin/sh -c ";
    static const char nop[] = "#(nop) ";
    const char *p = by;
    bool ran = false;
    /* a RUN with build args: "|2 A=1 B=2 /bin/sh -c ..." (the args, then the command) */
    if (p[0] == '|' && p[1] >= '0' && p[1] <= '9') {
        char *end;
        long n = strtol(p + 1, &end, 10);
        p = end;
        for (long i = 0; i < n && *p; i++) {
            while (*p == ' ')
                p++;
            while (*p && *p != ' ')
                p++;
        }
        while (*p == ' ')
            p++;
    }
    if (strncmp(p, shell, sizeof shell - 1) == 0) {
        p += sizeof shell - 1;
        ran = true;
    }
    while (*p == ' ')
        p++;
    if (strncmp(p, nop, sizeof nop - 1) == 0) {
        p += sizeof nop - 1;
        ran = false;
    }
    while (*p == ' ')
        p++;
    snprintf(buf, size, "%s%s", ran ? "RUN " : "", p);
}

static tui_image_entry *entry_new(const byoc_image_list *images, const byoc_image_row *r, const char *tag)
{
    tui_image_entry *e = byoc_xcalloc(1, sizeof *e);
    e->repository = byoc_xstrdup(r->repository);
    e->tag = byoc_xstrdup(tag ? tag : "<none>");
    e->ref = tag && strcmp(r->repository, "<none>") != 0 ? byoc_xasprintf("%s:%s", r->repository, tag)
                                                         : byoc_xstrdup(r->id);
    e->id = byoc_xstrdup(r->id);
    e->digest = byoc_xstrdup_opt(r->digest);
    e->size = r->size;
    e->created = r->created;
    for (size_t i = 0; i < images->n; i++) {
        const byoc_image_summary *im = &images->items[i];
        if (!im->id || strcmp(im->id, r->id) != 0)
            continue;
        e->repo_digests = byoc_xcalloc(im->n_repo_digests + 1, sizeof *e->repo_digests);
        for (size_t k = 0; k < im->n_repo_digests; k++)
            e->repo_digests[e->n_repo_digests++] = byoc_xstrdup(im->repo_digests[k]);
        break;
    }
    return e;
}

static void add_entry(tui_list *l, tui_image_entry *e)
{
    char id[16], size[32], created[32];
    tui_image_short_id(e->id, id, sizeof id);
    byoc_fmt_bytes(e->size, size, sizeof size);
    tui_image_time(e->created, created, sizeof created);
    const char *cells[6] = {e->repository, e->tag, id, size, created, e->pushed ? "pushed" : ""};
    tui_list_add(l, cells, e);
}

void tui_images_fill(tui_list *l, const byoc_image_list *images)
{
    tui_image_entry *sel = tui_list_selected_data(l);
    char *keep = sel ? byoc_xstrdup(sel->ref) : NULL;
    l->data_free = tui_image_entry_free;
    tui_list_reset(l);
    byoc_image_row *rows;
    size_t n;
    byoc_image_rows(images, &rows, &n);
    size_t first = l->nrows;
    for (size_t i = 0; i < n; i++) {
        if (rows[i].n_tags == 0)
            add_entry(l, entry_new(images, &rows[i], NULL));
        for (size_t k = 0; k < rows[i].n_tags; k++)
            add_entry(l, entry_new(images, &rows[i], rows[i].tags[k]));
    }
    /* how many refs each image has: deleting the last one deletes the image */
    for (size_t i = first; i < l->nrows; i++) {
        tui_image_entry *e = l->rows[i].data;
        for (size_t j = first; j < l->nrows; j++)
            e->image_refs += strcmp(((tui_image_entry *)l->rows[j].data)->id, e->id) == 0;
    }
    byoc_image_rows_free(rows, n);
    if (keep)
        tui_images_select_ref(l, keep);
    free(keep);
}

size_t tui_images_mark_pushed(tui_list *l, const tui_ecr_refs *pushed)
{
    size_t marked = 0;
    for (size_t i = 0; i < l->nrows; i++) {
        tui_image_entry *e = l->rows[i].data;
        if (!e)
            continue;
        e->pushed = false;
        for (size_t k = 0; k < e->n_repo_digests && !e->pushed; k++)
            e->pushed = tui_ecr_refs_has(pushed, e->repo_digests[k]);
        marked += e->pushed;
        if (l->ncols > 5)
            tui_list_set_cell(l, i, 5, e->pushed ? "pushed" : "");
    }
    return marked;
}

bool tui_images_select_ref(tui_list *l, const char *ref)
{
    for (size_t i = 0; ref && i < l->nrows; i++) {
        const tui_image_entry *e = l->rows[i].data;
        if (e && strcmp(e->ref, ref) == 0)
            return tui_list_select_row(l, i);
    }
    return false;
}

void tui_layers_fill(tui_list *l, const byoc_image_history *h)
{
    l->data_free = free;
    tui_list_reset(l);
    for (size_t i = 0; h && i < h->n; i++) {
        const byoc_image_layer *ly = &h->items[i];
        char size[32], created[32];
        size_t cap = (ly->created_by ? strlen(ly->created_by) : 0) + 8;
        char *cmd = byoc_xmalloc(cap);
        byoc_fmt_bytes(ly->size, size, sizeof size);
        tui_image_time(ly->created, created, sizeof created);
        tui_layer_command(ly->created_by, cmd, cap);
        const char *cells[3] = {size, created, cmd};
        tui_list_add(l, cells, byoc_xstrdup(ly->created_by ? ly->created_by : "-"));   /* for the detail */
        free(cmd);
    }
}
