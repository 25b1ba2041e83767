#include "aws/iam_simulate.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/pager.h"
#include "core/buf.h"
#include "core/strv.h"

#define IAM_VERSION "2010-05-08"

void byoc_iam_evals_free(byoc_iam_eval *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        free(v[i].action);
        free(v[i].resource);
        free(v[i].decision);
    }
    free(v);
}

/* Query parameters: key, value, ..., NULL-terminated. */
static void param(byoc_strv *p, const char *key, const char *value)
{
    byoc_strv_push(p, key);
    byoc_strv_push(p, value);
}

static void member_list(byoc_strv *p, const char *name, const char *const *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char key[96];
        snprintf(key, sizeof key, "%s.member.%zu", name, i + 1);
        param(p, key, items[i]);
    }
}

int byoc_iam_simulate_principal_policy(byoc_aws_client *c, byoc_task *t, const char *source_arn,
                                       const char *const *actions, size_t n_actions, const char *const *resources,
                                       size_t n_resources, const char *resource_policy, byoc_iam_eval **out,
                                       size_t *n, byoc_err *err)
{
    *out = NULL;
    *n = 0;
    if (!source_arn || !*source_arn || n_actions == 0)
        return byoc_err_set(err, BYOC_E_USAGE, "simulate", "a principal ARN and at least one action are needed");
    byoc_aws_session sess;
    if (byoc_aws_session_open(c, t, BYOC_AWS_IAM, &sess, err) != 0)
        return -1;
    sess.ctx.max_attempts = 1;
    byoc_iam_eval *items = NULL;
    size_t len = 0;
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "SimulatePrincipalPolicy");
    int rc = 0, more = 0;
    do {
        byoc_strv p = BYOC_STRV_INIT;
        param(&p, "PolicySourceArn", source_arn);
        member_list(&p, "ActionNames", actions, n_actions);
        member_list(&p, "ResourceArns", resources, n_resources);
        if (resource_policy)
            param(&p, "ResourcePolicy", resource_policy);
        if (pager.token)
            param(&p, "Marker", pager.token);
        byoc_aws_xml *doc = NULL;
        rc = byoc_aws_query_do(&sess.ctx, "SimulatePrincipalPolicy", IAM_VERSION, (const char *const *)p.v, &doc,
                               err);
        byoc_strv_clear(&p);
        if (rc != 0)
            break;
        byoc_aws_xml *result = byoc_aws_xml_child(byoc_aws_xml_root(doc), "SimulatePrincipalPolicyResult");
        byoc_aws_xml *list = byoc_aws_xml_child(result, "EvaluationResults");
        if (!result) {
            byoc_aws_xml_free(doc);
            rc = byoc_err_set(err, BYOC_E_FAILED, "iam", "SimulatePrincipalPolicy: the reply has no result");
            break;
        }
        for (byoc_aws_xml *m = list ? list->children : NULL; m; m = m->next) {
            if (strcmp(m->name, "member") != 0)
                continue;
            items = byoc_xrealloc(items, (len + 1) * sizeof *items);
            items[len++] = (byoc_iam_eval){byoc_aws_xml_text(m, "EvalActionName"),
                                           byoc_aws_xml_text(m, "EvalResourceName"),
                                           byoc_aws_xml_text(m, "EvalDecision")};
        }
        more = byoc_aws_pager_next_xml(&pager, result, "Marker", err);
        byoc_aws_xml_free(doc);
        if (more < 0)
            rc = -1;
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    byoc_aws_session_close(&sess);
    if (rc != 0) {
        byoc_iam_evals_free(items, len);
        return -1;
    }
    *out = items;
    *n = len;
    return 0;
}

int byoc_iam_list_attached_role_policies(byoc_aws_client *c, byoc_task *t, const char *role_name, byoc_strv *arns,
                                         byoc_err *err)
{
    byoc_strv v = BYOC_STRV_INIT;
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "ListAttachedRolePolicies");
    int rc = 0, more = 0;
    do {
        byoc_strv p = BYOC_STRV_INIT;
        param(&p, "RoleName", role_name);
        if (pager.token)
            param(&p, "Marker", pager.token);
        byoc_aws_xml *doc = NULL;
        rc = byoc_aws_query_call(c, t, BYOC_AWS_IAM, "ListAttachedRolePolicies", IAM_VERSION,
                                 (const char *const *)p.v, &doc, err);
        byoc_strv_clear(&p);
        if (rc != 0)
            break;
        byoc_aws_xml *result = byoc_aws_xml_child(byoc_aws_xml_root(doc), "ListAttachedRolePoliciesResult");
        byoc_aws_xml *list = byoc_aws_xml_child(result, "AttachedPolicies");
        for (byoc_aws_xml *m = list ? list->children : NULL; m; m = m->next) {
            if (strcmp(m->name, "member") != 0)
                continue;
            char *arn = byoc_aws_xml_text(m, "PolicyArn");
            if (arn)
                byoc_strv_push_owned(&v, arn);
        }
        more = byoc_aws_pager_next_xml(&pager, result, "Marker", err);
        byoc_aws_xml_free(doc);
        if (more < 0)
            rc = -1;
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    if (rc != 0) {
        byoc_strv_clear(&v);
        return -1;
    }
    *arns = v;
    return 0;
}
