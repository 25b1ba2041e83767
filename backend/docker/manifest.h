/* manifest: read an image's manifest and config straight from a registry
 * (HTTP API v2), as ECR or any v2 registry serves them.
 *
 * GET https://<host>/v2/<repository>/manifests/<tag|digest> with an Accept
 * header listing the Docker v2 manifest, Docker manifest list, OCI manifest
 * and OCI index types, Basic auth (for ECR: "AWS" and the token's password).
 * TLS trust: the target's ca_bundle, else the Docker engine's per-registry
 * CA /etc/docker/certs.d/<host>/ca.crt (BYOC_DOCKER_CERTS_D moves that
 * directory), else AWS_CA_BUNDLE, else the system store.
 *
 * The manifest's digest is the sha256 of the exact bytes received (checked
 * against Docker-Content-Digest when the registry sends one).
 *
 * Bounds, as on any API call: a reply within BYOC_API_TIMEOUT seconds, and
 * at most BYOC_REGISTRY_MANIFEST_MAX bytes for a manifest or index (refused
 * by its Content-Length before it is read, else once passed). The OCI
 * distribution spec asks registries to accept manifests of at least 4 MiB,
 * so no image byoc can push or pull has a larger one. */
#ifndef BYOC_DOCKER_MANIFEST_H
#define BYOC_DOCKER_MANIFEST_H
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "core/buf.h"
#include "core/err.h"
#include "core/task.h"

#define BYOC_REGISTRY_MANIFEST_MAX (4u << 20)

#define BYOC_MT_DOCKER_MANIFEST "application/vnd.docker.distribution.manifest.v2+json"
#define BYOC_MT_DOCKER_LIST "application/vnd.docker.distribution.manifest.list.v2+json"
#define BYOC_MT_OCI_MANIFEST "application/vnd.oci.image.manifest.v1+json"
#define BYOC_MT_OCI_INDEX "application/vnd.oci.image.index.v1+json"

typedef struct byoc_registry_target {
    const char *host;         /* "<acct>.dkr.ecr.<region>.amazonaws.com" or host:port */
    const char *username;     /* NULL: anonymous */
    const char *password;     /* secret */
    const char *ca_bundle;    /* NULL: see above */
    bool plain_http;          /* http:// instead of https:// (loopback registries) */
} byoc_registry_target;

typedef struct byoc_registry_manifest {
    char *media_type;         /* the document's mediaType, else the Content-Type */
    char *digest;             /* "sha256:<hex>" of the bytes */
    json_t *doc;              /* the parsed manifest */
} byoc_registry_manifest;

void byoc_registry_manifest_clear(byoc_registry_manifest *m);

/* True for an index or manifest list media type. */
bool byoc_manifest_is_index(const char *media_type);

/* In an index or manifest list, the entry for os/arch (any variant) whose
 * digest is a well-formed "sha256:<64 hex>", or NULL. Attestation entries
 * (BuildKit provenance and SBOM: platform unknown/unknown or the annotation
 * vnd.docker.reference.type) are never picked; *attestations counts them.
 * present (may be NULL) receives the image platforms the index holds,
 * "linux/amd64, linux/arm64/v8", as the index says them (hostile text: print
 * it through the printable pass). */
const json_t *byoc_manifest_index_entry(const json_t *index, const char *os, const char *arch,
                                        byoc_buf *present, size_t *attestations);

/* The image platforms of an index, as byoc_manifest_index_entry lists them,
 * as a JSON array of strings (caller decrefs); *attestations (may be NULL)
 * counts the attestation entries left out. */
json_t *byoc_manifest_index_platforms(const json_t *index, size_t *attestations);

/* The manifest. A missing one is BYOC_E_FAILED with code MANIFEST_UNKNOWN or
 * NAME_UNKNOWN and http_status 404; a refused login UNAUTHORIZED (401). */
int byoc_registry_get_manifest(const byoc_registry_target *r, byoc_task *t, const char *repository,
                               const char *reference, byoc_registry_manifest *out, byoc_err *err);

/* A blob as JSON (an image config), up to max_bytes (0: 4 MiB). Caller decrefs *out. */
int byoc_registry_get_json_blob(const byoc_registry_target *r, byoc_task *t, const char *repository,
                                const char *digest, size_t max_bytes, json_t **out, byoc_err *err);

#endif
