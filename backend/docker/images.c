#include "docker/images.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/jsonnum.h"
#include "docker/reference.h"

static void byoc_strs_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}

/* Strings of a JSON array, NULL-terminated; skip: a value to leave out. */
static char **strs_from_json(json_t *arr, const char *skip, size_t *n)
{
    size_t cap = json_is_array(arr) ? json_array_size(arr) : 0, k = 0;
    char **v = byoc_xcalloc(cap + 1, sizeof *v);
    for (size_t i = 0; i < cap; i++) {
        const char *s = json_string_value(json_array_get(arr, i));
        if (s && (!skip || strcmp(s, skip) != 0))
            v[k++] = byoc_xstrdup(s);
    }
    *n = k;
    return v;
}

static char *dup_member(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return byoc_xstrdup(s ? s : "");
}

static int64_t int_member(json_t *o, const char *key)
{
    return byoc_json_int64_or(json_object_get(o, key), 0);
}

int byoc_images_list(byoc_engine *e, byoc_task *t, bool all, const char *reference, byoc_image_list *out,
                     byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (all)
        byoc_query_add(&q, "all", "1");
    if (reference) {
        json_t *f = json_pack("{s:[s]}", "reference", reference);
        char *fs = json_dumps(f, JSON_COMPACT);
        byoc_query_add(&q, "filters", fs);
        free(fs);
        json_decref(f);
    }
    json_t *doc = NULL;
    int rc = byoc_engine_call(e, t, "GET", "/images/json", q.data, NULL, &doc, "images", err);
    byoc_buf_clear(&q);
    if (rc < 0)
        return -1;
    size_t n = json_is_array(doc) ? json_array_size(doc) : 0;
    out->items = byoc_xcalloc(n ? n : 1, sizeof *out->items);
    for (size_t i = 0; i < n; i++) {
        json_t *it = json_array_get(doc, i);
        if (!json_is_object(it))
            continue; /* an engine's list holds objects; anything else is no image */
        byoc_image_summary *s = &out->items[out->n++];
        s->id = dup_member(it, "Id");
        s->repo_tags = strs_from_json(json_object_get(it, "RepoTags"), "<none>:<none>", &s->n_repo_tags);
        s->repo_digests = strs_from_json(json_object_get(it, "RepoDigests"), "<none>@<none>", &s->n_repo_digests);
        s->created = int_member(it, "Created");
        s->size = int_member(it, "Size");
    }
    json_decref(doc);
    return 0;
}

void byoc_image_list_clear(byoc_image_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].id);
        byoc_strs_free(l->items[i].repo_tags);
        byoc_strs_free(l->items[i].repo_digests);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static char *image_path(const char *name, const char *suffix)
{
    char *esc = byoc_engine_path_escape(name);
    char *p = byoc_xasprintf("/images/%s%s", esc, suffix);
    free(esc);
    return p;
}

int byoc_image_inspect(byoc_engine *e, byoc_task *t, const char *name, json_t **out, byoc_err *err)
{
    char *path = image_path(name, "/json");
    int rc = byoc_engine_call(e, t, "GET", path, NULL, NULL, out, "image", err);
    free(path);
    return rc;
}

int byoc_image_history_get(byoc_engine *e, byoc_task *t, const char *name, byoc_image_history *out,
                           byoc_err *err)
{
    memset(out, 0, sizeof *out);
    char *path = image_path(name, "/history");
    json_t *doc = NULL;
    int rc = byoc_engine_call(e, t, "GET", path, NULL, NULL, &doc, "image", err);
    free(path);
    if (rc < 0)
        return -1;
    size_t n = json_is_array(doc) ? json_array_size(doc) : 0;
    out->items = byoc_xcalloc(n ? n : 1, sizeof *out->items);
    for (size_t i = 0; i < n; i++) {
        json_t *it = json_array_get(doc, i);
        byoc_image_layer *l = &out->items[out->n++];
        l->id = dup_member(it, "Id");
        l->created = int_member(it, "Created");
        l->created_by = dup_member(it, "CreatedBy");
        l->tags = strs_from_json(json_object_get(it, "Tags"), NULL, &l->n_tags);
        l->size = int_member(it, "Size");
        l->comment = dup_member(it, "Comment");
    }
    json_decref(doc);
    return 0;
}

void byoc_image_history_clear(byoc_image_history *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++) {
        free(h->items[i].id);
        free(h->items[i].created_by);
        byoc_strs_free(h->items[i].tags);
        free(h->items[i].comment);
    }
    free(h->items);
    memset(h, 0, sizeof *h);
}

int byoc_image_tag(byoc_engine *e, byoc_task *t, const char *source, const char *target, byoc_err *err)
{
    byoc_imageref r;
    if (byoc_imageref_parse(target, "tag", &r, err) < 0)
        return -1;
    if (r.digest) {
        byoc_imageref_clear(&r);
        return byoc_err_set(err, BYOC_E_USAGE, "tag", "'%s': a tag cannot carry a digest", target);
    }
    byoc_buf q = BYOC_BUF_INIT;
    byoc_query_add(&q, "repo", r.repository);
    byoc_query_add(&q, "tag", r.tag ? r.tag : "latest");
    byoc_imageref_clear(&r);
    char *path = image_path(source, "/tag");
    int rc = byoc_engine_call(e, t, "POST", path, q.data, NULL, NULL, "tag", err);
    free(path);
    byoc_buf_clear(&q);
    return rc;
}

