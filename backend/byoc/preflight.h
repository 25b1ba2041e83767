/* preflight: catch, before submitting, what would otherwise fail after the
 * instance was paid for. Answers check by check pass / warn / fail, every
 * fail with a one-line fix. Used by `byoc preflight`, `byoc run` and the
 * review page of the TUI's Run screen.
 *
 * Checks (names as they appear in the report), run as four concurrent groups:
 *   spec                  the job spec passes local validation (jobspec.h)
 *   credentials           STS knows the credentials; temporary ones last the max runtime
 *   region                ECR region = job region = the device's region
 *   device                GetDevice: the device exists and is ONLINE (local: devices skip)
 *   instance-type         offered by Braket; count within the guide's 5
 *   image.ecr             the repository and tag/digest exist in ECR (DescribeImages)
 *                         in the job's region and the caller's account
 *   image.manifest        the registry serves a single-platform Docker v2 or OCI
 *                         manifest, not an index (attestation / multi-platform)
 *   image.architecture    the image config says amd64 (ml.* instances are x86_64)
 *   image.digest          the pushed digest is one of the local image's RepoDigests
 *   contract.program      SAGEMAKER_PROGRAM is set and /opt/ml/code/<it> exists
 *   contract.train        `train` is on PATH, or the image has an ENTRYPOINT of its own
 *   contract.entrypoint   no ENTRYPOINT that would get `train` as an argument and swallow it
 *   contract.python       the first python on PATH and its version, against the
 *                         project's requires-python / .python-version
 *   contract.sagemaker-training  sagemaker_training imports where `train` needs it
 *   code.entry-point      MOD[:FUNC] imports from the packed source inside the image
 *                         (requirements.txt packages missing from the image are named)
 *   permissions.pull      the execution role can pull the image (permit.h's check)
 *   permissions.s3        the role can read the input and write the output/checkpoint
 *                         prefixes (IAM simulation, else the managed policy's bucket rule)
 *   permissions.caller    the caller may iam:PassRole the role and braket:CreateJob
 *                         (IAM simulation; warn when IAM cannot tell)
 *   smoke                 with smoke: the job in local mode with a short time limit,
 *                         the time from start to the first line of output
 * The contract and code checks inspect the image on the local engine and run
 * one throwaway container from it (network "none", ENTRYPOINT cleared, /bin/sh
 * needed, the source archive put in with the Engine's archive API); when the
 * image is not on the engine they are replaced by one warning under
 * contract.program. Without AWS (no region, no credentials) they still run.
 * Checks a service cannot answer (no IAM simulation, no permission) warn. */
#ifndef BYOC_BYOC_PREFLIGHT_H
#define BYOC_BYOC_PREFLIGHT_H
#include "byoc/jobspec.h"
#include "byoc/preflight_report.h"
#include "core/err.h"
#include "core/task.h"
#include "docker/engines.h"

/* Run every check. Each finished check is posted on t as a CHECK event:
 * key = the check name, current = its byoc_pf_status, text = its message,
 * detail = its fix (NULL when none). Returns 0 when the checks ran (read
 * out for pass/fail), -1 only for cancellation. out is always initialised. */
int byoc_preflight(const byoc_jobspec *spec, const byoc_preflight_opts *opts, byoc_task *t,
                   byoc_preflight_report *out, byoc_err *err);

/* As a core/task.h task: arg a byoc_preflight_args (freed with
 * byoc_preflight_args_free), result a malloc'd byoc_preflight_report (its taker
 * empties it with byoc_preflight_report_clear and frees it). */
typedef struct byoc_preflight_args {
    byoc_jobspec spec;         /* owned */
    byoc_preflight_opts opts;  /* its strings must outlive the task */
    byoc_engines *engines;     /* with no opts.engine, the checks share an engine from here (an app's,
                                  which must outlive the task); NULL: each makes its own */
} byoc_preflight_args;
int byoc_preflight_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void byoc_preflight_args_free(void *args);

#endif
