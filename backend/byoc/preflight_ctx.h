/* preflight_ctx: what the check groups of preflight share (not a public API). */
#ifndef BYOC_BYOC_PREFLIGHT_CTX_H
#define BYOC_BYOC_PREFLIGHT_CTX_H
#include <pthread.h>
#include <time.h>
#include "aws/client.h"
#include "byoc/jobspec.h"
#include "byoc/preflight_report.h"
#include "core/task.h"
#include "docker/engine.h"

typedef struct pf_ctx {
    const byoc_jobspec *spec;
    const byoc_preflight_opts *opts;
    byoc_task *t;
    byoc_preflight_report *report;
    pthread_mutex_t lock;
    byoc_aws_client *client;      /* in the job's region */
    char *job_region;
    char *account;                /* the caller's, "" when STS failed */
    char *caller_arn;
    char *role_arn;               /* NULL when none could be resolved */
    bool image_is_ecr;
    char image_not_ecr[256];      /* why, when !image_is_ecr */
    char *image_account, *image_region, *image_host, *repository, *tag, *digest;
    bool arm_ok;                  /* the instance type is not an ml.* x86 one */
} pf_ctx;

/* Record one check and post its event. fix may be NULL (""). */
void pf_add(pf_ctx *c, int order, const char *name, byoc_pf_status st, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* The groups; each adds its own checks. */
void pf_group_image(pf_ctx *c);
void pf_group_container(pf_ctx *c);
void pf_group_permissions(pf_ctx *c);
void pf_group_smoke(pf_ctx *c);
/* Try to import entry (MOD[:FUNC]) from the packed local source with the image's python; adds code.entry-point. */
void pf_code_import(pf_ctx *c, byoc_engine *e, const char *python, const char *entry);

/* Orders: one block of 100 per group. */
enum { PF_ORD_SETUP = 0, PF_ORD_IMAGE = 100, PF_ORD_CONTRACT = 200, PF_ORD_CODE = 300, PF_ORD_PERMS = 400,
       PF_ORD_SMOKE = 500 };
#endif
