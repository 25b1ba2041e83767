/* pager: following a paginated operation's next token, with the two guards
 * botocore's paginators have and one more.
 *
 * A hostile or broken service can answer the same token forever (botocore:
 * PaginationError "The same next token was received twice", botocore/paginate.py)
 * or a new token forever; the first stops at once, the second at a bound on
 * the pages of one listing (BYOC_AWS_PAGES_MAX: 100,000 jobs at SearchJobs'
 * 100 a page). */
#ifndef BYOC_AWS_PAGER_H
#define BYOC_AWS_PAGER_H

#include <stddef.h>

#include "core/err.h"

#define BYOC_AWS_PAGES_MAX 1000

typedef struct byoc_aws_pager {
    const char *operation;       /* for messages: "SearchJobs" */
    char *token;                 /* the token to send next, NULL at the start and the end */
    size_t pages;                /* pages read so far */
} byoc_aws_pager;

void byoc_aws_pager_init(byoc_aws_pager *p, const char *operation);
/* After each page, with the page's next token (NULL or "" at the end).
 * 1: there is a next page (send p->token), 0: the listing is complete,
 * -1: err set (BYOC_E_FAILED): the same token twice in a row, or
 * BYOC_AWS_PAGES_MAX pages without an end. */
int byoc_aws_pager_next(byoc_aws_pager *p, const char *next_token, byoc_err *err);
void byoc_aws_pager_free(byoc_aws_pager *p);

#endif
