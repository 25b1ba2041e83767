/* fuzz_policy: ECR repository policies (byoc/policy.h) as ECR returns them,
 * edited the way `byoc permit` edits them, and principals as typed after
 * --allow/--revoke.
 * Input: one byte picks the principal and partition, then the policy text.
 * A granted principal is granted; every edited document serialises to JSON
 * that parses again as a policy; revoking byoc's grant leaves no ByocPull
 * statement naming the principal. */
#include <jansson.h>

#include "byoc/policy.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_quiet();
    return 0;
}

static void reparse(const byoc_policy *p, const char *partition)
{
    char *text = byoc_policy_text(p);
    FUZZ_ASSERT(text != NULL);
    byoc_policy *again = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    int rc = byoc_policy_parse(text, partition, &again, &err);
    if (rc != 0)
        fprintf(stderr, "edited policy does not parse: %s\n%s\n", err.message, text);
    FUZZ_ASSERT(rc == 0);
    FUZZ_ASSERT(byoc_policy_statement_count(again) == byoc_policy_statement_count(p));
    byoc_policy_free(again);
    free(text);
    char *pretty = byoc_policy_pretty(p);
    FUZZ_ASSERT(pretty != NULL);
    free(pretty);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const principals[] = {
        "arn:aws:iam::123456789012:role/AmazonBraketJobsExecutionRole", "123456789012",
        "arn:aws:iam::123456789012:user/alice", "arn:aws:iam::210987654321:root", "*",
        "arn:aws-cn:iam::123456789012:role/x"};
    static const char *const partitions[] = {"aws", "aws-cn", "aws-us-gov", NULL};
    fuzz_in in = {data, size};
    unsigned pick = fuzz_byte(&in);
    const char *partition = partitions[(pick >> 4) % 4];
    char *text = fuzz_cstr(in.p, in.n);

    /* the input as a principal too */
    byoc_err err;
    char *norm = NULL;
    byoc_principal_kind kind;
    byoc_err_clear(&err);
    if (byoc_policy_principal_normalize(text, partition, "--allow", &norm, &kind, &err) == 0) {
        FUZZ_ASSERT(norm && *norm);
        free(norm);
    } else {
        FUZZ_ASSERT(err.kind == BYOC_E_USAGE);
    }

    byoc_policy *p = NULL;
    byoc_err_clear(&err);
    if (byoc_policy_parse(text, partition, &p, &err) != 0) {
        FUZZ_ASSERT(err.kind != BYOC_OK && p == NULL);
        free(text);
        return 0;
    }
    byoc_policy_lint lint = {0};
    byoc_policy_lint_run(p, &lint);
    FUZZ_ASSERT(lint.n_block <= lint.n);
    byoc_policy_lint_clear(&lint);

    norm = NULL;
    byoc_err_clear(&err);
    if (byoc_policy_principal_normalize(principals[pick % 6], partition, "--allow", &norm, &kind, &err) == 0) {
        char note[512], which[128];
        int changed = byoc_policy_allow_pull(p, norm, note, sizeof note);
        FUZZ_ASSERT(changed == 0 || changed == 1);
        FUZZ_ASSERT(byoc_policy_grants_pull(p, norm, false, which, sizeof which));
        reparse(p, partition);
        changed = byoc_policy_revoke_pull(p, norm, note, sizeof note);
        FUZZ_ASSERT(changed == 0 || changed == 1);
        reparse(p, partition);
        free(norm);
    }
    byoc_policy_free(p);
    free(text);
    return 0;
}
