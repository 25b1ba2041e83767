#include "aws/s3.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aws/pager.h"
#include "aws/sigv4.h"
#include "core/buf.h"
#include "core/fs.h"
#include "core/log.h"
#include "core/utf8.h"

#define S3_NS "http://s3.amazonaws.com/doc/2006-03-01/"

/* ---- URIs ------------------------------------------------------------------------- */

int byoc_s3_parse_uri(const char *s, char **bucket, char **key)
{
    *bucket = *key = NULL;
    const char *b, *k;
    size_t bl;
    if (strncasecmp(s, "s3://", 5) == 0) {
        /* ^[sS]3://([^./]+)/(.*)$ */
        b = s + 5;
        bl = strcspn(b, "/");
        if (memchr(b, '.', bl))
            return -1;
        if (b[bl] != '/')
            return -1;
        k = b + bl + 1;
    } else if (strncmp(s, "https://", 8) == 0) {
        /* ^https://([^./]+).[sS]3.[^/]+/(.*)$ */
        b = s + 8;
        bl = strcspn(b, "./");
        if (b[bl] != '.' || strncasecmp(b + bl + 1, "s3", 2) != 0 || !b[bl + 3] || b[bl + 3] == '/')
            return -1;
        const char *rest = b + bl + 4;
        size_t hl = strcspn(rest, "/");
        if (hl == 0 || rest[hl] != '/')
            return -1;
        k = rest + hl + 1;
    } else {
        return -1;
    }
    if (bl == 0 || !*k || strchr(k, '\n'))
        return -1;
    *bucket = byoc_xstrndup(b, bl);
    *key = byoc_xstrdup(k);
    return 0;
}

/* ---- plumbing --------------------------------------------------------------------- */

static char *s3_url(byoc_aws_client *c, const char *bucket, const char *key, const char *query, byoc_err *err)
{
    const byoc_aws_endpoint *ep;
    if (byoc_aws_client_endpoint(c, BYOC_AWS_S3, &ep, err) != 0)
        return NULL;
    char *u = byoc_aws_s3_url(ep, bucket, key);
    if (query && *query) {
        char *q = byoc_xasprintf("%s?%s", u, query);
        free(u);
        return q;
    }
    return u;
}

static void content_md5(const void *data, size_t len, char out[32])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    EVP_Digest(data, len, md, &mdlen, EVP_md5(), NULL);
    EVP_EncodeBlock((unsigned char *)out, md, (int)mdlen);
}

typedef struct {
    const char *op;
    const char *method;
    const char *bucket;
    const char *key;      /* NULL: the bucket */
    const char *query;
    const void *body;
    size_t body_len;
    bool md5;
    const char *content_type;
    const byoc_headers *headers;
    bool long_running;    /* the service may work minutes before it answers: no API deadline */
} s3_req;

static int s3_do(byoc_aws_client *c, byoc_task *t, const s3_req *r, byoc_aws_response *resp, byoc_err *err)
{
    if (resp)
        memset(resp, 0, sizeof *resp);
    char *url = s3_url(c, r->bucket, r->key, r->query, err);
    if (!url)
        return -1;
    byoc_headers h = {0};
    if (r->headers)
        for (size_t i = 0; i < r->headers->len; i++)
            byoc_headers_add(&h, r->headers->items[i].name, r->headers->items[i].value);
    if (r->md5) {
        char md5[32];
        content_md5(r->body ? r->body : "", r->body_len, md5);
        byoc_headers_set(&h, "Content-MD5", md5);
    }
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML,
                          .operation = r->op,
                          .method = r->method,
                          .url = url,
                          .content_type = r->content_type,
                          .headers = &h,
                          .body = r->body,
                          .body_len = r->body_len,
                          .timeout_ms = r->long_running ? -1 : 0};
    int rc = byoc_aws_call_do(c, t, BYOC_AWS_S3, &call, resp, err);
    byoc_headers_clear(&h);
    free(url);
    return rc;
}

static void copy_etag(const byoc_aws_response *resp, char *etag)
{
    if (!etag)
        return;
    const char *v = byoc_headers_get(&resp->headers, "ETag");
    byoc_utf8_copy(etag, 128, v);
}

/* ---- buckets ---------------------------------------------------------------------- */

