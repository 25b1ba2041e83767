#include "byoc/measure_base.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "aws/client.h"
#include "aws/clients.h"
#include "aws/ecr.h"
#include "byoc/recipe.h"
#include "core/buf.h"
#include "core/str.h"
#include "core/utf8.h"
#include "docker/images.h"
#include "docker/pull.h"
#include "docker/registry_auth.h"

#define PREBUILT_REPO "/amazon-braket-base-jobs:"
#define JOBS_PLATFORM "linux/amd64"

/* 0 with the image's id in *id; 1 when the engine does not have the image; -1 on another error. */
static int local_id(byoc_engine *e, byoc_task *t, const char *ref, char **id, byoc_err *err)
{
    json_t *doc = NULL;
    if (byoc_image_inspect(e, t, ref, &doc, err) != 0)
        return err->http_status == 404 ? 1 : -1;
    const char *image_id = json_string_value(json_object_get(doc, "Id"));
    *id = byoc_xstrdup_opt(image_id);
    json_decref(doc);
    return *id ? 0 : byoc_err_set(err, BYOC_E_FAILED, "--measure", "the engine gave no id for %s", ref);
}

static char *local_prebuilt(byoc_engine *e, byoc_task *t, byoc_err *err, int *rc)
{
    byoc_image_list l;
    *rc = byoc_images_list(e, t, false, NULL, &l, err);
    if (*rc != 0)
        return NULL;
    char *found = NULL;
    for (size_t i = 0; i < l.n && !found; i++)
        for (size_t j = 0; j < l.items[i].n_repo_tags && !found; j++)
            if (byoc_image_is_prebuilt(l.items[i].repo_tags[j]) && strstr(l.items[i].repo_tags[j], PREBUILT_REPO))
                found = byoc_xstrdup(l.items[i].repo_tags[j]);
    byoc_image_list_clear(&l);
    return found;
}

/* Pull the region's prebuilt jobs image with the caller's ECR token: its reference, or NULL with
 * *why saying what stopped it (no region, no credentials, the registry's refusal...). */
static char *pull_prebuilt(byoc_engine *e, byoc_task *t, const byoc_aws_config_opts *aws, byoc_aws_clients *clients,
                           char **why, byoc_err *err)
{
    byoc_aws_client *ecr = NULL;
    byoc_err e2;
    byoc_err_clear(&e2);
    char line[900];
    if (byoc_aws_clients_get(clients, aws, &ecr, &e2) != 0) {
        *why = byoc_xstrdup(byoc_err_format(&e2, line, sizeof line));
        return NULL;
    }
    char *ref = byoc_prebuilt_image_uri(byoc_aws_client_region(ecr), false);
    byoc_ecr_token tok;
    memset(&tok, 0, sizeof tok);
    byoc_task_status(t, "logging in to pull %s", ref);
    if (byoc_ecr_get_authorization_token(ecr, t, NULL, time(NULL), &tok, &e2) != 0) {
        *why = byoc_xasprintf("no ECR login: %s", byoc_err_format(&e2, line, sizeof line));
    } else {
        const char *slash = strchr(ref, '/');
        char *host = byoc_xstrndup(ref, (size_t)(slash - ref));
        char *auth = byoc_registry_auth_header(tok.username, tok.password, host);
        if (byoc_docker_pull(e, t, ref, JOBS_PLATFORM, auth, &e2) != 0)
            *why = byoc_xstrdup(byoc_err_format(&e2, line, sizeof line));
        byoc_free_secret(auth);
        free(host);
    }
    byoc_ecr_token_clear(&tok);
    byoc_aws_client_free(ecr);
    if (e2.kind == BYOC_E_CANCELLED || byoc_task_cancelled(t)) {
        free(*why);
        *why = NULL;
        free(ref);
        byoc_err_set(err, BYOC_E_CANCELLED, "--measure", "cancelled while pulling the prebuilt jobs image");
        return NULL;
    }
    if (*why) {
        free(ref);
        return NULL;
    }
    return ref;
}

int byoc_measure_base_resolve(byoc_engine *e, byoc_task *t, const char *named, const byoc_aws_config_opts *aws,
                              byoc_aws_clients *clients,
                              byoc_measure_base *out, byoc_err *err)
{
    memset(out, 0, sizeof *out);
    if (named) {
        int rc = local_id(e, t, named, &out->id, err);
        if (rc == 1) {
            char *shown = byoc_printable_dup(named);
            byoc_err_set(err, BYOC_E_ENV, "--measure-base",
                         "image %s is not in the local engine and byoc does not pull a named base: pull it "
                         "(docker pull %s) or name a local image with --measure-base",
                         shown, shown);
            free(shown);
        }
        if (rc != 0)
            return -1;
        out->ref = byoc_xstrdup(named);
        return 0;
    }
    int rc;
    char *ref = local_prebuilt(e, t, err, &rc);
    if (rc != 0)
        return -1;
    char *why = NULL;
    if (!ref && aws) {
        ref = pull_prebuilt(e, t, aws, clients, &why, err);
        if (!ref && !why)
            return -1; /* cancelled */
        out->pulled = ref != NULL;
    } else if (!ref) {
        why = byoc_xstrdup("no AWS settings were given to pull it with");
    }
    if (ref) {
        rc = local_id(e, t, ref, &out->id, err);
        if (rc != 0) {
            if (rc == 1)
                byoc_err_set(err, BYOC_E_FAILED, "--measure", "the engine lost %s right after pulling it", ref);
            free(ref);
            return -1;
        }
        out->ref = ref;
        if (out->pulled)
            out->note = byoc_xasprintf("pulled %s with your AWS credentials", ref);
        return 0;
    }
    const char *fallback = "python:" BYOC_PREBUILT_PYTHON;
    rc = local_id(e, t, fallback, &out->id, err);
    if (rc == 0) {
        out->ref = byoc_xstrdup(fallback);
        out->note = byoc_xasprintf("the prebuilt jobs image could not be pulled (%s); measured in %s, the closest "
                                   "public Python base",
                                   why, fallback);
        free(why);
        return 0;
    }
    if (rc == 1)
        byoc_err_set(err, BYOC_E_ENV, "--measure",
                     "no base to measure in: the prebuilt jobs image (" BYOC_PREBUILT_ACCOUNT
                     ".dkr.ecr.<region>.amazonaws.com/amazon-braket-base-jobs) could not be pulled (%s), and %s is "
                     "not in the local engine: give byoc AWS credentials that can pull it, pull python:%s, or name "
                     "a local Python image with --measure-base",
                     why, fallback, BYOC_PREBUILT_PYTHON);
    free(why);
    return -1;
}
