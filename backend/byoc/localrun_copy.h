/* localrun_copy: copying a local run's results out of its container,
 * and the failure file's text. */
#ifndef BYOC_BYOC_LOCALRUN_COPY_H
#define BYOC_BYOC_LOCALRUN_COPY_H

#include "byoc/localrun_run.h"

void lr_copy_out(run *r, const char *ctr_path, const char *as_name);
char *lr_failure_text(run *r);
#endif
