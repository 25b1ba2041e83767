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
    p->max_pages = BYOC_AWS_PAGES_MAX;
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
    size_t max = p->max_pages ? p->max_pages : BYOC_AWS_PAGES_MAX;
    if (p->pages >= max)
        return byoc_err_set(err, BYOC_E_FAILED, p->operation,
                            "the service still had more after %zu pages: byoc stops there (narrow the listing)", max);
    free(p->token);
    p->token = byoc_xstrdup(next);
    return 1;
}

int byoc_aws_pager_next_xml(byoc_aws_pager *p, const byoc_aws_xml *result, const char *token_element,
                            byoc_err *err)
{
    char *truncated = result ? byoc_aws_xml_text(result, "IsTruncated") : NULL;
    char *next = truncated && strcmp(truncated, "true") == 0 ? byoc_aws_xml_text(result, token_element) : NULL;
    int more = byoc_aws_pager_next(p, next, err);
    free(next);
    free(truncated);
    return more;
}

void byoc_aws_pager_clear(byoc_aws_pager *p)
{
    free(p->token);
    p->token = NULL;
}
