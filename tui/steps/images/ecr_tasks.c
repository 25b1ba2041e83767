#include "ecr_tasks.h"

#include <stdlib.h>
#include <string.h>

#include "byoc/imagecheck.h"
#include "byoc/imageplatforms.h"
#include "core/buf.h"
#include "core/str.h"
#include "docker/engine.h"
#include "docker/images.h"

tui_ecr_args *tui_ecr_args_new(byoc_aws_clients *clients, const char *profile, const char *region)
{
    tui_ecr_args *a = byoc_xcalloc(1, sizeof *a);
    a->clients = clients;
    a->profile = byoc_xstrdup_opt(profile);
    a->region = byoc_xstrdup_opt(region);
    return a;
}

void tui_ecr_args_free(void *args)
{
    tui_ecr_args *a = args;
    if (!a)
        return;
    free(a->profile);
    free(a->region);
    free(a->repository);
    free(a->uri);
    free(a->digest);
    json_decref(a->doc);
    tui_ecr_refs_clear(&a->refs);
    for (size_t i = 0; i < a->n_names; i++)
        free(a->names[i]);
    free(a->names);
    free(a);
}

/* The client of the args' profile, in region (NULL: the profile's). */
static int client(const tui_ecr_args *a, const char *region, byoc_aws_client **c, byoc_err *err)
{
    byoc_aws_config_opts o = {.profile = a->profile, .region = region};
    return byoc_aws_clients_get(a->clients, &o, c, err);
}

/* ---- repositories ---- */

static void repos_result_free(void *p)
{
    tui_ecr_repos_result *r = p;
    byoc_ecr_repositories_free(r->repos, r->n);
    free(r->region);
    free(r);
}

int tui_ecr_repos_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_ecr_args *a = arg;
    byoc_aws_client *c;
    if (client(a, a->region, &c, err) != 0)
        return -1;
    tui_ecr_repos_result *r = byoc_xcalloc(1, sizeof *r);
    r->region = byoc_xstrdup_opt(byoc_aws_client_region(c));
    if (byoc_ecr_describe_repositories(c, t, NULL, 0, &r->repos, &r->n, err) != 0) {
        byoc_aws_client_free(c);
        repos_result_free(r);
        return -1;
    }
    byoc_aws_client_free(c);
    *result = r;
    *result_free = repos_result_free;
    return 0;
}

static void counts_result_free(void *p)
{
    tui_ecr_counts_result *r = p;
    for (size_t i = 0; i < r->n; i++)
        free(r->names[i]);
    free(r->names);
    free(r->counts);
    free(r);
}

int tui_ecr_counts_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_ecr_args *a = arg;
    byoc_aws_client *c;
    if (client(a, a->region, &c, err) != 0)
        return -1;
    tui_ecr_counts_result *r = byoc_xcalloc(1, sizeof *r);
    size_t n = a->n_names < TUI_ECR_COUNT_MAX ? a->n_names : TUI_ECR_COUNT_MAX;
    r->names = byoc_xcalloc(n + 1, sizeof *r->names);
    r->counts = byoc_xcalloc(n + 1, sizeof *r->counts);
    for (size_t i = 0; i < n && !byoc_task_cancelled(t); i++) {
        r->names[r->n] = byoc_xstrdup(a->names[i]);
        r->counts[r->n] = -1;
        byoc_ecr_image_id_list ids;
        byoc_err ignored;
        byoc_err_clear(&ignored);
        if (byoc_ecr_list_images(c, t, a->names[i], BYOC_ECR_TAG_STATUS_ANY, 0, &ids, &ignored) == 0) {
            /* ListImages names an image once per tag: count distinct digests */
            tui_ecr_refs digests = {0};
            for (size_t k = 0; k < ids.n; k++)
                if (ids.items[k].digest)
                    tui_ecr_refs_add(&digests, ids.items[k].digest);
            r->counts[r->n] = (long)digests.n;
            tui_ecr_refs_clear(&digests);
            byoc_ecr_image_id_list_clear(&ids);
        }
        r->n++;
    }
    byoc_aws_client_free(c);
    *result = r;
    *result_free = counts_result_free;
    return 0;
}

/* ---- one repository's images ---- */

static void images_result_free(void *p)
{
    tui_ecr_images_result *r = p;
    free(r->repository);
    free(r->uri);
    byoc_ecr_image_list_clear(&r->images);
    tui_ecr_refs_clear(&r->local);
    free(r->engine_error);
    free(r);
}

