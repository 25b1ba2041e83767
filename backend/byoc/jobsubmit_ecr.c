/* The job image check against ECR (byoc_job_ecr_image_check, jobsubmit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/ecr.h"
#include "byoc/jobsubmit.h"
#include "core/buf.h"

#define WHAT "--image-uri (algorithmSpecification.containerImage.uri)"

/* <account>.dkr.ecr.<region>.<suffix>/<repository>(:tag|@digest), already validated. */
typedef struct {
    char account[32];
    char region[64];
    char *repository;
    char *tag;
    char *digest;
} image_ref;

static int parse(const char *uri, image_ref *r)
{
    memset(r, 0, sizeof *r);
    const char *slash = strchr(uri, '/');
    const char *dkr = strstr(uri, ".dkr.ecr.");
    if (!slash || !dkr || dkr > slash)
        return -1;
    snprintf(r->account, sizeof r->account, "%.*s", (int)(dkr - uri), uri);
    const char *reg = dkr + strlen(".dkr.ecr.");
    snprintf(r->region, sizeof r->region, "%.*s", (int)strcspn(reg, "."), reg);
    const char *path = slash + 1;
    const char *at = strchr(path, '@');
    if (at) {
        r->repository = byoc_xstrndup(path, (size_t)(at - path));
        r->digest = byoc_xstrdup(at + 1);
    } else {
        const char *colon = strrchr(path, ':');
        if (!colon)
            return -1;
        r->repository = byoc_xstrndup(path, (size_t)(colon - path));
        r->tag = byoc_xstrdup(colon + 1);
    }
    return 0;
}

static void ref_free(image_ref *r)
{
    free(r->repository);
    free(r->tag);
    free(r->digest);
}

int byoc_job_ecr_image_check(void *ud, byoc_task *t, const byoc_aws_config_opts *aws, const char *account,
                             const char *image_uri, char *note, size_t note_size, byoc_err *err)
{
    (void)ud;
    image_ref ref;
    if (parse(image_uri, &ref) != 0) {
        ref_free(&ref);
        return byoc_err_set(err, BYOC_E_USAGE, WHAT, "'%s' is not an ECR image URI", image_uri);
    }
    if (account && strcmp(account, ref.account) != 0) {
        snprintf(note, note_size, "%s is in account %s's registry, not yours (%s)", image_uri, ref.account, account);
        ref_free(&ref);
        return 1;
    }
    byoc_aws_config_opts o = aws ? *aws : (byoc_aws_config_opts){0};
    o.region = ref.region;
    byoc_aws_client *c;
    if (byoc_aws_client_new(&o, &c, err) != 0) {
        ref_free(&ref);
        return -1;
    }
    byoc_ecr_image_id id = {.digest = ref.digest, .tag = ref.tag};
    byoc_ecr_image_list found = {0};
    int rc = byoc_ecr_describe_images(c, t, ref.repository, &id, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &found, err);
    if (rc == 0 && found.n == 0)
        rc = byoc_err_set(err, BYOC_E_FAILED, "ecr", "DescribeImages: no image");
    if (rc != 0) {
        if (strcmp(err->code, "RepositoryNotFoundException") == 0) {
            rc = byoc_err_set(err, BYOC_E_USAGE, WHAT,
                              "the image is not in ECR: repository %s does not exist in %s (push it first: byoc push)",
                              ref.repository, ref.region);
        } else if (strcmp(err->code, "ImageNotFoundException") == 0 || found.n == 0) {
            rc = byoc_err_set(err, BYOC_E_USAGE, WHAT, "the image is not in ECR: %s has no %s %s (push it first: byoc push)",
                              ref.repository, ref.tag ? "tag" : "digest", ref.tag ? ref.tag : ref.digest);
        } else if (strcmp(err->code, "AccessDeniedException") == 0) {
            snprintf(note, note_size, "ecr:DescribeImages is not allowed for these credentials");
            byoc_err_clear(err);
            rc = 1;
        }
    }
    byoc_ecr_image_list_free(&found);
    byoc_aws_client_free(c);
    ref_free(&ref);
    return rc;
}
