/* preflight, the image group: in ECR, manifest shape, architecture, pushed = local digest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/ecr.h"
#include "byoc/preflight_internal.h"
#include "core/buf.h"
#include "docker/images.h"
#include "docker/manifest.h"

static void check_in_ecr(pf_ctx *c, byoc_aws_client *ecr)
{
    const char *ref = c->tag ? c->tag : c->digest;
    byoc_ecr_image_id id = {.digest = c->digest, .tag = c->tag};
    byoc_ecr_image_list found = {0};
    byoc_err err;
    byoc_err_clear(&err);
    char fix[400];
    snprintf(fix, sizeof fix, "byoc --region %s push <local image> --repository %s --tag %s --create", c->image_region,
             c->repository, c->tag ? c->tag : "<tag>");
    int rc = byoc_ecr_describe_images(ecr, c->t, c->repository, &id, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &found, &err);
    if (rc != 0) {
        if (strcmp(err.code, "RepositoryNotFoundException") == 0)
            pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_FAIL, fix, "repository %s does not exist in ECR %s",
                   c->repository, c->image_region);
        else if (strcmp(err.code, "ImageNotFoundException") == 0)
            pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_FAIL, fix, "%s has no image %s in ECR %s", c->repository,
                   ref, c->image_region);
        else {
            char line[900];
            byoc_err_format(&err, line, sizeof line);
            pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_WARN, "allow ecr:DescribeImages to check the image",
                   "could not check ECR: %s", line);
        }
    } else if (found.n == 0) {
        pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_FAIL, fix, "%s has no image %s in ECR %s", c->repository, ref,
               c->image_region);
    } else if (c->account && *c->account && strcmp(c->account, c->image_account) != 0) {
        pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_WARN,
               "grant the execution role pull in that repository's policy (byoc permit), or push to your account",
               "%s:%s is in account %s's registry, not yours (%s)", c->repository, ref, c->image_account, c->account);
    } else {
        pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_PASS, NULL, "%s:%s is in ECR %s (%s)", c->repository, ref,
               c->image_region, found.items[0].digest ? found.items[0].digest : "");
    }
    byoc_ecr_image_list_free(&found);
}

/* True when an index holds an attestation manifest (BuildKit provenance / SBOM). */
static bool has_attestation(const json_t *doc)
{
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(doc, "manifests"), i, m)
    {
        const char *type =
            json_string_value(json_object_get(json_object_get(m, "annotations"), "vnd.docker.reference.type"));
        const char *os = json_string_value(json_object_get(json_object_get(m, "platform"), "os"));
        if ((type && strcmp(type, "attestation-manifest") == 0) || (os && strcmp(os, "unknown") == 0))
            return true;
    }
    return false;
}

