#include "aws/ecr.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "aws/pager.h"
#include "core/buf.h"
#include "core/jsonnum.h"
#include "core/log.h"
#include "core/str.h"

#define MAX_POLICY_CHARS 10240
#define BATCH_MAX 100

/* ---- names ---- */

static bool lower_alnum(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/* A run of separators between two alphanumeric runs: ".", "_", "__" or one or more "-". */
static bool separator_ok(const char *p, size_t n)
{
    if (n == 1)
        return true;
    if (n == 2 && p[0] == '_' && p[1] == '_')
        return true;
    for (size_t i = 0; i < n; i++)
        if (p[i] != '-')
            return false;
    return true;
}

bool byoc_ecr_repository_name_ok(const char *name, char *why, size_t why_size)
{
    char dummy[8];
    if (!why) {
        why = dummy;
        why_size = sizeof dummy;
    }
    size_t len = name ? strlen(name) : 0;
    if (len < 2 || len > 256) {
        snprintf(why, why_size, "must be 2 to 256 characters long (it has %zu)", len);
        return false;
    }
    /* Components joined by single '/': alphanumeric runs joined by '.', '_', '__' or '-'+. */
    const char *p = name;
    for (;;) {
        if (!lower_alnum(*p)) {
            if (*p >= 'A' && *p <= 'Z')
                snprintf(why, why_size, "must be lowercase ('%c')", *p);
            else if (*p && !strchr("/._-", *p))
                snprintf(why, why_size, "may contain only a-z, 0-9, '.', '_', '-' and '/' (not '%c')", *p);
            else
                snprintf(why, why_size, "each part must start with a letter or digit (offset %zu)", (size_t)(p - name));
            return false;
        }
        while (lower_alnum(*p))
            p++;
        if (!*p)
            return true;
        if (*p == '/') {
            p++;
            continue;
        }
        const char *sep = p;
        while (*p == '.' || *p == '_' || *p == '-')
            p++;
        if (!separator_ok(sep, (size_t)(p - sep))) {
            snprintf(why, why_size, "'%.*s' (offset %zu): letters and digits may be joined by '.', '_', '__' or dashes only",
                     (int)(p - sep), sep, (size_t)(sep - name));
            return false;
        }
        if (!*p) {
            snprintf(why, why_size, "must end with a letter or digit");
            return false;
        }
    }
}

int byoc_ecr_check_repository_name(const char *name, const char *what, byoc_err *err)
{
    char why[160];
    if (byoc_ecr_repository_name_ok(name, why, sizeof why))
        return 0;
    return byoc_err_set(err, BYOC_E_USAGE, what, "'%s' is not a valid ECR repository name: %s", name ? name : "",
                        why);
}

/* ---- small JSON helpers ---- */

static char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return byoc_xstrdup_opt(s);
}

/* Epoch seconds, 0 when absent or not a time: a number past the year 9999 (or before 1970) would
 * overflow the time_t and int64_t it is later turned into. */
static double jtime(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (json_is_number(v)) {
        double d = json_number_value(v);
        return d > 0 && d < 253402300800.0 ? d : 0;
    }
    time_t t;
    if (json_is_string(v) && byoc_aws_parse_time(json_string_value(v), &t) == 0)
        return (double)t;
    return 0;
}

static int call(byoc_aws_client *c, byoc_task *t, const char *op, json_t *body, json_t **out, byoc_err *err)
{
    char target[128];
    snprintf(target, sizeof target, BYOC_ECR_TARGET_PREFIX "%s", op);
    int rc = byoc_aws_json_call(c, t, BYOC_AWS_ECR, target, body, out, err);
    json_decref(body);
    return rc;
}

static const char *tag_status_name(byoc_ecr_tag_status s)
{
    return s == BYOC_ECR_TAG_STATUS_TAGGED ? "TAGGED" : s == BYOC_ECR_TAG_STATUS_UNTAGGED ? "UNTAGGED" : "ANY";
}

/* ---- repositories ---- */

void byoc_ecr_repository_clear(byoc_ecr_repository *r)
{
    if (!r)
        return;
    free(r->name);
    free(r->arn);
    free(r->registry_id);
    free(r->uri);
    free(r->tag_mutability);
    free(r->encryption_type);
    free(r->kms_key);
    memset(r, 0, sizeof *r);
}

void byoc_ecr_repositories_free(byoc_ecr_repository *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++)
        byoc_ecr_repository_clear(&r[i]);
    free(r);
}

static void repository_from_json(const json_t *j, byoc_ecr_repository *r)
{
    memset(r, 0, sizeof *r);
    r->name = jstr(j, "repositoryName");
    r->arn = jstr(j, "repositoryArn");
    r->registry_id = jstr(j, "registryId");
    r->uri = jstr(j, "repositoryUri");
    r->created_at = jtime(j, "createdAt");
    r->tag_mutability = jstr(j, "imageTagMutability");
    r->scan_on_push = json_is_true(json_object_get(json_object_get(j, "imageScanningConfiguration"), "scanOnPush"));
    const json_t *enc = json_object_get(j, "encryptionConfiguration");
    r->encryption_type = jstr(enc, "encryptionType");
    r->kms_key = jstr(enc, "kmsKey");
}

