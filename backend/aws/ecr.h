/* ecr: the Amazon ECR control plane (JSON 1.1, service "ecr", target prefix
 * AmazonEC2ContainerRegistry_V20150921.) through an aws/client.h client.
 *
 * Repositories (create, describe, delete), images (DescribeImages and
 * ListImages over every page, BatchDeleteImage in chunks of 100), repository
 * policies, scan findings, and registry login tokens.
 *
 * Inputs are checked before anything is sent: repository names against the
 * pattern of ECR's current API model (2-256 chars,
 * [a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(\/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*;
 * moto still applies the older, stricter [._-] form),
 * tags against the Docker tag grammar; a bad one is BYOC_E_USAGE naming the
 * field. Service errors keep ECR's code in err->code
 * ("RepositoryNotFoundException", "ImageNotFoundException", ...).
 *
 * Login tokens: GetAuthorizationToken's authorizationToken is base64 of
 * "AWS:<password>". The password is registered with the redactor on receipt
 * and lives in memory only. byoc_ecr_auth caches one token per registry and
 * refreshes it before it expires; a token whose expiresAt is already past (or
 * too close) on arrival — moto's is in 2015 — is trusted for a short fixed
 * window instead, so a refresh happens at most once per window and never
 * loops. */
#ifndef BYOC_AWS_ECR_H
#define BYOC_AWS_ECR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "aws/client.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_ECR_TARGET_PREFIX "AmazonEC2ContainerRegistry_V20150921."

/* ---- names ---- */

/* True when name matches ECR's repository pattern and length; else why (may be NULL) says what is wrong. */
bool byoc_ecr_repository_name_ok(const char *name, char *why, size_t why_size);
/* The same as an error: BYOC_E_USAGE with what = `what` ("--repository"). */
int byoc_ecr_check_repository_name(const char *name, const char *what, byoc_err *err);

/* ---- repositories ---- */

typedef struct byoc_ecr_repository {
    char *name;
    char *arn;
    char *registry_id;
    char *uri;                /* <account>.dkr.ecr.<region>.amazonaws.com/<name> */
    double created_at;        /* epoch seconds */
    char *tag_mutability;     /* "MUTABLE", "IMMUTABLE", ... */
    bool scan_on_push;
    char *encryption_type;    /* "AES256", "KMS", or NULL */
    char *kms_key;
} byoc_ecr_repository;

void byoc_ecr_repository_clear(byoc_ecr_repository *r);
void byoc_ecr_repositories_free(byoc_ecr_repository *r, size_t n);

typedef struct byoc_ecr_tag {
    const char *key;
    const char *value;
} byoc_ecr_tag;

typedef struct byoc_ecr_create_opts {
    const char *name;             /* required */
    bool scan_on_push;
    bool immutable_tags;
    const char *encryption_type;  /* NULL: the service default (AES256); "AES256" or "KMS" */
    const char *kms_key;          /* with KMS: a key ARN or alias; NULL: the AWS managed key */
    const byoc_ecr_tag *tags;
    size_t n_tags;
} byoc_ecr_create_opts;

/* The checks create runs before sending anything (BYOC_E_USAGE naming the flag). */
int byoc_ecr_check_create_opts(const byoc_ecr_create_opts *o, byoc_err *err);
/* Every option is checked first (BYOC_E_USAGE, nothing sent). */
int byoc_ecr_create_repository(byoc_aws_client *c, byoc_task *t, const byoc_ecr_create_opts *o,
                               byoc_ecr_repository *out, byoc_err *err);
/* One repository. A missing one is BYOC_E_FAILED with code RepositoryNotFoundException. */
int byoc_ecr_describe_repository(byoc_aws_client *c, byoc_task *t, const char *name, byoc_ecr_repository *out,
                                 byoc_err *err);
/* Named repositories (n_names <= 100), or every repository when n_names is 0, over every page. */
int byoc_ecr_describe_repositories(byoc_aws_client *c, byoc_task *t, const char *const *names, size_t n_names,
                                   byoc_ecr_repository **out, size_t *n, byoc_err *err);
/* force: delete the images too. */
int byoc_ecr_delete_repository(byoc_aws_client *c, byoc_task *t, const char *name, bool force, byoc_err *err);