int byoc_s3_head_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, long *status, char *region,
                        byoc_err *err)
{
    *status = 0;
    if (region)
        region[0] = '\0';
    byoc_aws_response resp;
    s3_req r = {.op = "HeadBucket", .method = "HEAD", .bucket = bucket};
    int rc = s3_do(c, t, &r, &resp, err);
    long st = resp.status;
    if (region) {
        const char *v = byoc_headers_get(&resp.headers, "x-amz-bucket-region");
        byoc_utf8_copy(region, 64, v);
    }
    byoc_aws_response_clear(&resp);
    if (rc == 0 || st == 301 || st == 403 || st == 404) {
        *status = st;
        byoc_err_clear(err);
        return 0;
    }
    return -1;
}

int byoc_s3_create_bucket(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *region,
                          bool *already_owned, byoc_err *err)
{
    if (already_owned)
        *already_owned = false;
    char *body = NULL;
    if (region && strcmp(region, "us-east-1") != 0)
        body = byoc_xasprintf("<CreateBucketConfiguration xmlns=\"" S3_NS "\"><LocationConstraint>%s</LocationConstraint>"
                              "</CreateBucketConfiguration>",
                              region);
    s3_req r = {.op = "CreateBucket",
                .method = "PUT",
                .bucket = bucket,
                .body = body,
                .body_len = body ? strlen(body) : 0,
                .content_type = body ? "application/xml" : NULL};
    int rc = s3_do(c, t, &r, NULL, err);
    free(body);
    if (rc != 0 && strcmp(err->code, "BucketAlreadyOwnedByYou") == 0) {
        if (already_owned)
            *already_owned = true;
        byoc_err_clear(err);
        return 0;
    }
    if (rc != 0 && strcmp(err->code, "BucketAlreadyExists") == 0)
        byoc_err_set(err, BYOC_E_FAILED, "s3",
                     "bucket %s already exists for another account: choose other S3 locations "
                     "(--output-s3, --checkpoint-s3, --code-location)",
                     bucket);
    return rc;
}

int byoc_s3_block_public_access(byoc_aws_client *c, byoc_task *t, const char *bucket, byoc_err *err)
{
    static const char BODY[] = "<PublicAccessBlockConfiguration xmlns=\"" S3_NS "\">"
                               "<BlockPublicAcls>true</BlockPublicAcls><IgnorePublicAcls>true</IgnorePublicAcls>"
                               "<BlockPublicPolicy>true</BlockPublicPolicy>"
                               "<RestrictPublicBuckets>true</RestrictPublicBuckets>"
                               "</PublicAccessBlockConfiguration>";
    s3_req r = {.op = "PutPublicAccessBlock",
                .method = "PUT",
                .bucket = bucket,
                .query = "publicAccessBlock",
                .body = BODY,
                .body_len = sizeof BODY - 1,
                .md5 = true,
                .content_type = "application/xml"};
    return s3_do(c, t, &r, NULL, err);
}

int byoc_s3_put_bucket_policy(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *policy,
                              byoc_err *err)
{
    s3_req r = {.op = "PutBucketPolicy",
                .method = "PUT",
                .bucket = bucket,
                .query = "policy",
                .body = policy,
                .body_len = strlen(policy),
                .md5 = true,
                .content_type = "application/json"};
    return s3_do(c, t, &r, NULL, err);
}

char *byoc_s3_braket_bucket_policy(const char *bucket, const char *partition)
{
    const char *p = partition && *partition ? partition : "aws";
    return byoc_xasprintf("{\"Version\": \"2012-10-17\", \"Statement\": [{\"Effect\": \"Allow\", "
                          "\"Principal\": {\"Service\": [\"braket.amazonaws.com\"]}, \"Action\": \"s3:*\", "
                          "\"Resource\": [\"arn:%s:s3:::%s\", \"arn:%s:s3:::%s/*\"]}]}",
                          p, bucket, p, bucket);
}

/* ---- objects ------------------------------------------------------------------------ */

int byoc_s3_put_object(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key, const void *data,
                       size_t len, const char *content_type, char *etag, byoc_err *err)
{
    byoc_aws_response resp;
    s3_req r = {.op = "PutObject",
                .method = "PUT",
                .bucket = bucket,
                .key = key,
                .body = data,
                .body_len = len,
                .md5 = true,
                .content_type = content_type};
    int rc = s3_do(c, t, &r, &resp, err);
    if (rc == 0)
        copy_etag(&resp, etag);
    byoc_aws_response_clear(&resp);
    return rc;
}