int byoc_ecr_check_create_opts(const byoc_ecr_create_opts *o, byoc_err *err)
{
    if (byoc_ecr_check_repository_name(o->name, "--repository", err) < 0)
        return -1;
    if (o->encryption_type && strcmp(o->encryption_type, "AES256") != 0 && strcmp(o->encryption_type, "KMS") != 0)
        return byoc_err_set(err, BYOC_E_USAGE, "--encryption", "'%s': expected AES256 or KMS", o->encryption_type);
    if (o->kms_key && (!o->encryption_type || strcmp(o->encryption_type, "KMS") != 0))
        return byoc_err_set(err, BYOC_E_USAGE, "--kms-key", "needs --encryption KMS");
    if (o->n_tags > 50)
        return byoc_err_set(err, BYOC_E_USAGE, "--repository-tag", "at most 50 tags (got %zu)", o->n_tags);
    for (size_t i = 0; i < o->n_tags; i++) {
        size_t kl = o->tags[i].key ? strlen(o->tags[i].key) : 0;
        size_t vl = o->tags[i].value ? strlen(o->tags[i].value) : 0;
        if (kl < 1 || kl > 128 || vl > 256)
            return byoc_err_set(err, BYOC_E_USAGE, "--repository-tag",
                                "a tag key must have 1 to 128 characters and a value at most 256");
        if (strncmp(o->tags[i].key, "aws:", 4) == 0)
            return byoc_err_set(err, BYOC_E_USAGE, "--repository-tag", "'%s': the aws: prefix is reserved",
                                o->tags[i].key);
    }
    return 0;
}

int byoc_ecr_create_repository(byoc_aws_client *c, byoc_task *t, const byoc_ecr_create_opts *o,
                               byoc_ecr_repository *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (byoc_ecr_check_create_opts(o, err) < 0)
        return -1;
    json_t *body = json_pack("{s:s, s:s, s:{s:b}}", "repositoryName", o->name, "imageTagMutability",
                             o->immutable_tags ? "IMMUTABLE" : "MUTABLE", "imageScanningConfiguration", "scanOnPush",
                             (int)o->scan_on_push);
    if (o->encryption_type) {
        json_t *enc = json_pack("{s:s}", "encryptionType", o->encryption_type);
        if (o->kms_key)
            json_object_set_new(enc, "kmsKey", json_string(o->kms_key));
        json_object_set_new(body, "encryptionConfiguration", enc);
    }
    if (o->n_tags) {
        json_t *tags = json_array();
        for (size_t i = 0; i < o->n_tags; i++)
            json_array_append_new(tags, json_pack("{s:s, s:s}", "Key", o->tags[i].key, "Value",
                                                  o->tags[i].value ? o->tags[i].value : ""));
        json_object_set_new(body, "tags", tags);
    }
    json_t *reply;
    if (call(c, t, "CreateRepository", body, &reply, err) < 0)
        return -1;
    repository_from_json(json_object_get(reply, "repository"), out);
    json_decref(reply);
    return 0;
}

/* A paged ECR listing: calls op until nextToken runs out (through the pager's
 * guards); each page goes to take(). */
typedef void (*page_fn)(const json_t *reply, void *ud);

static int paged(byoc_aws_client *c, byoc_task *t, const char *op, const json_t *base, int page_size, page_fn take,
                 void *ud, unsigned *pages, byoc_err *err)
{
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, op);
    if (pages)
        *pages = 0;
    int rc = 0, more;
    do {
        json_t *body = json_deep_copy(base);
        if (page_size > 0)
            json_object_set_new(body, "maxResults", json_integer(page_size));
        if (pager.token)
            json_object_set_new(body, "nextToken", json_string(pager.token));
        json_t *reply;
        if (call(c, t, op, body, &reply, err) < 0) {
            rc = -1;
            break;
        }
        if (pages)
            (*pages)++;
        take(reply, ud);
        more = byoc_aws_pager_next(&pager, json_string_value(json_object_get(reply, "nextToken")), err);
        json_decref(reply);
        if (more < 0)
            rc = -1;
        else if (more && byoc_task_cancelled(t))
            rc = byoc_err_set(err, BYOC_E_CANCELLED, "ecr", "%s: cancelled", op);
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    return rc;
}

typedef struct repository_list {
    byoc_ecr_repository *items;
    size_t len;
} repository_list;