int byoc_image_remove(byoc_engine *e, byoc_task *t, const char *name, bool force, bool noprune,
                      byoc_image_removal *report, byoc_err *err)
{
    if (report)
        memset(report, 0, sizeof *report);
    byoc_buf q = BYOC_BUF_INIT;
    byoc_buf_puts(&q, "");
    if (force)
        byoc_query_add(&q, "force", "1");
    if (noprune)
        byoc_query_add(&q, "noprune", "1");
    char *path = image_path(name, "");
    json_t *doc = NULL;
    int rc = byoc_engine_call(e, t, "DELETE", path, q.data, NULL, &doc, "image", err);
    free(path);
    byoc_buf_clear(&q);
    if (rc == 0 && report) {
        size_t n = json_is_array(doc) ? json_array_size(doc) : 0;
        report->untagged = byoc_xcalloc(n + 1, sizeof *report->untagged);
        report->deleted = byoc_xcalloc(n + 1, sizeof *report->deleted);
        for (size_t i = 0; i < n; i++) {
            json_t *it = json_array_get(doc, i);
            const char *u = json_string_value(json_object_get(it, "Untagged"));
            const char *d = json_string_value(json_object_get(it, "Deleted"));
            if (u)
                report->untagged[report->n_untagged++] = byoc_xstrdup(u);
            if (d)
                report->deleted[report->n_deleted++] = byoc_xstrdup(d);
        }
    }
    json_decref(doc);
    return rc;
}

void byoc_image_removal_clear(byoc_image_removal *r)
{
    if (!r)
        return;
    byoc_strs_free(r->untagged);
    byoc_strs_free(r->deleted);
    memset(r, 0, sizeof *r);
}

/* ---- rows ---- */

/* "repo:tag" -> repo (the tag is after the last ':' that follows the last '/'). */
static char *repo_of(const char *ref, const char **tag)
{
    const char *slash = strrchr(ref, '/');
    const char *colon = strrchr(slash ? slash : ref, ':');
    *tag = colon ? colon + 1 : NULL;
    return colon ? byoc_xstrndup(ref, (size_t)(colon - ref)) : byoc_xstrdup(ref);
}

static int row_cmp(const void *a, const void *b)
{
    const byoc_image_row *x = a, *y = b;
    bool xn = strcmp(x->repository, "<none>") == 0, yn = strcmp(y->repository, "<none>") == 0;
    if (xn != yn)
        return xn ? 1 : -1;
    int c = strcmp(x->repository, y->repository);
    if (c)
        return c;
    return x->created > y->created ? -1 : x->created < y->created;
}

static byoc_image_row *row_for(byoc_image_row **rows, size_t *n, size_t first, const char *repo,
                               const byoc_image_summary *s)
{
    for (size_t i = first; i < *n; i++)
        if (strcmp((*rows)[i].repository, repo) == 0)
            return &(*rows)[i];
    *rows = byoc_xrealloc(*rows, (*n + 1) * sizeof **rows);
    byoc_image_row *r = &(*rows)[(*n)++];
    memset(r, 0, sizeof *r);
    r->repository = byoc_xstrdup(repo);
    r->tags = byoc_xcalloc(1, sizeof *r->tags);
    r->id = byoc_xstrdup(s->id);
    r->size = s->size;
    r->created = s->created;
    return r;
}

void byoc_image_rows(const byoc_image_list *l, byoc_image_row **rows_out, size_t *n_out)
{
    byoc_image_row *rows = NULL;
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++) {
        const byoc_image_summary *s = &l->items[i];
        size_t first = n;
        for (size_t k = 0; k < s->n_repo_tags; k++) {
            const char *tag;
            char *repo = repo_of(s->repo_tags[k], &tag);
            byoc_image_row *r = row_for(&rows, &n, first, repo, s);
            r->tags = byoc_xrealloc(r->tags, (r->n_tags + 2) * sizeof *r->tags);
            r->tags[r->n_tags++] = byoc_xstrdup(tag ? tag : "");
            r->tags[r->n_tags] = NULL;
            free(repo);
        }
        for (size_t k = 0; k < s->n_repo_digests; k++) {
            const char *at = strchr(s->repo_digests[k], '@');
            if (!at)
                continue;
            char *repo = byoc_xstrndup(s->repo_digests[k], (size_t)(at - s->repo_digests[k]));
            byoc_image_row *r = row_for(&rows, &n, first, repo, s);
            if (!r->digest)
                r->digest = byoc_xstrdup(at + 1);
            free(repo);
        }
        if (n == first)
            row_for(&rows, &n, first, "<none>", s);
    }
    if (n)
        qsort(rows, n, sizeof *rows, row_cmp);
    *rows_out = rows;
    *n_out = n;
}

void byoc_image_rows_free(byoc_image_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(rows[i].repository);
        byoc_strs_free(rows[i].tags);
        free(rows[i].digest);
        free(rows[i].id);
    }
    free(rows);
}

json_t *byoc_image_rows_json(const byoc_image_row *rows, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        const byoc_image_row *r = &rows[i];
        json_t *tags = json_array();
        for (size_t k = 0; k < r->n_tags; k++)
            json_array_append_new(tags, json_string(r->tags[k]));
        char when[32] = "";
        time_t tt = (time_t)r->created;
        struct tm tm;
        if (gmtime_r(&tt, &tm))
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        bool none = strcmp(r->repository, "<none>") == 0;
        json_array_append_new(arr, json_pack("{s:o, s:o, s:o, s:I, s:s, s:s}", "repository",
                                             none ? json_null() : json_string(r->repository), "tags", tags,
                                             "digest", r->digest ? json_string(r->digest) : json_null(), "size",
                                             (json_int_t)r->size, "created", when, "id", r->id));
    }
    return json_pack("{s:o}", "images", arr);
}
