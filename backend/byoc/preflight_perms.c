/* preflight, the permissions group: the role can pull the image and use the
 * S3 prefixes; the caller may pass the role and create the job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/iam_simulate.h"
#include "aws/s3.h"
#include "byoc/permit.h"
#include "byoc/preflight_ctx.h"
#include "core/buf.h"

#define MANAGED_POLICY "AmazonBraketJobsExecutionPolicy"

static void check_pull(pf_ctx *c)
{
    if (!c->image_is_ecr)
        return;
    byoc_aws_config_opts ao = c->opts->aws;
    ao.region = c->image_region;
    byoc_aws_client *ecr = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    byoc_pull_check pc;
    memset(&pc, 0, sizeof pc);
    if (byoc_aws_clients_get(c->opts->clients, &ao, &ecr, &err) != 0 ||
        byoc_permit_check_pull(ecr, c->t, c->repository, c->role_arn, &pc, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_PERMS + 1, "permissions.pull", BYOC_PF_WARN, "check with byoc permit REPOSITORY --check ROLE",
               "could not tell whether %s can pull: %s", c->role_arn, line);
    } else if (pc.can_pull) {
        pf_add(c, PF_ORD_PERMS + 1, "permissions.pull", BYOC_PF_PASS, NULL, "%s can pull %s (%s: %s)", c->role_arn,
               c->repository, pc.method ? pc.method : "", pc.reason ? pc.reason : "");
    } else {
        char fix[600];
        snprintf(fix, sizeof fix, "byoc --region %s permit %s --allow %s (or name the repository amazon-braket-...)",
                 c->image_region, c->repository, c->role_arn);
        pf_add(c, PF_ORD_PERMS + 1, "permissions.pull", BYOC_PF_FAIL, fix,
               "%s cannot pull %s (%s: %s): the job would fail while starting", c->role_arn, c->repository,
               pc.method ? pc.method : "", pc.reason ? pc.reason : "");
    }
    byoc_pull_check_clear(&pc);
    byoc_aws_client_free(ecr);
}

/* One S3 location the job reads or writes. */
typedef struct {
    char *bucket, *key;
    bool write;
    const char *what;   /* the flag */
} s3_place;

static void add_place(s3_place *v, size_t *n, const char *uri, bool write, const char *what)
{
    char *b = NULL, *k = NULL;
    if (!uri || byoc_s3_parse_uri(uri, &b, &k) != 0) {
        free(b);
        free(k);
        return;
    }
    v[*n] = (s3_place){b, k, write, what};
    (*n)++;
}

static bool role_has_managed_policy(pf_ctx *c, bool *known)
{
    *known = false;
    const char *slash = strrchr(c->role_arn, '/');
    byoc_strv arns = BYOC_STRV_INIT;
    byoc_err err;
    byoc_err_clear(&err);
    if (!slash || byoc_iam_list_attached_role_policies(c->client, c->t, slash + 1, &arns, &err) != 0)
        return false;
    *known = true;
    bool found = false;
    for (size_t i = 0; i < arns.n; i++) {
        /* The AWS managed policy itself (account "aws"), not a look-alike of the same name. */
        const char *base = strrchr(arns.v[i], '/');
        found = found || (base && strcmp(base + 1, MANAGED_POLICY) == 0 && strstr(arns.v[i], ":iam::aws:policy/"));
    }
    byoc_strv_clear(&arns);
    return found;
}

