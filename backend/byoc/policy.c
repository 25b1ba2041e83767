#include "byoc/policy.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/jsonout.h"
#include "core/utf8.h"

const char *const byoc_policy_pull_actions[] = {"ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage",
                                                "ecr:GetDownloadUrlForLayer", NULL};

struct byoc_policy {
    json_t *doc;
    char partition[16];
};

/* ---- principals ---- */

static bool all_digits(const char *s, size_t n)
{
    if (strlen(s) < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool is_account_id(const char *s)
{
    return strlen(s) == 12 && all_digits(s, 12);
}

static bool iam_name_char(char ch)
{
    return isalnum((unsigned char)ch) || strchr("_+=,.@-", ch) != NULL;
}

/* "role/[path/]name" after the prefix: non-empty segments of name characters, name <= 64. */
static bool iam_path_name_ok(const char *s)
{
    if (!*s)
        return false;
    const char *last = strrchr(s, '/');
    const char *name = last ? last + 1 : s;
    if (!*name || strlen(name) > 64)
        return false;
    size_t seg = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '/') {
            if (seg == 0)
                return false;
            seg = 0;
        } else if (!iam_name_char(*p)) {
            return false;
        } else {
            seg++;
        }
    }
    return seg > 0;
}

/* Split "arn:<partition>:iam::<account>:<resource>". */
static bool iam_arn(const char *s, char *partition, size_t psize, char *account, const char **resource)
{
    if (strncmp(s, "arn:", 4) != 0)
        return false;
    const char *p = s + 4, *colon = strchr(p, ':');
    if (!colon || colon == p || (size_t)(colon - p) >= psize || strncmp(p, "aws", 3) != 0)
        return false;
    memcpy(partition, p, (size_t)(colon - p));
    partition[colon - p] = 0;
    p = colon + 1;
    if (strncmp(p, "iam::", 5) != 0)
        return false;
    p += 5;
    if (!all_digits(p, 12) || p[12] != ':')
        return false;
    memcpy(account, p, 12);
    account[12] = 0;
    *resource = p + 13;
    return true;
}

int byoc_policy_principal_normalize(const char *in, const char *partition, const char *what, char **out,
                                    byoc_principal_kind *kind, byoc_err *err)
{
    *out = NULL;
    if (!partition)
        partition = "aws";
    byoc_principal_kind k;
    if (!in || !*in)
        return byoc_err_set(err, BYOC_E_USAGE, what, "an empty principal");
    if (strcmp(in, "*") == 0) {
        *out = byoc_xstrdup("*");
        k = BYOC_PRINCIPAL_WILDCARD;
    } else if (is_account_id(in)) {
        *out = byoc_xasprintf("arn:%s:iam::%s:root", partition, in);
        k = BYOC_PRINCIPAL_ACCOUNT;
    } else {
        char part[16], account[13];
        const char *res;
        if (!iam_arn(in, part, sizeof part, account, &res))
            return byoc_err_set(err, BYOC_E_USAGE, what,
                                "'%s' is not an IAM role ARN, user ARN or 12-digit account id "
                                "(arn:%s:iam::123456789012:role/NAME)",
                                in, partition);
        if (strcmp(part, partition) != 0)
            return byoc_err_set(err, BYOC_E_USAGE, what, "'%s' is in partition %s, the repository in %s", in, part,
                                partition);
        if (strcmp(res, "root") == 0)
            k = BYOC_PRINCIPAL_ACCOUNT;
        else if (strncmp(res, "role/", 5) == 0 && iam_path_name_ok(res + 5))
            k = BYOC_PRINCIPAL_ROLE;
        else if (strncmp(res, "user/", 5) == 0 && iam_path_name_ok(res + 5))
            k = BYOC_PRINCIPAL_USER;
        else
            return byoc_err_set(err, BYOC_E_USAGE, what,
                                "'%s': expected role/NAME, user/NAME or root after the account id", in);
        *out = byoc_xstrdup(in);
    }
    if (kind)
        *kind = k;
    return 0;
}

/* A principal value as written in a policy, for comparison: bare ids become root ARNs. */
static char *canonical_principal(const char *v, const char *partition)
{
    if (is_account_id(v))
        return byoc_xasprintf("arn:%s:iam::%s:root", partition, v);
    return byoc_xstrdup(v);
}

