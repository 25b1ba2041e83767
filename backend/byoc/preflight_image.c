/* preflight, the image group: in ECR, manifest shape, architecture, pushed = local digest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aws/ecr.h"
#include "byoc/preflight_ctx.h"
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
    byoc_ecr_image_list_clear(&found);
}

/* Whether Braket's jobs accept OCI media types is not documented; SageMaker has
 * refused both the OCI index and the OCI manifest ("Unsupported manifest media
 * type": aws/amazon-sagemaker-feedback#180, mlflow/mlflow#13834,
 * moby/buildkit#5480). So an OCI or multi-platform image is a warning with the
 * workaround (docker/buildx#1533), never a pass and never a failure. */
#define DOCKER_V2_FIX                                                                                                 \
    "push a single-platform Docker v2 schema 2 manifest: byoc push sends one; with buildx, build with "              \
    "--platform linux/amd64 --provenance=false --sbom=false --output type=docker and byoc push it "                  \
    "(or set oci-mediatypes=false, docker/buildx#1533)"

/* image.architecture from a single-platform manifest's config. */
static void check_config_arch(pf_ctx *c, const byoc_registry_target *reg, const json_t *manifest, const char *via)
{
    byoc_err err;
    byoc_err_clear(&err);
    const char *cfg = json_string_value(json_object_get(json_object_get(manifest, "config"), "digest"));
    json_t *config = NULL;
    if (!cfg) {
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "push the image again (byoc push)",
               "the manifest%s names no image config", via);
    } else if (byoc_registry_get_json_blob(reg, c->t, c->repository, cfg, 0, &config, &err) != 0) {
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "push the image again (byoc push)",
               "the image config%s could not be read: %s", via, err.message);
    } else {
        const char *arch = json_string_value(json_object_get(config, "architecture"));
        const char *os = json_string_value(json_object_get(config, "os"));
        if (!arch)
            arch = "?";
        if (strcmp(arch, "amd64") == 0)
            pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_PASS, NULL, "%s/%s%s, as ml.* instances run",
                   os ? os : "?", arch, via);
        else
            pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_FAIL,
                   "rebuild for x86_64 (byoc build --platform linux/amd64) and push again",
                   "the image%s is %s/%s: ml.* instances are x86_64 and would fail with \"exec format error\"", via,
                   os ? os : "?", arch);
    }
    json_decref(config);
}

/* An index (OCI) or manifest list (Docker): the job's x86_64 instance would
 * take its linux/amd64 entry, so that entry is what is judged. */
static void check_index(pf_ctx *c, const byoc_registry_target *reg, const char *ref, const byoc_registry_manifest *m)
{
    byoc_buf present = BYOC_BUF_INIT;
    size_t att = 0;
    const json_t *entry = byoc_manifest_index_entry(m->doc, "linux", "amd64", &present, &att);
    size_t n = json_array_size(json_object_get(m->doc, "manifests"));
    char atts[96] = "";
    if (att)
        snprintf(atts, sizeof atts, " and %zu attestation%s (BuildKit provenance/SBOM)", att, att == 1 ? "" : "s");
    const char *platforms = present.len ? present.data : "no image platform";
    pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_WARN, DOCKER_V2_FIX,
           "%s:%s is %s (%s) of %zu manifest%s: %s%s; whether Braket jobs accept an index is not documented "
           "(SageMaker has refused OCI media types)",
           c->repository, ref, strcmp(m->media_type, BYOC_MT_OCI_INDEX) == 0 ? "an OCI image index" : "a manifest list",
           m->media_type, n, n == 1 ? "" : "s", platforms, atts);
    if (!entry) {
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_FAIL,
               "rebuild for x86_64 (byoc build --platform linux/amd64) and push again",
               "the index has no linux/amd64 image (it holds %s): ml.* instances are x86_64", platforms);
        byoc_buf_clear(&present);
        return;
    }
    byoc_buf_clear(&present);
    const char *digest = json_string_value(json_object_get(entry, "digest"));
    byoc_registry_manifest em;
    byoc_err err;
    byoc_err_clear(&err);
    if (byoc_registry_get_manifest(reg, c->t, c->repository, digest, &em, &err) != 0) {
        char line[900];
        byoc_err_format(&err, line, sizeof line);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "push the image again (byoc push)",
               "the index's linux/amd64 entry %s could not be read: %s", digest, line);
        return;
    }
    if (byoc_manifest_is_index(em.media_type))
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, DOCKER_V2_FIX,
               "the index's linux/amd64 entry %s is itself an index: not followed further", digest);
    else
        check_config_arch(c, reg, em.doc, " (the index's linux/amd64 entry)");
    byoc_registry_manifest_clear(&em);
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
        byoc_ecr_token_clear(&tok);
        return;
    }
    *pushed_digest = byoc_xstrdup(m.digest);
    if (byoc_manifest_is_index(m.media_type)) {
        check_index(c, &reg, ref, &m);
    } else if (strcmp(m.media_type, BYOC_MT_OCI_MANIFEST) == 0) {
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_WARN, DOCKER_V2_FIX,
               "OCI image manifest (%s), %s: whether Braket jobs accept OCI media types is not documented "
               "(SageMaker has refused them)", m.media_type, m.digest);
        check_config_arch(c, &reg, m.doc, "");
    } else if (strcmp(m.media_type, BYOC_MT_DOCKER_MANIFEST) == 0) {
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_PASS, NULL, "single-platform Docker v2 manifest (%s), %s",
               m.media_type, m.digest);
        check_config_arch(c, &reg, m.doc, "");
    } else {
        pf_add(c, PF_ORD_IMAGE + 2, "image.manifest", BYOC_PF_FAIL, "push with a current Docker engine (byoc push)",
               "unsupported manifest media type '%s'", m.media_type);
        pf_add(c, PF_ORD_IMAGE + 3, "image.architecture", BYOC_PF_WARN, "see image.manifest", "not checked");
    }
    byoc_registry_manifest_clear(&m);
    byoc_ecr_token_clear(&tok);
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
    byoc_buf_clear(&want);
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
    if (byoc_aws_clients_get(c->opts->clients, &ao, &ecr, &err) != 0) {
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
