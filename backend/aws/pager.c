#include "aws/pager.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"

void byoc_aws_pager_init(byoc_aws_pager *p, const char *operation)
{
    p->operation = operation;
    p->token = NULL;
    p->pages = 0;
}

int byoc_aws_pager_next(byoc_aws_pager *p, const char *next, byoc_err *err)
{
    p->pages++;
    if (!next || !*next) {
        free(p->token);
        p->token = NULL;
        return 0;
    }
    if (p->token && strcmp(p->token, next) == 0) {
        char *shown = byoc_printable_dup(next);
        if (strlen(shown) > 64)
            strcpy(shown + 61, "...");
        byoc_err_set(err, BYOC_E_FAILED, p->operation,
                     "the service sent the same next token twice (%s) after %zu pages: the listing does not end, "
                     "so byoc stopped",
                     shown, p->pages);
        free(shown);
        return -1;
    }
    if (p->pages >= BYOC_AWS_PAGES_MAX)
        return byoc_err_set(err, BYOC_E_FAILED, p->operation,
                            "the service still had more after %d pages: byoc stops there (narrow the listing)",
                            BYOC_AWS_PAGES_MAX);
    free(p->token);
    p->token = byoc_xstrdup(next);
    return 1;
}

void byoc_aws_pager_free(byoc_aws_pager *p)
{
    free(p->token);
    p->token = NULL;
}
