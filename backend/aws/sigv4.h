/* sigv4: AWS Signature Version 4 (AWS4-HMAC-SHA256) with OpenSSL.
 *
 * Signs a request given as method + target (the path and query exactly as
 * they go on the wire, e.g. "/job/arn%3Aaws%3A...?x=1") + headers. Two forms:
 *   - header form: adds X-Amz-Date (and X-Amz-Security-Token /
 *     x-amz-content-sha256 where asked) and Authorization to the headers;
 *   - query form (presigned URL): returns the X-Amz-* parameters to append.
 * Plus aws-chunked streaming signatures (S3 uploads), seeded by a header
 * signature.
 *
 * Rules (AWS IAM User Guide, "Create a signed AWS API request"): header names lower-cased and sorted, values
 * trimmed with whitespace runs (also line breaks) collapsed, repeated names
 * joined with ','; user-agent, expect, transfer-encoding, x-amzn-trace-id,
 * connection and authorization are never signed. Query keys/values are
 * decoded, re-encoded (RFC 3986 unreserved kept) and sorted by key, then
 * value. Non-S3 services: the path is normalized (., .., empty segments) and
 * encoded again; S3: the path is used as sent.
 *
 * Derived signing keys can be cached in a byoc_sigv4_cache (memory only,
 * keyed without keeping the secret, wiped on free, thread-safe). */
#ifndef BYOC_AWS_SIGV4_H
#define BYOC_AWS_SIGV4_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/buf.h"
#include "net/http.h"

#define BYOC_SIGV4_EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define BYOC_SIGV4_UNSIGNED_PAYLOAD "UNSIGNED-PAYLOAD"
#define BYOC_SIGV4_STREAMING_PAYLOAD "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"

typedef struct byoc_sigv4_cache byoc_sigv4_cache;

byoc_sigv4_cache *byoc_sigv4_cache_new(void);
void byoc_sigv4_cache_free(byoc_sigv4_cache *c); /* wipes the keys; NULL is fine */

typedef struct byoc_sigv4_params {
    const char *access_key_id;
    const char *secret_access_key;
    const char *session_token;   /* NULL or "" for long-term keys */
    const char *region;          /* signing region */
    const char *service;         /* signing name ("s3", "ecr", "execute-api"...) */
    time_t time;                 /* signing time (UTC epoch); 0 = now */
    bool keep_path;              /* don't normalize the path (S3, or a service that asks) */
    bool single_encode;          /* canonical URI = the path as sent (S3) instead of encoding it again */
    bool omit_session_token;     /* add the token after signing, unsigned */
    bool add_content_sha256;     /* header form: add and sign x-amz-content-sha256 = payload hash */
    long expires;                /* query form: X-Amz-Expires in seconds (1..604800); 0 = 3600 */
    byoc_sigv4_cache *cache;     /* may be NULL */
} byoc_sigv4_params;

/* S3 rules in one go: keep_path, single_encode, add_content_sha256. */
void byoc_sigv4_params_s3(byoc_sigv4_params *p);

/* Everything computed while signing; for tests, debugging and chunked uploads.
 * Release with byoc_sigv4_result_clear. */
typedef struct byoc_sigv4_result {
    char *canonical_request;
    char *string_to_sign;
    char *signed_headers;        /* "host;x-amz-date" */
    char *authorization;         /* header form: the Authorization value */
    char *query;                 /* query form: "X-Amz-Algorithm=...&X-Amz-Signature=..." */
    char signature[65];
    char amz_date[17];           /* 20150830T123600Z */
    char scope[128];             /* 20150830/us-east-1/service/aws4_request */
} byoc_sigv4_result;

void byoc_sigv4_result_clear(byoc_sigv4_result *r);

/* Header form. Sets X-Amz-Date (replacing one present), the session token
 * header, x-amz-content-sha256 when asked, then Authorization (replacing any
 * old one, so a request can be re-signed per attempt). The headers must hold
 * Host. payload_hash: lowercase hex SHA-256 of the body,
 * BYOC_SIGV4_UNSIGNED_PAYLOAD or BYOC_SIGV4_STREAMING_PAYLOAD; NULL = empty
 * body. result may be NULL. Returns 0, or -1 with err (BYOC_E_USAGE) on bad input. */
int byoc_sigv4_sign_headers(const byoc_sigv4_params *p, const char *method, const char *target,
                            byoc_headers *headers, const char *payload_hash,
                            byoc_sigv4_result *result, byoc_err *err);

/* Query form: signs the headers given (at least Host) and the target's query
 * plus X-Amz-Algorithm/Credential/Date/Expires/SignedHeaders (+Security-Token).
 * result->query gets the parameters to append to the target ('?' or '&'),
 * X-Amz-Signature last. result is required. */
int byoc_sigv4_presign(const byoc_sigv4_params *p, const char *method, const char *target,
                       const byoc_headers *headers, const char *payload_hash,
                       byoc_sigv4_result *result, byoc_err *err);

/* Hex SHA-256 of data into out[65]. */
void byoc_sha256_hex(const void *data, size_t n, char out[65]);

/* Percent-encode s for SigV4: keep A-Za-z0-9-_.~ (and '/' when keep_slash),
 * '%XX' upper-case hex for every other byte. Appends to b. */
void byoc_sigv4_encode(byoc_buf *b, const char *s, size_t n, bool keep_slash);

/* aws-chunked streaming (S3 PutObject/UploadPart with
 * x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD). Initialise from
 * the seed request's params and its header signature; every chunk's signature
 * chains from the previous one; finish with a 0-byte chunk. Wipes the derived
 * key in _free. */
typedef struct byoc_sigv4_chunker {
    unsigned char key[32];
    char amz_date[17];
    char scope[128];
    char prev_signature[65];
} byoc_sigv4_chunker;

int byoc_sigv4_chunker_init(byoc_sigv4_chunker *c, const byoc_sigv4_params *p,
                            const byoc_sigv4_result *seed, byoc_err *err);
/* Signature of the next chunk into out[65] (also becomes the chain's previous one). */
void byoc_sigv4_chunk_sign(byoc_sigv4_chunker *c, const void *data, size_t n, char out[65]);
/* Append one framed chunk "<hex size>;chunk-signature=<sig>\r\n<data>\r\n" to b. */
void byoc_sigv4_chunk_frame(byoc_sigv4_chunker *c, const void *data, size_t n, byoc_buf *b);
void byoc_sigv4_chunker_clear(byoc_sigv4_chunker *c);
/* Content-Length of the aws-chunked body for decoded_len bytes cut into chunk_size
 * pieces (final 0-byte chunk included). */
unsigned long long byoc_sigv4_chunked_length(unsigned long long decoded_len, size_t chunk_size);

#endif