static int byoc_s3_multipart_create(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key,
                                    const char *content_type, char **upload_id, byoc_err *err)
{
    *upload_id = NULL;
    byoc_aws_response resp;
    s3_req r = {.op = "CreateMultipartUpload",
                .method = "POST",
                .bucket = bucket,
                .key = key,
                .query = "uploads",
                .content_type = content_type};
    int rc = s3_do(c, t, &r, &resp, err);
    if (rc == 0) {
        byoc_aws_xml *doc = byoc_aws_xml_parse(resp.body.data, resp.body.len);
        char *id = doc ? byoc_aws_xml_text(byoc_aws_xml_root(doc), "UploadId") : NULL;
        if (doc)
            byoc_aws_xml_free(doc);
        if (!id || !*id) {
            free(id);
            rc = byoc_err_set(err, BYOC_E_FAILED, "s3", "CreateMultipartUpload: the reply has no UploadId");
        } else {
            *upload_id = id;
        }
    }
    byoc_aws_response_clear(&resp);
    return rc;
}

static char *part_query(const char *upload_id, int part_number)
{
    byoc_buf q = BYOC_BUF_INIT;
    if (part_number > 0)
        byoc_buf_printf(&q, "partNumber=%d&", part_number);
    byoc_buf_puts(&q, "uploadId=");
    byoc_sigv4_encode(&q, upload_id, strlen(upload_id), false);
    return byoc_buf_steal(&q);
}

static int byoc_s3_multipart_upload_part(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key,
                                         const char *upload_id, int part_number, const void *data, size_t len,
                                         char *etag, byoc_err *err)
{
    char *q = part_query(upload_id, part_number);
    byoc_aws_response resp;
    s3_req r = {.op = "UploadPart",
                .method = "PUT",
                .bucket = bucket,
                .key = key,
                .query = q,
                .body = data,
                .body_len = len,
                .md5 = true};
    int rc = s3_do(c, t, &r, &resp, err);
    free(q);
    if (rc != 0)
        byoc_err_prefix(err, "part %d of s3://%s/%s", part_number, bucket, key);
    if (rc == 0) {
        copy_etag(&resp, etag);
        if (etag && !*etag)
            rc = byoc_err_set(err, BYOC_E_FAILED, "s3", "UploadPart %d: the reply has no ETag", part_number);
    }
    byoc_aws_response_clear(&resp);
    return rc;
}

static void xml_escape(byoc_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': byoc_buf_puts(b, "&amp;"); break;
        case '<': byoc_buf_puts(b, "&lt;"); break;
        case '>': byoc_buf_puts(b, "&gt;"); break;
        case '"': byoc_buf_puts(b, "&quot;"); break;
        default: byoc_buf_putc(b, *s);
        }
    }
}

/* etags[i] is part i+1's ETag (quotes kept). */
static int byoc_s3_multipart_complete(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key,
                                      const char *upload_id, char *const *etags, int n_parts, byoc_err *err)
{
    byoc_buf body = BYOC_BUF_INIT;
    byoc_buf_puts(&body, "<CompleteMultipartUpload xmlns=\"" S3_NS "\">");
    for (int i = 0; i < n_parts; i++) {
        byoc_buf_printf(&body, "<Part><PartNumber>%d</PartNumber><ETag>", i + 1);
        xml_escape(&body, etags[i]);
        byoc_buf_puts(&body, "</ETag></Part>");
    }
    byoc_buf_puts(&body, "</CompleteMultipartUpload>");
    char *q = part_query(upload_id, 0);
    s3_req r = {.op = "CompleteMultipartUpload",
                .long_running = true,
                .method = "POST",
                .bucket = bucket,
                .key = key,
                .query = q,
                .body = body.data,
                .body_len = body.len,
                .content_type = "application/xml"};
    int rc = s3_do(c, t, &r, NULL, err);
    free(q);
    byoc_buf_clear(&body);
    return rc;
}