static void read_local(byoc_engines *engines, byoc_task *t, tui_ecr_images_result *r)
{
    byoc_engine *e = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_image_list l = {0};
    if (byoc_engines_get(engines, &e, &err) == 0 && byoc_images_list(e, t, false, NULL, &l, &err) == 0) {
        tui_ecr_local_refs(&l, &r->local);
        byoc_image_list_clear(&l);
    } else {
        r->engine_error = byoc_xstrdup(err.message[0] ? err.message : "the engine did not answer");
    }
    byoc_engine_free(e);
}

int tui_ecr_images_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_ecr_args *a = arg;
    byoc_aws_client *c;
    if (client(a, a->region, &c, err) != 0)
        return -1;
    tui_ecr_images_result *r = byoc_xcalloc(1, sizeof *r);
    r->repository = byoc_xstrdup(a->repository);
    r->uri = byoc_xstrdup(a->uri ? a->uri : a->repository);
    int rc = byoc_ecr_describe_images(c, t, a->repository, NULL, 0, BYOC_ECR_TAG_STATUS_ANY, 0, &r->images, err);
    byoc_aws_client_free(c);
    if (rc != 0) {
        images_result_free(r);
        return -1;
    }
    read_local(a->engines, t, r);
    *result = r;
    *result_free = images_result_free;
    return 0;
}

/* ---- the platforms of its indexes ---- */

static void platforms_result_free(void *p)
{
    tui_ecr_platforms_result *r = p;
    for (size_t i = 0; i < r->n; i++) {
        free(r->digests[i]);
        free(r->texts[i]);
    }
    free(r->digests);
    free(r->texts);
    free(r->repository);
    free(r);
}

int tui_ecr_platforms_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    (void)err;   /* every failure is an index's "unknown (why)" */
    tui_ecr_args *a = arg;
    byoc_aws_client *c;
    byoc_err e;
    byoc_err_clear(&e);
    if (client(a, a->region, &c, &e) == 0) {
        byoc_ecr_images_add_platforms(c, t, a->doc, 0, &e);
        byoc_aws_client_free(c);
    } else {
        byoc_ecr_images_platforms_unread(a->doc, e.message);
    }
    const json_t *images = json_object_get(a->doc, "images");
    tui_ecr_platforms_result *r = byoc_xcalloc(1, sizeof *r);
    r->repository = byoc_xstrdup(a->repository ? a->repository : "");
    r->digests = byoc_xcalloc(json_array_size(images) + 1, sizeof *r->digests);
    r->texts = byoc_xcalloc(json_array_size(images) + 1, sizeof *r->texts);
    size_t i;
    const json_t *im;
    json_array_foreach(images, i, im)
    {
        const char *digest = json_string_value(json_object_get(im, "digest"));
        char *text = byoc_image_platforms_text(im);
        if (!digest || !text) {
            free(text);
            continue;
        }
        r->digests[r->n] = byoc_xstrdup(digest);
        r->texts[r->n++] = text;
    }
    *result = r;
    *result_free = platforms_result_free;
    return 0;
}

/* ---- delete ---- */

static void delete_result_free(void *p)
{
    tui_ecr_delete_result *r = p;
    free(r->repository);
    free(r->digest);
    byoc_ecr_delete_result_clear(&r->out);
    free(r);
}

int tui_ecr_delete_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_ecr_args *a = arg;
    byoc_aws_client *c;
    if (client(a, a->region, &c, err) != 0)
        return -1;
    tui_ecr_delete_result *r = byoc_xcalloc(1, sizeof *r);
    r->repository = byoc_xstrdup(a->repository);
    r->digest = byoc_xstrdup(a->digest);
    byoc_ecr_image_id id = {a->digest, NULL};
    int rc = byoc_ecr_batch_delete_image(c, t, a->repository, &id, 1, &r->out, err);
    byoc_aws_client_free(c);
    if (rc != 0) {
        delete_result_free(r);
        return -1;
    }
    *result = r;
    *result_free = delete_result_free;
    return 0;
}

/* ---- which local images ECR lists ---- */

/* The local references into one repository (of one account's registry in one
 * region), as they were written (the confirmed ones are handed back unchanged)
 * with their digests. */
typedef struct {
    char *region;
    char *account;
    char *repository;
    const char **refs;       /* borrowed from the task's args */
    char **digests;
    size_t n;
    bool checked;
} repo_group;

BYOC_TASK_FREE(refs_free, tui_ecr_refs, tui_ecr_refs_clear)

/* An ECR reference with a digest ("<account>.dkr.ecr.<region>.amazonaws.com/<repo>@sha256:..."). */
static bool ecr_digest_ref(const char *ref, byoc_ecr_image_uri *u)
{
    if (byoc_ecr_image_uri_parse(ref, u, NULL, 0) && u->digest)
        return true;
    byoc_ecr_image_uri_clear(u);
    return false;
}

