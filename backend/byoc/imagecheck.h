/* imagecheck: does the image a job names exist in ECR? For the Run step:
 * byoc_ecr_image_check has the shape of jobsubmit.h's byoc_job_image_check_fn,
 * so `byoc run` and preflight can pass it as the image hook.
 *
 * An ECR image URI is <account>.dkr.ecr[-fips].<region>.amazonaws.com[.cn]/<repository>[:tag|@sha256:hex]
 * (no tag: latest). The image is looked up with DescribeImages in the URI's
 * own region and registry (the account may be another one's). */
#ifndef BYOC_BYOC_IMAGECHECK_H
#define BYOC_BYOC_IMAGECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "aws/config.h"
#include "core/err.h"
#include "core/task.h"

typedef struct byoc_ecr_image_uri {
    char *account;
    char *region;
    char *repository;
    char *tag;       /* NULL when a digest is given */
    char *digest;    /* or NULL */
} byoc_ecr_image_uri;

/* false (why says what is off) when uri is not an ECR image URI. */
bool byoc_ecr_image_uri_parse(const char *uri, byoc_ecr_image_uri *out, char *why, size_t why_size);
void byoc_ecr_image_uri_free(byoc_ecr_image_uri *u);

/* 0: the image exists. -1 with err: it does not, or its repository does not
 * (BYOC_E_USAGE naming --image-uri). 1: it could not be checked (not an ECR
 * URI, no permission, the service unreachable): note says why. ud is unused. */
int byoc_ecr_image_check(void *ud, byoc_task *t, const byoc_aws_config_opts *aws, const char *image_uri, char *note,
                         size_t note_size, byoc_err *err);

#endif
