/* verbs: the entry points of the command-line verbs, one per verb_<name>.c (in its
 * step's folder tui/steps/<step>/, or tui/cli/ for doctor and tui), and their --help
 * texts. The table that binds names to them is cli_verbs.c. */
#ifndef BYOC_TUI_VERBS_H
#define BYOC_TUI_VERBS_H

#include "cli.h"

#define VERB_TUI_HELP \
    "Opens the interactive workbench: Decide, Build, Push, Permit, Run, Monitor.\n" \
    "Keys: 1-6 steps, ? help, : command, / filter, q back/quit."
int verb_tui(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_DOCTOR_HELP \
    "Checks what byoc needs and says how to fix what is missing:\n" \
    "  the Docker engine (DOCKER_HOST), the AWS credentials source and profile (never the secret),\n" \
    "  the region, the caller identity (STS GetCallerIdentity), the endpoints in force, the terminal.\n" \
    "  Platforms: the engine's native one, and those emulated through binfmt_misc (qemu-user-static;\n" \
    "  a handler needs the F flag to work in containers) when the engine is on this host.\n" \
    "  --local   only the Docker engine is needed (the local target: no AWS account)\n" \
    "Each cause is reported once, with its fix; exit 3 if a needed part is missing, and the one\n" \
    "line on stderr names those parts. With --json: {\"engine\", \"credentials\", \"region\",\n" \
    "\"account\", \"arn\", \"endpoints\", \"terminal\"}."
int verb_doctor(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_DECIDE_HELP \
    "Answers the BYOC guide's question: is your own container needed, and which recipe fits?\n" \
    "Scans the project (languages, requirements.txt/pyproject.toml, requires-python, git+ssh or\n" \
    "private-index dependencies, CUDA use, target arch, an existing Dockerfile), then applies the rules:\n" \
    "  prebuilt         a prebuilt Braket image + requirements.txt (a few public packages): no BYOC\n" \
    "  extend-prebuilt  recipe 1: FROM a prebuilt Braket image, add software\n" \
    "  custom-base      recipe 2: a public base + sagemaker-training + byoc's entry point\n" \
    "  --scan DIR            the directory to scan (default: --project, else .)\n" \
    "  --no-scan             decide from the answers alone\n" \
    "  --answer KEY=VALUE    answer or override a question (repeatable); keys:\n" \
    "      languages=python,cpp,rust,julia,other   python_version=SPEC (3.11, >=3.9,<3.12, empty = any)\n" \
    "      missing_packages=N   private_deps=BOOL   license_server=BOOL   large_stack=BOOL\n" \
    "      distribute=BOOL      arch=amd64|arm64    gpu=BOOL\n" \
    "  --measure             time what a prebuilt image does at every job start: `python3 -m pip install\n" \
    "                        -r requirements.txt` (in the scanned directory, mounted read-only at\n" \
    "                        /opt/ml/code) in a throwaway container; the rules then quote the seconds\n" \
    "                        instead of counting packages. The result is kept in .byoc/measure.json,\n" \
    "                        keyed by the file's content and the base, and reused (also without\n" \
    "                        --measure); PIP_INDEX_URL, PIP_EXTRA_INDEX_URL, PIP_TRUSTED_HOST and\n" \
    "                        PIP_FIND_LINKS are passed into the container when set\n" \
    "                        Beside it: how soon a baked image of the project printed its first\n" \
    "                        line in its newest local run (byoc run --local records it)\n" \
    "  --measure-base IMAGE  a local image to measure in (byoc does not pull it). Default: the prebuilt\n" \
    "                        jobs image, pulled for linux/amd64 with your AWS credentials (an ECR\n" \
    "                        token, as aws ecr get-login-password) when the engine lacks it, else\n" \
    "                        python:3.12 if the engine has it; startup.base_note says which and why\n" \
    "  --measure-network M   the container's network (default: the engine's, as a job has the\n" \
    "                        internet; host for a local index). byoc.json \"decide\": {\"measure_base\",\n" \
    "                        \"measure_network\"} set both for this command and the TUI's m key\n" \
    "  --measure-again       measure even when a result is stored\n" \
    "  --install-threshold S seconds of install from which BYOC is recommended (default 30; byoc.json\n" \
    "                        \"decide\": {\"install_threshold_seconds\": S})\n" \
    "Each answer shows its source (scanned, user, default). With --json: {\"verdict\": \"not-needed\"|\n" \
    "\"recommended\"|\"required\", \"recipe\", \"reasons\": [{\"rule\", \"text\", \"effect\"}], \"answers\", \"init\",\n" \
    "\"detected\": {...}, \"startup\": {\"install_seconds\", \"packages\", \"failed\", \"base\", \"measured_at\",\n" \
    "\"size_bytes\", \"seconds_per_job\", ..., \"baked\": {\"image\", \"job_arn\",\n" \
    "\"first_output_seconds\", ...}|null} when measured or a local run is recorded}. Exit 2 for an\n" \
    "unknown key or a bad value;\n" \
    "a measurement that cannot run (unreadable requirements, no base image, no network) is an error\n" \
    "and changes nothing."
int verb_decide(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_INIT_HELP \
    "Scaffolds a BYOC project in DIR (default: --project, else .): Dockerfile, .dockerignore,\n" \
    ".gitignore, byoc.json, and for a custom base byoc's entry point (byoc/byoc_container.py,\n" \
    "which follows the Braket container contract and starts Python, Julia, Rust, C++ or\n" \
    "executables), then makes DIR a git repository with one commit.\n" \
    "Without flags it scaffolds what `byoc decide --scan DIR` concludes (recipe, language, arch,\n" \
    "GPU, Python version, private dependencies); flags and --answer override. When DIR has code\n" \
    "(CMakeLists.txt, Cargo.toml, Project.toml + a .jl, a Python package or script), byoc.json's\n" \
    "job points at it and the Dockerfile uses its manifests; else a sample algorithm is added.\n" \
    "A file that exists is kept unless --existing says otherwise; your files are never changed.\n" \
    "  --recipe R      extend-prebuilt (recipe 1; Python 3.12 on amd64) or custom-base (recipe 2)\n" \
    "  --language L    python, julia, rust, cpp\n" \
    "  --arch A        amd64 (every job instance is x86_64) or arm64\n" \
    "  --gpu           a CUDA base image\n" \
    "  --python V      the Python series of the base (e.g. 3.13; needs custom-base)\n" \
    "  --base IMAGE    the base image instead of the recipe's default\n" \
    "  --answer K=V    a decide answer (byoc decide --help lists the keys)\n" \
    "  --existing C    for files that exist: keep (default), overwrite, or beside (<file>.byoc);\n" \
    "  --existing PATH=C   the choice for one file (repeatable)\n" \
    "  --force         the same as --existing overwrite\n" \
    "  --no-git        do not create a git repository\n" \
    "Custom-base images install sagemaker-training from PyPI; build with\n" \
    "--build-arg BYOC_SAGEMAKER_TRAINING=offline where there is no network (byoc's own `train`).\n" \
    "With --json: {\"files\": [...], \"kept\": [...], \"beside\": [...], \"adopted\", \"source_module\",\n" \
    "\"entry_point\", \"decided\": {...}, \"git\": {\"created\", \"commit\", \"note\"}}."
int verb_init(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_LINT_HELP \
    "Checks a project (DIR, default: --project, else .) for BYOC mistakes, with file and line:\n" \
    "the entry point (SAGEMAKER_PROGRAM, copied to /opt/ml/code), sagemaker-training or `train` on a\n" \
    "custom base, ENTRYPOINT, base arch vs the instance type, GPU instance vs a CUDA base, keys and\n" \
    "tokens in COPY/ENV/ARG/RUN and in the build context (.dockerignore applies), SSH use in RUN,\n" \
    "many requirements under recipe 1, :latest bases, an oversized context, Dockerfile syntax.\n" \
    "The instance type and GPU come from byoc.json (job.instance_type, gpu) or:\n" \
    "  --instance-type T   the job's instance type (ml.m5.large, ml.g4dn.xlarge, ...)\n" \
    "  -f, --file PATH     the Dockerfile, relative to DIR (default: byoc.json's, else Dockerfile)\n" \
    "With --json: {\"findings\": [{\"severity\": \"error\"|\"warning\"|\"info\", \"rule\", \"file\", \"line\",\n" \
    "\"message\"}]}. Exit 1 if any finding is an error."
int verb_lint(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_VENDOR_HELP \
    "Clones the project's private dependencies into its build context, so the image installs them\n" \
    "without a key: each private git dependency of <context>/requirements.txt (git+ssh://,\n" \
    "git@host:..., credentials in the URL) is cloned with your ssh-agent (SSH_AUTH_SOCK; no key is\n" \
    "read or written) into <context>/vendor/<name>/ without its .git, and vendor/requirements.txt is\n" \
    "written: requirements.txt with each of them replaced by /opt/byoc/vendor/<name>, its path in\n" \
    "the image. The custom-base recipe with private dependencies (init --answer private_deps=yes)\n" \
    "copies vendor/ there and installs from that list. A vendor/<name>/ already there is kept:\n" \
    "remove it to fetch again. DIR is the project (default: --project, else .).\n" \
    "With --json: {\"vendored\": [...], \"kept\": [...], \"skipped\": [...], \"requirements\"}.\n" \
    "The server's host key must be in ~/.ssh/known_hosts, as for ssh. Nothing of a failed clone is\n" \
    "left. Exit 1 when a clone fails, 2 for a vendor/ that is a link or a file, 3 without an\n" \
    "ssh-agent or a known host key."
int verb_vendor(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_BUILD_HELP \
    "Builds the project's image on the Docker engine (DOCKER_HOST), with live output on stderr.\n" \
    "DIR is the project directory (default: --project, else .); byoc.json there gives the defaults:\n" \
    "context, Dockerfile, tags and build args. The Dockerfile is linted first: errors stop the build\n" \
    "unless --no-lint. In a git repository the image is also tagged <name>:<short-sha>[-dirty] and\n" \
    "labelled org.opencontainers.image.revision/source/created (created: SOURCE_DATE_EPOCH if set).\n" \
    ".dockerignore applies exactly as the docker CLI applies it. Ctrl-C cancels the build.\n" \
    "  -t, --tag REF          name[:tag] to tag the image with (repeatable; replaces byoc.json's)\n" \
    "  -f, --file PATH        the Dockerfile (relative to the current directory; inside the context)\n" \
    "  --build-arg K[=V]      a build argument (repeatable; K alone takes V from the environment)\n" \
    "  --label K=V            an image label (repeatable)\n" \
    "  --platform P           os/arch[/variant] of the image\n" \
    "  --target T             build up to this stage\n" \
    "  --network MODE         network for RUN steps: none, host, bridge or a network name\n" \
    "  --no-cache             do not reuse cached steps\n" \
    "  --pull                 try to pull newer base images\n" \
    "  --no-lint              build even when the lint finds errors\n" \
    "Prints the image id. With --json: {\"image_id\", \"tags\": [...]}.\n" \
    "Exit 1 build failed, 2 invalid input or lint errors (nothing was sent), 3 no engine."
int verb_build(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_IMAGES_HELP \
    "Lists the images on the local Docker engine: repository, tags, image id, age, size;\n" \
    "or with --repository those of an ECR repository: tags, digest, pushed at, size, scan status,\n" \
    "and under a multi-platform index (OCI index, Docker manifest list) the platforms it holds, read\n" \
    "from the registry (BuildKit's attestation entries counted apart).\n" \
    "  --local            the local engine (the default)\n" \
    "  -a, --all          intermediate images too\n" \
    "  --repository NAME  the images in this ECR repository (every page of DescribeImages)\n" \
    "With --json: {\"images\": [{\"repository\", \"tags\", \"digest\", \"size\", \"created\", ...}]}; an\n" \
    "index also has \"platforms\" and \"attestations\" (or \"platforms_error\" when it could not be read)."
int verb_images(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_PUSH_HELP \
    "Pushes a local image (REF: name[:tag] or id) to an ECR repository, with each layer's progress on\n" \
    "stderr: checks the repository in the region (creating it only with --create; its registry id is the\n" \
    "account), fetches an ECR login token (kept in memory; sent to the engine in X-Registry-Auth), tags\n" \
    "the image <account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag>, pushes it through the Docker\n" \
    "engine, and checks the digest against ECR DescribeImages. A token the registry refuses is renewed\n" \
    "once. The default Braket job role can pull only from repositories named amazon-braket*: byoc warns\n" \
    "and suggests that name otherwise. Ctrl-C cancels the push; running it again resumes it.\n" \
    "  -r, --repository NAME   the ECR repository (required)\n" \
    "  -t, --tag T             the tag to push (default: REF's tag, else latest)\n" \
    "  --create                create the repository when it does not exist, with:\n" \
    "    --scan-on-push          scan each pushed image\n" \
    "    --immutable-tags        tags cannot be overwritten\n" \
    "    --encryption AES256|KMS, --kms-key KEY   encryption at rest\n" \
    "    --repository-tag K=V    a resource tag (repeatable)\n" \
    "  --docker-config         also store the login in $DOCKER_CONFIG/config.json (0600), for docker\n" \
    "Prints the image URI and digest. With --json: {\"image_uri\", \"digest\", \"repository\", \"registry\",\n" \
    "\"tag\", \"account\", \"region\", \"created_repository\", \"verified\", \"layers\", \"warnings\"}.\n" \
    "Exit 1 push failed (the layers that did and did not make it are named), 2 invalid input, a missing\n" \
    "image or repository (nothing was pushed), 3 no engine or credentials."
int verb_push(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_PERMIT_HELP \
    "Shows or edits who may pull from an ECR repository (its repository policy), or checks whether a\n" \
    "job's execution role can pull. Grants are exactly ecr:BatchGetImage, ecr:GetDownloadUrlForLayer and\n" \
    "ecr:BatchCheckLayerAvailability, kept in byoc's own statement (Sid ByocPull); every other statement\n" \
    "stays as written. Granting twice changes nothing. PRINCIPAL: an IAM role ARN, a user ARN or a\n" \
    "12-digit account id (-> arn:aws:iam::ID:root).\n" \
    "  --allow PRINCIPAL   grant pull (repeatable)\n" \
    "  --revoke PRINCIPAL  revoke byoc's grant (repeatable)\n" \
    "  --dry-run           print the change as a diff of the policy; send nothing\n" \
    "  --force             allow Principal \"*\", wildcard actions and other blocking findings\n" \
    "  --check ROLE_ARN    can this role pull? (IAM SimulatePrincipalPolicy when the caller may call it,\n" \
    "                      else the repository policy and the amazon-braket* rule of the managed policy);\n" \
    "                      exit 1 when it cannot\n" \
    "Without --allow/--revoke prints the current policy. With an edit prints the diff. With --json:\n" \
    "{\"policy\", \"warnings\", \"changed\", \"sent\", \"added\", \"revoked\", \"diff\"}; with --check:\n" \
    "{\"role_arn\", \"repository\", \"can_pull\", \"method\", \"reason\", \"checks\"}.\n" \
    "Exit 2 for a malformed principal, \"*\" without --force, or an existing policy that is not valid JSON\n" \
    "(nothing was sent)."
int verb_permit(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_RUN_HELP \
    "Creates an Amazon Braket Hybrid Job from your image, as AwsQuantumJob.create would, and prints\n" \
    "its ARN. Every field is checked first (API model patterns and ranges, the guide's limits, the\n" \
    "entry point inside the source module): a bad one is named and nothing is sent (exit 2).\n" \
    "Then: the account (STS), the device (GetDevice; a regional device ARN moves the job to that\n" \
    "region), the role, the default bucket amazon-braket-<region>-<account> (created if missing),\n" \
    "uploads under jobs/<name>/<timestamp>/ (script/source.tar.gz, data/<channel>/...), CreateJob.\n" \
    "  --image-uri URI            ECR image: <account>.dkr.ecr.<region>.amazonaws.com/<repo>:<tag>|@sha256:<d>\n" \
    "  --source-module PATH       a .py file or a package directory (archived with symlinks followed,\n" \
    "                             .git .hg .svn .bzr left out), or s3://.../<file>.tar.gz\n" \
    "  --entry-point MOD[:FUNC]   module path inside the source (default: the source module's stem)\n" \
    "  --role-arn ARN             execution role (default: $BRAKET_JOBS_ROLE_ARN, else the first IAM role\n" \
    "                             /service-role/AmazonBraketJobsExecutionRole*)\n" \
    "  --device DEV               device ARN or local:<provider>/<simulator> (default: local:none/none)\n" \
    "  --instance-type T          ml.m5.large (default), ml.c5.xlarge, ml.g4dn.xlarge, ml.p3.2xlarge, ...\n" \
    "  --instance-count N         1-5 (default 1)      --volume-gb N   >= 1 (default 30)\n" \
    "  --hyperparameter K=V       repeatable; values are strings of 1-2500 characters\n" \
    "  --input-data CH=S3URI|PATH repeatable; a local PATH is a prefix, uploaded to .../data/CH/\n" \
    "  --output-s3 URI            default s3://<bucket>/jobs/<name>/<ts>/data\n" \
    "  --checkpoint-s3 URI        default s3://<bucket>/jobs/<name>/<ts>/checkpoints\n" \
    "  --checkpoint-local-path P  default /opt/jobs/checkpoints\n" \
    "  --code-location URI        S3 prefix for source.tar.gz (default .../<ts>/script)\n" \
    "  --kms-key-id KEY           outputDataConfig.kmsKeyId\n" \
    "  --max-runtime SEC          1-432000 (default 432000)\n" \
    "  --job-name NAME            1-50 of A-Z a-z 0-9 -, not starting or ending with - (default\n" \
    "                             braket-job-<repo>-<epoch ms> from an amazon-braket-<repo> image)\n" \
    "  --tag K=V                  repeatable\n" \
    "  --distribution data_parallel    --reservation-arn ARN    --copy-checkpoints-from-job JOB_ARN\n" \
    "  --wait                     follow the job to its end; exit 1 if it ends FAILED or CANCELLED\n" \
    "  --dry-run                  print the CreateJob request and the uploads; create nothing\n" \
    "                             (read-only lookups still run: STS, IAM, GetDevice, HeadBucket)\n" \
    "  --no-preflight             skip the checks of byoc preflight that run first otherwise (not with\n" \
    "                             --dry-run); a failing check stops the run before anything is sent (exit 1)\n" \
    "  --local                    run the job in its container on the local Docker engine instead, as the\n" \
    "                             service starts it (`train`, the AMZN_BRAKET_* variables, /opt/ml put in with\n" \
    "                             the engine's archive API: nothing of yours is mounted); always waits; the job's\n" \
    "                             output streams to stderr; ./<job-name>/ gets /opt/ml/model, log.txt and\n" \
    "                             checkpoints/; recorded in $XDG_STATE_HOME/byoc/local-jobs.json. The image is a\n" \
    "                             local one (any name); the device is local:<provider>/<simulator> or an ARN.\n" \
    "                             A failure file (/opt/ml/output/failure) fails the job, even on exit 0.\n" \
    "                             Ctrl-C stops and removes the container, keeps what it wrote: CANCELLED.\n" \
    "    --upload                 put source.tar.gz in S3 as AwsQuantumJob.create does (for the stock Braket\n" \
    "                             launcher); without it the source goes in as file:///opt/ml/input/source/...\n" \
    "    --with-credentials       pass your AWS credentials (and region) into the container (visible to\n" \
    "                             `docker inspect` while it exists); without it the job has none\n" \
    "    --host-network           network host (default: none, only lo)\n" \
    "    --strict                 exit 1 when the results were not copied whole. What cannot be copied safely\n" \
    "                             (FIFOs, devices, links that lead out of ./<job-name>/) is skipped and named\n" \
    "                             (a warning each, \"not_copied\" in --json), the rest copied; a copy larger than\n" \
    "                             BYOC_RESULTS_MAX_BYTES (default 16G) or 95% of the free disk is refused whole.\n" \
    "Multipart uploads above 16 MiB (BYOC_S3_PART_SIZE / BYOC_S3_MULTIPART_THRESHOLD in bytes).\n" \
    "With --json: {\"job_arn\", \"job_name\", \"status\"} (a dry run adds the request and transfers);\n" \
    "with --local: {\"job_arn\": \"local:job/<name>\", \"job_name\", \"status\", \"output_dir\", \"exit_code\",\n" \
    "\"failure_reason\" (when FAILED), \"image\", \"log\", \"source_uri\", \"warnings\", \"not_copied\"}; exit 1 if FAILED or\n" \
    "CANCELLED."
int verb_run(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_PREFLIGHT_HELP \
    "Checks, before anything is created or paid for, what would make the job fail once it runs:\n" \
    "the image (in ECR in the job's region and account; amd64, read from an index's linux/amd64\n" \
    "entry; a warning for an index or OCI media types, which Braket does not document; the pushed\n" \
    "digest = the local one), the container contract (read from the image's files without running\n" \
    "it: SAGEMAKER_PROGRAM and its file, train on PATH, ENTRYPOINT, python and sagemaker_training),\n" \
    "that the entry point imports from the packed source inside the\n" \
    "image, the permissions (the role can pull; S3 prefixes; iam:PassRole, braket:CreateJob), and\n" \
    "consistency (regions, device ONLINE, instance type, credentials lasting the run).\n" \
    "Takes the flags of byoc run, plus:\n" \
    "  --smoke    also run the job locally with a short time limit and time its first output line\n" \
    "With --local (a job for run --local) only the contract, code and smoke checks apply.\n" \
    "Each check prints pass / warn / fail with a one-line fix. Exit 1 if any check fails.\n" \
    "With --json: {\"ok\", \"checks\": [{\"name\", \"status\": \"pass\"|\"warn\"|\"fail\", \"message\", \"fix\"}]}."
int verb_preflight(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_JOBS_HELP \
    "Lists the local jobs of this machine (run --local; named local:job/<name>), then the account's\n" \
    "Hybrid Jobs in the region (SearchJobs, every page), each newest first, as the Monitor does. A\n" \
    "local job whose byoc is gone is FAILED (interrupted).\n" \
    "  --status S   only jobs in state S (QUEUED RUNNING COMPLETED FAILED CANCELLING CANCELLED);\n" \
    "               repeatable\n" \
    "  --max N      at most N jobs of each kind (default 100)\n" \
    "  --local      only the local jobs: nothing is sent to AWS\n" \
    "With --json: {\"jobs\": [{\"job_arn\", \"job_name\", \"status\", \"created\", \"device\"}]} (a local\n" \
    "job also has \"local\": true), printed\n" \
    "page by page as the pages arrive; a listing that fails midway is closed with \"error\": {\"what\",\n" \
    "\"why\", \"exit_code\"} after the jobs so far (still one JSON document) and a non-zero exit code."
int verb_jobs(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_STATUS_HELP \
    "Shows a job: status (with its queue position while QUEUED), failure reason, events, times,\n" \
    "and the metrics it logged (`Metrics - name=value;` lines, read from CloudWatch Logs: last, min,\n" \
    "max, count per metric). JOB is a job ARN, a job name, or local:job/<name> for a local job (its\n" \
    "record, with the image, exit code and output directory; metrics from its log.txt).\n" \
    "With --json: {\"job_arn\", \"job_name\", \"status\", \"events\": [{\"type\", \"time\", \"message\"}],\n" \
    "\"failure_reason\", \"metrics\": {\"<name>\": {\"last\", \"min\", \"max\", \"count\", \"timestamp\",\n" \
    "\"iteration\", \"series\"}}, \"created\", \"started\", \"ended\", \"device\", \"instance_count\", \"queue\"}.\n" \
    "\"series\" is {\"points\": [{\"timestamp\", \"iteration\", \"value\"}], \"count\", \"truncated\", \"stride\"}:\n" \
    "the metric's last 1,000 points at most, oldest first (null where a line had no timestamp or\n" \
    "iteration_number, or the value was not finite); \"truncated\" is true when they are not every\n" \
    "value logged (a long run is thinned to every \"stride\"-th value, then cut to the last 1,000)."
int verb_status(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_LOGS_HELP \
    "Prints a job's log from CloudWatch Logs (/aws/braket/jobs, streams <job-name>/...): every\n" \
    "instance, merged by time, \"[algo-N] \" before each line when the job has several instances.\n" \
    "JOB is a job ARN, a job name, or local:job/<name> (its log.txt, as run --local writes it).\n" \
    "On a terminal each line goes through the printable pass (no escape sequences); a pipe or file\n" \
    "gets the log exactly.\n" \
    "  -f, --follow   keep reading until the job ends (status changes go to stderr); exit 1 if it\n" \
    "                 ended FAILED or CANCELLED\n" \
    "Output is text, also with --json."
int verb_logs(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_CANCEL_HELP \
    "Cancels a job (CancelJob). A job that already ended is not cancelled: exit 1 with its state.\n" \
    "JOB is a job ARN or a job name, or local:job/<name> for a job started with `byoc run --local`\n" \
    "(its container is stopped and removed).\n" \
    "With --json: {\"job_arn\", \"status\"} (CANCELLING or CANCELLED)."
int verb_cancel(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#define VERB_RESULTS_HELP \
    "Downloads a finished job's results, <outputDataConfig.s3Path>/output/model.tar.gz, and unpacks\n" \
    "them into ./<job-name> (what the job wrote to /opt/ml/model). Nothing is written outside that\n" \
    "directory: absolute paths, '..', links leading out and device files refuse the whole archive,\n" \
    "and so do bombs: more than BYOC_RESULTS_MAX_BYTES (default 16G) or 95% of the free disk once\n" \
    "unpacked, or (past 64 MiB) more than BYOC_RESULTS_MAX_RATIO (default 200) bytes per archive byte.\n" \
    "The directory is named by the job's name only when that passes the job-name rule.\n" \
    "JOB is a job ARN or a job name; for local:job/<name> the results are in the job's output\n" \
    "directory already, and are listed there (without log.txt and checkpoints/).\n" \
    "  -o, --output DIR   unpack into DIR instead (it must not exist, or be empty); AWS jobs only\n" \
    "With --json: {\"dir\", \"files\": [...], \"results\"} (results: the results.json data, when present)."
int verb_results(const byoc_globals *g, int argc, char **argv, byoc_err *err);

#endif