static int byoc_s3_multipart_abort(byoc_aws_client *c, const char *bucket, const char *key, const char *upload_id,
                                   byoc_err *err)
{
    char *q = part_query(upload_id, 0);
    s3_req r = {.op = "AbortMultipartUpload", .method = "DELETE", .bucket = bucket, .key = key, .query = q};
    /* No task: an abort must run even when the upload was cancelled. */
    int rc = s3_do(c, NULL, &r, NULL, err);
    free(q);
    return rc;
}

/* ---- uploading a file ------------------------------------------------------------------ */

static int env_size(const char *name, int64_t *out, byoc_err *err)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (errno || *end || n <= 0)
        return byoc_err_set(err, BYOC_E_USAGE, name, "must be a positive number of bytes, not '%s'", v);
    *out = n;
    return 0;
}

int byoc_s3_upload_plan(const byoc_s3_upload_opts *opts, int64_t size, int64_t *part_size, int64_t *threshold,
                        byoc_err *err)
{
    int64_t part = opts && opts->part_size ? opts->part_size : 0;
    int64_t thr = opts && opts->threshold ? opts->threshold : 0;
    if (!part && env_size("BYOC_S3_PART_SIZE", &part, err) != 0)
        return -1;
    if (!thr && env_size("BYOC_S3_MULTIPART_THRESHOLD", &thr, err) != 0)
        return -1;
    if (!part)
        part = BYOC_S3_DEFAULT_PART_SIZE;
    if (part < BYOC_S3_MIN_PART_SIZE)
        part = BYOC_S3_MIN_PART_SIZE;
    if (part > BYOC_S3_MAX_PART_SIZE)
        part = BYOC_S3_MAX_PART_SIZE;
    while (size / part >= BYOC_S3_MAX_PARTS && part < BYOC_S3_MAX_PART_SIZE)
        part *= 2;
    if (!thr)
        thr = part;
    if (thr > BYOC_S3_MAX_PART_SIZE)
        thr = BYOC_S3_MAX_PART_SIZE;
    *part_size = part;
    *threshold = thr;
    return 0;
}