static void take_repositories(const json_t *reply, void *ud)
{
    repository_list *l = ud;
    const json_t *repos = json_object_get(reply, "repositories");
    size_t k;
    const json_t *r;
    l->items = byoc_xrealloc(l->items, (l->len + json_array_size(repos) + 1) * sizeof *l->items);
    json_array_foreach(repos, k, r) if (json_is_object(r)) repository_from_json(r, &l->items[l->len++]);
}

int byoc_ecr_describe_repositories(byoc_aws_client *c, byoc_task *t, const char *const *names, size_t n_names,
                                   byoc_ecr_repository **out, size_t *n, byoc_err *err)
{
    *out = NULL;
    *n = 0;
    if (n_names > BATCH_MAX)
        return byoc_err_set(err, BYOC_E_USAGE, "repositories", "at most %d names per request", BATCH_MAX);
    for (size_t i = 0; i < n_names; i++)
        if (byoc_ecr_check_repository_name(names[i], "--repository", err) < 0)
            return -1;
    json_t *base = json_object();
    if (n_names) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n_names; i++)
            json_array_append_new(arr, json_string(names[i]));
        json_object_set_new(base, "repositoryNames", arr);
    }
    repository_list l = {0};
    int rc = paged(c, t, "DescribeRepositories", base, 0, take_repositories, &l, NULL, err);
    json_decref(base);
    if (rc < 0) {
        byoc_ecr_repositories_free(l.items, l.len);
        return -1;
    }
    *out = l.items;
    *n = l.len;
    return 0;
}

int byoc_ecr_describe_repository(byoc_aws_client *c, byoc_task *t, const char *name, byoc_ecr_repository *out,
                                 byoc_err *err)
{
    memset(out, 0, sizeof *out);
    byoc_ecr_repository *list;
    size_t n;
    const char *names[1] = {name};
    if (byoc_ecr_describe_repositories(c, t, names, 1, &list, &n, err) < 0)
        return -1;
    if (n == 0) {
        byoc_ecr_repositories_free(list, n);
        byoc_err_set(err, BYOC_E_FAILED, "ecr", "DescribeRepositories: the repository '%s' does not exist", name);
        snprintf(err->code, sizeof err->code, "RepositoryNotFoundException");
        return -1;
    }
    *out = list[0];
    memset(&list[0], 0, sizeof list[0]);
    byoc_ecr_repositories_free(list, n);
    return 0;
}

int byoc_ecr_delete_repository(byoc_aws_client *c, byoc_task *t, const char *name, bool force, byoc_err *err)
{
    if (byoc_ecr_check_repository_name(name, "--repository", err) < 0)
        return -1;
    json_t *reply;
    if (call(c, t, "DeleteRepository", json_pack("{s:s, s:b}", "repositoryName", name, "force", (int)force), &reply,
             err) < 0)
        return -1;
    json_decref(reply);
    return 0;
}

/* ---- images ---- */

static void image_clear(byoc_ecr_image *im)
{
    free(im->digest);
    for (size_t i = 0; i < im->n_tags; i++)
        free(im->tags[i]);
    free(im->tags);
    free(im->manifest_media_type);
    free(im->scan_status);
    free(im->scan_findings);
}

void byoc_ecr_image_list_clear(byoc_ecr_image_list *l)
{
    for (size_t i = 0; l && i < l->n; i++)
        image_clear(&l->items[i]);
    if (l) {
        free(l->items);
        memset(l, 0, sizeof *l);
    }
}

void byoc_ecr_image_id_list_clear(byoc_ecr_image_id_list *l)
{
    for (size_t i = 0; l && i < l->n; i++) {
        free(l->items[i].digest);
        free(l->items[i].tag);
    }
    if (l) {
        free(l->items);
        memset(l, 0, sizeof *l);
    }
}