/* ---- images ---- */

typedef struct byoc_ecr_image_id {
    char *digest;             /* may be NULL in a request (then tag) */
    char *tag;                /* NULL for an untagged image */
} byoc_ecr_image_id;

typedef struct byoc_ecr_image {
    char *digest;
    char **tags;              /* NULL-terminated, n_tags entries */
    size_t n_tags;
    int64_t size;             /* imageSizeInBytes (compressed layers), -1 if absent */
    double pushed_at;         /* epoch seconds, 0 if absent */
    char *manifest_media_type;
    char *scan_status;        /* imageScanStatus.status, or NULL */
    char *scan_findings;      /* imageScanFindingsSummary's counts, most severe first
                               * ("1 CRITICAL, 3 HIGH"; "none" when it found nothing), or NULL */
} byoc_ecr_image;

/* An imageScanFindingsSummary's findingSeverityCounts as text, most severe
 * first ("1 CRITICAL, 3 HIGH"; "none" when every count is 0); NULL when it
 * has no counts. malloc'd. */
char *byoc_ecr_findings_summary(const json_t *summary);

typedef enum {
    BYOC_ECR_TAG_STATUS_ANY,
    BYOC_ECR_TAG_STATUS_TAGGED,
    BYOC_ECR_TAG_STATUS_UNTAGGED,
} byoc_ecr_tag_status;

typedef struct byoc_ecr_image_list {
    byoc_ecr_image *items;
    size_t n;
    unsigned pages;           /* how many requests it took */
} byoc_ecr_image_list;

void byoc_ecr_image_list_clear(byoc_ecr_image_list *l);
/* Append the images of one DescribeImages reply to l (zeroed first by the caller): entries that are
 * not objects are skipped; any field may be missing or of another type (then NULL, -1 or 0). */
void byoc_ecr_images_from_reply(const json_t *reply, byoc_ecr_image_list *l);

/* DescribeImages. With ids (n_ids <= 100) those images (no paging: the service
 * forbids it); else every image over every page of page_size (0: the service
 * default, 100). A missing image among ids is ImageNotFoundException. */
int byoc_ecr_describe_images(byoc_aws_client *c, byoc_task *t, const char *repository,
                             const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_tag_status filter,
                             int page_size, byoc_ecr_image_list *out, byoc_err *err);
/* As byoc_ecr_describe_images with ids, in registry_id's repository: another
 * account's registry (12 digits), or NULL for the caller's. */
int byoc_ecr_describe_images_in(byoc_aws_client *c, byoc_task *t, const char *registry_id, const char *repository,
                                const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_image_list *out, byoc_err *err);

typedef struct byoc_ecr_image_id_list {
    byoc_ecr_image_id *items;
    size_t n;
    unsigned pages;
} byoc_ecr_image_id_list;

void byoc_ecr_image_id_list_clear(byoc_ecr_image_id_list *l);

/* ListImages over every page (page_size 0: the service default). */
int byoc_ecr_list_images(byoc_aws_client *c, byoc_task *t, const char *repository, byoc_ecr_tag_status filter,
                         int page_size, byoc_ecr_image_id_list *out, byoc_err *err);

typedef struct byoc_ecr_delete_failure {
    char *digest;
    char *tag;
    char *code;               /* failureCode ("ImageNotFound", ...) */
    char *reason;
} byoc_ecr_delete_failure;

typedef struct byoc_ecr_delete_result {
    size_t deleted;           /* image ids the service reported deleted */
    byoc_ecr_delete_failure *failures;
    size_t n_failures;
} byoc_ecr_delete_result;

void byoc_ecr_delete_result_clear(byoc_ecr_delete_result *r);

/* BatchDeleteImage in requests of at most 100 ids. Per-image failures are in
 * out (the call still returns 0: the service answers 200 for them). */
int byoc_ecr_batch_delete_image(byoc_aws_client *c, byoc_task *t, const char *repository,
                                const byoc_ecr_image_id *ids, size_t n_ids, byoc_ecr_delete_result *out,
                                byoc_err *err);