static void confirm(tui_ecr_refs *out, const repo_group *g, const char *digest)
{
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->digests[i], digest) == 0)
            tui_ecr_refs_add(out, g->refs[i]);
}

/* DescribeImages by digest: all at once, or one by one when one is missing. */
static void check_group(byoc_aws_client *c, byoc_task *t, const repo_group *g, tui_ecr_refs *out)
{
    for (size_t start = 0; start < g->n && !byoc_task_cancelled(t); start += 100) {
        size_t n = g->n - start < 100 ? g->n - start : 100;
        byoc_ecr_image_id *ids = byoc_xcalloc(n, sizeof *ids);
        for (size_t i = 0; i < n; i++)
            ids[i].digest = g->digests[start + i];
        byoc_ecr_image_list l;
        byoc_err err;
        byoc_err_clear(&err);
        int rc = byoc_ecr_describe_images_in(c, t, g->account, g->repository, ids, n, &l, &err);
        if (rc == 0) {
            for (size_t i = 0; i < l.n; i++)
                if (l.items[i].digest)
                    confirm(out, g, l.items[i].digest);
            byoc_ecr_image_list_clear(&l);
        } else if (strcmp(err.code, "ImageNotFoundException") == 0 && n > 1) {
            for (size_t i = 0; i < n && !byoc_task_cancelled(t); i++) {
                byoc_err_clear(&err);
                if (byoc_ecr_describe_images_in(c, t, g->account, g->repository, &ids[i], 1, &l, &err) == 0) {
                    if (l.n)
                        confirm(out, g, ids[i].digest);
                    byoc_ecr_image_list_clear(&l);
                }
            }
        }
        free(ids);
        if (rc != 0 && strcmp(err.code, "RepositoryNotFoundException") == 0)
            return;
    }
}

static repo_group *group_of(repo_group **groups, size_t *n_groups, const byoc_ecr_image_uri *u)
{
    for (size_t k = 0; k < *n_groups; k++) {
        repo_group *g = &(*groups)[k];
        if (strcmp(g->repository, u->repository) == 0 && strcmp(g->account, u->account) == 0 &&
            strcmp(g->region, u->region) == 0)
            return g;
    }
    *groups = byoc_xrealloc(*groups, (*n_groups + 1) * sizeof **groups);
    repo_group *g = &(*groups)[(*n_groups)++];
    *g = (repo_group){byoc_xstrdup(u->region), byoc_xstrdup(u->account), byoc_xstrdup(u->repository), NULL, NULL, 0,
                      false};
    return g;
}

static void group_clear(repo_group *g)
{
    free(g->region);
    free(g->account);
    free(g->repository);
    free(g->refs);
    for (size_t i = 0; i < g->n; i++)
        free(g->digests[i]);
    free(g->digests);
}

int tui_ecr_pushed_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    const tui_ecr_args *a = arg;
    *result = NULL;
    *result_free = NULL;
    repo_group *groups = NULL;
    size_t n_groups = 0;
    for (size_t i = 0, taken = 0; i < a->refs.n && taken < TUI_ECR_CHECK_MAX; i++) {
        byoc_ecr_image_uri u;
        if (!ecr_digest_ref(a->refs.items[i], &u))
            continue;
        taken++;
        repo_group *g = group_of(&groups, &n_groups, &u);
        g->refs = byoc_xrealloc(g->refs, (g->n + 1) * sizeof *g->refs);
        g->digests = byoc_xrealloc(g->digests, (g->n + 1) * sizeof *g->digests);
        g->refs[g->n] = a->refs.items[i];
        g->digests[g->n++] = byoc_xstrdup(u.digest);
        byoc_ecr_image_uri_clear(&u);
    }
    /* Each reference is looked up where it points: in its own region (one
     * client a region) and its own account's registry. */
    tui_ecr_refs *out = byoc_xcalloc(1, sizeof *out);
    int rc = 0;
    for (size_t k = 0; k < n_groups; k++) {
        if (groups[k].checked)
            continue;
        byoc_aws_client *c;
        if ((rc = client(a, groups[k].region, &c, err)) != 0)
            break;
        for (size_t j = k; j < n_groups; j++) {
            if (!groups[j].checked && strcmp(groups[j].region, groups[k].region) == 0) {
                check_group(c, t, &groups[j], out);
                groups[j].checked = true;
            }
        }
        byoc_aws_client_free(c);
    }
    for (size_t k = 0; k < n_groups; k++)
        group_clear(&groups[k]);
    free(groups);
    if (rc != 0) {
        refs_free(out);
        return -1;
    }
    *result = out;
    *result_free = refs_free;
    return 0;
}
