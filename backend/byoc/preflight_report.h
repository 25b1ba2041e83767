/* preflight_report: what a preflight (preflight.h) is asked, and what it
 * answers: its options, and the report of its checks, each pass / warn / fail
 * with a one-line fix. Apart from preflight.h so that the check groups
 * (preflight_*.c) build their checks on it without depending on the run that
 * calls them. */
#ifndef BYOC_BYOC_PREFLIGHT_REPORT_H
#define BYOC_BYOC_PREFLIGHT_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "aws/clients.h"
#include "aws/config.h"
#include "docker/engine.h"

typedef enum { BYOC_PF_PASS = 0, BYOC_PF_WARN = 1, BYOC_PF_FAIL = 2 } byoc_pf_status;

const char *byoc_pf_status_name(byoc_pf_status s); /* "pass", "warn", "fail" */

typedef struct byoc_pf_check {
    char *name;
    byoc_pf_status status;
    char *message;
    char *fix;                /* "" for a pass */
    int order;                /* position in the report */
} byoc_pf_check;

typedef struct byoc_preflight_report {
    byoc_pf_check *items;     /* in report order once byoc_preflight returns */
    size_t n, cap;
} byoc_preflight_report;

void byoc_preflight_report_clear(byoc_preflight_report *r);
bool byoc_preflight_ok(const byoc_preflight_report *r);    /* no check failed */
const byoc_pf_check *byoc_preflight_find(const byoc_preflight_report *r, const char *name);
/* {"ok", "checks": [{"name", "status", "message", "fix"}]}. Caller decrefs. */
json_t *byoc_preflight_report_json(const byoc_preflight_report *r);

typedef struct byoc_preflight_opts {
    byoc_aws_config_opts aws;  /* profile, region */
    bool smoke;                /* also run the job locally with a short time limit */
    int smoke_seconds;         /* 0: 60 */
    bool skip_image_run;       /* do not start the throwaway container */
    const char *project_dir;   /* its requires-python / .python-version is compared with the
                                  image's Python (scan.h); NULL: not compared */
    bool local;                /* the job runs in local mode (run --local): only the contract,
                                  code and smoke checks apply, and the image may be any local one */
    const char *role_env;      /* BRAKET_JOBS_ROLE_ARN's value; NULL: the environment */
    byoc_engine *engine;       /* NULL: one from the environment */
    byoc_aws_clients *clients; /* the checks' AWS clients come from here (an app's, which must
                                  outlive the checks); NULL: each makes its own */
} byoc_preflight_opts;

#endif