/* Is v a principal value IAM would accept in Principal.AWS? */
static bool principal_value_ok(const char *v)
{
    if (strcmp(v, "*") == 0 || is_account_id(v))
        return true;
    char part[16], account[13];
    const char *res;
    if (iam_arn(v, part, sizeof part, account, &res))
        return strcmp(res, "root") == 0 ||
               ((strncmp(res, "role/", 5) == 0 || strncmp(res, "user/", 5) == 0) && iam_path_name_ok(res + 5));
    /* arn:aws:sts::<id>:assumed-role/ROLE/SESSION is valid too. */
    return strncmp(v, "arn:aws", 7) == 0 && strstr(v, ":sts::") && strstr(v, ":assumed-role/");
}

/* ---- the document ---- */

static const char *json_str(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static int invalid(byoc_err *err, const char *why)
{
    return byoc_err_set(err, BYOC_E_FAILED, "policy", "the repository policy is not valid: %s; nothing was changed",
                        why);
}

int byoc_policy_parse(const char *text, const char *partition, byoc_policy **out, byoc_err *err)
{
    *out = NULL;
    json_t *doc;
    if (!text || !*text) {
        doc = json_pack("{s:s, s:[]}", "Version", "2012-10-17", "Statement");
    } else {
        json_error_t je;
        doc = json_loads(text, JSON_REJECT_DUPLICATES, &je);
        if (!doc) {
            char why[300];
            snprintf(why, sizeof why, "line %d column %d: %s", je.line, je.column, je.text);
            return invalid(err, why);
        }
        if (!json_is_object(doc)) {
            json_decref(doc);
            return invalid(err, "it is not a JSON object");
        }
        const json_t *st = json_object_get(doc, "Statement");
        bool ok = st == NULL || json_is_object(st) || json_is_array(st);
        size_t i;
        const json_t *s;
        if (json_is_array(st))
            json_array_foreach(st, i, s) ok = ok && json_is_object(s);
        if (!ok) {
            json_decref(doc);
            return invalid(err, "Statement must be an object or an array of objects");
        }
    }
    byoc_policy *p = byoc_xcalloc(1, sizeof *p);
    p->doc = doc;
    snprintf(p->partition, sizeof p->partition, "%s", partition ? partition : "aws");
    *out = p;
    return 0;
}

void byoc_policy_free(byoc_policy *p)
{
    if (!p)
        return;
    json_decref(p->doc);
    free(p);
}

const json_t *byoc_policy_doc(const byoc_policy *p)
{
    return p->doc;
}

/* Statement i of n (an object Statement counts as one). */
static size_t stmt_count(const json_t *doc)
{
    const json_t *st = json_object_get(doc, "Statement");
    return json_is_array(st) ? json_array_size(st) : json_is_object(st) ? 1 : 0;
}

static json_t *stmt_at(const json_t *doc, size_t i)
{
    json_t *st = json_object_get(doc, "Statement");
    return json_is_array(st) ? json_array_get(st, i) : st;
}

size_t byoc_policy_statement_count(const byoc_policy *p)
{
    return stmt_count(p->doc);
}

/* Make Statement an array (an object Statement becomes its only element). */
static json_t *stmt_array(json_t *doc)
{
    json_t *st = json_object_get(doc, "Statement");
    if (json_is_array(st))
        return st;
    json_t *arr = json_array();
    if (json_is_object(st))
        json_array_append(arr, st);
    json_object_set_new(doc, "Statement", arr);
    return arr;
}

static void stmt_label(const json_t *s, size_t i, char *out, size_t n)
{
    const char *sid = json_str(s, "Sid");
    if (sid && *sid)
        byoc_utf8_copy(out, n, sid);
    else
        snprintf(out, n, "#%zu", i + 1);
}

char *byoc_policy_text(const byoc_policy *p)
{
    return json_dumps(p->doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
}

char *byoc_policy_pretty(const byoc_policy *p)
{
    /* byoc's writer: the diff shows the document with its C1 controls escaped too (core/jsonout.h) */
    return byoc_json_dumps(p->doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
}

/* ---- statement shapes ---- */

/* The strings of a string-or-array value; n = 0 for anything else. */
/* A policy value that is a string or a list of strings, read in place: no bound on its length,
 * so a principal or a "*" at any position is seen. Non-strings read as NULL. */
static size_t str_count(const json_t *v)
{
    return json_is_string(v) ? 1 : json_is_array(v) ? json_array_size(v) : 0;
}

static const char *str_at(const json_t *v, size_t i)
{
    if (json_is_string(v))
        return json_string_value(v);
    const json_t *e = json_array_get(v, i);
    return json_is_string(e) ? json_string_value(e) : NULL;
}

static bool principal_is_star(const json_t *principal)
{
    if (json_is_string(principal))
        return strcmp(json_string_value(principal), "*") == 0;
    const json_t *vl = json_object_get(principal, "AWS");
    size_t n = str_count(vl);
    for (size_t i = 0; i < n; i++)
        if (str_at(vl, i) && strcmp(str_at(vl, i), "*") == 0)
            return true;
    return false;
}

static bool names_principal(const json_t *s, const char *principal, const char *partition, bool broad)
{
    const json_t *pr = json_object_get(s, "Principal");
    if (broad && principal_is_star(pr))
        return true;
    const json_t *vl = json_object_get(pr, "AWS");
    size_t n = str_count(vl);
    char *root = NULL;
    if (broad) {
        char part[16], account[13];
        const char *res;
        if (iam_arn(principal, part, sizeof part, account, &res))
            root = byoc_xasprintf("arn:%s:iam::%s:root", part, account);
    }
    bool hit = false;
    for (size_t i = 0; i < n && !hit; i++) {
        if (!str_at(vl, i))
            continue;
        char *c = canonical_principal(str_at(vl, i), partition);
        hit = strcmp(c, principal) == 0 || (root && strcmp(c, root) == 0);
        free(c);
    }
    free(root);
    return hit;
}

static bool action_covers(const json_t *s, const char *action)
{
    const json_t *vl = json_object_get(s, "Action");
    size_t n = str_count(vl);
    for (size_t i = 0; i < n; i++)
        if (str_at(vl, i) && fnmatch(str_at(vl, i), action, FNM_CASEFOLD) == 0)
            return true;
    return false;
}

static bool unconditional_allow(const json_t *s)
{
    const char *effect = json_str(s, "Effect");
    return effect && strcmp(effect, "Allow") == 0 && !json_object_get(s, "Condition") &&
           !json_object_get(s, "NotPrincipal") && !json_object_get(s, "NotAction");
}

/* An unconditional Allow of every pull action, to whichever principals it names. */
static bool allows_pull(const json_t *s)
{
    if (!unconditional_allow(s))
        return false;
    for (const char *const *a = byoc_policy_pull_actions; *a; a++)
        if (!action_covers(s, *a))
            return false;
    return true;
}

static bool grants_pull_stmt(const json_t *s, const char *principal, const char *partition, bool broad)
{
    return allows_pull(s) && names_principal(s, principal, partition, broad);
}

bool byoc_policy_grants_pull(const byoc_policy *p, const char *principal, bool account_root_counts, char *which,
                             size_t which_size)
{
    size_t n = stmt_count(p->doc);
    for (size_t i = 0; i < n; i++) {
        const json_t *s = stmt_at(p->doc, i);
        if (grants_pull_stmt(s, principal, p->partition, account_root_counts)) {
            if (which)
                stmt_label(s, i, which, which_size);
            return true;
        }
    }
    return false;
}

void byoc_policy_pull_principals(const byoc_policy *p, byoc_strv *out)
{
    size_t n = stmt_count(p->doc);
    for (size_t i = 0; i < n; i++) {
        const json_t *s = stmt_at(p->doc, i);
        if (!allows_pull(s))
            continue;
        const json_t *pr = json_object_get(s, "Principal");
        if (principal_is_star(pr) && !byoc_strv_contains(out, "*"))
            byoc_strv_push(out, "*");
        const json_t *vl = json_object_get(pr, "AWS");
        for (size_t k = 0; k < str_count(vl); k++) {
            if (!str_at(vl, k) || !strcmp(str_at(vl, k), "*"))
                continue;
            char *c = canonical_principal(str_at(vl, k), p->partition);
            if (!byoc_strv_contains(out, c))
                byoc_strv_push(out, c);
            free(c);
        }
    }
}

/* byoc's own statement: Sid ByocPull*, Allow, Principal {"AWS": ...} only, exactly the pull actions. */
static bool is_ours(const json_t *s)
{
    const char *sid = json_str(s, "Sid");
    if (!sid || strncmp(sid, BYOC_POLICY_SID, strlen(BYOC_POLICY_SID)) != 0 || !unconditional_allow(s) ||
        json_object_get(s, "Resource") || json_object_get(s, "NotResource"))
        return false;
    const json_t *pr = json_object_get(s, "Principal");
    if (!json_is_object(pr) || json_object_size(pr) != 1 || !json_object_get(pr, "AWS"))
        return false;
    const json_t *vl = json_object_get(s, "Action");
    size_t n = str_count(vl), want = 0;
    for (const char *const *a = byoc_policy_pull_actions; *a; a++)
        want++;
    if (n != want)
        return false;
    for (size_t i = 0; i < n; i++) {
        bool known = false;
        for (const char *const *a = byoc_policy_pull_actions; *a && !known; a++)
            known = str_at(vl, i) && strcasecmp(str_at(vl, i), *a) == 0;
        if (!known)
            return false;
    }
    return true;
}

static bool sid_taken(const json_t *doc, const char *sid)
{
    size_t n = stmt_count(doc);
    for (size_t i = 0; i < n; i++) {
        const char *s = json_str(stmt_at(doc, i), "Sid");
        if (s && strcmp(s, sid) == 0)
            return true;
    }
    return false;
}

static json_t *pull_actions_json(void)
{
    json_t *a = json_array();
    for (const char *const *x = byoc_policy_pull_actions; *x; x++)
        json_array_append_new(a, json_string(*x));
    return a;
}

int byoc_policy_allow_pull(byoc_policy *p, const char *principal, char *note, size_t note_size)
{
    char which[80];
    if (note && note_size)
        note[0] = 0;
    if (byoc_policy_grants_pull(p, principal, false, which, sizeof which)) {
        if (note)
            byoc_utf8_snprintf(note, note_size, "%s can already pull (statement %s)", principal, which);
        return 0;
    }
    json_t *arr = stmt_array(p->doc);
    size_t i;
    json_t *s;
    json_array_foreach(arr, i, s)
    {
        if (!is_ours(s))
            continue;
        json_t *pr = json_object_get(s, "Principal");
        json_t *aws = json_object_get(pr, "AWS");
        if (json_is_string(aws)) {
            json_t *list = json_pack("[O]", aws);
            json_object_set_new(pr, "AWS", list);
            aws = list;
        }
        json_array_append_new(aws, json_string(principal));
        return 1;
    }
    char sid[32];
    snprintf(sid, sizeof sid, "%s", BYOC_POLICY_SID);
    for (int k = 2; sid_taken(p->doc, sid); k++)
        snprintf(sid, sizeof sid, "%s%d", BYOC_POLICY_SID, k);
    json_array_append_new(arr, json_pack("{s:s, s:s, s:{s:[s]}, s:o}", "Sid", sid, "Effect", "Allow", "Principal",
                                         "AWS", principal, "Action", pull_actions_json()));
    return 1;
}

int byoc_policy_revoke_pull(byoc_policy *p, const char *principal, char *note, size_t note_size)
{
    if (note && note_size)
        note[0] = 0;
    int changed = 0;
    json_t *st = json_object_get(p->doc, "Statement");
    if (json_is_object(st) && is_ours(st))
        st = stmt_array(p->doc);
    if (json_is_array(st)) {
        for (size_t i = 0; i < json_array_size(st);) {
            json_t *s = json_array_get(st, i);
            if (!is_ours(s)) {
                i++;
                continue;
            }
            json_t *pr = json_object_get(s, "Principal");
            json_t *aws = json_object_get(pr, "AWS");
            if (json_is_string(aws)) {
                char *c = canonical_principal(json_string_value(aws), p->partition);
                bool hit = strcmp(c, principal) == 0;
                free(c);
                if (hit) {
                    json_array_remove(st, i);
                    changed = 1;
                    continue;
                }
            } else {
                for (size_t k = 0; k < json_array_size(aws);) {
                    const char *v = json_string_value(json_array_get(aws, k));
                    char *c = v ? canonical_principal(v, p->partition) : NULL;
                    bool hit = c && strcmp(c, principal) == 0;
                    free(c);
                    if (hit) {
                        json_array_remove(aws, k);
                        changed = 1;
                    } else {
                        k++;
                    }
                }
                if (json_array_size(aws) == 0) {
                    json_array_remove(st, i);
                    continue;
                }
            }
            i++;
        }
    }
    char which[80];
    if (note && byoc_policy_grants_pull(p, principal, false, which, sizeof which))
        byoc_utf8_snprintf(note, note_size,
                           "%s can still pull through statement %s, which byoc did not write and leaves as it is",
                           principal, which);
    else if (note && !changed)
        byoc_utf8_snprintf(note, note_size, "%s had no pull grant from byoc; nothing to revoke", principal);
    return changed;
}

/* ---- lint ---- */

static void add_finding(byoc_policy_lint *l, byoc_policy_severity sev, const char *stmt, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_finding(byoc_policy_lint *l, byoc_policy_severity sev, const char *stmt, const char *fmt, ...)
{
    l->items = byoc_xrealloc(l->items, (l->n + 1) * sizeof *l->items);
    byoc_policy_finding *f = &l->items[l->n++];
    memset(f, 0, sizeof *f);
    f->severity = sev;
    byoc_utf8_copy(f->statement, sizeof f->statement, stmt);
    va_list ap;
    va_start(ap, fmt);
    byoc_utf8_vsnprintf(f->message, sizeof f->message, fmt, ap);
    va_end(ap);
    if (sev == BYOC_POLICY_BLOCK)
        l->n_block++;
}

static void lint_statement(byoc_policy_lint *l, const json_t *s, const char *label, const json_t *doc, size_t index)
{
    const char *effect = json_str(s, "Effect");
    if (!effect || (strcmp(effect, "Allow") != 0 && strcmp(effect, "Deny") != 0)) {
        add_finding(l, BYOC_POLICY_BLOCK, label, "Effect must be \"Allow\" or \"Deny\"");
        return;
    }
    if (json_object_get(s, "Resource") || json_object_get(s, "NotResource"))
        add_finding(l, BYOC_POLICY_BLOCK, label,
                    "a repository policy takes no Resource (the repository is the resource); ECR refuses it");
    const json_t *pr = json_object_get(s, "Principal");
    if (!pr && !json_object_get(s, "NotPrincipal"))
        add_finding(l, BYOC_POLICY_BLOCK, label, "no Principal: ECR refuses a statement without one");
    const json_t *vl = json_object_get(pr, "AWS");
    size_t n = str_count(vl);
    for (size_t i = 0; i < n; i++)
        if (str_at(vl, i) && !principal_value_ok(str_at(vl, i)))
            add_finding(l, BYOC_POLICY_WARN, label, "principal '%s' is not an IAM ARN or a 12-digit account id",
                        str_at(vl, i));
    if (strcmp(effect, "Allow") != 0)
        return;
    if (principal_is_star(pr)) {
        if (json_object_get(s, "Condition"))
            add_finding(l, BYOC_POLICY_WARN, label,
                        "Principal \"*\" with a Condition: anyone who meets the condition gets these actions");
        else
            add_finding(l, BYOC_POLICY_BLOCK, label,
                        "Principal \"*\": anyone, in any AWS account, gets these actions (name the roles, users or "
                        "accounts instead, or use --force)");
    }
    if (json_object_get(s, "NotPrincipal"))
        add_finding(l, BYOC_POLICY_WARN, label, "NotPrincipal in an Allow grants every principal but those named");
    if (json_object_get(s, "NotAction"))
        add_finding(l, BYOC_POLICY_BLOCK, label, "NotAction in an Allow grants every other action");
    vl = json_object_get(s, "Action");
    n = str_count(vl);
    for (size_t i = 0; i < n; i++)
        if (str_at(vl, i) && strpbrk(str_at(vl, i), "*?"))
            add_finding(l, BYOC_POLICY_BLOCK, label,
                        "wildcard action '%s' grants more than pulling (name the actions, or use --force)",
                        str_at(vl, i));
    (void)doc;
    (void)index;
}

void byoc_policy_lint_run(const byoc_policy *p, byoc_policy_lint *out)
{
    memset(out, 0, sizeof *out);
    const char *version = json_str(p->doc, "Version");
    if (!version)
        add_finding(out, BYOC_POLICY_WARN, NULL, "no Version: IAM then reads the policy with the 2008 language");
    else if (strcmp(version, "2012-10-17") != 0)
        add_finding(out, BYOC_POLICY_WARN, NULL, "Version \"%s\" (the current language is \"2012-10-17\")", version);
    size_t n = stmt_count(p->doc);
    for (size_t i = 0; i < n; i++) {
        const json_t *s = stmt_at(p->doc, i);
        char label[80];
        stmt_label(s, i, label, sizeof label);
        const char *sid = json_str(s, "Sid");
        for (size_t k = 0; sid && k < i; k++) {
            const char *other = json_str(stmt_at(p->doc, k), "Sid");
            if (other && strcmp(other, sid) == 0) {
                add_finding(out, BYOC_POLICY_WARN, label, "Sid \"%s\" is used twice; Sids must be unique", sid);
                break;
            }
        }
        lint_statement(out, s, label, p->doc, i);
    }
    char *text = byoc_policy_text(p);
    size_t len = strlen(text);
    free(text);
    if (len > BYOC_POLICY_MAX_CHARS)
        add_finding(out, BYOC_POLICY_BLOCK, NULL, "the policy has %zu characters; ECR allows %d", len,
                    BYOC_POLICY_MAX_CHARS);
}

void byoc_policy_lint_clear(byoc_policy_lint *l)
{
    if (!l)
        return;
    free(l->items);
    memset(l, 0, sizeof *l);
}
