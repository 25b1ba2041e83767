/* endpoints: where each AWS service byoc talks to lives, and how it signs.
 *
 * Defaults per region and partition (aws: amazonaws.com, aws-cn:
 * amazonaws.com.cn, aws-us-gov: amazonaws.com):
 *   ecr     https://api.ecr.<region>.<suffix>         signs "ecr"
 *   braket  https://braket.<region>.<suffix>          signs "braket"
 *   s3      https://s3.<region>.<suffix>              signs "s3" (bucket as a
 *           virtual host <bucket>.s3.<region>.<suffix> when DNS-safe)
 *   logs    https://logs.<region>.<suffix>            signs "logs"
 *   sts     https://sts.<region>.<suffix> (no region: sts.amazonaws.com, us-east-1)
 *   iam     https://iam.amazonaws.com, signs us-east-1 (cn: iam.cn-north-1.
 *           amazonaws.com.cn / cn-north-1; gov: iam.us-gov.amazonaws.com / us-gov-west-1)
 * Overrides, first found wins: AWS_ENDPOINT_URL_<ECR|BRAKET|S3|CLOUDWATCH_LOGS|
 * STS|IAM> > AWS_ENDPOINT_URL > the profile's `[services X]` key
 * (ecr, braket, s3, cloudwatch_logs, sts, iam) `endpoint_url` > the profile's
 * `endpoint_url`. AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true (or the profile's
 * ignore_configured_endpoint_urls) disables them all. An override changes the
 * URL only: the signing region and name stay. S3 with an override (or
 * `s3 =\n addressing_style = path`) uses path-style addressing. */
#ifndef BYOC_AWS_ENDPOINTS_H
#define BYOC_AWS_ENDPOINTS_H

#include <stdbool.h>

#include "aws/config.h"
#include "core/err.h"

typedef enum {
    BYOC_AWS_ECR,
    BYOC_AWS_BRAKET,
    BYOC_AWS_S3,
    BYOC_AWS_LOGS,
    BYOC_AWS_STS,
    BYOC_AWS_IAM,
    BYOC_AWS_SERVICE_COUNT
} byoc_aws_service;

/* "ecr", "braket", "s3", "logs", "sts", "iam"; and the reverse (-1 if unknown). */
const char *byoc_aws_service_name(byoc_aws_service s);
int byoc_aws_service_from_name(const char *name);

typedef struct byoc_aws_endpoint {
    byoc_aws_service service;
    char *url;               /* scheme://host[:port][/base], no trailing '/' */
    char *signing_region;
    const char *signing_name;
    bool overridden;
    bool s3_path_style;      /* S3: bucket goes in the path */
    char origin[128];        /* "default", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL",
                                "services <name>", "profile <name>" */
} byoc_aws_endpoint;

/* c may be NULL (defaults and environment only). region may be NULL only for
 * sts and iam. Errors: no region (BYOC_E_ENV), a malformed region or override
 * URL (BYOC_E_USAGE, naming the variable or key). */
int byoc_aws_endpoint_resolve(const byoc_aws_config *c, const char *region, byoc_aws_service s,
                              byoc_aws_endpoint *out, byoc_err *err);
void byoc_aws_endpoint_clear(byoc_aws_endpoint *e);

/* "amazonaws.com" or "amazonaws.com.cn" for a region. */
const char *byoc_aws_dns_suffix(const char *region);
/* "aws", "aws-cn" or "aws-us-gov": for ARNs. */
const char *byoc_aws_partition(const char *region);

/* <account>.dkr.ecr.<region>.<suffix>; malloc'd, NULL if account is not 12
 * digits or the region is malformed. */
char *byoc_aws_ecr_registry_host(const char *account, const char *region);

/* True for a bucket name usable as a TLS virtual host: 3-63 of [a-z0-9-],
 * starting and ending alphanumeric (no dots). */
bool byoc_aws_s3_virtual_host_ok(const char *bucket);
/* The URL of an object (key NULL or "" for the bucket itself); the key is
 * encoded once with '/' kept, as S3 expects. malloc'd. */
char *byoc_aws_s3_url(const byoc_aws_endpoint *e, const char *bucket, const char *key);

#endif
