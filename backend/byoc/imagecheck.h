/* imagecheck: ECR image URIs, and does the image a job names exist in ECR?
 * byoc_ecr_image_check is the image hook `byoc run` and the Run screen pass
 * to jobsubmit.
 *
 * An ECR image URI is <account>.dkr.ecr[-fips].<region>.amazonaws.com[.cn]/<repository>[:tag|@sha256:hex]
 * (no tag: latest). The image is looked up with DescribeImages in the URI's
 * own region; an image in another account's registry is not looked up (see
 * byoc_ecr_image_check). */
#ifndef BYOC_BYOC_IMAGECHECK_H
#define BYOC_BYOC_IMAGECHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "aws/clients.h"
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
void byoc_ecr_image_uri_clear(byoc_ecr_image_uri *u);

/* The Run step's image check (the shape of jobsubmit.h's
 * byoc_job_image_check_fn), through ECR DescribeImages in the image's own
 * region. 0: the image exists. -1 with err: its repository or its tag/digest
 * does not (BYOC_E_USAGE naming --image-uri), or the call failed. 1, with
 * note saying why: not verified (not an ECR URI, another account's registry
 * than account, or DescribeImages not allowed). ud: the byoc_aws_clients *
 * the client comes from (an app's), or NULL for a client of its own. */
int byoc_ecr_image_check(void *ud, byoc_task *t, const byoc_aws_config_opts *aws, const char *account,
                         const char *image_uri, char *note, size_t note_size, byoc_err *err);

#endif
