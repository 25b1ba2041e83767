#include "byoc/permit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "aws/ecr.h"
#include "aws/endpoints.h"
#include "aws/iam_simulate.h"
#include "byoc/policy.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/strpool.h"
#include "core/textdiff.h"

#define PROPAGATION_RETRIES 4

/* ---- results ---- */

static void strv_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void strv_add(char ***v, size_t *n, const char *s)
{
    *v = byoc_xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = byoc_xstrdup(s);
}

static void byoc_permit_result_clear(byoc_permit_result *r)
{
    if (!r)
        return;
    free(r->repository);
    json_decref(r->old_policy);
    json_decref(r->policy);
    free(r->diff);
    strv_free(r->warnings, r->n_warnings);
    strv_free(r->added, r->n_added);
    strv_free(r->revoked, r->n_revoked);
    memset(r, 0, sizeof *r);
}

static json_t *strv_json(char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

json_t *byoc_permit_result_json(const byoc_permit_result *r, bool with_diff)
{
    json_t *j = json_object();
    json_object_set_new(j, "repository", json_string(r->repository ? r->repository : ""));
    json_object_set_new(j, "policy", r->policy ? json_incref(r->policy) : json_null());
    json_object_set_new(j, "warnings", strv_json(r->warnings, r->n_warnings));
    json_object_set_new(j, "changed", json_boolean(r->changed));
    json_object_set_new(j, "sent", json_boolean(r->sent));
    json_object_set_new(j, "added", strv_json(r->added, r->n_added));
    json_object_set_new(j, "revoked", strv_json(r->revoked, r->n_revoked));
    if (with_diff)
        json_object_set_new(j, "diff", json_string(r->diff ? r->diff : ""));
    return j;
}

static void warn(byoc_permit_result *r, byoc_task *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void warn(byoc_permit_result *r, byoc_task *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    byoc_task_log(t, "warning: %s", byoc_buf_str(&b));
    strv_add(&r->warnings, &r->n_warnings, byoc_buf_str(&b));
    byoc_buf_clear(&b);
}

/* ---- edit ---- */

static const char *partition_of(byoc_aws_client *c)
{
    const char *region = byoc_aws_client_region(c);
    return region ? byoc_aws_partition(region) : "aws";
}

/* Normalise every principal of a list; "*" is refused unless forced. */
static int normalize_all(const char *const *in, size_t n, const char *partition, const char *flag, bool force,
                         char ***out, byoc_err *err)
{
    *out = byoc_xcalloc(n + 1, sizeof **out);
    for (size_t i = 0; i < n; i++) {
        byoc_principal_kind kind;
        if (byoc_policy_principal_normalize(in[i], partition, flag, &(*out)[i], &kind, err) < 0)
            return -1;
        if (kind == BYOC_PRINCIPAL_WILDCARD && !force && strcmp(flag, "--allow") == 0)
            return byoc_err_set(err, BYOC_E_USAGE, flag,
                                "refusing Principal \"*\": anyone in any AWS account could pull the image; name the "
                                "job's role, a user or an account (or use --force)");
    }
    return 0;
}

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

static void sleep_s(byoc_task *t, int s)
{
    for (int i = 0; i < s * 20 && !byoc_task_cancelled(t); i++) {
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

static bool propagation_error(const byoc_err *e)
{
    return strcmp(e->code, "InvalidParameterException") == 0 && strcasestr(e->message, "principal") != NULL;
}

static int send_policy(byoc_aws_client *c, byoc_task *t, const char *repo, const byoc_policy *p,
                       byoc_permit_result *r, byoc_err *err)
{
    if (byoc_policy_statement_count(p) == 0) {
        byoc_task_status(t, "Deleting the policy of %s (no statement left)", repo);
        if (byoc_ecr_delete_repository_policy(c, t, repo, err) < 0)
            return -1;
        r->sent = r->deleted = true;
        return 0;
    }
    char *text = byoc_policy_text(p);
    int rc = -1;
    for (int attempt = 0;; attempt++) {
        byoc_task_status(t, "Setting the policy of %s", repo);
        byoc_err local;
        byoc_err_clear(&local);
        rc = byoc_ecr_set_repository_policy(c, t, repo, text, false, &local);
        if (rc == 0 || attempt >= PROPAGATION_RETRIES || !propagation_error(&local) || byoc_task_cancelled(t)) {
            if (rc < 0 && err)
                *err = local;
            break;
        }
        int wait = 2 << attempt;
        byoc_task_log(t, "ECR does not know a principal yet (%s); IAM may still be propagating it: retrying in %d s",
                      local.message, wait);
        sleep_s(t, wait);
    }
    free(text);
    if (rc == 0)
        r->sent = true;
    return rc;
}

static json_t *doc_copy(const byoc_policy *p)
{
    return json_deep_copy(byoc_policy_doc(p));
}

int byoc_permit_run(byoc_aws_client *c, byoc_task *t, const byoc_permit_opts *o, byoc_permit_result *r,
                    byoc_err *err)
{
    memset(r, 0, sizeof *r);
    r->diff = byoc_xstrdup("");
    if (byoc_ecr_check_repository_name(o->repository, "REPOSITORY", err) < 0)
        return -1;
    r->repository = byoc_xstrdup(o->repository);
    const char *partition = partition_of(c);
    char **allow = NULL, **revoke = NULL;
    int rc = -1;
    byoc_policy *p = NULL;
    char *old_pretty = NULL, *new_pretty = NULL, *old_text = NULL;
    byoc_policy_lint lint = {0};
    if (normalize_all(o->allow, o->n_allow, partition, "--allow", o->force, &allow, err) < 0 ||
        normalize_all(o->revoke, o->n_revoke, partition, "--revoke", true, &revoke, err) < 0)
        goto out;
    for (size_t i = 0; i < o->n_allow; i++)
        for (size_t k = 0; k < o->n_revoke; k++)
            if (strcmp(allow[i], revoke[k]) == 0) {
                byoc_err_set(err, BYOC_E_USAGE, "--revoke", "%s is both allowed and revoked", allow[i]);
                goto out;
            }

    byoc_task_status(t, "Reading the policy of %s", o->repository);
    if (byoc_ecr_get_repository_policy(c, t, o->repository, &old_text, err) < 0)
        goto out;
    r->had_policy = old_text != NULL;
    if (byoc_policy_parse(old_text, partition, &p, err) < 0)
        goto out;
    r->old_policy = old_text ? doc_copy(p) : NULL;
    old_pretty = old_text ? byoc_policy_pretty(p) : byoc_xstrdup("");

    char note[600];
    for (size_t i = 0; i < o->n_allow; i++) {
        if (byoc_policy_allow_pull(p, allow[i], note, sizeof note) > 0)
            strv_add(&r->added, &r->n_added, allow[i]);
        else
            warn(r, t, "%s", note);
    }
    for (size_t i = 0; i < o->n_revoke; i++) {
        int changed = byoc_policy_revoke_pull(p, revoke[i], note, sizeof note);
        if (changed > 0)
            strv_add(&r->revoked, &r->n_revoked, revoke[i]);
        if (note[0])
            warn(r, t, "%s", note);
    }
    r->changed = r->n_added > 0 || r->n_revoked > 0;
    bool empty_after = byoc_policy_statement_count(p) == 0;
    new_pretty = r->changed && empty_after ? byoc_xstrdup("") : byoc_policy_pretty(p);
    r->policy = (r->changed && empty_after) || (!r->changed && !old_text) ? NULL : doc_copy(p);
    if (r->changed) {
        char *la = byoc_xasprintf("%s (current policy)", o->repository);
        char *lb = byoc_xasprintf("%s (new policy)", o->repository);
        char *a = byoc_xasprintf("%s%s", old_pretty, *old_pretty ? "\n" : "");
        char *b = byoc_xasprintf("%s%s", new_pretty, *new_pretty ? "\n" : "");
        free(r->diff);
        r->diff = byoc_unified_diff(a, b, la, lb, 3);
        free(a);
        free(b);
        free(la);
        free(lb);
    }

    if (!(r->changed && empty_after))
        byoc_policy_lint_run(p, &lint);
    const byoc_policy_finding *block = NULL;
    for (size_t i = 0; i < lint.n; i++) {
        const byoc_policy_finding *f = &lint.items[i];
        if (f->severity == BYOC_POLICY_BLOCK && !block)
            block = f;
        if (f->severity == BYOC_POLICY_WARN || o->force || !r->changed)
            warn(r, t, "%s%s%s%s", f->statement[0] ? "statement " : "", f->statement, f->statement[0] ? ": " : "",
                 f->message);
    }
    if (block && r->changed && !o->force) {
        byoc_err_set(err, BYOC_E_USAGE, "policy",
                     "refusing to set this policy: %s%s%s%s%s; nothing was sent (--force sends it anyway)",
                     block->statement[0] ? "statement " : "", block->statement, block->statement[0] ? ": " : "",
                     block->message,
                     lint.n_block > 1 ? " (and more blocking findings)" : "");
        goto out;
    }
    if (r->changed && !o->dry_run && send_policy(c, t, o->repository, p, r, err) < 0)
        goto out;
    rc = 0;
out:
    byoc_policy_lint_clear(&lint);
    free(old_pretty);
    free(new_pretty);
    free(old_text);
    byoc_policy_free(p);
    free_list(allow, o->n_allow);
    free_list(revoke, o->n_revoke);
    return rc;
}

/* ---- check ---- */

void byoc_pull_check_clear(byoc_pull_check *c)
{
    if (!c)
        return;
    free(c->role_arn);
    free(c->repository);
    free(c->repository_arn);
    free(c->method);
    free(c->reason);
    json_decref(c->checks);
    memset(c, 0, sizeof *c);
}

json_t *byoc_pull_check_json(const byoc_pull_check *c)
{
    return json_pack("{s:s, s:s, s:b, s:s, s:s, s:O}", "role_arn", c->role_arn, "repository", c->repository,
                     "can_pull", (int)c->can_pull, "method", c->method ? c->method : "", "reason",
                     c->reason ? c->reason : "", "checks", c->checks);
}

static void add_check(byoc_pull_check *c, const char *method, const char *result, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_check(byoc_pull_check *c, const char *method, const char *result, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    json_array_append_new(c->checks, json_pack("{s:s, s:s, s:s}", "method", method, "result", result, "detail",
                                               byoc_buf_str(&b)));
    byoc_buf_clear(&b);
}

static void answer(byoc_pull_check *c, bool yes, const char *method, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void answer(byoc_pull_check *c, bool yes, const char *method, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    byoc_buf b = BYOC_BUF_INIT;
    byoc_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    c->can_pull = yes;
    c->method = byoc_xstrdup(method);
    c->reason = byoc_buf_steal(&b);
}

/* The role's name: the last path segment of role/[path/]name. */
static char *role_name(const char *arn)
{
    const char *slash = strrchr(arn, '/');
    return byoc_xstrdup(slash ? slash + 1 : arn);
}

/* 1 attached, 0 not attached, -1 unknown (detail says why). */
static int managed_policy_attached(byoc_aws_client *cl, byoc_task *t, const char *role_arn, char *detail, size_t n)
{
    char *name = role_name(role_arn);
    byoc_strv arns = BYOC_STRV_INIT;
    byoc_err e;
    byoc_err_clear(&e);
    int rc = byoc_iam_list_attached_role_policies(cl, t, name, &arns, &e);
    free(name);
    if (rc < 0) {
        char line[900];
        snprintf(detail, n, "%s", byoc_err_format(&e, line, sizeof line));
        return -1;
    }
    int found = 0;
    for (size_t i = 0; i < arns.n; i++) {
        /* The AWS managed policy itself (account "aws"), not a look-alike of the same name. */
        const char *s = strrchr(arns.v[i], '/');
        if (s && strcmp(s + 1, "AmazonBraketJobsExecutionPolicy") == 0 && strncmp(arns.v[i], "arn:", 4) == 0 &&
            strstr(arns.v[i], ":iam::aws:policy/"))
            found = 1;
    }
    byoc_strv_clear(&arns);
    return found;
}

/* The repository's policy, parsed: 0 with *policy NULL when it has none; -1 when it could not be
 * read or is not valid (e says why; *text and *policy NULL). */
static int read_policy(byoc_aws_client *cl, byoc_task *t, const char *repository, char **text, byoc_policy **policy,
                       byoc_err *e)
{
    *policy = NULL;
    byoc_err_clear(e);
    if (byoc_ecr_get_repository_policy(cl, t, repository, text, e) < 0)
        return -1;
    if (*text && byoc_policy_parse(*text, partition_of(cl), policy, e) < 0) {
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

void byoc_repo_pull_clear(byoc_repo_pull *p)
{
    if (!p)
        return;
    free(p->principals);
    free(p->why);
    memset(p, 0, sizeof *p);
}

void byoc_permit_repository_pull(byoc_aws_client *cl, byoc_task *t, const char *repository, const char *role,
                                 byoc_repo_pull *out)
{
    memset(out, 0, sizeof *out);
    char *normal = NULL, *text = NULL;
    byoc_principal_kind kind;
    byoc_err e;
    byoc_err_clear(&e);
    if (role && (byoc_policy_principal_normalize(role, partition_of(cl), "role", &normal, &kind, &e) < 0 ||
                 kind != BYOC_PRINCIPAL_ROLE)) {
        free(normal); /* not a role ARN: judged as when none is known */
        normal = NULL;
    }
    byoc_policy *policy = NULL;
    byoc_task_status(t, "Reading the policy of %s", repository);
    if (read_policy(cl, t, repository, &text, &policy, &e) < 0) {
        /* a repository that does not exist yet has no policy: the push creates it without one */
        bool absent = strcmp(e.code, "RepositoryNotFoundException") == 0;
        char line[900];
        out->granted = absent ? 0 : -1;
        out->why = byoc_xstrdup(absent ? "the repository does not exist yet" : byoc_err_format(&e, line, sizeof line));
    } else if (!policy) {
        out->why = byoc_xstrdup("the repository has no policy");
    } else if (normal) {
        char which[80];
        out->granted = byoc_policy_grants_pull(policy, normal, true, which, sizeof which);
        if (out->granted)
            out->principals = byoc_xstrdup(normal);
        else
            out->why = byoc_xasprintf("its policy does not grant %s pull", normal);
    } else {
        byoc_strv who = BYOC_STRV_INIT;
        byoc_policy_pull_principals(policy, &who);
        out->granted = who.n > 0;
        byoc_buf b = BYOC_BUF_INIT;
        for (size_t i = 0; i < who.n; i++)
            byoc_buf_printf(&b, "%s%s", i ? ", " : "", who.v[i]);
        if (who.n)
            out->principals = byoc_buf_steal(&b);
        else
            out->why = byoc_xstrdup("its policy grants no one pull");
        byoc_buf_clear(&b);
        byoc_strv_clear(&who);
    }
    byoc_policy_free(policy);
    free(text);
    free(normal);
}

int byoc_permit_check_pull(byoc_aws_client *cl, byoc_task *t, const char *repository, const char *role_arn,
                           byoc_pull_check *c, byoc_err *err)
{
    memset(c, 0, sizeof *c);
    if (byoc_ecr_check_repository_name(repository, "REPOSITORY", err) < 0)
        return -1;
    const char *partition = partition_of(cl);
    char *role = NULL;
    byoc_principal_kind kind;
    if (byoc_policy_principal_normalize(role_arn, partition, "--check", &role, &kind, err) < 0)
        return -1;
    if (kind != BYOC_PRINCIPAL_ROLE) {
        free(role);
        return byoc_err_set(err, BYOC_E_USAGE, "--check", "'%s' is not an IAM role ARN (arn:%s:iam::ACCOUNT:role/NAME)",
                            role_arn, partition);
    }
    c->role_arn = role;
    c->repository = byoc_xstrdup(repository);
    c->checks = json_array();

    byoc_task_status(t, "Reading the repository %s", repository);
    byoc_ecr_repository repo;
    if (byoc_ecr_describe_repository(cl, t, repository, &repo, err) < 0)
        return -1;
    c->repository_arn = byoc_xstrdup(repo.arn ? repo.arn : "");
    byoc_ecr_repository_clear(&repo);

    /* The repository policy. */
    char *policy_text = NULL;
    byoc_policy *policy = NULL;
    char grant[80] = "";
    byoc_err pe;
    if (read_policy(cl, t, repository, &policy_text, &policy, &pe) < 0) {
        char line[900];
        add_check(c, "repository-policy", "unavailable", "%s", byoc_err_format(&pe, line, sizeof line));
    } else if (!policy) {
        add_check(c, "repository-policy", "no-grant", "the repository has no policy");
    } else if (byoc_policy_grants_pull(policy, role, true, grant, sizeof grant)) {
        add_check(c, "repository-policy", "allowed", "statement %s grants the role (or its account) the pull actions",
                  grant);
    } else {
        add_check(c, "repository-policy", "no-grant", "no statement grants the role the three pull actions");
    }

    /* IAM's own answer, when the caller may ask. */
    byoc_task_status(t, "Asking IAM (SimulatePrincipalPolicy)");
    const char *resources[] = {c->repository_arn};
    byoc_iam_eval *evals = NULL;
    size_t n_evals = 0;
    byoc_err se;
    byoc_err_clear(&se);
    bool simulated = byoc_iam_simulate_principal_policy(cl, t, role, byoc_policy_pull_actions, 3, resources, 1,
                                                        policy ? policy_text : NULL, &evals, &n_evals, &se) == 0 &&
                     n_evals > 0;
    if (simulated) {
        size_t allowed = 0;
        byoc_buf denied = BYOC_BUF_INIT;
        for (size_t i = 0; i < n_evals; i++) {
            if (evals[i].decision && strcmp(evals[i].decision, "allowed") == 0)
                allowed++;
            else
                byoc_buf_printf(&denied, "%s%s (%s)", denied.len ? ", " : "", evals[i].action ? evals[i].action : "?",
                                evals[i].decision ? evals[i].decision : "?");
        }
        bool yes = allowed == n_evals;
        add_check(c, "iam-simulation", yes ? "allowed" : "denied", "%s", yes ? "every pull action is allowed"
                                                                            : byoc_buf_str(&denied));
        if (yes)
            answer(c, true, "iam-simulation", "IAM SimulatePrincipalPolicy allows %s every pull action on %s", role,
                   repository);
        else
            answer(c, false, "iam-simulation", "IAM SimulatePrincipalPolicy denies %s: %s", role, byoc_buf_str(&denied));
        byoc_buf_clear(&denied);
    } else {
        char line[900];
        add_check(c, "iam-simulation", "unavailable", "%s",
                  se.kind != BYOC_OK ? byoc_err_format(&se, line, sizeof line) : "IAM returned no evaluation");
    }
    byoc_iam_evals_free(evals, n_evals);

    /* The managed policy's name rule. */
    bool prefix = strncmp(repository, "amazon-braket", 13) == 0;
    char detail[900] = "";
    int attached = managed_policy_attached(cl, t, role, detail, sizeof detail);
    if (!prefix)
        add_check(c, "name-rule", "not-covered",
                  "AmazonBraketJobsExecutionPolicy allows pulling only from repository/amazon-braket*");
    else if (attached == 1)
        add_check(c, "name-rule", "allowed", "the role has AmazonBraketJobsExecutionPolicy, which covers amazon-braket*");
    else if (attached == 0)
        add_check(c, "name-rule", "not-attached",
                  "the name fits amazon-braket*, but the role does not have AmazonBraketJobsExecutionPolicy");
    else
        add_check(c, "name-rule", "allowed",
                  "the name fits amazon-braket*, covered if the role has AmazonBraketJobsExecutionPolicy (its "
                  "policies could not be listed: %s)",
                  detail);

    if (!c->method) {
        if (grant[0])
            answer(c, true, "repository-policy", "the repository policy grants %s pull (statement %s)", role, grant);
        else if (prefix && attached != 0)
            answer(c, true, "name-rule",
                   "'%s' starts with amazon-braket, which AmazonBraketJobsExecutionPolicy lets the role pull%s",
                   repository, attached == 1 ? "" : " (if the role has that policy)");
        else if (prefix)
            answer(c, false, "name-rule",
                   "the role lacks AmazonBraketJobsExecutionPolicy and the repository policy does not grant it pull; "
                   "grant it with byoc permit %s --allow %s",
                   repository, role);
        else
            answer(c, false, "name-rule",
                   "'%s' does not start with amazon-braket, so the managed job policy does not cover it, and the "
                   "repository policy does not grant the role pull; grant it with byoc permit %s --allow %s, or push "
                   "to amazon-braket-%s (IAM could not be asked about other policies of the role)",
                   repository, repository, role, repository);
    }
    byoc_policy_free(policy);
    free(policy_text);
    return 0;
}

/* ---- as tasks ---- */

struct byoc_permit_job {
    byoc_aws_client *client;
    byoc_permit_opts opts;
    char *check_role;
    byoc_strpool pool; /* everything the copy owns */
};

byoc_permit_job *byoc_permit_job_new(byoc_aws_client *c, const byoc_permit_opts *o, const char *check_role)
{
    byoc_permit_job *j = byoc_xcalloc(1, sizeof *j);
    j->client = c;
    j->opts = *o;
    j->opts.repository = byoc_strpool_dup(&j->pool, o->repository);
    j->opts.allow = byoc_strpool_dup_list(&j->pool, o->allow, o->n_allow);
    j->opts.revoke = byoc_strpool_dup_list(&j->pool, o->revoke, o->n_revoke);
    j->check_role = byoc_xstrdup_opt(check_role);
    return j;
}

void byoc_permit_job_free(void *job)
{
    byoc_permit_job *j = job;
    if (!j)
        return;
    byoc_strpool_clear(&j->pool);
    free(j->check_role);
    free(j);
}

BYOC_TASK_FREE(permit_result_free, byoc_permit_result, byoc_permit_result_clear)

BYOC_TASK_FREE(pull_check_free, byoc_pull_check, byoc_pull_check_clear)

int byoc_permit_edit_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_permit_job *j = arg;
    byoc_permit_result *r = byoc_xcalloc(1, sizeof *r);
    *result = r;
    *result_free = permit_result_free;
    return byoc_permit_run(j->client, t, &j->opts, r, err);
}

int byoc_permit_check_task(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err)
{
    byoc_permit_job *j = arg;
    byoc_pull_check *r = byoc_xcalloc(1, sizeof *r);
    *result = r;
    *result_free = pull_check_free;
    if (!j->check_role)
        return byoc_err_set(err, BYOC_E_USAGE, "--check", "which role? give its ARN");
    return byoc_permit_check_pull(j->client, t, j->opts.repository, j->check_role, r, err);
}
