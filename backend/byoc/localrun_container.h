/* localrun_container: the container of a local run: its user, its
 * environment, create, and run with a time limit, the output streamed. */
#ifndef BYOC_BYOC_LOCALRUN_CONTAINER_H
#define BYOC_BYOC_LOCALRUN_CONTAINER_H

#include "byoc/localrun_run.h"

typedef struct run_outcome {
    bool cancelled, timed_out, start_failed;
    char *start_error;
} run_outcome;

void lr_resolve_user(run *r, const char *id);
int lr_create_container(run *r, byoc_err *err);
long lr_max_runtime(const run *r);
void lr_run_container(run *r, run_outcome *o);
#endif
