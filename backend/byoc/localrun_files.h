/* localrun_files: the files a local run puts into the container (source,
 * hyperparameters and the other config files, local inputs, empty directories). */
#ifndef BYOC_BYOC_LOCALRUN_FILES_H
#define BYOC_BYOC_LOCALRUN_FILES_H

#include "byoc/localrun_run.h"

int lr_plan_files(run *r, byoc_err *err);
int lr_put_files(run *r, const char *id, byoc_err *err);
#endif