static int read_full(int fd, char *buf, size_t n, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = read(fd, buf + *got, n - *got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return 0;
}

int byoc_s3_upload_file(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key, const char *path,
                        const byoc_s3_upload_opts *opts, char *etag, byoc_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return byoc_err_set(err, BYOC_E_USAGE, "s3", "cannot read %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return byoc_err_set(err, BYOC_E_USAGE, "s3", "%s is not a regular file", path);
    }
    int64_t size = (int64_t)st.st_size, part, threshold;
    if (byoc_s3_upload_plan(opts, size, &part, &threshold, err) != 0) {
        close(fd);
        return -1;
    }
    char *pkey = opts && opts->progress_key ? byoc_xstrdup(opts->progress_key)
                                            : byoc_xasprintf("s3://%s/%s", bucket, key);
    const char *ctype = opts ? opts->content_type : NULL;
    int rc = 0;
    byoc_task_progress(t, pkey, 0, size, "uploading");
    if (size <= threshold) {
        char *buf = byoc_xmalloc(size ? (size_t)size : 1);
        size_t got;
        if (read_full(fd, buf, (size_t)size, &got) != 0 || (int64_t)got != size)
            rc = byoc_err_set(err, BYOC_E_USAGE, "s3", "cannot read %s: %s", path,
                              (int64_t)got != size ? "the file changed while it was read" : strerror(errno));
        else
            rc = byoc_s3_put_object(c, t, bucket, key, buf, (size_t)size, ctype, etag, err);
        free(buf);
        if (rc == 0)
            byoc_task_progress(t, pkey, size, size, "uploaded");
        close(fd);
        free(pkey);
        return rc;
    }

    char *upload_id = NULL;
    if (byoc_s3_multipart_create(c, t, bucket, key, ctype, &upload_id, err) != 0) {
        close(fd);
        free(pkey);
        return -1;
    }
    int n_parts = (int)((size + part - 1) / part);
    char **etags = byoc_xcalloc((size_t)n_parts, sizeof *etags);
    char *buf = byoc_xmalloc((size_t)part);
    int64_t sent = 0;
    for (int i = 0; i < n_parts && rc == 0; i++) {
        size_t want = (size_t)(size - sent < part ? size - sent : part), got;
        if (read_full(fd, buf, want, &got) != 0 || got != want) {
            rc = byoc_err_set(err, BYOC_E_USAGE, "s3", "cannot read %s: %s", path,
                              got != want ? "the file changed while it was read" : strerror(errno));
            break;
        }
        etags[i] = byoc_xmalloc(128);
        rc = byoc_s3_multipart_upload_part(c, t, bucket, key, upload_id, i + 1, buf, got, etags[i], err);
        if (rc == 0) {
            sent += (int64_t)got;
            byoc_task_progress(t, pkey, sent, size, "uploading");
        }
    }
    if (rc == 0)
        rc = byoc_s3_multipart_complete(c, t, bucket, key, upload_id, etags, n_parts, err);
    if (rc != 0) {
        byoc_err abort_err;
        byoc_err_clear(&abort_err);
        if (byoc_s3_multipart_abort(c, bucket, key, upload_id, &abort_err) != 0) {
            char line[900];
            byoc_log(BYOC_LOG_WARN, "s3: could not abort the multipart upload %s of s3://%s/%s: %s", upload_id,
                     bucket, key, byoc_err_format(&abort_err, line, sizeof line));
            byoc_err_prefix(err, "the incomplete multipart upload %s of s3://%s/%s could not be aborted either",
                            upload_id, bucket, key);
        }
    } else {
        byoc_task_progress(t, pkey, size, size, "uploaded");
        if (etag)
            snprintf(etag, 128, "(multipart, %d parts)", n_parts);
    }
    for (int i = 0; i < n_parts; i++)
        free(etags[i]);
    free(etags);
    free(buf);
    free(upload_id);
    free(pkey);
    close(fd);
    return rc;
}

/* ---- copy, list, get --------------------------------------------------------------------- */

int byoc_s3_copy_object(byoc_aws_client *c, byoc_task *t, const char *src_bucket, const char *src_key,
                        const char *dst_bucket, const char *dst_key, byoc_err *err)
{
    byoc_buf src = BYOC_BUF_INIT;
    byoc_buf_putc(&src, '/');
    byoc_sigv4_encode(&src, src_bucket, strlen(src_bucket), false);
    byoc_buf_putc(&src, '/');
    byoc_sigv4_encode(&src, src_key, strlen(src_key), true);
    byoc_headers h = {0};
    byoc_headers_add(&h, "x-amz-copy-source", src.data);
    s3_req r = {.op = "CopyObject", .long_running = true, .method = "PUT", .bucket = dst_bucket, .key = dst_key, .headers = &h};
    int rc = s3_do(c, t, &r, NULL, err);
    byoc_headers_clear(&h);
    byoc_buf_clear(&src);
    return rc;
}

void byoc_s3_objects_free(byoc_s3_object *objs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(objs[i].key);
        free(objs[i].etag);
        free(objs[i].last_modified);
    }
    free(objs);
}