/* Severities ECR may add later come after the known ones. */
char *byoc_ecr_findings_summary(const json_t *summary)
{
    const json_t *counts = json_object_get(summary, "findingSeverityCounts");
    if (!json_is_object(counts))
        return NULL;
    static const char *const order[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW", "INFORMATIONAL", "UNDEFINED"};
    const size_t n_order = sizeof order / sizeof *order;
    byoc_buf b = BYOC_BUF_INIT;
    for (size_t i = 0; i <= n_order; i++) {
        const char *key;
        const json_t *v;
        json_object_foreach((json_t *)counts, key, v)
        {
            bool known = false;
            for (size_t k = 0; k < n_order; k++)
                known = known || strcmp(key, order[k]) == 0;
            bool now = i < n_order ? strcmp(key, order[i]) == 0 : !known;
            if (now && json_is_integer(v) && json_integer_value(v) > 0)
                byoc_buf_printf(&b, "%s%lld %s", b.len ? ", " : "", (long long)json_integer_value(v), key);
        }
    }
    if (!b.len)
        byoc_buf_printf(&b, "none");
    return byoc_buf_steal(&b);
}

static void image_from_json(const json_t *j, byoc_ecr_image *im)
{
    memset(im, 0, sizeof *im);
    im->digest = jstr(j, "imageDigest");
    const json_t *tags = json_object_get(j, "imageTags");
    im->tags = byoc_xcalloc(json_array_size(tags) + 1, sizeof *im->tags);
    size_t k;
    const json_t *v;
    json_array_foreach(tags, k, v) if (json_is_string(v)) im->tags[im->n_tags++] = byoc_xstrdup(json_string_value(v));
    const json_t *size = json_object_get(j, "imageSizeInBytes");
    im->size = byoc_json_int64_or(size, -1);
    im->pushed_at = jtime(j, "imagePushedAt");
    im->manifest_media_type = jstr(j, "imageManifestMediaType");
    im->scan_status = jstr(json_object_get(j, "imageScanStatus"), "status");
    im->scan_findings = byoc_ecr_findings_summary(json_object_get(j, "imageScanFindingsSummary"));
}

/* The Docker tag grammar: [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}. */
static bool tag_ok(const char *tag)
{
    size_t n = strlen(tag);
    if (n < 1 || n > 128 || tag[0] == '.' || tag[0] == '-')
        return false;
    for (const char *p = tag; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.' && *p != '-')
            return false;
    return true;
}

static int check_image_ids(const byoc_ecr_image_id *ids, size_t n, byoc_err *err)
{
    if (n > BATCH_MAX)
        return byoc_err_set(err, BYOC_E_USAGE, "image", "at most %d image ids per request", BATCH_MAX);
    for (size_t i = 0; i < n; i++) {
        if (!ids[i].digest && !ids[i].tag)
            return byoc_err_set(err, BYOC_E_USAGE, "image", "an image id needs a digest or a tag");
        if (ids[i].tag && !tag_ok(ids[i].tag))
            return byoc_err_set(err, BYOC_E_USAGE, "--tag", "'%s' is not a valid tag", ids[i].tag);
        if (ids[i].digest && strncmp(ids[i].digest, "sha256:", 7) != 0)
            return byoc_err_set(err, BYOC_E_USAGE, "digest", "'%s' is not a sha256: digest", ids[i].digest);
    }
    return 0;
}

static json_t *image_ids_json(const byoc_ecr_image_id *ids, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        if (ids[i].digest)
            json_object_set_new(o, "imageDigest", json_string(ids[i].digest));
        if (ids[i].tag)
            json_object_set_new(o, "imageTag", json_string(ids[i].tag));
        json_array_append_new(arr, o);
    }
    return arr;
}

static void take_images(const json_t *reply, void *ud)
{
    byoc_ecr_images_from_reply(reply, ud);
}

void byoc_ecr_images_from_reply(const json_t *reply, byoc_ecr_image_list *l)
{
    const json_t *details = json_object_get(reply, "imageDetails");
    l->items = byoc_xrealloc(l->items, (l->n + json_array_size(details) + 1) * sizeof *l->items);
    size_t k;
    const json_t *d;
    json_array_foreach(details, k, d) if (json_is_object(d)) image_from_json(d, &l->items[l->n++]);
}

static int check_page_size(int page_size, byoc_err *err)
{
    if (page_size < 0 || page_size > 1000)
        return byoc_err_set(err, BYOC_E_USAGE, "page size", "must be 1 to 1000 (got %d)", page_size);
    return 0;
}

/* NULL (the caller's registry) or 12 digits. */
static int check_registry_id(const char *registry_id, byoc_err *err)
{
    if (!registry_id)
        return 0;
    bool ok = strlen(registry_id) == 12;
    for (const char *p = registry_id; ok && *p; p++)
        ok = isdigit((unsigned char)*p);
    if (!ok)
        return byoc_err_set(err, BYOC_E_USAGE, "registry", "'%s' is not a 12-digit registry id", registry_id);
    return 0;
}

static int describe_images(byoc_aws_client *c, byoc_task *t, const char *registry_id, const char *repository,
                           const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_tag_status filter, int page_size,
                           byoc_ecr_image_list *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (check_registry_id(registry_id, err) < 0 ||
        byoc_ecr_check_repository_name(repository, "--repository", err) < 0 || check_image_ids(ids, n_ids, err) < 0 ||
        check_page_size(page_size, err) < 0)
        return -1;
    json_t *base = json_pack("{s:s}", "repositoryName", repository);
    if (registry_id)
        json_object_set_new(base, "registryId", json_string(registry_id));
    if (n_ids) {
        json_object_set_new(base, "imageIds", image_ids_json(ids, n_ids));
        page_size = 0;
    } else if (filter != BYOC_ECR_TAG_STATUS_ANY) {
        json_object_set_new(base, "filter", json_pack("{s:s}", "tagStatus", tag_status_name(filter)));
    }
    int rc = paged(c, t, "DescribeImages", base, page_size, take_images, out, &out->pages, err);
    json_decref(base);
    if (rc < 0)
        byoc_ecr_image_list_clear(out);
    return rc;
}

int byoc_ecr_describe_images(byoc_aws_client *c, byoc_task *t, const char *repository,
                             const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_tag_status filter,
                             int page_size, byoc_ecr_image_list *out, byoc_err *err)
{
    return describe_images(c, t, NULL, repository, ids, n_ids, filter, page_size, out, err);
}

int byoc_ecr_describe_images_in(byoc_aws_client *c, byoc_task *t, const char *registry_id, const char *repository,
                                const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_image_list *out, byoc_err *err)
{
    return describe_images(c, t, registry_id, repository, ids, n_ids, BYOC_ECR_TAG_STATUS_ANY, 0, out, err);
}

static void take_ids(const json_t *reply, void *ud)
{
    byoc_ecr_image_id_list *l = ud;
    const json_t *ids = json_object_get(reply, "imageIds");
    l->items = byoc_xrealloc(l->items, (l->n + json_array_size(ids) + 1) * sizeof *l->items);
    size_t k;
    const json_t *d;
    json_array_foreach(ids, k, d)
    {
        if (!json_is_object(d))
            continue; /* a hostile or broken reply: only objects are image ids */
        l->items[l->n].digest = jstr(d, "imageDigest");
        l->items[l->n].tag = jstr(d, "imageTag");
        l->n++;
    }
}

int byoc_ecr_list_images(byoc_aws_client *c, byoc_task *t, const char *repository, byoc_ecr_tag_status filter,
                         int page_size, byoc_ecr_image_id_list *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (byoc_ecr_check_repository_name(repository, "--repository", err) < 0 || check_page_size(page_size, err) < 0)
        return -1;
    json_t *base = json_pack("{s:s}", "repositoryName", repository);
    if (filter != BYOC_ECR_TAG_STATUS_ANY)
        json_object_set_new(base, "filter", json_pack("{s:s}", "tagStatus", tag_status_name(filter)));
    int rc = paged(c, t, "ListImages", base, page_size, take_ids, out, &out->pages, err);
    json_decref(base);
    if (rc < 0)
        byoc_ecr_image_id_list_clear(out);
    return rc;
}

void byoc_ecr_delete_result_clear(byoc_ecr_delete_result *r)
{
    for (size_t i = 0; r && i < r->n_failures; i++) {
        free(r->failures[i].digest);
        free(r->failures[i].tag);
        free(r->failures[i].code);
        free(r->failures[i].reason);
    }
    if (r) {
        free(r->failures);
        memset(r, 0, sizeof *r);
    }
}

int byoc_ecr_batch_delete_image(byoc_aws_client *c, byoc_task *t, const char *repository,
                                const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_delete_result *out,
                                byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (byoc_ecr_check_repository_name(repository, "--repository", err) < 0)
        return -1;
    if (n_ids == 0)
        return byoc_err_set(err, BYOC_E_USAGE, "image", "no image to delete");
    for (size_t off = 0; off < n_ids; off += BATCH_MAX)
        if (check_image_ids(ids + off, n_ids - off < BATCH_MAX ? n_ids - off : BATCH_MAX, err) < 0)
            return -1;
    for (size_t off = 0; off < n_ids; off += BATCH_MAX) {
        size_t k = n_ids - off < BATCH_MAX ? n_ids - off : BATCH_MAX;
        json_t *body = json_pack("{s:s, s:o}", "repositoryName", repository, "imageIds", image_ids_json(ids + off, k));
        json_t *reply;
        if (call(c, t, "BatchDeleteImage", body, &reply, err) < 0)
            return -1;
        out->deleted += json_array_size(json_object_get(reply, "imageIds"));
        const json_t *fails = json_object_get(reply, "failures");
        out->failures = byoc_xrealloc(out->failures, (out->n_failures + json_array_size(fails) + 1) *
                                                         sizeof *out->failures);
        size_t i;
        const json_t *f;
        json_array_foreach(fails, i, f)
        {
            byoc_ecr_delete_failure *d = &out->failures[out->n_failures++];
            const json_t *id = json_object_get(f, "imageId");
            d->digest = jstr(id, "imageDigest");
            d->tag = jstr(id, "imageTag");
            d->code = jstr(f, "failureCode");
            d->reason = jstr(f, "failureReason");
        }
        json_decref(reply);
    }
    return 0;
}

static int by_pushed_desc(const void *a, const void *b)
{
    const byoc_ecr_image *x = *(const byoc_ecr_image *const *)a, *y = *(const byoc_ecr_image *const *)b;
    if (x->pushed_at != y->pushed_at)
        return x->pushed_at < y->pushed_at ? 1 : -1;
    return strcmp(x->digest ? x->digest : "", y->digest ? y->digest : "");
}

json_t *byoc_ecr_images_json(const char *repository_uri, const byoc_ecr_image_list *l)
{
    const byoc_ecr_image **order = byoc_xcalloc(l->n + 1, sizeof *order);
    for (size_t i = 0; i < l->n; i++)
        order[i] = &l->items[i];
    qsort(order, l->n, sizeof *order, by_pushed_desc);
    json_t *arr = json_array();
    for (size_t i = 0; i < l->n; i++) {
        const byoc_ecr_image *im = order[i];
        json_t *tags = json_array();
        for (size_t k = 0; k < im->n_tags; k++)
            json_array_append_new(tags, json_string(im->tags[k]));
        char created[32] = "";
        if (im->pushed_at > 0) {
            time_t when = (time_t)floor(im->pushed_at);
            struct tm tm;
            gmtime_r(&when, &tm);
            strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &tm);
        }
        char *uri = im->n_tags ? byoc_xasprintf("%s:%s", repository_uri, im->tags[0])
                    : im->digest  ? byoc_xasprintf("%s@%s", repository_uri, im->digest)
                                  : byoc_xstrdup(repository_uri);
        json_t *o = json_object();
        json_object_set_new(o, "repository", json_string(repository_uri));
        json_object_set_new(o, "image_uri", json_string(uri));
        json_object_set_new(o, "tags", tags);
        json_object_set_new(o, "digest", im->digest ? json_string(im->digest) : json_null());
        json_object_set_new(o, "size", im->size >= 0 ? json_integer(im->size) : json_null());
        json_object_set_new(o, "created", created[0] ? json_string(created) : json_null());
        json_object_set_new(o, "media_type", im->manifest_media_type ? json_string(im->manifest_media_type)
                                                                     : json_null());
        json_object_set_new(o, "scan_status", im->scan_status ? json_string(im->scan_status) : json_null());
        json_array_append_new(arr, o);
        free(uri);
    }
    free(order);
    return json_pack("{s:o}", "images", arr);
}