static void check_s3(pf_ctx *c)
{
    s3_place places[32];
    size_t n = 0;
    char *bucket = c->account && *c->account ? byoc_job_default_bucket(c->job_region, c->account) : NULL;
    char *def = bucket ? byoc_xasprintf("s3://%s/jobs/", bucket) : NULL;
    for (size_t i = 0; i < c->spec->n_channels && n < 28; i++)
        if (byoc_job_is_s3_uri(c->spec->channels[i].location))
            add_place(places, &n, c->spec->channels[i].location, false, "--input-data");
    add_place(places, &n, c->spec->output_s3 ? c->spec->output_s3 : def, true, "--output-s3");
    add_place(places, &n, c->spec->checkpoint_s3 ? c->spec->checkpoint_s3 : def, true, "--checkpoint-s3");
    free(def);
    free(bucket);
    if (n == 0) {
        pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_WARN, "fix credentials (see credentials)",
               "the S3 locations are unknown (no account)");
        return;
    }
    /* IAM's own answer first. */
    const char *actions_r[] = {"s3:GetObject", "s3:ListBucket"};
    const char *actions_w[] = {"s3:PutObject"};
    byoc_buf denied = BYOC_BUF_INIT;
    bool simulated = true;
    char sim_error[800] = "";
    for (size_t i = 0; i < n && simulated; i++) {
        char *obj = byoc_xasprintf("arn:aws:s3:::%s/%s*", places[i].bucket, places[i].key);
        const char *res_obj[] = {obj};
        byoc_iam_eval *ev = NULL;
        size_t ne = 0;
        byoc_err err;
        byoc_err_clear(&err);
        if (byoc_iam_simulate_principal_policy(c->client, c->t, c->role_arn,
                                               places[i].write ? actions_w : actions_r, places[i].write ? 1 : 2,
                                               res_obj, 1, NULL, &ev, &ne, &err) != 0) {
            simulated = false;
            snprintf(sim_error, sizeof sim_error, "%s", err.code[0] ? err.code : err.message);
        }
        for (size_t j = 0; simulated && j < ne; j++)
            if (strcmp(ev[j].decision ? ev[j].decision : "", "allowed") != 0)
                byoc_buf_printf(&denied, "%s%s s3://%s/%s (%s)", denied.len ? "; " : "", ev[j].action,
                                places[i].bucket, places[i].key, ev[j].decision ? ev[j].decision : "?");
        byoc_iam_evals_free(ev, ne);
        free(obj);
    }
    if (simulated) {
        if (denied.len)
            pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_FAIL,
                   "grant the role s3:GetObject/ListBucket on the inputs and s3:PutObject on the output and "
                   "checkpoint prefixes, or use amazon-braket-* buckets",
                   "IAM simulation of %s: not allowed: %s", c->role_arn, byoc_buf_str(&denied));
        else
            pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_PASS, NULL,
                   "IAM simulation: %s may read the inputs and write the output and checkpoints (%zu locations)",
                   c->role_arn, n);
    } else {
        bool known;
        bool managed = role_has_managed_policy(c, &known);
        byoc_buf outside = BYOC_BUF_INIT;
        for (size_t i = 0; i < n; i++)
            if (strncmp(places[i].bucket, "amazon-braket-", 14) != 0)
                byoc_buf_printf(&outside, "%s%s s3://%s", outside.len ? ", " : "", places[i].what, places[i].bucket);
        if (managed && outside.len)
            pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_FAIL,
                   "use buckets named amazon-braket-*, or attach a policy granting the role those buckets",
                   "%s has %s, which covers only buckets amazon-braket-*: not %s (IAM simulation unavailable: %s)",
                   c->role_arn, MANAGED_POLICY, byoc_buf_str(&outside), sim_error);
        else if (managed)
            pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_PASS, NULL,
                   "%s has %s and every bucket is amazon-braket-*", c->role_arn, MANAGED_POLICY);
        else
            pf_add(c, PF_ORD_PERMS + 2, "permissions.s3", BYOC_PF_WARN,
                   "allow iam:SimulatePrincipalPolicy, or check the role's S3 access by hand",
                   "cannot tell whether %s may use the S3 locations: IAM simulation unavailable (%s)%s", c->role_arn,
                   sim_error, known ? ", and the role lacks " MANAGED_POLICY : "");
        byoc_buf_clear(&outside);
    }
    byoc_buf_clear(&denied);
    for (size_t i = 0; i < n; i++) {
        free(places[i].bucket);
        free(places[i].key);
    }
}

/* arn:aws:sts::<acct>:assumed-role/<name>/<session> -> arn:aws:iam::<acct>:role/<name>; others as they are. */
static char *principal_for_simulation(const char *arn)
{
    const char *ar = strstr(arn, ":assumed-role/");
    if (strncmp(arn, "arn:aws:sts::", 13) != 0 || !ar)
        return byoc_xstrdup(arn);
    const char *name = ar + strlen(":assumed-role/");
    size_t nl = strcspn(name, "/");
    return byoc_xasprintf("arn:aws:iam::%.*s:role/%.*s", (int)(ar - arn - 13), arn + 13, (int)nl, name);
}

static void check_caller(pf_ctx *c)
{
    if (!c->caller_arn)
        return;
    char *who = principal_for_simulation(c->caller_arn);
    const char *actions[] = {"iam:PassRole", "braket:CreateJob"};
    byoc_buf denied = BYOC_BUF_INIT;
    byoc_err err;
    byoc_err_clear(&err);
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        const char *res[] = {i == 0 ? c->role_arn : "*"};
        byoc_iam_eval *ev = NULL;
        size_t ne = 0;
        if (byoc_iam_simulate_principal_policy(c->client, c->t, who, &actions[i], 1, res, 1, NULL, &ev, &ne, &err) !=
            0)
            ok = false;
        for (size_t j = 0; ok && j < ne; j++)
            if (strcmp(ev[j].decision ? ev[j].decision : "", "allowed") != 0)
                byoc_buf_printf(&denied, "%s%s on %s (%s)", denied.len ? "; " : "", ev[j].action, ev[j].resource,
                                ev[j].decision);
        byoc_iam_evals_free(ev, ne);
    }
    if (!ok)
        pf_add(c, PF_ORD_PERMS + 3, "permissions.caller", BYOC_PF_WARN,
               "allow iam:SimulatePrincipalPolicy to have this checked",
               "cannot tell whether %s may iam:PassRole %s and braket:CreateJob: IAM simulation unavailable (%s)",
               c->caller_arn, c->role_arn, err.code[0] ? err.code : err.message);
    else if (denied.len)
        pf_add(c, PF_ORD_PERMS + 3, "permissions.caller", BYOC_PF_FAIL,
               "attach AmazonBraketFullAccess (or a policy with iam:PassRole on the role and braket:CreateJob) to you",
               "%s is not allowed: %s", c->caller_arn, byoc_buf_str(&denied));
    else
        pf_add(c, PF_ORD_PERMS + 3, "permissions.caller", BYOC_PF_PASS, NULL,
               "%s may iam:PassRole %s and braket:CreateJob", c->caller_arn, c->role_arn);
    byoc_buf_clear(&denied);
    free(who);
}

void pf_group_permissions(pf_ctx *c)
{
    if (!c->role_arn) {
        pf_add(c, PF_ORD_PERMS + 1, "permissions.pull", BYOC_PF_FAIL,
               "pass --role-arn, set BRAKET_JOBS_ROLE_ARN, or create the role in the Braket console",
               "no execution role: none given and no /service-role/%s* found", BYOC_JOB_DEFAULT_ROLE_PREFIX);
        return;
    }
    check_pull(c);
    check_s3(c);
    check_caller(c);
}
