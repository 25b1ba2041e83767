/* localrun_aws: the AWS part of a local run: --upload of the source,
 * s3:// input channels downloaded and listed to be put in, --with-credentials. */
#ifndef BYOC_BYOC_LOCALRUN_AWS_H
#define BYOC_BYOC_LOCALRUN_AWS_H

#include "byoc/localrun_run.h"

/* 0 at once when the run needs no AWS: a plain local run needs no AWS configuration. */
int lr_aws_phase(run *r, byoc_err *err);
#endif
