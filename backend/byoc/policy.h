/* policy: an ECR repository policy as a model byoc can edit without
 * disturbing what the user wrote.
 *
 * The document is kept as parsed (jansson, key order preserved). byoc adds
 * and revokes pull grants — exactly ecr:BatchCheckLayerAvailability,
 * ecr:BatchGetImage and ecr:GetDownloadUrlForLayer — in one statement of its
 * own (Sid "ByocPull", Effect Allow, Principal {"AWS": [ARNs]}); every other
 * statement stays as it was, in its place. Adding a principal that some
 * unconditional Allow statement already grants pull to changes nothing;
 * revoking touches only byoc's statement (a foreign grant that remains is
 * reported). A statement left without principals is removed.
 *
 * Principals: an IAM role ARN, a user ARN, an account root ARN, or a 12-digit
 * account id (-> arn:<partition>:iam::<id>:root). "*" is its own case: the
 * caller refuses it unless forced.
 *
 * Lint: findings on a whole policy. BLOCK findings (a wildcard principal
 * without a Condition, wildcard actions in an Allow, a Resource element,
 * more than 10240 characters) make byoc refuse to send the policy unless the
 * user forces it; WARN findings are reported. */
#ifndef BYOC_BYOC_POLICY_H
#define BYOC_BYOC_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/err.h"
#include "core/strv.h"

#define BYOC_POLICY_SID "ByocPull"
#define BYOC_POLICY_MAX_CHARS 10240

/* The pull actions, sorted; NULL-terminated. */
extern const char *const byoc_policy_pull_actions[];

typedef enum {
    BYOC_PRINCIPAL_ACCOUNT,   /* arn:...:iam::<id>:root (or the bare id) */
    BYOC_PRINCIPAL_ROLE,
    BYOC_PRINCIPAL_USER,
    BYOC_PRINCIPAL_WILDCARD,  /* "*" */
} byoc_principal_kind;

/* Normalise a principal for a policy in `partition` ("aws", "aws-cn",
 * "aws-us-gov"; NULL: "aws"). *out is malloc'd ("*" stays "*"). A malformed
 * one is BYOC_E_USAGE with what = `what` ("--allow"). */
int byoc_policy_principal_normalize(const char *in, const char *partition, const char *what, char **out,
                                    byoc_principal_kind *kind, byoc_err *err);

typedef struct byoc_policy byoc_policy;

/* text NULL or empty: no policy yet (an empty document). Malformed JSON, a
 * non-object, a Statement that is not an object or array of objects, or
 * duplicate keys: BYOC_E_FAILED "the repository policy is not valid ...". */
int byoc_policy_parse(const char *text, const char *partition, byoc_policy **out, byoc_err *err);
void byoc_policy_free(byoc_policy *p);

/* The document (borrowed). */
const json_t *byoc_policy_doc(const byoc_policy *p);
size_t byoc_policy_statement_count(const byoc_policy *p);
/* Compact text to send, or pretty text (2-space indent) for people and diffs; malloc'd. */
char *byoc_policy_text(const byoc_policy *p);
char *byoc_policy_pretty(const byoc_policy *p);

/* Grant pull to a normalised principal. 1 changed, 0 already granted (note
 * says by which statement). note may be NULL. */
int byoc_policy_allow_pull(byoc_policy *p, const char *principal, char *note, size_t note_size);
/* Revoke byoc's grant. 1 changed, 0 nothing to revoke. note (may be NULL)
 * says when another statement still grants it. */
int byoc_policy_revoke_pull(byoc_policy *p, const char *principal, char *note, size_t note_size);

/* Which unconditional Allow statement grants the principal (exactly, or
 * through its account root when account_root_counts) every pull action: its
 * Sid or "#<n>" in which; false if none. */
bool byoc_policy_grants_pull(const byoc_policy *p, const char *principal, bool account_root_counts, char *which,
                             size_t which_size);

/* Every principal some unconditional Allow statement grants every pull action: canonical
 * ARNs (a bare account id as its root ARN), and "*" for a wildcard; each once, in the
 * policy's order, appended to out. */
void byoc_policy_pull_principals(const byoc_policy *p, byoc_strv *out);

typedef enum { BYOC_POLICY_WARN, BYOC_POLICY_BLOCK } byoc_policy_severity;

typedef struct byoc_policy_finding {
    byoc_policy_severity severity;
    char statement[80];      /* Sid, or "#<n>" (1-based) */
    char message[320];
} byoc_policy_finding;

typedef struct byoc_policy_lint {
    byoc_policy_finding *items;
    size_t n;
    size_t n_block;
} byoc_policy_lint;

void byoc_policy_lint_run(const byoc_policy *p, byoc_policy_lint *out);
void byoc_policy_lint_clear(byoc_policy_lint *l);

#endif