int byoc_s3_list_objects(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *prefix, size_t max_keys,
                         byoc_s3_object **out, size_t *n, byoc_err *err)
{
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    byoc_aws_pager pager;
    byoc_aws_pager_init(&pager, "ListObjectsV2");
    int rc = 0, more = 0;
    do {
        byoc_buf q = BYOC_BUF_INIT;
        if (pager.token) {
            byoc_buf_puts(&q, "continuation-token=");
            byoc_sigv4_encode(&q, pager.token, strlen(pager.token), false);
            byoc_buf_putc(&q, '&');
        }
        byoc_buf_puts(&q, "list-type=2");
        if (prefix && *prefix) {
            byoc_buf_puts(&q, "&prefix=");
            byoc_sigv4_encode(&q, prefix, strlen(prefix), false);
        }
        byoc_aws_response resp;
        s3_req r = {.op = "ListObjectsV2", .method = "GET", .bucket = bucket, .query = q.data};
        rc = s3_do(c, t, &r, &resp, err);
        byoc_buf_clear(&q);
        if (rc != 0) {
            byoc_aws_response_clear(&resp);
            break;
        }
        byoc_aws_xml *doc = byoc_aws_xml_parse(resp.body.data, resp.body.len);
        byoc_aws_response_clear(&resp);
        byoc_aws_xml *root = doc ? byoc_aws_xml_root(doc) : NULL;
        if (!root) {
            if (doc)
                byoc_aws_xml_free(doc);
            rc = byoc_err_set(err, BYOC_E_FAILED, "s3", "ListObjectsV2: the reply is not XML");
            break;
        }
        for (byoc_aws_xml *e = root->children; e; e = e->next) {
            if (strcmp(e->name, "Contents") != 0)
                continue;
            if (max_keys && *n >= max_keys)
                break;
            if (*n == cap) {
                cap = cap ? cap * 2 : 64;
                *out = byoc_xrealloc(*out, cap * sizeof **out);
            }
            byoc_s3_object *o = &(*out)[(*n)++];
            o->key = byoc_aws_xml_text(e, "Key");
            o->etag = byoc_aws_xml_text(e, "ETag");
            o->last_modified = byoc_aws_xml_text(e, "LastModified");
            char *size = byoc_aws_xml_text(e, "Size");
            o->size = size ? strtoll(size, NULL, 10) : 0;
            free(size);
            if (!o->key)
                o->key = byoc_xstrdup("");
        }
        more = byoc_aws_pager_next_xml(&pager, !max_keys || *n < max_keys ? root : NULL, "NextContinuationToken",
                                       err);
        byoc_aws_xml_free(doc);
        if (more < 0)
            rc = -1;
    } while (rc == 0 && more);
    byoc_aws_pager_clear(&pager);
    if (rc != 0) {
        byoc_s3_objects_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

typedef struct {
    int fd;
    int64_t written, total;
    byoc_task *task;
    const char *key;
} file_sink;

static int write_sink(const char *p, size_t n, void *ud)
{
    file_sink *s = ud;
    while (n) {
        ssize_t w = write(s->fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
        s->written += w;
    }
    byoc_task_progress(s->task, s->key, s->written, s->total, "downloading");
    return 0;
}

/* A retry after a partial download starts the file again. */
static int rewind_file_sink(void *ud)
{
    file_sink *s = ud;
    if (ftruncate(s->fd, 0) != 0 || lseek(s->fd, 0, SEEK_SET) != 0)
        return -1;
    s->written = 0;
    return 0;
}

int byoc_s3_get_object_to_file(byoc_aws_client *c, byoc_task *t, const char *bucket, const char *key,
                               const char *path, const byoc_s3_get_limit *lim, byoc_err *err)
{
    char *url = s3_url(c, bucket, key, NULL, err);
    if (!url)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        free(url);
        return byoc_err_set(err, BYOC_E_FAILED, "s3", "cannot create %s: %s", path, strerror(errno));
    }
    uint64_t disk = byoc_fs_space_cap(path);
    bool by_setting = lim && lim->max_bytes && lim->max_bytes <= disk;
    uint64_t max = by_setting ? lim->max_bytes : disk;
    char *pkey = byoc_xasprintf("s3://%s/%s", bucket, key);
    file_sink s = {.fd = fd, .total = -1, .task = t, .key = pkey};
    byoc_aws_call call = {.protocol = BYOC_AWS_REST_XML,
                          .operation = "GetObject",
                          .method = "GET",
                          .url = url,
                          .sink = write_sink,
                          .sink_ud = &s,
                          .sink_rewind = rewind_file_sink,
                          .max_body = max < SIZE_MAX ? (size_t)max : SIZE_MAX};
    byoc_aws_response resp;
    int rc = byoc_aws_call_do(c, t, BYOC_AWS_S3, &call, &resp, err);
    if (rc != 0 && resp.too_large) {
        if (by_setting)
            byoc_err_set(err, BYOC_E_FAILED, "s3",
                         "%s is larger than %llu bytes: the download was stopped and nothing kept%s%s%s", pkey,
                         (unsigned long long)max, lim->setting ? " (" : "", lim->setting ? lim->setting : "",
                         lim->setting ? " sets the limit)" : "");
        else
            byoc_err_set(err, BYOC_E_FAILED, "s3",
                         "%s is larger than the space byoc may use beside %s (%llu bytes, 95%% of what is free): the "
                         "download was stopped and nothing kept",
                         pkey, path, (unsigned long long)max);
    }
    byoc_aws_response_clear(&resp);
    if (close(fd) != 0 && rc == 0)
        rc = byoc_err_set(err, BYOC_E_FAILED, "s3", "cannot write %s: %s", path, strerror(errno));
    if (rc != 0)
        unlink(path);
    free(pkey);
    free(url);
    return rc;
}
