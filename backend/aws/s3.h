/* s3: the Amazon S3 calls byoc needs (rest-xml, SigV4 "s3"), through an
 * aws/client.h client: bucket checks and creation (with the Braket SDK's
 * public-access block and bucket policy), object upload (one PUT, or a
 * multipart upload above a threshold, aborted on any failure), copy, list
 * and download.
 *
 * Addressing follows the client's S3 endpoint (virtual host, or path style
 * with an endpoint override). Keys are given raw; they are encoded here.
 * Bodies that S3 wants checksummed carry Content-MD5. */
#ifndef BYOC_AWS_S3_H
#define BYOC_AWS_S3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_S3_MIN_PART_SIZE (5LL * 1024 * 1024)
#define BYOC_S3_MAX_PART_SIZE (5LL * 1024 * 1024 * 1024)
#define BYOC_S3_MAX_PARTS 10000
#define BYOC_S3_DEFAULT_PART_SIZE (16LL * 1024 * 1024)

/* Split an S3 URI as the Braket SDK's parse_s3_uri does: "s3://bucket/key"
 * (scheme in either case) or "https://bucket.s3.<...>/key"; bucket and key
 * must be non-empty. malloc'd; -1 if s is not such a URI. */
int byoc_s3_parse_uri(const char *s, char **bucket, char **key);

/* HeadBucket. 0 when S3 answered 200 (exists, yours), 301 (exists in another
 * region), 403 (exists, not accessible) or 404 (no such bucket): *status gets
 * it and region (may be NULL, >= 64 bytes) the x-amz-bucket-region header.
 * Other failures: -1. */
int byoc_s3_head_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, long *status, char *region,
                        byoc_err *err);

/* CreateBucket in region (no LocationConstraint for us-east-1). *already_owned
 * (may be NULL) is set when S3 says BucketAlreadyOwnedByYou, which is then not
 * an error; BucketAlreadyExists (someone else's) is. */
int byoc_s3_create_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region,
                          bool *already_owned, byoc_err *err);
/* PutPublicAccessBlock with all four blocks on. */
int byoc_s3_block_public_access(byoc_aws_client *c, byoc_task *t, const char *bucket, byoc_err *err);
/* PutBucketPolicy with a policy document (JSON text). */
int byoc_s3_put_bucket_policy(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *policy,
                              byoc_err *err);
/* The bucket policy the Braket SDK puts on a bucket it creates: braket.amazonaws.com may s3:*. malloc'd. */
char *byoc_s3_braket_bucket_policy(const char *bucket, const char *partition);

/* PutObject from memory. etag (may be NULL, >= 128 bytes) gets the ETag. */
int byoc_s3_put_object(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key, const void *data,
                       size_t len, const char *content_type, char *etag, byoc_err *err);

typedef struct byoc_s3_upload_opts {
    int64_t part_size;        /* 0: $BYOC_S3_PART_SIZE, else 16 MiB; raised to fit 10,000 parts */
    int64_t threshold;        /* multipart above this many bytes; 0: $BYOC_S3_MULTIPART_THRESHOLD, else part_size */
    const char *content_type; /* may be NULL */
    const char *progress_key; /* key of the progress events; NULL: "s3://bucket/key" */
} byoc_s3_upload_opts;

/* Resolve the part size and threshold of opts (NULL: defaults) for a file of
 * `size` bytes. A bad environment value is BYOC_E_USAGE naming it. */
int byoc_s3_upload_plan(const byoc_s3_upload_opts *opts, int64_t size, int64_t *part_size, int64_t *threshold,
                        byoc_err *err);

/* Upload a local file: one PutObject up to the threshold, else a multipart
 * upload of part_size parts (memory: one part). Progress events on t (bytes
 * sent / total). On any failure or cancellation a started multipart upload is
 * aborted. etag may be NULL. */
int byoc_s3_upload_file(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key, const char *path,
                        const byoc_s3_upload_opts *opts, char *etag, byoc_err *err);

/* CopyObject (server side, objects up to 5 GiB). */
int byoc_s3_copy_object(byoc_aws_client *c, byoc_task *t, const char *src_bucket, const char *src_key,
                        const char *dst_bucket, const char *dst_key, byoc_err *err);

typedef struct byoc_s3_object {
    char *key;
    int64_t size;
    char *etag;
    char *last_modified;
} byoc_s3_object;

/* ListObjectsV2 of every key under prefix (all pages, up to max_keys in
 * total; 0: no limit). */
int byoc_s3_list_objects(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *prefix, size_t max_keys,
                         byoc_s3_object **out, size_t *n, byoc_err *err);
void byoc_s3_objects_free(byoc_s3_object *objs, size_t n);

/* A bound on what a download may write. */
typedef struct byoc_s3_get_limit {
    uint64_t max_bytes;          /* 0: none */
    const char *setting;         /* what sets it, named when it refuses ("BYOC_RESULTS_MAX_BYTES"); may be NULL */
} byoc_s3_get_limit;

/* GetObject into a local file (created 0600, replaced). A missing key is
 * BYOC_E_FAILED with code "NoSuchKey". Progress events on t.
 * An object larger than lim->max_bytes (lim may be NULL) or than 95% of the
 * space free where path lies is refused (BYOC_E_FAILED): by its
 * Content-Length before a byte is written, else as soon as the stream
 * passes the bound. On any failure path is removed: no partial file stays. */
int byoc_s3_get_object_to_file(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key,
                               const char *path, const byoc_s3_get_limit *lim, byoc_err *err);

#endif
