/* pager: following a paginated operation's next token, with the two guards
 * botocore's paginators have and one more. Every listing byoc pages through
 * (SearchJobs, SearchDevices, ECR, IAM, S3, CloudWatch Logs) goes through it.
 *
 * A hostile or broken service can answer the same token forever (botocore:
 * PaginationError "The same next token was received twice", botocore/paginate.py)
 * or a new token forever; the first stops at once, the second at a bound on
 * the pages of one listing (BYOC_AWS_PAGES_MAX: 100,000 jobs at SearchJobs'
 * 100 a page; a caller may set a smaller max_pages). Both are errors that name
 * the operation: a listing cut short is never passed off as complete. */
#ifndef BYOC_AWS_PAGER_H
#define BYOC_AWS_PAGER_H

#include <stddef.h>

#include "aws/xml.h"
#include "core/err.h"

#define BYOC_AWS_PAGES_MAX 1000

typedef struct byoc_aws_pager {
    const char *operation;       /* for messages: "SearchJobs" */
    char *token;                 /* the token to send next, NULL at the start and the end */
    size_t pages;                /* pages read so far */
    size_t max_pages;            /* the bound; byoc_aws_pager_init sets BYOC_AWS_PAGES_MAX */
} byoc_aws_pager;

void byoc_aws_pager_init(byoc_aws_pager *p, const char *operation);
/* After each page, with the page's next token (NULL or "" at the end).
 * 1: there is a next page (send p->token), 0: the listing is complete,
 * -1: err set (BYOC_E_FAILED): the same token twice in a row, or
 * max_pages pages without an end. */
int byoc_aws_pager_next(byoc_aws_pager *p, const char *next_token, byoc_err *err);
/* The same for the XML listings (IAM's Marker, S3's NextContinuationToken):
 * there is a next page when result's IsTruncated is "true", and its token is
 * result's token_element. result NULL: the listing is complete. */
int byoc_aws_pager_next_xml(byoc_aws_pager *p, const byoc_aws_xml *result, const char *token_element,
                            byoc_err *err);
void byoc_aws_pager_clear(byoc_aws_pager *p);

#endif