int byoc_ecr_repository_images_json(byoc_aws_client *c, byoc_task *t, const char *repository, json_t **out,
                                    byoc_err *err)
{
    *out = NULL;
    byoc_ecr_repository repo;
    if (byoc_ecr_describe_repository(c, t, repository, &repo, err) < 0)
        return -1;
    byoc_ecr_image_list l;
    int rc = byoc_ecr_describe_images(c, t, repository, NULL, 0, BYOC_ECR_TAG_STATUS_ANY, 0, &l, err);
    if (rc == 0) {
        *out = byoc_ecr_images_json(repo.uri ? repo.uri : repository, &l);
        byoc_ecr_image_list_clear(&l);
    }
    byoc_ecr_repository_clear(&repo);
    return rc;
}

/* ---- repository policies ---- */

/* A call on a repository's policy where "the repository has no policy" is an answer, not a
 * failure: 0 with *reply NULL. */
static int policy_call(byoc_aws_client *c, byoc_task *t, const char *op, const char *repository, json_t **reply,
                       byoc_err *err)
{
    byoc_err local;
    byoc_err_clear(&local);
    if (call(c, t, op, json_pack("{s:s}", "repositoryName", repository), reply, &local) == 0)
        return 0;
    *reply = NULL;
    if (strcmp(local.code, "RepositoryPolicyNotFoundException") == 0)
        return 0;
    if (err)
        *err = local;
    return -1;
}