static void check_manifest(pf_ctx *c, byoc_aws_client *ecr, char **pushed_digest)
{
    byoc_err err;
    byoc_err_clear(&err);
    byoc_ecr_token tok;
    memset(&tok, 0, sizeof tok);
    if (byoc_ecr_get_authorization_token(ecr, c->t, c->image_account, time(NULL), &tok, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_WARN, "allow ecr:GetAuthorizationToken to check the manifest",
               "no registry login: %s", line);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "allow ecr:GetAuthorizationToken",
               "not checked: no registry login");
        return;
    }
    byoc_registry_target reg = {.host = c->image_host, .username = tok.username, .password = tok.password};
    byoc_registry_manifest m;
    const char *ref = c->digest ? c->digest : c->tag;
    if (byoc_registry_get_manifest(&reg, c->t, c->repository, ref, &m, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        bool missing = err.http_status == 404;
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", missing ? BYOC_PF_FAIL : BYOC_PF_WARN,
               missing ? "push the image again (byoc push)" : "check the registry endpoint and TLS trust",
               "GET manifest: %s", line);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "see image.manifest",
               "not checked: no manifest");
        byoc_ecr_token_free(&tok);
        return;
    }
    *pushed_digest = byoc_xstrdup(m.digest);
    if (byoc_manifest_is_index(m.media_type)) {
        bool att = has_attestation(m.doc);
        size_t n = json_array_size(json_object_get(m.doc, "manifests"));
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_FAIL,
               att ? "rebuild with provenance and SBOM off (docker buildx build --provenance=false --sbom=false "
                     "--platform linux/amd64, or byoc build) and push again"
                   : "push a single-platform image (build with --platform linux/amd64, or byoc build) and push again",
               "%s:%s is an %s of %zu manifests%s (%s); Braket needs a single-platform Docker v2 or OCI manifest",
               c->repository, ref, att ? "attestation index" : "image index", n,
               att ? " (BuildKit provenance/SBOM attestations)" : "", m.media_type);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "see image.manifest",
               "not checked: the tag names an index");
    } else if (strcmp(m.media_type, BYOC_MT_DOCKER_MANIFEST) != 0 && strcmp(m.media_type, BYOC_MT_OCI_MANIFEST) != 0) {
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_FAIL, "push with a current Docker engine (byoc push)",
               "unsupported manifest media type '%s'", m.media_type);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "see image.manifest", "not checked");
    } else {
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_PASS, NULL, "single-platform manifest (%s), %s",
               m.media_type, m.digest);
        const char *cfg = json_string_value(json_object_get(json_object_get(m.doc, "config"), "digest"));
        json_t *config = NULL;
        if (!cfg || byoc_registry_get_json_blob(&reg, c->t, c->repository, cfg, 0, &config, &err) != 0) {
            pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "push the image again (byoc push)",
                   "the image config could not be read: %s", err.message);
        } else {
            const char *arch = json_string_value(json_object_get(config, "architecture"));
            const char *os = json_string_value(json_object_get(config, "os"));
            if (!arch)
                arch = "?";
            if (strcmp(arch, "amd64") == 0)
                pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_PASS, NULL, "%s/%s, as ml.* instances run",
                       os ? os : "?", arch);
            else
                pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_FAIL,
                       "rebuild for x86_64 (byoc build --platform linux/amd64) and push again",
                       "the image is %s/%s: ml.* instances are x86_64 and would fail with \"exec format error\"",
                       os ? os : "?", arch);
        }
        json_decref(config);
    }
    byoc_registry_manifest_free(&m);
    byoc_ecr_token_free(&tok);
}

static void check_local_digest(pf_ctx *c, const char *pushed)
{
    byoc_engine *e = c->opts->engine, *own = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (!e && byoc_engine_new(&own, &err) == 0)
        e = own;
    json_t *img = NULL;
    if (!e || byoc_image_inspect(e, c->t, c->spec->image_uri, &img, &err) != 0) {
        pf_add(c, PF_ORD_IMAGE + 4, "image.digest", BYOC_PF_WARN,
               "build or pull the image locally to compare it with the pushed one",
               "%s is not on the local engine: cannot compare with the pushed %s", c->spec->image_uri, pushed);
        byoc_engine_free(own);
        return;
    }
    byoc_buf want = BYOC_BUF_INIT;
    byoc_buf_printf(&want, "%s/%s@%s", c->image_host, c->repository, pushed);
    bool same = false, any = false;
    size_t i;
    json_t *d;
    json_array_foreach(json_object_get(img, "RepoDigests"), i, d)
    {
        const char *s = json_string_value(d);
        if (!s)
            continue;
        size_t rl = strlen(c->image_host) + 1 + strlen(c->repository);
        if (strncmp(s, want.data, rl) == 0 && s[rl] == '@')
            any = true;
        same = same || strcmp(s, want.data) == 0;
    }
    if (same)
        pf_add(c, PF_ORD_IMAGE + 4, "image.digest", BYOC_PF_PASS, NULL, "the local image is the pushed one (%s)",
               pushed);
    else
        pf_add(c, PF_ORD_IMAGE + 4, "image.digest", BYOC_PF_FAIL, "push the local image again (byoc push)",
               "the local %s %s the pushed %s: the job would run other code than you tested", c->spec->image_uri,
               any ? "was pushed as another digest than" : "has never been pushed as", pushed);
    byoc_buf_free(&want);
    json_decref(img);
    byoc_engine_free(own);
}

void pf_group_image(pf_ctx *c)
{
    if (!c->image_is_ecr)
        return; /* the region check already failed it */
    byoc_aws_config_opts ao = c->opts->aws;
    ao.region = c->image_region;
    byoc_aws_client *ecr = NULL;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_aws_client_new(&ao, &ecr, &err) != 0) {
        pf_add(c, PF_ORD_IMAGE + 1, "image.ecr", BYOC_PF_WARN, "check the AWS configuration (byoc doctor)",
               "no AWS client for %s: %s", c->image_region, err.message);
        return;
    }
    check_in_ecr(c, ecr);
    char *pushed = NULL;
    check_manifest(c, ecr, &pushed);
    if (pushed)
        check_local_digest(c, pushed);
    free(pushed);
    byoc_aws_client_free(ecr);
}
