/* jobspec_files: local input data as the SDK uploads it.
 *
 * A local input path is a *prefix* (AwsSession.upload_local_data): every file
 * whose path starts with it is uploaded, and so is every file inside a
 * directory whose path starts with it. Below such a directory, symlinked
 * subdirectories are not followed (pathlib's "**"); symlinked files are. The
 * S3 URI of a file is the channel's S3 prefix followed by the rest of the
 * file's path after the (normalised) local prefix. */
#ifndef BYOC_BYOC_JOBSPEC_FILES_H
#define BYOC_BYOC_JOBSPEC_FILES_H

#include <stddef.h>
#include <stdint.h>

typedef struct byoc_job_local_file {
    char *path;      /* as found, openable from the current directory */
    char *s3_uri;    /* where it goes */
    int64_t size;
} byoc_job_local_file;

/* The files a local prefix matches, sorted by path, mapped under s3_prefix.
 * Returns 0 (possibly with *n == 0), or -1 with why (unreadable directory,
 * a prefix with no name such as "." or "/"). */
int byoc_job_local_input_files(const char *local_prefix, const char *s3_prefix, byoc_job_local_file **out,
                               size_t *n, char *why, size_t why_size);
void byoc_job_local_files_free(byoc_job_local_file *files, size_t n);

/* pathlib's normalisation: "./a//b/" -> "a/b", "" -> "."; malloc'd. */
char *byoc_job_path_normalize(const char *path);
/* pathlib's name of the normalised path ("data/" -> "data"); malloc'd. */
char *byoc_job_path_name(const char *path);
/* pathlib's stem of a name ("algo.py" -> "algo", "a.tar.gz" -> "a.tar", ".rc" -> ".rc"); malloc'd. */
char *byoc_job_path_stem(const char *name);

#endif
