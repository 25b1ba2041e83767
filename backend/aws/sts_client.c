/* The STS call on a client (a session of its own). They live apart
 * from sts.c, whose calls on a bare context serve the credential chain that
 * clients are made of: sts.c -> request, client.c -> credentials.c -> sts.c,
 * and only this file -> client.c. */
#include "aws/sts_client.h"

#include <string.h>

int byoc_sts_get_caller_identity(byoc_aws_client *c, byoc_task *t, byoc_sts_identity *out, byoc_err *err)
{
    byoc_aws_session s;
    memset(out, 0, sizeof *out);
    if (byoc_aws_session_open(c, t, BYOC_AWS_STS, &s, err) != 0)
        return -1;
    int rc = byoc_sts_get_caller_identity_ctx(&s.ctx, out, err);
    byoc_aws_session_close(&s);
    return rc;
}
