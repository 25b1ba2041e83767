/* results: a job's output, model.tar.gz, fetched and unpacked safely.
 *
 * Where it is: <outputDataConfig.s3Path>/output/model.tar.gz, as the SDK's
 * AwsQuantumJob.download_result reads it (amazon-braket-sdk-python: braket/jobs/quantum_job.py); when
 * that key is missing, the SageMaker layout <s3Path>/<jobName>/output/
 * model.tar.gz is tried once before giving up.
 *
 * Unpacking never writes outside the destination: the archive is unpacked
 * into a fresh directory beside it, renamed into place only when every entry
 * passed, so the destination is either complete or absent. Refused, naming
 * the entry: absolute paths, `..` components, symbolic links whose target is
 * absolute or leads outside the destination, entries below a symbolic link,
 * hard links to anything but a regular file unpacked before them, device
 * nodes, FIFOs and sockets. Owners are never restored and modes pass through
 * the umask (no set-id bits). With skip_unsafe such entries are skipped and
 * listed instead, and the rest is unpacked.
 *
 * Bombs are refused as a whole, before their data is written: more than
 * max_bytes of files in total (holes count: sizes as the archive declares
 * them), more than 95% of the space free on the destination's file system,
 * more than max_ratio bytes unpacked per archive byte read once 64 MiB are
 * unpacked (BYOC_RESULTS_MAX_RATIO), more than max_entries entries. Runs of
 * zeros are written as holes. The download before it (byoc_results_fetch)
 * has the first two bounds: an archive larger than BYOC_RESULTS_MAX_BYTES or
 * than 95% of the free space is refused by its Content-Length, else stopped
 * as it streams, and no partial file stays. */
#ifndef BYOC_BYOC_RESULTS_H
#define BYOC_BYOC_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/strv.h"
#include "core/task.h"

#define BYOC_RESULTS_TARBALL "model.tar.gz"
#define BYOC_RESULTS_JSON "results.json"

#define BYOC_RESULTS_MAX_BYTES_ENV "BYOC_RESULTS_MAX_BYTES"
#define BYOC_RESULTS_MAX_RATIO_ENV "BYOC_RESULTS_MAX_RATIO"

typedef struct byoc_unpack_limits {
    uint64_t max_bytes;          /* total of regular file sizes; 0: $BYOC_RESULTS_MAX_BYTES, else 16 GiB */
    uint64_t max_entries;        /* 0: 1,000,000 */
    uint64_t max_ratio;          /* 0: $BYOC_RESULTS_MAX_RATIO, else 200 */
    bool skip_unsafe;            /* skip and list what would be refused, unpack the rest */
    bool strip_top;              /* the archive holds one directory (the engine's archive of a
                                    path): its contents are the destination, and its links are
                                    judged from there */
} byoc_unpack_limits;

typedef struct byoc_unpacked {
    char *dir;                   /* the destination */
    byoc_strv files;             /* regular files, relative to dir, in archive order */
    byoc_strv links;             /* symbolic links, relative to dir */
    byoc_strv skipped;           /* skip_unsafe: entries skipped (relative to dir when they can be) */
    byoc_strv skipped_why;       /* and why, one for each ("is a FIFO") */
    uint64_t bytes;              /* the files' total size */
} byoc_unpacked;

/* Unpack tarball (tar, optionally gzip/bzip2/xz/zstd) into dest, which must
 * not exist or be an empty directory. lim may be NULL; t (may be NULL) is
 * checked for cancellation between blocks. */
int byoc_results_unpack(const char *tarball, const char *dest, const byoc_unpack_limits *lim, byoc_task *t,
                        byoc_unpacked *out, byoc_err *err);
/* The same, reading the archive from fd as it comes (a pipe or socket: never
 * spooled); name stands for it in messages. fd stays open. */
int byoc_results_unpack_fd(int fd, const char *name, const char *dest, const byoc_unpack_limits *lim,
                           byoc_task *t, byoc_unpacked *out, byoc_err *err);
void byoc_unpacked_clear(byoc_unpacked *u);

/* Does the symbolic link at rel (relative to root) resolve inside root when
 * followed as the kernel does, through any other links on the way? The rule
 * the unpacker applies to every link it wrote; for trees moved elsewhere
 * afterwards, to apply it again where they end up. */
bool byoc_results_link_inside(const char *root, const char *rel);

/* 0 when dest can receive results (absent, or an empty directory); else -1
 * with a message that says how to proceed (BYOC_E_FAILED). */
int byoc_results_check_dest(const char *dest, byoc_err *err);

/* The directory a job's results go to when the user named none:
 * "<parent>/<job_name>" ("./<job_name>" when parent is NULL), malloc'd. The
 * name comes from the service's reply, so it must be a job name by the
 * service's rule (which rules out '/', "." and ".."); else NULL and err
 * (BYOC_E_FAILED) names the rule and says to choose a directory. */
char *byoc_results_dest_for_job(const char *parent, const char *job_name, byoc_err *err);

/* "<s3Path>/output/model.tar.gz" (a trailing '/' of s3Path dropped); malloc'd. */
char *byoc_results_s3_uri(const char *s3_path);

/* Read <dir>/results.json. *out: the SDK's persisted form
 * {"braketSchemaHeader", "dataDictionary", "dataFormat"} gives its
 * dataDictionary, any other JSON document itself; NULL when there is no
 * such file (not an error). -1 if it exists but is not JSON. */
int byoc_results_read_json(const char *dir, json_t **out, byoc_err *err);

/* Download the job's model.tar.gz from S3 (s3_path = its
 * outputDataConfig.s3Path) and unpack it into dest (checked first with
 * byoc_results_check_dest). A job that wrote no results gives BYOC_E_FAILED
 * with err->code "NoSuchKey". The tarball goes through a 0600 temporary file
 * beside dest, removed afterwards. */
int byoc_results_fetch(byoc_aws_client *c, byoc_task *t, const char *job_name, const char *s3_path,
                       const char *dest, byoc_unpacked *out, byoc_err *err);

#endif