int byoc_ecr_get_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, char **text,
                                   byoc_err *err)
{
    *text = NULL;
    if (byoc_ecr_check_repository_name(repository, "repository", err) < 0)
        return -1;
    json_t *reply;
    if (policy_call(c, t, "GetRepositoryPolicy", repository, &reply, err) < 0)
        return -1;
    if (!reply)
        return 0;
    *text = jstr(reply, "policyText");
    json_decref(reply);
    return 0;
}

int byoc_ecr_set_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, const char *text,
                                   bool force, byoc_err *err)
{
    if (byoc_ecr_check_repository_name(repository, "repository", err) < 0)
        return -1;
    if (!text || !*text)
        return byoc_err_set(err, BYOC_E_USAGE, "policy", "the policy text is empty");
    if (strlen(text) > MAX_POLICY_CHARS)
        return byoc_err_set(err, BYOC_E_USAGE, "policy", "the policy has %zu characters; ECR allows %d",
                            strlen(text), MAX_POLICY_CHARS);
    json_t *body = json_pack("{s:s, s:s}", "repositoryName", repository, "policyText", text);
    if (force)
        json_object_set_new(body, "force", json_true());
    json_t *reply;
    if (call(c, t, "SetRepositoryPolicy", body, &reply, err) < 0)
        return -1;
    json_decref(reply);
    return 0;
}

