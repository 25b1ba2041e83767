#include "aws/iam.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "aws/pager.h"
#include "core/buf.h"

#define IAM_VERSION "2010-05-08"

void byoc_iam_roles_free(byoc_iam_role *roles, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(roles[i].name);
        free(roles[i].arn);
        free(roles[i].path);
    }
    free(roles);
}

/* One ListRoles page; each role goes to visit(), which returns true to stop.
 * The pager learns whether there is a next page (*more). */
typedef bool (*role_visitor)(const byoc_iam_role *role, void *ud);

static int list_page(byoc_aws_client *c, byoc_task *t, const char *path_prefix, byoc_aws_pager *pager,
                     role_visitor visit, void *ud, int *more, byoc_err *err)
{
    const char *params[7];
    size_t k = 0;
    if (path_prefix && *path_prefix) {
        params[k++] = "PathPrefix";
        params[k++] = path_prefix;
    }
    if (pager->token) {
        params[k++] = "Marker";
        params[k++] = pager->token;
    }
    params[k] = NULL;
    byoc_aws_xml *doc = NULL;
    if (byoc_aws_query_call(c, t, BYOC_AWS_IAM, "ListRoles", IAM_VERSION, params, &doc, err) != 0)
        return -1;
    byoc_aws_xml *result = byoc_aws_xml_child(byoc_aws_xml_root(doc), "ListRolesResult");
    byoc_aws_xml *roles = byoc_aws_xml_child(result, "Roles");
    bool stopped = false;
    for (byoc_aws_xml *m = roles ? roles->children : NULL; m && !stopped; m = m->next) {
        if (strcmp(m->name, "member") != 0)
            continue;
        byoc_iam_role r = {byoc_aws_xml_text(m, "RoleName"), byoc_aws_xml_text(m, "Arn"), byoc_aws_xml_text(m, "Path")};
        if (r.name && r.arn)
            stopped = visit(&r, ud);
        free(r.name);
        free(r.arn);
        free(r.path);
    }
    *more = byoc_aws_pager_next_xml(pager, stopped ? NULL : result, "Marker", err);
    byoc_aws_xml_free(doc);
    return *more < 0 ? -1 : 0;
}

static int list_all(byoc_aws_client *c, byoc_task *t, const char *path_prefix, role_visitor visit, void *ud,
                    byoc_err *err)
{
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "ListRoles");
    int rc, more = 0;
    do
        rc = list_page(c, t, path_prefix, &pager, visit, ud, &more, err);
    while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    return rc;
}

typedef struct {
    byoc_iam_role *items;
    size_t len, cap;
} role_list;

static bool collect(const byoc_iam_role *r, void *ud)
{
    role_list *l = ud;
    if (l->len == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->items = byoc_xrealloc(l->items, l->cap * sizeof *l->items);
    }
    l->items[l->len].name = byoc_xstrdup(r->name);
    l->items[l->len].arn = byoc_xstrdup(r->arn);
    l->items[l->len].path = byoc_xstrdup(r->path ? r->path : "");
    l->len++;
    return false;
}

int byoc_iam_list_roles(byoc_aws_client *c, byoc_task *t, const char *path_prefix, byoc_iam_role **out, size_t *n,
                        byoc_err *err)
{
    role_list l = {0};
    int rc = list_all(c, t, path_prefix, collect, &l, err);
    if (rc != 0) {
        byoc_iam_roles_free(l.items, l.len);
        l.items = NULL;
        l.len = 0;
    }
    *out = l.items;
    *n = l.len;
    return rc;
}

typedef struct {
    const char *prefix;
    char *arn;
} finder;

static bool find_first(const byoc_iam_role *r, void *ud)
{
    finder *f = ud;
    if (strncmp(r->name, f->prefix, strlen(f->prefix)) != 0)
        return false;
    f->arn = byoc_xstrdup(r->arn);
    return true;
}

int byoc_iam_find_role(byoc_aws_client *c, byoc_task *t, const char *path_prefix, const char *name_prefix,
                       char **arn, byoc_err *err)
{
    finder f = {name_prefix, NULL};
    int rc = list_all(c, t, path_prefix, find_first, &f, err);
    *arn = rc == 0 ? f.arn : NULL;
    if (rc != 0)
        free(f.arn);
    return rc;
}
