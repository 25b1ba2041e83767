#include "docker/manifest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "core/buf.h"
#include "core/log.h"
#include "docker/registry_auth.h"
#include "net/deadline.h"
#include "net/http.h"

#define ACCEPT_ALL BYOC_MT_DOCKER_MANIFEST ", " BYOC_MT_DOCKER_LIST ", " BYOC_MT_OCI_MANIFEST ", " BYOC_MT_OCI_INDEX

void byoc_registry_manifest_clear(byoc_registry_manifest *m)
{
    if (!m)
        return;
    free(m->media_type);
    free(m->digest);
    json_decref(m->doc);
    memset(m, 0, sizeof *m);
}

bool byoc_manifest_is_index(const char *mt)
{
    return mt && (strcmp(mt, BYOC_MT_DOCKER_LIST) == 0 || strcmp(mt, BYOC_MT_OCI_INDEX) == 0);
}

static bool well_formed_digest(const char *d)
{
    if (!d || strncmp(d, "sha256:", 7) != 0 || strlen(d) != 7 + 64)
        return false;
    for (const char *p = d + 7; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return false;
    return true;
}

/* What may go into a registry URL's path as it is: a repository of the distribution spec's
 * path components ([a-z0-9._/-]: no "..", no "?" or "#"), and a tag or a sha256 digest. A name or
 * reference from a reply (an ECR listing, an index) is checked before it becomes a request. */
static bool path_safe(const char *repository, const char *reference)
{
    if (!repository || !*repository || strstr(repository, "..") || repository[0] == '/')
        return false;
    for (const char *p = repository; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("._/-", *p)))
            return false;
    if (well_formed_digest(reference))
        return true;
    size_t n = reference ? strlen(reference) : 0;
    if (n < 1 || n > 128 || reference[0] == '.' || reference[0] == '-')
        return false;
    for (const char *p = reference; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
            return false;
    return true;
}

/* BuildKit's provenance and SBOM entries: platform unknown/unknown, or the annotation. */
static bool is_attestation(const json_t *m)
{
    const char *type =
        json_string_value(json_object_get(json_object_get(m, "annotations"), "vnd.docker.reference.type"));
    const char *os = json_string_value(json_object_get(json_object_get(m, "platform"), "os"));
    return type || (os && strcmp(os, "unknown") == 0);
}

/* "os/arch[/variant]" of an entry, '?' for what it does not say. */
static void platform_of(const json_t *m, byoc_buf *out)
{
    const json_t *plat = json_object_get(m, "platform");
    const char *os = json_string_value(json_object_get(plat, "os"));
    const char *arch = json_string_value(json_object_get(plat, "architecture"));
    const char *variant = json_string_value(json_object_get(plat, "variant"));
    byoc_buf_printf(out, "%s/%s%s%s", os ? os : "?", arch ? arch : "?", variant ? "/" : "", variant ? variant : "");
}

const json_t *byoc_manifest_index_entry(const json_t *index, const char *os, const char *arch, byoc_buf *present,
                                        size_t *attestations)
{
    const json_t *found = NULL;
    size_t i, att = 0, listed = 0;
    json_t *m;
    json_array_foreach(json_object_get(index, "manifests"), i, m)
    {
        if (is_attestation(m)) {
            att++;
            continue;
        }
        if (present) {
            if (listed++)
                byoc_buf_puts(present, ", ");
            platform_of(m, present);
        }
        const json_t *plat = json_object_get(m, "platform");
        const char *m_os = json_string_value(json_object_get(plat, "os"));
        const char *m_arch = json_string_value(json_object_get(plat, "architecture"));
        if (!found && m_os && m_arch && strcmp(m_os, os) == 0 && strcmp(m_arch, arch) == 0 &&
            well_formed_digest(json_string_value(json_object_get(m, "digest"))))
            found = m;
    }
    if (attestations)
        *attestations = att;
    return found;
}

json_t *byoc_manifest_index_platforms(const json_t *index, size_t *attestations)
{
    json_t *list = json_array();
    size_t i, att = 0;
    json_t *m;
    byoc_buf one = BYOC_BUF_INIT;
    json_array_foreach(json_object_get(index, "manifests"), i, m)
    {
        if (is_attestation(m)) {
            att++;
            continue;
        }
        byoc_buf_reset(&one);
        platform_of(m, &one);
        json_array_append_new(list, json_stringn(one.data, one.len));
    }
    byoc_buf_clear(&one);
    if (attestations)
        *attestations = att;
    return list;
}

static char *ca_for(const byoc_registry_target *r)
{
    if (r->ca_bundle && *r->ca_bundle)
        return byoc_xstrdup(r->ca_bundle);
    const char *dir = getenv("BYOC_DOCKER_CERTS_D");
    char *path = byoc_xasprintf("%s/%s/ca.crt", dir && *dir ? dir : "/etc/docker/certs.d", r->host);
    if (access(path, R_OK) == 0)
        return path;
    free(path);
    const char *aws = getenv("AWS_CA_BUNDLE");
    return aws && *aws ? byoc_xstrdup(aws) : NULL;
}

static void sha256_digest(const char *p, size_t n, char out[72])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    EVP_Digest(p, n, md, &len, EVP_sha256(), NULL);
    strcpy(out, "sha256:");
    for (unsigned i = 0; i < len; i++)
        snprintf(out + 7 + 2 * i, 3, "%02x", md[i]);
}