int byoc_ecr_delete_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, byoc_err *err)
{
    if (byoc_ecr_check_repository_name(repository, "repository", err) < 0)
        return -1;
    json_t *reply;
    if (policy_call(c, t, "DeleteRepositoryPolicy", repository, &reply, err) < 0)
        return -1;
    json_decref(reply);
    return 0;
}

/* ---- scan findings ---- */

typedef struct {
    json_t *merged;
} findings_acc;

static void take_findings(const json_t *reply, void *ud)
{
    findings_acc *a = ud;
    const json_t *status = json_object_get(reply, "imageScanStatus");
    const json_t *scan = json_object_get(reply, "imageScanFindings");
    if (!json_object_get(a->merged, "status")) {
        const char *s = json_string_value(json_object_get(status, "status"));
        const char *d = json_string_value(json_object_get(status, "description"));
        json_object_set_new(a->merged, "status", s ? json_string(s) : json_null());
        json_object_set_new(a->merged, "description", d ? json_string(d) : json_null());
        double done = jtime(scan, "imageScanCompletedAt");
        json_object_set_new(a->merged, "completed_at", done > 0 ? json_real(done) : json_null());
        const json_t *counts = json_object_get(scan, "findingSeverityCounts");
        json_object_set_new(a->merged, "severity_counts", json_is_object(counts) ? json_deep_copy(counts) : json_object());
    }
    json_t *list = json_object_get(a->merged, "findings");
    size_t k;
    const json_t *f;
    json_array_foreach(json_object_get(scan, "findings"), k, f)
    {
        json_t *o = json_object();
        const char *keys[][2] = {{"name", "name"}, {"severity", "severity"}, {"uri", "uri"},
                                 {"description", "description"}};
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
            const char *v = json_string_value(json_object_get(f, keys[i][0]));
            json_object_set_new(o, keys[i][1], v ? json_string(v) : json_null());
        }
        json_array_append_new(list, o);
    }
    json_array_foreach(json_object_get(scan, "enhancedFindings"), k, f)
    {
        const char *title = json_string_value(json_object_get(f, "title"));
        const char *sev = json_string_value(json_object_get(f, "severity"));
        const char *desc = json_string_value(json_object_get(f, "description"));
        json_array_append_new(list, json_pack("{s:o, s:o, s:n, s:o}", "name", title ? json_string(title) : json_null(),
                                              "severity", sev ? json_string(sev) : json_null(), "uri", "description",
                                              desc ? json_string(desc) : json_null()));
    }
}

int byoc_ecr_describe_image_scan_findings(byoc_aws_client *c, byoc_task *t, const char *repository,
                                          const byoc_ecr_image_id *image, json_t **out, byoc_err *err)
{
    *out = NULL;
    if (byoc_ecr_check_repository_name(repository, "repository", err) < 0 || check_image_ids(image, 1, err) < 0)
        return -1;
    json_t *id = image_ids_json(image, 1);
    json_t *base = json_pack("{s:s, s:O}", "repositoryName", repository, "imageId", json_array_get(id, 0));
    json_decref(id);
    findings_acc acc = {json_pack("{s:o}", "findings", json_array())};
    unsigned pages;
    int rc = paged(c, t, "DescribeImageScanFindings", base, 0, take_findings, &acc, &pages, err);
    json_decref(base);
    if (rc < 0) {
        json_decref(acc.merged);
        return -1;
    }
    *out = acc.merged;
    return 0;
}

/* ---- registry login ---- */

void byoc_ecr_token_clear(byoc_ecr_token *tok)
{
    if (!tok)
        return;
    free(tok->username);
    byoc_free_secret(tok->password);
    free(tok->proxy_endpoint);
    free(tok->registry_host);
    memset(tok, 0, sizeof *tok);
}

static void byoc_ecr_token_copy(byoc_ecr_token *dst, const byoc_ecr_token *src)
{
    *dst = *src;
    dst->username = byoc_xstrdup_opt(src->username);
    dst->password = byoc_xstrdup_opt(src->password);
    dst->proxy_endpoint = byoc_xstrdup_opt(src->proxy_endpoint);
    dst->registry_host = byoc_xstrdup_opt(src->registry_host);
}

time_t byoc_ecr_token_valid_until(time_t fetched_at, time_t expires_at)
{
    if (expires_at - fetched_at > 2 * BYOC_ECR_TOKEN_MARGIN_S)
        return expires_at - BYOC_ECR_TOKEN_MARGIN_S;
    return fetched_at + BYOC_ECR_TOKEN_FALLBACK_WINDOW_S;
}

