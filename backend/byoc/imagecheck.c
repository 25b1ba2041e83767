#include "byoc/imagecheck.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/client.h"
#include "aws/ecr.h"
#include "core/buf.h"

void byoc_ecr_image_uri_clear(byoc_ecr_image_uri *u)
{
    if (!u)
        return;
    free(u->account);
    free(u->region);
    free(u->repository);
    free(u->tag);
    free(u->digest);
    memset(u, 0, sizeof *u);
}

static bool no(char *why, size_t n, const char *msg)
{
    if (why && n)
        snprintf(why, n, "%s", msg);
    return false;
}

bool byoc_ecr_image_uri_parse(const char *uri, byoc_ecr_image_uri *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (!uri)
        return no(why, why_size, "no image URI");
    const char *slash = strchr(uri, '/');
    if (!slash)
        return no(why, why_size, "expected <account>.dkr.ecr.<region>.amazonaws.com/<repository>[:tag]");
    char *host = byoc_xstrndup(uri, (size_t)(slash - uri));
    size_t hl = strlen(host);
    bool ok = hl > 13 && host[12] == '.';
    for (size_t i = 0; ok && i < 12; i++)
        ok = isdigit((unsigned char)host[i]);
    const char *rest = ok ? host + 13 : "";
    if (ok && strncmp(rest, "dkr.ecr-fips.", 13) == 0)
        rest += 13;
    else if (ok && strncmp(rest, "dkr.ecr.", 8) == 0)
        rest += 8;
    else
        ok = false;
    const char *suffix = ok ? strstr(rest, ".amazonaws.com") : NULL;
    ok = suffix && suffix > rest && (strcmp(suffix, ".amazonaws.com") == 0 || strcmp(suffix, ".amazonaws.com.cn") == 0);
    if (!ok) {
        free(host);
        return no(why, why_size, "the host is not <account>.dkr.ecr.<region>.amazonaws.com");
    }
    out->account = byoc_xstrndup(host, 12);
    out->region = byoc_xstrndup(rest, (size_t)(suffix - rest));
    free(host);
    const char *name = slash + 1, *at = strchr(name, '@');
    const char *colon = strrchr(name, ':');
    size_t name_len;
    if (at) {
        name_len = (size_t)(at - name);
        out->digest = byoc_xstrdup(at + 1);
    } else if (colon && !strchr(colon, '/')) {
        name_len = (size_t)(colon - name);
        out->tag = byoc_xstrdup(colon + 1);
    } else {
        name_len = strlen(name);
        out->tag = byoc_xstrdup("latest");
    }
    out->repository = byoc_xstrndup(name, name_len);
    char reason[160];
    if (!byoc_ecr_repository_name_ok(out->repository, reason, sizeof reason)) {
        char msg[220];
        snprintf(msg, sizeof msg, "repository '%s': %s", out->repository, reason);
        byoc_ecr_image_uri_clear(out);
        return no(why, why_size, msg);
    }
    if ((out->tag && !*out->tag) || (out->digest && strncmp(out->digest, "sha256:", 7) != 0)) {
        byoc_ecr_image_uri_clear(out);
        return no(why, why_size, "expected :tag or @sha256:<hex> after the repository");
    }
    return true;
}

#define WHAT "--image-uri (algorithmSpecification.containerImage.uri)"

int byoc_ecr_image_check(void *ud, byoc_task *t, const byoc_aws_config_opts *aws, const char *account,
                         const char *image_uri, char *note, size_t note_size, byoc_err *err)
{
    if (note && note_size)
        note[0] = 0;
    byoc_ecr_image_uri u;
    char why[256];
    if (!byoc_ecr_image_uri_parse(image_uri, &u, why, sizeof why)) {
        if (note)
            snprintf(note, note_size, "%s is not an ECR image URI (%s); not checked", image_uri, why);
        return 1;
    }
    if (account && *account && strcmp(account, u.account) != 0) {
        if (note)
            snprintf(note, note_size, "%s is in account %s's registry, not yours (%s)", image_uri, u.account, account);
        byoc_ecr_image_uri_clear(&u);
        return 1;
    }
    byoc_aws_config_opts o = aws ? *aws : (byoc_aws_config_opts){0};
    o.region = u.region;
    byoc_aws_client *c;
    if (byoc_aws_clients_get(ud, &o, &c, err) != 0) {
        byoc_ecr_image_uri_clear(&u);
        return -1;
    }
    byoc_ecr_image_id id = {.digest = u.digest, .tag = u.tag};
    byoc_ecr_image_list found = {0};
    int rc = byoc_ecr_describe_images(c, t, u.repository, &id, 1, BYOC_ECR_TAG_STATUS_ANY, 0, &found, err);
    if (rc == 0 ? found.n == 0 : strcmp(err->code, "ImageNotFoundException") == 0) {
        rc = byoc_err_set(err, BYOC_E_USAGE, WHAT, "the image is not in ECR: %s has no %s %s (push it first: byoc push)",
                          u.repository, u.tag ? "tag" : "digest", u.tag ? u.tag : u.digest);
    } else if (rc != 0 && strcmp(err->code, "RepositoryNotFoundException") == 0) {
        rc = byoc_err_set(err, BYOC_E_USAGE, WHAT,
                          "the image is not in ECR: repository %s does not exist in %s (push it first: byoc push)",
                          u.repository, u.region);
    } else if (rc != 0 && strcmp(err->code, "AccessDeniedException") == 0) {
        if (note)
            snprintf(note, note_size, "ecr:DescribeImages is not allowed for these credentials");
        byoc_err_clear(err);
        rc = 1;
    }
    byoc_ecr_image_list_clear(&found);
    byoc_aws_client_free(c);
    byoc_ecr_image_uri_clear(&u);
    return rc;
}
