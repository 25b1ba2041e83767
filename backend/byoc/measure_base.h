/* measure_base: which image the start-up measurement (measure.h) runs in.
 *
 *   1. the image the user named (--measure-base, byoc.json decide.measure_base),
 *      which must be on the engine: byoc does not pull what it cannot log in to;
 *   2. else the prebuilt Braket jobs image when the engine has one;
 *   3. else that image pulled with the user's AWS credentials (aws not NULL):
 *      an ECR token for the caller's account, as `aws ecr get-login-password`
 *      gives for `docker login 292282985366.dkr.ecr.<region>.amazonaws.com`
 *      in the Braket guide (a token opens every registry the principal may
 *      read), and the engine pulls <that host>/amazon-braket-base-jobs:latest
 *      for linux/amd64, the jobs' platform;
 *   4. else python:<the prebuilt images' Python> when the engine has it, with
 *      a note saying why the prebuilt image was not used.
 * Nothing else is pulled. */
#ifndef BYOC_BYOC_MEASURE_BASE_H
#define BYOC_BYOC_MEASURE_BASE_H

#include "aws/clients.h"
#include "aws/config.h"
#include "core/err.h"
#include "core/task.h"
#include "docker/engine.h"

typedef struct byoc_measure_base {
    char *ref;     /* the image reference used */
    char *id;      /* its id ("sha256:...") */
    char *note;    /* why it is not the prebuilt image (step 4), or that it was pulled; NULL otherwise */
    bool pulled;
} byoc_measure_base;

/* Errors: a named image the engine lacks, or no base at all (BYOC_E_ENV, naming
 * what was tried and what to do); an engine that cannot list images; cancel. */
int byoc_measure_base_resolve(byoc_engine *e, byoc_task *t, const char *named, const byoc_aws_config_opts *aws,
                              byoc_aws_clients *clients, byoc_measure_base *out, byoc_err *err);

#endif