/* Standard base64 (with or without padding) -> bytes; malloc'd, NUL-terminated. */
static unsigned char *b64_decode(const char *in, size_t *out_len)
{
    size_t n = strlen(in);
    char *padded = byoc_xmalloc(n + 4);
    memcpy(padded, in, n);
    while (n % 4)
        padded[n++] = '=';
    padded[n] = 0;
    unsigned char *out = byoc_xmalloc(n / 4 * 3 + 1);
    int k = EVP_DecodeBlock(out, (const unsigned char *)padded, (int)n);
    size_t pad = 0;
    while (pad < 2 && n > pad && padded[n - 1 - pad] == '=')
        pad++;
    byoc_wipe(padded, n);
    free(padded);
    if (k < 0) {
        free(out);
        return NULL;
    }
    *out_len = (size_t)k - pad;
    out[*out_len] = 0;
    return out;
}

static char *host_of(const char *url)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    return byoc_xstrndup(p, strcspn(p, "/"));
}

int byoc_ecr_get_authorization_token(byoc_aws_client *c, byoc_task *t, const char *registry_id, time_t now,
                                     byoc_ecr_token *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (check_registry_id(registry_id, err) < 0)
        return -1;
    json_t *body = registry_id ? json_pack("{s:[s]}", "registryIds", registry_id) : json_object();
    json_t *reply;
    if (call(c, t, "GetAuthorizationToken", body, &reply, err) < 0)
        return -1;
    const json_t *data = json_array_get(json_object_get(reply, "authorizationData"), 0);
    const char *token = json_string_value(json_object_get(data, "authorizationToken"));
    const char *endpoint = json_string_value(json_object_get(data, "proxyEndpoint"));
    int rc = 0;
    if (!token || !endpoint) {
        rc = byoc_err_set(err, BYOC_E_FAILED, "ecr", "GetAuthorizationToken: the reply has no %s",
                          token ? "proxyEndpoint" : "authorizationToken");
    } else {
        byoc_secret_register(token);
        size_t len = 0;
        unsigned char *plain = b64_decode(token, &len);
        char *colon = plain ? memchr(plain, ':', len) : NULL;
        if (!colon || strlen((char *)plain) != len) {
            rc = byoc_err_set(err, BYOC_E_FAILED, "ecr",
                              "GetAuthorizationToken: the token is not base64 of USER:PASSWORD");
        } else {
            *colon = 0;
            out->password = byoc_xstrdup(colon + 1);
            byoc_secret_register(out->password);
            out->username = byoc_xstrdup((char *)plain);
            out->proxy_endpoint = byoc_xstrdup(endpoint);
            out->registry_host = host_of(endpoint);
            out->expires_at = (time_t)jtime(data, "expiresAt");
            out->fetched_at = now;
            out->valid_until = byoc_ecr_token_valid_until(now, out->expires_at);
        }
        if (plain) {
            byoc_wipe(plain, len);
            free(plain);
        }
    }
    json_decref(reply);
    if (rc < 0)
        byoc_ecr_token_clear(out);
    return rc;
}

struct byoc_ecr_auth {
    pthread_mutex_t lock;
    byoc_aws_client *client;
    char *registry_id;
    bool have;
    byoc_ecr_token token;
    unsigned fetches;
    time_t forced_at;   /* when a refused token was last replaced */
};

byoc_ecr_auth *byoc_ecr_auth_new(byoc_aws_client *client, const char *registry_id)
{
    byoc_ecr_auth *a = byoc_xcalloc(1, sizeof *a);
    pthread_mutex_init(&a->lock, NULL);
    a->client = client;
    a->registry_id = byoc_xstrdup_opt(registry_id);
    return a;
}

void byoc_ecr_auth_free(byoc_ecr_auth *a)
{
    if (!a)
        return;
    byoc_ecr_token_clear(&a->token);
    free(a->registry_id);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

int byoc_ecr_auth_get(byoc_ecr_auth *a, byoc_task *t, time_t now, bool force, byoc_ecr_token *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (now == 0)
        now = time(NULL);
    pthread_mutex_lock(&a->lock);
    bool forced = force && (a->forced_at == 0 || now - a->forced_at >= BYOC_ECR_TOKEN_FORCE_INTERVAL_S);
    bool stale = !a->have || now >= a->token.valid_until || forced;
    int rc = 0;
    if (stale) {
        byoc_ecr_token fresh;
        a->fetches++;
        rc = byoc_ecr_get_authorization_token(a->client, t, a->registry_id, now, &fresh, err);
        if (rc == 0) {
            byoc_ecr_token_clear(&a->token);
            a->token = fresh;
            a->have = true;
            if (forced)
                a->forced_at = now;
            byoc_log(BYOC_LOG_DEBUG, "ecr: new login token for %s (refresh after %lld)", fresh.registry_host,
                     (long long)fresh.valid_until);
        }
    }
    if (rc == 0)
        byoc_ecr_token_copy(out, &a->token);
    pthread_mutex_unlock(&a->lock);
    return rc;
}

unsigned byoc_ecr_auth_fetches(byoc_ecr_auth *a)
{
    pthread_mutex_lock(&a->lock);
    unsigned n = a->fetches;
    pthread_mutex_unlock(&a->lock);
    return n;
}
