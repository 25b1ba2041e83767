/* localrun: run a job spec in its container on the local Docker engine, under
 * the Braket container contract (Amazon Braket Developer Guide, "Bring your own container"; the SDK's braket/jobs/local/), as the service
 * would start it — the local mode of the Run step (`byoc run --local`, the
 * Run screen's "run locally").
 *
 *   1. validate what local mode uses (name, source and entry point, device
 *      local:<provider>/<simulator> or an ARN, hyperparameters, input data,
 *      checkpoint path, max runtime); fields local mode ignores (role,
 *      instances, tags, distribution, reservation, KMS key, checkpoint S3,
 *      checkpoint copy) become warnings; <output_parent>/<job-name>/ must not
 *      exist (or be empty); the image must be on the engine and have
 *      SAGEMAKER_PROGRAM or an ENTRYPOINT
 *   2. build source.tar.gz exactly as the SDK does; without upload it goes
 *      into the container at /opt/ml/input/source/source.tar.gz and
 *      AMZN_BRAKET_SCRIPT_S3_URI names it as a file:// URI (byoc's entry
 *      point reads that); with upload it goes to
 *      s3://amazon-braket-<region>-<account>/jobs/<name>/<ts>/script/ (or
 *      the code location) as AwsQuantumJob.create puts it, so the stock
 *      Braket launcher can fetch it
 *   3. create the container: Cmd ["train"] with the image's own entry point
 *      (SageMaker's `docker run <image> train`), the AMZN_BRAKET_* variables
 *      of section 2.2, AWS credentials and region only with
 *      with_credentials, network "none" (or "host"), labels
 *      byoc.local-job=<name>
 *   4. put the files in with the Engine's archive PUT (a tar made with
 *      libarchive and streamed; nothing of the user's tree is mounted, so the
 *      container cannot change it): /opt/ml/input/config/hyperparameters.json
 *      (always, {} when none), resourceconfig.json and inputdataconfig.json
 *      (what sagemaker-training's `train` reads), /opt/ml/input/data/<channel>/
 *      (local paths with the SDK's prefix rule; s3:// channels downloaded
 *      first), empty /opt/ml/model, /opt/ml/output and the checkpoint
 *      directory, owned by the image's user
 *   5. start; stream the output (each line a LOG event, and
 *      <job-name>/log.txt as it comes); a watchdog kills the container after
 *      max runtime (FAILED, "MaxRuntimeExceeded: ...")
 *   6. copy /opt/ml/model into <job-name>/ and the checkpoint directory into
 *      <job-name>/checkpoints/ (archive GET streamed into results.h's safe
 *      unpacker, with its size, ratio and free-space limits; links judged
 *      from where the tree ends up): what is not safe (FIFOs, devices, links
 *      leading out) is skipped and named in not_copied and a warning, the
 *      rest copied; read /opt/ml/output/failure
 *   7. status: exit 0 and no failure file -> COMPLETED; otherwise FAILED
 *      with the failure file's text (or the exit code) as the reason. A
 *      failure file fails the job even on exit 0 (the stock launcher exits 0
 *      after a setup failure); cancelled -> the container is killed, what
 *      exists is copied, CANCELLED
 *   8. remove the container; record the job in local-jobs.json (localjobs.h)
 *      as RUNNING once the container exists and with its end state after
 *
 * Cancellation (byoc_task_cancel, Ctrl-C in the CLI) is honoured at every
 * step. Returns 0 for COMPLETED; BYOC_E_FAILED for FAILED and
 * BYOC_E_CANCELLED for CANCELLED (out is filled in both cases); usage and
 * environment errors before the container exists leave out->status NULL. */
#ifndef BYOC_BYOC_LOCALRUN_H
#define BYOC_BYOC_LOCALRUN_H

#include <jansson.h>
#include <stdbool.h>

#include "byoc/jobspec.h"
#include "byoc/localrun_result.h"
#include "core/err.h"
#include "core/task.h"
#include "docker/engines.h"

/* The checks byoc_local_run makes of the spec before it touches anything: the
 * fields a local run uses (jobspec.h's rules), an image, a local source unless
 * upload, the checkpoint path. Adds one problem per fault; returns how many. */
size_t byoc_local_run_validate(const byoc_jobspec *spec, bool upload, byoc_job_problems *out);

/* The whole run; t may be NULL (then it cannot be cancelled). out is always
 * initialised: free it even on failure. */
int byoc_local_run(const byoc_jobspec *spec, const byoc_local_run_opts *opts, byoc_task *t,
                   byoc_local_run_result *out, byoc_err *err);

/* The run as a core/task.h task for screens: arg a byoc_local_run_args
 * (freed with byoc_local_run_args_free when the task ends). Once the
 * container existed the task ends with DONE, result a byoc_local_run_result *
 * whatever the job's end (read its status: COMPLETED, FAILED or CANCELLED);
 * errors before that (bad input, no engine, no image) end it with ERROR.
 * Events: STATUS for each phase and the job's states, LOG for each line of
 * the job's output and each warning ("warning: ..."). */
typedef struct byoc_local_run_args {
    byoc_jobspec spec;           /* owned */
    byoc_local_run_opts opts;    /* its strings must outlive the task */
    byoc_engines *engines;       /* with no opts.engine, the task's engine comes from here (an app's,
                                    which must outlive the task); NULL: one of its own */
} byoc_local_run_args;

int byoc_local_run_task_fn(byoc_task *t, void *arg, void **result, void (**result_free)(void *), byoc_err *err);
void byoc_local_run_args_free(void *args);

#endif