static const char *str_or(const json_t *v)
{
    const char *s = json_string_value(v);
    return s ? s : "";
}

/* A registry error body {"errors":[{"code","message"}]} into err. */
static int registry_error(const byoc_http_resp *resp, const char *what, byoc_err *err)
{
    const char *code = "", *msg = "";
    json_t *doc = json_loadb(resp->body.data ? resp->body.data : "", resp->body.len, 0, NULL);
    json_t *first = json_array_get(json_object_get(doc, "errors"), 0);
    if (first) {
        code = str_or(json_object_get(first, "code"));
        msg = str_or(json_object_get(first, "message"));
    }
    byoc_err_set(err, BYOC_E_FAILED, what, "registry answered HTTP %ld%s%s", resp->status, *msg ? ": " : "", msg);
    snprintf(err->code, sizeof err->code, "%s", *code ? code : resp->status == 401 ? "UNAUTHORIZED" : "");
    err->http_status = (int)resp->status;
    json_decref(doc);
    return -1;
}

/* One GET of at most max_body bytes within the API deadline (a registry is
 * a service like any other: a reply that never ends or drips must not hold
 * byoc or its memory); follows a redirect once (ECR sends blobs from S3)
 * without the Authorization header. */
static int registry_get(const byoc_registry_target *r, byoc_task *t, const char *path, const char *accept,
                        size_t max_body, byoc_http_resp *resp, byoc_err *err)
{
    char *ca = ca_for(r);
    byoc_http_opts opts = {.ca_bundle = ca, .timeout_ms = byoc_net_api_deadline_ms(), .max_body = max_body};
    byoc_net_deadline deadline; /* one for both GETs: the redirect gets what is left */
    byoc_net_deadline_start(&deadline, opts.timeout_ms);
    char *url = byoc_xasprintf("%s://%s%s", r->plain_http ? "http" : "https", r->host, path);
    byoc_http_req req = {.method = "GET", .url = url, .opts = &opts, .task = t};
    if (accept)
        byoc_headers_add(&req.headers, "Accept", accept);
    if (r->username) {
        byoc_buf cred = BYOC_BUF_INIT;
        byoc_buf_printf(&cred, "%s:%s", r->username, r->password ? r->password : "");
        char *b64 = byoc_base64_encode(cred.data, cred.len);
        char *value = byoc_xasprintf("Basic %s", b64);
        byoc_secret_register(b64);
        byoc_headers_add(&req.headers, "Authorization", value);
        byoc_free_secret(value);
        byoc_free_secret(b64);
        byoc_buf_clear(&cred);
    }
    int rc = byoc_http_do(&req, resp, err);
    byoc_headers_clear(&req.headers);
    if (rc == 0 && resp->status >= 300 && resp->status < 400) {
        const char *loc = byoc_headers_get(&resp->headers, "Location");
        bool follow = loc && (strncmp(loc, "https://", 8) == 0 || strncmp(loc, "http://", 7) == 0);
        long left = byoc_net_deadline_left_ms(&deadline);
        if (follow && left <= 0) {
            rc = byoc_net_deadline_passed(&deadline, 1, err);
        } else if (follow) {
            opts.timeout_ms = left;
            byoc_http_req next = {.method = "GET", .url = loc, .opts = &opts, .task = t};
            byoc_http_resp second;
            memset(&second, 0, sizeof second);
            rc = byoc_http_do(&next, &second, err);
            byoc_http_resp_clear(resp);
            *resp = second;
        }
    }
    if (rc != 0 && resp->timed_out && err->kind == BYOC_E_NET)
        byoc_net_deadline_passed(&deadline, 1, err);
    free(url);
    free(ca);
    return rc;
}