/* {"images": [{"repository" (the repository URI), "image_uri", "tags", "digest",
 * "size", "created" (pushed at, RFC 3339 UTC), "media_type", "scan_status"}]},
 * newest first. repository_uri: the repository's URI (or its name). Caller decrefs. */
json_t *byoc_ecr_images_json(const char *repository_uri, const byoc_ecr_image_list *l);

/* What `byoc images --repository NAME` shows: the repository's URI (DescribeRepositories) and
 * every image (DescribeImages, all pages) as byoc_ecr_images_json. Caller decrefs *out. */
int byoc_ecr_repository_images_json(byoc_aws_client *c, byoc_task *t, const char *repository, json_t **out,
                                    byoc_err *err);

/* ---- repository policies ---- */

/* *text gets the policy text (malloc'd), or NULL when the repository has none. */
int byoc_ecr_get_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, char **text,
                                   byoc_err *err);
/* force: allow a policy that would lock the caller out. Text > 10240 chars is BYOC_E_USAGE. */
int byoc_ecr_set_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, const char *text,
                                   bool force, byoc_err *err);
/* No policy to delete is not an error. */
int byoc_ecr_delete_repository_policy(byoc_aws_client *c, byoc_task *t, const char *repository, byoc_err *err);

/* ---- scan findings ---- */

/* DescribeImageScanFindings over every page, merged:
 * {"status", "description", "completed_at", "severity_counts": {...},
 *  "findings": [{"name", "severity", "uri", "description"}]}. Caller decrefs *out. */
int byoc_ecr_describe_image_scan_findings(byoc_aws_client *c, byoc_task *t, const char *repository,
                                          const byoc_ecr_image_id *image, json_t **out, byoc_err *err);

/* ---- registry login ---- */

/* Refresh this long before expiresAt. */
#define BYOC_ECR_TOKEN_MARGIN_S (5 * 60)
/* A token that arrives expired, or with less than two margins to live, is trusted for this long. */
#define BYOC_ECR_TOKEN_FALLBACK_WINDOW_S (5 * 60)
/* A forced refresh (the registry refused the token) happens at most once in this long. */
#define BYOC_ECR_TOKEN_FORCE_INTERVAL_S 10

typedef struct byoc_ecr_token {
    char *username;           /* "AWS" */
    char *password;           /* secret (registered with the redactor) */
    char *proxy_endpoint;     /* "https://<account>.dkr.ecr.<region>.amazonaws.com" */
    char *registry_host;      /* proxy_endpoint without scheme and path */
    time_t expires_at;        /* as the service says */
    time_t fetched_at;
    time_t valid_until;       /* when byoc refreshes it (byoc_ecr_token_valid_until) */
} byoc_ecr_token;

void byoc_ecr_token_clear(byoc_ecr_token *tok);   /* wipes */

/* When a token fetched at fetched_at with the service's expires_at should be refreshed. */
time_t byoc_ecr_token_valid_until(time_t fetched_at, time_t expires_at);

/* GetAuthorizationToken for registry_id (NULL: the caller's account); now: the fetch time. */
int byoc_ecr_get_authorization_token(byoc_aws_client *c, byoc_task *t, const char *registry_id, time_t now,
                                     byoc_ecr_token *out, byoc_err *err);

/* A token cache for one registry, shared by tasks (thread-safe). */
typedef struct byoc_ecr_auth byoc_ecr_auth;

/* client is borrowed; registry_id may be NULL (the caller's account). */
byoc_ecr_auth *byoc_ecr_auth_new(byoc_aws_client *client, const char *registry_id);
void byoc_ecr_auth_free(byoc_ecr_auth *a);
/* A copy of a token valid at `now` (0: time(NULL)), fetching one when none is
 * cached or the cached one is past valid_until. force: fetch anew (after the
 * registry refused the token), at most once per BYOC_ECR_TOKEN_FORCE_INTERVAL_S. */
int byoc_ecr_auth_get(byoc_ecr_auth *a, byoc_task *t, time_t now, bool force, byoc_ecr_token *out, byoc_err *err);
/* How many GetAuthorizationToken calls the cache has made. */
unsigned byoc_ecr_auth_fetches(byoc_ecr_auth *a);

#endif
