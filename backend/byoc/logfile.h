/* logfile: a log source (logtail.h) over a file that another process
 * appends to: a local job's <output_dir>/log.txt, which `byoc run --local`
 * writes as the container prints. `byoc logs` and the Monitor read local jobs
 * through it as they read CloudWatch for AWS jobs.
 *
 * Each poll delivers the complete lines written since the last one; a last
 * line without its newline waits, unless the poll is final (the job ended).
 * A missing file is no error: no stream yet. Memory is bounded: a line longer
 * than BYOC_LOGFILE_LINE_MAX is delivered in pieces of that size, and a poll
 * reads at most BYOC_LOGFILE_ROUND_MAX bytes (then `more`). The file is
 * opened without following a symlink. */
#ifndef BYOC_BYOC_LOGFILE_H
#define BYOC_BYOC_LOGFILE_H

#include "byoc/logtail.h"

#define BYOC_LOGFILE_LINE_MAX (1u << 20)
#define BYOC_LOGFILE_ROUND_MAX (8u << 20)

/* A source reading path from its start; lines carry no time and no instance. */
byoc_log_source *byoc_log_source_file(const char *path);

#endif