int byoc_registry_get_manifest(const byoc_registry_target *r, byoc_task *t, const char *repository,
                               const char *reference, byoc_registry_manifest *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!path_safe(repository, reference))
        return byoc_err_set(err, BYOC_E_FAILED, "registry",
                            "'%s:%s' is not a repository with a tag or sha256 digest: not fetched",
                            repository ? repository : "", reference ? reference : "");
    char *path = byoc_xasprintf("/v2/%s/manifests/%s", repository, reference);
    byoc_http_resp resp;
    memset(&resp, 0, sizeof resp);
    int rc = registry_get(r, t, path, ACCEPT_ALL, BYOC_REGISTRY_MANIFEST_MAX, &resp, err);
    free(path);
    if (rc != 0 && resp.too_large)
        byoc_err_set(err, BYOC_E_FAILED, "registry",
                     "the manifest is larger than %u bytes (4 MiB, what the OCI distribution spec has registries "
                     "accept): refused",
                     BYOC_REGISTRY_MANIFEST_MAX);
    if (rc != 0) {
        byoc_err_prefix(err, "registry %s", r->host);
        byoc_http_resp_clear(&resp);
        return -1;
    }
    if (resp.status != 200) {
        registry_error(&resp, "registry", err);
        byoc_err_prefix(err, "%s/%s:%s", r->host, repository, reference);
        byoc_http_resp_clear(&resp);
        return -1;
    }
    json_error_t jerr;
    out->doc = json_loadb(resp.body.data ? resp.body.data : "", resp.body.len, 0, &jerr);
    if (!json_is_object(out->doc)) {
        byoc_err_set(err, BYOC_E_FAILED, "registry", "the manifest of %s:%s is not a JSON object", repository,
                     reference);
        byoc_http_resp_clear(&resp);
        byoc_registry_manifest_clear(out);
        return -1;
    }
    char digest[72];
    sha256_digest(resp.body.data ? resp.body.data : "", resp.body.len, digest);
    const char *said = byoc_headers_get(&resp.headers, "Docker-Content-Digest");
    if (said && strcmp(said, digest) != 0) {
        byoc_err_set(err, BYOC_E_FAILED, "registry", "manifest digest %s does not match the registry's %s", digest,
                     said);
        byoc_http_resp_clear(&resp);
        byoc_registry_manifest_clear(out);
        return -1;
    }
    /* Fetched by digest (an index's entry): the bytes must be the ones named. */
    if (strncmp(reference, "sha256:", 7) == 0 && strcmp(reference, digest) != 0) {
        byoc_err_set(err, BYOC_E_FAILED, "registry", "the manifest fetched as %s hashes to %s", reference, digest);
        byoc_http_resp_clear(&resp);
        byoc_registry_manifest_clear(out);
        return -1;
    }
    out->digest = byoc_xstrdup(digest);
    const char *mt = json_string_value(json_object_get(out->doc, "mediaType"));
    if (!mt)
        mt = byoc_headers_get(&resp.headers, "Content-Type");
    out->media_type = byoc_xstrdup(mt ? mt : "");
    byoc_http_resp_clear(&resp);
    return 0;
}

int byoc_registry_get_json_blob(const byoc_registry_target *r, byoc_task *t, const char *repository,
                                const char *digest, size_t max_bytes, json_t **out, byoc_err *err)
{
    *out = NULL;
    if (!path_safe(repository, digest) || !well_formed_digest(digest))
        return byoc_err_set(err, BYOC_E_FAILED, "registry", "'%s@%s' is not a repository with a sha256 digest: not fetched",
                            repository ? repository : "", digest ? digest : "");
    char *path = byoc_xasprintf("/v2/%s/blobs/%s", repository, digest);
    byoc_http_resp resp;
    memset(&resp, 0, sizeof resp);
    int rc = registry_get(r, t, path, NULL, max_bytes ? max_bytes : BYOC_REGISTRY_MANIFEST_MAX, &resp, err);
    free(path);
    if (rc == 0 && resp.status != 200)
        rc = registry_error(&resp, "registry", err);
    if (rc == 0) {
        char got[72];
        sha256_digest(resp.body.data ? resp.body.data : "", resp.body.len, got);
        if (strcmp(got, digest) != 0)
            rc = byoc_err_set(err, BYOC_E_FAILED, "registry", "blob %s arrived with digest %s", digest, got);
    }
    if (rc == 0) {
        *out = json_loadb(resp.body.data ? resp.body.data : "", resp.body.len, 0, NULL);
        if (!json_is_object(*out)) {
            json_decref(*out);
            *out = NULL;
            rc = byoc_err_set(err, BYOC_E_FAILED, "registry", "blob %s is not a JSON object", digest);
        }
    }
    byoc_http_resp_clear(&resp);
    return rc;
}
